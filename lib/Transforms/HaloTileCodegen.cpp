//===- HaloTileCodegen.cpp - Stencil inputs staged through a shared tile --===//
//
// From a raised kernel whose forall runs over R = 2 or 3 dimensions
// (include/kernelskill/Transforms/HaloTile.h):
//
//   block b computes the tile origin_d = b_d * T_d (x along the innermost
//   dimension, then y, then z)
//   phase 1, all threads: for each element h of the haloed tile
//     (T_d + hi_d - lo_d per dimension, lo/hi the smallest and largest
//     offsets the body reads at), thread t taking elements t, t + threads,
//     ...: tile[h] = in[origin + lo + h] where that element lies inside the
//     buffer the views describe (its flat address, the views' own address
//     arithmetic, so a row's neighbour across the row's end is the element
//     the original reads)
//   barrier
//   phase 2, each thread its points p = origin + t + a * B (a < T / B per
//     dimension), each inside the space: the body, every staged load read
//     from tile[p - origin + offset - lo]
//   both phases' loops marked for full unrolling
//
// Streamed (stream = K): the block has one thread along dimension 0 and
// walks its T_0 planes K per step; shared memory holds a window of
// W = K + hi_0 - lo_0 planes, plane q in slot (q - origin_0 - lo_0) mod W:
//   the window's first hi_0 - lo_0 planes
//   per step s (planes s .. s + K - 1 of the walk): phase 1 for the K
//     planes from origin_0 + s + hi_0 on, barrier, phase 2 for the K planes
//     (a loop), barrier (the next step overwrites what this one read last)
//
// Exact: the staged buffers are not written by the kernel, so every tile
// element holds what the original load would read; each point runs the
// body once with its other loads, stores and control flow as they were.
//
// A load's offset from the point: its indices are the iteration variables
// plus constants, and its view (memref.reinterpret_cast of the buffer, the
// raising's form of `in[(i - 1) * m + j]`) is offset by a constant
// combination of the view's strides (`-m`, `m`, `1`, `-n*n`). The raising
// makes one view per offset; upstream's linalg promotion and halo-aware
// tiling act on linalg ops, and these stencils stay SIMT foralls with
// branches (the border copy), hence this generator.
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Transforms/HaloTile.h"
#include "SIMTBuilder.h"
#include "kernelskill/Transforms/KernelLaunch.h"
#include "kernelskill/Transforms/Raising.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/MapVector.h"

using namespace mlir;
using namespace mlir::ks;

std::string mlir::ks::verifyHaloTile(const HaloTileSchedule &s, int64_t maxThreads) {
  size_t rank = s.tile.size();
  if (rank != 2 && rank != 3)
    return "tile takes 2 or 3 sizes (the forall's dimensions, outermost first)";
  if (s.stream < 0)
    return "stream takes the planes per step (0: no walk)";
  if (s.block.size() != rank)
    return "block takes as many sizes as tile (x first)";
  if (s.registers && s.stream)
    return "registers and stream exclude each other (a register window walks no planes)";
  int64_t threads = 1;
  for (size_t d = 0; d < rank; ++d) {
    int64_t t = s.tile[d], b = s.block[rank - 1 - d];
    if (t <= 0 || b <= 0)
      return "tile and block take positive sizes";
    if (s.registers) {
      if (t % b)
        return "block size " + std::to_string(b) + " does not divide the tile's " +
               std::to_string(t) + " along dimension " + std::to_string(d);
      if (d == 0 && t / b > 32)
        return "registers: more than 32 consecutive points per thread along dimension 0";
      if (d > 0 && t != b)
        return "registers: one point per thread along dimension " + std::to_string(d) +
               " (tile " + std::to_string(t) + ", block " + std::to_string(b) + ")";
      threads *= b;
      continue;
    }
    if (s.stream && d == 0) {
      if (s.stream < 0 || s.stream > 16 || t % s.stream)
        return "streamed: stream (planes per step, at most 16) must divide the tile's " +
               std::to_string(t) + " planes";
      if (b != 1)
        return "streamed: the block has one thread along the outermost dimension (its last "
               "size), got " + std::to_string(b);
      if (t > 4096)
        return "streamed: at most 4096 planes per block";
      continue;
    }
    if (t % b)
      return "block size " + std::to_string(b) + " does not divide the tile's " +
             std::to_string(t) + " along dimension " + std::to_string(d);
    if (t / b > 16)
      return "more than 16 points per thread along dimension " + std::to_string(d);
    threads *= b;
  }
  if (threads > maxThreads)
    return std::to_string(threads) + " threads per block exceed the chip's " +
           std::to_string(maxThreads);
  return "";
}

