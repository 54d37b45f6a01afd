//===- FuseLaunches.cpp - Back-to-back elementwise launches into one ------===//
//
// ks-fuse-launches (include/kernelskill/Transforms/Passes.td). For two
// adjacent launches of raised kernels K1, K2 in a launcher:
//
//   K1: setup1; forall (i) in (S) { body1 }     K2: setup2; forall (i) in (S) { body2 }
//   =>  K1_K2: setup1; setup2; forall (i) in (S) { body1; body2 }
//
// with K2's loads of what body1 stored at the point replaced by the stored
// values. The fused kernel's parameters are the launches' distinct operands
// (a buffer both kernels use is one parameter), so the lowering never sees
// one buffer as two (a `const` copy of a written buffer could otherwise be
// read through the non-coherent cache).
//
// Why it is exact: every access of both bodies is at the point itself, so
// point i of K2 only touches elements that point i of K1 touches (the same
// buffer through an equal view) or elements no point of K1 touches (buffers
// that cannot overlap). Running K1's part of point i before K2's part keeps
// every dependence of the sequential launches; points stay independent.
//
// Not upstream's: MLIR fuses linalg producers into consumers on tensors
// (and scf.forall loops in one function); these are separate kernels joined
// by host launches through buffers.
//
//===----------------------------------------------------------------------===//

#include "SIMTBuilder.h"
#include "kernelskill/Transforms/KernelLaunch.h"
#include "kernelskill/Transforms/Passes.h"
#include "kernelskill/Transforms/Raising.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::ks {
#define GEN_PASS_DEF_KSFUSELAUNCHES
#include "kernelskill/Transforms/Passes.h.inc"
} // namespace mlir::ks

using namespace mlir;
using namespace mlir::ks;

namespace {
/// One launch of a raised kernel and the parts fusion needs.
struct Launched {
  gpu::LaunchFuncOp launch;
  gpu::GPUFuncOp kernel;
  scf::ForallOp forall;

