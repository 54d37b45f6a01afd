//===- RaiseUnrolledGuards.cpp - One element per thread from unrolled guards ===//
//
// A kernel whose threads each take U consecutive elements in an unrolled
// loop with the bounds check inside,
//
//   int c0 = (blockIdx.x * blockDim.x + threadIdx.x) * U;
//   for (int u = 0; u < U; u++)
//     if (c0 + u < n) work(c0 + u);
//
// launched on enough blocks of B threads to cover n with B * U elements per
// block, computes work(e) once for every e < n. It is rewritten to one
// element per thread, `e = blockIdx.x * blockDim.x + threadIdx.x; if (e <
// n) work(e)`, launched on ceil(n / B) blocks of B: the form
// ks-raise-iteration-space takes. Where the work reads `c0` or `u` apart
// from their sum, they are `e - e % U` and `e % U`.
//
// Only the x dimension is rewritten; blockIdx.y/z read alone (a row per
// block) stay. The kernel must not communicate between threads (barriers,
// shuffles, shared memory): its threads' work moves between threads.
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Transforms/KernelLaunch.h"
#include "kernelskill/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::ks {
#define GEN_PASS_DEF_KSRAISEUNROLLEDGUARDS
#include "kernelskill/Transforms/Passes.h.inc"
} // namespace mlir::ks

using namespace mlir;
using namespace mlir::ks;

