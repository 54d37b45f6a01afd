//===- KernelLaunch.cpp - A kernel and the launches that run it -----------===//

#include "kernelskill/Transforms/KernelLaunch.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::ks;

SmallVector<gpu::LaunchFuncOp> mlir::ks::getLaunches(gpu::GPUFuncOp kernel) {
  SmallVector<gpu::LaunchFuncOp> launches;
  auto gpuModule = kernel->getParentOfType<gpu::GPUModuleOp>();
  auto module = kernel->getParentOfType<ModuleOp>();
  if (!gpuModule || !module)
    return launches;
  module.walk([&](gpu::LaunchFuncOp launch) {
    if (launch.getKernelModuleName() == gpuModule.getNameAttr() &&
        launch.getKernelName() == kernel.getNameAttr())
      launches.push_back(launch);
  });
  return launches;
}

Value mlir::ks::stripExtensions(Value v) {
  while (Operation *op = v.getDefiningOp()) {
    if (!isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp, arith::ExtUIOp>(op))
      break;
    v = op->getOperand(0);
  }
  return v;
}

std::optional<int64_t> mlir::ks::getConstantIntValue(Value v) {
  APInt value;
  if (matchPattern(stripExtensions(v), m_ConstantInt(&value)))
    return value.getSExtValue();
  return std::nullopt;
}

namespace {
/// The ops computing `v` from the kernel's scalar arguments and constants, in
/// an order where each op follows its operands; false when `v` depends on
/// anything else (ids, memory, values defined in regions).
bool collectInvariantSlice(Value v, gpu::GPUFuncOp kernel, llvm::SetVector<Operation *> &ops) {
  if (auto arg = dyn_cast<BlockArgument>(v))
    return arg.getOwner() == &kernel.getBody().front() &&
           arg.getArgNumber() < kernel.getFunctionType().getNumInputs() &&
           !isa<MemRefType>(arg.getType());
  Operation *op = v.getDefiningOp();
  if (ops.contains(op))
    return true;
  if (op->getNumRegions() || !isMemoryEffectFree(op) || isa<gpu::GPUDialect>(op->getDialect()))
    return false;
  for (Value operand : op->getOperands())
    if (!collectInvariantSlice(operand, kernel, ops))
      return false;
  ops.insert(op);
  return true;
}
} // namespace

bool mlir::ks::isLaunchInvariant(Value v, gpu::GPUFuncOp kernel) {
  llvm::SetVector<Operation *> ops;
  return collectInvariantSlice(v, kernel, ops);
}

Value mlir::ks::cloneIntoLauncher(Value v, gpu::GPUFuncOp kernel, gpu::LaunchFuncOp launch,
                                  OpBuilder &builder) {
  llvm::SetVector<Operation *> ops;
  if (!collectInvariantSlice(v, kernel, ops))
    return Value();
  IRMapping map;
  for (unsigned i = 0, e = kernel.getFunctionType().getNumInputs(); i < e; ++i)
    map.map(kernel.getArgument(i), launch.getKernelOperands()[i]);
  for (Operation *op : ops)
    builder.clone(*op, map);
  return map.lookupOrDefault(v);
}

gpu::LaunchFuncOp mlir::ks::setLaunchDims(gpu::LaunchFuncOp launch, std::array<Value, 3> grid,
                                          std::array<Value, 3> block, Value smem) {
  OpBuilder builder(launch);
  auto replacement = gpu::LaunchFuncOp::create(
      builder, launch.getLoc(), launch.getKernelAttr(),
      gpu::KernelDim3{grid[0], grid[1], grid[2]}, gpu::KernelDim3{block[0], block[1], block[2]},
      smem, launch.getKernelOperands(),
      launch.getAsyncToken() ? launch.getAsyncToken().getType() : Type(),
      launch.getAsyncDependencies());
  // Keep the attributes other passes put on the launch.
  for (NamedAttribute attr : launch->getDiscardableAttrs())
    replacement->setAttr(attr.getName(), attr.getValue());
  if (launch.getAsyncToken())
    launch.getAsyncToken().replaceAllUsesWith(replacement.getAsyncToken());
  launch.erase();
  return replacement;
}

namespace {
/// Whether `a` and `b` are the same value up to extensions, or equal
/// constants.
bool sameValue(Value a, Value b) {
  a = stripExtensions(a);
  b = stripExtensions(b);
  if (a == b)
    return true;
  std::optional<int64_t> ca = getConstantIntValue(a), cb = getConstantIntValue(b);
  return ca && cb && *ca == *cb;
}

/// Whether `v` is `block - 1` (a constant one less than a constant block, or
/// block + (-1), block - 1).
bool isBlockMinusOne(Value v, Value block) {
  std::optional<int64_t> cv = getConstantIntValue(v), cb = getConstantIntValue(block);
  if (cv && cb)
    return *cv == *cb - 1;
  v = stripExtensions(v);
  if (auto sub = v.getDefiningOp<arith::SubIOp>())
    return sameValue(sub.getLhs(), block) && getConstantIntValue(sub.getRhs()) == 1;
  if (auto add = v.getDefiningOp<arith::AddIOp>())
    return (sameValue(add.getLhs(), block) && getConstantIntValue(add.getRhs()) == -1) ||
           (sameValue(add.getRhs(), block) && getConstantIntValue(add.getLhs()) == -1);
  return false;
}
} // namespace

bool mlir::ks::launchCovers(Value grid, Value block, Value bound) {
  std::optional<int64_t> cg = getConstantIntValue(grid), cb = getConstantIntValue(block),
                         cn = getConstantIntValue(bound);
  if (cg && cb && cn)
    return *cg * *cb >= *cn;
  Value g = stripExtensions(grid);
  Operation *div = g.getDefiningOp();
  if (isa_and_nonnull<arith::CeilDivUIOp, arith::CeilDivSIOp>(div))
    return sameValue(div->getOperand(0), bound) && sameValue(div->getOperand(1), block);
  if (!isa_and_nonnull<arith::DivUIOp, arith::DivSIOp>(div) ||
      !sameValue(div->getOperand(1), block))
    return false;
  auto add = stripExtensions(div->getOperand(0)).getDefiningOp<arith::AddIOp>();
  if (!add)
    return false;
  return (sameValue(add.getLhs(), bound) && isBlockMinusOne(add.getRhs(), block)) ||
         (sameValue(add.getRhs(), bound) && isBlockMinusOne(add.getLhs(), block));
}
