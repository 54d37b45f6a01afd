// A warp per row, 4 rows per block (128 threads): 128-bit loads, 4 turns in
// flight; rows of up to 1024 elements kept in registers (read once).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %kernel = transform.ks.simt_row_reduction %op {threads_per_row = 32, rows_per_block = 4, vector = 4, unroll = 4, cached_turns = 8} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
