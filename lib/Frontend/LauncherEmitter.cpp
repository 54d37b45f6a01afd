//===- LauncherEmitter.cpp - Host functions that launch kernels -----------===//
//
// A host function that launches kernels becomes a func.func launcher that
// holds its launch slice: the launches in their order, the control flow
// around them, and the scalar computation their grid, block, shared memory
// and arguments depend on (dim3 variables, sizes, casts, loops of launches).
// Everything else on the host — allocation, copies, timing, I/O, CPU
// references — is skipped. What the slice cannot compute becomes a named
// parameter, never a guess: a scalar variable written by skipped code takes
// the value of a parameter named after it from there on (CUDAImporter.cpp
// drops the unused ones and says which remain), and each device buffer the
// function holds in a variable of its own (cudaMalloc) is a buffer
// parameter of the type its kernels take.
//
//===----------------------------------------------------------------------===//

#include "FunctionEmitter.h"
#include "kernelskill/Dialect/KS/IR/KSDialect.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::ks::frontend;

//===----------------------------------------------------------------------===//
// What the slice can compute
//===----------------------------------------------------------------------===//

bool mlir::ks::frontend::containsLaunch(const clang::Stmt *s) {
  if (!s)
    return false;
  if (isa<clang::CUDAKernelCallExpr>(s))
    return true;
  for (const clang::Stmt *child : s->children())
    if (containsLaunch(child))
      return true;
  return false;
}

