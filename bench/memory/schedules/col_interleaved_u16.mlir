// Column sums: 32 columns per block, each split across 32 threads 32 apart,
// 16 turns in flight (a variant of col_interleaved64.mlir: how the loads in
// flight and the registers they take trade against occupancy).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %kernel = transform.ks.simt_row_reduction %op {threads_per_row = 32, rows_per_block = 32, unroll = 16, interleaved = true} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
