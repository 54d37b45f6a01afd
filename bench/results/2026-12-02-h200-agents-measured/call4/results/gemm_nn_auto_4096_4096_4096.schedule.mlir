// The schedule ks-agent-driver chose (measure=cuda, NVIDIA H200): apply to the lifted module with
//   ks-opt IN.mlir --transform-preload-library="transform-library-paths=THIS" --transform-interpreter --canonicalize --cse
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    %raised = transform.apply_registered_pass "ks-raise" to %root : (!transform.any_op) -> !transform.any_op
    %k0 = transform.structured.match ops{["gpu.func"]} attributes {sym_name = "gemm_nn"} in %raised : (!transform.any_op) -> !transform.any_op
    %r0 = transform.ks.simt_outer_product %k0 {block_tile = array<i64: 128, 128>, reduction_tile = 8, warps = array<i64: 4, 2>, lanes = array<i64: 4, 8>, thread_tile = array<i64: 4, 4>, lhs_layout = "km", rhs_layout = "kn", padding = array<i64: 4, 0>, swizzle = array<i1: false, false>, load_vector = array<i64: 4, 4>, stages = 2, group_m = 1, split_k = 1} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
