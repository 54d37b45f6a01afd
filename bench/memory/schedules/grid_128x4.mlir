// One thread per point, 128 x 4 threads per block: longer rows per block
// (fewer halo rows re-read per point than 32 x 8).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %kernel = transform.ks.map_forall_to_grid %op {block = array<i64: 128, 4, 1>} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
