//===- KernelEmitter.cpp - __global__ functions as gpu.func ---------------===//
//
// The device side's hooks: the builtin variables, __shared__ memory, and
// what has no meaning in a kernel (launches, dim3).
//
//===----------------------------------------------------------------------===//

#include "FunctionEmitter.h"
#include "kernelskill/Dialect/KS/IR/KSDialect.h"

using namespace mlir;
using namespace mlir::ks::frontend;

bool KernelEmitter::emitKernel(const clang::FunctionDecl *fn, gpu::GPUModuleOp module,
                               StringRef name) {
  Location l = loc(fn->getBeginLoc());
  FailureOr<SmallVector<Type>> argTypes = parameterTypes(fn);
  if (failed(argTypes))
    return false;
  b.setInsertionPointToEnd(module.getBody());
  func = gpu::GPUFuncOp::create(b, l, name, b.getFunctionType(*argTypes, {}));
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  // extern "C" kernels stay so in the export; the others keep C++ linkage.
  if (fn->isExternC())
    func->setAttr(kExternCAttrName, b.getUnitAttr());
  // Keep what later passes and the exporter need: names, const, __restrict__.
  for (auto [i, p] : llvm::enumerate(fn->parameters())) {
    func.setArgAttr(i, kNameAttrName, b.getStringAttr(p->getName()));
    clang::QualType t = p->getType();
    if (t->isPointerType() && t->getPointeeType().isConstQualified())
      func.setArgAttr(i, "ks.const", b.getUnitAttr());
    if (t.isRestrictQualified())
      func.setArgAttr(i, "ks.restrict", b.getUnitAttr());
  }
  return emitBody(fn, fn->parameters(), func.getBody(), &func.getBody().front(),
                  func.getArguments(), /*pointerOffsets=*/true, [&](Location end) { gpu::ReturnOp::create(b, end); });
}

Value KernelEmitter::emitBuiltinVariable(StringRef name, gpu::Dimension dim, const clang::Expr *e) {
  Location l = loc(e);
  Value v;
  if (name == "threadIdx")
    v = gpu::ThreadIdOp::create(b, l, dim);
  else if (name == "blockIdx")
    v = gpu::BlockIdOp::create(b, l, dim);
  else if (name == "blockDim")
    v = gpu::BlockDimOp::create(b, l, dim);
  else if (name == "gridDim")
    v = gpu::GridDimOp::create(b, l, dim);
  else
    return error(e, "unknown builtin variable '" + name + "'");
  return arith::IndexCastUIOp::create(b, l, b.getI32Type(), v);
}

void KernelEmitter::emitLaunch(const clang::CUDAKernelCallExpr *e) {
  error(e, "dynamic parallelism (a launch inside a kernel) is outside the supported subset");
}

std::optional<LValue> KernelEmitter::memberLValue(const clang::MemberExpr *e) {
  error(e, "struct and vector members (float4.x, ...) are not supported yet");
  return std::nullopt;
}

/// extern __shared__ T s[]: the launch's dynamic shared memory, viewed as
/// `elemType` elements. The view's size is the largest a block can have;
/// loads and stores never read it.
Value KernelEmitter::dynamicSharedAs(clang::QualType elemType, clang::SourceLocation where) {
  if (!isBufferElement(elemType, where))
    return nullptr;
  Type elem = scalarType(elemType, where);
  if (hadError)
    return nullptr;
  Location l = loc(where);
  auto space = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(entry);
  Value bytes = gpu::DynamicSharedMemoryOp::create(
      b, l, MemRefType::get({ShapedType::kDynamic}, b.getI8Type(), nullptr, space));
  int64_t elemBytes = std::max<int64_t>(1, ast.getTypeSizeInChars(elemType).getQuantity());
  int64_t maxElems = 227 * 1024 / elemBytes;
  return memref::ViewOp::create(b, l, MemRefType::get({ShapedType::kDynamic}, elem, nullptr, space),
                                bytes, indexConst(0, l), ValueRange{indexConst(maxElems, l)});
}

bool KernelEmitter::emitSpecialDecl(const clang::VarDecl *var) {
  Location l = loc(var->getLocation());
  clang::QualType t = var->getType();
  if (isDim3(t))
    return error(var->getLocation(), "dim3 variables belong in host code"), true;
  if (emitGroupDecl(var))
    return true;
  if (!var->hasAttr<clang::CUDASharedAttr>())
    return false;
  auto space = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  if (const clang::IncompleteArrayType *open = ast.getAsIncompleteArrayType(t)) {
    Slot slot;
    slot.kind = Slot::Array;
    slot.storage = dynamicSharedAs(open->getElementType(), var->getLocation());
    if (slot.storage)
      vars[var] = slot;
    return true;
  }
  if (!ast.getAsConstantArrayType(t))
    return error(var->getLocation(),
                 "only __shared__ arrays are supported (make it a 1-element array)"),
           true;
  // __shared__ arrays are workgroup attributions of the kernel.
  MemRefType type = arrayType(var, space);
  if (!type)
    return true;
  // CUDA lets a block declare 48 KiB statically (ptxas refuses more); the
  // rest of the SM's shared memory is dynamic, opted into per kernel.
  constexpr int64_t kStaticSharedLimit = 48 * 1024;
  staticSharedBytes += type.getNumElements() * ast.getTypeSizeInChars(ast.getBaseElementType(t))
                                                   .getQuantity();
  if (staticSharedBytes > kStaticSharedLimit)
    return error(var->getLocation(),
                 "this kernel's static __shared__ memory reaches " + Twine(staticSharedBytes) +
                     " bytes, over the " + Twine(kStaticSharedLimit) +
                     " a block may declare statically (use extern __shared__ and the launch's "
                     "dynamic shared memory for more)"),
           true;
  Slot slot;
  slot.kind = Slot::Array;
  slot.storage = func.addWorkgroupAttribution(type, l);
  // The array's name, for the exporter (a block argument's location is not
  // printed with the gpu.func).
  func.setWorkgroupAttributionAttr(func.getNumWorkgroupAttributions() - 1,
                                   b.getStringAttr(kNameAttrName), b.getStringAttr(var->getName()));
  vars[var] = slot;
  return true;
}
