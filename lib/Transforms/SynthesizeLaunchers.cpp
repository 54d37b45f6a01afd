//===- SynthesizeLaunchers.cpp - A covering launch for launcher-less kernels ===//
//
// A file of kernels alone leaves the launch to its caller; the raising needs
// a launcher to prove one thread per point. Nearly every such kernel is
// written for the launch its guard implies (one thread per index below the
// bound, ceil(bound / block) blocks): this pass writes that launcher, with
// the analysis the raising itself uses, so what it writes is what the
// raising accepts (docs/Raising.md, "Kernels without a launcher").
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Transforms/KernelLaunch.h"
#include "kernelskill/Transforms/Passes.h"
#include "kernelskill/Transforms/Raising.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/ScopeExit.h"

namespace mlir::ks {
#define GEN_PASS_DEF_KSSYNTHESIZELAUNCHERS
#include "kernelskill/Transforms/Passes.h.inc"
} // namespace mlir::ks

using namespace mlir;
using namespace mlir::ks;

namespace {
/// On a launcher this pass wrote: the name of the kernel it launches.

/// Threads per block along x, y, z where the kernel does not fix them, by
/// how many dimensions it indexes: 256 threads, the usual choice.
constexpr std::array<std::array<int64_t, 3>, 3> kDefaultBlocks = {
    {{256, 1, 1}, {16, 16, 1}, {8, 8, 4}}};

/// The covering launch of `kernel`, read from a copy with its counted loops
/// raised (a grid-stride loop is an scf.while until then); the bounds are
/// values of the copy, which the caller erases after use.
FailureOr<CoveringLaunch> analyzeCopy(gpu::GPUFuncOp kernel, gpu::GPUFuncOp &copy,
                                      std::string &why) {
  OpBuilder b(kernel);
  copy = cast<gpu::GPUFuncOp>(b.clone(*kernel));
  copy.setName((kernel.getName() + ".ks_covering_copy").str());
  SmallVector<scf::WhileOp> loops;
  copy.walk([&](scf::WhileOp loop) { loops.push_back(loop); });
  for (scf::WhileOp loop : loops) {
    std::string ignored;
    (void)raiseCountedLoop(loop, ignored);
  }
  return inferCoveringLaunch(copy, why);
}

/// The block shape of the written launch: along each dimension the kernel
/// indexes, what the kernel fixes (`gpu.known_block_size`, or `blockIdx *
/// C + threadIdx`), else the default for its number of dimensions, halved
/// (largest first) until the block is within CUDA's limits (1024 threads,
/// 64 along z).
FailureOr<std::array<int64_t, 3>> chooseBlock(gpu::GPUFuncOp kernel,
                                              const CoveringLaunch &covering, std::string &why) {
  std::optional<DenseI32ArrayAttr> known = kernel.getKnownBlockSizeAttr()
                                               ? std::optional(kernel.getKnownBlockSizeAttr())
                                               : std::nullopt;
  std::array<int64_t, 3> block = {1, 1, 1};
  std::array<bool, 3> fixed = {};
  unsigned used = 0;
  for (unsigned d = 0; d < 3; ++d)
    used += covering.bound[d] != nullptr;
  for (unsigned d = 0, free = 0; d < 3; ++d) {
    if (known) {
      block[d] = (*known)[d];
      fixed[d] = true;
      if (covering.block[d] && *covering.block[d] != block[d]) {
        why = "the kernel's known block size contradicts its index's block size";
        return failure();
      }
    } else if (covering.block[d]) {
      block[d] = *covering.block[d];
      fixed[d] = true;
    } else if (covering.bound[d]) {
      block[d] = kDefaultBlocks[used - 1][free++];
    }
    if (!covering.bound[d] && block[d] != 1) {
      why = std::string("the kernel's known block size has more than one thread along a "
                        "dimension it does not index");
      return failure();
    }
  }
  block[2] = fixed[2] ? block[2] : std::min<int64_t>(block[2], 64);
  while (block[0] * block[1] * block[2] > 1024) {
    int widest = -1;
    for (int d = 0; d < 3; ++d)
      if (!fixed[d] && block[d] > 1 && (widest < 0 || block[d] > block[widest]))
        widest = d;
    if (widest < 0)
      break;
    block[widest] /= 2;
  }
  if (block[0] * block[1] * block[2] > 1024 || block[2] > 64) {
    why = "the block the kernel fixes exceeds CUDA's limits (1024 threads, 64 along z)";
    return failure();
  }
  return block;
}

struct SynthesizeLaunchersPass : ks::impl::KSSynthesizeLaunchersBase<SynthesizeLaunchersPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(checkKernelNames(module, this->kernels, "ks-synthesize-launchers")))
      return signalPassFailure();
    SmallVector<gpu::GPUFuncOp> kernels;
    module.walk([&](gpu::GPUFuncOp f) {
      if (f.isKernel() && !f->hasAttr(kRaisedAttrName) && getLaunches(f).empty())
        kernels.push_back(f);
    });
    for (gpu::GPUFuncOp kernel : kernels)
      if (this->kernels.empty() || llvm::is_contained(this->kernels, kernel.getName()))
        synthesize(kernel);
  }

  void refuse(gpu::GPUFuncOp kernel, const std::string &why) {
    kernel->setAttr(kNoLauncherAttrName, StringAttr::get(kernel.getContext(), why));
    if (remarks)
      kernel.emitRemark() << "ks-synthesize-launchers: no launcher written: " << why;
  }

  void synthesize(gpu::GPUFuncOp kernel) {
    ModuleOp module = getOperation();
    std::string why;
    gpu::GPUFuncOp copy;
    FailureOr<CoveringLaunch> covering = analyzeCopy(kernel, copy, why);
    llvm::scope_exit eraseCopy([&] { copy.erase(); });
    if (failed(covering)) {
      refuse(kernel, why);
      return;
    }
    FailureOr<std::array<int64_t, 3>> block = chooseBlock(kernel, *covering, why);
    if (failed(block)) {
      refuse(kernel, why);
      return;
    }

    // func.func @launch_<kernel>(the kernel's parameters) at the module's end.
    Location loc = kernel.getLoc();
    FunctionType type = FunctionType::get(&getContext(), kernel.getArgumentTypes(), {});
    // Created detached: the symbol table renames it if the name is taken.
    auto launcher = func::FuncOp::create(loc, ("launch_" + kernel.getName()).str(), type);
    SymbolTable(module).insert(launcher);
    // The kernel it launches, by name (the launcher's may differ).
    launcher->setAttr(kSynthesizedAttrName, StringAttr::get(&getContext(), kernel.getName()));
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(), UnitAttr::get(&getContext()));
    // The parameters' names, and const where the kernel's are (the exported
    // launcher then takes what the caller would pass the kernel).
    for (unsigned i = 0, e = kernel.getNumArguments(); i < e; ++i)
      for (StringRef attr : {StringRef(kNameAttrName), StringRef("ks.const")})
        if (Attribute value = kernel.getArgAttr(i, attr))
          launcher.setArgAttr(i, attr, value);
    Block *entry = launcher.addEntryBlock();
    OpBuilder b = OpBuilder::atBlockEnd(entry);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    auto launch = gpu::LaunchFuncOp::create(b, loc, kernel, gpu::KernelDim3{one, one, one},
                                            gpu::KernelDim3{one, one, one}, Value(),
                                            ValueRange(entry->getArguments()));
    func::ReturnOp::create(b, loc);

    // (bound + block - 1) / block blocks along each dimension indexed: the
    // form the raising reads as covering (launchCovers).
    b.setInsertionPoint(launch);
    std::array<Value, 3> grid = {one, one, one}, threads;
    llvm::SmallDenseMap<int64_t, Value> constants = {{1, one}};
    auto constant = [&](int64_t v) {
      Value &c = constants[v];
      if (!c)
        c = arith::ConstantIndexOp::create(b, loc, v);
      return c;
    };
    for (unsigned d = 0; d < 3; ++d) {
      threads[d] = constant((*block)[d]);
      if (!covering->bound[d])
        continue;
      Value bound = castToIndex(b, loc, cloneIntoLauncher(covering->bound[d], copy, launch, b),
                                covering->unsignedBound[d]);
      Value numerator = arith::AddIOp::create(b, loc, bound, constant((*block)[d] - 1));
      grid[d] = covering->unsignedBound[d]
                    ? arith::DivUIOp::create(b, loc, numerator, threads[d]).getResult()
                    : arith::DivSIOp::create(b, loc, numerator, threads[d]).getResult();
    }
    setLaunchDims(launch, grid, threads, Value());
    if (remarks)
      kernel.emitRemark() << "ks-synthesize-launchers: no launcher launches the kernel: wrote @"
                          << launcher.getName() << ", one thread per index below the bound, "
                          << (*block)[0] << "x" << (*block)[1] << "x" << (*block)[2]
                          << " threads per block";
  }
};
} // namespace
