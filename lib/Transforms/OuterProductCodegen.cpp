//===- OuterProductCodegen.cpp - The GEMM family's SIMT schedule ----------===//
//
// The classic register-tiled SIMT GEMM, generated from a raised contraction
// and an OuterProductSchedule:
//
//   block (tm, tn) of the tile grid (grouped order for L2 reuse)
//     acc[RM*TM][RN*TN] = init                       registers
//     for each BK-slice of the reduction:
//       stage the A tile [BM x BK] and the B tile [BK x BN] in shared
//       memory: coalesced global loads of `vector` elements, stored in the
//       chosen order (k outer or inner, padded or XOR-swizzled); with
//       stages = 2 the next slice is loaded into registers while this one
//       is computed; with cp.async, `stages` slices are in flight
//       for each k in the slice (unrolled):
//         a = this lane's TM-element chunks of A (shared, 128-bit loads)
//         b = this lane's TN-element chunks of B
//         acc += outer(a, b)
//     epilogue at each output inside the problem: alpha/beta, bias, ...
//
// Upstream's GPU path (tile_using_forall, promote,
// map_nested_forall_to_threads, vectorize, hoist_redundant_vector_transfers)
// is not used: it creates its own gpu.launch where a lifted kernel already
// has a launcher to rewrite, and keeps accumulators in registers only for
// static tile shapes, while lifted problems have dynamic sizes (1000, 1023)
// that need predicated edges. The upstream pieces that fit are used: nvgpu's
// cp.async ops, scf loops unrolled by the lowering, linalg's contraction
// analysis.
//
// Edges: every global load is predicated (zero outside the problem; with
// cp.async, the source size shrinks and the rest is zero-filled), vector
// loads only where the whole vector is inside and the buffer's alignment
// (checked once per block) allows, and every store is predicated. Zeros
// added to a sum change nothing.
//
//===----------------------------------------------------------------------===//

#include "SIMTBuilder.h"
#include "kernelskill/Transforms/Contraction.h"
#include "kernelskill/Transforms/KernelLaunch.h"
#include "kernelskill/Transforms/Raising.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::ks;

namespace {
/// Where an operand's elements are contiguous in global memory.
enum class Contiguity { AlongK, AlongP, None };

Contiguity contiguityOf(const ContractionOperand &operand, ArrayRef<unsigned> pDims,
                        ArrayRef<unsigned> kDims) {
  if (!operand.contiguousDim ||
      *operand.contiguousDim + 1 != operand.map.getNumResults()) // the view's last dimension
    return Contiguity::None;
  unsigned d = cast<AffineDimExpr>(operand.map.getResult(*operand.contiguousDim)).getPosition();
  if (kDims.size() == 1 && kDims[0] == d)
    return Contiguity::AlongK;
  if (pDims.size() == 1 && pDims[0] == d)
    return Contiguity::AlongP;
  return Contiguity::None;
}

/// One staged operand: A (p = m) or B (p = n).
struct Staged {
  const ContractionOperand *operand;
  ArrayRef<unsigned> pDims;
  int64_t tileP;       ///< BM or BN
  int64_t pad;
  bool kOuter;         ///< shared tile [BK][P + pad], else [P][BK + pad]
  bool swizzle;
  int64_t vector;      ///< elements per global load
  Contiguity contiguity;
  bool alongK;         ///< the direction of one copied chunk
  Value shared;        ///< the workgroup buffer [stages][rows][cols]
  Value regs;          ///< register staging [chunks][vector] (register double buffering)
  Value size;          ///< the problem's extent along p
  Value origin;        ///< the block tile's first p
  Value aligned;       ///< whether vector loads are aligned (block-uniform)
};

std::string checkStaged(const char *name, const ContractionOperand &operand,
                        ArrayRef<unsigned> pDims, ArrayRef<unsigned> kDims, int64_t tileP,
                        int64_t blockK, int64_t vector, bool kOuter, int64_t pad, bool swizzle,
                        int64_t threads, int64_t microTile, bool async) {
  std::string n = name;
  if (vector != 1 && vector != 2 && vector != 4)
    return n + "_vector must be 1, 2 or 4";
  if (pad < 0)
    return n + "_pad must not be negative";
  Contiguity c = contiguityOf(operand, pDims, kDims);
  if (vector > 1 && c == Contiguity::None)
    return n + "_vector = " + std::to_string(vector) + ": operand " + n +
           " is not contiguous along a single reduction or output dimension";
  bool alongK = c == Contiguity::AlongK;
  if ((tileP * blockK) % (threads * vector))
    return "the " + n + " tile (" + std::to_string(tileP) + " x " + std::to_string(blockK) +
           " elements) is not a multiple of " + std::to_string(threads) + " threads x " +
           std::to_string(vector) + " elements per load";
  if (vector > 1 && (alongK ? blockK : tileP) % vector)
    return n + "_vector = " + std::to_string(vector) + " does not divide the tile's extent along "
           "the contiguous dimension";
  int64_t pitch = kOuter ? tileP + pad : blockK + pad;
  // 128-bit shared loads of the micro-tile (k outer) or of 4 k's (k inner).
  int64_t readWidth = kOuter ? std::min<int64_t>(microTile, 4) : 4;
  if (kOuter && microTile % readWidth)
    return "the micro-tile along " + std::string(n == "lhs" ? "m" : "n") + " must be 1, 2 or a multiple of 4";
  if (!kOuter && blockK % 4)
    return n + "_layout = k-inner reads 4 reduction elements at a time: reduction_tile must be a "
           "multiple of 4";
  if (pitch % readWidth)
    return n + "_pad = " + std::to_string(pad) + " breaks the alignment of " +
           std::to_string(readWidth * 4) + "-byte shared-memory reads (the row pitch " +
           std::to_string(pitch) + " must be a multiple of " + std::to_string(readWidth) + ")";
  bool chunkAlongShared = alongK == !kOuter;
  if (vector > 1 && chunkAlongShared && pitch % vector)
    return n + "_pad breaks the alignment of the shared-memory stores";
  if (swizzle) {
    if (pad)
      return n + ": swizzle and padding exclude each other";
    int64_t cols = kOuter ? tileP : blockK;
    if (cols % 8)
      return n + "_swizzle needs at least two 16-byte chunks per shared row";
  }
  if (async && vector > 1 && !chunkAlongShared)
    return "async_copy copies bytes as they lie: operand " + n + " is contiguous along " +
           (alongK ? "k" : std::string(n == "lhs" ? "m" : "n")) +
           " in memory but its shared tile is transposed; choose the other " + n +
           "_layout or async_copy = false";
  return "";
}
} // namespace

