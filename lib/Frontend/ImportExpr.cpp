//===- ImportExpr.cpp - Expressions, places and pointers -------------------===//
//
// rvalue() is a ConstStmtVisitor over clang's expression classes (as clang's
// own ScalarExprEmitter is); lvalue() finds the place an expression names
// and pointer() the (memref, offset) a pointer expression denotes.
//
//===----------------------------------------------------------------------===//

#include "FunctionEmitter.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include "clang/AST/StmtVisitor.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::ks::frontend;

namespace mlir::ks::frontend {
/// The value of an expression, one Visit method per expression class that
/// has one in the subset; VisitExpr reports the rest.
class ScalarExprEmitter : public clang::ConstStmtVisitor<ScalarExprEmitter, Value> {
public:
  explicit ScalarExprEmitter(FunctionEmitter &fe) : fe(fe), b(fe.b) {}

  Value VisitExpr(const clang::Expr *e) {
    return fe.error(e, std::string("expression '") + e->getStmtClassName() +
                           "' is outside the supported subset");
  }
  Value VisitParenExpr(const clang::ParenExpr *e) { return fe.rvalue(e->getSubExpr()); }
  Value VisitIntegerLiteral(const clang::IntegerLiteral *e) {
    return arith::ConstantOp::create(
        b, fe.loc(e), b.getIntegerAttr(fe.scalarType(e->getType(), e->getBeginLoc()), e->getValue()));
  }
  Value VisitCXXBoolLiteralExpr(const clang::CXXBoolLiteralExpr *e) {
    return arith::ConstantOp::create(b, fe.loc(e), b.getBoolAttr(e->getValue()));
  }
  Value VisitFloatingLiteral(const clang::FloatingLiteral *e) {
    return arith::ConstantOp::create(
        b, fe.loc(e),
        b.getFloatAttr(fe.scalarType(e->getType(), e->getBeginLoc()), e->getValueAsApproximateDouble()));
  }
  Value VisitCharacterLiteral(const clang::CharacterLiteral *e) {
    return arith::ConstantOp::create(
        b, fe.loc(e), b.getIntegerAttr(fe.scalarType(e->getType(), e->getBeginLoc()), e->getValue()));
  }
  Value VisitCastExpr(const clang::CastExpr *e);
  Value VisitBinaryOperator(const clang::BinaryOperator *e);
  Value VisitUnaryOperator(const clang::UnaryOperator *e);
  Value VisitConditionalOperator(const clang::ConditionalOperator *e) {
    return fe.emitConditional(e);
  }
  Value VisitInitListExpr(const clang::InitListExpr *e);
  Value VisitCXXConstructExpr(const clang::CXXConstructExpr *e);
  Value VisitCXXBindTemporaryExpr(const clang::CXXBindTemporaryExpr *e) {
    if (!isValueClass(e->getType()))
      return VisitExpr(e);
    return fe.rvalue(e->getSubExpr());
  }
  Value VisitCXXOperatorCallExpr(const clang::CXXOperatorCallExpr *e) {
    return fe.emitOperatorCall(e);
  }
  Value VisitCUDAKernelCallExpr(const clang::CUDAKernelCallExpr *e) {
    fe.emitLaunch(e);
    return nullptr;
  }
  Value VisitCallExpr(const clang::CallExpr *e) { return fe.emitCall(e); }
  Value VisitMaterializeTemporaryExpr(const clang::MaterializeTemporaryExpr *e) {
    return fe.rvalue(e->getSubExpr());
  }
  Value VisitCXXDefaultArgExpr(const clang::CXXDefaultArgExpr *e) { return fe.rvalue(e->getExpr()); }
  Value VisitExprWithCleanups(const clang::ExprWithCleanups *e) { return fe.rvalue(e->getSubExpr()); }
  Value VisitDeclRefExpr(const clang::DeclRefExpr *e) { return load(e); }
  Value VisitArraySubscriptExpr(const clang::ArraySubscriptExpr *e) { return load(e); }
  Value VisitMemberExpr(const clang::MemberExpr *e);

private:
  FunctionEmitter &fe;
  OpBuilder &b;

  /// The value stored at the place `e` names.
  Value load(const clang::Expr *e) {
    std::optional<LValue> lv = fe.lvalue(e);
    return lv ? fe.loadLValue(*lv, fe.loc(e)) : nullptr;
  }
};
} // namespace mlir::ks::frontend

