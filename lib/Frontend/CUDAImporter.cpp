//===- CUDAImporter.cpp - CUDA C++ to lifted MLIR -------------------------===//
//
// The importer's entry: parse the file with clang, find the kernels and the
// host functions that launch them, emit each (KernelEmitter,
// LauncherEmitter; FunctionEmitter.h has the design), verify, and run the
// structuring pipeline (Transforms/ImportStructuring.h).
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Frontend/CUDAImporter.h"
#include "CUDAParser.h"
#include "FunctionEmitter.h"
#include "kernelskill/Dialect/KS/IR/KSDialect.h"
#include "kernelskill/Transforms/ImportStructuring.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

#include "llvm/ADT/BitVector.h"

using namespace mlir;
using namespace mlir::ks;
using namespace mlir::ks::frontend;

namespace {
/// Finds the kernels to import: every __global__ function with a body, and
/// every instantiation of a __global__ template.
class KernelCollector : public clang::RecursiveASTVisitor<KernelCollector> {
public:
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool VisitFunctionDecl(clang::FunctionDecl *fn) {
    if (fn->hasAttr<clang::CUDAGlobalAttr>() && fn->doesThisDeclarationHaveABody() &&
        !fn->isDependentContext() && !fn->getDescribedFunctionTemplate())
      kernels.push_back(fn);
    return true;
  }
  std::vector<clang::FunctionDecl *> kernels;
};

/// Finds the host functions of the user's code (the file and its headers
/// outside the system's): those that launch kernels, and the others, which
/// are skipped with a remark each.
class HostFunctionCollector : public clang::RecursiveASTVisitor<HostFunctionCollector> {
public:
  explicit HostFunctionCollector(clang::SourceManager &sm) : sm(sm) {}
  /// Templates of host wrappers are lifted per instantiation.
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool VisitFunctionDecl(clang::FunctionDecl *fn) {
    if (fn->hasAttr<clang::CUDAGlobalAttr>() || fn->hasAttr<clang::CUDADeviceAttr>() ||
        !fn->doesThisDeclarationHaveABody() || fn->isDependentContext() || fn->isImplicit() ||
        sm.isInSystemHeader(sm.getExpansionLoc(fn->getLocation())))
      return true;
    bool launches = containsLaunch(fn->getBody());
    if (isa<clang::CXXMethodDecl>(fn)) {
      // Member functions (and lambdas) are not lifted; say so only where it
      // loses launches.
      if (launches)
        skipped.push_back({fn, "launches kernels from a member function or lambda, which is not "
                               "lifted yet"});
      return true;
    }
    if (launches)
      launchers.push_back(fn);
    else if (isSliceableHelper(fn, fn->getASTContext()))
      skipped.push_back({fn, "launches no kernel: launch slices that call it inline it"});
    else
      skipped.push_back({fn, "launches no kernel"});
    return true;
  }
  clang::SourceManager &sm;
  std::vector<clang::FunctionDecl *> launchers;
  std::vector<std::pair<clang::FunctionDecl *, const char *>> skipped;
};

/// Whether `s` launches a kernel `wanted` accepts.
bool launchesAny(const clang::Stmt *s, function_ref<bool(const clang::FunctionDecl *)> wanted) {
  if (!s)
    return false;
  if (auto *launch = dyn_cast<clang::CUDAKernelCallExpr>(s))
    if (const clang::FunctionDecl *callee = launch->getDirectCallee(); callee && wanted(callee))
      return true;
  for (const clang::Stmt *child : s->children())
    if (launchesAny(child, wanted))
      return true;
  return false;
}

/// Drops the parameters the launch slice added for host values that no
/// launch turned out to need, and names the ones that stay.
void finishLaunchers(ModuleOp module) {
  for (auto launcher : module.getOps<func::FuncOp>()) {
    llvm::BitVector unused(launcher.getNumArguments());
    for (unsigned i = 0; i < launcher.getNumArguments(); ++i) {
      if (!launcher.getArgAttr(i, "ks.host_value"))
        continue;
      if (launcher.getArgument(i).use_empty()) {
        unused.set(i);
        continue;
      }
      auto name = launcher.getArgAttrOfType<StringAttr>(i, kNameAttrName);
      Location where = launcher.getArgument(i).getLoc();
      StringRef variable = name.getValue();
      if (auto named = dyn_cast<NameLoc>(where)) {
        variable = named.getName().getValue();
        where = named.getChildLoc();
      }
      emitRemark(where) << "'" << variable
                        << "' is computed by host code outside the launch slice of '"
                        << launcher.getName() << "': the launcher takes it as parameter '"
                        << name.getValue() << "'";
    }
    (void)launcher.eraseArguments(unused);
  }
}
} // namespace

