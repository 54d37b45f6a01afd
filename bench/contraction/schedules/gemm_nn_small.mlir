// C = A B (row-major) at sizes where 128 x 128 tiles leave most SMs idle (1000^3: 64 tiles):
// 64 x 64 tiles of 128 threads, each an 8 x 4 register tile; otherwise as gemm_nn.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %kernel = transform.ks.simt_outer_product %op {block_tile = array<i64: 64, 64>, reduction_tile = 8, warps = array<i64: 2, 2>,
        lanes = array<i64: 4, 8>, thread_tile = array<i64: 4, 4>,
        lhs_layout = "km", rhs_layout = "kn", padding = array<i64: 4, 0>,
        load_vector = array<i64: 4, 4>, stages = 2} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
