//===- GridMapping.cpp - A raised forall back onto a grid of threads ------===//
//
// include/kernelskill/Transforms/GridMapping.h. With coarsening, thread
// (tx, ty, tz) of block (bx, by, bz) takes the points
//
//   d = bd * Bd * Cd + td + a * Bd   for a < Cd, along each dimension d
//
// (z delinearized over the forall's outer dimensions), each under its own
// bounds check. Two phases where the body ends in its stores: phase 1
// computes each point's stored values (an scf.if yielding them, zeros
// outside the space), phase 2 recomputes each point's store indices (pure
// ops of the iteration variables) and stores. Exact: each point's values
// come from the same loads in the same order; only the order between
// points changes, which a forall leaves free.
//
// Not upstream's: scf.forall's own GPU mapping (transform.gpu.map_forall_
// to_blocks / map_nested_forall_to_threads) needs the forall tiled into
// nested block and thread foralls and a gpu.launch; a raised kernel is
// already a gpu.func with a host launcher to rewrite, and its body stays
// scalar SIMT code.
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Transforms/GridMapping.h"
#include "SIMTBuilder.h"
#include "kernelskill/Transforms/KernelLaunch.h"
#include "kernelskill/Transforms/Raising.h"
#include "kernelskill/Transforms/SinkBranchStores.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::ks;

std::string mlir::ks::verifyGridMapping(const GridMappingSchedule &s, int64_t maxThreads) {
  if (llvm::any_of(s.block, [](int64_t v) { return v <= 0; }))
    return "block takes three positive sizes (x, y, z)";
  if (llvm::any_of(s.coarsen, [](int64_t v) { return v <= 0; }))
    return "coarsen takes three positive counts (x, y, z)";
  if (s.block[0] * s.block[1] * s.block[2] > maxThreads)
    return "the block has more threads than the chip allows";
  if (s.coarsen[0] * s.coarsen[1] * s.coarsen[2] > 64)
    return "coarsen gives a thread more than 64 points";
  return "";
}

namespace {
/// The two-phase form of a body: its trailing stores, and the pure ops their
/// memrefs and indices need (recomputed in the second phase). Fails when the
/// body does not end in its stores.
struct TwoPhase {
  SmallVector<memref::StoreOp> stores;
  SmallVector<Operation *> indexOps;
};

FailureOr<TwoPhase> twoPhaseForm(Block *body) {
  TwoPhase form;
  for (Operation &op : body->without_terminator()) {
    if (auto store = dyn_cast<memref::StoreOp>(op)) {
      if (!store.getValueToStore().getType().isIntOrIndexOrFloat())
        return failure();
      form.stores.push_back(store);
      continue;
    }
    if (form.stores.empty() ? !onlyReadsMemory(&op) : !isMemoryEffectFree(&op))
      return failure();
  }
  if (form.stores.empty())
    return failure();
  llvm::SetVector<Operation *> slice;
  SmallVector<Value> work;
  for (memref::StoreOp store : form.stores) {
    work.push_back(store.getMemRef());
    work.append(store.getIndices().begin(), store.getIndices().end());
  }
  while (!work.empty()) {
    Operation *def = work.pop_back_val().getDefiningOp();
    if (!def || def->getBlock() != body)
      continue;
    if (!isMemoryEffectFree(def))
      return failure(); // a scatter: the indices depend on a load
    if (slice.insert(def))
      work.append(def->getOperands().begin(), def->getOperands().end());
  }
  for (Operation &op : body->without_terminator())
    if (slice.contains(&op))
      form.indexOps.push_back(&op);
  return form;
}
} // namespace