std::string mlir::ks::verifyOuterProduct(const ContractionProblem &p, const OuterProductSchedule &s,
                                         int64_t maxThreads, int64_t maxSharedBytes) {
  if (p.m.empty() || p.n.empty())
    return "the contraction has no " + std::string(p.m.empty() ? "m" : "n") +
           " dimension (a matrix-vector product): use transform.ks.simt_split_reduction";
  for (int64_t v : {s.blockM, s.blockN, s.blockK, s.warpsM, s.warpsN, s.lanesM, s.lanesN,
                    s.threadM, s.threadN, s.stages, s.groupM})
    if (v <= 0)
      return "every tile size, count and factor must be positive";
  if (s.lanesM * s.lanesN != 32)
    return "lanes = [" + std::to_string(s.lanesM) + ", " + std::to_string(s.lanesN) +
           "]: a warp has 32 lanes";
  if (s.blockM % (s.warpsM * s.lanesM * s.threadM))
    return "block_tile[0] = " + std::to_string(s.blockM) + " is not a multiple of warps[0] x "
           "lanes[0] x thread_tile[0] = " + std::to_string(s.warpsM * s.lanesM * s.threadM);
  if (s.blockN % (s.warpsN * s.lanesN * s.threadN))
    return "block_tile[1] = " + std::to_string(s.blockN) + " is not a multiple of warps[1] x "
           "lanes[1] x thread_tile[1] = " + std::to_string(s.warpsN * s.lanesN * s.threadN);
  if (s.threads() > maxThreads)
    return std::to_string(s.threads()) + " threads per block exceed the chip's " +
           std::to_string(maxThreads);
  if (s.stages > 4)
    return "stages must be 1 to 4";
  if (s.stages > 2 && !s.asyncCopy)
    return "stages = " + std::to_string(s.stages) + " needs async_copy (without it, 2 is register "
           "double buffering)";
  if (s.storeVector != 1)
    return "store_vector other than 1 is not implemented";
  if (s.splitK < 1)
    return "split_k must be positive";
  if (s.splitK > 1) {
    std::string why;
    if (failed(matchLinearEpilogue(p, why)))
      return "split_k = " + std::to_string(s.splitK) + ": " + why;
    auto zero = p.init.getDefiningOp<arith::ConstantOp>();
    auto value = zero ? dyn_cast<FloatAttr>(zero.getValue()) : FloatAttr();
    if (!value || !value.getValue().isZero())
      return "split_k = " + std::to_string(s.splitK) +
             ": the reduction does not start from 0 (each split would add its start)";
    if (s.splitK > 65535)
      return "split_k is the grid's y extent: at most 65535";
  }
  std::string e = checkStaged("lhs", p.lhs, p.m, p.k, s.blockM, s.blockK, s.lhsVector, s.lhsKOuter,
                              s.lhsPad, s.lhsSwizzle, s.threads(), s.threadM, s.asyncCopy);
  if (!e.empty())
    return e;
  e = checkStaged("rhs", p.rhs, p.n, p.k, s.blockN, s.blockK, s.rhsVector, s.rhsKOuter, s.rhsPad,
                  s.rhsSwizzle, s.threads(), s.threadN, s.asyncCopy);
  if (!e.empty())
    return e;
  int64_t bytes = s.sharedBytes(4);
  int64_t limit = std::min<int64_t>(48 * 1024, maxSharedBytes);
  if (bytes > limit)
    return "the staged tiles need " + std::to_string(bytes) + " bytes of shared memory per block, "
           "over the " + std::to_string(limit) + " of static shared memory";
  if (!p.batch.empty() && readsBlockIndex(p.kernel, gpu::Dimension::z))
    return "the kernel already maps a batch to blockIdx.z and the contraction has batch dimensions";
  if (readsBlockIndex(p.kernel, gpu::Dimension::x) || readsBlockIndex(p.kernel, gpu::Dimension::y))
    return "the kernel already reads blockIdx.x or blockIdx.y";
  return "";
}