Value FunctionEmitter::rvalue(const clang::Expr *e) {
  if (hadError)
    return nullptr;
  e = e->IgnoreParens();
  Location l = loc(e);
  clang::QualType type = e->getType();
  // What is one value whatever its expression class: the builtin variables
  // (threadIdx.x is a property access), and constants clang folds.
  if (auto builtin = builtinIndex(e))
    return emitBuiltinVariable(builtin->first, builtin->second, e);
  if (!isa<clang::IntegerLiteral, clang::CharacterLiteral, clang::CXXBoolLiteralExpr,
           clang::CallExpr>(e) &&
      type->isIntegerType() && e->isIntegerConstantExpr(ast)) {
    // sizeof, enumerators, constexpr values.
    std::optional<llvm::APSInt> value = e->getIntegerConstantExpr(ast);
    return arith::ConstantOp::create(
        b, l, b.getIntegerAttr(scalarType(type, e->getBeginLoc()), value->getSExtValue()));
  }
  if (type->isRealFloatingType() && !isa<clang::FloatingLiteral>(e)) {
    // INFINITY, -1.0f / 0, constexpr floats: folded by clang.
    llvm::APFloat value(0.0);
    if (e->EvaluateAsFloat(value, ast))
      return arith::ConstantOp::create(b, l, b.getFloatAttr(scalarType(type, e->getBeginLoc()), value));
  }
  return ScalarExprEmitter(*this).Visit(e);
}

Value FunctionEmitter::condition(const clang::Expr *e) {
  Value v = rvalue(e);
  return v ? toBool(v, e) : nullptr;
}

Value ScalarExprEmitter::VisitCastExpr(const clang::CastExpr *e) {
  const clang::Expr *sub = e->getSubExpr();
  switch (e->getCastKind()) {
  case clang::CK_LValueToRValue: {
    // c ? a : b of two lvalues is an lvalue in C++; its value is all we need.
    if (auto *cond = dyn_cast<clang::ConditionalOperator>(sub->IgnoreParens()))
      return fe.emitConditional(cond);
    return load(sub);
  }
  case clang::CK_NoOp:
  case clang::CK_ToVoid:
    return fe.rvalue(sub);
  case clang::CK_IntegralCast:
  case clang::CK_IntegralToFloating:
  case clang::CK_FloatingToIntegral:
  case clang::CK_FloatingCast:
  case clang::CK_IntegralToBoolean:
  case clang::CK_FloatingToBoolean:
  case clang::CK_BooleanToSignedIntegral:
    return fe.convert(fe.rvalue(sub), sub->getType(), e->getType(), e);
  default:
    return fe.error(e, std::string("conversion '") + e->getCastKindName() +
                           "' is outside the supported subset");
  }
}

Value ScalarExprEmitter::VisitBinaryOperator(const clang::BinaryOperator *bin) {
  clang::BinaryOperatorKind op = bin->getOpcode();
  if (op == clang::BO_LAnd || op == clang::BO_LOr)
    return fe.emitLogical(bin);
  if (bin->isAssignmentOp())
    return fe.emitAssign(bin);
  if (op == clang::BO_Comma) {
    fe.rvalue(bin->getLHS());
    return fe.rvalue(bin->getRHS());
  }
  if (bin->getLHS()->getType()->isPointerType() || bin->getRHS()->getType()->isPointerType())
    return fe.error(bin, "pointer comparisons and differences are not supported yet");
  Value lhs = fe.rvalue(bin->getLHS());
  Value rhs = lhs ? fe.rvalue(bin->getRHS()) : nullptr;
  if (!rhs)
    return nullptr;
  if (bin->isComparisonOp())
    return fe.compare(op, lhs, rhs, bin->getLHS()->getType(), bin);
  if (bin->isShiftOp()) // operands are promoted separately: a << b has a's type
    rhs = fe.convert(rhs, bin->getRHS()->getType(), bin->getLHS()->getType(), bin);
  return fe.binary(op, lhs, rhs, bin->getType(), bin);
}

Value ScalarExprEmitter::VisitUnaryOperator(const clang::UnaryOperator *unary) {
  Location l = fe.loc(unary);
  switch (unary->getOpcode()) {
  case clang::UO_PreInc: case clang::UO_PreDec: case clang::UO_PostInc: case clang::UO_PostDec:
    return fe.emitIncDec(unary);
  case clang::UO_Plus:
    return fe.rvalue(unary->getSubExpr());
  case clang::UO_Minus: {
    Value v = fe.rvalue(unary->getSubExpr());
    if (!v)
      return nullptr;
    if (isa<FloatType>(v.getType()))
      return arith::NegFOp::create(b, l, v);
    return arith::SubIOp::create(b, l, arith::ConstantOp::create(b, l, b.getIntegerAttr(v.getType(), 0)),
                                 v, fe.overflowFlags(unary->getType()));
  }
  case clang::UO_LNot: {
    Value c = fe.condition(unary->getSubExpr());
    if (!c)
      return nullptr;
    Value notC = arith::XOrIOp::create(b, l, c, arith::ConstantOp::create(b, l, b.getBoolAttr(true)));
    return fe.convert(notC, fe.ast.BoolTy, unary->getType(), unary);
  }
  case clang::UO_Not: {
    Value v = fe.rvalue(unary->getSubExpr());
    if (!v)
      return nullptr;
    return arith::XOrIOp::create(b, l, v, arith::ConstantOp::create(b, l, b.getIntegerAttr(v.getType(), -1)));
  }
  case clang::UO_Deref:
    return load(unary);
  default:
    return fe.error(unary, "unary operator outside the supported subset");
  }
}

