//===- RaiseIterationSpace.cpp - One thread per output to scf.forall ------===//
//
// Most naive kernels compute one output per thread: the thread's global
// index along each launch dimension, `blockIdx.d * blockDim.d +
// threadIdx.d`, is the output's coordinate, a guard `if (row < M && col < N)`
// (or an early return) drops the threads past the problem, and the launcher
// derives the grid from the problem size. Such a kernel computes the same as
// an `scf.forall` over [0, M) x [0, N) that no longer depends on the block
// shape; grid-stride loops likewise become an scf.forall over [0, n). The
// launcher then launches one thread: a schedule maps the iteration space
// onto a grid again (docs/Raising.md).
//
// What must hold (each refusal says which failed):
// - thread and block indices appear only inside global indices (or, along a
//   dimension launched with one thread per block, the block index alone);
// - each such dimension is bounded by the guard, and the launch grid is
//   derived from that bound (ceil(bound / block) blocks of `block`
//   threads), or, for a dimension without a guard whose blocks have one
//   thread, stays mapped to the grid (a batch index `blockIdx.z`);
// - nothing with a side effect happens outside the guard, and the kernel
//   uses no barrier, shared memory or warp-level operation;
// - dimensions the kernel does not use are launched with one block of one
//   thread.
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Dialect/KS/IR/KSAttrs.h"
#include "kernelskill/Transforms/KernelLaunch.h"
#include "kernelskill/Transforms/Passes.h"
#include "kernelskill/Transforms/Raising.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::ks {
#define GEN_PASS_DEF_KSRAISEITERATIONSPACE
#include "kernelskill/Transforms/Passes.h.inc"
} // namespace mlir::ks

using namespace mlir;
using namespace mlir::ks;

