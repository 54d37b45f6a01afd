// row_block_v1.mlir with prefetch: a block of 256 threads per row, lanes one
// element apart, rows of up to 4096 elements kept in registers, and the
// later loop's loads of read-only buffers issued with the row's.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %kernel = transform.ks.simt_row_reduction %op {threads_per_row = 256, rows_per_block = 1, vector = 1, unroll = 4, cached_turns = 16, prefetch = true} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
