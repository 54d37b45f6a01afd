// A row schedule with four consecutive halves per lane and turn (vector<4xf16>).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    %raised = transform.apply_registered_pass "ks-raise" to %root : (!transform.any_op) -> !transform.any_op
    %k = transform.structured.match ops{["gpu.func"]} attributes {sym_name = "hrow"} in %raised : (!transform.any_op) -> !transform.any_op
    %r = transform.ks.simt_row_reduction %k {threads_per_row = 32, rows_per_block = 8, vector = 4, unroll = 4, cached_turns = 8} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
