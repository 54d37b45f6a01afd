//===- KernelLaunch.cpp - A kernel and the launches that run it -----------===//

#include "kernelskill/Transforms/KernelLaunch.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::ks;

LogicalResult mlir::ks::checkKernelNames(ModuleOp module, ArrayRef<std::string> names,
                                         StringRef pass) {
  for (const std::string &name : names) {
    bool found = false;
    module.walk([&](gpu::GPUFuncOp f) { found |= f.isKernel() && f.getName() == name; });
    if (found)
      continue;
    std::string kernels;
    module.walk([&](gpu::GPUFuncOp f) {
      if (f.isKernel())
        kernels += (kernels.empty() ? "" : ", ") + f.getName().str();
    });
    return emitError(module.getLoc()) << pass << ": kernels=: no kernel named '" << name
                                      << "'; the module's kernels: " << kernels;
  }
  return success();
}

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

bool mlir::ks::isLauncherParamWith(Value launcherValue, StringRef attr) {
  auto arg = dyn_cast<BlockArgument>(launcherValue);
  auto func = arg && arg.getOwner()->isEntryBlock()
                  ? dyn_cast<FunctionOpInterface>(arg.getOwner()->getParentOp())
                  : nullptr;
  return func && func.getArgAttr(arg.getArgNumber(), attr);
}

Value mlir::ks::stripExtensions(Value v) {
  while (Operation *op = v.getDefiningOp()) {
    if (!isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp, arith::ExtUIOp>(op))
      break;
    v = op->getOperand(0);
  }
  return v;
}

namespace {
/// Where two (stripped) values' comparison is decided without looking into
/// their ops: the same value, or constants (equal or not), or ops that
/// differ or are missing. Otherwise sets `x` and `y` to their defining ops,
/// of the same name.
std::optional<bool> compareLeaves(Value a, Value b, Operation *&x, Operation *&y,
                                  function_ref<std::optional<int64_t>(Value)> constantOf) {
  if (a == b)
    return true;
  std::optional<int64_t> ca = constantOf(a), cb = constantOf(b);
  if (ca || cb)
    return ca && cb && *ca == *cb;
  x = a.getDefiningOp();
  y = b.getDefiningOp();
  if (!x || !y || x->getName() != y->getName())
    return false;
  return std::nullopt;
}
} // namespace

