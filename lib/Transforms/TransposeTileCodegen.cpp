//===- TransposeTileCodegen.cpp - Stores staged through a shared tile -----===//
//
// From a raised kernel whose forall runs over (i, j) and whose body is one
// store (include/kernelskill/Transforms/TransposeTile.h):
//
//   block (bx, by) computes the tile i0 = by * TI, j0 = bx * TJ
//   phase 1, threads along j: for each (ii, jj) = (ty + a * Y, tx + b * X)
//     of the tile, the point (i0 + ii, j0 + jj), if inside the space: the
//     body's value there into tile[ii][jj] (padded rows: TJ + pad)
//   barrier
//   phase 2, threads along i: for each (ii, jj) = (tx + b * X, ty + a * Y),
//     the point, if inside: tile[ii][jj] stored at the body's indices
//   both phases' loops marked for full unrolling
//
// Exact: every point's value is computed once, from the same loads, and
// stored once at the same element; only which thread does what changes.
// Sizes that are no multiple of the tile are predicated point by point.
//
// Not upstream's: linalg's promotion stages operands (reads) of structured
// ops; here the store of a lifted SIMT body is what needs the other thread
// order, and the body stays scalar code.
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Transforms/TransposeTile.h"
#include "SIMTBuilder.h"
#include "kernelskill/Transforms/KernelLaunch.h"
#include "kernelskill/Transforms/Raising.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::ks;

std::string mlir::ks::verifyTransposeTile(const TransposeTileSchedule &s, int64_t maxThreads) {
  auto [ti, tj] = s.tile;
  auto [x, y] = s.block;
  if (ti <= 0 || tj <= 0 || x <= 0 || y <= 0 || s.pad < 0)
    return "tile and block take positive sizes, pad a non-negative one";
  if (tj % x || ti % y)
    return "block x must divide the tile's columns and block y its rows (the first phase)";
  if (ti % x || tj % y)
    return "block x must divide the tile's rows and block y its columns (the second phase)";
  if (x * y > maxThreads)
    return std::to_string(x * y) + " threads per block exceed the chip's " +
           std::to_string(maxThreads);
  return "";
}

namespace {
struct Analysis {
  gpu::GPUFuncOp kernel;
  memref::StoreOp store;
  /// The body's ops the store's indices need (pure, from the iteration
  /// variables), in order.
  SmallVector<Operation *> indexOps;
};

FailureOr<Analysis> analyze(scf::ForallOp forall, const TransposeTileSchedule &s,
                            int64_t maxSharedBytes, std::string &why) {
  Analysis a;
  a.kernel = scheduledKernelOf(forall, {gpu::Dimension::x, gpu::Dimension::y}, why);
  if (!a.kernel)
    return failure();
  if (forall.getRank() != 2) {
    why = "the forall runs over " + std::to_string(forall.getRank()) +
          " dimensions; the tile takes two";
    return failure();
  }
  Block *body = forall.getBody();
  for (Operation &op : body->without_terminator()) {
    if (op.getNumRegions()) {
      why = "the body holds '" + op.getName().getStringRef().str() +
            "': the tile takes straight-line bodies";
      return failure();
    }
    if (auto store = dyn_cast<memref::StoreOp>(op)) {
      if (a.store) {
        why = "the body stores more than once";
        return failure();
      }
      a.store = store;
      continue;
    }
    if (!isa<memref::LoadOp>(op) && !isMemoryEffectFree(&op)) {
      why = "the body holds '" + op.getName().getStringRef().str() + "', a side effect";
      return failure();
    }
  }
  if (!a.store) {
    why = "the body stores nothing";
    return failure();
  }
  Value out = viewedBuffer(a.store.getMemRef());
  if (!out) {
    why = "the store is not to a view of a kernel buffer";
    return failure();
  }
  WalkResult reads = body->walk([&](memref::LoadOp load) {
    return viewedBuffer(load.getMemRef()) == out ? WalkResult::interrupt() : WalkResult::advance();
  });
  if (reads.wasInterrupted()) {
    why = "the body reads the buffer it writes (a thread would read another's element)";
    return failure();
  }
  // The store's indices, recomputed in the second phase: pure ops of the
  // iteration variables and values from outside the forall.
  llvm::SetVector<Operation *> slice;
  SmallVector<Value> work(a.store.getIndices().begin(), a.store.getIndices().end());
  work.push_back(a.store.getMemRef());
  while (!work.empty()) {
    Value v = work.pop_back_val();
    Operation *def = v.getDefiningOp();
    if (!def || def->getBlock() != body)
      continue;
    if (isa<memref::LoadOp>(def)) {
      why = "the store's indices depend on a load (a scatter)";
      return failure();
    }
    if (slice.insert(def))
      work.append(def->getOperands().begin(), def->getOperands().end());
  }
  for (Operation &op : body->without_terminator())
    if (slice.contains(&op))
      a.indexOps.push_back(&op);
  Type elt = a.store.getValueToStore().getType();
  if (!elt.isIntOrFloat()) {
    why = "the stored value is not a scalar integer or float";
    return failure();
  }
  int64_t bytes = s.tile[0] * (s.tile[1] + s.pad) * ((elt.getIntOrFloatBitWidth() + 7) / 8);
  if (bytes > std::min<int64_t>(48 * 1024, maxSharedBytes)) {
    why = "the shared tile needs " + std::to_string(bytes) + " bytes";
    return failure();
  }
  return a;
}
} // namespace

