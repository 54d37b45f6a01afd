// The schedule ks-agent-driver chose (measure=cuda, NVIDIA H200): apply to the lifted module with
//   ks-opt IN.mlir --transform-preload-library="transform-library-paths=THIS" --transform-interpreter --canonicalize --cse
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    %raised = transform.apply_registered_pass "ks-raise" to %root : (!transform.any_op) -> !transform.any_op
    %k0 = transform.structured.match ops{["gpu.func"]} attributes {sym_name = "conv2d_nchw"} in %raised : (!transform.any_op) -> !transform.any_op
    %r0 = transform.ks.simt_outer_product %k0 {block_tile = array<i64: 128, 64>, reduction_tile = 8, warps = array<i64: 2, 2>, lanes = array<i64: 8, 4>, thread_tile = array<i64: 4, 4>, lhs_layout = "km", rhs_layout = "kn", padding = array<i64: 4, 4>, swizzle = array<i1: false, false>, load_vector = array<i64: 1, 1>, stages = 3, async_copy, group_m = 1, split_k = 1} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
