//===- SplitReductionCodegen.cpp - The GEMV family's SIMT schedule --------===//
//
// One thread per output leaves a matrix-vector product with too little
// parallelism (y = A^T x over 16384 columns: 512 warps on 132 SMs) or with
// strided reads (y = A x, each thread walking its own row). This schedule
// splits each output's reduction across threads instead:
//
//   block b: outputs [b * BO, (b + 1) * BO), BO = lanesOut * warpsOut * OPT
//   thread (warp wo/wr, lane lo/lr): outputs o .. o + OPT - 1 and the
//     reduction indices r, r + R, r + 2R, ... (R = lanesRed * warpsRed),
//     `vector` consecutive elements per load, `unroll` loads in flight
//   partial sums: butterfly shuffles across the lanesRed lanes, then shared
//     memory across the warpsRed warps; the first thread of each output
//     group applies the epilogue and stores.
//
// Loads are 128-bit where the operand is contiguous along the vector's
// direction and aligned (checked once per block), scalar and predicated at
// the edges. The reduction's order changes (a tree of partial sums): the
// verification tolerance covers it (docs/Raising.md).
//
//===----------------------------------------------------------------------===//

#include "SIMTBuilder.h"
#include "kernelskill/Transforms/Contraction.h"
#include "kernelskill/Transforms/KernelLaunch.h"
#include "kernelskill/Transforms/Raising.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::ks;

namespace {
/// Where an input is contiguous: along the reduction, along the outputs, or
/// neither (the view's last dimension has stride 1 and is that dimension).
enum class Along { Reduction, Outputs, None };

Along contiguity(const ContractionOperand &operand, ArrayRef<unsigned> par, ArrayRef<unsigned> k) {
  if (!operand.contiguousDim || *operand.contiguousDim + 1 != operand.map.getNumResults())
    return Along::None;
  unsigned d = cast<AffineDimExpr>(operand.map.getResult(*operand.contiguousDim)).getPosition();
  if (k.size() == 1 && k[0] == d)
    return Along::Reduction;
  if (!par.empty() && par.back() == d)
    return Along::Outputs;
  return Along::None;
}

bool dependsOn(const ContractionOperand &operand, ArrayRef<unsigned> dims) {
  return llvm::any_of(dims, [&](unsigned d) { return operand.map.isFunctionOfDim(d); });
}
} // namespace

std::string mlir::ks::verifySplitReduction(const ContractionProblem &p,
                                           const SplitReductionSchedule &s, int64_t maxThreads,
                                           int64_t maxSharedBytes) {
  for (int64_t v : {s.lanesOut, s.lanesRed, s.warpsOut, s.warpsRed, s.outputsPerThread, s.unroll})
    if (v <= 0)
      return "every count and factor must be positive";
  if (s.lanesOut * s.lanesRed != 32)
    return "lanes = [" + std::to_string(s.lanesOut) + ", " + std::to_string(s.lanesRed) +
           "]: a warp has 32 lanes";
  if (s.lanesRed & (s.lanesRed - 1))
    return "lanes[1] (the lanes that share an output) must be a power of two";
  if (s.vector != 1 && s.vector != 2 && s.vector != 4)
    return "vector must be 1, 2 or 4";
  if (s.threads() > maxThreads)
    return std::to_string(s.threads()) + " threads per block exceed the chip's " +
           std::to_string(maxThreads);
  SmallVector<unsigned> par = p.parallelDims();
  if (s.vector > 1)
    for (const ContractionOperand *in : {&p.lhs, &p.rhs})
      if (dependsOn(*in, p.k) && contiguity(*in, par, p.k) != Along::Reduction)
        return "vector = " + std::to_string(s.vector) +
               ": an input is not contiguous along the reduction";
  int64_t bytes = s.warpsRed > 1 ? s.warpsRed * s.blockOutputs() * 4 : 0;
  if (bytes > std::min<int64_t>(48 * 1024, maxSharedBytes))
    return "the partial sums need " + std::to_string(bytes) + " bytes of shared memory";
  for (gpu::Dimension d : {gpu::Dimension::x, gpu::Dimension::y, gpu::Dimension::z})
    if (readsBlockIndex(p.kernel, d) && d == gpu::Dimension::x)
      return "the kernel already reads blockIdx.x";
  return "";
}

