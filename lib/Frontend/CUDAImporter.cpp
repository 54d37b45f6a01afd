//===- CUDAImporter.cpp - CUDA C++ to lifted MLIR -------------------------===//
//
// The importer's entry: parse the file with clang, find the kernels and the
// host functions that launch them, emit each (KernelEmitter,
// LauncherEmitter; FunctionEmitter.h has the design), verify, and run the
// structuring pipeline (lib/Pipelines).
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Frontend/CUDAImporter.h"
#include "CUDAParser.h"
#include "FunctionEmitter.h"
#include "kernelskill/Pipelines/Pipelines.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"

#include "clang/AST/RecursiveASTVisitor.h"

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

/// Finds host functions (in the main file) that launch kernels.
class LauncherCollector : public clang::RecursiveASTVisitor<LauncherCollector> {
public:
  explicit LauncherCollector(clang::SourceManager &sm) : sm(sm) {}
  bool VisitFunctionDecl(clang::FunctionDecl *fn) {
    if (fn->hasAttr<clang::CUDAGlobalAttr>() || fn->hasAttr<clang::CUDADeviceAttr>() ||
        !fn->doesThisDeclarationHaveABody() || fn->isDependentContext() ||
        !sm.isInMainFile(sm.getExpansionLoc(fn->getLocation())))
      return true;
    struct Finder : clang::RecursiveASTVisitor<Finder> {
      bool found = false;
      bool VisitCUDAKernelCallExpr(clang::CUDAKernelCallExpr *) {
        found = true;
        return false;
      }
    } finder;
    finder.TraverseStmt(fn->getBody());
    if (finder.found)
      launchers.push_back(fn);
    return true;
  }
  clang::SourceManager &sm;
  std::vector<clang::FunctionDecl *> launchers;
};
} // namespace

OwningOpRef<ModuleOp> mlir::ks::importCUDA(MLIRContext &context, StringRef path,
                                           const CUDAImportOptions &options) {
  std::unique_ptr<clang::ASTUnit> unit =
      parseCUDA(context, path.str(), options.gpuArch, options.extraArgs, options.pchDir);
  if (!unit)
    return nullptr;
  context.loadDialect<arith::ArithDialect, cf::ControlFlowDialect, func::FuncDialect, gpu::GPUDialect,
                      math::MathDialect, memref::MemRefDialect, scf::SCFDialect, ub::UBDialect,
                      vector::VectorDialect>();
  clang::ASTContext &ast = unit->getASTContext();
  OpBuilder b(&context);
  Location fileLoc = FileLineColLoc::get(&context, path, 1, 1);
  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);
  (*module)->setAttr(gpu::GPUDialect::getContainerModuleAttrName(), b.getUnitAttr());
  (*module)->setAttr("ks.source", b.getStringAttr(path));
  b.setInsertionPointToEnd(module->getBody());
  auto gpuModule = gpu::GPUModuleOp::create(b, fileLoc, "kernels");

  KernelCollector collector;
  collector.TraverseDecl(ast.getTranslationUnitDecl());
  if (collector.kernels.empty()) {
    emitError(fileLoc) << "no __global__ kernel with a body";
    return nullptr;
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
  LauncherCollector launchers(ast.getSourceManager());
  launchers.TraverseDecl(ast.getTranslationUnitDecl());
  for (clang::FunctionDecl *fn : launchers.launchers) {
    LauncherEmitter emitter(&context, ast, gpuModule);
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
  }
  return module;
}
