//===- Restore.cpp - Giving a kernel back as it was lifted ----------------===//

#include "kernelskill/Driver/Restore.h"
#include "kernelskill/Driver/Lookup.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <deque>

using namespace mlir;
using namespace mlir::ks;

namespace {
SmallVector<gpu::LaunchFuncOp> launchesOf(func::FuncOp fn, StringRef kernel) {
  SmallVector<gpu::LaunchFuncOp> launches;
  fn.walk([&](gpu::LaunchFuncOp launch) {
    if (launch.getKernelName() == kernel)
      launches.push_back(launch);
  });
  return launches;
}

/// Maps what `was` (in the original launcher) may read to what `now` (at
/// the same place in the current one) reads: the function's arguments and
/// the arguments of every enclosing region, pairwise, when both sit in the
/// same nest of ops.
LogicalResult mapScopes(Operation *was, Operation *now, IRMapping &map, std::string &why) {
  Operation *p = was->getParentOp(), *q = now->getParentOp();
  while (p && q) {
    if (p->getName() != q->getName() || p->getNumRegions() != q->getNumRegions()) {
      why = "its launch sits in '" + q->getName().getStringRef().str() + "', the original's in '" +
            p->getName().getStringRef().str() + "'";
      return failure();
    }
    for (auto [r, s] : llvm::zip(p->getRegions(), q->getRegions())) {
      if (r.getBlocks().size() != s.getBlocks().size()) {
        why = "its launch's region differs from the original's";
        return failure();
      }
      for (auto [a, b] : llvm::zip(r.getBlocks(), s.getBlocks())) {
        if (a.getArgumentTypes() != b.getArgumentTypes()) {
          why = "its launch's region takes other arguments than the original's";
          return failure();
        }
        for (auto [x, y] : llvm::zip(a.getArguments(), b.getArguments()))
          map.map(x, y);
      }
    }
    if (isa<func::FuncOp>(p))
      return success();
    p = p->getParentOp();
    q = q->getParentOp();
  }
  why = "its launch is nested differently from the original's";
  return failure();
}

/// One launch to bring back: the original's `was` in place of `now`, with
/// the ops of the original launcher that `was` reads (operands first).
struct LaunchRestore {
  gpu::LaunchFuncOp was, now;
  IRMapping map;
  SmallVector<Operation *> slice;
};

/// Prepares `r` without changing anything; fails with why when `was` reads
/// anything but pure host arithmetic of the scopes both launches share.
LogicalResult prepare(LaunchRestore &r, std::string &why) {
  if (failed(mapScopes(r.was, r.now, r.map, why)))
    return failure();
  llvm::DenseSet<Operation *> seen;
  std::function<LogicalResult(Value)> visit = [&](Value v) -> LogicalResult {
    if (r.map.contains(v))
      return success();
    Operation *def = v.getDefiningOp();
    if (!def) {
      why = "its launch reads a value of a region the current launcher does not have";
      return failure();
    }
    if (!seen.insert(def).second)
      return success();
    if (def->getNumRegions() || !isMemoryEffectFree(def)) {
      why = "its launch reads '" + def->getName().getStringRef().str() +
            "', which is not pure host arithmetic";
      return failure();
    }
    for (Value operand : def->getOperands())
      if (failed(visit(operand)))
        return failure();
    r.slice.push_back(def);
    return success();
  };
  for (Value operand : r.was->getOperands())
    if (failed(visit(operand)))
      return failure();
  return success();
}

void commit(LaunchRestore &r) {
  OpBuilder b(r.now);
  for (Operation *op : r.slice)
    b.clone(*op, r.map);
  b.clone(*r.was, r.map);
  r.now.erase();
}
} // namespace

LogicalResult mlir::ks::restoreOriginal(ModuleOp module, ModuleOp original, StringRef kernel,
                                        std::string &why) {
  gpu::GPUFuncOp raised = findKernel(module, kernel), lifted = findKernel(original, kernel);
  if (!raised || !lifted) {
    why = "the original has no kernel @" + kernel.str();
    return failure();
  }
  SmallVector<func::FuncOp> launchers;
  module.walk([&](gpu::LaunchFuncOp launch) {
    auto fn = launch->getParentOfType<func::FuncOp>();
    if (launch.getKernelName() == kernel && fn && !llvm::is_contained(launchers, fn))
      launchers.push_back(fn);
  });
  // Checked before anything changes: either every launch comes back or
  // nothing does.
  SmallVector<std::pair<func::FuncOp, func::FuncOp>> whole;
  std::deque<LaunchRestore> single; // stable addresses: each holds a mapping
  for (func::FuncOp fn : launchers) {
    auto before = original.lookupSymbol<func::FuncOp>(fn.getSymName());
    if (!before) {
      why = "the original has no launcher @" + fn.getSymName().str();
      return failure();
    }
    WalkResult other = fn.walk([&](gpu::LaunchFuncOp launch) {
      return launch.getKernelName() == kernel ? WalkResult::advance() : WalkResult::interrupt();
    });
    if (!other.wasInterrupted()) {
      whole.emplace_back(fn, before);
      continue;
    }
    // The launcher launches other kernels too, whose launches stay.
    SmallVector<gpu::LaunchFuncOp> now = launchesOf(fn, kernel), was = launchesOf(before, kernel);
    if (now.size() != was.size() || fn.getFunctionType() != before.getFunctionType()) {
      why = "its launcher @" + fn.getSymName().str() +
            " also launches another kernel, and its launches of @" + kernel.str() +
            " do not match the original's";
      return failure();
    }
    for (auto [w, n] : llvm::zip(was, now)) {
      LaunchRestore &r = single.emplace_back();
      r.was = w;
      r.now = n;
      std::string launchWhy;
      if (failed(prepare(r, launchWhy))) {
        why = "its launcher @" + fn.getSymName().str() + " also launches another kernel, and " +
              launchWhy;
        return failure();
      }
    }
  }
  for (LaunchRestore &r : single)
    commit(r);
  OpBuilder b(raised);
  b.clone(*lifted);
  raised.erase();
  for (auto [now, before] : whole) {
    b.setInsertionPoint(now);
    b.clone(*before);
    now.erase();
  }
  return success();
}
