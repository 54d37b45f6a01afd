// A warp per row, lanes one element apart (vector = 1): each warp-wide load
// and store covers 32 consecutive elements (whole sectors); rows of up to
// 1024 elements kept in registers (read once), 8 loads in flight.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %kernel = transform.ks.simt_row_reduction %op {threads_per_row = 32, rows_per_block = 8, vector = 1, unroll = 8, cached_turns = 32} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