Value ScalarExprEmitter::VisitInitListExpr(const clang::InitListExpr *list) {
  // float4 v = {a, b, c, d};
  std::optional<std::pair<clang::QualType, int64_t>> vec = vectorRecord(list->getType());
  if (!vec)
    return VisitExpr(list);
  auto vecType = cast<VectorType>(fe.scalarType(list->getType(), list->getBeginLoc()));
  if (list->getNumInits() != unsigned(vecType.getNumElements()))
    return fe.error(list, "initialize every component of a vector type");
  SmallVector<Value> elems;
  for (const clang::Expr *init : list->inits()) {
    Value v = fe.convert(fe.rvalue(init), init->getType(), vec->first, init);
    if (!v)
      return nullptr;
    elems.push_back(v);
  }
  return vector::FromElementsOp::create(b, fe.loc(list), vecType, elems);
}

Value ScalarExprEmitter::VisitCXXConstructExpr(const clang::CXXConstructExpr *e) {
  // Copies and conversions of __half/__nv_bfloat16 and of float4 & co. are
  // plain values here.
  if (!isValueClass(e->getType()))
    return VisitExpr(e);
  if (e->getNumArgs() != 1)
    return fe.error(e, "this constructor of '" + e->getType().getAsString() +
                           "' is outside the supported subset");
  const clang::Expr *arg = e->getArg(0);
  return fe.convert(fe.rvalue(arg), arg->getType(), e->getType(), e);
}

Value ScalarExprEmitter::VisitMemberExpr(const clang::MemberExpr *member) {
  // v.x of a float4 value that has no place (a call's result).
  if (member->getBase()->isPRValue() && vectorRecord(member->getBase()->getType())) {
    Value whole = fe.rvalue(member->getBase());
    if (!whole)
      return nullptr;
    int64_t lane = llvm::StringSwitch<int64_t>(member->getMemberDecl()->getName())
                       .Case("x", 0).Case("y", 1).Case("z", 2).Default(3);
    return vector::ExtractOp::create(b, fe.loc(member), whole, ArrayRef<int64_t>{lane});
  }
  return load(member);
}

Value FunctionEmitter::compare(clang::BinaryOperatorKind op, Value lhs, Value rhs,
                             clang::QualType operand, const clang::Expr *at) {
  Location l = loc(at);
  if (isa<FloatType>(lhs.getType())) {
    // Ordered comparisons, except != which is true for NaN (as in C).
    arith::CmpFPredicate p;
    switch (op) {
    case clang::BO_LT: p = arith::CmpFPredicate::OLT; break;
    case clang::BO_LE: p = arith::CmpFPredicate::OLE; break;
    case clang::BO_GT: p = arith::CmpFPredicate::OGT; break;
    case clang::BO_GE: p = arith::CmpFPredicate::OGE; break;
    case clang::BO_EQ: p = arith::CmpFPredicate::OEQ; break;
    default: p = arith::CmpFPredicate::UNE; break;
    }
    return arith::CmpFOp::create(b, l, p, lhs, rhs);
  }
  bool u = isUnsigned(operand) || operand->isPointerType();
  arith::CmpIPredicate p;
  switch (op) {
  case clang::BO_LT: p = u ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt; break;
  case clang::BO_LE: p = u ? arith::CmpIPredicate::ule : arith::CmpIPredicate::sle; break;
  case clang::BO_GT: p = u ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt; break;
  case clang::BO_GE: p = u ? arith::CmpIPredicate::uge : arith::CmpIPredicate::sge; break;
  case clang::BO_EQ: p = arith::CmpIPredicate::eq; break;
  default: p = arith::CmpIPredicate::ne; break;
  }
  return arith::CmpIOp::create(b, l, p, lhs, rhs);
}