namespace {
/// A C type the launcher holds as a scalar value.
bool isScalarValue(clang::QualType t) {
  t = t.getCanonicalType();
  if (t->isEnumeralType() || isValueClass(t))
    return true;
  return t->isBuiltinType() && (t->isIntegerType() || t->isRealFloatingType());
}

/// A variable of the host function (or one of its parameters) whose value
/// the slice holds: scalars and dim3.
bool isSliceVariable(const clang::ValueDecl *d) {
  auto *var = dyn_cast_or_null<clang::VarDecl>(d);
  return var && var->hasLocalStorage() && (isScalarValue(var->getType()) || isDim3(var->getType()));
}

/// A parameter of the host function that holds a struct (or a dim3) by value
/// or by const reference: its scalar members are launcher parameters.
bool isRecordParameter(const clang::ValueDecl *d) {
  auto *param = dyn_cast_or_null<clang::ParmVarDecl>(d);
  if (!param)
    return false;
  clang::QualType t = param->getType();
  if (t->isReferenceType()) {
    if (!t->getPointeeType().isConstQualified())
      return false;
    t = t->getPointeeType();
  }
  return t.getCanonicalType()->isRecordType() && !isScalarValue(t);
}

/// The variable `e` names once pointer casts and parentheses are stripped.
const clang::VarDecl *pointerVariable(const clang::Expr *e) {
  while (true) {
    e = e->IgnoreParens();
    auto *cast = dyn_cast<clang::CastExpr>(e);
    if (!cast || !cast->getType()->isPointerType() ||
        !cast->getSubExpr()->getType()->isPointerType())
      break;
    e = cast->getSubExpr();
  }
  auto *ref = dyn_cast<clang::DeclRefExpr>(e);
  return ref ? dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
}

bool isSliceable(const clang::Expr *e, clang::ASTContext &ast, int depth = 0);

/// Declarations the slice can emit: scalars and dim3s, not static, with
/// initializers it can compute (a helper's locals, a loop's counter).
bool isSliceableDecl(const clang::DeclStmt *d, clang::ASTContext &ast, int depth) {
  return llvm::all_of(d->decls(), [&](const clang::Decl *decl) {
    auto *var = dyn_cast<clang::VarDecl>(decl);
    return var && !var->isStaticLocal() &&
           (isScalarValue(var->getType()) || isDim3(var->getType())) &&
           (!var->hasInit() || isSliceable(var->getInit(), ast, depth));
  });
}

/// A host helper of the user's that the slice inlines: scalar parameters
/// and result, and a body of declarations, `if`s and returns of what the
/// slice can compute (`int divUp(int a, int b) { return (a + b - 1) / b; }`).
bool sliceableHelper(const clang::FunctionDecl *fn, clang::ASTContext &ast, int depth) {
  if (!fn || depth > 4 || fn->getBuiltinID() || fn->isVariadic() ||
      fn->hasAttr<clang::CUDAGlobalAttr>() || isa<clang::CXXMethodDecl>(fn))
    return false;
  if (const clang::FunctionDecl *definition = fn->getDefinition())
    fn = definition;
  if (!fn->hasBody() || ast.getSourceManager().isInSystemHeader(fn->getLocation()) ||
      !isScalarValue(fn->getReturnType()))
    return false;
  for (const clang::ParmVarDecl *p : fn->parameters())
    if (!isScalarValue(p->getType()))
      return false;
  std::function<bool(const clang::Stmt *)> stmtOk = [&](const clang::Stmt *s) -> bool {
    if (!s || isa<clang::NullStmt>(s))
      return true;
    if (auto *c = dyn_cast<clang::CompoundStmt>(s))
      return llvm::all_of(c->body(), stmtOk);
    if (auto *r = dyn_cast<clang::ReturnStmt>(s))
      return r->getRetValue() && isSliceable(r->getRetValue(), ast, depth + 1);
    if (auto *d = dyn_cast<clang::DeclStmt>(s))
      return isSliceableDecl(d, ast, depth + 1);
    if (auto *i = dyn_cast<clang::IfStmt>(s))
      return !i->getInit() && !i->getConditionVariable() &&
             isSliceable(i->getCond(), ast, depth + 1) && stmtOk(i->getThen()) &&
             stmtOk(i->getElse());
    if (auto *e = dyn_cast<clang::Expr>(s))
      return isSliceable(e, ast, depth + 1);
    return false;
  };
  return stmtOk(fn->getBody());
}

/// Whether the launch slice can compute `e` from the function's scalar
/// variables: constants, arithmetic, comparisons, casts between scalars,
/// `?:`, dim3 construction and members, calls of helpers it can inline
/// (isSliceableHelper), launches of such arguments. Other calls, host
/// memory and pointer arithmetic are not.
bool isSliceable(const clang::Expr *e, clang::ASTContext &ast, int depth) {
  if (!e)
    return true;
  e = e->IgnoreParens();
  if (e->isValueDependent())
    return false;
  if (e->getType()->isIntegerType() && !isa<clang::CallExpr>(e) && e->isIntegerConstantExpr(ast))
    return true;
  auto all = [&](auto range) {
    return llvm::all_of(range, [&](const clang::Stmt *c) {
      return isSliceable(dyn_cast_or_null<clang::Expr>(c), ast, depth);
    });
  };
  if (isa<clang::IntegerLiteral, clang::FloatingLiteral, clang::CharacterLiteral,
          clang::CXXBoolLiteralExpr, clang::UnaryExprOrTypeTraitExpr, clang::CXXDefaultArgExpr>(e))
    return true;
  if (auto *ref = dyn_cast<clang::DeclRefExpr>(e))
    return isa<clang::EnumConstantDecl>(ref->getDecl()) || isSliceVariable(ref->getDecl());
  if (auto *cast = dyn_cast<clang::CastExpr>(e)) {
    if (cast->getType()->isPointerType() || cast->getSubExpr()->getType()->isPointerType())
      return false;
    return isSliceable(cast->getSubExpr(), ast, depth);
  }
  if (auto *bin = dyn_cast<clang::BinaryOperator>(e)) {
    if (bin->getLHS()->getType()->isPointerType() || bin->getRHS()->getType()->isPointerType())
      return false;
    return isSliceable(bin->getLHS(), ast, depth) && isSliceable(bin->getRHS(), ast, depth);
  }
  if (auto *unary = dyn_cast<clang::UnaryOperator>(e))
    return unary->getOpcode() != clang::UO_Deref && unary->getOpcode() != clang::UO_AddrOf &&
           !unary->getSubExpr()->getType()->isPointerType() && isSliceable(unary->getSubExpr(), ast, depth);
  if (auto *member = dyn_cast<clang::MemberExpr>(e)) {
    auto *ref = dyn_cast<clang::DeclRefExpr>(member->getBase()->IgnoreParenImpCasts());
    return ref && ((isDim3(ref->getType()) && isSliceVariable(ref->getDecl())) ||
                   (isRecordParameter(ref->getDecl()) && isScalarValue(member->getType())));
  }
  if (auto *construct = dyn_cast<clang::CXXConstructExpr>(e))
    return (isDim3(e->getType()) || isValueClass(e->getType())) && all(construct->arguments());
  if (auto *launch = dyn_cast<clang::CUDAKernelCallExpr>(e)) {
    const clang::CallExpr *config = launch->getConfig();
    for (unsigned i = 0; i < config->getNumArgs() && i < 3; ++i)
      if (!isSliceable(config->getArg(i), ast, depth))
        return false;
    // Buffers are the launch's to resolve (with its own errors for what it
    // cannot: offsets into host buffers, calls); scalars must be sliceable.
    for (const clang::Expr *arg : launch->arguments())
      if (!arg->getType()->isPointerType() && !isSliceable(arg, ast, depth))
        return false;
    return true;
  }
  if (auto *call = dyn_cast<clang::CallExpr>(e);
      call && !isa<clang::CUDAKernelCallExpr, clang::CXXOperatorCallExpr>(e))
    return sliceableHelper(call->getDirectCallee(), ast, depth) && all(call->arguments());
  if (isa<clang::ConditionalOperator, clang::InitListExpr, clang::MaterializeTemporaryExpr,
          clang::ExprWithCleanups, clang::CXXBindTemporaryExpr>(e))
    return all(e->children());
  return false;
}

} // namespace

namespace {
/// Statements the slice computes as they are: expressions it can compute,
/// and `if`s of them (no declarations: their scope ends with the branch).
bool sliceableStatement(const clang::Stmt *s, clang::ASTContext &ast) {
  if (!s || isa<clang::NullStmt>(s))
    return true;
  if (auto *c = dyn_cast<clang::CompoundStmt>(s))
    return llvm::all_of(c->body(), [&](const clang::Stmt *x) { return sliceableStatement(x, ast); });
  if (auto *i = dyn_cast<clang::IfStmt>(s))
    return !i->getInit() && !i->getConditionVariable() && !i->isConsteval() &&
           isSliceable(i->getCond(), ast) && sliceableStatement(i->getThen(), ast) &&
           sliceableStatement(i->getElse(), ast);
  if (auto *e = dyn_cast<clang::Expr>(s))
    return isSliceable(e, ast);
  return false;
}
} // namespace

bool mlir::ks::frontend::isSliceableHelper(const clang::FunctionDecl *fn, clang::ASTContext &ast) {
  return sliceableHelper(fn, ast, 0);
}

