//===- Emulation.h - Checking a changed kernel on the CPU -------*- C++ -*-===//
//
// Nothing unverified leaves ks (docs/Agents.md, "Verification without a
// GPU"): with measure=static and verify=emulate, the kernel the driver
// chose is run against the lifted original on the CPU before it replaces
// it. Both are exported to CUDA C++ (Target/CUDAEmitter.h) and run by
// tools/ks-emulate/ks-emulate.py through their launcher, on seeded random
// inputs with NaN-poisoned outputs, at a small workload whose sizes are no
// multiple of any tile; on a mismatch the driver keeps the original.
//
// The emulator is a child process (a Python script that compiles both files
// with the host C++ compiler): it is run only when the pipeline is asked
// to (`verify=emulate`, which `ks optimize` passes).
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_DRIVER_EMULATION_H
#define KERNELSKILL_DRIVER_EMULATION_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace mlir::ks {

/// The sizes the CPU emulation runs at: small enough for one std::thread
/// per CUDA thread (a 4096^3 GEMM becomes 85^3), odd, and monotone in the
/// workload's, so that relations such as lda >= M hold and equal sizes stay
/// equal. A value v stays when it is at most g(v) = 24 + 2*ceil(4*log2(v/24))
/// (every v up to 27), else becomes g(v) made odd: 1000 -> 69, 4096 -> 85,
/// 64 -> 37, 16 -> 16.
std::map<std::string, int64_t> emulationWorkload(const std::map<std::string, int64_t> &values);

/// ks-emulate.py's `--params` for the launch spec `spec` (ks-emit-launch-spec's
/// JSON) at the scalar `values`: each buffer `NAME:TYPE[EXTENT]:ROLE` with its
/// extent evaluated there, each scalar `NAME:TYPE`. Fails with why: a buffer
/// without an extent, an extent that does not evaluate, a type the emulator
/// does not know.
llvm::Expected<std::string> emulationParams(llvm::StringRef spec,
                                            const std::map<std::string, int64_t> &values);

/// The tolerance (relative L2 error) the emulation compares a launch spec's
/// outputs with: the loosest of ks-bench's for their element types (f32
/// 1e-5, summation reordered; f16 and bf16 1e-2), 5e-3 when `tf32` (a
/// precision that allows it) and nothing looser.
double emulationTolerance(llvm::StringRef spec, bool tf32);

/// One run of the emulator.
struct EmulationJob {
  std::string emulator;                     ///< ks-emulate.py
  std::string referencePath, candidatePath; ///< the exported CUDA files
  std::string launcher;                     ///< the host function both files call
  std::string params, workload;             ///< --params, --workload
  double tolerance = 1e-5;
  int timeoutSeconds = 300;
  std::string logPath; ///< what the emulator printed
};

/// The emulator's verdict.
struct EmulationVerdict {
  enum class Status { Match, Mismatch, Unverified };
  Status status = Status::Unverified;
  /// Mismatch: the emulator's comparison lines; Unverified: why it could
  /// not run or compile (the end of its output, on one line).
  std::string detail;
};

/// Runs `job` (python3 from PATH), at most job.timeoutSeconds.
EmulationVerdict runEmulation(const EmulationJob &job);

/// The emulator to run: `option` when not empty, else
/// ../libexec/ks-emulate/ks-emulate.py from the running executable's
/// directory (where the build and the install put it).
std::optional<std::string> findEmulator(llvm::StringRef option);

} // namespace mlir::ks

#endif // KERNELSKILL_DRIVER_EMULATION_H