Value FunctionEmitter::binary(clang::BinaryOperatorKind op, Value lhs, Value rhs,
                            clang::QualType type, const clang::Expr *at) {
  Location l = loc(at);
  if (isa<FloatType>(getElementTypeOrSelf(lhs.getType()))) {
    switch (op) {
    case clang::BO_Add: case clang::BO_AddAssign: return arith::AddFOp::create(b, l, lhs, rhs, contractable());
    case clang::BO_Sub: case clang::BO_SubAssign: return arith::SubFOp::create(b, l, lhs, rhs, contractable());
    case clang::BO_Mul: case clang::BO_MulAssign: return arith::MulFOp::create(b, l, lhs, rhs, contractable());
    case clang::BO_Div: case clang::BO_DivAssign: return arith::DivFOp::create(b, l, lhs, rhs);
    case clang::BO_Rem: case clang::BO_RemAssign: return arith::RemFOp::create(b, l, lhs, rhs);
    default: return error(at, "this operator is not defined on floating-point values");
    }
  }
  bool u = isUnsigned(type);
  arith::IntegerOverflowFlags flags = overflowFlags(type);
  switch (op) {
  case clang::BO_Add: case clang::BO_AddAssign: return arith::AddIOp::create(b, l, lhs, rhs, flags);
  case clang::BO_Sub: case clang::BO_SubAssign: return arith::SubIOp::create(b, l, lhs, rhs, flags);
  case clang::BO_Mul: case clang::BO_MulAssign: return arith::MulIOp::create(b, l, lhs, rhs, flags);
  case clang::BO_Div: case clang::BO_DivAssign:
    return u ? Value(arith::DivUIOp::create(b, l, lhs, rhs)) : Value(arith::DivSIOp::create(b, l, lhs, rhs));
  case clang::BO_Rem: case clang::BO_RemAssign:
    return u ? Value(arith::RemUIOp::create(b, l, lhs, rhs)) : Value(arith::RemSIOp::create(b, l, lhs, rhs));
  case clang::BO_Shl: case clang::BO_ShlAssign: return arith::ShLIOp::create(b, l, lhs, rhs);
  case clang::BO_Shr: case clang::BO_ShrAssign:
    return u ? Value(arith::ShRUIOp::create(b, l, lhs, rhs)) : Value(arith::ShRSIOp::create(b, l, lhs, rhs));
  case clang::BO_And: case clang::BO_AndAssign: return arith::AndIOp::create(b, l, lhs, rhs);
  case clang::BO_Or: case clang::BO_OrAssign: return arith::OrIOp::create(b, l, lhs, rhs);
  case clang::BO_Xor: case clang::BO_XorAssign: return arith::XOrIOp::create(b, l, lhs, rhs);
  default: return error(at, "operator outside the supported subset");
  }
}

