//===- ImportStmt.cpp - Statements and control flow --------------------------===//
//
// Statements as an unstructured control-flow graph: one block per branch
// target, variables in slots (FunctionEmitter.h has the design).
//
//===----------------------------------------------------------------------===//

#include "FunctionEmitter.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"

using namespace mlir;
using namespace mlir::ks::frontend;

void FunctionEmitter::emitStmt(const clang::Stmt *s) {
  if (hadError || !s)
    return;
  if (auto *compound = dyn_cast<clang::CompoundStmt>(s)) {
    for (const clang::Stmt *child : compound->body())
      emitStmt(child);
    return;
  }
  if (auto *attributed = dyn_cast<clang::AttributedStmt>(s))
    return emitStmt(attributed->getSubStmt()); // #pragma unroll: a hint only
  if (auto *decl = dyn_cast<clang::DeclStmt>(s)) {
    for (const clang::Decl *d : decl->decls()) {
      if (auto *var = dyn_cast<clang::VarDecl>(d))
        emitDecl(var);
      else if (!isa<clang::TypedefNameDecl, clang::UsingDecl>(d))
        error(d->getBeginLoc(), "this declaration is outside the supported subset");
    }
    return;
  }
  if (auto *e = dyn_cast<clang::Expr>(s)) {
    rvalue(e);
    return;
  }
  if (auto *i = dyn_cast<clang::IfStmt>(s))
    return emitIf(i);
  if (auto *f = dyn_cast<clang::ForStmt>(s))
    return emitFor(f);
  if (auto *w = dyn_cast<clang::WhileStmt>(s))
    return emitWhile(w);
  if (auto *d = dyn_cast<clang::DoStmt>(s))
    return emitDo(d);
  if (auto *r = dyn_cast<clang::ReturnStmt>(s))
    return emitReturn(r);
  if (isa<clang::NullStmt>(s))
    return;
  if (isa<clang::BreakStmt, clang::ContinueStmt>(s)) {
    if (loops.empty()) {
      error(s, "'break'/'continue' outside a loop");
      return;
    }
    branchTo(isa<clang::BreakStmt>(s) ? loops.back().breakDest : loops.back().continueDest, loc(s));
    startBlock(newBlock());
    return;
  }
  if (isa<clang::GotoStmt, clang::IndirectGotoStmt, clang::LabelStmt>(s))
    return (void)error(s, "'goto' is outside the supported subset");
  if (isa<clang::GCCAsmStmt, clang::MSAsmStmt>(s))
    return (void)error(s, "inline 'asm' is outside the supported subset");
  if (isa<clang::SwitchStmt>(s))
    return (void)error(s, "'switch' is not supported yet");
  error(s, std::string("statement '") + s->getStmtClassName() + "' is outside the supported subset");
}

MemRefType FunctionEmitter::arrayType(const clang::VarDecl *var, Attribute memorySpace) {
  SmallVector<int64_t> shape;
  clang::QualType elem = var->getType();
  while (const auto *a = ast.getAsConstantArrayType(elem)) {
    shape.push_back(a->getSize().getSExtValue());
    elem = a->getElementType();
  }
  Type elemType = scalarType(elem, var->getLocation());
  if (hadError)
    return nullptr;
  if (var->hasInit())
    return error(var->getLocation(), "array initializers are not supported yet");
  return MemRefType::get(shape, elemType, nullptr, memorySpace);
}

void FunctionEmitter::emitDecl(const clang::VarDecl *var) {
  Location l = loc(var->getLocation());
  clang::QualType t = var->getType();
  if (var->isStaticLocal() && !var->hasAttr<clang::CUDASharedAttr>())
    return (void)error(var->getLocation(), "static local variables are outside the supported subset");
  if (emitSpecialDecl(var))
    return;
  if (ast.getAsConstantArrayType(t)) {
    // Local arrays live in private memory.
    if (MemRefType type = arrayType(var, /*memorySpace=*/nullptr)) {
      Slot slot;
      slot.kind = Slot::Array;
      slot.storage = allocaAtEntry(type, l);
      vars[var] = slot;
    }
    return;
  }
  Slot slot;
  if (t->isPointerType()) {
    if (!var->hasInit())
      return (void)error(var->getLocation(), "a pointer variable needs an initializer");
    std::optional<Pointer> init = pointer(var->getInit());
    if (!init)
      return;
    slot.kind = Slot::PointerVar;
    slot.base = init->base;
    slot.width = init->width;
    slot.offsetSlot = allocaAtEntry(MemRefType::get({}, b.getIndexType()), l);
    store(init->offset, slot.offsetSlot, l);
    vars[var] = slot;
    return;
  }
  Type type = scalarType(t, var->getLocation());
  if (hadError)
    return;
  slot.storage = allocaAtEntry(MemRefType::get({}, type), l);
  vars[var] = slot;
  if (var->hasInit()) {
    const clang::Expr *init = var->getInit();
    if (isa<clang::InitListExpr, clang::CXXConstructExpr>(init) && !isValueClass(t))
      return (void)error(init, "this initializer is outside the supported subset");
    Value v = rvalue(init);
    if (!v)
      return;
    Value converted = convert(v, init->getType(), t, init);
    nameAfter(converted, var);
    store(converted, slot.storage, l);
  }
}