namespace {
/// The local variables `s` may write: assigned, incremented, declared,
/// passed by address or by non-const reference.
class WrittenVariables : public clang::RecursiveASTVisitor<WrittenVariables> {
public:
  /// With `assignedOnly`, only assignments and increments (not what passing
  /// by address or reference may do): what reassigns a pointer variable.
  explicit WrittenVariables(bool assignedOnly = false) : assignedOnly(assignedOnly) {}
  bool VisitBinaryOperator(clang::BinaryOperator *e) {
    if (e->isAssignmentOp())
      add(e->getLHS());
    return true;
  }
  bool VisitUnaryOperator(clang::UnaryOperator *e) {
    if (e->isIncrementDecrementOp() || (!assignedOnly && e->getOpcode() == clang::UO_AddrOf))
      add(e->getSubExpr());
    return true;
  }
  bool VisitVarDecl(clang::VarDecl *var) {
    if (!assignedOnly && var->hasLocalStorage())
      written.insert({var, var->getLocation()});
    return true;
  }
  bool VisitCallExpr(clang::CallExpr *e) {
    // std::swap(a, b) and anything else that takes a non-const reference.
    const clang::FunctionDecl *callee = e->getDirectCallee();
    if (!callee)
      return true;
    if (const clang::IdentifierInfo *id = callee->getIdentifier();
        id && (id->getName().starts_with("cudaMemcpyToSymbol") ||
               id->getName().starts_with("cudaMemcpyFromSymbol")))
      symbolCopies.push_back(e);
    for (auto [param, arg] : llvm::zip(callee->parameters(), e->arguments()))
      if (param->getType()->isReferenceType() &&
          !param->getType()->getPointeeType().isConstQualified())
        add(arg);
    return true;
  }
  llvm::MapVector<const clang::VarDecl *, clang::SourceLocation> written;
  /// cudaMemcpyToSymbol and cudaMemcpyFromSymbol calls (and their Async
  /// forms), in source order.
  SmallVector<const clang::CallExpr *> symbolCopies;

private:
  bool assignedOnly;
  void add(const clang::Expr *e) {
    e = e->IgnoreParenImpCasts();
    if (auto *member = dyn_cast<clang::MemberExpr>(e))
      e = member->getBase()->IgnoreParenImpCasts();
    if (auto *ref = dyn_cast<clang::DeclRefExpr>(e))
      if (auto *var = dyn_cast<clang::VarDecl>(ref->getDecl()); var && var->hasLocalStorage())
        written.insert({var, e->getBeginLoc()});
  }
};

/// The local pointer variables a function uses only to allocate a device
/// buffer (cudaMalloc(&p, ...), no initializer but a null pointer), to pass
/// it to its kernels and to free it: nothing on the host reads the buffer,
/// so what a kernel stores there only its kernels see. Any other use (a
/// copy, a memset, a call, arithmetic, a host read) disqualifies it.
class ScratchBuffers : public clang::RecursiveASTVisitor<ScratchBuffers> {
public:
  bool VisitCallExpr(clang::CallExpr *e) {
    // The variable reference `arg` is (or takes the address of), allowed.
    auto allow = [&](const clang::Expr *arg, bool addressOf) -> const clang::DeclRefExpr * {
      arg = arg->IgnoreParenCasts();
      if (addressOf) {
        auto *unary = dyn_cast<clang::UnaryOperator>(arg);
        if (!unary || unary->getOpcode() != clang::UO_AddrOf)
          return nullptr;
        arg = unary->getSubExpr()->IgnoreParenCasts();
      }
      auto *ref = dyn_cast<clang::DeclRefExpr>(arg);
      if (ref)
        allowed.insert(ref);
      return ref;
    };
    if (isa<clang::CUDAKernelCallExpr>(e)) {
      for (const clang::Expr *arg : e->arguments())
        allow(arg, /*addressOf=*/false);
      return true;
    }
    const clang::FunctionDecl *callee = e->getDirectCallee();
    if (!callee || !callee->getIdentifier() || e->getNumArgs() == 0)
      return true;
    StringRef name = callee->getName();
    if (name == "cudaMalloc" || name == "cudaMallocAsync") {
      if (const clang::DeclRefExpr *ref = allow(e->getArg(0), /*addressOf=*/true))
        if (auto *var = dyn_cast<clang::VarDecl>(ref->getDecl()))
          allocatedVars.insert(var);
    }
    else if (name == "cudaFree" || name == "cudaFreeAsync")
      allow(e->getArg(0), /*addressOf=*/false);
    return true;
  }
  bool VisitDeclRefExpr(clang::DeclRefExpr *ref) {
    auto *var = dyn_cast<clang::VarDecl>(ref->getDecl());
    if (!var || !var->hasLocalStorage() || !var->getType()->isPointerType())
      return true;
    if (allowed.count(ref))
      candidates.insert(var);
    else
      disqualified.insert(var);
    return true;
  }
  bool VisitVarDecl(clang::VarDecl *var) {
    if (const clang::Expr *init = var->getInit();
        init && !init->IgnoreParenCasts()->isNullPointerConstant(
                    var->getASTContext(), clang::Expr::NPC_ValueDependentIsNotNull)) {
      disqualified.insert(var);
      initialized.insert(var);
    }
    return true;
  }
  /// The variables every use of which is allowed.
  llvm::DenseSet<const clang::VarDecl *> scratch() const {
    llvm::DenseSet<const clang::VarDecl *> out;
    for (const clang::VarDecl *var : candidates)
      if (!disqualified.count(var) && allocatedVars.count(var))
        out.insert(var);
    return out;
  }
  /// The variables that hold a device allocation of the function's own
  /// (cudaMalloc(&p), no other initializer): it overlaps no other buffer.
  llvm::DenseSet<const clang::VarDecl *> allocated() const {
    llvm::DenseSet<const clang::VarDecl *> out;
    for (const clang::VarDecl *var : allocatedVars)
      if (!initialized.count(var))
        out.insert(var);
    return out;
  }

private:
  llvm::DenseSet<const clang::DeclRefExpr *> allowed;
  llvm::DenseSet<const clang::VarDecl *> allocatedVars, initialized;
  llvm::SetVector<const clang::VarDecl *> candidates;
  llvm::DenseSet<const clang::VarDecl *> disqualified;
};
} // namespace

