// Scattered atomic additions (a histogram): 256 counters per block in
// shared memory, 256 threads of 64 points each (8 loads in flight per
// thread), one global update per touched counter and block.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %kernel = transform.ks.simt_privatized_atomics %op {bins = 256, threads = 256, items_per_thread = 64, unroll = 8} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