namespace {
class SplitReductionGen {
public:
  SplitReductionGen(ContractionProblem &p, const SplitReductionSchedule &s, OpBuilder &b)
      : p(p), s(s), sb(b, p.store.getLoc()) {}
  LogicalResult run(std::string &why);

private:
  ContractionProblem &p;
  const SplitReductionSchedule &s;
  SIMTBuilder sb;
  SmallVector<unsigned> par;
  Value P, K, acc;
  llvm::DenseMap<const ContractionOperand *, Value> aligned;

  Type f32() { return sb.b.getF32Type(); }
  llvm::DenseMap<unsigned, Value> coords(Value o, Value k) {
    llvm::DenseMap<unsigned, Value> c;
    sb.delinearize(o, par, p.sizes, c);
    sb.delinearize(k, p.k, p.sizes, c);
    return c;
  }
  Value alignedFlag(const ContractionOperand &operand, int64_t width);
  /// values[t][j]: input `in` at output o + t and reduction index k + j.
  SmallVector<SmallVector<Value>> load(const ContractionOperand &in, Value o, Value k);
};

Value SplitReductionGen::alignedFlag(const ContractionOperand &operand, int64_t width) {
  auto cast = operand.view.getDefiningOp<memref::ReinterpretCastOp>();
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(sb.b, sb.loc, cast.getSource());
  auto eq0 = [&](Value v, int64_t m) {
    return arith::CmpIOp::create(sb.b, sb.loc, arith::CmpIPredicate::eq, sb.rem(v, m), sb.c(0))
        .getResult();
  };
  Value ok = eq0(base, 4 * width);
  ok = sb.andi(ok, eq0(getValueOrCreateConstantIndexOp(sb.b, sb.loc, cast.getMixedOffsets()[0]), width));
  for (auto [i, stride] : llvm::enumerate(cast.getMixedStrides()))
    if (i != *operand.contiguousDim)
      ok = sb.andi(ok, eq0(getValueOrCreateConstantIndexOp(sb.b, sb.loc, stride), width));
  return ok;
}

SmallVector<SmallVector<Value>> SplitReductionGen::load(const ContractionOperand &in, Value o,
                                                        Value k) {
  int64_t opt = s.outputsPerThread, vk = s.vector;
  bool perOutput = dependsOn(in, par);
  Along along = contiguity(in, par, p.k);
  Type f = f32();
  auto scalar = [&](Value oi, Value ki) -> Value {
    Value valid = sb.andi(perOutput ? sb.lt(oi, P) : Value(), sb.lt(ki, K));
    return sb.ifElse(valid, f,
                     [&]() -> SmallVector<Value> {
                       return {memref::LoadOp::create(sb.b, sb.loc, in.view,
                                                      sb.indicesOf(in, coords(oi, ki)))};
                     },
                     [&]() -> SmallVector<Value> { return {sb.zero(f)}; })[0];
  };
  // A vector of `width` along the contiguous direction from (oi, ki).
  auto vectorLoad = [&](Value oi, Value ki, int64_t width, bool alongK) -> SmallVector<Value> {
    auto type = VectorType::get({width}, f);
    Value lastO = alongK ? oi : sb.add(oi, width - 1);
    Value lastK = alongK ? sb.add(ki, width - 1) : ki;
    Value whole = sb.andi(sb.andi(perOutput ? sb.lt(lastO, P) : Value(), sb.lt(lastK, K)),
                          aligned.lookup(&in));
    Value vec = sb.ifElse(whole, type,
                          [&]() -> SmallVector<Value> {
                            return {vector::LoadOp::create(sb.b, sb.loc, type, in.view,
                                                           sb.indicesOf(in, coords(oi, ki)),
                                                           /*nontemporal=*/false,
                                                           llvm::Align(4 * width))};
                          },
                          [&]() -> SmallVector<Value> {
                            SmallVector<Value> e;
                            for (int64_t i = 0; i < width; ++i)
                              e.push_back(alongK ? scalar(oi, sb.add(ki, i)) : scalar(sb.add(oi, i), ki));
                            return {vector::FromElementsOp::create(sb.b, sb.loc, type, e)};
                          })[0];
    SmallVector<Value> out;
    for (int64_t i = 0; i < width; ++i)
      out.push_back(vector::ExtractOp::create(sb.b, sb.loc, vec, i));
    return out;
  };
  SmallVector<SmallVector<Value>> values(opt, SmallVector<Value>(vk));
  if (!perOutput) {
    SmallVector<Value> row;
    if (vk > 1)
      row = vectorLoad(o, k, vk, /*alongK=*/true);
    else
      row = {scalar(o, k)};
    for (int64_t t = 0; t < opt; ++t)
      values[t] = row;
    return values;
  }
  if (vk > 1) { // along the reduction (checked by the verifier)
    for (int64_t t = 0; t < opt; ++t)
      values[t] = vectorLoad(sb.add(o, t), k, vk, /*alongK=*/true);
    return values;
  }
  if (opt > 1 && (opt == 2 || opt == 4) && along == Along::Outputs) {
    SmallVector<Value> v = vectorLoad(o, k, opt, /*alongK=*/false);
    for (int64_t t = 0; t < opt; ++t)
      values[t][0] = v[t];
    return values;
  }
  for (int64_t t = 0; t < opt; ++t)
    values[t][0] = scalar(sb.add(o, t), k);
  return values;
}

LogicalResult SplitReductionGen::run(std::string &why) {
  OpBuilder &b = sb.b;
  Location loc = sb.loc;
  par = p.parallelDims();
  SmallVector<Value> ps, ks;
  for (unsigned d : par) ps.push_back(p.sizes[d]);
  for (unsigned d : p.k) ks.push_back(p.sizes[d]);
  P = sb.product(ps);
  K = sb.product(ks);
  int64_t opt = s.outputsPerThread, vk = s.vector, red = s.lanesRed * s.warpsRed;
  // Alignment flags, once per block.
  for (const ContractionOperand *in : {&p.lhs, &p.rhs}) {
    Along along = contiguity(*in, par, p.k);
    int64_t width = along == Along::Reduction ? vk : along == Along::Outputs ? opt : 1;
    if (width > 1 && (width == 2 || width == 4))
      aligned[in] = alignedFlag(*in, width);
  }
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value warp = sb.div(tid, 32), lane = sb.rem(tid, 32);
  Value wo = sb.div(warp, s.warpsRed), wr = sb.rem(warp, s.warpsRed);
  Value lo = sb.div(lane, s.lanesRed), lr = sb.rem(lane, s.lanesRed);
  Value group = sb.add(sb.mul(wo, s.lanesOut), lo); // the thread's output group in the block
  Value bid = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value o = sb.add(sb.mul(bid, s.blockOutputs()), sb.mul(group, opt));
  Value r = sb.add(sb.mul(wr, s.lanesRed), lr);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&p.kernel.getBody().front());
    acc = memref::AllocaOp::create(b, loc, MemRefType::get({opt}, f32()));
  }
  sb.loop(0, opt, 1, true, [&](Value t) { memref::StoreOp::create(b, loc, p.init, acc, t); });
  arith::FastMathFlags fmf =
      p.contract ? arith::FastMathFlags::contract : arith::FastMathFlags::none;
  // k = (r + (step + u) * R) * vector: consecutive threads read consecutive
  // vectors; `unroll` of them per iteration.
  int64_t stride = red * vk;
  sb.loop(sb.mul(r, vk), K, sb.c(stride * s.unroll), /*unroll=*/false, [&](Value k0) {
    sb.loop(0, s.unroll, 1, true, [&](Value u) {
      Value k = sb.add(k0, sb.mul(u, stride));
      SmallVector<SmallVector<Value>> in0 = load(p.lhsIsInput0 ? p.lhs : p.rhs, o, k);
      SmallVector<SmallVector<Value>> in1 = load(p.lhsIsInput0 ? p.rhs : p.lhs, o, k);
      for (int64_t t = 0; t < opt; ++t) {
        Value x = memref::LoadOp::create(b, loc, acc, ValueRange{sb.c(t)});
        for (int64_t j = 0; j < vk; ++j) {
          Value prod = arith::MulFOp::create(b, loc, in0[t][j], in1[t][j], fmf);
          x = arith::AddFOp::create(b, loc, x, prod, fmf);
        }
        memref::StoreOp::create(b, loc, x, acc, ValueRange{sb.c(t)});
      }
    });
  });
  // Across the lanes of an output group: a butterfly.
  for (int64_t t = 0; t < opt; ++t) {
    Value x = memref::LoadOp::create(b, loc, acc, ValueRange{sb.c(t)});
    for (int64_t off = s.lanesRed / 2; off >= 1; off /= 2) {
      auto shuffle = gpu::ShuffleOp::create(b, loc, x, int32_t(off), 32, gpu::ShuffleMode::XOR);
      x = arith::AddFOp::create(b, loc, x, shuffle.getShuffleResult());
    }
    memref::StoreOp::create(b, loc, x, acc, ValueRange{sb.c(t)});
  }
  // Across the warps of an output group: through shared memory.
  if (s.warpsRed > 1) {
    auto space = gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
    Value partial = addSharedBuffer(
        p.kernel, MemRefType::get({s.warpsRed, s.blockOutputs()}, f32(), MemRefLayoutAttrInterface(), space), loc);
    Value slot = sb.mul(group, opt);
    sb.ifThen(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lr, sb.c(0)), [&]() {
      for (int64_t t = 0; t < opt; ++t)
        memref::StoreOp::create(b, loc, memref::LoadOp::create(b, loc, acc, ValueRange{sb.c(t)}),
                                partial, ValueRange{wr, sb.add(slot, t)});
    });
    gpu::BarrierOp::create(b, loc);
    sb.ifThen(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, r, sb.c(0)), [&]() {
      for (int64_t t = 0; t < opt; ++t) {
        Value x = memref::LoadOp::create(b, loc, partial, ValueRange{sb.c(0), sb.add(slot, t)});
        for (int64_t w = 1; w < s.warpsRed; ++w)
          x = arith::AddFOp::create(
              b, loc, x, memref::LoadOp::create(b, loc, partial, ValueRange{sb.c(w), sb.add(slot, t)}));
        memref::StoreOp::create(b, loc, x, acc, ValueRange{sb.c(t)});
      }
    });
  }
  // The epilogue, by the first thread of each output group.
  sb.ifThen(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, r, sb.c(0)), [&]() {
    for (int64_t t = 0; t < opt; ++t) {
      Value ot = sb.add(o, t);
      sb.ifThen(sb.lt(ot, P), [&]() {
        llvm::DenseMap<unsigned, Value> c;
        sb.delinearize(ot, par, p.sizes, c);
        Value a = memref::LoadOp::create(b, loc, acc, ValueRange{sb.c(t)});
        Value result = emitEpilogue(sb, p, a, c);
        memref::StoreOp::create(b, loc, result, p.out.view, sb.indicesOf(p.out, c));
      });
    }
  });
  std::array<Value, 3> grid = {sb.ceilDiv(P, s.blockOutputs()), Value(), Value()};
  if (failed(rewriteLaunch(p.kernel, grid, {s.threads(), 1, 1}, why)))
    return failure();
  p.kernel.setKnownBlockSizeAttr(b.getDenseI32ArrayAttr({int32_t(s.threads()), 1, 1}));
  return success();
}
} // namespace

LogicalResult mlir::ks::generateSplitReduction(ContractionProblem &p,
                                               const SplitReductionSchedule &s, std::string &why) {
  if (failed(checkKernelHoldsOnlyGroup(p, why)))
    return failure();
  OpBuilder b(p.store);
  SplitReductionGen gen(p, s, b);
  if (failed(gen.run(why)))
    return failure();
  eraseContractionGroup(p);
  p.kernel->removeAttr(kRaisedAttrName);
  p.kernel->setAttr(kScheduleAttrName, b.getStringAttr("simt_split_reduction"));
  return success();
}
