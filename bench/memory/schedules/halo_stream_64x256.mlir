// A streamed shared halo tile for 2-D stencils: each block of 256 threads
// walks 64 rows of a 256-column strip, 8 rows per step (their loads in
// flight together), keeping the 10 rows the step and the 5-point stencil
// read (258 elements each) in shared memory.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %kernel = transform.ks.simt_halo_tile %op {tile = array<i64: 64, 256>, block = array<i64: 256, 1>, stream = 8} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