namespace {
/// A constant combination of the strides, sum(coef_d * stride_d) + constant.
struct Combination {
  SmallVector<int64_t, 3> coef;
  int64_t constant = 0;
};

/// `v` as a constant combination of `strides` (values or constants).
std::optional<Combination> combinationOf(Value v, ArrayRef<OpFoldResult> strides, int depth = 0) {
  Combination c;
  c.coef.assign(strides.size(), 0);
  if (depth > 8)
    return std::nullopt;
  if (std::optional<int64_t> k = getConstantIntValue(v)) {
    c.constant = *k;
    return c;
  }
  for (auto [d, stride] : llvm::enumerate(strides))
    if (auto sv = dyn_cast<Value>(stride); sv && sameSignedValue(sv, v)) {
      c.coef[d] = 1;
      return c;
    }
  Operation *def = v.getDefiningOp();
  if (!def)
    return std::nullopt;
  if (isa<arith::AddIOp, arith::SubIOp>(def)) {
    auto lhs = combinationOf(def->getOperand(0), strides, depth + 1);
    auto rhs = combinationOf(def->getOperand(1), strides, depth + 1);
    if (!lhs || !rhs)
      return std::nullopt;
    int64_t sign = isa<arith::SubIOp>(def) ? -1 : 1;
    for (size_t d = 0; d < strides.size(); ++d)
      c.coef[d] = lhs->coef[d] + sign * rhs->coef[d];
    c.constant = lhs->constant + sign * rhs->constant;
    return c;
  }
  if (isa<arith::MulIOp>(def)) {
    for (int k : {0, 1})
      if (std::optional<int64_t> factor = getConstantIntValue(def->getOperand(k))) {
        auto other = combinationOf(def->getOperand(1 - k), strides, depth + 1);
        if (!other)
          return std::nullopt;
        for (size_t d = 0; d < strides.size(); ++d)
          c.coef[d] = other->coef[d] * *factor;
        c.constant = other->constant * *factor;
        return c;
      }
    return std::nullopt;
  }
  if (isa<arith::IndexCastOp, arith::ExtSIOp>(def))
    return combinationOf(def->getOperand(0), strides, depth + 1);
  return std::nullopt;
}

/// The per-dimension offsets a view's offset stands for: its combination of
/// the strides, the constant spread over the dimensions of constant stride
/// from the outermost (as the raising moved it out of the indices).
std::optional<SmallVector<int64_t, 3>> viewOffsets(memref::ReinterpretCastOp view) {
  SmallVector<OpFoldResult> strides = view.getMixedStrides();
  OpFoldResult offset = view.getMixedOffsets()[0];
  std::optional<Combination> c;
  if (std::optional<int64_t> k = getConstantIntValue(offset)) {
    c = Combination{SmallVector<int64_t, 3>(strides.size(), 0), *k};
  } else {
    c = combinationOf(cast<Value>(offset), strides);
  }
  if (!c)
    return std::nullopt;
  for (auto [d, stride] : llvm::enumerate(strides)) {
    std::optional<int64_t> s = getConstantIntValue(stride);
    if (!s || *s == 0)
      continue;
    int64_t q = c->constant / *s;
    c->coef[d] += q;
    c->constant -= q * *s;
  }
  if (c->constant != 0)
    return std::nullopt;
  return c->coef;
}

/// The constant offset of `index` from the iteration variable `iv`.
std::optional<int64_t> indexOffset(Value index, Value iv) {
  if (index == iv)
    return 0;
  Operation *def = index.getDefiningOp();
  if (!isa_and_nonnull<arith::AddIOp, arith::SubIOp>(def))
    return std::nullopt;
  for (int k : {0, 1}) {
    if (def->getOperand(k) != iv)
      continue;
    std::optional<int64_t> c = getConstantIntValue(def->getOperand(1 - k));
    if (!c || (isa<arith::SubIOp>(def) && k == 1))
      return std::nullopt;
    return isa<arith::SubIOp>(def) ? -*c : *c;
  }
  return std::nullopt;
}

/// A staged buffer: its views' shape, the offsets its loads read at, and
/// the extent of the haloed tile.
struct Staged {
  Value buffer;                       ///< the kernel argument
  memref::ReinterpretCastOp shape;    ///< one of its views (sizes, strides)
  /// Every view its staged loads read through (same sizes and strides,
  /// their own offsets): together they bound what the original reads.
  SmallVector<memref::ReinterpretCastOp> views;
  SmallVector<int64_t, 3> lo, hi;     ///< smallest, largest offset per dimension
  llvm::MapVector<Operation *, SmallVector<int64_t, 3>> loads; ///< load -> offsets
  Value tile;                         ///< the shared tile, once created
};

bool sameShape(memref::ReinterpretCastOp a, memref::ReinterpretCastOp b) {
  auto same = [](ArrayRef<OpFoldResult> x, ArrayRef<OpFoldResult> y) {
    if (x.size() != y.size())
      return false;
    for (auto [p, q] : llvm::zip(x, y))
      if (!isEqualConstantIntOrValue(p, q))
        return false;
    return true;
  };
  return same(a.getMixedSizes(), b.getMixedSizes()) &&
         same(a.getMixedStrides(), b.getMixedStrides());
}

struct Analysis {
  gpu::GPUFuncOp kernel;
  SmallVector<Staged> staged;
};

FailureOr<Analysis> analyze(scf::ForallOp forall, const HaloTileSchedule &s,
                            int64_t maxSharedBytes, std::string &why) {
  Analysis a;
  a.kernel = scheduledKernelOf(forall, {gpu::Dimension::x, gpu::Dimension::y, gpu::Dimension::z},
                               why);
  if (!a.kernel)
    return failure();
  int64_t rank = forall.getRank();
  if (rank != int64_t(s.tile.size())) {
    why = "the forall runs over " + std::to_string(rank) + " dimensions, the tile over " +
          std::to_string(s.tile.size());
    return failure();
  }
  // Buffers the kernel writes cannot be staged (a tile would hold stale
  // values); the body may read and write memory, nothing else.
  llvm::DenseSet<Value> written;
  WalkResult effects = forall.getBody()->walk([&](Operation *op) {
    if (isa<memref::StoreOp, memref::AtomicRMWOp>(op)) {
      written.insert(viewedBuffer(isa<memref::StoreOp>(op) ? cast<memref::StoreOp>(op).getMemRef()
                                                          : cast<memref::AtomicRMWOp>(op).getMemref()));
      return WalkResult::advance();
    }
    if (isa<memref::LoadOp>(op) || isMemoryEffectFree(op) ||
        op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
      return WalkResult::advance();
    why = "the body holds '" + op->getName().getStringRef().str() +
          "', an effect other than loads and stores";
    return WalkResult::interrupt();
  });
  if (effects.wasInterrupted())
    return failure();
  // The loads at constant offsets from the point, by buffer.
  llvm::MapVector<Value, Staged> byBuffer;
  forall.getBody()->walk([&](memref::LoadOp load) {
    auto view = load.getMemRef().getDefiningOp<memref::ReinterpretCastOp>();
    Value buffer = viewedBuffer(load.getMemRef());
    if (!view || !buffer || written.contains(buffer) || load.getIndices().size() != size_t(rank) ||
        !view.getType().getElementType().isIntOrFloat())
      return;
    std::optional<SmallVector<int64_t, 3>> offsets = viewOffsets(view);
    if (!offsets)
      return;
    for (int64_t d = 0; d < rank; ++d) {
      std::optional<int64_t> c = indexOffset(load.getIndices()[d], forall.getInductionVars()[d]);
      if (!c)
        return;
      (*offsets)[d] += *c;
    }
    // A register column holds the points' own column only.
    if (s.registers && llvm::any_of(llvm::drop_begin(*offsets), [](int64_t o) { return o != 0; }))
      return;
    Staged &st = byBuffer[buffer];
    if (!st.buffer) {
      st.buffer = buffer;
      st.shape = view;
    } else if (!sameShape(st.shape, view)) {
      return; // another shape of the same buffer: left global
    }
    st.loads[load] = *offsets;
    if (!llvm::is_contained(st.views, view))
      st.views.push_back(view);
  });
  int64_t bytes = 0;
  for (auto &[buffer, st] : byBuffer) {
    llvm::SmallDenseSet<SmallVector<int64_t, 3>, 8> distinct;
    for (auto &[load, offsets] : st.loads)
      distinct.insert(offsets);
    if (distinct.size() < 2)
      continue; // read at one offset: nothing to share between threads
    st.lo.assign(rank, 0);
    st.hi.assign(rank, 0);
    for (auto &[load, offsets] : st.loads)
      for (int64_t d = 0; d < rank; ++d) {
        st.lo[d] = std::min(st.lo[d], offsets[d]);
        st.hi[d] = std::max(st.hi[d], offsets[d]);
      }
    int64_t elements = 1;
    for (int64_t d = 0; d < rank; ++d) {
      if (st.hi[d] - st.lo[d] > 8) {
        why = "the body reads a buffer " + std::to_string(st.hi[d] - st.lo[d]) +
              " elements apart along dimension " + std::to_string(d) + " (at most 8)";
        return failure();
      }
      // Streamed, dimension 0 holds the window of planes.
      elements *= (s.stream && d == 0 ? s.stream : s.tile[d]) + st.hi[d] - st.lo[d];
    }
    bytes += elements * ((st.shape.getType().getElementTypeBitWidth() + 7) / 8);
    a.staged.push_back(st);
  }
  if (a.staged.empty()) {
    why = s.registers
              ? "the body reads no buffer at two or more points along dimension 0 alone "
                "(index = iteration variable + constant) that the kernel does not write"
              : "the body reads no buffer at neighbouring points (index = iteration variable + "
                "constant, at two or more offsets) that the kernel does not write";
    return failure();
  }
  if (!s.registers && bytes > std::min<int64_t>(48 * 1024, maxSharedBytes)) {
    why = "the shared tiles need " + std::to_string(bytes) + " bytes";
    return failure();
  }
  return a;
}

/// A staged buffer's strides, and the end of what the original reads of
/// it: element sum(g_d * stride_d) is read through one of its views below
/// max over the views of offset + 1 + sum((size_d - 1) * stride_d). (One
/// view's end without its offset, as this once took, cuts off the rows a
/// view at a positive offset reads: the `A[(i + 1) * n + j]` of a guarded
/// 5-point stencil read 0 on the last row, test/Transforms/halo-tile-guarded.test.)
struct BufferBounds {
  SmallVector<Value> strides;
  Value end;
};
BufferBounds boundsOf(SIMTBuilder &sb, Staged &st) {
  BufferBounds bounds;
  for (OpFoldResult v : st.shape.getMixedStrides())
    bounds.strides.push_back(getValueOrCreateConstantIndexOp(sb.b, sb.loc, v));
  // The views share sizes and strides (sameShape): one span, their offsets.
  Value span = sb.c(1);
  for (auto [size, stride] : llvm::zip(st.shape.getMixedSizes(), bounds.strides))
    span = sb.add(span, sb.mul(sb.sub(getValueOrCreateConstantIndexOp(sb.b, sb.loc, size), sb.c(1)),
                               stride));
  for (memref::ReinterpretCastOp view : st.views) {
    Value end =
        sb.add(getValueOrCreateConstantIndexOp(sb.b, sb.loc, view.getMixedOffsets()[0]), span);
    bounds.end = bounds.end ? arith::MaxSIOp::create(sb.b, sb.loc, bounds.end, end).getResult()
                            : end;
  }
  return bounds;
}

/// The register window: each thread's K consecutive points along dimension
/// 0 from origin0 + tid0 * K, one point along the others. Every staged
/// buffer's column (the K points plus the halo along dimension 0, K + hi0 -
/// lo0 values) is loaded first, straight-line code with every load in
/// flight, each element only where it lies inside the buffer the views
/// describe (zero elsewhere: only an access the original makes outside the
/// buffer would read it); then the body at each point inside the space, the
/// staged loads replaced by the column's values.
void generateRegisterColumns(SIMTBuilder &sb, scf::ForallOp forall, Analysis &a,
                             ArrayRef<Value> tid, ArrayRef<Value> origin, ArrayRef<Value> ubs,
                             int64_t K) {
  OpBuilder &b = sb.b;
  Location loc = forall.getLoc();
  int64_t rank = forall.getRank();
  SmallVector<Value, 3> point(rank);
  point[0] = sb.add(origin[0], sb.mul(tid[0], K));
  for (int64_t d = 1; d < rank; ++d)
    point[d] = sb.add(origin[d], tid[d]);
  DenseMap<Value, SmallVector<Value>> columns; // buffer -> values from lo0 on
  for (Staged &st : a.staged) {
    auto [strides, end] = boundsOf(sb, st);
    Value rest = sb.c(0);
    for (int64_t d = 1; d < rank; ++d)
      rest = sb.add(rest, sb.mul(point[d], strides[d]));
    Type elt = st.shape.getType().getElementType();
    SmallVector<Value> &column = columns[st.buffer];
    for (int64_t r = 0; r < K + st.hi[0] - st.lo[0]; ++r) {
      Value flat = sb.add(sb.mul(sb.add(point[0], st.lo[0] + r), strides[0]), rest);
      column.push_back(sb.ifElse(
          sb.lt(flat, end), elt,
          [&]() -> SmallVector<Value> {
            return {memref::LoadOp::create(b, loc, st.buffer, ValueRange{flat})};
          },
          [&]() -> SmallVector<Value> { return {sb.zero(elt)}; })[0]);
    }
  }
  // The points: inside along the other dimensions once for all K; along
  // dimension 0, point k + 1 nested in point k's check (past the space's
  // end, so is every later point). Every failed check thus leaves all the
  // remaining points at once, which ptxas turns into predication and early
  // exits; one branch per point around the body made it keep a divergent
  // region per point (BSSY/BSYNC; 560 instructions against nvcc's 400 for
  // the 3-D window of 8 points, 0.74 against 0.80 of the copy, H200
  // 2026-12-04, bench/results/2026-12-04-h200-prefetch).
  Block *body = forall.getBody();
  Value others;
  for (int64_t d = 1; d < rank; ++d)
    others = sb.andi(others, sb.lt(point[d], ubs[d]));
  std::function<void(int64_t)> emitPoint = [&](int64_t k) {
    if (k == K)
      return;
    SmallVector<Value, 3> p(point);
    p[0] = sb.add(point[0], k);
    sb.ifThen(sb.lt(p[0], ubs[0]), [&]() {
      IRMapping map;
      for (int64_t d = 0; d < rank; ++d)
        map.map(forall.getInductionVars()[d], p[d]);
      for (Operation &op : body->without_terminator())
        b.clone(op, map);
      for (Staged &st : a.staged)
        for (auto &[load, offsets] : st.loads)
          if (Operation *copy = map.lookupOrNull(load)) {
            copy->getResult(0).replaceAllUsesWith(columns[st.buffer][k + offsets[0] - st.lo[0]]);
            copy->erase();
          }
      emitPoint(k + 1);
    });
  };
  if (others)
    sb.ifThen(others, [&]() { emitPoint(0); });
  else
    emitPoint(0);
}
} // namespace

LogicalResult mlir::ks::checkHaloTile(scf::ForallOp forall, const HaloTileSchedule &s,
                                      int64_t maxSharedBytes, std::string &why,
                                      int64_t *outerSpread) {
  FailureOr<Analysis> a = analyze(forall, s, maxSharedBytes, why);
  if (failed(a))
    return failure();
  if (outerSpread) {
    *outerSpread = 0;
    for (const Staged &st : a->staged)
      *outerSpread = std::max(*outerSpread, st.hi[0] - st.lo[0]);
  }
  return success();
}

LogicalResult mlir::ks::generateHaloTile(scf::ForallOp forall, const HaloTileSchedule &s,
                                         int64_t maxSharedBytes, std::string &why) {
  FailureOr<Analysis> a = analyze(forall, s, maxSharedBytes, why);
  if (failed(a))
    return failure();
  OpBuilder b(forall);
  Location loc = forall.getLoc();
  SIMTBuilder sb(b, loc);
  int64_t rank = forall.getRank();
  // Dimension d of the forall takes the thread/block dimension rank-1-d.
  auto dimOf = [&](int64_t d) { return gpu::Dimension(rank - 1 - d); };
  auto threadsAlong = [&](int64_t d) { return s.block[rank - 1 - d]; };
  SmallVector<Value> ubs, tid, origin;
  for (OpFoldResult ub : forall.getMixedUpperBound())
    ubs.push_back(getValueOrCreateConstantIndexOp(b, loc, ub));
  int64_t threads = 1;
  for (int64_t d = 0; d < rank; ++d) {
    tid.push_back(gpu::ThreadIdOp::create(b, loc, dimOf(d)));
    origin.push_back(sb.mul(gpu::BlockIdOp::create(b, loc, dimOf(d)), s.tile[d]));
    threads *= threadsAlong(d);
  }
  // The linear thread index, x fastest.
  Value linear = tid[rank - 1];
  for (int64_t d = rank - 2, scale = threadsAlong(rank - 1); d >= 0; scale *= threadsAlong(d), --d)
    linear = sb.add(linear, sb.mul(tid[d], scale));
  auto space = gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);