namespace {
using Dim = gpu::Dimension;
constexpr Dim kDims[] = {Dim::x, Dim::y, Dim::z};
unsigned dimIndex(Dim d) { return static_cast<unsigned>(d); }
const char *dimName(unsigned d) { return d == 0 ? "x" : d == 1 ? "y" : "z"; }

/// `v` through the casts the importer writes (index <-> i32, extensions).
Value throughCasts(Value v) {
  while (Operation *op = v.getDefiningOp()) {
    if (!isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtUIOp, arith::ExtSIOp>(op))
      break;
    v = op->getOperand(0);
  }
  return v;
}

template <typename IdOp> std::optional<unsigned> idDim(Value v) {
  if (auto op = throughCasts(v).getDefiningOp<IdOp>())
    return dimIndex(op.getDimension());
  return std::nullopt;
}

/// What the kernel does with the launch indices along one dimension.
struct DimUse {
  SmallVector<Value> globalIds;  ///< values equal to blockIdx*blockDim+threadIdx
  SmallVector<Value> blockOnly;  ///< blockIdx.d used alone
  bool used = false;
};

struct Analysis {
  std::array<DimUse, 3> dims;
  /// Ops that are part of a global index (casts, the mul and the add).
  llvm::SmallPtrSet<Operation *, 16> indexOps;
  /// Global indices written blockIdx * C + threadIdx: C, which the launch's
  /// block size must equal.
  llvm::DenseMap<Value, int64_t> constantBlocks;
  /// The grid-stride loop, when the kernel is one.
  scf::ForOp gridStride;
  std::string why;
};

/// Records the casts `v` is computed by, down to the value they cast, and
/// that value's defining op.
void recordCasts(Value v, llvm::SmallPtrSet<Operation *, 16> &ops) {
  while (Operation *op = v.getDefiningOp()) {
    ops.insert(op);
    if (!isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtUIOp, arith::ExtSIOp>(op))
      return;
    v = op->getOperand(0);
  }
}

/// Matches `v` as blockIdx.d * blockDim.d + threadIdx.d (or blockIdx.d * C +
/// threadIdx.d for a constant C, checked against the launch later) and
/// records the ops it consists of.
std::optional<unsigned> matchGlobalId(Value v, Analysis &a, std::optional<int64_t> &constantBlock) {
  auto add = v.getDefiningOp<arith::AddIOp>();
  if (!add)
    return std::nullopt;
  for (auto [mulSide, threadSide] : {std::pair(add.getLhs(), add.getRhs()),
                                     std::pair(add.getRhs(), add.getLhs())}) {
    std::optional<unsigned> t = idDim<gpu::ThreadIdOp>(threadSide);
    auto mul = throughCasts(mulSide).getDefiningOp<arith::MulIOp>();
    if (!t || !mul)
      continue;
    for (auto [b, d] : {std::pair(mul.getLhs(), mul.getRhs()), std::pair(mul.getRhs(), mul.getLhs())}) {
      std::optional<unsigned> bd = idDim<gpu::BlockIdOp>(b);
      if (bd != t)
        continue;
      std::optional<unsigned> dd = idDim<gpu::BlockDimOp>(d);
      std::optional<int64_t> c = getConstantIntValue(d);
      if (dd != t && !c)
        continue;
      constantBlock = dd == t ? std::nullopt : c;
      a.indexOps.insert(add);
      a.indexOps.insert(mul);
      for (Value part : {mulSide, threadSide, b, d})
        recordCasts(part, a.indexOps);
      return *t;
    }
  }
  return std::nullopt;
}

/// The predicate with its operands exchanged: a < b is b > a.
arith::CmpIPredicate swapPredicate(arith::CmpIPredicate p) {
  using P = arith::CmpIPredicate;
  switch (p) {
  case P::slt: return P::sgt;
  case P::sle: return P::sge;
  case P::sgt: return P::slt;
  case P::sge: return P::sle;
  case P::ult: return P::ugt;
  case P::ule: return P::uge;
  case P::ugt: return P::ult;
  case P::uge: return P::ule;
  default: return p; // eq, ne
  }
}

/// One conjunct of the guard: `gid < bound` along a dimension, or any other
/// condition (kept inside the loop).
struct Guard {
  std::array<Value, 3> bound;     ///< per dimension, the first bound found
  std::array<bool, 3> unsignedBound{};
  /// Other conjuncts, in the guarded region's terms; true where the
  /// conjunct is the value's negation.
  SmallVector<std::pair<Value, bool>> extra;
  SmallVector<Operation *> speculated; ///< ops of `&&` right-hand sides, hoisted
};

/// Splits `cond` (true when the body runs; `negated`: when it does not)
/// into conjuncts. `&&` and `||` arrive as scf.if ops yielding i1.
bool splitGuard(Value cond, bool negated, const std::array<llvm::SmallPtrSet<Value, 4>, 3> &gids,
                Guard &guard) {
  Operation *op = cond.getDefiningOp();
  if (!negated) {
    if (auto andOp = dyn_cast_or_null<arith::AndIOp>(op))
      return splitGuard(andOp.getLhs(), false, gids, guard) &&
             splitGuard(andOp.getRhs(), false, gids, guard);
  } else if (auto orOp = dyn_cast_or_null<arith::OrIOp>(op)) {
    return splitGuard(orOp.getLhs(), true, gids, guard) &&
           splitGuard(orOp.getRhs(), true, gids, guard);
  }
  if (auto xorOp = dyn_cast_or_null<arith::XOrIOp>(op)) {
    APInt one;
    if (matchPattern(xorOp.getRhs(), m_ConstantInt(&one)) && one.isAllOnes())
      return splitGuard(xorOp.getLhs(), !negated, gids, guard);
  }
  // a && b: if (a) yield b else yield false; a || b: if (a) yield true else yield b.
  if (auto ifOp = dyn_cast_or_null<scf::IfOp>(op); ifOp && ifOp.getNumResults() == 1 &&
                                                    ifOp.elseBlock()) {
    Value thenV = ifOp.thenYield().getOperand(0), elseV = ifOp.elseYield().getOperand(0);
    APInt c;
    bool elseFalse = matchPattern(elseV, m_ConstantInt(&c)) && c.isZero();
    bool thenTrue = matchPattern(thenV, m_ConstantInt(&c)) && c.isOne();
    Block *rhsBlock = elseFalse ? ifOp.thenBlock() : thenTrue ? ifOp.elseBlock() : nullptr;
    // (a && b) as a conjunction, or !(a || b) as !a && !b.
    if (rhsBlock && (elseFalse != negated)) {
      for (Operation &inner : rhsBlock->without_terminator()) {
        if (!isPure(&inner) || inner.getNumRegions())
          return false;
        guard.speculated.push_back(&inner);
      }
      Value rhs = elseFalse ? thenV : elseV;
      return splitGuard(ifOp.getCondition(), negated, gids, guard) &&
             splitGuard(rhs, negated, gids, guard);
    }
  }
  if (auto cmp = dyn_cast_or_null<arith::CmpIOp>(op)) {
    using P = arith::CmpIPredicate;
    P p = negated ? arith::invertPredicate(cmp.getPredicate()) : cmp.getPredicate();
    for (auto [idSide, boundSide, swapped] :
         {std::tuple(cmp.getLhs(), cmp.getRhs(), false), std::tuple(cmp.getRhs(), cmp.getLhs(), true)}) {
      P q = swapped ? swapPredicate(p) : p;
      if (q != P::slt && q != P::ult)
        continue;
      for (unsigned d = 0; d < 3; ++d) {
        if (!gids[d].contains(idSide) || guard.bound[d])
          continue;
        guard.bound[d] = boundSide;
        guard.unsignedBound[d] = q == P::ult;
        return true;
      }
    }
  }
  guard.extra.push_back({cond, negated});
  return true;
}

/// Splits the forall dimensions that the body reads only as `i / Q` and
/// `i % Q`, with the dimension's bound `P * Q`, into two dimensions [0, P)
/// and [0, Q): a launch index over batch * channels read as (batch, channel).
/// Exact for Q > 0; a non-positive Q makes the original index buffers with
/// negative offsets, outside any buffer.
scf::ForallOp delinearizeDims(scf::ForallOp forall) {
  for (unsigned dim = 0; dim < forall.getRank(); ++dim) {
    Value ub = dyn_cast<Value>(forall.getMixedUpperBound()[dim]);
    auto mul = ub ? stripExtensions(ub).getDefiningOp<arith::MulIOp>() : nullptr;
    if (!mul || !bitEnumContainsAll(mul.getOverflowFlags(), arith::IntegerOverflowFlags::nsw))
      continue;
    Value iv = forall.getInductionVar(dim);
    // The divisions and remainders of the index by one of the factors.
    SmallVector<Operation *> divs, rems;
    Value factor;
    bool otherUse = false;
    for (Operation *cast : iv.getUsers()) {
      if (!isa<arith::IndexCastOp>(cast)) {
        otherUse = true;
        continue;
      }
      for (Operation *user : cast->getResult(0).getUsers()) {
        if (!isa<arith::DivSIOp, arith::RemSIOp>(user) || user->getOperand(0) != cast->getResult(0)) {
          otherUse = true;
          continue;
        }
        Value d = user->getOperand(1);
        if (!factor && (stripExtensions(d) == stripExtensions(mul.getRhs()) ||
                        stripExtensions(d) == stripExtensions(mul.getLhs())))
          factor = d;
        if (!factor || stripExtensions(d) != stripExtensions(factor)) {
          otherUse = true;
          continue;
        }
        (isa<arith::DivSIOp>(user) ? divs : rems).push_back(user);
      }
    }
    if (!factor || (divs.empty() && rems.empty()))
      continue;
    (void)otherUse; // other uses read the recombined index
    bool rhsIsFactor = stripExtensions(factor) == stripExtensions(mul.getRhs());
    Value outer = rhsIsFactor ? mul.getLhs() : mul.getRhs();
    Value inner = rhsIsFactor ? mul.getRhs() : mul.getLhs();
    OpBuilder b(forall);
    Location loc = forall.getLoc();
    auto toIdx = [&](Value v) -> Value {
      return v.getType().isIndex() ? v : arith::IndexCastOp::create(b, loc, b.getIndexType(), v);
    };
    SmallVector<OpFoldResult> ubs(forall.getMixedUpperBound());
    Value innerIdx = toIdx(inner);
    ubs[dim] = toIdx(outer);
    ubs.insert(ubs.begin() + dim + 1, innerIdx);
    auto split = scf::ForallOp::create(b, loc, ubs, ValueRange(), std::nullopt);
    Block *body = split.getBody();
    OpBuilder inside = OpBuilder::atBlockBegin(body);
    // The old index, for its other uses: outer * Q + inner.
    Value recombined = arith::AddIOp::create(
        inside, loc, arith::MulIOp::create(inside, loc, split.getInductionVar(dim), innerIdx),
        split.getInductionVar(dim + 1));
    for (Operation *op : divs)
      op->getResult(0).replaceAllUsesWith(
          arith::IndexCastOp::create(inside, loc, op->getResult(0).getType(), split.getInductionVar(dim)));
    for (Operation *op : rems)
      op->getResult(0).replaceAllUsesWith(
          arith::IndexCastOp::create(inside, loc, op->getResult(0).getType(), split.getInductionVar(dim + 1)));
    SmallVector<Value> replacements;
    for (unsigned i = 0; i < forall.getRank(); ++i)
      replacements.push_back(i < dim ? split.getInductionVar(i)
                             : i == dim ? recombined
                                        : split.getInductionVar(i + 1));
    Operation *terminator = body->getTerminator();
    for (auto [old, repl] : llvm::zip(forall.getInductionVars(), replacements))
      old.replaceAllUsesWith(repl);
    for (Operation &op : llvm::make_early_inc_range(forall.getBody()->without_terminator()))
      op.moveBefore(terminator);
    forall.erase();
    forall = split;
    ++dim;
  }
  return forall;
}

/// Marks `kernel` as raised: it runs its iteration space itself, so what the
/// source said about its block shape no longer holds.
void markRaised(gpu::GPUFuncOp kernel) {
  kernel->setAttr(kRaisedAttrName, UnitAttr::get(kernel.getContext()));
  kernel.removeKnownBlockSizeAttr();
  kernel.removeKnownGridSizeAttr();
}

/// Raises one kernel; returns a refusal reason on failure.
struct KernelRaiser {
  gpu::GPUFuncOp kernel;
  std::string why;
  Analysis a;

