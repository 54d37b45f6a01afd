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
    if (loops.empty() || (isa<clang::ContinueStmt>(s) && !loops.back().continueDest)) {
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
  if (auto *sw = dyn_cast<clang::SwitchStmt>(s))
    return emitSwitch(sw);
  if (auto *label = dyn_cast<clang::SwitchCase>(s)) {
    // A case label: fall through into its block.
    auto it = caseBlocks.find(label);
    if (it == caseBlocks.end())
      return (void)error(s, "a case label outside its switch");
    branchTo(it->second, loc(s));
    startBlock(it->second);
    return emitStmt(label->getSubStmt());
  }
  error(s, std::string("statement '") + s->getStmtClassName() + "' is outside the supported subset");
}

MemRefType FunctionEmitter::arrayType(const clang::VarDecl *var, Attribute memorySpace) {
  SmallVector<int64_t> shape;
  clang::QualType elem = var->getType();
  while (const auto *a = ast.getAsConstantArrayType(elem)) {
    shape.push_back(a->getSize().getSExtValue());
    elem = a->getElementType();
  }
  if (llvm::is_contained(shape, 0))
    return error(var->getLocation(), "zero-length arrays are not allowed (nvcc rejects them)");
  Type elemType = scalarType(elem, var->getLocation());
  if (hadError)
    return nullptr;
  return MemRefType::get(shape, elemType, nullptr, memorySpace);
}

void FunctionEmitter::initializeArray(Value array, const clang::InitListExpr *list,
                                      SmallVector<Value> &indices) {
  // C: what the list leaves out (a null `list`: all of it) is zero.
  auto type = cast<MemRefType>(array.getType());
  int64_t dim = indices.size();
  Location l = list ? loc(list) : array.getLoc();
  for (int64_t i = 0; i < type.getDimSize(dim) && !hadError; ++i) {
    const clang::Expr *init = list && i < list->getNumInits() ? list->getInit(i) : nullptr;
    if (init && isa<clang::ImplicitValueInitExpr>(init))
      init = nullptr;
    indices.push_back(indexConst(i, l));
    if (dim + 1 < type.getRank()) {
      auto *inner = init ? dyn_cast<clang::InitListExpr>(init->IgnoreImplicit()) : nullptr;
      if (init && !inner)
        error(init, "initialize each row of a multi-dimensional array with its own braces");
      else
        initializeArray(array, inner, indices);
    } else {
      Type elem = type.getElementType();
      Value v = init ? convert(rvalue(init), init->getType(),
                               list->getType()->getAsArrayTypeUnsafe()->getElementType(), init)
            : isa<FloatType>(elem) ? Value(arith::ConstantOp::create(b, l, b.getFloatAttr(elem, 0)))
                                   : Value(arith::ConstantOp::create(b, l, b.getIntegerAttr(elem, 0)));
      if (v)
        memref::StoreOp::create(b, l, v, array, indices);
    }
    indices.pop_back();
  }
}

void FunctionEmitter::emitDecl(const clang::VarDecl *var) {
  Location l = loc(var->getLocation());
  clang::QualType t = var->getType();
  if (var->isStaticLocal() && !var->hasAttr<clang::CUDASharedAttr>())
    return (void)error(var->getLocation(), "static local variables are outside the supported subset");
  if (emitSpecialDecl(var))
    return;
  // An object with no data (SharedMemory<T> smem;) needs no storage: what
  // is called on it is handled where it is called.
  if (const clang::CXXRecordDecl *record = t->getAsCXXRecordDecl();
      record && record->field_empty() && !record->isPolymorphic() && !isValueClass(t))
    return;
  if (ast.getAsConstantArrayType(t)) {
    // Local arrays live in private memory.
    if (MemRefType type = arrayType(var, /*memorySpace=*/nullptr)) {
      Slot slot;
      slot.kind = Slot::Array;
      // The array's name rides on its location, for the exporter.
      slot.storage = allocaAtEntry(type, NameLoc::get(b.getStringAttr(var->getName()), l));
      vars[var] = slot;
      if (var->hasInit()) {
        // float w[3] = {0.25f, 0.5f, 0.25f}: one store per element, here.
        auto *list = dyn_cast<clang::InitListExpr>(var->getInit()->IgnoreImplicit());
        if (!list || !type.getElementType().isIntOrFloat())
          return (void)error(var->getLocation(), "this array initializer is outside the "
                                                 "supported subset (a braced list of scalars)");
        SmallVector<Value> indices;
        initializeArray(slot.storage, list, indices);
      }
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

/// The case labels of a switch body, not those of switches nested in it.
static void collectCases(const clang::Stmt *s, SmallVectorImpl<const clang::SwitchCase *> &cases) {
  if (!s || isa<clang::SwitchStmt>(s))
    return;
  if (auto *label = dyn_cast<clang::SwitchCase>(s))
    cases.push_back(label);
  for (const clang::Stmt *child : s->children())
    collectCases(child, cases);
}

void FunctionEmitter::emitSwitch(const clang::SwitchStmt *s) {
  // A cf.switch to one block per label; `break` leaves to the exit, the
  // labels fall through as in C. The structuring lifts it to
  // scf.index_switch.
  if (s->getInit() || s->getConditionVariable())
    return (void)error(s, "declarations in a 'switch' condition are not supported yet");
  Value flag = rvalue(s->getCond());
  if (!flag)
    return;
  SmallVector<const clang::SwitchCase *> cases;
  collectCases(s->getBody(), cases);
  Block *exit = newBlock(), *defaultDest = exit;
  SmallVector<APInt> values;
  SmallVector<Block *> dests;
  for (const clang::SwitchCase *label : cases) {
    Block *block = newBlock();
    caseBlocks[label] = block;
    if (isa<clang::DefaultStmt>(label)) {
      defaultDest = block;
      continue;
    }
    auto *c = cast<clang::CaseStmt>(label);
    if (c->caseStmtIsGNURange())
      return (void)error(c, "case ranges are outside the supported subset");
    values.push_back(c->getLHS()->EvaluateKnownConstInt(ast).extOrTrunc(
        flag.getType().getIntOrFloatBitWidth()));
    dests.push_back(block);
  }
  SmallVector<ValueRange> operands(dests.size(), ValueRange{});
  cf::SwitchOp::create(b, loc(s), flag, defaultDest, ValueRange{}, values, dests, operands);
  startBlock(newBlock()); // code before the first label is unreachable
  loops.push_back({loops.empty() ? nullptr : loops.back().continueDest, exit});
  emitStmt(s->getBody());
  loops.pop_back();
  branchTo(exit, loc(s->getEndLoc()));
  startBlock(exit);
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
