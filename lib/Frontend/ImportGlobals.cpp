//===- ImportGlobals.cpp - __constant__ and __device__ variables ----------===//
//
// File-scope device variables as memref.global ops of the kernels' gpu
// module, read through memref.get_global:
//
//   __constant__ float taps[5];          memref.global @taps : memref<5xf32, 4>
//   __device__ unsigned hits;            memref.global @hits : memref<1xi32, ...>
//                                            {ks.scalar}
//   __device__ int table[2][3] = {...};  memref.global @table : memref<2x3xi32,
//                                            #gpu.address_space<global>> = dense<...>
//                                            {ks.initialized}
//
// __constant__ memory has no gpu.address_space; it is memory space 4, NVVM's
// (and PTX's .const) space, which the NVVM lowering keeps as LLVM address
// space 4 so loads become ld.const. A global the source declares without an
// initializer is zero (as C says) and is given a zero initializer: a
// memref.global without one lowers to an `.extern` declaration that nothing
// defines. Host code fills such variables (cudaMemcpyToSymbol); launch slices
// skip those copies, and ks-bench fills the globals a manifest names.
//
//===----------------------------------------------------------------------===//

#include "FunctionEmitter.h"
#include "kernelskill/Dialect/KS/IR/KSDialect.h"
#include "kernelskill/Support/CUDABuiltins.h"

#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::ks::frontend;

Slot *KernelEmitter::bindGlobal(const clang::VarDecl *var) {
  if (!var->hasGlobalStorage() || var->isStaticLocal() || var->hasAttr<clang::CUDASharedAttr>())
    return nullptr;
  bool constant = var->hasAttr<clang::CUDAConstantAttr>();
  if (!constant && !var->hasAttr<clang::CUDADeviceAttr>())
    return nullptr;
  clang::SourceLocation where = var->getLocation();
  Attribute space = constant ? Attribute(b.getI64IntegerAttr(cuda::kConstantMemorySpace))
                             : Attribute(gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Global));
  clang::QualType t = var->getType();
  MemRefType type;
  if (ast.getAsConstantArrayType(t)) {
    type = arrayType(var, space);
  } else if (t->isArrayType()) {
    return error(where, "a file-scope device array needs a size");
  } else if (t->isPointerType()) {
    return error(where, "file-scope device pointers (set with cudaMemcpyToSymbol) are outside "
                        "the supported subset; pass the buffer as a kernel parameter");
  } else {
    // A scalar is an array of one (marked ks.scalar for the exporter), so
    // that `&hits` is a pointer like any buffer's: atomicAdd(&hits, 1).
    Type elem = scalarType(t, where);
    if (!hadError)
      type = MemRefType::get({1}, elem, nullptr, space);
  }
  if (!type)
    return nullptr;
  if (!type.getElementType().isIntOrFloat())
    return error(where, "file-scope device variables of vector or half types are not supported "
                        "yet (use scalar elements)");

  auto module = func->getParentOfType<gpu::GPUModuleOp>();
  StringRef name = var->getName();
  Location l = loc(where);
  auto global = module.lookupSymbol<memref::GlobalOp>(name);
  if (!global) {
    if (SymbolTable::lookupSymbolIn(module, name))
      return error(where, "device variable '" + name + "' has the name of a kernel");
    DenseElementsAttr init = globalInitializer(var, type);
    if (!init)
      return nullptr;
    // In the order kernels first use them, before the kernels.
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    for (memref::GlobalOp earlier : module.getOps<memref::GlobalOp>())
      b.setInsertionPointAfter(earlier);
    // `const` variables are constants MLIR may fold; others, even with an
    // initializer, may be rewritten by the host between launches.
    global = memref::GlobalOp::create(b, l, b.getStringAttr(name), b.getStringAttr("public"), type,
                                      init, /*constant=*/t.isConstQualified(),
                                      /*alignment=*/nullptr);
    if (!t->isArrayType())
      global->setAttr(kScalarAttrName, b.getUnitAttr());
    // The source's own initializer (a lookup table), not C's zero: what
    // the launch spec may take as the variable's value (LaunchSpec.cpp).
    if (var->hasInit())
      global->setAttr(kInitializedAttrName, b.getUnitAttr());
  } else if (global.getType() != type) {
    return error(where, "device variable '" + name + "' is declared with another type elsewhere");
  }
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(entry);
  Slot slot;
  slot.storage = memref::GetGlobalOp::create(b, l, type, name);
  if (t->isArrayType()) {
    slot.kind = Slot::Array;
  } else {
    slot.kind = Slot::Reference;
    slot.place = LValue{slot.storage, {indexConst(0, l)}, 1, std::nullopt, var};
  }
  return &(vars[var] = slot);
}

/// Appends the scalars of constant `v` to `out` as `elem` attributes,
/// row-major: arrays nest, and the elements an initializer leaves out take
/// the array's filler (zero). False for what is no scalar or array of them.
static bool flatten(const clang::APValue &v, Type elem, SmallVectorImpl<Attribute> &out) {
  if (v.isArray()) {
    for (unsigned i = 0, n = v.getArraySize(); i < n; ++i) {
      const clang::APValue &e =
          i < v.getArrayInitializedElts() ? v.getArrayInitializedElt(i) : v.getArrayFiller();
      if (!flatten(e, elem, out))
        return false;
    }
    return true;
  }
  if (v.isInt()) {
    llvm::APSInt i = v.getInt();
    out.push_back(IntegerAttr::get(elem, i.extOrTrunc(elem.getIntOrFloatBitWidth())));
    return true;
  }
  if (v.isFloat() && isa<FloatType>(elem)) {
    llvm::APFloat f = v.getFloat();
    bool lost = false;
    f.convert(cast<FloatType>(elem).getFloatSemantics(), llvm::APFloat::rmNearestTiesToEven, &lost);
    out.push_back(FloatAttr::get(elem, f));
    return true;
  }
  return false;
}

DenseElementsAttr KernelEmitter::globalInitializer(const clang::VarDecl *var, MemRefType type) {
  auto tensor = RankedTensorType::get(type.getShape(), type.getElementType());
  Type elem = type.getElementType();
  const clang::Expr *init = var->getInit();
  if (!init || !var->hasInit())
    return DenseElementsAttr::get(tensor, isa<FloatType>(elem) ? Attribute(FloatAttr::get(elem, 0.0))
                                                             : Attribute(IntegerAttr::get(elem, 0)));
  const clang::APValue *value = var->evaluateValue();
  SmallVector<Attribute> elements;
  if (!value || !flatten(*value, elem, elements) ||
      int64_t(elements.size()) != type.getNumElements()) {
    error(init, "the initializer of device variable '" + var->getName() +
                    "' is not a constant of its type");
    return {};
  }
  return DenseElementsAttr::get(tensor, elements);
}
