module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %k = transform.ks.simt_outer_product %mm {block_tile = array<i64: 128, 128>, reduction_tile = 8, warps = array<i64: 4, 2>, lanes = array<i64: 4, 8>, thread_tile = array<i64: 4, 4>, lhs_layout = "mk", rhs_layout = "kn", padding = array<i64: 4, 0>, load_vector = array<i64: 4, 4>, stages = 3, async_copy} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
