//===- Passes.td - Printing the static analyses ------------*- tablegen -*-===//
#ifndef KS_ANALYSIS_PASSES_TD
#define KS_ANALYSIS_PASSES_TD

include "mlir/Pass/PassBase.td"

def KSPrintAnalysis : Pass<"ks-print-analysis", "::mlir::ModuleOp"> {
  let summary = "Print one static analysis of each kernel as remarks (for lit tests)";
  let description = [{
    Runs the analyses of `lib/Analysis` on every `gpu.func` kernel and emits
    one remark per fact at the location it is about, so lit tests check each
    analysis on its own with FileCheck or `-verify-diagnostics`:

    - `analysis=index`: each memory access's flat index as a polynomial.
    - `analysis=coalescing`: each global access's pattern along threadIdx.x,
      its stride and the predicted sectors per request against the ideal.
    - `analysis=bank-conflicts`: each shared access's wavefronts per request.
    - `analysis=divergence`: each branch and loop: how often it splits a warp.
    - `analysis=reuse`: each load's reuse within a block and loop invariance.
    - `analysis=resources`, `occupancy`, `roofline`, `latency` (memory-level
      parallelism: load rounds per warp, bytes in flight per SM against
      bandwidth x latency): one remark per kernel.

    `workload=` gives sizes as for `ks-perf-profiler`. Resources are the
    kernel's `#ks.resources` when it has one, else estimated from the IR.
  }];
  let options = [
    Option<"analysis", "analysis", "::mlir::ks::AnalysisKind",
           /*default=*/"::mlir::ks::AnalysisKind::Coalescing",
           "The analysis to print", [{KS_ANALYSIS_KIND_VALUES}]>,
    Option<"workload", "workload", "std::string", /*default=*/"\"\"",
           "Sizes to analyze with: NAME=INT,...">,
  ];
}

#endif // KS_ANALYSIS_PASSES_TD
