// RUN: ks-opt %s -split-input-file -mlir-print-local-scope | FileCheck %s
// RUN: ks-opt %s -split-input-file | ks-opt -split-input-file -mlir-print-local-scope | FileCheck %s

// A proposal round-trips: knob domains in the agent's order, claims as
// formulas, the gain as written.
// CHECK-LABEL: func.func @proposed
// CHECK-SAME: ks.proposals = [#ks.proposal<agent = "memory", schedule = "outer_product", answers = ["no_reuse"], knobs = {BK = array<i64: 16, 8>, VEC_A = array<i64: 4>}, claims = {shared_bytes = "4*STAGES*BK*(BM+BN)", threads = "32*WM*WN"}, gain = 0.9, rationale = "stage A and B in shared memory">,
// CHECK-SAME: #ks.proposal<agent = "resource", schedule = "outer_product", answers = [], knobs = {}, claims = {}, gain = 0.0, rationale = "nothing to change">]
func.func @proposed() attributes {ks.proposals = [
    #ks.proposal<agent = "memory", schedule = "outer_product", answers = ["no_reuse"],
                 knobs = {BK = array<i64: 16, 8>, VEC_A = array<i64: 4>},
                 claims = {shared_bytes = "4*STAGES*BK*(BM+BN)", threads = "32*WM*WN"},
                 gain = 0.9, rationale = "stage A and B in shared memory">,
    #ks.proposal<agent = "resource", schedule = "outer_product", answers = [], knobs = {},
                 claims = {}, gain = 0, rationale = "nothing to change">]} {
  return
}
