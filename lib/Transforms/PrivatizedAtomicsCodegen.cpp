//===- PrivatizedAtomicsCodegen.cpp - Scattered atomics into shared bins --===//
//
// From a raised kernel whose forall body ends in one atomic addition into a
// small buffer (include/kernelskill/Transforms/PrivatizedAtomics.h):
//
//   block b, thread t (T threads, I points per thread, U at a time):
//     priv[k] = 0 for k = t, t + T, ... < bins;  barrier
//     for k0 = 0; k0 < I; k0 += U:
//       for u < U: p = b*T*I + (k0+u)*T + t; if p < points: the body's
//                  loads and values at p (delinearized), its index and value
//       for u < U: if p < points: atomic add into priv[index] when
//                  index < bins (omitted where proven), else into the
//                  global buffer at index, as before
//     barrier
//     for k = t, t + T, ... < bins: if priv[k] != 0: atomic add of priv[k]
//                                   into the global buffer at k
//
// With `aggregate`, the U updates instead go through the whole warp: each
// lane's key is its private counter (or `bins` where it has none), the lanes
// with the same key are matched (match.any.sync), and the lowest lane of a
// match adds the value times the match's size; updates outside the private
// counters still go to the global buffer one by one.
//
// Exact for integers: every point adds its value once, into the same
// counter; counters the kernel never touched stay untouched (the merge
// skips zeros). Float sums are reordered, as atomics already order them
// arbitrarily.
//
// Not upstream's: MLIR has no privatization of scattered atomics (linalg's
// promotion stages dense operand tiles, not data-dependent updates).
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Transforms/PrivatizedAtomics.h"
#include "SIMTBuilder.h"
#include "kernelskill/Transforms/KernelLaunch.h"
#include "kernelskill/Transforms/Raising.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::ks;

std::string mlir::ks::verifyPrivatizedAtomics(const PrivatizedAtomicsSchedule &s,
                                              int64_t maxThreads) {
  if (s.bins <= 0 || s.threads <= 0 || s.itemsPerThread <= 0 || s.unroll <= 0)
    return "bins, threads, items_per_thread and unroll must be positive";
  if (s.itemsPerThread % s.unroll)
    return "unroll must divide items_per_thread";
  if (s.unroll > 32)
    return "unroll takes at most 32 points (each holds its index and value in registers)";
  if (s.threads % 32)
    return "threads must be a multiple of the warp size (32)";
  if (s.copies <= 0 || (s.copies & (s.copies - 1)) || (s.threads / 32) % s.copies)
    return "copies must be a power of two dividing the block's warps (" +
           std::to_string(s.threads / 32) + ")";
  if (s.threads > maxThreads)
    return std::to_string(s.threads) + " threads per block exceed the chip's " +
           std::to_string(maxThreads);
  return "";
}

std::optional<int64_t> mlir::ks::provenIndexBound(Value v) {
  // Bounds here are exclusive and hold for the value read as unsigned; a
  // bound of at most 2^(w-1) for a w-bit value makes it non-negative too.
  auto fitsSigned = [](std::optional<int64_t> bound, Type t) -> std::optional<int64_t> {
    unsigned width = t.isIndex() ? 64 : t.getIntOrFloatBitWidth();
    if (bound && (width >= 63 || *bound <= (int64_t(1) << (width - 1))))
      return bound;
    return std::nullopt;
  };
  auto constantOf = [](Value c) -> std::optional<int64_t> {
    APInt value;
    if (matchPattern(c, m_ConstantInt(&value)) && !value.isNegative() && value.getActiveBits() < 63)
      return value.getSExtValue();
    return std::nullopt;
  };
  Operation *def = v.getDefiningOp();
  if (!def)
    return std::nullopt;
  if (std::optional<int64_t> c = constantOf(v))
    return *c + 1;
  // Zero extensions (to a wider type) bound by the narrow type's range.
  if (isa<arith::ExtUIOp, arith::IndexCastUIOp>(def) && !def->getOperand(0).getType().isIndex()) {
    Value in = def->getOperand(0);
    unsigned width = in.getType().getIntOrFloatBitWidth();
    std::optional<int64_t> inner = provenIndexBound(in);
    int64_t all = width >= 63 ? INT64_MAX : int64_t(1) << width;
    return fitsSigned(std::min(inner.value_or(all), all), v.getType());
  }
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp>(def))
    // A non-negative operand (bound <= 2^(w-1)) keeps its value.
    return fitsSigned(fitsSigned(provenIndexBound(def->getOperand(0)),
                                 def->getOperand(0).getType()),
                      v.getType());
  if (auto andOp = dyn_cast<arith::AndIOp>(def)) {
    std::optional<int64_t> l = constantOf(andOp.getLhs()), r = constantOf(andOp.getRhs());
    std::optional<int64_t> mask = r ? r : l;
    if (mask)
      return fitsSigned(*mask + 1, v.getType());
    return std::nullopt;
  }
  if (auto rem = dyn_cast<arith::RemUIOp>(def))
    if (std::optional<int64_t> c = constantOf(rem.getRhs()); c && *c > 0)
      return fitsSigned(*c, v.getType());
  if (auto min = dyn_cast<arith::MinUIOp>(def)) {
    std::optional<int64_t> l = provenIndexBound(min.getLhs()), r = provenIndexBound(min.getRhs());
    if (l || r)
      return fitsSigned(std::min(l.value_or(INT64_MAX), r.value_or(INT64_MAX)), v.getType());
  }
  return std::nullopt;
}

