//===- ImportCooperativeGroups.cpp - The block and warp part of CG --------===//
//
// The part of cooperative groups that kernels use instead of raw intrinsics:
// `thread_block` (this_thread_block()) and `thread_block_tile<N>`
// (tiled_partition<N>(block)), their sync, thread_rank, size/num_threads,
// meta_group_rank/size and the tile's shfl, shfl_down, shfl_up, shfl_xor,
// and cg::sync and cg::reduce with plus, less, greater and the bitwise ops.
// A group is a compile-time fact (which threads, how many), not a value: a
// group variable emits nothing, and what its calls compute is written with
// the ops the rest of the importer uses (gpu.barrier, gpu.shuffle with the
// tile's width, thread indices), so the lowering and the exporter need
// nothing new except the tile's warp barrier (nvvm.bar.warp.sync).
//
//===----------------------------------------------------------------------===//

#include "FunctionEmitter.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

#include "clang/AST/DeclTemplate.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::ks::frontend;

/// What a cooperative_groups type is: 0 for a thread_block, N for a
/// thread_block_tile<N>; nullopt for other types.
std::optional<int64_t> KernelEmitter::groupSize(clang::QualType t) {
  const clang::CXXRecordDecl *record = t.getNonReferenceType()->getAsCXXRecordDecl();
  if (!record || record->getQualifiedNameAsString().find("cooperative_groups::") == std::string::npos)
    return std::nullopt;
  if (record->getName() == "thread_block")
    return 0;
  if (auto *tile = dyn_cast<clang::ClassTemplateSpecializationDecl>(record);
      tile && tile->getName() == "thread_block_tile" && tile->getTemplateArgs().size() >= 1 &&
      tile->getTemplateArgs()[0].getKind() == clang::TemplateArgument::Integral)
    return tile->getTemplateArgs()[0].getAsIntegral().getExtValue();
  return -1; // another group (grid_group, a dynamic thread_group): not supported
}

/// `cg::thread_block b = cg::this_thread_block();`, `auto t =
/// cg::tiled_partition<32>(b);`: the variable is the group; nothing to emit.
bool KernelEmitter::emitGroupDecl(const clang::VarDecl *var) {
  std::optional<int64_t> size = groupSize(var->getType());
  if (!size)
    return false;
  if (*size < 0)
    return error(var->getLocation(), "only thread_block and thread_block_tile<N> groups are "
                                     "supported (grid and dynamic groups are not)"),
           true;
  if (*size > 0 && (*size > 32 || !llvm::isPowerOf2_64(*size)))
    return error(var->getLocation(), "a thread_block_tile has 1, 2, 4, 8, 16 or 32 threads"), true;
  return true;
}

Value KernelEmitter::linearThreadId(Location l) {
  auto i32 = [&](Value index) {
    return arith::IndexCastUIOp::create(b, l, b.getI32Type(), index).getResult();
  };
  Value tx = i32(gpu::ThreadIdOp::create(b, l, gpu::Dimension::x));
  Value ty = i32(gpu::ThreadIdOp::create(b, l, gpu::Dimension::y));
  Value tz = i32(gpu::ThreadIdOp::create(b, l, gpu::Dimension::z));
  Value bx = i32(gpu::BlockDimOp::create(b, l, gpu::Dimension::x));
  Value by = i32(gpu::BlockDimOp::create(b, l, gpu::Dimension::y));
  // x + bx * (y + by * z), as CUDA's thread_rank.
  Value inner = arith::AddIOp::create(b, l, ty, arith::MulIOp::create(b, l, by, tz));
  return arith::AddIOp::create(b, l, tx, arith::MulIOp::create(b, l, bx, inner));
}

Value KernelEmitter::blockThreads(Location l) {
  auto i32 = [&](gpu::Dimension d) {
    return arith::IndexCastUIOp::create(b, l, b.getI32Type(), gpu::BlockDimOp::create(b, l, d))
        .getResult();
  };
  Value xy = arith::MulIOp::create(b, l, i32(gpu::Dimension::x), i32(gpu::Dimension::y));
  return arith::MulIOp::create(b, l, xy, i32(gpu::Dimension::z));
}

