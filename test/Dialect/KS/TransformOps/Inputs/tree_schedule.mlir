// transform.ks.simt_sequential_tree on the kernel a test puts in place of
// KERNEL (sed).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["gpu.func"]} attributes {sym_name = "KERNEL"} in %root : (!transform.any_op) -> !transform.any_op
    %r = transform.ks.simt_sequential_tree %k : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