  // Streamed: the outermost dimension is walked by each block, K = stream
  // planes per step, through a window of W = K + hi0 - lo0 planes (slot of
  // plane q: (q - origin0 - lo0) mod W); otherwise the whole haloed tile
  // at once.
  int64_t K = s.stream;
  auto window = [&](const Staged &st) { return K + st.hi[0] - st.lo[0]; };
  for (Staged &st : a->staged) {
    if (s.registers)
      break; // no shared memory
    SmallVector<int64_t, 3> extent;
    for (int64_t d = 0; d < rank; ++d)
      extent.push_back(d == 0 && K ? window(st) : s.tile[d] + st.hi[d] - st.lo[d]);
    Type elt = st.shape.getType().getElementType();
    st.tile = addSharedBuffer(a->kernel, MemRefType::get(extent, elt, MemRefLayoutAttrInterface(), space),
                              loc);
  }
  // Loads into a staged buffer's tile the elements h of a region
  // (linearized over the block's threads, the turns unrolled) from the
  // views' element origin + lo + h, at tile index h: the whole haloed tile,
  // or with `outer` the `planes` planes from `outer` on, plane k of them at
  // slot (`slot` + k) mod W. The element lies at sum(g_d * stride_d) of
  // the buffer, inside it below 1 + sum((size_d - 1) * stride_d): its flat
  // address, as the original's.
  auto stage = [&](Staged &st, Value outer, Value slot, int64_t planes) {
    SmallVector<int64_t, 3> region;
    int64_t total = 1;
    for (int64_t d = 0; d < rank; ++d) {
      region.push_back(outer && d == 0 ? planes : s.tile[d] + st.hi[d] - st.lo[d]);
      total *= region.back();
    }
    auto [strides, end] = boundsOf(sb, st);
    sb.loop(0, (total + threads - 1) / threads, 1, /*unroll=*/true, [&](Value r) {
      Value e = sb.add(linear, sb.mul(r, threads));
      sb.ifThen(sb.lt(e, total), [&]() {
        SmallVector<Value, 3> h(rank);
        Value rest = e;
        for (int64_t d = rank - 1; d >= 0; --d) {
          h[d] = d == 0 ? rest : sb.rem(rest, region[d]);
          rest = sb.div(rest, region[d]);
        }
        Value flat = sb.c(0);
        for (int64_t d = 0; d < rank; ++d) {
          Value g = outer && d == 0 ? sb.add(outer, h[0])
                                    : sb.add(sb.add(origin[d], h[d]), st.lo[d]);
          flat = sb.add(flat, sb.mul(g, strides[d]));
        }
        SmallVector<Value, 3> at(h.begin(), h.end());
        if (slot)
          at[0] = sb.rem(sb.add(slot, h[0]), window(st));
        sb.ifThen(sb.lt(flat, end), [&]() {
          Value v = memref::LoadOp::create(b, loc, st.buffer, ValueRange{flat});
          memref::StoreOp::create(b, loc, v, st.tile, at);
        });
      });
    });
  };

