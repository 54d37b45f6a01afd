// A register window for 2-D stencils: blocks of 128 x 2 threads, each thread
// 2 consecutive rows of one column, its column of the input (4 values) loaded
// first into registers; the row neighbours are global loads.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %kernel = transform.ks.simt_halo_tile %op {tile = array<i64: 4, 128>, block = array<i64: 128, 2>, registers = true} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
