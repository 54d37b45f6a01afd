//===- ImportStructuring.cpp - The importer's structuring pipeline --------===//

#include "kernelskill/Transforms/ImportStructuring.h"
#include "kernelskill/Transforms/Passes.h"

#include "mlir/Conversion/ControlFlowToSCF/ControlFlowToSCF.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void mlir::ks::buildImportStructuringPipeline(OpPassManager &pm) {
  pm.addNestedPass<gpu::GPUModuleOp>(createMem2Reg());
  pm.addNestedPass<func::FuncOp>(createMem2Reg());
  // Upstream's lifting refuses unreachable blocks (those after a `return`
  // in the middle of a launcher): region simplification drops them first.
  pm.addNestedPass<func::FuncOp>(createCanonicalizerPass());
  pm.addNestedPass<func::FuncOp>(createLiftControlFlowToSCFPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createKSLiftKernelCFG());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}