  // Each thread's points: the body inside the space, every staged load
  // from its tile at the point's place plus the load's offset minus the
  // lowest offset; in dimension 0 of a streamed tile, the slot of the
  // plane read (`step`: the plane's index within the block's walk).
  Block *body = forall.getBody();
  std::function<void(int64_t, SmallVector<Value, 3> &, Value)> points =
      [&](int64_t d, SmallVector<Value, 3> &local, Value step) {
        if (d == rank) {
          Value inside;
          SmallVector<Value, 3> p;
          for (int64_t k = 0; k < rank; ++k) {
            p.push_back(sb.add(origin[k], local[k]));
            inside = sb.andi(inside, sb.lt(p[k], ubs[k]));
          }
          sb.ifThen(inside, [&]() {
            IRMapping map;
            for (int64_t k = 0; k < rank; ++k)
              map.map(forall.getInductionVars()[k], p[k]);
            for (Operation &op : body->without_terminator())
              b.clone(op, map);
            for (Staged &st : a->staged)
              for (auto &[load, offsets] : st.loads) {
                Operation *copy = map.lookupOrNull(load);
                if (!copy)
                  continue;
                OpBuilder::InsertionGuard guard(b);
                b.setInsertionPoint(copy);
                SmallVector<Value, 3> at;
                for (int64_t k = 0; k < rank; ++k)
                  at.push_back(sb.add(local[k], offsets[k] - st.lo[k]));
                if (step)
                  at[0] = sb.rem(sb.add(local[0], offsets[0] - st.lo[0]), window(st));
                Value v = memref::LoadOp::create(b, copy->getLoc(), st.tile, at);
                copy->getResult(0).replaceAllUsesWith(v);
                copy->erase();
              }
          });
          return;
        }
        int64_t B = threadsAlong(d);
        sb.loop(0, s.tile[d] / B, 1, /*unroll=*/true, [&](Value k) {
          local.push_back(sb.add(tid[d], sb.mul(k, B)));
          points(d + 1, local, step);
          local.pop_back();
        });
      };

