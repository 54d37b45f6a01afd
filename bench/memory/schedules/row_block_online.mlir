// A block of 256 threads per row, 128-bit loads, 2 turns in flight, no row
// kept in registers: the max loop and the sum of exponentials in one loop
// (online: the running maximum and the sum relative to it), so a row too
// long for the registers is read twice (the merged loop, the normalization)
// instead of three times.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %kernel = transform.ks.simt_row_reduction %op {threads_per_row = 256, rows_per_block = 1, vector = 4, unroll = 2, online = true} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
