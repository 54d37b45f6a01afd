// Block reductions of the SIMT form: every interleaved (tid % (2*s)) or
// strided (2*s*tid) tree of every kernel to sequential addressing
// (transform.ks.simt_sequential_tree).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["gpu.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %r = transform.ks.simt_sequential_tree %k : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