std::optional<LValue> FunctionEmitter::lvalue(const clang::Expr *e) {
  e = e->IgnoreParens();
  if (auto *cast = dyn_cast<clang::ImplicitCastExpr>(e); cast && cast->getCastKind() == clang::CK_NoOp)
    return lvalue(cast->getSubExpr());
  if (auto *ref = dyn_cast<clang::DeclRefExpr>(e)) {
    auto *var = dyn_cast<clang::VarDecl>(ref->getDecl());
    Slot *slot = findSlot(var);
    if (!slot) {
      if (!hadError)
        error(e, "'" + ref->getDecl()->getName() +
                     "' is a host variable: kernels read locals, parameters, __constant__ and "
                     "__device__ variables");
      return std::nullopt;
    }
    if (slot->kind == Slot::Reference)
      return slot->place;
    if (slot->kind != Slot::Scalar) {
      error(e, "assigning a whole pointer or array here is not supported");
      return std::nullopt;
    }
    return LValue{slot->storage, {}, 1, std::nullopt, var};
  }
  if (auto *member = dyn_cast<clang::MemberExpr>(e); member && vectorRecord(member->getBase()->getType())) {
    // v.x of a float4 place: one lane of the vector stored there.
    std::optional<LValue> whole = lvalue(member->getBase());
    if (!whole)
      return std::nullopt;
    whole->lane = llvm::StringSwitch<int64_t>(member->getMemberDecl()->getName())
                      .Case("x", 0).Case("y", 1).Case("z", 2).Default(3);
    return whole;
  }
  if (auto *member = dyn_cast<clang::MemberExpr>(e))
    return memberLValue(member);
  if (auto *sub = dyn_cast<clang::ArraySubscriptExpr>(e)) {
    // a[i][j] on a 2-D array indexes the memref directly.
    SmallVector<const clang::Expr *> subscripts;
    const clang::Expr *baseExpr = e;
    while (auto *s = dyn_cast<clang::ArraySubscriptExpr>(baseExpr->IgnoreParens())) {
      subscripts.insert(subscripts.begin(), s->getIdx());
      baseExpr = s->getBase()->IgnoreParenImpCasts();
    }
    if (subscripts.size() > 1) {
      auto *ref = dyn_cast<clang::DeclRefExpr>(baseExpr);
      auto *var = ref ? dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
      Slot *slot = findSlot(var);
      if (!slot || slot->kind != Slot::Array ||
          cast<MemRefType>(slot->storage.getType()).getRank() != int64_t(subscripts.size())) {
        error(e, "multi-dimensional subscripts are supported on local, __shared__, __constant__ "
                 "and __device__ arrays only");
        return std::nullopt;
      }
      LValue lv{slot->storage, {}};
      for (const clang::Expr *idx : subscripts) {
        Value i = rvalue(idx);
        if (!i)
          return std::nullopt;
        lv.indices.push_back(arith::IndexCastOp::create(b, loc(idx), b.getIndexType(), i));
      }
      return lv;
    }
    std::optional<Pointer> p = pointer(sub->getBase());
    Value i = p ? rvalue(sub->getIdx()) : nullptr;
    if (!i)
      return std::nullopt;
    Location l = loc(e);
    Value idx = toIndex(i, sub->getIdx()->getType(), l);
    if (p->width > 1)
      idx = arith::MulIOp::create(b, l, idx, indexConst(p->width, l));
    return LValue{p->base, {arith::AddIOp::create(b, l, p->offset, idx)}, p->width, std::nullopt};
  }
  if (auto *unary = dyn_cast<clang::UnaryOperator>(e); unary && unary->getOpcode() == clang::UO_Deref) {
    std::optional<Pointer> p = pointer(unary->getSubExpr());
    if (!p)
      return std::nullopt;
    return LValue{p->base, {p->offset}, p->width, std::nullopt};
  }
  // `s[t] = v = v + s[t + k]`: an assignment to a variable is that variable
  // afterwards (the samples' reductions chain them).
  if (auto *assign = dyn_cast<clang::BinaryOperator>(e);
      assign && assign->isAssignmentOp() && isa<clang::DeclRefExpr>(assign->getLHS()->IgnoreParens())) {
    emitAssign(assign);
    if (hadError)
      return std::nullopt;
    return lvalue(assign->getLHS());
  }
  error(e, std::string("cannot assign to this expression ('") + e->getStmtClassName() + "')");
  return std::nullopt;
}

/// `extern __shared__ T s[]` when `e` names one (declared in the kernel or
/// in a function it calls, as SharedMemory<T> does).
static const clang::VarDecl *externShared(const clang::Expr *e, clang::ASTContext &ast) {
  auto *ref = dyn_cast<clang::DeclRefExpr>(e->IgnoreParenImpCasts());
  auto *var = ref ? dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
  return var && var->hasAttr<clang::CUDASharedAttr>() && ast.getAsIncompleteArrayType(var->getType())
             ? var
             : nullptr;
}

/// The CUDA samples' SharedMemory<T>: a conversion operator whose body
/// declares the extern __shared__ array and returns it cast to T *. Returns
/// that return value's expression, else null.
static const clang::Expr *sharedMemoryConversion(const clang::CXXMemberCallExpr *call) {
  auto *conversion = dyn_cast_or_null<clang::CXXConversionDecl>(call->getMethodDecl());
  auto *body = conversion ? dyn_cast_or_null<clang::CompoundStmt>(conversion->getBody()) : nullptr;
  if (!body || body->size() != 2)
    return nullptr;
  auto *decl = dyn_cast<clang::DeclStmt>(body->body_front());
  auto *ret = dyn_cast<clang::ReturnStmt>(body->body_back());
  auto *var = decl && decl->isSingleDecl() ? dyn_cast<clang::VarDecl>(decl->getSingleDecl()) : nullptr;
  if (!var || !ret || !ret->getRetValue() || !var->hasAttr<clang::CUDASharedAttr>())
    return nullptr;
  return ret->getRetValue();
}

