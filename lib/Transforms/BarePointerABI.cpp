//===- BarePointerABI.cpp - Pass kernel buffers as bare pointers ----------===//
//
// Upstream's bare-pointer calling convention (LLVMTypeConverter) rejects
// dynamically shaped memrefs, which is how every lifted CUDA pointer looks, and
// its default convention expands a memref into five kernel parameters. We want
// PTX entries with the CUDA signature, so this pass does the one thing
// upstream lacks: it turns rank-1 dynamic memref kernel arguments into
// pointers and rebuilds their descriptors in the kernel.
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::ks {
#define GEN_PASS_DEF_KSBAREPOINTERABI
#include "kernelskill/Transforms/Passes.h.inc"
} // namespace mlir::ks

using namespace mlir;
using namespace mlir::ks;

namespace {
/// The LLVM address space of a memref's memory space, if it has a plain one.
std::optional<unsigned> getAddressSpace(MemRefType type) {
  Attribute space = type.getMemorySpace();
  if (!space)
    return 0;
  if (auto integer = dyn_cast<IntegerAttr>(space))
    return integer.getInt();
  if (auto gpuSpace = dyn_cast<gpu::AddressSpaceAttr>(space))
    return gpuSpace.getValue() == gpu::AddressSpace::Global ? std::optional<unsigned>(1)
                                                           : std::nullopt;
  return std::nullopt;
}

/// Whether `type` is a kernel buffer this pass rewrites, or an error message.
FailureOr<bool> needsRewrite(MemRefType type, function_ref<InFlightDiagnostic()> emitError) {
  if (type.hasStaticShape())
    return false; // upstream's bare-pointer convention handles it
  if (type.getRank() != 1 || !type.getLayout().isIdentity())
    return emitError() << "cannot pass " << type
                       << " as a bare pointer: only rank-1 identity-layout dynamic memrefs "
                          "(lifted CUDA pointers) can be rebuilt from a pointer";
  if (!getAddressSpace(type))
    return emitError() << "cannot pass " << type << ": unsupported memory space";
  return true;
}

/// Builds the memref descriptor of `ptr` (offset 0, stride 1, size unknown,
/// which loads and stores never read) and casts it to `type`; the cast folds
/// away when memref-to-llvm converts the users.
Value rebuildMemRef(OpBuilder &b, Location loc, Value ptr, MemRefType type) {
  MLIRContext *ctx = b.getContext();
  Type i64 = b.getI64Type();
  auto array = LLVM::LLVMArrayType::get(i64, 1);
  auto descType =
      LLVM::LLVMStructType::getLiteral(ctx, {ptr.getType(), ptr.getType(), i64, array, array});
  Value zero = LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(0));
  Value one = LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(1));
  Value desc = LLVM::PoisonOp::create(b, loc, descType);
  desc = LLVM::InsertValueOp::create(b, loc, desc, ptr, ArrayRef<int64_t>{0});
  desc = LLVM::InsertValueOp::create(b, loc, desc, ptr, ArrayRef<int64_t>{1});
  desc = LLVM::InsertValueOp::create(b, loc, desc, zero, ArrayRef<int64_t>{2});
  desc = LLVM::InsertValueOp::create(b, loc, desc, zero, ArrayRef<int64_t>{3, 0});
  desc = LLVM::InsertValueOp::create(b, loc, desc, one, ArrayRef<int64_t>{4, 0});
  return UnrealizedConversionCastOp::create(b, loc, type, desc).getResult(0);
}

/// What the source proves about a pointer argument, for LLVM: a `T *` is
/// aligned to T (`.ptr .align 4` for a float *, where LLVM writes 1 without
/// it); `__restrict__` makes it noalias, and `const T *__restrict__`
/// readonly too, which lets NVPTX load through the read-only path
/// (ld.global.nc). Without __restrict__ nothing is assumed: another buffer
/// argument could be the same memory.
void annotatePointer(gpu::GPUFuncOp func, unsigned i, MemRefType type) {
  Builder b(func.getContext());
  if (type.getElementType().isIntOrFloat())
    func.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                    b.getI64IntegerAttr(std::max<int64_t>(1, type.getElementTypeBitWidth() / 8)));
  if (!func.getArgAttr(i, "ks.restrict"))
    return;
  func.setArgAttr(i, LLVM::LLVMDialect::getNoAliasAttrName(), b.getUnitAttr());
  if (func.getArgAttr(i, "ks.const"))
    func.setArgAttr(i, LLVM::LLVMDialect::getReadonlyAttrName(), b.getUnitAttr());
}

struct BarePointerABIPass : public ks::impl::KSBarePointerABIBase<BarePointerABIPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Kernel symbol -> which arguments became pointers.
    llvm::DenseMap<Operation *, llvm::SmallVector<unsigned>> rewritten;
    WalkResult result = module.walk([&](gpu::GPUFuncOp func) {
      if (!func.isKernel())
        return WalkResult::advance();
      llvm::SmallVector<unsigned> indices;
      for (auto [i, arg] : llvm::enumerate(func.getArguments())) {
        auto type = dyn_cast<MemRefType>(arg.getType());
        if (!type)
          continue;
        FailureOr<bool> rewrite = needsRewrite(type, [&] {
          return func.emitError() << "kernel argument #" << i << ": ";
        });
        if (failed(rewrite))
          return WalkResult::interrupt();
        if (*rewrite)
          indices.push_back(i);
      }
      if (indices.empty())
        return WalkResult::advance();
      Block &entry = func.getBody().front();
      OpBuilder b = OpBuilder::atBlockBegin(&entry);
      llvm::SmallVector<Type> argTypes(func.getArgumentTypes());
      for (unsigned i : indices) {
        BlockArgument arg = entry.getArgument(i);
        auto type = cast<MemRefType>(arg.getType());
        auto ptrType = LLVM::LLVMPointerType::get(&getContext(), *getAddressSpace(type));
        llvm::SmallVector<OpOperand *> uses =
            llvm::map_to_vector(arg.getUses(), [](OpOperand &use) { return &use; });
        arg.setType(ptrType);
        argTypes[i] = ptrType;
        Value memref = rebuildMemRef(b, arg.getLoc(), arg, type);
        for (OpOperand *use : uses)
          use->set(memref);
        annotatePointer(func, i, type);
      }
      func.setFunctionType(FunctionType::get(&getContext(), argTypes, {}));
      rewritten[func] = std::move(indices);
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return signalPassFailure();

    // Pass each rewritten buffer's aligned pointer at every launch.
    SymbolTableCollection symbols;
    module.walk([&](gpu::LaunchFuncOp launch) {
      auto func = symbols.lookupNearestSymbolFrom<gpu::GPUFuncOp>(launch, launch.getKernel());
      auto it = func ? rewritten.find(func) : rewritten.end();
      if (it == rewritten.end())
        return;
      OpBuilder b(launch);
      Location loc = launch.getLoc();
      for (unsigned i : it->second) {
        Value buffer = launch.getKernelOperand(i);
        Type ptrType = func.getArgumentTypes()[i];
        Value address = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer);
        Value asInt = arith::IndexCastOp::create(b, loc, b.getI64Type(), address);
        Value ptr = LLVM::IntToPtrOp::create(b, loc, ptrType, asInt);
        launch.getKernelOperandsMutable()[i].set(ptr);
      }
    });
  }
};
} // namespace
