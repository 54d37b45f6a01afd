// histogram_aggregated with a copy of the counters per warp (8 copies in a
// block of 256 threads): the matched lanes' one update per bin and warp no
// longer contends with the other warps'.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %kernel = transform.ks.simt_privatized_atomics %op {bins = 256, threads = 256, items_per_thread = 64, unroll = 8, copies = 8, aggregate = true} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
