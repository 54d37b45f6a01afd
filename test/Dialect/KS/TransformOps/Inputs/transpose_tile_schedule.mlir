// A 32 x 32 tile through shared memory padded by one, 32 x 8 threads.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %kernel = transform.ks.simt_transpose_tile %op {tile = array<i64: 32, 32>, block = array<i64: 32, 8>, pad = 1} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
