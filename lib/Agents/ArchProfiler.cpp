//===- ArchProfiler.cpp - The architecture profiler agent -----------------===//
//
// Decides which GPU the kernel is optimized for and records everything the
// other agents may ask about it as #ks.arch on the module.
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Agents/DeviceQuery.h"
#include "kernelskill/Agents/Passes.h"
#include "kernelskill/Agents/ReportStream.h"
#include "kernelskill/Dialect/KS/IR/KSAttrs.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::ks {
#define GEN_PASS_DEF_KSARCHPROFILER
#include "kernelskill/Agents/Passes.h.inc"
} // namespace mlir::ks

using namespace mlir;
using namespace mlir::ks;

namespace {
struct ArchProfilerPass : public ks::impl::KSArchProfilerBase<ArchProfilerPass> {
  using KSArchProfilerBase::KSArchProfilerBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<ArchAttr> arch =
        source == ArchSource::Database ? fromDatabase() : fromDevice();
    if (failed(arch))
      return signalPassFailure();
    module->setAttr(ArchAttr::kModuleAttrName, *arch);
    if (print == ReportFormat::None)
      return;
    std::string error;
    std::unique_ptr<llvm::raw_ostream> os = openReport(report, error);
    if (!os) {
      module.emitError() << "ks-arch-profiler: " << error;
      return signalPassFailure();
    }
    if (print == ReportFormat::JSON)
      printCapabilitiesJSON(*os, arch->getChip(), arch->getSku(), arch->getCaps());
    else
      printCapabilitiesText(*os, arch->getChip(), arch->getSku(), arch->getCaps());
  }

  FailureOr<ArchAttr> fromDatabase() {
    ModuleOp module = getOperation();
    if (!chip.empty() && !isKnownChip(chip))
      return module.emitError() << "ks-arch-profiler: unknown chip '" << chip
                                << "'; valid chips: " << joinKnownChips();
    const ArchEntry *entry = nullptr;
    if (!gpu.empty()) {
      entry = lookupGPU(gpu);
      if (!entry)
        return module.emitError() << "ks-arch-profiler: unknown GPU '" << gpu
                                  << "'; valid GPUs: " << joinKnownGPUs();
      if (!chip.empty() && getBaseChip(chip) != entry->chip)
        return module.emitError() << "ks-arch-profiler: chip '" << chip << "' does not match GPU '"
                                  << entry->key << "', which is " << entry->chip;
    } else if (!chip.empty()) {
      entry = lookupDefaultGPUForChip(chip);
    } else {
      entry = &getDefaultGPU();
    }
    assert(entry && "the database has an entry for every known chip");
    return getArchAttr(&getContext(), *entry, chip);
  }

  FailureOr<ArchAttr> fromDevice() {
    ModuleOp module = getOperation();
    if (!gpu.empty())
      return module.emitError() << "ks-arch-profiler: source=device reads the GPU from the "
                                   "driver; drop gpu='"
                                << gpu << "'";
    llvm::Expected<DeviceCapabilities> device = queryDevice(this->device);
    if (!device)
      return module.emitError() << "ks-arch-profiler: " << llvm::toString(device.takeError());
    std::string target = device->chip;
    if (!chip.empty()) {
      if (!isKnownChip(chip) || getBaseChip(chip) != device->chip)
        return module.emitError() << "ks-arch-profiler: chip '" << chip
                                  << "' does not match the device, which is " << device->chip;
      target = chip;
    }
    emitRemark(module.getLoc()) << "ks-arch-profiler: device " << int(this->device) << " is '"
                                << device->sku << "' (" << device->chip << "); "
                                << device->ratesNote;
    return ArchAttr::getChecked([&] { return module.emitError(); }, &getContext(), StringRef(target),
                                StringRef(device->sku), device->caps);
  }
};
} // namespace