namespace {
struct Analysis {
  gpu::GPUFuncOp kernel;
  memref::AtomicRMWOp atomic;
  /// Whether the index is provably below the private bins.
  bool indexInRange = false;
};

FailureOr<Analysis> analyze(scf::ForallOp forall, const PrivatizedAtomicsSchedule &s,
                            int64_t maxSharedBytes, std::string &why) {
  auto fail = [&](const Twine &reason) -> FailureOr<Analysis> {
    why = reason.str();
    return failure();
  };
  Analysis a;
  a.kernel = scheduledKernelOf(forall, {gpu::Dimension::x, gpu::Dimension::y, gpu::Dimension::z},
                               why);
  if (!a.kernel)
    return failure();

  // The body: reads and values, then the one atomic update, then nothing
  // with an effect.
  Block *body = forall.getBody();
  for (auto atomic : body->getOps<memref::AtomicRMWOp>()) {
    if (a.atomic)
      return fail("the body updates atomically more than once");
    a.atomic = atomic;
  }
  if (!a.atomic) {
    bool nested = false;
    body->walk([&](memref::AtomicRMWOp) { nested = true; });
    return fail(nested ? "the atomic update is nested in a region of the body (conditional); "
                         "the schedule takes it at the body's top level"
                       : "the body holds no atomic update (memref.atomic_rmw)");
  }
  memref::AtomicRMWOp atomic = a.atomic;
  if (atomic.getKind() != arith::AtomicRMWKind::addi &&
      atomic.getKind() != arith::AtomicRMWKind::addf)
    return fail("the atomic update is '" + arith::stringifyAtomicRMWKind(atomic.getKind()) +
                "'; only additions (addi, addf) are privatized");
  if (!atomic.getResult().use_empty())
    return fail("the atomic update's old value is used");
  bool after = false;
  for (Operation &op : body->without_terminator()) {
    if (&op == atomic.getOperation()) {
      after = true;
      continue;
    }
    if (after ? !isMemoryEffectFree(&op) : !onlyReadsMemory(&op))
      return fail("the body holds '" + op.getName().getStringRef() +
                  "', a side effect other than the atomic update");
  }
  if (atomic.getMemRefType().getRank() != 1)
    return fail("the atomic update's buffer is not one-dimensional");
  Value view = atomic.getMemref();
  if (Operation *def = view.getDefiningOp(); def && forall->isProperAncestor(def))
    return fail("the atomic update's view is defined inside the forall");
  Value bins = viewedBuffer(view);
  if (!bins)
    return fail("the atomic update is not into a view of a kernel buffer");
  WalkResult other = a.kernel.walk([&](Operation *op) {
    if (op == atomic.getOperation() || !isa<MemoryEffectOpInterface>(op))
      return WalkResult::advance();
    for (Value operand : op->getOperands())
      if (isa<MemRefType>(operand.getType()) && viewedBuffer(operand) == bins &&
          !isMemoryEffectFree(op))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (other.wasInterrupted())
    return fail("the kernel reads or writes the counters' buffer besides the atomic update");
  Type elt = atomic.getValue().getType();
  int64_t bytes = s.copies * s.bins * ((elt.getIntOrFloatBitWidth() + 7) / 8);
  if (bytes > std::min<int64_t>(48 * 1024, maxSharedBytes))
    return fail("the private counters need " + std::to_string(bytes) + " bytes of shared memory");
  if (s.aggregate) {
    Value value = atomic.getValue();
    bool outside = !forall->isAncestor(value.getParentBlock()->getParentOp());
    if (!outside && !matchPattern(value, m_Constant()))
      return fail("aggregate needs the added value to be the same at every point (a constant "
                  "or a value defined outside the forall)");
  }
  std::optional<int64_t> bound = provenIndexBound(atomic.getIndices()[0]);
  a.indexInRange = bound && *bound <= s.bins;
  return a;
}
} // namespace

LogicalResult mlir::ks::checkPrivatizedAtomics(scf::ForallOp forall,
                                               const PrivatizedAtomicsSchedule &s,
                                               int64_t maxSharedBytes, std::string &why) {
  return failure(failed(analyze(forall, s, maxSharedBytes, why)));
}

LogicalResult mlir::ks::generatePrivatizedAtomics(scf::ForallOp forall,
                                                  const PrivatizedAtomicsSchedule &s,
                                                  int64_t maxSharedBytes, std::string &why) {
  FailureOr<Analysis> a = analyze(forall, s, maxSharedBytes, why);
  if (failed(a))
    return failure();
  memref::AtomicRMWOp atomic = a->atomic;
  OpBuilder b(forall);
  Location loc = forall.getLoc();
  SIMTBuilder sb(b, loc);
  const int64_t T = s.threads, I = s.itemsPerThread, U = s.unroll;
  SmallVector<Value> ubs;
  for (OpFoldResult ub : forall.getMixedUpperBound())
    ubs.push_back(getValueOrCreateConstantIndexOp(b, loc, ub));
  Value points = sb.product(ubs);
  Type elt = atomic.getValue().getType();
  auto space = gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  const int64_t W = s.copies;
  Value priv = addSharedBuffer(
      a->kernel, MemRefType::get({W * s.bins}, elt, MemRefLayoutAttrInterface(), space), loc);
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value zero = sb.zero(elt);
  Value binCount = sb.c(s.bins), threadCount = sb.c(T);
  // This warp's copy of the counters: copy (tid / 32) % W, at its offset.
  Value copy = W > 1 ? sb.mul(sb.rem(sb.div(tid, 32), W), s.bins) : Value();
  auto privateSlot = [&](Value index) { return copy ? sb.add(copy, index) : index; };

  sb.loop(tid, sb.c(W * s.bins), threadCount, /*unroll=*/false, [&](Value k) {
    memref::StoreOp::create(b, loc, zero, priv, ValueRange{k});
  });
  gpu::BarrierOp::create(b, loc);

  Value first = sb.add(sb.mul(gpu::BlockIdOp::create(b, loc, gpu::Dimension::x), T * I), tid);
  Block *body = forall.getBody();
  Value index = atomic.getIndices()[0], value = atomic.getValue();
  Type indexType = index.getType();

  // A warp-aggregated update (s.aggregate): every lane of the warp takes
  // part in the match, those without a private update under the key `bins`.
  Value uniformValue, lowerLanes;
  if (s.aggregate) {
    uniformValue = value;
    if (Operation *def = value.getDefiningOp(); def && forall->isProperAncestor(def))
      uniformValue = b.clone(*def)->getResult(0); // a constant (analyze checked)
    // The lanes below this one: ~(~0 << lane), lane = tid % 32 (a 1-D
    // block of whole warps). Not (1 << lane) - 1: exported to C++, the
    // subtraction overflows a signed int at lane 31.
    Value lane = arith::IndexCastUIOp::create(b, loc, b.getI32Type(), sb.remu(tid, sb.c(32)));
    Value ones = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(-1));
    lowerLanes = arith::XOrIOp::create(b, loc, arith::ShLIOp::create(b, loc, ones, lane), ones);
  }
  auto aggregatedUpdate = [&](Value inside, Value slot) {
    Type i32 = b.getI32Type();
    Value held =
        a->indexInRange ? inside : Value(arith::AndIOp::create(b, loc, inside, sb.lt(slot, binCount)));
    // (A memref index: below `bins` where held, so 32 bits hold it.)
    Value key = arith::IndexCastUIOp::create(b, loc, i32, slot);
    key = arith::SelectOp::create(b, loc, held, key,
                                  arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(s.bins)));
    Value all = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(-1));
    Value same = NVVM::MatchSyncOp::create(b, loc, i32, all, key, NVVM::MatchSyncKind::any);
    Value zero32 = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0));
    Value lowest = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                         arith::AndIOp::create(b, loc, same, lowerLanes), zero32);
    sb.ifThen(arith::AndIOp::create(b, loc, held, lowest), [&]() {
      Value count = math::CtPopOp::create(b, loc, same);
      Value amount;
      if (auto floatType = dyn_cast<FloatType>(elt)) {
        amount = arith::MulFOp::create(b, loc, uniformValue,
                                       arith::UIToFPOp::create(b, loc, floatType, count));
      } else {
        unsigned width = elt.getIntOrFloatBitWidth();
        if (width > 32)
          count = arith::ExtUIOp::create(b, loc, elt, count);
        else if (width < 32)
          count = arith::TruncIOp::create(b, loc, elt, count);
        amount = arith::MulIOp::create(b, loc, uniformValue, count);
      }
      memref::AtomicRMWOp::create(b, loc, atomic.getKind(), amount, priv,
                                  ValueRange{privateSlot(slot)});
    });
    if (!a->indexInRange) {
      Value outside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, slot, binCount);
      Value global = arith::AndIOp::create(b, loc, inside, outside);
      sb.ifThen(global, [&]() {
        memref::AtomicRMWOp::create(b, loc, atomic.getKind(), uniformValue, atomic.getMemref(),
                                    ValueRange{slot});
      });
    }
  };
  sb.loop(0, I, U, /*unroll=*/false, [&](Value k0) {
    SmallVector<Value> inside, indices, values;
    // The U points' loads and values first ...
    for (int64_t u = 0; u < U; ++u) {
      Value p = sb.add(first, sb.mul(sb.add(k0, u), T));
      Value in = sb.lt(p, points);
      ValueRange iv = sb.ifElse(
          in, TypeRange{indexType, elt},
          [&]() -> SmallVector<Value> {
            IRMapping map;
            // The point's coordinates, the last dimension varying fastest.
            Value rest = p;
            for (int64_t d = forall.getRank() - 1; d >= 0; --d) {
              Value coord = d == 0 ? rest : sb.remu(rest, ubs[d]);
              map.map(forall.getInductionVars()[d], coord);
              if (d > 0)
                rest = sb.divu(rest, ubs[d]);
            }
            for (Operation &op : body->without_terminator()) {
              if (&op == atomic.getOperation())
                break;
              b.clone(op, map);
            }
            return {map.lookupOrDefault(index), map.lookupOrDefault(value)};
          },
          [&]() -> SmallVector<Value> {
            return {arith::ConstantOp::create(b, loc, b.getZeroAttr(indexType)), zero};
          });
      inside.push_back(in);
      indices.push_back(iv[0]);
      values.push_back(iv[1]);
    }
    // ... then their updates.
    if (s.aggregate) {
      for (int64_t u = 0; u < U; ++u)
        aggregatedUpdate(inside[u], indices[u]);
      return;
    }
    for (int64_t u = 0; u < U; ++u)
      sb.ifThen(inside[u], [&]() {
        auto toPrivate = [&]() {
          memref::AtomicRMWOp::create(b, loc, atomic.getKind(), values[u], priv,
                                      ValueRange{privateSlot(indices[u])});
        };
        if (a->indexInRange) {
          toPrivate();
          return;
        }
        Value held = sb.lt(indices[u], binCount);
        auto branch = scf::IfOp::create(b, loc, TypeRange{}, held, /*withElseRegion=*/true);
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(branch.thenBlock()->getTerminator());
        toPrivate();
        b.setInsertionPoint(branch.elseBlock()->getTerminator());
        memref::AtomicRMWOp::create(b, loc, atomic.getKind(), values[u], atomic.getMemref(),
                                    ValueRange{indices[u]});
      });
  });
  gpu::BarrierOp::create(b, loc);

  // The merge: one update per touched counter (its copies added first).
  sb.loop(tid, binCount, threadCount, /*unroll=*/false, [&](Value k) {
    Value count = memref::LoadOp::create(b, loc, priv, ValueRange{k});
    for (int64_t c = 1; c < W; ++c) {
      Value other = memref::LoadOp::create(b, loc, priv, ValueRange{sb.add(k, c * s.bins)});
      count = isa<FloatType>(elt) ? Value(arith::AddFOp::create(b, loc, count, other))
                                  : Value(arith::AddIOp::create(b, loc, count, other));
    }
    Value touched =
        isa<FloatType>(elt)
            ? Value(arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, count, zero))
            : Value(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, count, zero));
    sb.ifThen(touched, [&]() {
      memref::AtomicRMWOp::create(b, loc, atomic.getKind(), count, atomic.getMemref(),
                                  ValueRange{k});
    });
  });

  std::array<Value, 3> grid = {sb.ceilDiv(points, T * I), sb.c(1), sb.c(1)};
  if (failed(rewriteLaunch(a->kernel, grid, {T, 1, 1}, why)))
    return failure();
  forall.erase();
  a->kernel->removeAttr(kRaisedAttrName);
  a->kernel->setAttr(kScheduleAttrName, b.getStringAttr("simt_privatized_atomics"));
  a->kernel.setKnownBlockSizeAttr(b.getDenseI32ArrayAttr({int32_t(T), 1, 1}));
  return success();
}