bool mlir::ks::sameSignedValue(Value a, Value b, int depth) {
  // Only value-preserving casts of signed values: zero extension gives
  // another value for a negative one, truncation for a wide one.
  auto strip = [](Value v) {
    while (Operation *op = v.getDefiningOp()) {
      auto cast = dyn_cast<arith::IndexCastOp>(op);
      bool widening = cast && (cast.getType().isIndex() ||
                               cast.getType().getIntOrFloatBitWidth() >= 64);
      if (!widening && !isa<arith::ExtSIOp>(op))
        break;
      v = op->getOperand(0);
    }
    return v;
  };
  auto constantOf = [](Value v) -> std::optional<int64_t> {
    APInt value;
    if (matchPattern(v, m_ConstantInt(&value)))
      return value.getSExtValue();
    return std::nullopt;
  };
  Operation *x, *y;
  if (std::optional<bool> decided = compareLeaves(strip(a), strip(b), x, y, constantOf))
    return *decided;
  if (depth == 0 || !isa<arith::AddIOp, arith::MulIOp>(x))
    return false;
  // Wrapping arithmetic narrower than 64 bits computes another value than
  // the same operation on the extended operands.
  auto exact = [](Operation *op) {
    Type t = op->getResult(0).getType();
    if (t.isIndex() || t.getIntOrFloatBitWidth() >= 64)
      return true;
    auto flags = cast<arith::ArithIntegerOverflowFlagsInterface>(op);
    return flags.hasNoSignedWrap();
  };
  if (!exact(x) || !exact(y))
    return false;
  Value x0 = x->getOperand(0), x1 = x->getOperand(1);
  Value y0 = y->getOperand(0), y1 = y->getOperand(1);
  return (sameSignedValue(x0, y0, depth - 1) && sameSignedValue(x1, y1, depth - 1)) ||
         (sameSignedValue(x0, y1, depth - 1) && sameSignedValue(x1, y0, depth - 1));
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
/// Whether `a` and `b` compute the same value: the same SSA value or equal
/// constants up to extensions, or the same arithmetic op (either operand
/// order for commutative ones) of operands that compute the same values.
bool sameValue(Value a, Value b, int depth = 6) {
  Operation *x, *y;
  if (std::optional<bool> decided =
          compareLeaves(stripExtensions(a), stripExtensions(b), x, y,
                        [](Value v) { return getConstantIntValue(v); }))
    return *decided;
  if (depth == 0 || x->getNumOperands() != 2 ||
      y->getNumOperands() != 2 || x->getNumRegions() || !isMemoryEffectFree(x) ||
      x->getName().getDialectNamespace() != "arith")
    return false;
  if (sameValue(x->getOperand(0), y->getOperand(0), depth - 1) &&
      sameValue(x->getOperand(1), y->getOperand(1), depth - 1))
    return true;
  return x->hasTrait<OpTrait::IsCommutative>() &&
         sameValue(x->getOperand(0), y->getOperand(1), depth - 1) &&
         sameValue(x->getOperand(1), y->getOperand(0), depth - 1);
}

/// `v` as base + constant, peeling additions and subtractions of constants.
std::pair<Value, int64_t> splitOffset(Value v) {
  int64_t offset = 0;
  for (;;) {
    v = stripExtensions(v);
    Operation *op = v.getDefiningOp();
    if (!isa_and_nonnull<arith::AddIOp, arith::SubIOp>(op))
      return {v, offset};
    std::optional<int64_t> rhs = getConstantIntValue(op->getOperand(1));
    std::optional<int64_t> lhs = getConstantIntValue(op->getOperand(0));
    if (rhs) {
      offset += isa<arith::SubIOp>(op) ? -*rhs : *rhs;
      v = op->getOperand(0);
    } else if (lhs && isa<arith::AddIOp>(op)) {
      offset += *lhs;
      v = op->getOperand(1);
    } else {
      return {v, offset};
    }
  }
}

/// Whether `v` is `block - 1` (block + (-1), block - 1).
bool isBlockMinusOne(Value v, Value block) {
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
  // One thread per block and a block per index: grid = bound.
  if (cb == 1 && sameValue(grid, bound))
    return true;
  Value g = stripExtensions(grid);
  // `(unsigned)((n + 511) / 512)` with a size_t n: a block count truncated
  // to 32 bits differs from the count only past 2^32 blocks, 2^32 times the
  // block's threads (at least 2^37 indices with 32 threads), more than a
  // GPU's memory holds for the buffers such a bound indexes.
  if (auto trunc = g.getDefiningOp<arith::TruncIOp>())
    if (trunc.getType().getIntOrFloatBitWidth() >= 32 && cb && *cb >= 32)
      g = stripExtensions(trunc.getIn());
  Operation *div = g.getDefiningOp();
  if (isa_and_nonnull<arith::CeilDivUIOp, arith::CeilDivSIOp>(div))
    return sameValue(div->getOperand(0), bound) && sameValue(div->getOperand(1), block);
  if (!isa_and_nonnull<arith::DivUIOp, arith::DivSIOp>(div) ||
      !sameValue(div->getOperand(1), block))
    return false;
  Value numerator = div->getOperand(0);
  // A constant block: numerator = bound + (block - 1), with the constants
  // folded in any way ((W - 2 + 31) / 32 canonicalizes to (W + 29) / 32),
  // or more: blocks of (n + 7) / 8 cover the interior bound n - 1 of a
  // stencil (floor((x + o) / b) * b >= x + o - b + 1, which is at least
  // the bound x + c when o >= c + b - 1).
  if (cb) {
    auto [numBase, numOffset] = splitOffset(numerator);
    auto [boundBase, boundOffset] = splitOffset(bound);
    return sameValue(numBase, boundBase) && numOffset >= boundOffset + *cb - 1;
  }
  auto add = stripExtensions(numerator).getDefiningOp<arith::AddIOp>();
  if (!add)
    return false;
  return (sameValue(add.getLhs(), bound) && isBlockMinusOne(add.getRhs(), block)) ||
         (sameValue(add.getRhs(), bound) && isBlockMinusOne(add.getLhs(), block));
}

Value mlir::ks::castToIndex(OpBuilder &b, Location loc, Value v, bool isUnsigned) {
  if (v.getType().isIndex())
    return v;
  if (isUnsigned)
    return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), v);
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), v);
}

bool mlir::ks::readsBlockIndex(gpu::GPUFuncOp kernel, gpu::Dimension dim) {
  return kernel
      .walk([&](gpu::BlockIdOp op) {
        return op.getDimension() == dim ? WalkResult::interrupt() : WalkResult::advance();
      })
      .wasInterrupted();
}

LogicalResult mlir::ks::rewriteLaunch(gpu::GPUFuncOp kernel, std::array<Value, 3> grid,
                                      std::array<int64_t, 3> block, std::string &why) {
  SmallVector<gpu::LaunchFuncOp> launches = getLaunches(kernel);
  for (gpu::LaunchFuncOp launch : launches) {
    OpBuilder b(launch);
    gpu::KernelDim3 oldGrid = launch.getGridSizeOperandValues();
    std::array<Value, 3> newGrid = {oldGrid.x, oldGrid.y, oldGrid.z};
    for (unsigned d = 0; d < 3; ++d) {
      if (!grid[d])
        continue;
      newGrid[d] = cloneIntoLauncher(grid[d], kernel, launch, b);
      if (!newGrid[d]) {
        why = "the grid size is not computed from the kernel's scalar arguments";
        return failure();
      }
    }
    std::array<Value, 3> newBlock;
    for (unsigned d = 0; d < 3; ++d)
      newBlock[d] = arith::ConstantIndexOp::create(b, launch.getLoc(), block[d]);
    setLaunchDims(launch, newGrid, newBlock, launch.getDynamicSharedMemorySize());
  }
  return success();
}


Block *mlir::ks::guardedBranch(scf::IfOp ifOp, bool *inElse) {
  auto empty = [](Block *b) { return !b || b->without_terminator().empty(); };
  if (ifOp.getNumResults() || empty(ifOp.thenBlock()) == empty(ifOp.elseBlock()))
    return nullptr;
  bool workInElse = empty(ifOp.thenBlock());
  if (inElse)
    *inElse = workInElse;
  return workInElse ? ifOp.elseBlock() : ifOp.thenBlock();
}
