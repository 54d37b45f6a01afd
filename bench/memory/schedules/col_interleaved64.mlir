// Column sums: 16 columns per block, each split across 64 threads 16 apart
// (a warp reads 16 adjacent columns of two rows), 8 turns in flight: twice
// the blocks of col_interleaved.mlir for the same columns.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %kernel = transform.ks.simt_row_reduction %op {threads_per_row = 64, rows_per_block = 16, unroll = 8, interleaved = true} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
