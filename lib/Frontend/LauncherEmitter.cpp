//===- LauncherEmitter.cpp - Host functions that launch kernels -----------===//
//
// A host function that launches kernels becomes a func.func launcher: its
// dim3 variables, the scalar computation of its launch sizes and
// arguments, and one gpu.launch_func per launch. Its pointer parameters are
// passed on whole (no offsets).
//
//===----------------------------------------------------------------------===//

#include "FunctionEmitter.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::ks::frontend;

bool LauncherEmitter::emitLauncher(const clang::FunctionDecl *fn, ModuleOp module) {
  Location l = loc(fn->getBeginLoc());
  if (!fn->getReturnType()->isVoidType())
    return error(fn->getBeginLoc(), "a launcher ('" + fn->getName() + "') must return void"), false;
  FailureOr<SmallVector<Type>> argTypes = parameterTypes(fn);
  if (failed(argTypes))
    return false;
  b.setInsertionPointToEnd(module.getBody());
  auto launcher = func::FuncOp::create(b, l, fn->getName(), b.getFunctionType(*argTypes, {}));
  for (auto [i, p] : llvm::enumerate(fn->parameters())) {
    launcher.setArgAttr(i, "ks.name", b.getStringAttr(p->getName()));
    // A __restrict__ pointer of the launcher: the buffers its kernels reach
    // through it overlap no other parameter's (ks-fuse-launches relies on it).
    if (p->getType().isRestrictQualified())
      launcher.setArgAttr(i, "ks.restrict", b.getUnitAttr());
  }
  Block *entryBlock = launcher.addEntryBlock();
  return emitBody(fn, launcher.getBody(), entryBlock, launcher.getArguments(),
                  /*pointerOffsets=*/false, [&](Location end) { func::ReturnOp::create(b, end); });
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
    if (isa<MemRefType>(expected)) {
      std::optional<Pointer> p = pointer(arg);
      if (!p)
        return;
      auto constant = getConstantIntValue(p->offset);
      if (!constant || *constant != 0)
        return (void)error(arg, "pass kernels a pointer parameter of the launcher as it is (offset pointers are not supported yet)");
      operands.push_back(p->base);
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
  return error(e, "host code may only compute launch sizes and launch kernels; the call to '" +
                      callee->getName() + "' is outside the launcher subset");
}

std::optional<LValue> LauncherEmitter::memberLValue(const clang::MemberExpr *member) {
  // grid.x on a dim3 variable.
  auto *ref = dyn_cast<clang::DeclRefExpr>(member->getBase()->IgnoreParenImpCasts());
  auto it = ref ? dims.find(dyn_cast<clang::VarDecl>(ref->getDecl())) : dims.end();
  if (it == dims.end()) {
    error(member, "struct and vector members (float4.x, ...) are not supported yet");
    return std::nullopt;
  }
  unsigned field = llvm::StringSwitch<unsigned>(member->getMemberDecl()->getName())
                       .Case("x", 0).Case("y", 1).Default(2);
  return LValue{it->second[field], {}};
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