//===----------------------------------------------------------------------===//
// The launcher
//===----------------------------------------------------------------------===//

bool LauncherEmitter::emitLauncher(const clang::FunctionDecl *fn, ModuleOp module) {
  host = fn;
  recordMembers.clear();
  writtenParams.clear();
  recordParamsChecked = false;
  Location l = loc(fn->getBeginLoc());
  // The parameters the launcher can take: device pointers and scalars. The
  // others (main's argv, structs, references) are left out; a launch of
  // what they hold gets its own parameter.
  SmallVector<const clang::ParmVarDecl *> params;
  SmallVector<Type> types;
  for (const clang::ParmVarDecl *p : fn->parameters()) {
    clang::QualType t = p->getType();
    bool buffer = t->isPointerType() && isScalarValue(t->getPointeeType()) &&
                  !(vectorRecord(t->getPointeeType()) && vectorRecord(t->getPointeeType())->second == 3);
    if (!buffer && !isScalarValue(t))
      continue;
    Type elem = scalarType(buffer ? t->getPointeeType() : t, p->getLocation());
    types.push_back(buffer ? Type(MemRefType::get({ShapedType::kDynamic}, elem)) : elem);
    params.push_back(p);
  }
  if (hadError)
    return false;
  b.setInsertionPointToEnd(module.getBody());
  launcher = func::FuncOp::create(b, l, kernelName(fn), b.getFunctionType(types, {}));
  for (auto [i, p] : llvm::enumerate(params)) {
    launcher.setArgAttr(i, kNameAttrName, b.getStringAttr(p->getName()));
    // A __restrict__ pointer of the launcher: the buffers its kernels reach
    // through it overlap no other parameter's (ks-fuse-launches relies on it).
    if (p->getType().isRestrictQualified())
      launcher.setArgAttr(i, "ks.restrict", b.getUnitAttr());
    // The source's `const T *`: the exported launcher keeps its prototype,
    // so callers compiled against the original link against it.
    if (p->getType()->isPointerType() && p->getType()->getPointeeType().isConstQualified())
      launcher.setArgAttr(i, "ks.const", b.getUnitAttr());
  }
  // Buffers that host code reassigns (ping-pong swaps): which one a launch
  // gets then depends on the iteration, which the slice does not follow.
  WrittenVariables assigned(/*assignedOnly=*/true);
  assigned.TraverseStmt(const_cast<clang::Stmt *>(fn->getBody()));
  for (auto [var, where] : assigned.written)
    if (var->getType()->isPointerType())
      reassignedBuffers.insert({var, where});
  ScratchBuffers scratch;
  scratch.TraverseStmt(const_cast<clang::Stmt *>(fn->getBody()));
  scratchBuffers = scratch.scratch();
  allocatedBuffers = scratch.allocated();
  Block *entryBlock = launcher.addEntryBlock();
  return emitBody(fn, params, launcher.getBody(), entryBlock, launcher.getArguments(),
                  /*pointerOffsets=*/false, [&](Location end) { func::ReturnOp::create(b, end); });
}

Value LauncherEmitter::addParameter(Type type, StringRef name, Location l, bool hostValue) {
  // Names stay unique among the launcher's parameters.
  std::string unique = name.str();
  auto taken = [&](StringRef candidate) {
    for (unsigned i = 0; i < launcher.getNumArguments(); ++i)
      if (auto n = launcher.getArgAttrOfType<StringAttr>(i, kNameAttrName);
          n && n.getValue() == candidate)
        return true;
    return false;
  };
  for (int k = 2; taken(unique); ++k)
    unique = (name + "_" + Twine(k)).str();
  SmallVector<NamedAttribute> attrs = {b.getNamedAttr(kNameAttrName, b.getStringAttr(unique))};
  if (hostValue)
    attrs.push_back(b.getNamedAttr("ks.host_value", b.getUnitAttr()));
  unsigned index = launcher.getNumArguments();
  (void)launcher.insertArgument(index, type, b.getDictionaryAttr(attrs), l);
  return launcher.getArgument(index);
}

void LauncherEmitter::skip(const clang::Stmt *s) {
  WrittenVariables finder;
  finder.TraverseStmt(const_cast<clang::Stmt *>(s));
  for (auto [var, where] : finder.written)
    if (!hadError)
      setByHostCode(var, where);
  for (const clang::CallExpr *call : finder.symbolCopies)
    noteSymbolCopy(call);
}

