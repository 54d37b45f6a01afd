// The schedule ks-agent-driver chose (measure=cuda, NVIDIA H200): apply to the lifted module with
//   ks-opt IN.mlir --transform-preload-library="transform-library-paths=THIS" --transform-interpreter --canonicalize --cse
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    %raised = transform.apply_registered_pass "ks-raise" to %root : (!transform.any_op) -> !transform.any_op
    %k0 = transform.structured.match ops{["gpu.func"]} attributes {sym_name = "stencil3d"} in %raised : (!transform.any_op) -> !transform.any_op
    %r0 = transform.ks.simt_halo_tile %k0 {tile = array<i64: 8, 4, 64>, block = array<i64: 64, 4, 1>, registers = true} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
