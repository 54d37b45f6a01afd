// Launch chains: fuse the back-to-back elementwise launches into one kernel
// (ks-fuse-launches), then map it onto 256 threads per block, 4 points per
// thread (256 apart).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    %fused = transform.apply_registered_pass "ks-fuse-launches" to %root : (!transform.any_op) -> !transform.any_op
    %op = transform.structured.match ops{["scf.forall"]} in %fused : (!transform.any_op) -> !transform.any_op
    %kernel = transform.ks.map_forall_to_grid %op {block = array<i64: 256, 1, 1>, coarsen = array<i64: 4, 1, 1>} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
