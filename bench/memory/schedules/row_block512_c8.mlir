// A block of 512 threads per row, 128-bit loads, rows of up to 16384 elements
// kept in registers (8 turns of 4 elements per thread): read once.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %kernel = transform.ks.simt_row_reduction %op {threads_per_row = 512, rows_per_block = 1, vector = 4, unroll = 1, cached_turns = 8} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