LogicalResult mlir::ks::generateGridMapping(scf::ForallOp forall, const GridMappingSchedule &s,
                                            std::string &why) {
  gpu::GPUFuncOp kernel = scheduledKernelOf(
      forall, {gpu::Dimension::x, gpu::Dimension::y, gpu::Dimension::z}, why);
  if (!kernel)
    return failure();

  OpBuilder b(forall);
  Location loc = forall.getLoc();
  SIMTBuilder sb(b, loc);
  int64_t rank = forall.getRank();
  SmallVector<Value> ubs;
  for (OpFoldResult ub : forall.getMixedUpperBound())
    ubs.push_back(getValueOrCreateConstantIndexOp(b, loc, ub));
  // Dimension i of the forall goes to x for the innermost, y, then z for
  // the product of all outer ones.
  std::array<gpu::Dimension, 3> dims = {gpu::Dimension::x, gpu::Dimension::y, gpu::Dimension::z};
  std::array<Value, 3> extent;
  SmallVector<unsigned> placement(rank); // forall dim -> grid dim
  for (int64_t i = 0; i < rank; ++i) {
    unsigned g = std::min<int64_t>(rank - 1 - i, 2);
    placement[i] = g;
    extent[g] = extent[g] ? Value(arith::MulIOp::create(b, loc, extent[g], ubs[i])) : ubs[i];
  }
  // Thread-level first point along each grid dimension.
  std::array<Value, 3> first;
  for (unsigned g = 0; g < 3; ++g)
    if (extent[g]) {
      Value bid = gpu::BlockIdOp::create(b, loc, dims[g]);
      Value tid = gpu::ThreadIdOp::create(b, loc, dims[g]);
      first[g] = arith::AddIOp::create(
          b, loc,
          arith::MulIOp::create(b, loc, bid,
                                arith::ConstantIndexOp::create(b, loc, s.block[g] * s.coarsen[g])),
          tid);
    }
  // The grid coordinates of the point `a` (offsets in blocks), and whether
  // it lies in the space.
  auto point = [&](std::array<int64_t, 3> a, Value &inBounds) {
    std::array<Value, 3> gid;
    inBounds = Value();
    for (unsigned g = 0; g < 3; ++g) {
      if (!extent[g])
        continue;
      gid[g] = sb.add(first[g], a[g] * s.block[g]);
      Value lt = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, gid[g], extent[g]);
      inBounds = inBounds ? Value(arith::AndIOp::create(b, loc, inBounds, lt)) : lt;
    }
    return gid;
  };
  // Its iteration variables: x and y directly; z delinearized over the
  // outer dimensions (the last varying fastest).
  auto ivsOf = [&](const std::array<Value, 3> &gid) {
    SmallVector<Value> ivs(rank);
    Value zRest = gid[2];
    for (int64_t i = rank - 1; i >= 0; --i) {
      if (placement[i] < 2) {
        ivs[i] = gid[placement[i]];
        continue;
      }
      bool outermost = i == 0;
      ivs[i] = outermost ? zRest : Value(arith::RemUIOp::create(b, loc, zRest, ubs[i]));
      if (!outermost)
        zRest = arith::DivUIOp::create(b, loc, zRest, ubs[i]);
    }
    return ivs;
  };
  auto mapping = [&](const std::array<Value, 3> &gid) {
    IRMapping map;
    for (auto [iv, v] : llvm::zip(forall.getInductionVars(), ivsOf(gid)))
      map.map(iv, v);
    return map;
  };

  Block *body = forall.getBody();
  bool single = s.coarsen[0] * s.coarsen[1] * s.coarsen[2] == 1;
  if (single) {
    // One point: the body moves under one guard as it is.
    Value inBounds;
    std::array<Value, 3> gid = point({0, 0, 0}, inBounds);
    auto guard = scf::IfOp::create(b, loc, TypeRange{}, inBounds, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard inside(b);
    b.setInsertionPoint(guard.thenBlock()->getTerminator());
    for (auto [iv, replacement] : llvm::zip(forall.getInductionVars(), ivsOf(gid)))
      iv.replaceAllUsesWith(replacement);
    for (Operation &op : llvm::make_early_inc_range(body->without_terminator()))
      op.moveBefore(guard.thenBlock()->getTerminator());
  } else {
    sinkCommonStores(*body);
    FailureOr<TwoPhase> form = twoPhaseForm(body);
    SmallVector<std::array<int64_t, 3>> points;
    for (int64_t z = 0; z < s.coarsen[2]; ++z)
      for (int64_t y = 0; y < s.coarsen[1]; ++y)
        for (int64_t x = 0; x < s.coarsen[0]; ++x)
          points.push_back({x, y, z});
    SmallVector<Value> inBounds(points.size());
    SmallVector<std::array<Value, 3>> coords;
    for (auto [p, a] : llvm::enumerate(points))
      coords.push_back(point(a, inBounds[p]));
    if (failed(form)) {
      // Point by point.
      for (auto [p, a] : llvm::enumerate(points))
        sb.ifThen(inBounds[p], [&]() {
          IRMapping map = mapping(coords[p]);
          for (Operation &op : body->without_terminator())
            b.clone(op, map);
        });
    } else {
      // Phase 1: every point's stored values.
      SmallVector<Type> types;
      for (memref::StoreOp store : form->stores)
        types.push_back(store.getValueToStore().getType());
      SmallVector<SmallVector<Value>> values;
      for (auto [p, a] : llvm::enumerate(points)) {
        ValueRange r = sb.ifElse(
            inBounds[p], types,
            [&]() {
              IRMapping map = mapping(coords[p]);
              for (Operation &op : body->without_terminator())
                if (!isa<memref::StoreOp>(op))
                  b.clone(op, map);
              SmallVector<Value> stored;
              for (memref::StoreOp store : form->stores)
                stored.push_back(map.lookupOrDefault(store.getValueToStore()));
              return stored;
            },
            [&]() {
              SmallVector<Value> zeros;
              for (Type t : types)
                zeros.push_back(sb.zero(t));
              return zeros;
            });
        values.emplace_back(r.begin(), r.end());
      }
      // Phase 2: every point's stores.
      for (auto [p, a] : llvm::enumerate(points))
        sb.ifThen(inBounds[p], [&]() {
          IRMapping map = mapping(coords[p]);
          for (Operation *op : form->indexOps)
            b.clone(*op, map);
          for (auto [k, store] : llvm::enumerate(form->stores)) {
            SmallVector<Value> indices;
            for (Value index : store.getIndices())
              indices.push_back(map.lookupOrDefault(index));
            memref::StoreOp::create(b, loc, values[p][k], map.lookupOrDefault(store.getMemRef()),
                                    indices, store.getNontemporal(),
                                    llvm::MaybeAlign(store.getAlignment().value_or(0)));
          }
        });
    }
  }
  // The launch: ceil(extent / (block x coarsen)) blocks along each dimension.
  std::array<Value, 3> grid;
  for (unsigned g = 0; g < 3; ++g)
    if (extent[g])
      grid[g] = sb.ceilDiv(extent[g], s.block[g] * s.coarsen[g]);
  forall.erase();
  if (failed(rewriteLaunch(kernel, grid, {s.block[0], s.block[1], s.block[2]}, why)))
    return failure();
  kernel->removeAttr(kRaisedAttrName);
  kernel.setKnownBlockSizeAttr(b.getDenseI32ArrayAttr(
      {int32_t(s.block[0]), int32_t(s.block[1]), int32_t(s.block[2])}));
  kernel->setAttr(kScheduleAttrName,
                  b.getStringAttr(single ? "simt_one_per_thread" : "simt_coarsened_grid"));
  return success();
}
