// A block of 256 threads per row, lanes one element apart (vector = 1):
// whole sectors per warp-wide load and store; rows of up to 4096 elements
// kept in registers (read once), 4 loads in flight.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %kernel = transform.ks.simt_row_reduction %op {threads_per_row = 256, rows_per_block = 1, vector = 1, unroll = 4, cached_turns = 16} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
