//===- ImportStructuring.h - The importer's structuring pipeline -*- C++ -*-===//
//
// In Transforms rather than Pipelines so that the importer (lib/Frontend,
// ks-translate) needs none of the agents, the driver or the runtime.
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_TRANSFORMS_IMPORTSTRUCTURING_H
#define KERNELSKILL_TRANSFORMS_IMPORTSTRUCTURING_H

#include "mlir/Pass/PassManager.h"

namespace mlir::ks {

/// Appends what turns the importer's raw form (one control-flow graph per
/// function, one memref.alloca slot per C variable) into the lifted form:
/// mem2reg, then the control-flow graph lifted to scf (kernels by
/// ks-lift-kernel-cfg, launchers by upstream's lift-cf-to-scf), with
/// canonicalization and CSE. What `--ks-structure-import` runs and what
/// ks-translate --import-cuda runs unless --no-structure is given.
void buildImportStructuringPipeline(OpPassManager &pm);

} // namespace mlir::ks

#endif // KERNELSKILL_TRANSFORMS_IMPORTSTRUCTURING_H