void LauncherEmitter::noteSymbolCopy(const clang::CallExpr *call) {
  const clang::SourceManager &sm = ast.getSourceManager();
  // The call as written, also inside an error-checking macro's argument.
  clang::CharSourceRange range = clang::Lexer::makeFileCharRange(
      clang::CharSourceRange::getTokenRange(call->getSourceRange()), sm, ast.getLangOpts());
  std::string written =
      range.isValid()
          ? clang::Lexer::getSourceText(range, sm, ast.getLangOpts()).str()
          : call->getDirectCallee()->getName().str() + "(...)";
  // On one line: line breaks (and a macro's continuations) become spaces.
  std::string text;
  for (size_t i = 0; i < written.size(); ++i) {
    char c = written[i];
    if (c == '\\' && i + 1 < written.size() && (written[i + 1] == '\n' || written[i + 1] == '\r'))
      continue;
    bool space = c == ' ' || c == '\t' || c == '\n' || c == '\r';
    if (space && (text.empty() || text.back() == ' '))
      continue;
    text += space ? ' ' : c;
  }
  while (!text.empty() && text.back() == ' ')
    text.pop_back();
  bool from = call->getDirectCallee()->getName().starts_with("cudaMemcpyFromSymbol");
  SmallVector<Attribute> copies;
  if (auto known = launcher->getAttrOfType<ArrayAttr>(kHostSymbolCopiesAttrName))
    llvm::append_range(copies, known);
  copies.push_back(b.getStringAttr(text));
  launcher->setAttr(kHostSymbolCopiesAttrName, b.getArrayAttr(copies));
  mlir::emitWarning(loc(call))
      << "'" << text << "' is host code outside the launch slice: the launcher @"
      << launcher.getName() << " does not run it; call it "
      << (from ? "after" : "before") << " the launcher, as the source does";
}

void LauncherEmitter::setByHostCode(const clang::VarDecl *var, clang::SourceLocation where) {
  if (isDim3(var->getType())) {
    opaqueDims.insert({var, where});
    return;
  }
  if (!isScalarValue(var->getType()))
    return; // buffers and host data: not the slice's
  Location l = loc(where);
  Value &param = hostValues[var];
  if (!param) {
    Type type = scalarType(var->getType(), var->getLocation());
    if (hadError)
      return;
    // The variable's own name rides on the location: the parameter's
    // may have been made unique (n_2 beside a parameter n).
    param = addParameter(type, var->getName(),
                         NameLoc::get(b.getStringAttr(var->getName()), loc(var->getLocation())),
                         /*hostValue=*/true);
  }
  Slot &slot = vars[var];
  if (!slot.storage)
    slot.storage = allocaAtEntry(MemRefType::get({}, param.getType()), l);
  store(param, slot.storage, l);
}

void LauncherEmitter::emitStmt(const clang::Stmt *s) {
  if (hadError || !s)
    return;
  // An inlined helper is sliceable as a whole (isSliceableHelper): every
  // statement of it is emitted, its returns leave the helper.
  if (!inlineStack.empty())
    return FunctionEmitter::emitStmt(s);
  if (auto *compound = dyn_cast<clang::CompoundStmt>(s)) {
    for (const clang::Stmt *child : compound->body())
      emitStmt(child);
    return;
  }
  if (auto *attributed = dyn_cast<clang::AttributedStmt>(s))
    return emitStmt(attributed->getSubStmt());
  if (isa<clang::NullStmt>(s))
    return;
  bool launches = containsLaunch(s);
  if (isa<clang::ReturnStmt>(s)) {
    // The launcher returns nothing: the value (an error code, main's exit
    // status) is host code's.
    if (launches)
      return (void)error(s, "a launch in a return value is outside the launch slice");
    branchTo(returnBlock, loc(s));
    startBlock(newBlock());
    return;
  }
  if (isa<clang::BreakStmt, clang::ContinueStmt>(s))
    return FunctionEmitter::emitStmt(s); // only reached in loops the slice keeps
  if (auto *decl = dyn_cast<clang::DeclStmt>(s)) {
    for (const clang::Decl *d : decl->decls()) {
      auto *var = dyn_cast<clang::VarDecl>(d);
      if (!var)
        continue;
      clang::QualType t = var->getType();
      const clang::Expr *init = var->hasInit() ? var->getInit() : nullptr;
      // A pointer that aliases a launcher parameter (float *p = in) is
      // followed; host and device buffers of the function's own are
      // resolved at the launches that use them.
      if (t->isPointerType()) {
        const clang::VarDecl *source = init ? pointerVariable(init) : nullptr;
        if (source && vars.count(source))
          emitDecl(var);
        continue;
      }
      if (!isScalarValue(t) && !isDim3(t))
        continue; // host arrays, structs, events, streams
      // Only this variable: the others of the declaration are emitted or
      // set by host code on their own.
      if (var->isStaticLocal() || (init && !isSliceable(init, ast))) {
        if (init)
          skip(init); // what the initializer itself writes
        setByHostCode(var, var->getLocation());
      } else
        emitDecl(var);
    }
    return;
  }
  if (auto *e = dyn_cast<clang::Expr>(s)) {
    if (isSliceable(e, ast))
      return (void)rvalue(e);
    if (launches)
      return (void)error(s, "this launch is part of an expression the launch slice cannot compute "
                            "(launch kernels in statements of their own)");
    return skip(s);
  }
  // Control flow is kept where it has launches in it; elsewhere it is host
  // code (error checks, CPU loops) and skipped, except an `if` of slice
  // arithmetic alone (a clamp, `if (blocks > 1024) blocks = 1024;`): skipped,
  // the variable it sets would become a parameter of the launcher, which
  // then no longer has the source's prototype.
  if (!launches && isa<clang::IfStmt>(s) && sliceableStatement(s, ast))
    return FunctionEmitter::emitStmt(s);
  if (!launches)
    return skip(s);
  auto sliceable = [&](const clang::Stmt *part) {
    if (!part)
      return true;
    if (auto *d = dyn_cast<clang::DeclStmt>(part))
      return isSliceableDecl(d, ast, 0);
    auto *e = dyn_cast<clang::Expr>(part);
    return e && isSliceable(e, ast);
  };
  const clang::Stmt *parts[3] = {nullptr, nullptr, nullptr};
  if (auto *f = dyn_cast<clang::ForStmt>(s))
    parts[0] = f->getInit(), parts[1] = f->getCond(), parts[2] = f->getInc();
  else if (auto *w = dyn_cast<clang::WhileStmt>(s))
    parts[0] = w->getConditionVariableDeclStmt() ? s : nullptr, parts[1] = w->getCond();
  else if (auto *d = dyn_cast<clang::DoStmt>(s))
    parts[1] = d->getCond();
  else if (auto *i = dyn_cast<clang::IfStmt>(s))
    parts[0] = i->getInit() || i->getConditionVariable() ? s : nullptr, parts[1] = i->getCond();
  else
    return (void)error(s, std::string("launches inside a '") + s->getStmtClassName() +
                              "' are outside the launch slice");
  for (const clang::Stmt *part : parts)
    if (part == s || !sliceable(part))
      return (void)error(part == s ? s : part,
                         "the launches here depend on a condition or loop bound the launch slice "
                         "cannot compute (calls or host memory): compute it into a variable first");
  FunctionEmitter::emitStmt(s);
}