void FunctionEmitter::emitIf(const clang::IfStmt *s) {
  if (s->getInit() || s->getConditionVariable())
    return (void)error(s, "declarations in an 'if' condition are not supported yet");
  Value c = condition(s->getCond());
  if (!c)
    return;
  Block *thenBlock = newBlock(), *merge = newBlock();
  Block *elseBlock = s->getElse() ? newBlock() : merge;
  cf::CondBranchOp::create(b, loc(s), c, thenBlock, elseBlock);
  startBlock(thenBlock);
  emitStmt(s->getThen());
  branchTo(merge, loc(s->getThen()->getEndLoc()));
  if (s->getElse()) {
    startBlock(elseBlock);
    emitStmt(s->getElse());
    branchTo(merge, loc(s->getElse()->getEndLoc()));
  }
  startBlock(merge);
}

void FunctionEmitter::emitFor(const clang::ForStmt *s) {
  emitStmt(s->getInit());
  Block *header = newBlock(), *body = newBlock(), *latch = newBlock(), *exit = newBlock();
  branchTo(header, loc(s));
  startBlock(header);
  if (s->getCond()) {
    Value c = condition(s->getCond());
    if (!c)
      return;
    cf::CondBranchOp::create(b, loc(s->getCond()), c, body, exit);
  } else {
    branchTo(body, loc(s));
  }
  startBlock(body);
  loops.push_back({latch, exit});
  emitStmt(s->getBody());
  loops.pop_back();
  branchTo(latch, loc(s->getEndLoc()));
  startBlock(latch);
  if (s->getInc())
    rvalue(s->getInc());
  branchTo(header, loc(s->getEndLoc()));
  startBlock(exit);
}

void FunctionEmitter::emitWhile(const clang::WhileStmt *s) {
  Block *header = newBlock(), *body = newBlock(), *exit = newBlock();
  branchTo(header, loc(s));
  startBlock(header);
  Value c = condition(s->getCond());
  if (!c)
    return;
  cf::CondBranchOp::create(b, loc(s->getCond()), c, body, exit);
  startBlock(body);
  loops.push_back({header, exit});
  emitStmt(s->getBody());
  loops.pop_back();
  branchTo(header, loc(s->getEndLoc()));
  startBlock(exit);
}

void FunctionEmitter::emitDo(const clang::DoStmt *s) {
  Block *body = newBlock(), *latch = newBlock(), *exit = newBlock();
  branchTo(body, loc(s));
  startBlock(body);
  loops.push_back({latch, exit});
  emitStmt(s->getBody());
  loops.pop_back();
  branchTo(latch, loc(s->getCond()));
  startBlock(latch);
  Value c = condition(s->getCond());
  if (!c)
    return;
  cf::CondBranchOp::create(b, loc(s->getCond()), c, body, exit);
  startBlock(exit);
}

void FunctionEmitter::emitReturn(const clang::ReturnStmt *s) {
  if (!inlineStack.empty()) {
    InlineFrame &frame = inlineStack.back();
    if (const clang::Expr *value = s->getRetValue()) {
      Value v = rvalue(value); // also for `return voidCall();`
      if (hadError)
        return;
      if (v && frame.resultSlot)
        store(convert(v, value->getType(), frame.fn->getReturnType(), value), frame.resultSlot,
              loc(s));
    }
    branchTo(frame.exit, loc(s));
  } else {
    if (const clang::Expr *value = s->getRetValue())
      rvalue(value); // `return voidCall();` in a kernel
    if (hadError)
      return;
    branchTo(returnBlock, loc(s));
  }
  startBlock(newBlock());
}

//===----------------------------------------------------------------------===//
// Expressions
