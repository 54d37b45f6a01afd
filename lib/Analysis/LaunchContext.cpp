//===- LaunchContext.cpp - The sizes a kernel is analyzed with ------------===//

#include "kernelskill/Analysis/LaunchContext.h"
#include "kernelskill/Analysis/IntegerSemantics.h"
#include "kernelskill/Dialect/KS/IR/KSAttrs.h"
#include "kernelskill/Dialect/KS/IR/SourceNames.h"
#include "kernelskill/Support/Formula.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

using namespace mlir;
using namespace mlir::ks;

FailureOr<llvm::StringMap<int64_t>> mlir::ks::parseWorkloadOption(StringRef text,
                                                                  std::string &error) {
  // The runtime's parser (`ks-bench --workload`), so that one workload text
  // means the same sizes to the profiler and to the measurement.
  ScalarValues parsed;
  if (!parseWorkload(text.str(), parsed, error))
    return failure();
  llvm::StringMap<int64_t> values;
  for (const auto &[name, value] : parsed)
    values[name] = value;
  return values;
}

namespace {
/// Evaluates a launcher's integer value from its arguments' values and
/// constants, with the same integer semantics the kernel simulation uses;
/// nullopt for anything else.
std::optional<int64_t> evaluateHost(Value value, const llvm::DenseMap<Value, int64_t> &args,
                                    unsigned depth = 0) {
  if (auto it = args.find(value); it != args.end())
    return it->second;
  Operation *op = value.getDefiningOp();
  if (!op || depth > 64)
    return std::nullopt;
  IntegerSemantics compute = getIntegerSemantics(op);
  if (!compute)
    return std::nullopt;
  SmallVector<std::optional<int64_t>, 3> operands;
  for (Value operand : op->getOperands())
    operands.push_back(evaluateHost(operand, args, depth + 1));
  return compute(operands);
}

/// The launch of `kernel` in the module's host code, if there is one.
gpu::LaunchFuncOp findLaunch(gpu::GPUFuncOp kernel, ModuleOp module) {
  gpu::LaunchFuncOp found;
  auto gpuModule = kernel->getParentOfType<gpu::GPUModuleOp>();
  module.walk([&](gpu::LaunchFuncOp launch) {
    if (!found && launch.getKernelName() == kernel.getName() &&
        (!gpuModule || launch.getKernelModuleName() == gpuModule.getSymName()))
      found = launch;
  });
  return found;
}
} // namespace