Value LauncherEmitter::launchBuffer(const clang::Expr *arg, MemRefType expected) {
  const clang::VarDecl *var = pointerVariable(arg);
  if (var && !vars.count(var)) {
    // A device buffer the function holds itself (cudaMalloc'd, or a
    // parameter of a type the launcher cannot take): a buffer parameter of
    // the type the kernel takes, so a launch-site cast (float4 *)x is the
    // parameter's type.
    if (auto it = reassignedBuffers.find(var); it != reassignedBuffers.end()) {
      error(arg, "'" + var->getName() + "' is reassigned by host code (at line " +
                     Twine(sm.getPresumedLineNumber(it->second)) +
                     "), so which buffer each launch gets depends on the run: lifting "
                     "launches of swapped buffers is not supported yet");
      return nullptr;
    }
    Value &buffer = buffers[var];
    if (!buffer) {
      buffer = addParameter(expected, var->getName(), loc(var->getLocation()), /*hostValue=*/false);
      unsigned index = cast<BlockArgument>(buffer).getArgNumber();
      // A fresh allocation overlaps no other buffer (ks-fuse-launches may
      // fuse across it); one that only the launcher's kernels see may stop
      // being written once no launch reads it.
      if (allocatedBuffers.count(var))
        launcher.setArgAttr(index, "ks.allocated", b.getUnitAttr());
      if (scratchBuffers.count(var))
        launcher.setArgAttr(index, "ks.scratch", b.getUnitAttr());
    }
    if (buffer.getType() != expected) {
      std::string was, now;
      llvm::raw_string_ostream(was) << buffer.getType();
      llvm::raw_string_ostream(now) << expected;
      error(arg, "'" + var->getName() + "' reaches kernels as two element types (" + was +
                     " and " + now + "), which one launcher parameter cannot be");
      return nullptr;
    }
    return buffer;
  }
  // A parameter of the launcher (or a pointer variable equal to one).
  std::optional<Pointer> p = pointer(arg);
  if (!p)
    return nullptr;
  auto constant = getConstantIntValue(p->offset);
  if (!constant || *constant != 0)
    return error(arg, "pass kernels a pointer parameter of the launcher as it is (offset "
                      "pointers are not supported yet)");
  if (p->base.getType() != expected && failed(retypeForCast(arg, p->base, expected))) {
    std::string was, now;
    llvm::raw_string_ostream(was) << p->base.getType();
    llvm::raw_string_ostream(now) << expected;
    return error(arg, "the launch passes a parameter of type " + was + " to a kernel parameter of "
                      "type " + now + " (a launch-site cast is supported where the launcher "
                      "passes that parameter to kernels as one type only, cast where it is "
                      "first used)");
  }
  return p->base;
}

LogicalResult LauncherEmitter::retypeForCast(const clang::Expr *arg, Value param,
                                             MemRefType expected) {
  // `(const float4 *)in` of a launcher parameter `const float *in`: the
  // parameter takes the kernel's element type, and the exporter writes the
  // source's type in the prototype and the cast where the parameter is
  // used (ks.cxx_type). Only a parameter nothing has used yet (every later
  // use must then be of this type), of an element made of the source's
  // (float4 of float, __half2 of __half).
  auto argument = dyn_cast<BlockArgument>(param);
  if (!argument || argument.getOwner() != &launcher.getBody().front() || !argument.use_empty())
    return failure();
  auto memref = dyn_cast<MemRefType>(param.getType());
  if (!memref || memref.getRank() != 1)
    return failure();
  Type from = memref.getElementType(), to = expected.getElementType();
  auto vector = dyn_cast<VectorType>(to);
  if (!vector || vector.getRank() != 1 || vector.getElementType() != from)
    return failure();
  const clang::VarDecl *var = pointerVariable(arg);
  auto *source = var ? dyn_cast<clang::ParmVarDecl>(var) : nullptr;
  if (!source)
    return failure();
  unsigned index = argument.getArgNumber();
  argument.setType(expected);
  SmallVector<Type> inputs(launcher.getArgumentTypes());
  inputs[index] = expected;
  launcher.setType(b.getFunctionType(inputs, launcher.getResultTypes()));
  clang::PrintingPolicy policy(ast.getLangOpts());
  launcher.setArgAttr(index, "ks.cxx_type",
                      b.getStringAttr(source->getType().getAsString(policy)));
  return success();
}