  if (s.registers) {
    generateRegisterColumns(sb, forall, *a, tid, origin, ubs, s.tile[0] / threadsAlong(0));
  } else if (!K) {
    // Every tile at once, a barrier, every point.
    for (Staged &st : a->staged)
      stage(st, Value(), Value(), 0);
    gpu::BarrierOp::create(b, loc);
    SmallVector<Value, 3> local;
    points(0, local, Value());
  } else {
    // The window's first hi0 - lo0 planes, then per step t: the K planes
    // from origin0 + t*K + hi0 on (slots from (t*K + hi0 - lo0) mod W), a
    // barrier, the points of planes t*K ... t*K + K - 1, a barrier (the
    // next step overwrites the planes this one read last).
    for (Staged &st : a->staged)
      if (st.hi[0] > st.lo[0])
        stage(st, sb.add(origin[0], st.lo[0]), sb.c(0), st.hi[0] - st.lo[0]);
    sb.loop(0, s.tile[0], K, /*unroll=*/false, [&](Value step) {
      for (Staged &st : a->staged)
        stage(st, sb.add(sb.add(origin[0], step), st.hi[0]),
              sb.add(step, st.hi[0] - st.lo[0]), K);
      gpu::BarrierOp::create(b, loc);
      // The planes' points one after the other (a loop: the step's loads,
      // unrolled, are what must be in flight together).
      sb.loop(0, K, 1, /*unroll=*/false, [&](Value k) {
        SmallVector<Value, 3> local = {sb.add(step, k)};
        points(1, local, step);
      });
      gpu::BarrierOp::create(b, loc);
    });
  }

  std::array<Value, 3> grid = {sb.c(1), sb.c(1), sb.c(1)};
  std::array<int64_t, 3> block = {1, 1, 1};
  for (int64_t d = 0; d < rank; ++d) {
    grid[rank - 1 - d] = sb.ceilDiv(ubs[d], s.tile[d]);
    block[rank - 1 - d] = threadsAlong(d);
  }
  if (failed(rewriteLaunch(a->kernel, grid, block, why)))
    return failure();
  forall.erase();
  // Not marked read-only (const __restrict__, ld.global.nc) although the
  // kernel writes no staged buffer: on the H200 that made the 3-D register
  // window slower, 0.581 against 0.413 ms (2026-12-03, docs/Transforms.md).
  a->kernel->removeAttr(kRaisedAttrName);
  a->kernel->setAttr(kScheduleAttrName,
                     b.getStringAttr(s.registers ? "simt_register_window" : "simt_halo_tile"));
  a->kernel.setKnownBlockSizeAttr(
      b.getDenseI32ArrayAttr({int32_t(block[0]), int32_t(block[1]), int32_t(block[2])}));
  return success();
}