std::optional<Pointer> FunctionEmitter::pointer(const clang::Expr *e) {
  e = e->IgnoreParens();
  if (auto *cleanups = dyn_cast<clang::ExprWithCleanups>(e))
    return pointer(cleanups->getSubExpr());
  if (auto *call = dyn_cast<clang::CXXMemberCallExpr>(e)) {
    if (const clang::Expr *shared = sharedMemoryConversion(call))
      return pointer(shared);
    error(e, "calls of member functions returning pointers are outside the supported subset");
    return std::nullopt;
  }
  if (auto *cast = dyn_cast<clang::CastExpr>(e)) {
    switch (cast->getCastKind()) {
    case clang::CK_LValueToRValue:
    case clang::CK_NoOp:
    case clang::CK_ArrayToPointerDecay:
    case clang::CK_UserDefinedConversion:
      return pointer(cast->getSubExpr());
    case clang::CK_BitCast: {
      clang::QualType to = cast->getType()->getPointeeType(),
                      from = cast->getSubExpr()->getType()->getPointeeType();
      if (ast.hasSameUnqualifiedType(to, from))
        return pointer(cast->getSubExpr());
      // (T *)s of the dynamic shared memory: the same bytes as T elements.
      if (externShared(cast->getSubExpr(), ast)) {
        Value view = dynamicSharedAs(to.getUnqualifiedType(), e->getBeginLoc());
        if (!view)
          return std::nullopt;
        return Pointer{view, indexConst(0, loc(e))};
      }
      // reinterpret_cast<const float4 *>(x) of a float pointer: vector reads.
      std::optional<std::pair<clang::QualType, int64_t>> vec = vectorRecord(to);
      if (vec && ast.hasSameUnqualifiedType(vec->first, from)) {
        std::optional<Pointer> p = pointer(cast->getSubExpr());
        if (!p)
          return std::nullopt;
        if (p->width != 1) {
          error(e, "reinterpreting a vector pointer again is not supported");
          return std::nullopt;
        }
        p->width = vec->second;
        return p;
      }
      error(e, "reinterpreting a pointer as another type is outside the supported subset (except T* as T4*)");
      return std::nullopt;
    }
    default:
      break;
    }
  }
  Location l = loc(e);
  if (auto *ref = dyn_cast<clang::DeclRefExpr>(e)) {
    auto *var = dyn_cast<clang::VarDecl>(ref->getDecl());
    Slot *slot = findSlot(var);
    if (!slot && !hadError && externShared(ref, ast)) {
      // Declared by a function the kernel calls (SharedMemory<T>).
      Value view = dynamicSharedAs(ast.getAsIncompleteArrayType(var->getType())->getElementType(),
                                   ref->getBeginLoc());
      if (!view)
        return std::nullopt;
      return Pointer{view, indexConst(0, l)};
    }
    if (!slot) {
      if (hadError)
        return std::nullopt;
      return unboundPointer(ref);
    }
    if (slot->kind == Slot::Array) {
      if (cast<MemRefType>(slot->storage.getType()).getRank() != 1) {
        error(e, "pointers into multi-dimensional arrays are not supported yet");
        return std::nullopt;
      }
      return Pointer{slot->storage, indexConst(0, l)};
    }
    if (slot->kind == Slot::PointerVar)
      return Pointer{slot->base, slot->offsetSlot ? load(slot->offsetSlot, l) : indexConst(0, l),
                     slot->width};
  }
  if (auto *bin = dyn_cast<clang::BinaryOperator>(e)) {
    if (bin->getOpcode() == clang::BO_Add || bin->getOpcode() == clang::BO_Sub) {
      bool lhsIsPtr = bin->getLHS()->getType()->isPointerType();
      const clang::Expr *ptrExpr = lhsIsPtr ? bin->getLHS() : bin->getRHS();
      const clang::Expr *intExpr = lhsIsPtr ? bin->getRHS() : bin->getLHS();
      std::optional<Pointer> p = pointer(ptrExpr);
      Value i = p ? rvalue(intExpr) : nullptr;
      if (!i)
        return std::nullopt;
      Value idx = toIndex(i, intExpr->getType(), l);
      if (p->width > 1)
        idx = arith::MulIOp::create(b, l, idx, indexConst(p->width, l));
      if (bin->getOpcode() == clang::BO_Sub)
        return Pointer{p->base, arith::SubIOp::create(b, l, p->offset, idx), p->width};
      return Pointer{p->base, arith::AddIOp::create(b, l, p->offset, idx), p->width};
    }
  }
  if (auto *unary = dyn_cast<clang::UnaryOperator>(e); unary && unary->getOpcode() == clang::UO_AddrOf) {
    std::optional<LValue> lv = lvalue(unary->getSubExpr());
    if (!lv)
      return std::nullopt;
    if (lv->indices.size() != 1) {
      error(e, "taking the address of a scalar variable is not supported");
      return std::nullopt;
    }
    if (lv->lane) {
      error(e, "the address of a vector component is not supported");
      return std::nullopt;
    }
    return Pointer{lv->memref, lv->indices[0], lv->width};
  }
  error(e, std::string("unsupported pointer expression ('") + e->getStmtClassName() + "')");
  return std::nullopt;
}

