// Column sums: 32 columns per block, each split across 32 threads that are
// 32 apart (interleaved lanes: a warp reads 32 adjacent columns of one row),
// 4 turns in flight; the partials combined through shared memory.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %kernel = transform.ks.simt_row_reduction %op {threads_per_row = 32, rows_per_block = 32, unroll = 4, interleaved = true} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
