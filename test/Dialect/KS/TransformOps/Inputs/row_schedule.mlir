// transform.ks.simt_row_reduction on every forall, with the knobs a test
// puts in place of KNOBS (sed).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %kernel = transform.ks.simt_row_reduction %op {KNOBS} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