  LogicalResult fail(const Twine &reason) {
    why = reason.str();
    return failure();
  }

  LogicalResult run();
  LogicalResult collectIndices();
  FailureOr<Operation *> findWork();
  FailureOr<CoveringLaunch> inferCoveringLaunch();
  LogicalResult raiseGuarded(scf::IfOp guardOp, Block *body, Value cond, bool negated,
                             gpu::LaunchFuncOp launch);
  LogicalResult raiseGridStride(scf::ForOp loop);
};

LogicalResult KernelRaiser::collectIndices() {
  // Every use of a launch index must be part of a global index.
  SmallVector<Operation *> idOps;
  WalkResult walk = kernel.walk([&](Operation *op) {
    if (isa<gpu::BarrierOp, gpu::ShuffleOp, gpu::DynamicSharedMemoryOp, gpu::SubgroupReduceOp,
            gpu::AllReduceOp>(op))
      return WalkResult::interrupt();
    if (isa<gpu::ThreadIdOp, gpu::BlockIdOp, gpu::BlockDimOp, gpu::GridDimOp,
            gpu::LaneIdOp, gpu::SubgroupIdOp, gpu::GlobalIdOp>(op))
      idOps.push_back(op);
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return fail("the kernel synchronizes or communicates between threads (barrier, shuffle, "
                "shared memory): it is not one independent thread per output");
  if (!kernel.getWorkgroupAttributions().empty())
    return fail("the kernel uses shared memory");
  kernel.walk([&](arith::AddIOp add) {
    std::optional<int64_t> constantBlock;
    if (std::optional<unsigned> d = matchGlobalId(add, a, constantBlock)) {
      a.dims[*d].globalIds.push_back(add);
      a.dims[*d].used = true;
      if (constantBlock)
        a.constantBlocks[add] = *constantBlock;
    }
  });
  // A grid-stride loop: for (i = gid; i < n; i += blockDim * gridDim).
  kernel.walk([&](scf::ForOp loop) {
    Value step = throughCasts(loop.getStep());
    auto mul = step.getDefiningOp<arith::MulIOp>();
    if (!mul)
      return;
    std::optional<unsigned> b = idDim<gpu::BlockDimOp>(mul.getLhs()), g = idDim<gpu::GridDimOp>(mul.getRhs());
    if (!b || !g)
      b = idDim<gpu::BlockDimOp>(mul.getRhs()), g = idDim<gpu::GridDimOp>(mul.getLhs());
    // Along x: the raising's forall and the written launch cover x alone.
    if (!b || b != g || *b != 0)
      return;
    a.gridStride = loop;
    a.indexOps.insert(mul);
    for (Value part : {loop.getStep(), mul.getLhs(), mul.getRhs()})
      recordCasts(part, a.indexOps);
  });
  for (Operation *op : idOps) {
    unsigned d = 0;
    if (auto t = dyn_cast<gpu::ThreadIdOp>(op)) d = dimIndex(t.getDimension());
    else if (auto b = dyn_cast<gpu::BlockIdOp>(op)) d = dimIndex(b.getDimension());
    else if (auto b = dyn_cast<gpu::BlockDimOp>(op)) d = dimIndex(b.getDimension());
    else if (auto g = dyn_cast<gpu::GridDimOp>(op)) d = dimIndex(g.getDimension());
    else
      return fail("the kernel reads '" + op->getName().getStringRef() + "'");
    // Follow casts to the first real user.
    SmallVector<Value> work = {op->getResult(0)};
    while (!work.empty()) {
      Value v = work.pop_back_val();
      for (Operation *user : v.getUsers()) {
        if (a.indexOps.contains(user) &&
            isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtUIOp, arith::ExtSIOp>(user)) {
          work.push_back(user->getResult(0));
          continue;
        }
        if (a.indexOps.contains(user))
          continue;
        if (isa<gpu::BlockIdOp>(op)) {
          // blockIdx.d alone: a batch index, if the blocks have one thread.
          a.dims[d].blockOnly.push_back(v);
          a.dims[d].used = true;
          continue;
        }
        return fail(std::string(isa<gpu::ThreadIdOp>(op) ? "threadIdx." : isa<gpu::BlockDimOp>(op) ? "blockDim." : "gridDim.") +
                    dimName(d) + " is used outside blockIdx." + dimName(d) + " * blockDim." +
                    dimName(d) + " + threadIdx." + dimName(d));
      }
    }
  }
  for (unsigned d = 0; d < 3; ++d)
    if (!a.dims[d].globalIds.empty() && !a.dims[d].blockOnly.empty())
      return fail(std::string("blockIdx.") + dimName(d) +
                  " is used both alone and in a global index");
  return success();
}

FailureOr<Operation *> KernelRaiser::findWork() {
  Block &entry = kernel.getBody().front();
  // The body: side-effect-free ops, then one guard (or grid-stride loop),
  // then the return.
  Operation *main = nullptr;
  for (Operation &op : entry.without_terminator()) {
    if (isMemoryEffectFree(&op))
      continue;
    if (main || op.getNumResults())
      return fail("more than one statement with side effects at the kernel's top level: "
                  "the work is not guarded by one bounds check");
    main = &op;
  }
  if (!main)
    return fail("the kernel has no guarded work");
  if (auto loop = dyn_cast<scf::ForOp>(main); loop && loop == a.gridStride) {
    // for (i = gid.x; i < n; i += blockDim.x * gridDim.x) over index.
    if (!llvm::is_contained(a.dims[0].globalIds, throughCasts(loop.getLowerBound())))
      return fail("the grid-stride loop does not start at the thread's global index along x");
    for (unsigned d = 1; d < 3; ++d)
      if (a.dims[d].used)
        return fail("a grid-stride loop over x in a kernel that also uses dimension " +
                    std::string(dimName(d)));
    return main;
  }
  auto ifOp = dyn_cast<scf::IfOp>(main);
  if (!ifOp)
    return fail("the kernel's work is not inside a bounds check 'if (row < M && col < N)' or a "
                "grid-stride loop");
  bool thenEmpty = ifOp.thenBlock()->without_terminator().empty();
  bool elseEmpty = !ifOp.elseBlock() || ifOp.elseBlock()->without_terminator().empty();
  if (!thenEmpty && !elseEmpty)
    return fail("the bounds check has work on both sides");
  if (thenEmpty && elseEmpty)
    return fail("the kernel has no guarded work");
  return main;
}

LogicalResult KernelRaiser::run() {
  if (failed(collectIndices()))
    return failure();
  FailureOr<Operation *> main = findWork();
  if (failed(main))
    return failure();
  if (auto loop = dyn_cast<scf::ForOp>(*main))
    return raiseGridStride(loop);
  auto ifOp = cast<scf::IfOp>(*main);
  SmallVector<gpu::LaunchFuncOp> launches = getLaunches(kernel);
  if (launches.size() != 1)
    return fail(launches.empty()
                    ? "no launcher in the module launches the kernel: the grid that covers the "
                      "iteration space is unknown"
                    : "the kernel has more than one launch");
  // findWork checked that exactly one side holds the work.
  bool thenEmpty = ifOp.thenBlock()->without_terminator().empty();
  return raiseGuarded(ifOp, thenEmpty ? ifOp.elseBlock() : ifOp.thenBlock(), ifOp.getCondition(),
                      /*negated=*/thenEmpty, launches.front());
}

/// The kernel's top-level ops that compute from the launch indices only
/// through `keys` (the global indices being replaced): they are recomputed
/// inside the loop. Fails when `uses` (values the loop body reads from
/// outside) depend on a launch index in any other way.
LogicalResult collectDependentPrelude(Block &entry, const llvm::SmallPtrSet<Value, 8> &keys,
                                      ArrayRef<Value> uses, ArrayRef<unsigned> keptDims,
                                      llvm::SetVector<Operation *> &dependent, std::string &why) {
  // Values that vary per thread: the launch indices and what derives from them.
  llvm::DenseSet<Value> varying;
  for (Operation &op : entry.without_terminator()) {
    // Block indices of the dimensions left on the grid stay valid.
    auto kept = dyn_cast<gpu::BlockIdOp>(op);
    bool isId = isa<gpu::ThreadIdOp, gpu::BlockIdOp, gpu::BlockDimOp, gpu::GridDimOp>(op) &&
                !(kept && llvm::is_contained(keptDims, dimIndex(kept.getDimension())));
    bool fromVarying = llvm::any_of(op.getOperands(), [&](Value v) { return varying.contains(v); });
    bool fromKeys = llvm::any_of(op.getOperands(), [&](Value v) {
      return keys.contains(v) || (v.getDefiningOp() && dependent.contains(v.getDefiningOp()));
    });
    for (Value r : op.getResults()) {
      if (keys.contains(r))
        continue;
      if (fromKeys && !fromVarying && !op.getNumRegions() && isPure(&op))
        dependent.insert(&op);
      else if (isId || fromVarying || fromKeys)
        varying.insert(r);
    }
  }
  for (Value v : uses)
    if (varying.contains(v)) {
      why = "the guarded work reads a value computed from the thread's indices in a way the "
            "raising does not follow";
      return failure();
    }
  return success();
}

/// The values defined outside `region` that ops inside it use.
SmallVector<Value> usesFromAbove(Region &region) {
  llvm::SetVector<Value> values;
  region.walk([&](Operation *op) {
    for (Value v : op->getOperands())
      if (!region.isAncestor(v.getParentRegion()))
        values.insert(v);
  });
  return values.takeVector();
}

/// Moves the ops of `body` (all but its terminator) before `before`,
/// replacing the uses of values in `map`.
void moveOps(Block *body, Operation *before, IRMapping &map) {
  for (Operation &op : llvm::make_early_inc_range(body->without_terminator())) {
    op.moveBefore(before);
    op.walk([&](Operation *inner) {
      for (OpOperand &use : inner->getOpOperands())
        if (Value mapped = map.lookupOrNull(use.get()))
          use.set(mapped);
    });
  }
}

/// The forall's iteration variable as the global index's type.
Value asIndexType(OpBuilder &b, Location loc, Value iv, Type type) {
  if (type.isIndex())
    return iv;
  return arith::IndexCastOp::create(b, loc, type, iv);
}

LogicalResult KernelRaiser::raiseGuarded(scf::IfOp guardOp, Block *body, Value cond,
                                         bool negated, gpu::LaunchFuncOp launch) {
  std::array<llvm::SmallPtrSet<Value, 4>, 3> gids;
  for (unsigned d = 0; d < 3; ++d) {
    for (Value v : a.dims[d].globalIds)
      gids[d].insert(v);
    for (Value v : a.dims[d].blockOnly)
      gids[d].insert(v);
  }
  Guard guard;
  if (!splitGuard(cond, negated, gids, guard))
    return fail("the bounds check is not a conjunction of 'index < bound' tests");
  gpu::KernelDim3 grid = launch.getGridSizeOperandValues(), block = launch.getBlockSizeOperandValues();
  std::array<Value, 3> grids = {grid.x, grid.y, grid.z}, blocks = {block.x, block.y, block.z};
  SmallVector<unsigned> loopDims; // raised dimensions, outermost (z) first
  SmallVector<unsigned> keptDims; // dimensions that stay mapped to the grid
  for (int d = 2; d >= 0; --d) {
    DimUse &use = a.dims[d];
    if (!use.used) {
      if (getConstantIntValue(grids[d]) != 1 || getConstantIntValue(blocks[d]) != 1)
        return fail(std::string("the kernel does not use dimension ") + dimName(d) +
                    " but is launched with more than one block or thread along it");
      continue;
    }
    if (!use.blockOnly.empty() && getConstantIntValue(blocks[d]) != 1)
      return fail(std::string("blockIdx.") + dimName(d) + " is used alone but blocks have more "
                  "than one thread along " + dimName(d));
    for (Value gid : use.globalIds)
      if (auto it = a.constantBlocks.find(gid); it != a.constantBlocks.end())
        if (getConstantIntValue(blocks[d]) != it->second)
          return fail(std::string("the global index along ") + dimName(d) + " multiplies by " +
                      std::to_string(it->second) + " but the launch's blocks are not that wide");
    if (!guard.bound[d]) {
      if (!use.blockOnly.empty()) {
        keptDims.push_back(d);
        continue;
      }
      return fail(std::string("no bounds check on the global index along ") + dimName(d));
    }
    if (!isLaunchInvariant(guard.bound[d], kernel))
      return fail(std::string("the bound along ") + dimName(d) +
                  " is not computed from the kernel's scalar arguments");
    OpBuilder lb(launch);
    Value hostBound = cloneIntoLauncher(guard.bound[d], kernel, launch, lb);
    if (!launchCovers(grids[d], blocks[d], hostBound))
      return fail(std::string("the launch grid along ") + dimName(d) +
                  " is not derived from the bound (ceil(bound / block) blocks)");
    loopDims.push_back(d);
  }
  for (auto [v, negated] : guard.extra)
    if (v.getParentBlock() != &kernel.getBody().front() &&
        !llvm::is_contained(guard.speculated, v.getDefiningOp()))
      return fail("a condition of the bounds check is computed where it cannot be moved");

  // What the guarded work reads from the kernel's top level.
  llvm::SmallPtrSet<Value, 8> keys;
  for (unsigned d : loopDims)
    for (Value gid : a.dims[d].globalIds.empty() ? a.dims[d].blockOnly : a.dims[d].globalIds)
      keys.insert(gid);
  SmallVector<Value> uses = usesFromAbove(*body->getParent());
  for (auto [v, negated] : guard.extra)
    uses.push_back(v);
  for (Operation *op : guard.speculated)
    llvm::append_range(uses, op->getOperands());
  llvm::SetVector<Operation *> dependent;
  std::string reason;
  if (failed(collectDependentPrelude(kernel.getBody().front(), keys, uses, keptDims, dependent,
                                     reason)))
    return fail(reason);

  // The rewrite.
  Location loc = guardOp.getLoc();
  OpBuilder b(guardOp);
  // The bounds are invariant: computed once, before the loop (the right-hand
  // sides of && are pure, so computing them unconditionally is safe).
  IRMapping hoisted;
  for (Operation *op : guard.speculated)
    b.clone(*op, hoisted);
  SmallVector<OpFoldResult> ubs;
  for (unsigned d : loopDims)
    ubs.push_back(castToIndex(b, loc, hoisted.lookupOrDefault(guard.bound[d]), guard.unsignedBound[d]));
  auto forall = scf::ForallOp::create(b, loc, ubs, ValueRange(), std::nullopt);
  OpBuilder inner(forall.getBody()->getTerminator());
  IRMapping map;
  for (auto [i, d] : llvm::enumerate(loopDims))
    for (Value gid : a.dims[d].globalIds.empty() ? a.dims[d].blockOnly : a.dims[d].globalIds)
      map.map(gid, asIndexType(inner, loc, forall.getInductionVar(i), gid.getType()));
  for (Operation *op : dependent)
    inner.clone(*op, map);
  Operation *before = forall.getBody()->getTerminator();
  if (!guard.extra.empty()) {
    // Conjuncts that are not bounds stay as a check inside the loop.
    for (Operation *op : guard.speculated)
      inner.clone(*op, map);
    Value all;
    for (auto [v, negated] : guard.extra) {
      Value mapped = map.lookupOrDefault(v);
      if (negated)
        mapped = arith::XOrIOp::create(inner, loc, mapped,
                                       arith::ConstantIntOp::create(inner, loc, 1, 1));
      all = all ? arith::AndIOp::create(inner, loc, all, mapped).getResult() : mapped;
    }
    auto extraIf = scf::IfOp::create(inner, loc, all, /*withElseRegion=*/false);
    before = extraIf.thenBlock()->getTerminator();
  }
  moveOps(body, before, map);
  guardOp.erase();
  delinearizeDims(forall);

  // The launch: one thread, except along the dimensions left on the grid.
  OpBuilder lb(launch);
  Value one = arith::ConstantIndexOp::create(lb, launch.getLoc(), 1);
  std::array<Value, 3> newGrid = {one, one, one}, newBlock = {one, one, one};
  for (unsigned d : keptDims)
    newGrid[d] = grids[d];
  Operation *launcher = launch->getParentOp();
  setLaunchDims(launch, newGrid, newBlock, launch.getDynamicSharedMemorySize());
  eraseUnusedPureOps(launcher); // the old grid's computation
  markRaised(kernel);
  return success();
}

LogicalResult KernelRaiser::raiseGridStride(scf::ForOp loop) {
  // findWork checked the loop: from the global index along x, x alone.
  SmallVector<Value> uses = usesFromAbove(loop.getRegion());
  llvm::SmallPtrSet<Value, 8> keys;
  llvm::SetVector<Operation *> dependent;
  std::string reason;
  if (failed(collectDependentPrelude(kernel.getBody().front(), keys, uses, {}, dependent, reason)))
    return fail(reason);
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  auto forall = scf::ForallOp::create(b, loc, ArrayRef<OpFoldResult>{loop.getUpperBound()},
                                      ValueRange(), std::nullopt);
  Block *body = forall.getBody();
  loop.getInductionVar().replaceAllUsesWith(forall.getInductionVar(0));
  Operation *terminator = body->getTerminator();
  for (Operation &op : llvm::make_early_inc_range(loop.getBody()->without_terminator()))
    op.moveBefore(terminator);
  loop.erase();
  for (gpu::LaunchFuncOp launch : getLaunches(kernel)) {
    OpBuilder lb(launch);
    Value one = arith::ConstantIndexOp::create(lb, launch.getLoc(), 1);
    Operation *launcher = launch->getParentOp();
    setLaunchDims(launch, {one, one, one}, {one, one, one}, launch.getDynamicSharedMemorySize());
    eraseUnusedPureOps(launcher);
  }
  markRaised(kernel);
  return success();
}

FailureOr<CoveringLaunch> KernelRaiser::inferCoveringLaunch() {
  if (failed(collectIndices()))
    return failure();
  FailureOr<Operation *> main = findWork();
  if (failed(main))
    return failure();
  CoveringLaunch launch;
  if (auto loop = dyn_cast<scf::ForOp>(*main)) {
    // Any grid runs a grid-stride loop; one thread per index is the
    // widest, so the raising's reading holds for the launch given.
    if (!isLaunchInvariant(loop.getUpperBound(), kernel))
      return fail("the grid-stride loop's bound is not computed from the kernel's scalar "
                  "arguments");
    launch.bound[0] = loop.getUpperBound();
  } else {
    auto ifOp = cast<scf::IfOp>(*main);
    bool thenEmpty = ifOp.thenBlock()->without_terminator().empty();
    std::array<llvm::SmallPtrSet<Value, 4>, 3> gids;
    for (unsigned d = 0; d < 3; ++d)
      for (Value v : a.dims[d].globalIds)
        gids[d].insert(v);
    Guard guard;
    if (!splitGuard(ifOp.getCondition(), /*negated=*/thenEmpty, gids, guard))
      return fail("the bounds check is not a conjunction of 'index < bound' tests");
    for (unsigned d = 0; d < 3; ++d) {
      DimUse &use = a.dims[d];
      if (!use.used)
        continue;
      if (!use.blockOnly.empty())
        return fail(std::string("blockIdx.") + dimName(d) +
                    " is used alone: how many blocks run along " + dimName(d) +
                    " is not bounded by the kernel");
      if (!guard.bound[d])
        return fail(std::string("no bounds check on the global index along ") + dimName(d));
      if (!isLaunchInvariant(guard.bound[d], kernel))
        return fail(std::string("the bound along ") + dimName(d) +
                    " is not computed from the kernel's scalar arguments");
      launch.bound[d] = guard.bound[d];
      launch.unsignedBound[d] = guard.unsignedBound[d];
    }
  }
  for (unsigned d = 0; d < 3; ++d)
    for (Value gid : a.dims[d].globalIds)
      if (auto it = a.constantBlocks.find(gid); it != a.constantBlocks.end()) {
        if (launch.block[d] && *launch.block[d] != it->second)
          return fail(std::string("the global indices along ") + dimName(d) +
                      " multiply by different block sizes");
        launch.block[d] = it->second;
      }
  return launch;
}

} // namespace

FailureOr<CoveringLaunch> mlir::ks::inferCoveringLaunch(gpu::GPUFuncOp kernel, std::string &why) {
  KernelRaiser raiser;
  raiser.kernel = kernel;
  FailureOr<CoveringLaunch> launch = raiser.inferCoveringLaunch();
  why = raiser.why.empty() ? raiser.a.why : raiser.why;
  return launch;
}

void mlir::ks::eraseUnusedPureOps(Operation *root) {
  bool changed = true;
  while (changed) {
    changed = false;
    SmallVector<Operation *> ops;
    root->walk([&](Operation *op) { ops.push_back(op); });
    // Users come after their operands' definitions: visit backwards.
    // Erasing an op erases the ops nested in it: skip those.
    llvm::SmallPtrSet<Operation *, 16> erased;
    for (Operation *op : llvm::reverse(ops)) {
      if (op == root || erased.contains(op) || !op->getNumResults() || !isOpTriviallyDead(op))
        continue;
      op->walk([&](Operation *inner) { erased.insert(inner); });
      op->erase();
      changed = true;
    }
  }
}

namespace {

struct RaiseIterationSpacePass
    : ks::impl::KSRaiseIterationSpaceBase<RaiseIterationSpacePass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<gpu::GPUFuncOp> kernels;
    getOperation().walk([&](gpu::GPUFuncOp f) {
      if (f.isKernel() && !f->hasAttr(kRaisedAttrName))
        kernels.push_back(f);
    });
    for (gpu::GPUFuncOp kernel : kernels) {
      std::string why;
      if (succeeded(raiseIterationSpace(kernel, why))) {
        kernel->removeAttr(kNotRaisedAttrName);
        continue;
      }
      kernel->setAttr(kNotRaisedAttrName, StringAttr::get(kernel.getContext(), why));
      if (remarks)
        kernel.emitRemark() << "ks-raise-iteration-space: not raised: " << why;
    }
  }
};
} // namespace

LogicalResult mlir::ks::raiseIterationSpace(gpu::GPUFuncOp kernel, std::string &why) {
  KernelRaiser raiser;
  raiser.kernel = kernel;
  LogicalResult result = raiser.run();
  why = raiser.why.empty() ? raiser.a.why : raiser.why;
  if (succeeded(result))
    detachOpFacts(kernel);
  eraseUnusedPureOps(kernel);
  return result;
}
