//===- KernelShape.cpp - What the proposing agents see of a kernel --------===//

#include "kernelskill/Agents/KernelShape.h"
#include "kernelskill/Transforms/Raising.h"
#include "kernelskill/Transforms/RowReduction.h"
#include "kernelskill/Transforms/HaloTile.h"
#include "kernelskill/Transforms/TransposeTile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::ks;

std::optional<int64_t> mlir::ks::evaluateIndex(Value v, const LaunchContext &context) {
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    auto it = context.scalars.find(arg.getArgNumber());
    if (isa<gpu::GPUFuncOp>(arg.getOwner()->getParentOp()) && it != context.scalars.end())
      return it->second;
    return std::nullopt;
  }
  Operation *op = v.getDefiningOp();
  if (!op)
    return std::nullopt;
  if (auto c = dyn_cast<arith::ConstantOp>(op))
    if (auto i = dyn_cast<IntegerAttr>(c.getValue()))
      return i.getInt();
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp, arith::ExtUIOp,
          arith::TruncIOp>(op))
    return evaluateIndex(op->getOperand(0), context);
  if (op->getNumOperands() != 2)
    return std::nullopt;
  std::optional<int64_t> a = evaluateIndex(op->getOperand(0), context);
  std::optional<int64_t> b = evaluateIndex(op->getOperand(1), context);
  if (!a || !b)
    return std::nullopt;
  if (isa<arith::AddIOp>(op))
    return *a + *b;
  if (isa<arith::SubIOp>(op))
    return *a - *b;
  if (isa<arith::MulIOp>(op))
    return *a * *b;
  if (isa<arith::DivSIOp, arith::DivUIOp>(op) && *b != 0)
    return *a / *b;
  if (isa<arith::CeilDivSIOp, arith::CeilDivUIOp>(op) && *b > 0)
    return (*a + *b - 1) / *b;
  if (isa<arith::MaxSIOp>(op))
    return std::max(*a, *b);
  if (isa<arith::MinSIOp>(op))
    return std::min(*a, *b);
  return std::nullopt;
}

namespace {
/// The index of a load of `type` that moves one element in memory: the
/// dimension of static stride 1 (the last one of an identity layout); none
/// when no stride is known to be 1.
std::optional<unsigned> unitStrideIndex(MemRefType type) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (type.getRank() == 0 || failed(type.getStridesAndOffset(strides, offset)))
    return std::nullopt;
  for (unsigned d = type.getRank(); d-- > 0;)
    if (strides[d] == 1)
      return d;
  return std::nullopt;
}

OperandLayout layoutOf(const ContractionOperand &operand, const ContractionProblem &p) {
  if (!operand.contiguousDim)
    return OperandLayout::None;
  auto dim = dyn_cast<AffineDimExpr>(operand.map.getResult(*operand.contiguousDim));
  if (!dim)
    return OperandLayout::None;
  return llvm::is_contained(p.k, dim.getPosition()) ? OperandLayout::AlongReduction
                                                    : OperandLayout::AlongOutput;
}

