// A 32 x 32 tile per block, 32 x 8 threads: computed with the threads along
// the forall's inner dimension, stored from a padded shared tile with the
// threads along its outer one.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %kernel = transform.ks.simt_transpose_tile %op {tile = array<i64: 32, 32>, block = array<i64: 32, 8>, pad = 1} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