/// The lanes of this thread's tile of the warp, as a warp mask; `first`
/// (when given) receives the tile's first lane.
Value KernelEmitter::tileMask(int64_t size, Location l, Value *first) {
  Value one = arith::ConstantOp::create(b, l, b.getI32IntegerAttr(1));
  Value lanes = size == 32 ? Value(arith::ConstantOp::create(b, l, b.getI32IntegerAttr(-1)))
                           : Value(arith::SubIOp::create(
                                 b, l,
                                 arith::ShLIOp::create(
                                     b, l, one, arith::ConstantOp::create(b, l, b.getI32IntegerAttr(size))),
                                 one));
  if (size == 32) {
    if (first)
      *first = arith::ConstantOp::create(b, l, b.getI32IntegerAttr(0));
    return lanes;
  }
  // lanes << (lane / size * size)
  Value lane = arith::AndIOp::create(b, l, linearThreadId(l),
                                     arith::ConstantOp::create(b, l, b.getI32IntegerAttr(31)));
  Value start = arith::AndIOp::create(
      b, l, lane, arith::ConstantOp::create(b, l, b.getI32IntegerAttr(~int32_t(size - 1) & 31)));
  if (first)
    *first = start;
  return arith::ShLIOp::create(b, l, lanes, start);
}

/// The tile's warp barrier: the lanes of this thread's tile of the warp.
void KernelEmitter::syncTile(int64_t size, Location l) {
  NVVM::SyncWarpOp::create(b, l, tileMask(size, l));
}

/// tile.any(p), tile.all(p), tile.ballot(p): a vote over the tile's lanes;
/// a ballot's bits are the tile's threads (bit i: thread_rank() == i).
Value KernelEmitter::tileVote(int64_t size, StringRef name, Value pred, Location l) {
  Value first;
  Value mask = tileMask(size, l, &first);
  if (name == "any" || name == "all")
    return NVVM::VoteSyncOp::create(b, l, b.getI1Type(), mask, pred,
                                     name == "any" ? NVVM::VoteSyncKind::any
                                                   : NVVM::VoteSyncKind::all);
  Value bits = NVVM::VoteSyncOp::create(b, l, b.getI32Type(), mask, pred, NVVM::VoteSyncKind::ballot);
  return size == 32 ? bits : Value(arith::ShRUIOp::create(b, l, bits, first));
}

Value KernelEmitter::tileShuffle(int64_t size, gpu::ShuffleMode mode, Value value, Value offset,
                                 Location l) {
  Value width = arith::ConstantOp::create(b, l, b.getI32IntegerAttr(size));
  return gpu::ShuffleOp::create(b, l, value, offset, width, mode).getShuffleResult();
}