/// A raised kernel without a contraction: its top-level forall, and Rows
/// when the row-reduction schedule takes it (checked with the plainest
/// knobs: a warp per row, one element per turn), with the rows' sizes.
void readForallShape(gpu::GPUFuncOp kernel, ModuleOp module,
                     const llvm::StringMap<int64_t> &workload, KernelShape &shape) {
  shape.cls = ProblemClass::Other;
  for (Operation &op : kernel.getBody().front())
    if (auto forall = dyn_cast<scf::ForallOp>(op))
      shape.forall = forall;
  if (!shape.forall)
    return;
  RowReductionSchedule probe;
  probe.threadsPerRow = 32;
  probe.rowsPerBlock = 1;
  probe.vector = 1;
  std::string why;
  LaunchContext context = resolveLaunchContext(kernel, module, workload);
  auto known = [&](OpFoldResult ub) -> std::optional<int64_t> {
    if (auto v = dyn_cast<Value>(ub))
      return evaluateIndex(v, context);
    return cast<IntegerAttr>(cast<Attribute>(ub)).getInt();
  };
  auto extent = [&](OpFoldResult ub) { return known(ub).value_or(kAssumedScalar); };
  shape.forallPoints = 1;
  for (auto [lb, ub] :
       llvm::zip(shape.forall.getMixedLowerBound(), shape.forall.getMixedUpperBound())) {
    std::optional<int64_t> lower = known(lb), upper = known(ub);
    shape.forallPoints = lower && upper ? shape.forallPoints * std::max<int64_t>(0, *upper - *lower)
                                        : 0;
  }
  // The bytes of the last scalar the forall stores (`otherwise` when none).
  auto storedElementBytes = [&](int64_t otherwise) {
    int64_t bytes = otherwise;
    shape.forall.getBody()->walk([&](memref::StoreOp store) {
      Type t = store.getValueToStore().getType();
      if (t.isIntOrFloat())
        bytes = std::max<int64_t>(1, t.getIntOrFloatBitWidth() / 8);
    });
    return bytes;
  };
  RowReductionFacts facts;
  if (failed(checkRowReduction(shape.forall, probe, /*maxSharedBytes=*/48 * 1024, why, &facts))) {
    // A stencil: checked with the register window of one point per thread.
    int64_t rank = shape.forall.getRank();
    HaloTileSchedule window;
    window.tile.assign(rank, 1);
    window.block.assign(rank, 1);
    window.registers = true;
    if (!storesAcrossLoads(shape.forall) && (rank == 2 || rank == 3) &&
        succeeded(checkHaloTile(shape.forall, window, 48 * 1024, why,
                                &shape.stencil.halo))) {
      shape.cls = ProblemClass::Stencil;
      shape.sizesFrom = context.source;
      shape.stencil.extents.clear();
      for (OpFoldResult ub : shape.forall.getMixedUpperBound())
        shape.stencil.extents.push_back(extent(ub));
      shape.stencil.elementBytes = storedElementBytes(shape.stencil.elementBytes);
      return;
    }
    // A transpose: checked with the schedule's default tile.
    if (!storesAcrossLoads(shape.forall) ||
        failed(checkTransposeTile(shape.forall, TransposeTileSchedule(), 48 * 1024, why)))
      return;
    shape.cls = ProblemClass::Transpose;
    shape.sizesFrom = context.source;
    SmallVector<OpFoldResult> ubs = shape.forall.getMixedUpperBound();
    shape.tile.rows = extent(ubs[0]);
    shape.tile.cols = extent(ubs[1]);
    shape.tile.elementBytes = storedElementBytes(shape.tile.elementBytes);
    return;
  }
  shape.cls = ProblemClass::Rows;
  shape.sizesFrom = context.source;
  RowSizes &rows = shape.rows;
  rows.rows = 1;
  rows.prefetchable = facts.prefetchableLoads;
  rows.onlinePairs = facts.onlinePairs;
  for (OpFoldResult ub : shape.forall.getMixedUpperBound())
    rows.rows *= extent(ub);
  rows.readPasses = 0;
  bool first = true;
  Value innermost =
      shape.forall.getRank() > 0 ? shape.forall.getInductionVars().back() : Value();
  bool strided = false, allAdjacent = true;
  for (auto loop : shape.forall.getBody()->getOps<scf::ForOp>()) {
    bool reads = false;
    loop.walk([&](Operation *op) {
      if (auto load = dyn_cast<memref::LoadOp>(op)) {
        reads = true;
        if (load.getType().isIntOrFloat())
          rows.elementBytes = std::max<int64_t>(1, load.getType().getIntOrFloatBitWidth() / 8);
        // Along the row: the loop's variable indexes the unit stride.
        // Across it, adjacent: the forall's innermost variable does.
        ValueRange indices = load.getIndices();
        std::optional<unsigned> unit = unitStrideIndex(load.getMemRefType());
        if (llvm::is_contained(indices, loop.getInductionVar()) &&
            (!unit || indices[*unit] != loop.getInductionVar())) {
          rows.contiguous = false;
          strided = true;
          allAdjacent &= unit && indices[*unit] == innermost;
        }
      }
      rows.writes |= isa<memref::StoreOp>(op);
    });
    rows.readPasses += reads;
    if (!first)
      continue;
    first = false;
    std::optional<int64_t> lb = evaluateIndex(loop.getLowerBound(), context);
    std::optional<int64_t> ub = evaluateIndex(loop.getUpperBound(), context);
    rows.length = lb && ub ? std::max<int64_t>(*ub - *lb, 1) : kAssumedScalar;
  }
  rows.readPasses = std::max<int64_t>(rows.readPasses, 1);
  rows.adjacent = strided && allAdjacent;
}
} // namespace