namespace {
class OuterProductGen {
public:
  OuterProductGen(ContractionProblem &p, const OuterProductSchedule &s, OpBuilder &b)
      : p(p), s(s), sb(b, p.store.getLoc()) {}
  LogicalResult run(std::string &why);

private:
  ContractionProblem &p;
  const OuterProductSchedule &s;
  SIMTBuilder sb;
  Staged lhs, rhs;
  Value M, N, K, batchLin, tid, m0, n0, kEnd;
  Value mLane, nLane; ///< the lane's first row/column in the block tile (before repeats)
  Value acc, aFrag, bFrag;
  int64_t kv = 1;
  LinearEpilogue linear; ///< with split_k: alpha and the offset the init kernel writes

  Type f32() { return sb.b.getF32Type(); }
  Value allocPrivate(ArrayRef<int64_t> shape) {
    return memref::AllocaOp::create(sb.b, sb.loc, MemRefType::get(shape, f32()));
  }
  void setupStaged(Staged &st, const ContractionOperand &operand, ArrayRef<unsigned> pDims,
                   int64_t tileP, int64_t pad, bool kOuter, bool swizzle, int64_t vector,
                   Value size, Value origin);
  /// The shared column of logical column `col` in `row` (swizzled or not).
  Value sharedColumn(const Staged &st, Value row, Value col);
  /// Shared indices of element (p, k) of a tile in buffer `stage`.
  SmallVector<Value> sharedIndices(const Staged &st, Value stage, Value pp, Value kk);
  /// The coordinates of global element (p, k) of the operand.
  llvm::DenseMap<unsigned, Value> coordsOf(const Staged &st, Value pg, Value kg);
  /// The copy chunk `it` of this thread: its first element in the tile.
  std::pair<Value, Value> chunkOrigin(const Staged &st, Value it);
  /// Loads one chunk (predicated) as `vector` scalars.
  SmallVector<Value> loadChunk(const Staged &st, Value pp, Value kk, Value k0);
  /// Stores one chunk's scalars into shared buffer `stage`.
  void storeChunk(const Staged &st, Value stage, Value pp, Value kk, ArrayRef<Value> values);
  int64_t chunks(const Staged &st) { return st.tileP * s.blockK / (s.threads() * st.vector); }
  void loadToRegisters(Staged &st, Value k0);
  void storeFromRegisters(Staged &st, Value stage);
  void issueAsync(Staged &st, Value stage, Value k0);
  void compute(Value stage);
  void epilogue();
};

void OuterProductGen::setupStaged(Staged &st, const ContractionOperand &operand,
                                  ArrayRef<unsigned> pDims, int64_t tileP, int64_t pad,
                                  bool kOuter, bool swizzle, int64_t vector, Value size,
                                  Value origin) {
  st.operand = &operand;
  st.pDims = pDims;
  st.tileP = tileP;
  st.pad = pad;
  st.kOuter = kOuter;
  st.swizzle = swizzle;
  st.vector = vector;
  st.contiguity = contiguityOf(operand, pDims, p.k);
  // Scalar copies go along the contiguous dimension too (coalesced); with
  // none, along p.
  st.alongK = st.contiguity == Contiguity::AlongK;
  st.size = size;
  st.origin = origin;
  MLIRContext *ctx = sb.b.getContext();
  auto space = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  SmallVector<int64_t> shape = {s.stages, kOuter ? s.blockK : tileP,
                                (kOuter ? tileP : s.blockK) + pad};
  st.shared = addSharedBuffer(p.kernel, MemRefType::get(shape, f32(), MemRefLayoutAttrInterface(), space), sb.loc);
  // Vector loads need the buffer, the view's offset and its other strides
  // aligned to the vector (the tile origins are multiples of it).
  st.aligned = Value();
  if (vector > 1) {
    auto cast = operand.view.getDefiningOp<memref::ReinterpretCastOp>();
    Value base = memref::ExtractAlignedPointerAsIndexOp::create(sb.b, sb.loc, cast.getSource());
    Value ok = arith::CmpIOp::create(sb.b, sb.loc, arith::CmpIPredicate::eq,
                                     sb.rem(base, 4 * vector), sb.c(0));
    auto isMultiple = [&](OpFoldResult v) {
      Value x = getValueOrCreateConstantIndexOp(sb.b, sb.loc, v);
      return arith::CmpIOp::create(sb.b, sb.loc, arith::CmpIPredicate::eq, sb.rem(x, vector),
                                   sb.c(0))
          .getResult();
    };
    ok = sb.andi(ok, isMultiple(cast.getMixedOffsets()[0]));
    for (auto [i, stride] : llvm::enumerate(cast.getMixedStrides()))
      if (i != *operand.contiguousDim)
        ok = sb.andi(ok, isMultiple(stride));
    st.aligned = ok;
  }
}

Value OuterProductGen::sharedColumn(const Staged &st, Value row, Value col) {
  if (!st.swizzle)
    return col;
  int64_t cols = st.kOuter ? st.tileP : s.blockK;
  int64_t period = std::min<int64_t>(8, cols / 4);
  Value chunk = sb.div(col, 4);
  Value swizzled = arith::XOrIOp::create(sb.b, sb.loc, chunk, sb.rem(row, period));
  return sb.add(sb.mul(swizzled, 4), sb.rem(col, 4));
}

SmallVector<Value> OuterProductGen::sharedIndices(const Staged &st, Value stage, Value pp,
                                                  Value kk) {
  Value row = st.kOuter ? kk : pp;
  Value col = st.kOuter ? pp : kk;
  return {stage, row, sharedColumn(st, row, col)};
}

llvm::DenseMap<unsigned, Value> OuterProductGen::coordsOf(const Staged &st, Value pg, Value kg) {
  llvm::DenseMap<unsigned, Value> coords;
  if (!p.batch.empty())
    sb.delinearize(batchLin, p.batch, p.sizes, coords);
  sb.delinearize(pg, st.pDims, p.sizes, coords);
  sb.delinearize(kg, p.k, p.sizes, coords);
  return coords;
}

std::pair<Value, Value> OuterProductGen::chunkOrigin(const Staged &st, Value it) {
  Value e = sb.mul(sb.add(sb.mul(it, s.threads()), tid), st.vector);
  if (st.alongK)
    return {sb.div(e, s.blockK), sb.rem(e, s.blockK)};
  return {sb.rem(e, st.tileP), sb.div(e, st.tileP)};
}

SmallVector<Value> OuterProductGen::loadChunk(const Staged &st, Value pp, Value kk, Value k0) {
  Value pg = sb.add(st.origin, pp), kg = sb.add(k0, kk);
  Type f = f32();
  auto scalarAt = [&](int64_t i) -> Value {
    Value pi = st.alongK ? pg : sb.add(pg, i);
    Value ki = st.alongK ? sb.add(kg, i) : kg;
    Value valid = sb.andi(sb.lt(pi, st.size), sb.lt(ki, kEnd));
    return sb.ifElse(valid, f,
                     [&]() -> SmallVector<Value> {
                       auto coords = coordsOf(st, pi, ki);
                       return {memref::LoadOp::create(sb.b, sb.loc, st.operand->view,
                                                      sb.indicesOf(*st.operand, coords))};
                     },
                     [&]() -> SmallVector<Value> { return {sb.zero(f)}; })[0];
  };
  if (st.vector == 1)
    return {scalarAt(0)};
  auto vecType = VectorType::get({st.vector}, f);
  Value lastP = st.alongK ? pg : sb.add(pg, st.vector - 1);
  Value lastK = st.alongK ? sb.add(kg, st.vector - 1) : kg;
  Value whole = sb.andi(sb.andi(sb.lt(lastP, st.size), sb.lt(lastK, kEnd)), st.aligned);
  Value vec = sb.ifElse(whole, vecType,
                        [&]() -> SmallVector<Value> {
                          auto coords = coordsOf(st, pg, kg);
                          return {vector::LoadOp::create(sb.b, sb.loc, vecType, st.operand->view,
                                                         sb.indicesOf(*st.operand, coords),
                                                         /*nontemporal=*/false,
                                                         llvm::Align(4 * st.vector))};
                        },
                        [&]() -> SmallVector<Value> {
                          SmallVector<Value> elems;
                          for (int64_t i = 0; i < st.vector; ++i)
                            elems.push_back(scalarAt(i));
                          return {vector::FromElementsOp::create(sb.b, sb.loc, vecType, elems)};
                        })[0];
  SmallVector<Value> values;
  for (int64_t i = 0; i < st.vector; ++i)
    values.push_back(vector::ExtractOp::create(sb.b, sb.loc, vec, i));
  return values;
}

void OuterProductGen::storeChunk(const Staged &st, Value stage, Value pp, Value kk,
                                 ArrayRef<Value> values) {
  bool chunkAlongShared = st.alongK == !st.kOuter;
  if (st.vector > 1 && chunkAlongShared) {
    auto vecType = VectorType::get({st.vector}, f32());
    Value vec = vector::FromElementsOp::create(sb.b, sb.loc, vecType, values);
    vector::StoreOp::create(sb.b, sb.loc, vec, st.shared, sharedIndices(st, stage, pp, kk),
                            /*nontemporal=*/false, llvm::Align(4 * st.vector));
    return;
  }
  for (auto [i, v] : llvm::enumerate(values)) {
    Value pi = st.alongK ? pp : sb.add(pp, i);
    Value ki = st.alongK ? sb.add(kk, i) : kk;
    memref::StoreOp::create(sb.b, sb.loc, v, st.shared, sharedIndices(st, stage, pi, ki));
  }
}

void OuterProductGen::loadToRegisters(Staged &st, Value k0) {
  sb.loop(0, chunks(st), 1, /*unroll=*/true, [&](Value it) {
    auto [pp, kk] = chunkOrigin(st, it);
    SmallVector<Value> values = loadChunk(st, pp, kk, k0);
    for (auto [i, v] : llvm::enumerate(values))
      memref::StoreOp::create(sb.b, sb.loc, v, st.regs, ValueRange{it, sb.c(i)});
  });
}

void OuterProductGen::storeFromRegisters(Staged &st, Value stage) {
  sb.loop(0, chunks(st), 1, /*unroll=*/true, [&](Value it) {
    auto [pp, kk] = chunkOrigin(st, it);
    SmallVector<Value> values;
    for (int64_t i = 0; i < st.vector; ++i)
      values.push_back(memref::LoadOp::create(sb.b, sb.loc, st.regs, ValueRange{it, sb.c(i)}));
    storeChunk(st, stage, pp, kk, values);
  });
}

void OuterProductGen::issueAsync(Staged &st, Value stage, Value k0) {
  // cp.async of `vector` elements where the chunk lies along the shared
  // row; elements past the problem are zero-filled (the source size
  // shrinks to the valid ones). Without alignment, one element at a time.
  auto copy = [&](Value pp, Value kk, int64_t width) {
    Value pg = sb.add(st.origin, pp), kg = sb.add(k0, kk);
    Value pIn = sb.lt(pg, st.size), kIn = sb.lt(kg, kEnd);
    // The valid elements from the first: along the chunk's direction, the
    // distance to the edge clamped to [0, width].
    Value room = st.alongK ? sb.sub(kEnd, kg) : sb.sub(st.size, pg);
    Value zero = sb.c(0);
    Value count = sb.minu(arith::SelectOp::create(sb.b, sb.loc, sb.andi(pIn, kIn), room, zero),
                          sb.c(width));
    // A source address inside the buffer even when nothing is read.
    Value pc = arith::SelectOp::create(sb.b, sb.loc, pIn, pg, zero);
    Value kc = arith::SelectOp::create(sb.b, sb.loc, kIn, kg, zero);
    auto coords = coordsOf(st, pc, kc);
    nvgpu::DeviceAsyncCopyOp::create(
        sb.b, sb.loc, nvgpu::DeviceAsyncTokenType::get(sb.b.getContext()), st.shared,
        sharedIndices(st, stage, pp, kk), st.operand->view, sb.indicesOf(*st.operand, coords),
        sb.b.getIndexAttr(width), count, width * 4 == 16 ? sb.b.getUnitAttr() : UnitAttr());
  };
  sb.loop(0, chunks(st), 1, /*unroll=*/true, [&](Value it) {
    auto [pp, kk] = chunkOrigin(st, it);
    if (st.vector == 1) {
      copy(pp, kk, 1);
      return;
    }
    auto ifOp = scf::IfOp::create(sb.b, sb.loc, TypeRange{}, st.aligned, /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard g(sb.b);
      sb.b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
      copy(pp, kk, st.vector);
      sb.b.setInsertionPoint(ifOp.elseBlock()->getTerminator());
      for (int64_t i = 0; i < st.vector; ++i)
        copy(st.alongK ? pp : sb.add(pp, i), st.alongK ? sb.add(kk, i) : kk, 1);
    }
  });
}

void OuterProductGen::compute(Value stage) {
  int64_t rm = s.repeatM(), rn = s.repeatN();
  int64_t fm = rm * s.threadM, fn = rn * s.threadN;
  // The lane's row of repeat r: mLane + r * LM * TM.
  auto loadFragments = [&](Staged &st, Value frag, Value laneOrigin, int64_t repeats,
                           int64_t micro, int64_t laneStride, Value kk) {
    if (st.kOuter) {
      int64_t width = std::min<int64_t>(micro, 4);
      auto vecType = VectorType::get({width}, f32());
      sb.loop(0, kv, 1, true, [&](Value c) {
        sb.loop(0, repeats, 1, true, [&](Value r) {
          sb.loop(0, micro / width, 1, true, [&](Value ch) {
            Value pp = sb.add(sb.add(laneOrigin, sb.mul(r, laneStride)), sb.mul(ch, width));
            Value vec = vector::LoadOp::create(sb.b, sb.loc, vecType, st.shared,
                                               sharedIndices(st, stage, pp, sb.add(kk, c)),
                                               /*nontemporal=*/false, llvm::Align(4 * width));
            for (int64_t l = 0; l < width; ++l) {
              Value slot = sb.add(sb.add(sb.mul(r, micro), sb.mul(ch, width)), sb.c(l));
              memref::StoreOp::create(sb.b, sb.loc, vector::ExtractOp::create(sb.b, sb.loc, vec, l),
                                      frag, ValueRange{c, slot});
            }
          });
        });
      });
      return;
    }
    auto vecType = VectorType::get({kv}, f32());
    sb.loop(0, repeats, 1, true, [&](Value r) {
      sb.loop(0, micro, 1, true, [&](Value t) {
        Value pp = sb.add(sb.add(laneOrigin, sb.mul(r, laneStride)), t);
        Value vec = vector::LoadOp::create(sb.b, sb.loc, vecType, st.shared,
                                           sharedIndices(st, stage, pp, kk),
                                           /*nontemporal=*/false, llvm::Align(4 * kv));
        Value slot = sb.add(sb.mul(r, micro), t);
        for (int64_t l = 0; l < kv; ++l)
          memref::StoreOp::create(sb.b, sb.loc, vector::ExtractOp::create(sb.b, sb.loc, vec, l),
                                  frag, ValueRange{sb.c(l), slot});
      });
    });
  };
  arith::FastMathFlags fmf =
      p.contract ? arith::FastMathFlags::contract : arith::FastMathFlags::none;
  sb.loop(0, s.blockK, kv, true, [&](Value kk) {
    loadFragments(lhs, aFrag, mLane, rm, s.threadM, s.lanesM * s.threadM, kk);
    loadFragments(rhs, bFrag, nLane, rn, s.threadN, s.lanesN * s.threadN, kk);
    sb.loop(0, kv, 1, true, [&](Value c) {
      sb.loop(0, fm, 1, true, [&](Value i) {
        sb.loop(0, fn, 1, true, [&](Value j) {
          Value a = memref::LoadOp::create(sb.b, sb.loc, aFrag, ValueRange{c, i});
          Value b = memref::LoadOp::create(sb.b, sb.loc, bFrag, ValueRange{c, j});
          Value x = memref::LoadOp::create(sb.b, sb.loc, acc, ValueRange{i, j});
          // The original's operand order: out + in0 * in1.
          Value prod = p.lhsIsInput0 ? arith::MulFOp::create(sb.b, sb.loc, a, b, fmf)
                                     : arith::MulFOp::create(sb.b, sb.loc, b, a, fmf);
          Value sum = arith::AddFOp::create(sb.b, sb.loc, x, prod, fmf);
          memref::StoreOp::create(sb.b, sb.loc, sum, acc, ValueRange{i, j});
        });
      });
    });
  });
}

void OuterProductGen::epilogue() {
  int64_t rm = s.repeatM(), rn = s.repeatN();
  sb.loop(0, rm, 1, true, [&](Value r) {
    sb.loop(0, s.threadM, 1, true, [&](Value t) {
      sb.loop(0, rn, 1, true, [&](Value q) {
        sb.loop(0, s.threadN, 1, true, [&](Value u) {
          Value mm = sb.add(sb.add(m0, sb.add(mLane, sb.mul(r, s.lanesM * s.threadM))), t);
          Value nn = sb.add(sb.add(n0, sb.add(nLane, sb.mul(q, s.lanesN * s.threadN))), u);
          Value i = sb.add(sb.mul(r, s.threadM), t), j = sb.add(sb.mul(q, s.threadN), u);
          sb.ifThen(sb.andi(sb.lt(mm, M), sb.lt(nn, N)), [&]() {
            llvm::DenseMap<unsigned, Value> coords;
            if (!p.batch.empty())
              sb.delinearize(batchLin, p.batch, p.sizes, coords);
            sb.delinearize(mm, p.m, p.sizes, coords);
            sb.delinearize(nn, p.n, p.sizes, coords);
            Value a = memref::LoadOp::create(sb.b, sb.loc, acc, ValueRange{i, j});
            if (s.splitK > 1) {
              // alpha * partial, added to what the init kernel wrote.
              Value scaled = linear.alpha ? Value(arith::MulFOp::create(
                                                sb.b, sb.loc, emitEpilogueValue(sb, p, linear.alpha, coords), a))
                                          : a;
              memref::AtomicRMWOp::create(sb.b, sb.loc, arith::AtomicRMWKind::addf, scaled,
                                          p.out.view, sb.indicesOf(p.out, coords));
              return;
            }
            Value result = emitEpilogue(sb, p, a, coords);
            memref::StoreOp::create(sb.b, sb.loc, result, p.out.view, sb.indicesOf(p.out, coords));
          });
        });
      });
    });
  });
}

LogicalResult OuterProductGen::run(std::string &why) {
  OpBuilder &b = sb.b;
  Location loc = sb.loc;
  if (s.splitK > 1) {
    FailureOr<LinearEpilogue> l = matchLinearEpilogue(p, why);
    if (failed(l))
      return failure();
    linear = *l;
  }
  // Problem extents (the linearized groups) and the block's tile.
  SmallVector<Value> ms, ns, ks, bs;
  for (unsigned d : p.m) ms.push_back(p.sizes[d]);
  for (unsigned d : p.n) ns.push_back(p.sizes[d]);
  for (unsigned d : p.k) ks.push_back(p.sizes[d]);
  for (unsigned d : p.batch) bs.push_back(p.sizes[d]);
  M = sb.product(ms);
  N = sb.product(ns);
  K = sb.product(ks);
  Value batches = bs.empty() ? Value() : sb.product(bs);
  Value tilesM = sb.ceilDiv(M, s.blockM), tilesN = sb.ceilDiv(N, s.blockN);
  Value pid = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value tileM, tileN;
  if (s.groupM == 1) {
    tileM = sb.divu(pid, tilesN);
    tileN = sb.remu(pid, tilesN);
  } else {
    // Triton's grouped order: groupM rows of tiles, column by column.
    Value width = sb.mul(tilesN, s.groupM);
    Value group = sb.divu(pid, width);
    Value firstM = sb.mul(group, s.groupM);
    Value groupSize = sb.minu(sb.sub(tilesM, firstM), sb.c(s.groupM));
    Value inGroup = sb.remu(pid, width);
    tileM = sb.add(firstM, sb.remu(inGroup, groupSize));
    tileN = sb.divu(inGroup, groupSize);
  }
  m0 = sb.mul(tileM, s.blockM);
  n0 = sb.mul(tileN, s.blockN);
  batchLin = bs.empty() ? Value() : Value(gpu::BlockIdOp::create(b, loc, gpu::Dimension::z));
  kEnd = K;
  Value kBegin = sb.c(0);
  if (s.splitK > 1) {
    // Split s takes the reduction tiles [s * per, (s + 1) * per).
    Value split = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
    Value per = sb.mul(sb.ceilDiv(sb.ceilDiv(K, s.blockK), s.splitK), s.blockK);
    kBegin = sb.minu(sb.mul(split, per), K);
    kEnd = sb.minu(sb.add(kBegin, per), K);
  }
  tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value warp = sb.div(tid, 32), lane = sb.rem(tid, 32);
  Value wm = sb.div(warp, s.warpsN), wn = sb.rem(warp, s.warpsN);
  Value lm = sb.div(lane, s.lanesN), ln = sb.rem(lane, s.lanesN);
  mLane = sb.add(sb.mul(wm, s.blockM / s.warpsM), sb.mul(lm, s.threadM));
  nLane = sb.add(sb.mul(wn, s.blockN / s.warpsN), sb.mul(ln, s.threadN));

  setupStaged(lhs, p.lhs, p.m, s.blockM, s.lhsPad, s.lhsKOuter, s.lhsSwizzle, s.lhsVector, M, m0);
  setupStaged(rhs, p.rhs, p.n, s.blockN, s.rhsPad, s.rhsKOuter, s.rhsSwizzle, s.rhsVector, N, n0);
  kv = (!s.lhsKOuter || !s.rhsKOuter) ? 4 : 1;
  {
    // Private arrays at the kernel's entry (registers once unrolled).
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&p.kernel.getBody().front());
    acc = allocPrivate({s.repeatM() * s.threadM, s.repeatN() * s.threadN});
    aFrag = allocPrivate({kv, s.repeatM() * s.threadM});
    bFrag = allocPrivate({kv, s.repeatN() * s.threadN});
    if (!s.asyncCopy && s.stages == 2) {
      lhs.regs = allocPrivate({chunks(lhs), lhs.vector});
      rhs.regs = allocPrivate({chunks(rhs), rhs.vector});
    } else if (!s.asyncCopy) {
      lhs.regs = allocPrivate({chunks(lhs), lhs.vector});
      rhs.regs = allocPrivate({chunks(rhs), rhs.vector});
    }
  }
  sb.loop(0, s.repeatM() * s.threadM, 1, true, [&](Value i) {
    sb.loop(0, s.repeatN() * s.threadN, 1, true, [&](Value j) {
      memref::StoreOp::create(b, loc, p.init, acc, ValueRange{i, j});
    });
  });

