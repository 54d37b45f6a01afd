//===- FunctionEmitter.cpp - What kernels and launchers share -------------===//
//
// Locations and diagnostics, variable slots, blocks, and a function body
// from its parameters to its one exit (FunctionEmitter.h has the design).
//
//===----------------------------------------------------------------------===//

#include "FunctionEmitter.h"
#include "kernelskill/Support/CUDABuiltins.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace mlir::ks::frontend;

Location FunctionEmitter::loc(clang::SourceLocation l) {
  clang::PresumedLoc p = sm.getPresumedLoc(sm.getExpansionLoc(l));
  if (p.isInvalid())
    return UnknownLoc::get(ctx);
  return FileLineColLoc::get(ctx, p.getFilename(), p.getLine(), p.getColumn());
}

std::nullptr_t FunctionEmitter::error(clang::SourceLocation l, const Twine &message) {
  if (!hadError)
    emitError(loc(l)) << message;
  hadError = true;
  return nullptr;
}

Slot *FunctionEmitter::findSlot(const clang::VarDecl *var) {
  if (!var)
    return nullptr;
  auto it = vars.find(var);
  return it != vars.end() ? &it->second : bindGlobal(var);
}

Value FunctionEmitter::allocaAtEntry(MemRefType type, Location l) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(entry);
  return memref::AllocaOp::create(b, l, type);
}

/// CUDA's vector types are aligned to their size (float4: 16 bytes), so a
/// reinterpreted access may use one wide load or store.
void FunctionEmitter::setVectorAlignment(Operation *op, const LValue &lv) {
  Type elem = cast<MemRefType>(lv.memref.getType()).getElementType();
  op->setAttr("alignment", b.getI64IntegerAttr(lv.width * elem.getIntOrFloatBitWidth() / 8));
}

Value FunctionEmitter::loadLValue(const LValue &lv, Location l) {
  Value v;
  if (lv.width > 1) {
    auto load = vector::LoadOp::create(
        b, l, VectorType::get({lv.width}, cast<MemRefType>(lv.memref.getType()).getElementType()),
        lv.memref, lv.indices);
    setVectorAlignment(load, lv);
    v = load;
  } else {
    v = memref::LoadOp::create(b, l, lv.memref, lv.indices);
  }
  if (lv.lane)
    return vector::ExtractOp::create(b, l, v, ArrayRef<int64_t>{*lv.lane});
  return v;
}

// mem2reg and the CFG lifting keep op locations, so the exporter can name
// the value (and the loop variables it feeds) after the variable.
void FunctionEmitter::nameAfter(Value v, const clang::VarDecl *var) {
  Operation *def = v ? v.getDefiningOp() : nullptr;
  if (!def || !var || var->getName().empty() || isa<NameLoc>(def->getLoc()) ||
      isa<arith::ConstantOp>(def))
    return;
  def->setLoc(NameLoc::get(b.getStringAttr(var->getName()), def->getLoc()));
}

bool FunctionEmitter::isConstantMemory(Value memref) {
  auto space = dyn_cast_or_null<IntegerAttr>(cast<MemRefType>(memref.getType()).getMemorySpace());
  return space && space.getInt() == cuda::kConstantMemorySpace;
}

void FunctionEmitter::storeLValue(Value v, const LValue &lv, Location l) {
  if (isConstantMemory(lv.memref)) {
    // nvcc refuses it too: device code only reads __constant__ memory.
    if (!hadError)
      emitError(l) << "a kernel cannot write __constant__ memory (the host sets it, with "
                      "cudaMemcpyToSymbol)";
    hadError = true;
    return;
  }
  nameAfter(v, lv.var);
  if (lv.lane) {
    LValue whole = lv;
    whole.lane.reset();
    v = vector::InsertOp::create(b, l, v, loadLValue(whole, l), ArrayRef<int64_t>{*lv.lane});
  }
  if (lv.width > 1)
    setVectorAlignment(vector::StoreOp::create(b, l, v, lv.memref, lv.indices), lv);
  else
    memref::StoreOp::create(b, l, v, lv.memref, lv.indices);
}

Value FunctionEmitter::toIndex(Value i, clang::QualType t, Location l) {
  if (isUnsigned(t))
    return arith::IndexCastUIOp::create(b, l, b.getIndexType(), i);
  return arith::IndexCastOp::create(b, l, b.getIndexType(), i);
}

void FunctionEmitter::branchTo(Block *dest, Location l) { cf::BranchOp::create(b, l, dest); }

bool FunctionEmitter::emitBody(const clang::FunctionDecl *fn,
                               ArrayRef<const clang::ParmVarDecl *> params, Region &region,
                               Block *entryBlock, ValueRange args, bool pointerOffsets,
                               function_ref<void(Location)> createReturn) {
  body = &region;
  entry = entryBlock;
  b.setInsertionPointToEnd(entry);
  // Each parameter gets a slot so the body may assign to it (mem2reg removes
  // the slots again).
  for (auto [p, arg] : llvm::zip(params, args)) {
    Location pl = loc(p->getLocation());
    Slot slot;
    if (isa<MemRefType>(arg.getType())) {
      slot.kind = Slot::PointerVar;
      slot.base = arg;
      if (pointerOffsets) {
        slot.offsetSlot = allocaAtEntry(MemRefType::get({}, b.getIndexType()), pl);
        store(indexConst(0, pl), slot.offsetSlot, pl);
      }
    } else {
      slot.storage = allocaAtEntry(MemRefType::get({}, arg.getType()), pl);
      store(arg, slot.storage, pl);
    }
    vars[p] = slot;
  }
  // Every `return` branches to one exit block.
  returnBlock = newBlock();
  emitStmt(fn->getBody());
  if (hadError)
    return false;
  Location end = loc(fn->getEndLoc());
  branchTo(returnBlock, end);
  startBlock(returnBlock);
  createReturn(end);
  return true;
}
