// A block of 256 threads per row (warp totals through shared memory):
// 128-bit loads, 2 turns in flight; rows of up to 4096 elements kept in
// registers (read once).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %kernel = transform.ks.simt_row_reduction %op {threads_per_row = 256, rows_per_block = 1, vector = 4, unroll = 2, cached_turns = 4} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
