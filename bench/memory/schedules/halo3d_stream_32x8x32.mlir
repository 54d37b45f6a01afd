// A streamed shared halo tile for 3-D stencils (2.5-D blocking): each block
// of 32 x 8 threads walks 32 planes of an 8 x 32 column, 4 planes per step
// (their loads in flight together), keeping the 6 planes of 10 x 34
// elements the step and the 7-point stencil read in shared memory.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %kernel = transform.ks.simt_halo_tile %op {tile = array<i64: 32, 8, 32>, block = array<i64: 32, 8, 1>, stream = 4} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