  Value tiles = sb.ceilDiv(sb.sub(kEnd, kBegin), s.blockK);
  auto kAt = [&](Value t) { return sb.add(kBegin, sb.mul(t, s.blockK)); };
  auto barrier = [&]() { gpu::BarrierOp::create(b, loc); };
  // cp.async groups through NVVM's ops: nvgpu's take the copies' tokens,
  // which live in the regions that issue them.
  auto commit = [&]() { NVVM::CpAsyncCommitGroupOp::create(b, loc); };
  auto waitFor = [&](int64_t pending) {
    NVVM::CpAsyncWaitGroupOp::create(b, loc, b.getI32IntegerAttr(pending));
  };
  Value zero = sb.c(0);
  if (s.asyncCopy) {
    int64_t S = s.stages;
    for (int64_t st = 0; st + 1 < std::max<int64_t>(S, 2); ++st) {
      Value t = sb.c(st);
      sb.ifThen(sb.lt(t, tiles), [&]() {
        issueAsync(lhs, sb.c(st % S), kAt(t));
        issueAsync(rhs, sb.c(st % S), kAt(t));
      });
      commit();
    }
    sb.loop(zero, tiles, sb.c(1), /*unroll=*/false, [&](Value t) {
      // The copies of slice t have landed (this thread's), then everyone's.
      waitFor(S == 1 ? 0 : S - 2);
      barrier();
      if (S == 1) {
        compute(zero);
        barrier();
        Value next = sb.add(t, sb.c(1));
        sb.ifThen(sb.lt(next, tiles), [&]() {
          issueAsync(lhs, zero, kAt(next));
          issueAsync(rhs, zero, kAt(next));
        });
        commit();
        return;
      }
      Value next = sb.add(t, sb.c(S - 1));
      sb.ifThen(sb.lt(next, tiles), [&]() {
        Value slot = sb.rem(next, S);
        issueAsync(lhs, slot, kAt(next));
        issueAsync(rhs, slot, kAt(next));
      });
      commit();
      compute(sb.rem(t, S));
    });
  } else if (s.stages == 2) {
    // Register double buffering: the next slice's loads are in flight while
    // this one is computed; one barrier per slice.
    sb.ifThen(sb.lt(zero, tiles), [&]() {
      loadToRegisters(lhs, kBegin);
      loadToRegisters(rhs, kBegin);
      storeFromRegisters(lhs, zero);
      storeFromRegisters(rhs, zero);
    });
    barrier();
    sb.loop(zero, tiles, sb.c(1), /*unroll=*/false, [&](Value t) {
      Value next = sb.add(t, sb.c(1));
      Value hasNext = sb.lt(next, tiles);
      sb.ifThen(hasNext, [&]() {
        loadToRegisters(lhs, kAt(next));
        loadToRegisters(rhs, kAt(next));
      });
      Value cur = sb.rem(t, 2);
      compute(cur);
      sb.ifThen(hasNext, [&]() {
        Value other = sb.sub(sb.c(1), cur);
        storeFromRegisters(lhs, other);
        storeFromRegisters(rhs, other);
      });
      barrier();
    });
  } else {
    sb.loop(zero, tiles, sb.c(1), /*unroll=*/false, [&](Value t) {
      loadToRegisters(lhs, kAt(t));
      loadToRegisters(rhs, kAt(t));
      storeFromRegisters(lhs, zero);
      storeFromRegisters(rhs, zero);
      barrier();
      compute(zero);
      barrier();
    });
  }
  epilogue();

