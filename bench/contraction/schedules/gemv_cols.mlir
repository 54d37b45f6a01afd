// y = A^T x: 4 columns per lane (128-bit loads along the row), 16 warps splitting the rows, 8 loads in flight.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %kernel = transform.ks.simt_split_reduction %op {lanes = array<i64: 32, 1>, warps = array<i64: 1, 16>, outputs_per_thread = 4, unroll = 8} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
