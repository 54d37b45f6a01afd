// Eight points per thread along y (8 rows apart), 32 x 8 threads per block:
// each thread has eight points' loads in flight before its first store.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %kernel = transform.ks.map_forall_to_grid %op {block = array<i64: 32, 8, 1>, coarsen = array<i64: 1, 8, 1>} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