std::optional<std::array<Value, 3>> LauncherEmitter::dim3Value(const clang::Expr *e) {
  e = e->IgnoreImplicit()->IgnoreParens();
  if (auto *temp = dyn_cast<clang::MaterializeTemporaryExpr>(e))
    return dim3Value(temp->getSubExpr());
  if (auto *cast = dyn_cast<clang::CXXFunctionalCastExpr>(e))
    return dim3Value(cast->getSubExpr());
  Location l = loc(e);
  auto one = [&] { return Value(arith::ConstantOp::create(b, l, b.getI32IntegerAttr(1))); };
  if (!isDim3(e->getType())) {
    Value v = rvalue(e);
    if (!v)
      return std::nullopt;
    return std::array<Value, 3>{convert(v, e->getType(), ast.UnsignedIntTy, e), one(), one()};
  }
  if (auto *ref = dyn_cast<clang::DeclRefExpr>(e)) {
    if (!checkDim3Known(ref))
      return std::nullopt;
    auto it = dims.find(dyn_cast<clang::VarDecl>(ref->getDecl()));
    if (it == dims.end())
      return error(e, "unknown dim3 '" + ref->getDecl()->getName() + "'"), std::nullopt;
    return std::array<Value, 3>{load(it->second[0], l), load(it->second[1], l), load(it->second[2], l)};
  }
  if (auto *construct = dyn_cast<clang::CXXConstructExpr>(e)) {
    if (construct->getNumArgs() == 1 && isDim3(construct->getArg(0)->getType()))
      return dim3Value(construct->getArg(0)); // copy
    std::array<Value, 3> result = {one(), one(), one()};
    for (unsigned i = 0; i < construct->getNumArgs() && i < 3; ++i) {
      const clang::Expr *arg = construct->getArg(i);
      if (isa<clang::CXXDefaultArgExpr>(arg))
        continue;
      Value v = rvalue(arg);
      if (!v)
        return std::nullopt;
      result[i] = convert(v, arg->getType(), ast.UnsignedIntTy, arg);
    }
    return result;
  }
  if (auto *list = dyn_cast<clang::InitListExpr>(e)) {
    std::array<Value, 3> result = {one(), one(), one()};
    for (unsigned i = 0; i < list->getNumInits() && i < 3; ++i) {
      Value v = rvalue(list->getInit(i));
      if (!v)
        return std::nullopt;
      result[i] = convert(v, list->getInit(i)->getType(), ast.UnsignedIntTy, list->getInit(i));
    }
    return result;
  }
  return error(e, std::string("unsupported dim3 expression ('") + e->getStmtClassName() + "')"),
         std::nullopt;
}