OwningOpRef<ModuleOp> mlir::ks::importCUDA(MLIRContext &context, StringRef path,
                                           const CUDAImportOptions &options) {
  std::unique_ptr<clang::ASTUnit> unit =
      parseCUDA(context, path.str(), options.gpuArch, options.extraArgs, options.pchDir);
  if (!unit)
    return nullptr;
  context.loadDialect<arith::ArithDialect, cf::ControlFlowDialect, func::FuncDialect, gpu::GPUDialect,
                      math::MathDialect, memref::MemRefDialect, scf::SCFDialect, ub::UBDialect,
                      vector::VectorDialect, NVVM::NVVMDialect>();
  clang::ASTContext &ast = unit->getASTContext();
  OpBuilder b(&context);
  Location fileLoc = FileLineColLoc::get(&context, path, 1, 1);
  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);
  (*module)->setAttr(gpu::GPUDialect::getContainerModuleAttrName(), b.getUnitAttr());
  (*module)->setAttr(kSourceAttrName, b.getStringAttr(path));
  b.setInsertionPointToEnd(module->getBody());
  auto gpuModule = gpu::GPUModuleOp::create(b, fileLoc, "kernels");

  KernelCollector collector;
  collector.TraverseDecl(ast.getTranslationUnitDecl());
  if (collector.kernels.empty()) {
    emitError(fileLoc) << "no __global__ kernel with a body";
    return nullptr;
  }
  if (!options.kernels.empty()) {
    // --kernel NAME: the kernels named (a template's name selects every
    // instantiation), each name matching at least one.
    std::vector<clang::FunctionDecl *> selected;
    for (const std::string &name : options.kernels) {
      size_t before = selected.size();
      for (clang::FunctionDecl *fn : collector.kernels)
        if ((fn->getName() == name || kernelName(fn) == name) && !llvm::is_contained(selected, fn))
          selected.push_back(fn);
      if (selected.size() == before) {
        std::string known;
        for (clang::FunctionDecl *fn : collector.kernels)
          known += (known.empty() ? "" : ", ") + kernelName(fn);
        emitError(fileLoc) << "no kernel named '" << name << "' (the file has: " << known << ")";
        return nullptr;
      }
    }
    collector.kernels = std::move(selected);
  }
  // Every kernel is emitted even after one fails, so that one run reports
  // the first error of each. The launchers follow when every kernel could
  // be (a launch of a failed kernel would only repeat its error).
  bool failedAny = false;
  for (clang::FunctionDecl *fn : collector.kernels) {
    KernelEmitter emitter(&context, ast);
    failedAny |= !emitter.emitKernel(fn, gpuModule, kernelName(fn));
  }
  if (failedAny)
    return nullptr;
  HostFunctionCollector hostFunctions(ast.getSourceManager());
  hostFunctions.TraverseDecl(ast.getTranslationUnitDecl());
  for (auto [fn, why] : hostFunctions.skipped)
    emitRemark(KernelEmitter(&context, ast).loc(fn->getLocation()))
        << "host function '" << fn->getName() << "' " << why << ": skipped";
  for (clang::FunctionDecl *fn : hostFunctions.launchers) {
    // With a selection, a launcher of none of the selected kernels is left
    // out, and launches of the others are skipped in those that stay.
    if (!options.kernels.empty() &&
        !launchesAny(fn->getBody(), [&](const clang::FunctionDecl *k) {
          return gpuModule.lookupSymbol(kernelName(k)) != nullptr;
        }))
      continue;
    LauncherEmitter emitter(&context, ast, gpuModule, /*skipUnknownKernels=*/!options.kernels.empty());
    failedAny |= !emitter.emitLauncher(fn, *module);
  }
  if (failedAny)
    return nullptr;
  if (failed(verify(*module))) {
    // The verifier has said which op; this names the step. A bug of the
    // importer: every such input gets a regression test.
    emitError(fileLoc) << "internal: the imported IR does not verify";
    return nullptr;
  }
  if (options.structure) {
    PassManager pm(&context);
    buildImportStructuringPipeline(pm);
    if (failed(pm.run(*module))) {
      // The pass itself has said at which op; this line names the step.
      emitError(fileLoc) << "internal: the imported kernels' control flow could not be "
                            "structured (--no-structure imports the raw control-flow graph)";
      return nullptr;
    }
    finishLaunchers(*module);
  }
  return module;
}
