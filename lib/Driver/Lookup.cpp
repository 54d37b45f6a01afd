//===- Lookup.cpp - Finding a kernel and its launch by name ---------------===//

#include "kernelskill/Driver/Lookup.h"

using namespace mlir;

gpu::GPUFuncOp mlir::ks::findKernel(ModuleOp module, StringRef name) {
  gpu::GPUFuncOp found;
  module.walk([&](gpu::GPUFuncOp g) {
    if (!found && g.isKernel() && g.getName() == name)
      found = g;
  });
  return found;
}

std::pair<gpu::LaunchFuncOp, func::FuncOp> mlir::ks::findLaunch(ModuleOp module,
                                                                StringRef kernel) {
  gpu::LaunchFuncOp found;
  module.walk([&](gpu::LaunchFuncOp launch) {
    if (!found && launch.getKernelName() == kernel)
      found = launch;
  });
  return {found, found ? found->getParentOfType<func::FuncOp>() : func::FuncOp()};
}
