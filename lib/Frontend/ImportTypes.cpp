//===- ImportTypes.cpp - C++ types as MLIR types ----------------------------===//
//
// Which C++ types the importer lifts and how: builtin scalars, CUDA's vector
// types (float4) and half-precision classes, enums; and the conversions C++
// applies between them.
//
//===----------------------------------------------------------------------===//

#include "FunctionEmitter.h"

#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include "clang/AST/DeclTemplate.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::ks::frontend;

/// The builtin variables: threadIdx, blockIdx, blockDim, gridDim.
std::optional<std::pair<StringRef, gpu::Dimension>> mlir::ks::frontend::builtinIndex(const clang::Expr *e) {
  auto *pseudo = dyn_cast<clang::PseudoObjectExpr>(e);
  if (!pseudo)
    return std::nullopt;
  auto *call = dyn_cast<clang::CallExpr>(pseudo->getResultExpr());
  if (!call)
    return std::nullopt;
  auto *member = dyn_cast<clang::MemberExpr>(call->getCallee()->IgnoreImpCasts());
  if (!member)
    return std::nullopt;
  auto *base = dyn_cast<clang::DeclRefExpr>(member->getBase()->IgnoreImpCasts());
  if (auto *opaque = dyn_cast<clang::OpaqueValueExpr>(member->getBase()))
    base = dyn_cast<clang::DeclRefExpr>(opaque->getSourceExpr()->IgnoreImpCasts());
  if (!base)
    return std::nullopt;
  StringRef field = member->getMemberDecl()->getName();
  std::optional<gpu::Dimension> dim = llvm::StringSwitch<std::optional<gpu::Dimension>>(field)
                                          .Case("__fetch_builtin_x", gpu::Dimension::x)
                                          .Case("__fetch_builtin_y", gpu::Dimension::y)
                                          .Case("__fetch_builtin_z", gpu::Dimension::z)
                                          .Default(std::nullopt);
  if (!dim)
    return std::nullopt;
  return std::make_pair(base->getDecl()->getName(), *dim);
}


/// CUDA's vector types (float4, int2, uchar4, ...): structs of 1-4 scalar
/// fields x, y, z, w. Returns the element type and count.
std::optional<std::pair<clang::QualType, int64_t>> mlir::ks::frontend::vectorRecord(clang::QualType t) {
  const clang::CXXRecordDecl *record = t->getAsCXXRecordDecl();
  if (!record || !record->getDefinition())
    return std::nullopt;
  StringRef name = record->getName();
  // __half2 and __nv_bfloat162: pairs of the half classes (fields x, y).
  if (name == "__half2" || name == "__nv_bfloat162") {
    SmallVector<const clang::FieldDecl *> pair(record->fields());
    if (pair.size() != 2)
      return std::nullopt;
    return std::make_pair(pair.front()->getType(), int64_t(2));
  }
  if (name.empty() || name.back() < '1' || name.back() > '4')
    return std::nullopt;
  static const StringRef bases[] = {"char", "uchar", "short", "ushort", "int", "uint", "long",
                                    "ulong", "longlong", "ulonglong", "float", "double"};
  if (!llvm::is_contained(bases, name.drop_back()))
    return std::nullopt;
  SmallVector<const clang::FieldDecl *> fields(record->fields());
  if (fields.empty() || int64_t(fields.size()) != name.back() - '0')
    return std::nullopt;
  return std::make_pair(fields.front()->getType(), int64_t(fields.size()));
}

/// __half and __nv_bfloat16: classes in CUDA's headers, f16/bf16 here.
bool mlir::ks::frontend::isHalfClass(clang::QualType t) {
  const clang::CXXRecordDecl *record = t->getAsCXXRecordDecl();
  return record && (record->getName() == "__half" || record->getName() == "__nv_bfloat16");
}

bool mlir::ks::frontend::isDim3(clang::QualType t) {
  const clang::CXXRecordDecl *record = t->getAsCXXRecordDecl();
  return record && record->getName() == "dim3";
}

/// "axpy" or, for template instantiations, "axpy<float, 4>" made an identifier.
std::string mlir::ks::frontend::kernelName(const clang::FunctionDecl *fn) {
  std::string name = fn->getNameAsString();
  if (const clang::TemplateArgumentList *args = fn->getTemplateSpecializationArgs()) {
    clang::PrintingPolicy policy(fn->getASTContext().getLangOpts());
    for (const clang::TemplateArgument &arg : args->asArray()) {
      std::string text;
      llvm::raw_string_ostream os(text);
      arg.print(policy, os, /*IncludeType=*/false);
      name += "_";
      for (char c : text)
        name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    }
  }
  return name;
}

/// Reports an error at `where` when `elem` cannot be the element of a
/// buffer shared with CUDA code: the lowering pads vector<3xT> to four
/// elements (float3: 16 bytes, 12 in CUDA), so every element after the
/// first would be read from the wrong address.
bool FunctionEmitter::isBufferElement(clang::QualType elem, clang::SourceLocation where) {
  std::optional<std::pair<clang::QualType, int64_t>> vec = vectorRecord(elem);
  if (!vec || vec->second != 3)
    return true;
  error(where, "buffers of '" + elem.getUnqualifiedType().getAsString() +
                   "' are not supported yet: three-component vector types are padded to "
                   "four components when lowered, which is not CUDA's layout");
  return false;
}

