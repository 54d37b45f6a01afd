// A shared halo tile per block for 3-D stencils: each block of 32 x 8 x 1
// threads computes 4 x 8 x 32 points (4 per thread along z), after loading
// the 6 x 10 x 34 elements of the input they read into shared memory.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %kernel = transform.ks.simt_halo_tile %op {tile = array<i64: 4, 8, 32>, block = array<i64: 32, 8, 1>} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
