// A register window for 3-D stencils: blocks of 64 x 4 threads, each thread
// 4 consecutive planes of one (x, y) column (6 values in registers).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %kernel = transform.ks.simt_halo_tile %op {tile = array<i64: 4, 4, 64>, block = array<i64: 64, 4, 1>, registers = true} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