namespace {
template <typename OpT> bool isDimX(Value v) {
  auto op = stripExtensions(v).getDefiningOp<OpT>();
  return op && op.getDimension() == gpu::Dimension::x;
}

/// `v` is blockIdx.x * blockDim.x + threadIdx.x (either operand order, the
/// block's width as blockDim.x or the constant `block`).
bool isLinearThreadIndexX(Value v, int64_t block) {
  auto add = stripExtensions(v).getDefiningOp<arith::AddIOp>();
  if (!add)
    return false;
  for (auto [prod, tid] : {std::pair{add.getLhs(), add.getRhs()}, {add.getRhs(), add.getLhs()}}) {
    if (!isDimX<gpu::ThreadIdOp>(tid))
      continue;
    auto mul = stripExtensions(prod).getDefiningOp<arith::MulIOp>();
    if (!mul)
      continue;
    for (auto [bid, dim] : {std::pair{mul.getLhs(), mul.getRhs()}, {mul.getRhs(), mul.getLhs()}})
      if (isDimX<gpu::BlockIdOp>(bid) &&
          (isDimX<gpu::BlockDimOp>(dim) || getConstantIntValue(stripExtensions(dim)) == block))
        return true;
  }
  return false;
}

/// What the rewrite needs of a matched kernel.
struct UnrolledGuard {
  scf::ForOp loop;
  scf::IfOp guard;
  arith::CmpIOp cmp;
  Value index;    ///< c0 + u, the guard's left-hand side
  Value base;     ///< c0 = gid * U
  Value gid;      ///< blockIdx.x * blockDim.x + threadIdx.x, in c0's type
  int64_t unroll; ///< U
};

/// Matches the kernel's body, or says why not (empty: not this form at
/// all, no remark).
FailureOr<UnrolledGuard> match(gpu::GPUFuncOp kernel, int64_t block, std::string &why) {
  UnrolledGuard m;
  // The loop, among pure ops of the kernel's body or of one branch of its
  // one scf.if whose other branch is empty (a guard on the other
  // dimensions: `if (row >= rows) return;` before the loop over columns
  // lifts to `if (row >= rows) {} else {loop}`).
  auto findLoop = [&](Block &body, bool allowIf, auto &self) -> LogicalResult {
    for (Operation &op : body.without_terminator()) {
      if (auto loop = dyn_cast<scf::ForOp>(op)) {
        if (m.loop)
          return failure(); // two loops: some other form
        m.loop = loop;
        continue;
      }
      auto outer = dyn_cast<scf::IfOp>(op);
      if (allowIf && outer && !m.loop) {
        Block *branch = guardedBranch(outer);
        if (!branch || failed(self(*branch, /*allowIf=*/false, self)))
          return failure();
        allowIf = false;
        continue;
      }
      if (!isMemoryEffectFree(&op) || op.getNumRegions())
        return failure();
    }
    return success();
  };
  if (failed(findLoop(kernel.getBody().front(), /*allowIf=*/true, findLoop)))
    return failure();
  if (!m.loop || m.loop.getNumResults())
    return failure();
  std::optional<int64_t> lb = getConstantIntValue(m.loop.getLowerBound());
  std::optional<int64_t> ub = getConstantIntValue(m.loop.getUpperBound());
  std::optional<int64_t> step = getConstantIntValue(m.loop.getStep());
  if (lb != 0 || step != 1 || !ub || *ub < 2 || *ub > 64)
    return failure();
  m.unroll = *ub;
  Block *loopBody = m.loop.getBody();
  for (Operation &op : loopBody->without_terminator()) {
    if (auto guard = dyn_cast<scf::IfOp>(op)) {
      if (m.guard)
        return failure();
      m.guard = guard;
      continue;
    }
    if (!isMemoryEffectFree(&op) || op.getNumRegions())
      return failure();
  }
  if (!m.guard || m.guard.getNumResults() || m.guard.elseBlock())
    return failure();
  m.cmp = m.guard.getCondition().getDefiningOp<arith::CmpIOp>();
  if (!m.cmp || (m.cmp.getPredicate() != arith::CmpIPredicate::slt &&
                 m.cmp.getPredicate() != arith::CmpIPredicate::ult)) {
    why = "the check in the unrolled loop is not 'index < bound'";
    return failure();
  }
  m.index = m.cmp.getLhs();
  auto add = m.index.getDefiningOp<arith::AddIOp>();
  Value iv = m.loop.getInductionVar();
  if (!add) {
    why = "the checked index is not c0 + u";
    return failure();
  }
  for (auto [base, u] : {std::pair{add.getLhs(), add.getRhs()}, {add.getRhs(), add.getLhs()}}) {
    Operation *def = base.getDefiningOp(); // none: a kernel argument
    if (stripExtensions(u) == iv && (!def || !m.loop->isAncestor(def)))
      m.base = base;
  }
  if (!m.base) {
    why = "the checked index is not c0 + u with c0 computed before the loop";
    return failure();
  }
  if (m.loop->isAncestor(m.cmp.getRhs().getParentRegion()->getParentOp()) ||
      !isLaunchInvariant(m.cmp.getRhs(), kernel)) {
    why = "the bound is not computed from the kernel's scalar arguments";
    return failure();
  }
  // c0 = gid * U (either order) or gid << log2(U).
  Operation *def = m.base.getDefiningOp();
  if (auto mul = dyn_cast_or_null<arith::MulIOp>(def)) {
    for (auto [g, c] : {std::pair{mul.getLhs(), mul.getRhs()}, {mul.getRhs(), mul.getLhs()}})
      if (getConstantIntValue(c) == m.unroll)
        m.gid = g;
  } else if (auto shl = dyn_cast_or_null<arith::ShLIOp>(def)) {
    std::optional<int64_t> s = getConstantIntValue(shl.getRhs());
    if (s && *s >= 0 && *s < 7 && (int64_t(1) << *s) == m.unroll)
      m.gid = shl.getLhs();
  }
  if (!m.gid || !isLinearThreadIndexX(m.gid, block)) {
    why = "c0 is not (blockIdx.x * blockDim.x + threadIdx.x) * " + std::to_string(m.unroll);
    return failure();
  }
  // The thread's x position may be read only through gid: it moves.
  bool other = false, communicates = false;
  kernel.walk([&](Operation *op) {
    if (isa<gpu::BarrierOp, gpu::ShuffleOp>(op))
      communicates = true;
  });
  if (!kernel.getWorkgroupAttributions().empty())
    communicates = true;
  if (communicates) {
    why = "the kernel communicates between threads (barrier, shuffle or shared memory)";
    return failure();
  }
  Operation *gidOp = stripExtensions(m.gid).getDefiningOp();
  kernel.walk([&](Operation *op) {
    bool xIndex = (isa<gpu::ThreadIdOp>(op) &&
                   cast<gpu::ThreadIdOp>(op).getDimension() == gpu::Dimension::x) ||
                  (isa<gpu::BlockIdOp>(op) &&
                   cast<gpu::BlockIdOp>(op).getDimension() == gpu::Dimension::x);
    if (!xIndex)
      return;
    // Each use must lead into gid's computation.
    for (Operation *user : op->getUsers()) {
      Operation *u = user;
      while (u && u != gidOp && u->getNumResults() == 1 && u->getResult(0).hasOneUse() &&
             isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp, arith::ExtUIOp,
                 arith::MulIOp>(u))
        u = *u->getResult(0).getUsers().begin();
      if (u != gidOp)
        other = true;
    }
  });
  if (other) {
    why = "threadIdx.x or blockIdx.x is read apart from the global index";
    return failure();
  }
  if (!m.gid.hasOneUse()) {
    why = "the global index is used apart from c0";
    return failure();
  }
  for (Operation *user : m.base.getUsers())
    if (!m.loop->isAncestor(user)) {
      why = "c0 is used outside the unrolled loop";
      return failure();
    }
  return m;
}

/// The rewrite: the loop becomes `if (gid < bound) work(gid)` and the
/// launch's grid along x ceil(bound / block); `hostBound` is the bound
/// computed in the launcher (the caller checked the launch covers it).
LogicalResult rewrite(UnrolledGuard &m, gpu::LaunchFuncOp launch, Value hostBound,
                      int64_t block) {
  OpBuilder host(launch);
  Location loc = m.loop.getLoc();
  OpBuilder b(m.loop);
  Type type = m.base.getType();
  Value gid = m.gid;
  if (gid.getType() != type)
    return failure();
  Value unroll = arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, m.unroll));
  Value u = arith::RemUIOp::create(b, loc, gid, unroll);
  Value c0 = arith::SubIOp::create(b, loc, gid, u);
  Value cond = arith::CmpIOp::create(b, loc, m.cmp.getPredicate(), gid, m.cmp.getRhs());
  auto guard = scf::IfOp::create(b, loc, cond, /*withElseRegion=*/false);
  OpBuilder inner(guard.thenBlock()->getTerminator());
  IRMapping map;
  map.map(m.loop.getInductionVar(), arith::IndexCastUIOp::create(inner, loc, inner.getIndexType(), u));
  map.map(m.base, c0);
  map.map(m.index, gid);
  // u read in c0's type directly (its casts from the loop's index).
  for (Operation &op : m.loop.getBody()->without_terminator())
    if (op.getNumResults() == 1 && op.getResult(0).getType() == type &&
        stripExtensions(op.getResult(0)) == m.loop.getInductionVar())
      map.map(op.getResult(0), u);
  // The loop body's pure ops the work reads (the index's casts) first.
  for (Operation &op : m.loop.getBody()->without_terminator())
    if (&op != m.guard.getOperation() && op.getNumResults() && !map.contains(op.getResult(0)))
      inner.clone(op, map);
  for (Operation &op : m.guard.thenBlock()->without_terminator())
    inner.clone(op, map);
  m.loop.erase();
  // ceil(bound / block) blocks along x.
  gpu::KernelDim3 grid = launch.getGridSizeOperandValues(),
                  blocks = launch.getBlockSizeOperandValues();
  // Signed as the check reads the bound: n <= 0 gives no blocks, as the
  // original's (n + B * U - 1) / (B * U) does.
  bool isUnsigned = m.cmp.getPredicate() == arith::CmpIPredicate::ult;
  Value bound = castToIndex(host, launch.getLoc(), hostBound, isUnsigned);
  // (bound + B - 1) / B, as users write it (the CUDA exporter spells no
  // ceildiv in host code).
  Location hl = launch.getLoc();
  Value width = arith::ConstantIndexOp::create(host, hl, block);
  Value rounded = arith::AddIOp::create(host, hl, bound,
                                        arith::ConstantIndexOp::create(host, hl, block - 1));
  Value gridX = isUnsigned ? arith::DivUIOp::create(host, hl, rounded, width).getResult()
                           : arith::DivSIOp::create(host, hl, rounded, width).getResult();
  setLaunchDims(launch, {gridX, grid.y, grid.z}, {blocks.x, blocks.y, blocks.z},
                launch.getDynamicSharedMemorySize());
  return success();
}

