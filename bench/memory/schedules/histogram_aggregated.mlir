// histogram_shared with warp-aggregated updates: the lanes of a warp that
// hit the same counter are matched (match.any) and one of them adds their
// count, so a skewed input (a few bins take most updates) costs one shared
// atomic per bin and warp instead of one per lane.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %kernel = transform.ks.simt_privatized_atomics %op {bins = 256, threads = 256, items_per_thread = 64, unroll = 8, aggregate = true} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
