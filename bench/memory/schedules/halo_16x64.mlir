// A shared halo tile per block for 2-D stencils: each block of 64 x 4
// threads computes 16 x 64 points (4 per thread, 4 rows apart), after
// loading the 18 x 66 elements of the input they read into shared memory.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %kernel = transform.ks.simt_halo_tile %op {tile = array<i64: 16, 64>, block = array<i64: 64, 4>} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