Value FunctionEmitter::emitAssign(const clang::BinaryOperator *e) {
  Location l = loc(e);
  const clang::Expr *lhsExpr = e->getLHS();
  if (lhsExpr->getType()->isPointerType()) {
    // p = q; p += n; p -= n on a pointer variable.
    auto *ref = dyn_cast<clang::DeclRefExpr>(lhsExpr->IgnoreParens());
    auto *var = ref ? dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
    auto it = var ? vars.find(var) : vars.end();
    if (it == vars.end() || it->second.kind != Slot::PointerVar || !it->second.offsetSlot)
      return error(e, "only pointer variables of kernels can be assigned");
    Slot &slot = it->second;
    if (e->getOpcode() == clang::BO_Assign) {
      std::optional<Pointer> p = pointer(e->getRHS());
      if (!p)
        return nullptr;
      if (p->base != slot.base || p->width != slot.width)
        return error(e, "pointer '" + var->getName() +
                            "' would point into another buffer, which is not supported");
      store(p->offset, slot.offsetSlot, l);
      return nullptr;
    }
    Value n = rvalue(e->getRHS());
    if (!n)
      return nullptr;
    Value idx = toIndex(n, e->getRHS()->getType(), l);
    if (slot.width > 1)
      idx = arith::MulIOp::create(b, l, idx, indexConst(slot.width, l));
    Value off = load(slot.offsetSlot, l);
    off = e->getOpcode() == clang::BO_SubAssign ? Value(arith::SubIOp::create(b, l, off, idx))
                                                : Value(arith::AddIOp::create(b, l, off, idx));
    store(off, slot.offsetSlot, l);
    return nullptr;
  }
  std::optional<LValue> lv = lvalue(lhsExpr);
  if (!lv)
    return nullptr;
  Value result;
  if (e->getOpcode() == clang::BO_Assign) {
    Value v = rvalue(e->getRHS());
    result = convert(v, e->getRHS()->getType(), lhsExpr->getType(), e);
  } else {
    // a op= b computes in the computation type, then converts back.
    auto *compound = cast<clang::CompoundAssignOperator>(e);
    clang::QualType computeType = compound->getComputationResultType();
    Value old = loadLValue(*lv, l);
    Value rhs = rvalue(e->getRHS());
    if (!rhs)
      return nullptr;
    Value lhsC = convert(old, lhsExpr->getType(), computeType, e);
    Value rhsC = convert(rhs, e->getRHS()->getType(), computeType, e);
    Value r = binary(e->getOpcode(), lhsC, rhsC, computeType, e);
    result = convert(r, computeType, lhsExpr->getType(), e);
  }
  if (!result)
    return nullptr;
  storeLValue(result, *lv, l);
  return result;
}

Value FunctionEmitter::emitIncDec(const clang::UnaryOperator *e) {
  Location l = loc(e);
  bool inc = e->isIncrementOp();
  clang::QualType t = e->getSubExpr()->getType();
  if (t->isPointerType()) {
    auto *ref = dyn_cast<clang::DeclRefExpr>(e->getSubExpr()->IgnoreParens());
    auto *var = ref ? dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
    auto it = var ? vars.find(var) : vars.end();
    if (it == vars.end() || it->second.kind != Slot::PointerVar || !it->second.offsetSlot)
      return error(e, "only pointer variables of kernels can be incremented");
    Value off = load(it->second.offsetSlot, l);
    Value one = indexConst(it->second.width, l);
    store(inc ? Value(arith::AddIOp::create(b, l, off, one)) : Value(arith::SubIOp::create(b, l, off, one)),
          it->second.offsetSlot, l);
    return nullptr;
  }
  std::optional<LValue> lv = lvalue(e->getSubExpr());
  if (!lv)
    return nullptr;
  Value old = loadLValue(*lv, l);
  Value updated;
  if (isa<FloatType>(old.getType())) {
    Value one = arith::ConstantOp::create(b, l, b.getFloatAttr(old.getType(), 1.0));
    updated = inc ? Value(arith::AddFOp::create(b, l, old, one)) : Value(arith::SubFOp::create(b, l, old, one));
  } else {
    Value one = arith::ConstantOp::create(b, l, b.getIntegerAttr(old.getType(), 1));
    arith::IntegerOverflowFlags flags = overflowFlags(t);
    updated = inc ? Value(arith::AddIOp::create(b, l, old, one, flags))
                  : Value(arith::SubIOp::create(b, l, old, one, flags));
  }
  storeLValue(updated, *lv, l);
  return e->isPrefix() ? updated : old;
}

