// row_warp.mlir with prefetch: a warp per row, 8 rows per block, 128-bit
// loads, rows of up to 1024 elements kept in registers, and the later
// loop's loads of read-only buffers (RMSNorm's weight, LayerNorm's gamma
// and beta) issued with the row's.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %kernel = transform.ks.simt_row_reduction %op {threads_per_row = 32, rows_per_block = 8, vector = 4, unroll = 4, cached_turns = 8, prefetch = true} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
