// One thread per point, 32 x 8 threads per block (the forall's innermost
// dimension along x: a warp reads 128 contiguous bytes of a row).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %kernel = transform.ks.map_forall_to_grid %op {block = array<i64: 32, 8, 1>} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