Value FunctionEmitter::emitLogical(const clang::BinaryOperator *e) {
  // Short-circuit: the right operand runs only when it decides the result
  // (it may index out of bounds otherwise: i < n && a[i] > 0).
  Location l = loc(e);
  Value lhs = condition(e->getLHS());
  if (!lhs)
    return nullptr;
  Block *rhsBlock = newBlock(), *merge = newBlock();
  merge->addArgument(b.getI1Type(), l);
  bool isAnd = e->getOpcode() == clang::BO_LAnd;
  if (isAnd)
    cf::CondBranchOp::create(b, l, lhs, rhsBlock, ValueRange{}, merge, ValueRange{lhs});
  else
    cf::CondBranchOp::create(b, l, lhs, merge, ValueRange{lhs}, rhsBlock, ValueRange{});
  startBlock(rhsBlock);
  Value rhs = condition(e->getRHS());
  if (!rhs)
    return nullptr;
  cf::BranchOp::create(b, l, merge, ValueRange{rhs});
  startBlock(merge);
  return convert(merge->getArgument(0), ast.BoolTy, e->getType(), e);
}

Value FunctionEmitter::emitConditional(const clang::ConditionalOperator *e) {
  Location l = loc(e);
  Value c = condition(e->getCond());
  if (!c)
    return nullptr;
  Type resultType = scalarType(e->getType(), e->getBeginLoc());
  Block *thenBlock = newBlock(), *elseBlock = newBlock(), *merge = newBlock();
  merge->addArgument(resultType, l);
  cf::CondBranchOp::create(b, l, c, thenBlock, elseBlock);
  for (auto [block, arm] : {std::pair{thenBlock, e->getTrueExpr()}, {elseBlock, e->getFalseExpr()}}) {
    startBlock(block);
    Value v = convert(rvalue(arm), arm->getType(), e->getType(), arm);
    if (!v)
      return nullptr;
    cf::BranchOp::create(b, l, merge, ValueRange{v});
  }
  startBlock(merge);
  return merge->getArgument(0);
}

Value FunctionEmitter::emitOperatorCall(const clang::CXXOperatorCallExpr *e) {
  // Only the operators of CUDA's half-precision classes: they compute in
  // f16/bf16 like the builtin operators do in their types.
  std::optional<std::pair<clang::QualType, int64_t>> pair = vectorRecord(e->getArg(0)->getType());
  if (e->getOperator() == clang::OO_Minus && e->getNumArgs() == 1 &&
      (isHalfClass(e->getArg(0)->getType()) || (pair && isHalfClass(pair->first)))) {
    Value v = rvalue(e->getArg(0));
    return v ? Value(arith::NegFOp::create(b, loc(e), v)) : nullptr;
  }
  clang::BinaryOperatorKind op = clang::BinaryOperator::getOverloadedOpcode(e->getOperator());
  bool vectorAssign = e->getNumArgs() == 2 && pair && op == clang::BO_Assign;
  bool halfPair = pair && isHalfClass(pair->first) && !clang::BinaryOperator::isComparisonOp(op);
  if (e->getNumArgs() != 2 || !(isHalfClass(e->getArg(0)->getType()) || vectorAssign || halfPair))
    return error(e, "overloaded operators are outside the supported subset (except on __half, "
                    "__nv_bfloat16 and their pairs)");
  Location l = loc(e);
  const clang::Expr *lhsExpr = e->getArg(0), *rhsExpr = e->getArg(1);
  clang::QualType halfType = lhsExpr->getType();
  if (op == clang::BO_Assign || clang::BinaryOperator::isCompoundAssignmentOp(op)) {
    std::optional<LValue> lv = lvalue(lhsExpr);
    Value rhs = lv ? convert(rvalue(rhsExpr), rhsExpr->getType(), halfType, rhsExpr) : nullptr;
    if (!rhs)
      return nullptr;
    Value result = rhs;
    if (op != clang::BO_Assign) {
      Value old = loadLValue(*lv, l);
      result = binary(op, old, rhs, halfType, e);
    }
    storeLValue(result, *lv, l);
    return result;
  }
  Value lhs = rvalue(lhsExpr);
  Value rhs = lhs ? convert(rvalue(rhsExpr), rhsExpr->getType(), halfType, rhsExpr) : nullptr;
  if (!rhs)
    return nullptr;
  if (clang::BinaryOperator::isComparisonOp(op))
    return compare(op, lhs, rhs, halfType, e);
  return binary(op, lhs, rhs, halfType, e);
}
