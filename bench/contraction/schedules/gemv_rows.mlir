// y = A x: a warp per row, 128-bit loads along the row, 4 in flight.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matvec"]} in %root : (!transform.any_op) -> !transform.any_op
    %kernel = transform.ks.simt_split_reduction %op {lanes = array<i64: 1, 32>, warps = array<i64: 8, 1>, vector = 4, unroll = 4} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
