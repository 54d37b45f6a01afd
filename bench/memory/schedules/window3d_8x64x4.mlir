// A register window for 3-D stencils: blocks of 64 x 4 threads, each thread
// 8 consecutive planes of one (x, y) column (10 values in registers); the
// neighbours within a plane are global loads.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %kernel = transform.ks.simt_halo_tile %op {tile = array<i64: 8, 4, 64>, block = array<i64: 64, 4, 1>, registers = true} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