/// A call on a group, or of cg::sync / cg::reduce; nullopt for other calls.
std::optional<Value> KernelEmitter::emitGroupCall(const clang::CallExpr *e) {
  Location l = loc(e);
  const clang::FunctionDecl *callee = e->getDirectCallee();
  if (!callee)
    return std::nullopt;
  StringRef name = callee->getName();
  std::optional<int64_t> size;
  unsigned firstArg = 0;
  // block.sync(), also when the member is static (thread_block's are).
  if (auto *member = dyn_cast<clang::MemberExpr>(e->getCallee()->IgnoreParenImpCasts())) {
    size = groupSize(member->getBase()->IgnoreImpCasts()->getType());
  } else if (callee->getQualifiedNameAsString().find("cooperative_groups::") != std::string::npos &&
             e->getNumArgs() >= 1) {
    if (name == "this_thread_block" || name == "tiled_partition")
      return error(e, "'cooperative_groups::" + name +
                          "' initializes a group variable (thread_block b = this_thread_block())"),
             Value();
    size = groupSize(e->getArg(0)->IgnoreImpCasts()->getType());
    firstArg = 1;
  }
  if (!size)
    return std::nullopt;
  if (*size < 0)
    return error(e, "only thread_block and thread_block_tile<N> groups are supported"), Value();
  auto arg = [&](unsigned i) { return rvalue(e->getArg(firstArg + i)); };
  auto asResult = [&](Value v) -> Value {
    // thread_rank() and co. are unsigned; the call's type says how wide.
    Type t = scalarType(e->getType(), e->getBeginLoc());
    if (!v || !t || t == v.getType())
      return v;
    return arith::ExtUIOp::create(b, l, t, v);
  };
  bool block = *size == 0;
  if (name == "sync") {
    if (block)
      gpu::BarrierOp::create(b, l);
    else
      syncTile(*size, l);
    return Value();
  }
  if (name == "thread_rank") {
    Value rank = linearThreadId(l);
    if (!block)
      rank = arith::AndIOp::create(b, l, rank,
                                   arith::ConstantOp::create(b, l, b.getI32IntegerAttr(*size - 1)));
    return asResult(rank);
  }
  if (name == "size" || name == "num_threads")
    return asResult(block ? blockThreads(l)
                          : Value(arith::ConstantOp::create(b, l, b.getI32IntegerAttr(*size))));
  if (!block && name == "meta_group_rank")
    return asResult(arith::DivUIOp::create(
        b, l, linearThreadId(l), arith::ConstantOp::create(b, l, b.getI32IntegerAttr(*size))));
  if (!block && name == "meta_group_size") {
    Value n = arith::ConstantOp::create(b, l, b.getI32IntegerAttr(*size));
    return asResult(arith::CeilDivUIOp::create(b, l, blockThreads(l), n));
  }
  if (!block && name.starts_with("shfl")) {
    std::optional<gpu::ShuffleMode> mode = llvm::StringSwitch<std::optional<gpu::ShuffleMode>>(name)
                                               .Case("shfl", gpu::ShuffleMode::IDX)
                                               .Case("shfl_down", gpu::ShuffleMode::DOWN)
                                               .Case("shfl_up", gpu::ShuffleMode::UP)
                                               .Case("shfl_xor", gpu::ShuffleMode::XOR)
                                               .Default(std::nullopt);
    if (!mode || e->getNumArgs() != firstArg + 2)
      return error(e, "'" + name + "' is outside the supported subset"), Value();
    Value value = arg(0), offset = value ? arg(1) : Value();
    if (!offset)
      return Value();
    offset = convert(offset, e->getArg(firstArg + 1)->getType(), ast.IntTy, e);
    return offset ? tileShuffle(*size, *mode, value, offset, l) : Value();
  }
  if (!block && (name == "any" || name == "all" || name == "ballot")) {
    if (e->getNumArgs() != firstArg + 1)
      return error(e, "'" + name + "' takes one predicate"), Value();
    Value pred = toBool(arg(0), e->getArg(firstArg));
    if (!pred)
      return Value();
    Value vote = tileVote(*size, name, pred, l);
    // any/all are int (bool in newer headers), ballot unsigned.
    Type t = scalarType(e->getType(), e->getBeginLoc());
    if (t == vote.getType())
      return vote;
    return arith::ExtUIOp::create(b, l, t, vote);
  }
  if (name == "reduce") {
    if (block)
      return error(e, "cg::reduce over a thread_block is outside the subset: reduce a "
                      "tiled_partition<N> of it"),
             Value();
    if (e->getNumArgs() != 3)
      return error(e, "cg::reduce takes a group, a value and an operator"), Value();
    const clang::CXXRecordDecl *op = e->getArg(2)->getType()->getAsCXXRecordDecl();
    StringRef opName = op ? op->getName() : "";
    Value v = arg(0);
    if (!v)
      return Value();
    bool isFloat = isa<FloatType>(v.getType());
    auto combine = [&](Value a, Value other) -> Value {
      if (opName == "plus")
        return isFloat ? Value(arith::AddFOp::create(b, l, a, other))
                       : Value(arith::AddIOp::create(b, l, a, other));
      if (opName == "less" || opName == "greater") {
        // The operator's own choice: a < b ? a : b (and NaN picks b, as it does).
        Value pick = isFloat ? Value(arith::CmpFOp::create(b, l,
                                                            opName == "less" ? arith::CmpFPredicate::OLT
                                                                             : arith::CmpFPredicate::OGT,
                                                            a, other))
                             : Value(arith::CmpIOp::create(
                                   b, l,
                                   opName == "less" ? (e->getArg(1)->getType()->isUnsignedIntegerType()
                                                           ? arith::CmpIPredicate::ult
                                                           : arith::CmpIPredicate::slt)
                                                    : (e->getArg(1)->getType()->isUnsignedIntegerType()
                                                           ? arith::CmpIPredicate::ugt
                                                           : arith::CmpIPredicate::sgt),
                                   a, other));
        return arith::SelectOp::create(b, l, pick, a, other);
      }
      if (!isFloat && opName == "bit_and")
        return arith::AndIOp::create(b, l, a, other);
      if (!isFloat && opName == "bit_or")
        return arith::OrIOp::create(b, l, a, other);
      if (!isFloat && opName == "bit_xor")
        return arith::XOrIOp::create(b, l, a, other);
      return Value();
    };
    // A butterfly over the tile: every lane ends with the whole result.
    for (int64_t offset = *size / 2; offset >= 1; offset /= 2) {
      Value other = tileShuffle(*size, gpu::ShuffleMode::XOR, v,
                                arith::ConstantOp::create(b, l, b.getI32IntegerAttr(offset)), l);
      v = combine(v, other);
      if (!v)
        return error(e, "cg::reduce with '" + opName +
                            "' is outside the subset (plus, less, greater; bit_and, bit_or, "
                            "bit_xor on integers)"),
               Value();
    }
    return v;
  }
  return error(e, "'" + name + "' of a cooperative group is outside the supported subset"),
         Value();
}
