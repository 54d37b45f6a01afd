// A block of 256 threads per row (warp totals through shared memory):
// 128-bit loads, 2 turns in flight.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %kernel = transform.ks.simt_row_reduction %op {threads_per_row = 256, rows_per_block = 1, vector = 4, unroll = 2} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
