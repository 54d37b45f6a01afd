// Column-major SGEMM with the reduction split across 4 blocks: a first kernel writes beta * C, each block adds alpha times its partial sum.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %kernel = transform.ks.simt_outer_product %op {block_tile = array<i64: 128, 128>, reduction_tile = 8, warps = array<i64: 4, 2>,
        lanes = array<i64: 4, 8>, thread_tile = array<i64: 4, 4>,
        lhs_layout = "km", rhs_layout = "kn", padding = array<i64: 4, 0>,
        load_vector = array<i64: 4, 4>, stages = 2, split_k = 4} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
