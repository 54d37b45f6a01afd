// The schedule ks-agent-driver chose (measure=cuda, NVIDIA H200): apply to the lifted module with
//   ks-opt IN.mlir --transform-preload-library="transform-library-paths=THIS" --transform-interpreter --canonicalize --cse
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    %raised = transform.apply_registered_pass "ks-raise" to %root : (!transform.any_op) -> !transform.any_op
    %k0 = transform.structured.match ops{["gpu.func"]} attributes {sym_name = "col_sum"} in %raised : (!transform.any_op) -> !transform.any_op
    %r0 = transform.ks.simt_row_reduction %k0 {threads_per_row = 32, rows_per_block = 32, vector = 1, unroll = 16, cached_turns = 0, interleaved = true} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