Type FunctionEmitter::scalarType(clang::QualType t, clang::SourceLocation where) {
  t = t.getCanonicalType().getUnqualifiedType();
  if (const auto *bt = dyn_cast<clang::BuiltinType>(t.getTypePtr())) {
    switch (bt->getKind()) {
    case clang::BuiltinType::Bool:
      return b.getI1Type();
    case clang::BuiltinType::Half:
    case clang::BuiltinType::Float16:
      return b.getF16Type();
    case clang::BuiltinType::BFloat16:
      return b.getBF16Type();
    case clang::BuiltinType::Float:
      return b.getF32Type();
    case clang::BuiltinType::Double:
      return b.getF64Type();
    default:
      if (bt->isInteger())
        return b.getIntegerType(ast.getTypeSize(t));
    }
  }
  if (t->isEnumeralType())
    return b.getIntegerType(ast.getTypeSize(t));
  // CUDA's vector types (float4, int2, ...) are vectors here.
  if (std::optional<std::pair<clang::QualType, int64_t>> vec = vectorRecord(t)) {
    Type elem = scalarType(vec->first, where);
    return VectorType::get({vec->second}, elem);
  }
  // CUDA's half-precision classes hold one 16-bit float.
  if (const clang::CXXRecordDecl *record = t->getAsCXXRecordDecl()) {
    if (record->getName() == "__half")
      return b.getF16Type();
    if (record->getName() == "__nv_bfloat16")
      return b.getBF16Type();
  }
  error(where, "type '" + t.getAsString() + "' is outside the supported subset");
  return b.getI32Type();
}

/// The overflow flags C gives an add, sub or mul computed in `t`: signed
/// overflow of int and wider is undefined behaviour, so nsw (as clang's own
/// code generator writes); unsigned arithmetic wraps; narrower types are
/// promoted to int before the operation and converted back after it, which
/// is not undefined, so they get no flag. nsw lets LLVM widen and
/// strength-reduce 32-bit index arithmetic, and lets the raising passes
/// read `row * K + p` as a 64-bit offset (docs/Raising.md).
arith::IntegerOverflowFlags FunctionEmitter::overflowFlags(clang::QualType t) {
  if (t->isSignedIntegerType() && !t->isBooleanType() && ast.getTypeSize(t) >= 32)
    return arith::IntegerOverflowFlags::nsw;
  return arith::IntegerOverflowFlags::none;
}

FailureOr<SmallVector<Type>> FunctionEmitter::parameterTypes(const clang::FunctionDecl *fn) {
  // Pointers become dynamically sized 1-D memrefs, scalars keep their type.
  SmallVector<Type> types;
  for (const clang::ParmVarDecl *p : fn->parameters()) {
    clang::QualType t = p->getType();
    if (t->isPointerType()) {
      if (t->getPointeeType()->isPointerType() ||
          (t->getPointeeType()->isRecordType() && !isValueClass(t->getPointeeType())))
        return error(p->getLocation(), "parameter '" + p->getName() + "' of type '" +
                                           t.getAsString() + "' is outside the supported subset"),
               failure();
      if (!isBufferElement(t->getPointeeType(), p->getLocation()))
        return failure();
      types.push_back(MemRefType::get({ShapedType::kDynamic},
                                      scalarType(t->getPointeeType(), p->getLocation())));
    } else if (t->isReferenceType() || (t->isRecordType() && !isValueClass(t))) {
      return error(p->getLocation(), "parameter '" + p->getName() + "' of type '" +
                                         t.getAsString() + "' is outside the supported subset"),
             failure();
    } else {
      types.push_back(scalarType(t, p->getLocation()));
    }
  }
  if (hadError)
    return failure();
  return types;
}

Value FunctionEmitter::toBool(Value v, const clang::Expr *at) {
  Location l = loc(at);
  if (v.getType().isInteger(1))
    return v;
  if (isa<FloatType>(v.getType()))
    return arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNE, v,
                                 arith::ConstantOp::create(b, l, b.getFloatAttr(v.getType(), 0)));
  return arith::CmpIOp::create(b, l, arith::CmpIPredicate::ne, v,
                               arith::ConstantOp::create(b, l, b.getIntegerAttr(v.getType(), 0)));
}

Value FunctionEmitter::convert(Value v, clang::QualType from, clang::QualType to,
                               const clang::Expr *at) {
  if (!v)
    return nullptr;
  Type target = scalarType(to, at->getBeginLoc());
  Type source = v.getType();
  if (source == target)
    return v;
  Location l = loc(at);
  if (to->isBooleanType())
    return toBool(v, at);
  bool srcFloat = isa<FloatType>(source), dstFloat = isa<FloatType>(target);
  if (srcFloat && dstFloat)
    return source.getIntOrFloatBitWidth() < target.getIntOrFloatBitWidth()
               ? Value(arith::ExtFOp::create(b, l, target, v))
               : Value(arith::TruncFOp::create(b, l, target, v));
  if (!srcFloat && dstFloat)
    return isUnsigned(from) || from->isBooleanType()
               ? Value(arith::UIToFPOp::create(b, l, target, v))
               : Value(arith::SIToFPOp::create(b, l, target, v));
  if (srcFloat && !dstFloat)
    return isUnsigned(to) ? Value(arith::FPToUIOp::create(b, l, target, v))
                          : Value(arith::FPToSIOp::create(b, l, target, v));
  unsigned sw = source.getIntOrFloatBitWidth(), dw = target.getIntOrFloatBitWidth();
  if (sw > dw)
    return arith::TruncIOp::create(b, l, target, v);
  return isUnsigned(from) || from->isBooleanType() ? Value(arith::ExtUIOp::create(b, l, target, v))
                                                   : Value(arith::ExtSIOp::create(b, l, target, v));
}