  /// The launcher value a kernel argument receives.
  Value operandOf(BlockArgument arg) {
    return launch.getKernelOperands()[arg.getArgNumber()];
  }
};

/// One memory access of a body: its memref, whether it writes, the launcher
/// buffer it reaches.
struct Access {
  Operation *op;
  Value memref;
  bool writes;
  Value buffer; ///< the launcher value of the kernel argument it views
};

FailureOr<Launched> launchedOf(gpu::LaunchFuncOp launch, std::string &why) {
  auto fail = [&](const Twine &reason) -> FailureOr<Launched> {
    why = reason.str();
    return failure();
  };
  Launched l{launch, SymbolTable::lookupNearestSymbolFrom<gpu::GPUFuncOp>(
                         launch, launch.getKernelAttr()),
             nullptr};
  if (!l.kernel || !l.kernel->hasAttr(kRaisedAttrName))
    return fail("'" + launch.getKernelName().getValue() + "' is not a raised kernel");
  if (launch.getAsyncToken() || !launch.getAsyncDependencies().empty() ||
      launch.getDynamicSharedMemorySize() || launch.getClusterSizeX())
    return fail("a launch is asynchronous, clustered or takes dynamic shared memory");
  for (Value dim : {launch.getGridSizeX(), launch.getGridSizeY(), launch.getGridSizeZ(),
                    launch.getBlockSizeX(), launch.getBlockSizeY(), launch.getBlockSizeZ()})
    if (getConstantIntValue(dim) != 1)
      return fail("'" + launch.getKernelName().getValue() +
                  "' keeps a grid dimension (a raised kernel runs as one thread)");
  for (Operation &op : l.kernel.getBody().front().without_terminator()) {
    if (auto forall = dyn_cast<scf::ForallOp>(op)) {
      if (l.forall)
        return fail("'" + launch.getKernelName().getValue() + "' holds more than one forall");
      l.forall = forall;
      continue;
    }
    if (!isMemoryEffectFree(&op))
      return fail("'" + launch.getKernelName().getValue() + "' holds other work besides its forall");
  }
  if (!l.forall || !l.forall.getOutputs().empty() || !l.forall.isNormalized())
    return fail("'" + launch.getKernelName().getValue() +
                "' has no normalized forall without results");
  return l;
}

/// Whether the kernel-side values `a` (of `la`) and `b` (of `lb`) compute
/// the same: the same launcher operands through the same pure ops.
bool sameValue(Value a, Launched la, Value b, Launched lb, int depth = 0) {
  if (depth > 16)
    return false;
  auto argA = dyn_cast<BlockArgument>(a), argB = dyn_cast<BlockArgument>(b);
  if (argA || argB) {
    return argA && argB && argA.getOwner() == &la.kernel.getBody().front() &&
           argB.getOwner() == &lb.kernel.getBody().front() &&
           la.operandOf(argA) == lb.operandOf(argB);
  }
  Operation *opA = a.getDefiningOp(), *opB = b.getDefiningOp();
  if (opA->getNumRegions() || opB->getNumRegions() || !isPure(opA) || !isPure(opB) ||
      cast<OpResult>(a).getResultNumber() != cast<OpResult>(b).getResultNumber())
    return false;
  return OperationEquivalence::isEquivalentTo(
      opA, opB,
      [&](Value x, Value y) { return success(sameValue(x, la, y, lb, depth + 1)); },
      /*markEquivalent=*/nullptr, OperationEquivalence::IgnoreLocations);
}

/// The accesses of a forall body, each at the point itself (or, inside
/// `loop`, also at the point extended by the loop's variable); fails with
/// `why` on any other access or effect.
FailureOr<SmallVector<Access>> accessesOf(Launched l, std::string &why,
                                          scf::ForOp loop = nullptr) {
  SmallVector<Access> accesses;
  SmallVector<Value> ivs = l.forall.getInductionVars();
  SmallVector<Value> inLoop(ivs);
  if (loop)
    inLoop.push_back(loop.getInductionVar());
  WalkResult walk = l.forall.getBody()->walk([&](Operation *op) {
    Value memref;
    ValueRange indices;
    bool writes = false;
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      memref = load.getMemRef();
      indices = load.getIndices();
    } else if (auto store = dyn_cast<memref::StoreOp>(op)) {
      memref = store.getMemRef();
      indices = store.getIndices();
      writes = true;
    } else if (isMemoryEffectFree(op) || op->hasTrait<OpTrait::HasRecursiveMemoryEffects>()) {
      return WalkResult::advance();
    } else {
      why = "'" + l.kernel.getName().str() + "' holds '" + op->getName().getStringRef().str() +
            "' (only loads and stores at the point fuse)";
      return WalkResult::interrupt();
    }
    if (!llvm::equal(indices, ivs) && !(loop && loop->isAncestor(op) && llvm::equal(indices, inLoop))) {
      why = "'" + l.kernel.getName().str() +
            "' accesses an element other than the point's own (a neighbour or a scatter)";
      return WalkResult::interrupt();
    }
    Operation *def = memref.getDefiningOp();
    Value arg = memref;
    if (auto view = dyn_cast_or_null<memref::ReinterpretCastOp>(def))
      arg = view.getSource();
    auto blockArg = dyn_cast<BlockArgument>(arg);
    if (!blockArg || blockArg.getOwner() != &l.kernel.getBody().front()) {
      why = "'" + l.kernel.getName().str() + "' accesses a buffer that is not a view of a kernel argument";
      return WalkResult::interrupt();
    }
    accesses.push_back({op, memref, writes, l.operandOf(blockArg)});
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  return accesses;
}

/// Whether two memrefs of the two kernels address the same elements at the
/// same point: the same view computed from the same launcher values.
bool sameView(Value a, Launched la, Value b, Launched lb) {
  auto va = a.getDefiningOp<memref::ReinterpretCastOp>();
  auto vb = b.getDefiningOp<memref::ReinterpretCastOp>();
  if (!va || !vb)
    return !va && !vb && a.getType() == b.getType() && sameValue(a, la, b, lb);
  return sameValue(a, la, b, lb);
}

/// Whether two different launcher buffers cannot overlap: both are
/// `__restrict__` parameters, or one is a device allocation of the host
/// function's own (`ks.allocated`: cudaMalloc'd there, so no other live
/// buffer shares its memory).
bool disjoint(Value a, Value b) {
  return isLauncherParamWith(a, "ks.allocated") || isLauncherParamWith(b, "ks.allocated") ||
         (isLauncherParamWith(a, "ks.restrict") && isLauncherParamWith(b, "ks.restrict"));
}

/// Whether two sizes (of K1 and K2) are equal: the same constant or the
/// same computation of the same launcher values.
bool sameSize(OpFoldResult u1, Launched k1, OpFoldResult u2, Launched k2) {
  if (isa<Attribute>(u1) || isa<Attribute>(u2))
    return getConstantIntValue(u1) && getConstantIntValue(u1) == getConstantIntValue(u2);
  return sameValue(cast<Value>(u1), k1, cast<Value>(u2), k2);
}

/// Why K1's points are not K2's (K2's forall, extended by `loop`'s range
/// when given); empty when they are.
std::string checkSpaces(Launched k1, Launched k2, scf::ForOp loop) {
  if (k1.kernel->getParentOp() != k2.kernel->getParentOp())
    return "the kernels are in different GPU modules";
  SmallVector<OpFoldResult> space = k2.forall.getMixedUpperBound();
  if (loop) {
    if (getConstantIntValue(loop.getLowerBound()) != 0 || getConstantIntValue(loop.getStep()) != 1)
      return "the consumer's loop does not run from 0 by 1";
    space.push_back(loop.getUpperBound());
  }
  if (k1.forall.getRank() != int64_t(space.size()))
    return "the iteration spaces differ in rank";
  for (auto [u1, u2] : llvm::zip(k1.forall.getMixedUpperBound(), space))
    if (!sameSize(u1, k1, u2, k2))
      return "the iteration spaces may differ (their sizes are not the same computation of the "
             "same launcher values)";
  return "";
}

/// Why the accesses of K1 and K2 forbid running them point by point; empty
/// when they allow it.
std::string checkBuffers(Launched k1, Launched k2, ArrayRef<Access> a1, ArrayRef<Access> a2) {
  SmallVector<Access> all(a1);
  all.append(a2.begin(), a2.end());
  auto kernelOf = [&](size_t i) -> Launched { return i < a1.size() ? k1 : k2; };
  for (size_t i = 0; i < all.size(); ++i)
    for (size_t j = i + 1; j < all.size(); ++j) {
      const Access &x = all[i], &y = all[j];
      if (!x.writes && !y.writes)
        continue;
      if (x.buffer == y.buffer) {
        if (!sameView(x.memref, kernelOf(i), y.memref, kernelOf(j)))
          return "a buffer is accessed through views of different layouts";
        continue;
      }
      if (!disjoint(x.buffer, y.buffer))
        return "a written buffer and another one may overlap (mark the launcher's pointer "
               "parameters __restrict__ to fuse)";
    }
  return "";
}

/// The fused kernel K1_K2, its parameters the launches' distinct operands
/// (`operands`, in order), both kernels' arguments and setup mapped into it
/// (`map`); the builder is left at the end of its body.
gpu::GPUFuncOp createFusedKernel(Launched k1, Launched k2, OpBuilder &b, IRMapping &map,
                                 SmallVector<Value> &operands) {
  Location loc = FusedLoc::get(b.getContext(), {k1.kernel.getLoc(), k2.kernel.getLoc()});
  llvm::MapVector<Value, SmallVector<std::pair<Launched *, unsigned>>> uses;
  for (Launched *l : {&k1, &k2})
    for (auto [i, v] : llvm::enumerate(l->launch.getKernelOperands()))
      uses[v].push_back({l, unsigned(i)});
  SmallVector<Type> types;
  for (auto &entry : uses) {
    operands.push_back(entry.first);
    types.push_back(entry.first.getType());
  }
  // Built detached, then inserted before K1 through the symbol table, which
  // renames it on a clash (a pair fused in another launcher already).
  b.clearInsertionPoint();
  auto fused = gpu::GPUFuncOp::create(b, loc, (k1.kernel.getName() + "_" + k2.kernel.getName()).str(),
                                      b.getFunctionType(types, {}));
  fused->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  fused->setAttr(kRaisedAttrName, b.getUnitAttr());
  SymbolTable(k1.kernel->getParentOp()).insert(fused, Block::iterator(k1.kernel));
  for (auto [index, entry] : llvm::enumerate(uses)) {
    bool allConst = true, allRestrict = true;
    for (auto [l, i] : entry.second) {
      map.map(l->kernel.getArgument(i), fused.getArgument(index));
      allConst &= l->kernel.getArgAttr(i, "ks.const") != nullptr;
      allRestrict &= l->kernel.getArgAttr(i, "ks.restrict") != nullptr;
    }
    auto [first, firstIndex] = entry.second.front();
    if (Attribute name = first->kernel.getArgAttr(firstIndex, kNameAttrName))
      fused.setArgAttr(index, kNameAttrName, name);
    if (allConst)
      fused.setArgAttr(index, "ks.const", b.getUnitAttr());
    if (allRestrict)
      fused.setArgAttr(index, "ks.restrict", b.getUnitAttr());
  }
  b.setInsertionPointToStart(&fused.getBody().front());
  for (Launched *l : {&k1, &k2})
    for (Operation &op : l->kernel.getBody().front().without_terminator())
      if (&op != l->forall.getOperation())
        b.clone(op, map);
  return fused;
}

/// The buffers `op` (or an op nested in it) writes.
llvm::SmallDenseSet<Value> writtenBy(Operation *op, ArrayRef<Access> accesses) {
  llvm::SmallDenseSet<Value> buffers;
  for (const Access &a : accesses)
    if (a.writes && op->isAncestor(a.op))
      buffers.insert(a.buffer);
  return buffers;
}

/// Clones K1's body at the builder (its iteration variables mapped in
/// `map`) and returns the value it leaves at the point in each buffer it
/// stores at the top level of its body (a later conditional store makes it
/// unknown).
llvm::SmallDenseMap<Value, Value> cloneProducer(Launched k1, ArrayRef<Access> a1, OpBuilder &b,
                                                IRMapping &map) {
  llvm::SmallDenseMap<Value, Value> stored; // launcher buffer -> K1's value
  for (Operation &op : k1.forall.getBody()->without_terminator()) {
    b.clone(op, map);
    for (Value buffer : writtenBy(&op, a1))
      stored.erase(buffer);
    if (auto store = dyn_cast<memref::StoreOp>(op))
      for (const Access &a : a1)
        if (a.op == store.getOperation())
          stored[a.buffer] = map.lookupOrDefault(store.getValueToStore());
  }
  return stored;
}

/// One launch of `fused` where K2's was (the pure host ops between the two
/// may define K2's operands); K1 and K2 go when nothing else launches them.
gpu::LaunchFuncOp replaceLaunches(Launched k1, Launched k2, gpu::GPUFuncOp fused,
                                  ArrayRef<Value> operands) {
  OpBuilder lb(k2.launch);
  auto launch = gpu::LaunchFuncOp::create(lb, k1.launch.getLoc(), fused,
                            gpu::KernelDim3{k1.launch.getGridSizeX(), k1.launch.getGridSizeY(),
                                            k1.launch.getGridSizeZ()},
                            gpu::KernelDim3{k1.launch.getBlockSizeX(), k1.launch.getBlockSizeY(),
                                            k1.launch.getBlockSizeZ()},
                            /*dynamicSharedMemorySize=*/Value(), operands);
  gpu::GPUFuncOp kernels[] = {k1.kernel, k2.kernel};
  k1.launch.erase();
  k2.launch.erase();
  for (gpu::GPUFuncOp kernel : kernels)
    if (getLaunches(kernel).empty())
      kernel.erase();
  return launch;
}

/// Of the intermediates `forwarded` (launcher buffers the first kernel of a
/// fused pair wrote and the second read), those of the launcher's own
/// (`ks.scratch`: the host function allocated, launched and freed them, and
/// no host code reads them) that `launch` alone uses and its kernel no
/// longer reads (fusion forwarded every load): their stores are dead and
/// go. A final output no one reads is not an intermediate and stays written
/// (a benchmark's result). Returns their names.
SmallVector<std::string> dropScratchStores(gpu::LaunchFuncOp launch,
                                           const llvm::SmallDenseSet<Value> &forwarded) {
  SmallVector<std::string> dropped;
  auto launcher = launch->getParentOfType<func::FuncOp>();
  auto kernel = SymbolTable::lookupNearestSymbolFrom<gpu::GPUFuncOp>(launch,
                                                                       launch.getKernel());
  if (!launcher || !kernel || launcher.isExternal())
    return dropped;
  for (auto [i, operand] : llvm::enumerate(launch.getKernelOperands())) {
    auto arg = dyn_cast<BlockArgument>(operand);
    if (!arg || !forwarded.contains(operand) || arg.getOwner() != &launcher.getBody().front() ||
        !launcher.getArgAttr(arg.getArgNumber(), "ks.scratch") ||
        llvm::any_of(arg.getUsers(), [&](Operation *user) { return user != launch; }) ||
        llvm::count(launch.getKernelOperands(), operand) != 1)
      continue;
    Value buffer = kernel.getArgument(i);
    // Every use through a view must be a store; anything else may read it.
    SmallVector<memref::StoreOp> stores;
    bool otherUse = false;
    kernel.walk([&](Operation *op) {
      if (isa<memref::ReinterpretCastOp, memref::CastOp>(op))
        return;
      for (Value v : op->getOperands()) {
        if (!isa<MemRefType>(v.getType()) || viewedBuffer(v) != buffer)
          continue;
        auto store = dyn_cast<memref::StoreOp>(op);
        if (store && store.getMemRef() == v)
          stores.push_back(store);
        else
          otherUse = true;
      }
    });
    if (otherUse || stores.empty())
      continue;
    for (memref::StoreOp store : stores)
      store.erase();
    auto name = launcher.getArgAttrOfType<StringAttr>(arg.getArgNumber(), kNameAttrName);
    dropped.push_back(name ? name.str() : "#" + std::to_string(arg.getArgNumber()));
  }
  return dropped;
}

/// The fused kernel's forall over the space of `like` (its sizes mapped),
/// then its return; `like`'s iteration variables map to the new forall's
/// and the builder is left inside its body.
scf::ForallOp emitFusedForall(OpBuilder &b, IRMapping &map, scf::ForallOp like,
                              gpu::GPUFuncOp fused) {
  SmallVector<OpFoldResult> ubs;
  for (OpFoldResult ub : like.getMixedUpperBound())
    ubs.push_back(isa<Value>(ub) ? OpFoldResult(map.lookupOrDefault(cast<Value>(ub))) : ub);
  auto forall = scf::ForallOp::create(b, like.getLoc(), ubs, ValueRange{}, std::nullopt);
  gpu::ReturnOp::create(b, fused.getLoc());
  b.setInsertionPoint(forall.getBody()->getTerminator());
  for (auto [iv, fusedIv] : llvm::zip(like.getInductionVars(), forall.getInductionVars()))
    map.map(iv, fusedIv);
  return forall;
}

/// K1 then K2 over the same space: one forall running K1's body, then
/// K2's, at each point.
gpu::LaunchFuncOp fuse(Launched k1, Launched k2, ArrayRef<Access> a1, ArrayRef<Access> a2) {
  OpBuilder b(k1.kernel);
  IRMapping map;
  SmallVector<Value> operands;
  gpu::GPUFuncOp fused = createFusedKernel(k1, k2, b, map, operands);
  scf::ForallOp forall = emitFusedForall(b, map, k1.forall, fused);
  for (auto [iv, fusedIv] : llvm::zip(k2.forall.getInductionVars(), forall.getInductionVars()))
    map.map(iv, fusedIv);
  llvm::SmallDenseMap<Value, Value> stored = cloneProducer(k1, a1, b, map);
  // K2's top-level loads of those buffers take the values, until K2 itself
  // writes the buffer.
  for (Operation &op : k2.forall.getBody()->without_terminator()) {
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      auto access = llvm::find_if(a2, [&](const Access &a) { return a.op == load.getOperation(); });
      if (access != a2.end() && stored.count(access->buffer)) {
        map.map(load.getResult(), stored[access->buffer]);
        continue;
      }
    }
    b.clone(op, map);
    for (Value buffer : writtenBy(&op, a2))
      stored.erase(buffer);
  }
  return replaceLaunches(k1, k2, fused, operands);
}

/// The loop of K2 that K1's points run in when K1 has one dimension more:
/// the one top-level scf.for of K2's body that reads a buffer K1 writes.
scf::ForOp consumerLoop(Launched k1, Launched k2, std::string &why) {
  if (k1.forall.getRank() != k2.forall.getRank() + 1)
    return nullptr;
  llvm::SmallDenseSet<Value> written;
  k1.forall.getBody()->walk([&](memref::StoreOp store) {
    Value arg = store.getMemRef();
    if (auto view = arg.getDefiningOp<memref::ReinterpretCastOp>())
      arg = view.getSource();
    if (auto blockArg = dyn_cast<BlockArgument>(arg))
      if (blockArg.getOwner() == &k1.kernel.getBody().front())
        written.insert(k1.operandOf(blockArg));
  });
  scf::ForOp found;
  for (auto loop : k2.forall.getBody()->getOps<scf::ForOp>()) {
    bool reads = false;
    loop.walk([&](memref::LoadOp load) {
      Value arg = load.getMemRef();
      if (auto view = arg.getDefiningOp<memref::ReinterpretCastOp>())
        arg = view.getSource();
      if (auto blockArg = dyn_cast<BlockArgument>(arg))
        if (blockArg.getOwner() == &k2.kernel.getBody().front())
          reads |= written.contains(k2.operandOf(blockArg));
    });
    if (!reads)
      continue;
    if (found) {
      why = "more than one loop of the consumer reads the producer's output";
      return nullptr;
    }
    found = loop;
  }
  if (!found)
    why = "the consumer has one dimension less and no loop over the producer's output";
  return found;
}

/// Why K2 cannot take K1's points in `loop`; empty when it can: K2 reads
/// what K1 writes only inside the loop and never writes it.
std::string checkLoopFusion(scf::ForOp loop, ArrayRef<Access> a1, ArrayRef<Access> a2) {
  llvm::SmallDenseSet<Value> written;
  for (const Access &a : a1)
    if (a.writes)
      written.insert(a.buffer);
  for (const Access &a : a2)
    if (written.contains(a.buffer) && (a.writes || !loop->isAncestor(a.op)))
      return "the consumer writes the producer's output, or reads it outside its loop";
  return "";
}

/// K1 (one dimension more) into K2's `loop`: K2's forall, K1's body at the
/// start of each iteration of the loop, at the point (K2's point, the
/// loop's variable); the loop's top-level loads of K1's output take the
/// values.
gpu::LaunchFuncOp fuseIntoLoop(Launched k1, Launched k2, scf::ForOp loop,
                               ArrayRef<Access> a1, ArrayRef<Access> a2) {
  OpBuilder b(k1.kernel);
  IRMapping map;
  SmallVector<Value> operands;
  gpu::GPUFuncOp fused = createFusedKernel(k1, k2, b, map, operands);
  scf::ForallOp forall = emitFusedForall(b, map, k2.forall, fused);
  for (Operation &op : k2.forall.getBody()->without_terminator())
    b.clone(op, map);
  auto fusedLoop = cast<scf::ForOp>(map.lookup(loop.getOperation()));
  for (auto [iv, fusedIv] : llvm::zip(k1.forall.getInductionVars(), forall.getInductionVars()))
    map.map(iv, fusedIv);
  map.map(k1.forall.getInductionVars().back(), fusedLoop.getInductionVar());
  b.setInsertionPointToStart(fusedLoop.getBody());
  llvm::SmallDenseMap<Value, Value> stored = cloneProducer(k1, a1, b, map);
  for (const Access &a : a2)
    if (auto load = dyn_cast<memref::LoadOp>(a.op);
        load && load->getBlock() == loop.getBody() && stored.count(a.buffer)) {
      Operation *clone = map.lookup(load.getResult()).getDefiningOp();
      clone->getResult(0).replaceAllUsesWith(stored[a.buffer]);
      clone->erase();
    }
  return replaceLaunches(k1, k2, fused, operands);
}

/// The next launch after `launch` in its block, with only pure host ops in
/// between; null otherwise.
gpu::LaunchFuncOp nextLaunch(gpu::LaunchFuncOp launch) {
  for (Operation *op = launch->getNextNode(); op; op = op->getNextNode()) {
    if (auto next = dyn_cast<gpu::LaunchFuncOp>(op))
      return next;
    if (!isMemoryEffectFree(op))
      return nullptr;
  }
  return nullptr;
}

/// Fuses the pair if it can, else says why.
bool tryFuse(gpu::LaunchFuncOp first, gpu::LaunchFuncOp second, std::string &why,
             gpu::LaunchFuncOp &fusedLaunch, llvm::SmallDenseSet<Value> &forwarded) {
  FailureOr<Launched> k1 = launchedOf(first, why);
  if (failed(k1))
    return false;
  FailureOr<Launched> k2 = launchedOf(second, why);
  if (failed(k2))
    return false;
  if (k1->kernel == k2->kernel) {
    // Its arguments would map twice (not built: one mapping per launch).
    why = "the same kernel is launched twice";
    return false;
  }
  scf::ForOp loop;
  if (k1->forall.getRank() == k2->forall.getRank() + 1 && !(loop = consumerLoop(*k1, *k2, why)))
    return false;
  FailureOr<SmallVector<Access>> a1 = accessesOf(*k1, why);
  if (failed(a1))
    return false;
  FailureOr<SmallVector<Access>> a2 = accessesOf(*k2, why, loop);
  if (failed(a2))
    return false;
  why = checkSpaces(*k1, *k2, loop);
  if (why.empty() && loop)
    why = checkLoopFusion(loop, *a1, *a2);
  if (why.empty())
    why = checkBuffers(*k1, *k2, *a1, *a2);
  if (!why.empty())
    return false;
  // The intermediates: what K1 writes and K2 reads.
  for (const Access &w : *a1)
    if (w.writes && llvm::any_of(*a2, [&](const Access &r) {
          return !r.writes && r.buffer == w.buffer;
        }))
      forwarded.insert(w.buffer);
  fusedLaunch = loop ? fuseIntoLoop(*k1, *k2, loop, *a1, *a2) : fuse(*k1, *k2, *a1, *a2);
  return true;
}

struct FuseLaunchesPass : public ks::impl::KSFuseLaunchesBase<FuseLaunchesPass> {
  using Base::Base;
  void runOnOperation() override {
    bool changed = true;
    llvm::DenseSet<Operation *> reported;
    while (changed) {
      changed = false;
      SmallVector<gpu::LaunchFuncOp> launches;
      getOperation().walk([&](gpu::LaunchFuncOp launch) { launches.push_back(launch); });
      for (gpu::LaunchFuncOp launch : launches) {
        gpu::LaunchFuncOp next = nextLaunch(launch);
        if (!next)
          continue;
        std::string why;
        gpu::LaunchFuncOp fused;
        llvm::SmallDenseSet<Value> forwarded;
        if (tryFuse(launch, next, why, fused, forwarded)) {
          for (const std::string &name : dropScratchStores(fused, forwarded))
            if (remarks)
              emitRemark(fused.getLoc())
                  << "ks-fuse-launches: '" << name
                  << "' is the launcher's own buffer and no launch reads it now: no longer "
                     "written";
          changed = true;
          break; // the launches changed: collect them again
        }
        if (remarks && reported.insert(next).second)
          emitRemark(next.getLoc()) << "ks-fuse-launches: not fused with the launch before: " << why;
      }
    }
  }
};
} // namespace