KernelShape mlir::ks::readKernelShape(gpu::GPUFuncOp kernel, ModuleOp module,
                                      const llvm::StringMap<int64_t> &workload) {
  KernelShape shape;
  shape.kernel = kernel;
  if (auto diagnosis = kernel->getAttrOfType<DiagnosisAttr>(DiagnosisAttr::kKernelAttrName))
    for (FindingAttr f : diagnosis.getFindings()) {
      double &h = shape.findings[f.getKind()];
      h = std::max(h, f.getHeadroom().convertToDouble());
    }
  if (!kernel->hasAttr(kRaisedAttrName)) {
    bool launched = false;
    module.walk([&](gpu::LaunchFuncOp launch) {
      launched |= launch.getKernelName() == kernel.getName();
    });
    auto reason = [&](StringRef name) {
      auto why = kernel->getAttrOfType<StringAttr>(name);
      return why ? why.getValue().str() : std::string();
    };
    if (launched) {
      std::string why = reason(kNotRaisedAttrName);
      shape.whyNot = why.empty() ? "the kernel is not raised (ks-raise's remarks say which step "
                                   "refused)"
                                 : "the kernel is not raised: " + why;
      return shape;
    }
    std::string why = reason(kNoLauncherAttrName);
    shape.whyNot = "the kernel is not raised: no launcher in the module launches it, "
                   "and the raising proves one thread per output from the launch";
    shape.whyNot += why.empty() ? " (synthesize-launchers=true, ks optimize's default, writes one "
                                  "where the kernel's bounds imply it)"
                                : "; none was written: " + why;
    return shape;
  }
  std::string why;
  FailureOr<linalg::LinalgOp> op = findKernelContraction(kernel, why);
  if (failed(op)) {
    shape.whyNot = why;
    readForallShape(kernel, module, workload, shape);
    return shape;
  }
  FailureOr<ContractionProblem> problem = analyzeContraction(*op, why);
  if (failed(problem)) {
    shape.whyNot = why;
    return shape;
  }
  shape.problem = *problem;
  const ContractionProblem &p = *shape.problem;
  shape.cls = p.m.empty() || p.n.empty() ? ProblemClass::Gemv : ProblemClass::Gemm;
  shape.lhs = layoutOf(p.lhs, p);
  shape.rhs = layoutOf(p.rhs, p);
  LaunchContext context = resolveLaunchContext(kernel, module, workload);
  shape.sizesFrom = context.source;
  auto product = [&](ArrayRef<unsigned> dims) {
    int64_t n = 1;
    for (unsigned d : dims)
      n *= evaluateIndex(p.sizes[d], context).value_or(kAssumedScalar);
    return n;
  };
  shape.sizes.batch = product(p.batch);
  // A batch the raising left on blockIdx.z (each block offsets its views by
  // it) is the launch's grid z: the schedules keep it there.
  bool readsBlockZ = false;
  kernel.walk([&](gpu::BlockIdOp id) { readsBlockZ |= id.getDimension() == gpu::Dimension::z; });
  if (p.batch.empty() && readsBlockZ)
    shape.sizes.batch = std::max<int64_t>(1, context.launch.grid[2]);
  shape.sizes.m = product(p.m);
  shape.sizes.n = product(p.n);
  shape.sizes.k = product(p.k);
  shape.sizes.fma = p.contract;
  shape.sizes.elementBytes = std::max<int64_t>(1, p.elementType.getIntOrFloatBitWidth() / 8);
  return shape;
}

bool mlir::ks::isSearchable(const KernelShape &shape) {
  return shape.problem || shape.cls == ProblemClass::Rows ||
         shape.cls == ProblemClass::Transpose || shape.cls == ProblemClass::Stencil;
}

const char *mlir::ks::toString(ProblemClass cls) {
  switch (cls) {
  case ProblemClass::Gemm:
    return "gemm";
  case ProblemClass::Gemv:
    return "gemv";
  case ProblemClass::Rows:
    return "rows";
  case ProblemClass::Transpose:
    return "transpose";
  case ProblemClass::Stencil:
    return "stencil";
  case ProblemClass::Other:
    break;
  }
  return "other";
}

const char *mlir::ks::toString(OperandLayout layout) {
  switch (layout) {
  case OperandLayout::AlongReduction:
    return "contiguous along the reduction";
  case OperandLayout::AlongOutput:
    return "contiguous along the outputs";
  case OperandLayout::None:
    break;
  }
  return "no contiguous dimension";
}

int64_t mlir::ks::onePerThreadBlock(const KernelShape &shape, int64_t smCount) {
  int64_t block = 256;
  if (shape.forallPoints <= 0 || smCount <= 0)
    return block;
  while (block > 32 && (shape.forallPoints + block - 1) / block < smCount)
    block /= 2;
  return block;
}
