//===- DeviceQuery.h - Read a live GPU's capabilities -----------*- C++ -*-===//
#ifndef KERNELSKILL_AGENTS_DEVICEQUERY_H
#define KERNELSKILL_AGENTS_DEVICEQUERY_H

#include "kernelskill/Support/ArchDatabase.h"
#include "llvm/Support/Error.h"
#include <string>

namespace mlir::ks {

/// A live GPU as the CUDA driver describes it, completed from the database.
struct DeviceCapabilities {
  std::string sku;  ///< the driver's product name
  std::string chip; ///< sm_XY from the compute capability
  GPUCapabilities caps;
  /// How the peak rates (which the driver does not report) were obtained.
  std::string ratesNote;
};

/// Queries CUDA device `ordinal` through the driver API (libcuda.so.1, loaded
/// at run time). Fails with a message saying what is missing: a build without
/// the CUDA toolkit, no driver library, no device, or an unsupported chip.
llvm::Expected<DeviceCapabilities> queryDevice(int ordinal);

} // namespace mlir::ks

#endif // KERNELSKILL_AGENTS_DEVICEQUERY_H
