//===- ProposingAgents.cpp - The memory, compute and resource agents ------===//
//
// The three proposing agents are one loop over the kernels with a different
// slice of the rule table (Rules.cpp): what each knows is data, not code.
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Agents/Passes.h"
#include "kernelskill/Agents/Rules.h"
#include "kernelskill/Analysis/KernelProfile.h"
#include "kernelskill/Dialect/KS/IR/KSAttrs.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir::ks {
#define GEN_PASS_DEF_KSMEMORYAGENT
#define GEN_PASS_DEF_KSCOMPUTEAGENT
#define GEN_PASS_DEF_KSRESOURCEAGENT
#include "kernelskill/Agents/Passes.h.inc"
} // namespace mlir::ks

using namespace mlir;
using namespace mlir::ks;

namespace {

/// Writes `agent`'s proposals onto every kernel of `module`, replacing its
/// earlier ones. Fails on a bad workload option.
LogicalResult runAgent(AgentKind agent, ModuleOp module, StringRef workloadText) {
  std::string error;
  FailureOr<llvm::StringMap<int64_t>> workload = parseWorkloadOption(workloadText, error);
  if (failed(workload))
    return emitError(module.getLoc()) << "ks-" << toString(agent) << "-agent: " << error;
  auto [sku, caps] = getTargetGPU(module);
  auto arch = module->getAttrOfType<ArchAttr>(ArchAttr::kModuleAttrName);
  std::string chip = arch ? arch.getChip().str() : std::string(getDefaultGPU().chip);
  StringRef name = toString(agent);
  module.walk([&](gpu::GPUFuncOp kernel) {
    if (!kernel.isKernel())
      return;
    SmallVector<Attribute> kept;
    if (auto old = kernel->getAttrOfType<ArrayAttr>(ProposalAttr::kKernelAttrName))
      for (Attribute a : old)
        if (cast<ProposalAttr>(a).getAgent() != name)
          kept.push_back(a);
    KernelShape shape = readKernelShape(kernel, module, *workload);
    for (ProposalAttr p : proposeFor(agent, shape, chip, caps.smCount, module.getContext()))
      kept.push_back(p);
    if (kept.empty())
      kernel->removeAttr(ProposalAttr::kKernelAttrName);
    else
      kernel->setAttr(ProposalAttr::kKernelAttrName, ArrayAttr::get(module.getContext(), kept));
  });
  return success();
}

struct MemoryAgent : ks::impl::KSMemoryAgentBase<MemoryAgent> {
  using Base::Base;
  void runOnOperation() override {
    if (failed(runAgent(AgentKind::Memory, getOperation(), workload)))
      signalPassFailure();
  }
};

struct ComputeAgent : ks::impl::KSComputeAgentBase<ComputeAgent> {
  using Base::Base;
  void runOnOperation() override {
    if (failed(runAgent(AgentKind::Compute, getOperation(), workload)))
      signalPassFailure();
  }
};

struct ResourceAgent : ks::impl::KSResourceAgentBase<ResourceAgent> {
  using Base::Base;
  void runOnOperation() override {
    if (failed(runAgent(AgentKind::Resource, getOperation(), workload)))
      signalPassFailure();
  }
};

} // namespace
