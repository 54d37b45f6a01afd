// The schedule ks-agent-driver chose (measure=cuda, NVIDIA H200): apply to the lifted module with
//   ks-opt IN.mlir --transform-preload-library="transform-library-paths=THIS" --transform-interpreter --canonicalize --cse
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    %raised = transform.apply_registered_pass "ks-raise" to %root : (!transform.any_op) -> !transform.any_op
    %k0 = transform.structured.match ops{["gpu.func"]} attributes {sym_name = "histogram"} in %raised : (!transform.any_op) -> !transform.any_op
    %r0 = transform.ks.simt_privatized_atomics %k0 {bins = 256, threads = 256, items_per_thread = 64, unroll = 8} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