  // The launch: one block per tile (x), the batch along z.
  std::array<Value, 3> grid = {sb.mul(tilesM, tilesN), s.splitK > 1 ? sb.c(s.splitK) : Value(),
                               batches};
  if (failed(rewriteLaunch(p.kernel, grid, {s.threads(), 1, 1}, why)))
    return failure();
  p.kernel.setKnownBlockSizeAttr(b.getDenseI32ArrayAttr({int32_t(s.threads()), 1, 1}));
  return success();
}
} // namespace

namespace {
/// With split_k, the kernel that runs first: a copy of the raised kernel
/// whose contraction group becomes "output = offset" (the epilogue's part
/// that does not depend on the reduction; 0 without one), one thread per
/// output element. It takes the same arguments and runs before every launch
/// of the main kernel.
LogicalResult generateSplitInit(ContractionProblem &p, std::string &why) {
  OpBuilder mb(p.kernel);
  IRMapping cloned;
  auto init = cast<gpu::GPUFuncOp>(mb.clone(*p.kernel, cloned));
  SymbolTable symbols(p.kernel->getParentOp());
  init.setName((p.kernel.getName() + "_split_init").str());
  symbols.insert(init); // renames on a clash
  auto op = cast<linalg::LinalgOp>(cloned.lookup(p.contraction.getOperation()));
  FailureOr<ContractionProblem> q = analyzeContraction(op, why);
  if (failed(q))
    return failure();
  FailureOr<LinearEpilogue> linear = matchLinearEpilogue(*q, why);
  if (failed(linear))
    return failure();
  OpBuilder b(q->store);
  SIMTBuilder sb(b, q->store.getLoc());
  SmallVector<unsigned> par = q->parallelDims();
  SmallVector<Value> sizes;
  for (unsigned d : par)
    sizes.push_back(q->sizes[d]);
  Value total = sb.product(sizes);
  constexpr int64_t threads = 256;
  Value gid = sb.add(sb.mul(gpu::BlockIdOp::create(b, sb.loc, gpu::Dimension::x), threads),
                     gpu::ThreadIdOp::create(b, sb.loc, gpu::Dimension::x));
  sb.ifThen(sb.lt(gid, total), [&]() {
    llvm::DenseMap<unsigned, Value> coords;
    sb.delinearize(gid, par, q->sizes, coords);
    Value value = linear->offset ? emitEpilogueValue(sb, *q, linear->offset, coords)
                                 : sb.zero(q->elementType);
    memref::StoreOp::create(b, sb.loc, value, q->out.view, sb.indicesOf(q->out, coords));
  });
  Value grid = sb.ceilDiv(total, threads);
  // Launch it before each launch of the main kernel, with the same operands.
  for (gpu::LaunchFuncOp launch : getLaunches(p.kernel)) {
    OpBuilder lb(launch);
    Value hostGrid = cloneIntoLauncher(grid, init, launch, lb);
    if (!hostGrid) {
      why = "the output's size is not computed from the kernel's scalar arguments";
      return failure();
    }
    Value one = arith::ConstantIndexOp::create(lb, launch.getLoc(), 1);
    Value width = arith::ConstantIndexOp::create(lb, launch.getLoc(), threads);
    gpu::LaunchFuncOp::create(lb, launch.getLoc(), init, gpu::KernelDim3{hostGrid, one, one},
                              gpu::KernelDim3{width, one, one}, Value(), launch.getKernelOperands());
  }
  eraseContractionGroup(*q);
  init->removeAttr(kRaisedAttrName);
  init->setAttr(kScheduleAttrName, b.getStringAttr("simt_split_init"));
  init.setKnownBlockSizeAttr(b.getDenseI32ArrayAttr({int32_t(threads), 1, 1}));
  return success();
}
} // namespace

LogicalResult mlir::ks::generateOuterProduct(ContractionProblem &p, const OuterProductSchedule &s,
                                             std::string &why) {
  if (failed(checkKernelHoldsOnlyGroup(p, why)))
    return failure();
  if (s.splitK > 1 && failed(generateSplitInit(p, why)))
    return failure();
  OpBuilder b(p.store);
  OuterProductGen gen(p, s, b);
  if (failed(gen.run(why)))
    return failure();
  eraseContractionGroup(p);
  p.kernel->removeAttr(kRaisedAttrName);
  p.kernel->setAttr(kScheduleAttrName, b.getStringAttr("simt_outer_product"));
  return success();
}