struct RaiseUnrolledGuardsPass
    : public ks::impl::KSRaiseUnrolledGuardsBase<RaiseUnrolledGuardsPass> {
  using KSRaiseUnrolledGuardsBase::KSRaiseUnrolledGuardsBase;

  void runOnOperation() override {
    getOperation()->walk([&](gpu::GPUFuncOp kernel) {
      if (!kernel.isKernel())
        return;
      SmallVector<gpu::LaunchFuncOp> launches = getLaunches(kernel);
      if (launches.size() != 1)
        return;
      gpu::LaunchFuncOp launch = launches.front();
      gpu::KernelDim3 grid = launch.getGridSizeOperandValues(),
                      blocks = launch.getBlockSizeOperandValues();
      std::optional<int64_t> block = getConstantIntValue(blocks.x);
      if (!block)
        return;
      std::string why;
      FailureOr<UnrolledGuard> m = match(kernel, *block, why);
      if (failed(m)) {
        if (!why.empty() && remarks)
          kernel.emitRemark() << "ks-raise-unrolled-guards: not rewritten: " << why;
        return;
      }
      // The original covers [0, bound) only if its grid holds enough blocks
      // of block * U elements.
      OpBuilder host(launch);
      Value hostBound = cloneIntoLauncher(m->cmp.getRhs(), kernel, launch, host);
      Value width = arith::ConstantIndexOp::create(host, launch.getLoc(), *block * m->unroll);
      if (!hostBound || !launchCovers(grid.x, width, hostBound)) {
        if (remarks)
          kernel.emitRemark() << "ks-raise-unrolled-guards: not rewritten: the launch grid "
                                 "along x is not ceil(bound / (block * "
                              << m->unroll << ")) blocks";
        return;
      }
      if (failed(rewrite(*m, launch, hostBound, *block)) && remarks)
        kernel.emitRemark() << "ks-raise-unrolled-guards: not rewritten: the rewrite failed";
    });
  }
};
} // namespace
