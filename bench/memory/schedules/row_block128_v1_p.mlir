// A block of 128 threads per row, lanes one element apart (vector = 1):
// rows of up to 1024 elements kept in registers (read once), 4 loads in
// flight; the later loop's loads of read-only buffers (RMSNorm's weight)
// issued with the row's (prefetch).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %kernel = transform.ks.simt_row_reduction %op {threads_per_row = 128, rows_per_block = 1, vector = 1, unroll = 4, cached_turns = 8, prefetch = true} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