LaunchContext mlir::ks::resolveLaunchContext(gpu::GPUFuncOp kernel, ModuleOp module,
                                             const llvm::StringMap<int64_t> &overrides) {
  LaunchContext ctx;
  gpu::LaunchFuncOp launch = findLaunch(kernel, module);
  auto launcher = launch ? launch->getParentOfType<func::FuncOp>() : func::FuncOp();
  WorkloadAttr workload =
      launcher ? launcher->getAttrOfType<WorkloadAttr>("ks.workload") : WorkloadAttr();
  if (!workload)
    workload = kernel->getAttrOfType<WorkloadAttr>("ks.workload");

  // A value for a named integer: the option, the workload, else assumed.
  auto valueOf = [&](StringRef name) -> int64_t {
    if (auto it = overrides.find(name); it != overrides.end())
      return it->second;
    if (workload)
      if (std::optional<int64_t> v = workload.getIntScalar(name))
        return *v;
    ctx.assumptions.push_back((name + " = " + Twine(kAssumedScalar)).str());
    return kAssumedScalar;
  };
  auto extentOf = [&](StringRef name) -> std::optional<int64_t> {
    if (workload)
      return workload.getBufferExtent(name);
    return std::nullopt;
  };

  if (launch && launcher) {
    llvm::DenseMap<Value, int64_t> hostArgs;
    for (auto [i, arg] : llvm::enumerate(launcher.getArguments()))
      if (arg.getType().isIntOrIndex())
        hostArgs[arg] = valueOf(getArgumentName(launcher, i));
    gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
    gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
    Value grids[3] = {grid.x, grid.y, grid.z}, blocks[3] = {block.x, block.y, block.z};
    for (int d = 0; d < 3; ++d) {
      std::optional<int64_t> g = evaluateHost(grids[d], hostArgs);
      std::optional<int64_t> b = evaluateHost(blocks[d], hostArgs);
      if (!g || !b)
        ctx.assumptions.push_back(std::string("a launch size of ") +
                                  launcher.getName().str() + " is not computable; 1 assumed");
      else if (*g < 1 || *b < 1)
        ctx.assumptions.push_back(std::string("the launch in ") + launcher.getName().str() +
                                  " is empty for these sizes (" + (*g < 1 ? "grid" : "block") +
                                  " " + std::to_string(*g < 1 ? *g : *b) +
                                  "); analyzed with 1");
      ctx.launch.grid[d] = std::max<int64_t>(1, g.value_or(1));
      ctx.launch.block[d] = std::max<int64_t>(1, b.value_or(1));
    }
    if (Value smem = launch.getDynamicSharedMemorySize())
      ctx.dynamicSharedBytes = evaluateHost(smem, hostArgs).value_or(0);
    for (auto [i, operand] : llvm::enumerate(launch.getKernelOperands())) {
      if (i >= kernel.getNumArguments())
        break;
      if (operand.getType().isIntOrIndex()) {
        // A kernel argument the user named directly wins.
        std::string name = getArgumentName(kernel, i);
        if (auto it = overrides.find(name); it != overrides.end())
          ctx.scalars[i] = it->second;
        else if (std::optional<int64_t> v = evaluateHost(operand, hostArgs))
          ctx.scalars[i] = *v;
      } else if (auto arg = dyn_cast<BlockArgument>(operand)) {
        if (std::optional<int64_t> e = extentOf(getArgumentName(launcher, arg.getArgNumber())))
          ctx.extents[i] = *e;
      }
    }
    ctx.source = workload ? ("#ks.workload of " + launcher.getName()).str()
                          : ("the launcher " + launcher.getName()).str();
  } else {
    // No host code: the kernel's known block size, the option, or assumed.
    auto overridden = [&](StringRef what) {
      return overrides.count((what + ".x").str()) || overrides.count((what + ".y").str()) ||
             overrides.count((what + ".z").str());
    };
    if (auto known = kernel.getKnownBlockSize()) {
      for (int d = 0; d < 3; ++d)
        ctx.launch.block[d] = (*known)[d];
    } else if (overridden("block")) {
      ctx.launch.block = {1, 1, 1};
    } else {
      ctx.launch.block = {256, 1, 1};
      ctx.assumptions.push_back("a block of 256 threads");
    }
    if (auto known = kernel.getKnownGridSize()) {
      for (int d = 0; d < 3; ++d)
        ctx.launch.grid[d] = (*known)[d];
    } else if (overridden("grid")) {
      ctx.launch.grid = {1, 1, 1};
    } else {
      ctx.launch.grid = {1024, 1, 1};
      ctx.assumptions.push_back("a grid of 1024 blocks");
    }
    ctx.source = "the kernel alone";
  }
  const char *dimNames[3] = {"x", "y", "z"};
  for (int d = 0; d < 3; ++d) {
    auto setDim = [&](StringRef key, int64_t &slot) {
      if (auto it = overrides.find(key); it != overrides.end())
        slot = std::max<int64_t>(1, it->second);
    };
    setDim((Twine("block.") + dimNames[d]).str(), ctx.launch.block[d]);
    setDim((Twine("grid.") + dimNames[d]).str(), ctx.launch.grid[d]);
  }
  for (unsigned i = 0, e = kernel.getNumArguments(); i < e; ++i) {
    BlockArgument arg = kernel.getArgument(i);
    std::string name = getArgumentName(kernel, i);
    if (arg.getType().isIntOrIndex()) {
      if (!ctx.scalars.count(i))
        ctx.scalars[i] = valueOf(name);
      ctx.scalarText.push_back(name + " = " + std::to_string(ctx.scalars[i]));
    } else if (isa<MemRefType>(arg.getType()) && !ctx.extents.count(i)) {
      if (std::optional<int64_t> e = extentOf(name))
        ctx.extents[i] = *e;
    }
  }
  if (!overrides.empty())
    ctx.source += " and the workload option";
  return ctx;
}
