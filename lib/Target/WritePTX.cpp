//===- WritePTX.cpp - Write a module's PTX to a file ----------------------===//

#include "kernelskill/Target/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/ToolOutputFile.h"

namespace mlir::ks {
#define GEN_PASS_DEF_KSWRITEPTX
#include "kernelskill/Target/Passes.h.inc"
} // namespace mlir::ks

using namespace mlir;
using namespace mlir::ks;

namespace {
struct WritePTXPass : public ks::impl::KSWritePTXBase<WritePTXPass> {
  using KSWritePTXBase::KSWritePTXBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (path.empty()) {
      module.emitError() << "ks-write-ptx needs path=FILE (or path=- for stdout)";
      return signalPassFailure();
    }
    std::string ptx;
    unsigned count = 0;
    module.walk([&](gpu::BinaryOp binary) {
      for (Attribute attr : binary.getObjects()) {
        auto object = dyn_cast<gpu::ObjectAttr>(attr);
        if (!object || object.getFormat() != gpu::CompilationTarget::Assembly)
          continue;
        ptx += "// ks: PTX of gpu.binary @" + binary.getSymName().str() + "\n";
        ptx += object.getObject().getValue().str();
        if (!ptx.empty() && ptx.back() != '\n')
          ptx += '\n';
        ++count;
      }
    });
    if (count == 0) {
      module.emitError() << "ks-write-ptx: the module holds no PTX; run gpu-module-to-binary "
                            "with format=isa first (format=bin holds cubin)";
      return signalPassFailure();
    }
    std::string message;
    std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(path, &message);
    if (!file) {
      module.emitError() << "ks-write-ptx: cannot write '" << path << "': " << message;
      return signalPassFailure();
    }
    file->os() << ptx;
    file->keep();
    if (path != "-")
      emitRemark(module.getLoc()) << "wrote the PTX of " << count << " GPU module"
                                  << (count == 1 ? "" : "s") << " to " << path;
  }
};
} // namespace
