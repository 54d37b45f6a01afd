// A register window for 3-D stencils: blocks of 32 x 8 threads, each thread
// 16 consecutive planes of one (x, y) column (18 values in registers); the
// neighbours within a plane are global loads.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %kernel = transform.ks.simt_halo_tile %op {tile = array<i64: 16, 8, 32>, block = array<i64: 32, 8, 1>, registers = true} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
