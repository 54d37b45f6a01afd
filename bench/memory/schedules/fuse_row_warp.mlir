// An elementwise launch into a following row reduction: fuse them
// (ks-fuse-launches: the elementwise body runs inside the reduction's loop
// over the row), then a warp per row, 8 rows per block, 128-bit loads and
// stores, 4 turns in flight.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    %fused = transform.apply_registered_pass "ks-fuse-launches" to %root : (!transform.any_op) -> !transform.any_op
    %op = transform.structured.match ops{["scf.forall"]} in %fused : (!transform.any_op) -> !transform.any_op
    %kernel = transform.ks.simt_row_reduction %op {threads_per_row = 32, rows_per_block = 8, vector = 4, unroll = 4} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
