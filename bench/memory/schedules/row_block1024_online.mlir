// A block of 1024 threads per row, 128-bit loads, the max loop and the sum
// of exponentials in one loop (online): rows of any length read twice.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %kernel = transform.ks.simt_row_reduction %op {threads_per_row = 1024, rows_per_block = 1, vector = 4, unroll = 1, online = true} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
