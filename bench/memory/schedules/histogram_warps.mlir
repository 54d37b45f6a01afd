// histogram_shared with a copy of the counters per warp (8 copies of 256 in
// a block of 256 threads): fewer threads contend for a counter where a few
// bins take most of the updates; the merge adds the 8 copies.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %kernel = transform.ks.simt_privatized_atomics %op {bins = 256, threads = 256, items_per_thread = 64, unroll = 8, copies = 8} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