void LauncherEmitter::emitLaunch(const clang::CUDAKernelCallExpr *e) {
  Location l = loc(e);
  const clang::FunctionDecl *callee = e->getDirectCallee();
  if (!callee)
    return (void)error(e, "launches through function pointers are outside the supported subset");
  auto kernel = kernels.lookupSymbol<gpu::GPUFuncOp>(kernelName(callee));
  if (!kernel && skipUnknownKernels)
    return; // not selected: host code, as far as this import is concerned
  if (!kernel)
    return (void)error(e, "the launched kernel '" + callee->getName() + "' was not imported");
  const clang::CallExpr *config = e->getConfig();
  std::optional<std::array<Value, 3>> grid = dim3Value(config->getArg(0));
  std::optional<std::array<Value, 3>> block = grid ? dim3Value(config->getArg(1)) : std::nullopt;
  if (!block)
    return;
  Value smem;
  if (config->getNumArgs() > 2 && !isa<clang::CXXDefaultArgExpr>(config->getArg(2))) {
    Value v = rvalue(config->getArg(2));
    if (!v)
      return;
    smem = convert(v, config->getArg(2)->getType(), ast.UnsignedIntTy, config->getArg(2));
  }
  SmallVector<Value> operands;
  for (auto [i, arg] : llvm::enumerate(e->arguments())) {
    Type expected = kernel.getArgumentTypes()[i];
    if (auto memref = dyn_cast<MemRefType>(expected)) {
      Value buffer = launchBuffer(arg, memref);
      if (!buffer)
        return;
      operands.push_back(buffer);
    } else {
      Value v = rvalue(arg);
      if (!v)
        return;
      operands.push_back(convert(v, arg->getType(), callee->getParamDecl(i)->getType(), arg));
    }
  }
  auto toIndex = [&](Value v) { return Value(arith::IndexCastUIOp::create(b, l, b.getIndexType(), v)); };
  gpu::KernelDim3 g{toIndex((*grid)[0]), toIndex((*grid)[1]), toIndex((*grid)[2])};
  gpu::KernelDim3 t{toIndex((*block)[0]), toIndex((*block)[1]), toIndex((*block)[2])};
  gpu::LaunchFuncOp::create(b, l, kernel, g, t, smem, operands);
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

Value LauncherEmitter::emitBuiltinVariable(StringRef name, gpu::Dimension, const clang::Expr *e) {
  return error(e, "'" + name + "' is only defined in kernels");
}

Value LauncherEmitter::emitCall(const clang::CallExpr *e) {
  const clang::FunctionDecl *callee = e->getDirectCallee();
  if (!callee)
    return error(e, "calls through function pointers are outside the supported subset");
  if (sliceableHelper(callee, ast, 0))
    return emitInlineCall(e, callee);
  return error(e, "host code may only compute launch sizes and launch kernels; the call to '" +
                      callee->getName() + "' is outside the launcher subset");
}

std::optional<LValue> LauncherEmitter::memberLValue(const clang::MemberExpr *member) {
  // grid.x on a dim3 variable.
  auto *ref = dyn_cast<clang::DeclRefExpr>(member->getBase()->IgnoreParenImpCasts());
  if (ref && !checkDim3Known(ref))
    return std::nullopt;
  auto it = ref ? dims.find(dyn_cast<clang::VarDecl>(ref->getDecl())) : dims.end();
  if (it == dims.end() && ref && isRecordParameter(ref->getDecl()) &&
      isScalarValue(member->getType()))
    return recordMember(cast<clang::ParmVarDecl>(ref->getDecl()), member);
  if (it == dims.end()) {
    error(member, "struct and vector members (float4.x, ...) are not supported yet");
    return std::nullopt;
  }
  unsigned field = llvm::StringSwitch<unsigned>(member->getMemberDecl()->getName())
                       .Case("x", 0).Case("y", 1).Default(2);
  return LValue{it->second[field], {}};
}

/// cfg.n of a struct parameter `const Config &cfg` (or dims.x of a dim3
/// parameter): the launcher takes the member as a parameter of its own,
/// `cfg_n`, which the caller's host code computes. The struct must not be
/// changed in the function, or one parameter would not be its value at
/// every launch.
std::optional<LValue> LauncherEmitter::recordMember(const clang::ParmVarDecl *param,
                                                    const clang::MemberExpr *member) {
  if (!recordParamsChecked) {
    recordParamsChecked = true;
    WrittenVariables finder;
    finder.TraverseStmt(const_cast<clang::Stmt *>(host->getBody()));
    for (auto [var, where] : finder.written)
      if (isa<clang::ParmVarDecl>(var))
        writtenParams.insert({var, where});
  }
  if (auto written = writtenParams.find(param); written != writtenParams.end()) {
    error(member, "'" + param->getName() + "' is changed by host code in '" + host->getName() +
                      "' (at line " + Twine(sm.getPresumedLineNumber(written->second)) +
                      "): the launch slice reads members of unchanged struct parameters only");
    return std::nullopt;
  }
  auto *field = dyn_cast<clang::FieldDecl>(member->getMemberDecl());
  if (!field) {
    error(member, "'" + member->getMemberDecl()->getName() + "' is not a data member");
    return std::nullopt;
  }
  Value &slot = recordMembers[{param, field}];
  if (!slot) {
    Type type = scalarType(member->getType(), member->getExprLoc());
    if (hadError)
      return std::nullopt;
    std::string variable = (param->getName() + "." + field->getName()).str();
    Value value = addParameter(type, (param->getName() + "_" + field->getName()).str(),
                               NameLoc::get(b.getStringAttr(variable), loc(member->getExprLoc())),
                               /*hostValue=*/true);
    slot = allocaAtEntry(MemRefType::get({}, type), value.getLoc());
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointAfter(slot.getDefiningOp());
    store(value, slot, value.getLoc());
  }
  return LValue{slot, {}};
}

bool LauncherEmitter::emitSpecialDecl(const clang::VarDecl *var) {
  if (var->hasAttr<clang::CUDASharedAttr>())
    return error(var->getLocation(), "__shared__ outside a kernel"), true;
  if (!isDim3(var->getType()))
    return false;
  Location l = loc(var->getLocation());
  std::array<Value, 3> slots;
  for (Value &slot : slots)
    slot = allocaAtEntry(MemRefType::get({}, b.getI32Type()), l);
  std::optional<std::array<Value, 3>> init;
  if (var->hasInit()) {
    init = dim3Value(var->getInit());
    if (!init)
      return true;
  }
  for (int i = 0; i < 3; ++i)
    store(init ? (*init)[i] : Value(arith::ConstantOp::create(b, l, b.getI32IntegerAttr(1))), slots[i], l);
  dims[var] = slots;
  return true;
}

bool LauncherEmitter::checkDim3Known(const clang::DeclRefExpr *ref) {
  auto it = opaqueDims.find(dyn_cast<clang::VarDecl>(ref->getDecl()));
  if (it == opaqueDims.end())
    return true;
  error(ref, "the dim3 '" + ref->getDecl()->getName() + "' is set by host code the launch slice "
             "cannot compute (at line " + Twine(sm.getPresumedLineNumber(it->second)) +
             "): compute its components in scalar variables");
  return false;
}

std::optional<Pointer> LauncherEmitter::unboundPointer(const clang::DeclRefExpr *e) {
  // Reached for pointer arithmetic on a buffer the function holds itself
  // (whole buffers are launchBuffer's).
  error(e, "'" + e->getDecl()->getName() + "' is a buffer of host code: pass it to kernels whole "
           "(offsets into it, as in x + k, are not supported yet)");
  return std::nullopt;
}