LogicalResult mlir::ks::checkTransposeTile(scf::ForallOp forall, const TransposeTileSchedule &s,
                                           int64_t maxSharedBytes, std::string &why) {
  return failure(failed(analyze(forall, s, maxSharedBytes, why)));
}

bool mlir::ks::storesAcrossLoads(scf::ForallOp forall) {
  if (forall.getRank() != 2)
    return false;
  Value first = forall.getInductionVars()[0], second = forall.getInductionVars()[1];
  bool storeAlongFirst = false, loadAlongSecond = false;
  forall.getBody()->walk([&](Operation *op) {
    if (auto store = dyn_cast<memref::StoreOp>(op))
      storeAlongFirst |= !store.getIndices().empty() && store.getIndices().back() == first;
    if (auto load = dyn_cast<memref::LoadOp>(op))
      loadAlongSecond |= !load.getIndices().empty() && load.getIndices().back() == second;
  });
  return storeAlongFirst && loadAlongSecond;
}

LogicalResult mlir::ks::generateTransposeTile(scf::ForallOp forall, const TransposeTileSchedule &s,
                                              int64_t maxSharedBytes, std::string &why) {
  FailureOr<Analysis> a = analyze(forall, s, maxSharedBytes, why);
  if (failed(a))
    return failure();
  OpBuilder b(forall);
  Location loc = forall.getLoc();
  SIMTBuilder sb(b, loc);
  auto [TI, TJ] = s.tile;
  auto [X, Y] = s.block;
  SmallVector<Value> ubs;
  for (OpFoldResult ub : forall.getMixedUpperBound())
    ubs.push_back(getValueOrCreateConstantIndexOp(b, loc, ub));
  Value tx = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value ty = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::y);
  Value i0 = sb.mul(gpu::BlockIdOp::create(b, loc, gpu::Dimension::y), TI);
  Value j0 = sb.mul(gpu::BlockIdOp::create(b, loc, gpu::Dimension::x), TJ);
  memref::StoreOp store = a->store;
  Type elt = store.getValueToStore().getType();
  auto space = gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  Value tile = addSharedBuffer(
      a->kernel, MemRefType::get({TI, TJ + s.pad}, elt, MemRefLayoutAttrInterface(), space), loc);
  Block *body = forall.getBody();
  // One point of the tile: (ii, jj) inside the tile, `emit` with the
  // iteration variables mapped, if the point is inside the space.
  auto atPoint = [&](Value ii, Value jj, const std::function<void(IRMapping &)> &emit) {
    Value i = sb.add(i0, ii), j = sb.add(j0, jj);
    sb.ifThen(sb.andi(sb.lt(i, ubs[0]), sb.lt(j, ubs[1])), [&]() {
      IRMapping map;
      map.map(forall.getInductionVars()[0], i);
      map.map(forall.getInductionVars()[1], j);
      emit(map);
    });
  };
  // Phase 1: threads along j compute the values.
  sb.loop(0, TI / Y, 1, /*unroll=*/true, [&](Value ra) {
    sb.loop(0, TJ / X, 1, /*unroll=*/true, [&](Value rb) {
      Value ii = sb.add(ty, sb.mul(ra, Y)), jj = sb.add(tx, sb.mul(rb, X));
      atPoint(ii, jj, [&](IRMapping &map) {
        for (Operation &op : body->without_terminator())
          if (&op != store.getOperation())
            b.clone(op, map);
        memref::StoreOp::create(b, loc, map.lookupOrDefault(store.getValueToStore()), tile,
                                ValueRange{ii, jj});
      });
    });
  });
  gpu::BarrierOp::create(b, loc);
  // Phase 2: threads along i store them.
  sb.loop(0, TJ / Y, 1, /*unroll=*/true, [&](Value ra) {
    sb.loop(0, TI / X, 1, /*unroll=*/true, [&](Value rb) {
      Value jj = sb.add(ty, sb.mul(ra, Y)), ii = sb.add(tx, sb.mul(rb, X));
      atPoint(ii, jj, [&](IRMapping &map) {
        for (Operation *op : a->indexOps)
          b.clone(*op, map);
        Value v = memref::LoadOp::create(b, loc, tile, ValueRange{ii, jj});
        SmallVector<Value> indices;
        for (Value index : store.getIndices())
          indices.push_back(map.lookupOrDefault(index));
        memref::StoreOp::create(b, loc, v, map.lookupOrDefault(store.getMemRef()), indices);
      });
    });
  });
  std::array<Value, 3> grid = {sb.ceilDiv(ubs[1], TJ), sb.ceilDiv(ubs[0], TI), sb.c(1)};
  if (failed(rewriteLaunch(a->kernel, grid, {X, Y, 1}, why)))
    return failure();
  forall.erase();
  a->kernel->removeAttr(kRaisedAttrName);
  a->kernel->setAttr(kScheduleAttrName, b.getStringAttr("simt_transpose_tile"));
  a->kernel.setKnownBlockSizeAttr(b.getDenseI32ArrayAttr({int32_t(X), int32_t(Y), 1}));
  return success();
}
