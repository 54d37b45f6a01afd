//===- ArchDatabase.h - What each supported GPU can do ----------*- C++ -*-===//
//
// The hardware capability list of a GPU as plain C++ data, the table of GPUs
// KernelSkill knows, and the field table that every printer and parser of a
// capability list (the #ks.arch attribute, the JSON printer) iterates over, so
// that adding a field means adding one row in one place.
//
// This header depends on LLVM's ADT only, so the cost model, the occupancy
// calculator and the unit tests can use it without MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_SUPPORT_ARCHDATABASE_H
#define KERNELSKILL_SUPPORT_ARCHDATABASE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdint>
#include <optional>
#include <string>

namespace mlir::ks {

/// Tensor-core instruction families a chip executes (a bit mask).
enum TensorCoreFamily : uint32_t {
  kTensorCoreNone = 0,
  kTensorCoreWMMA = 1 << 0,    ///< wmma.* (sm_70+)
  kTensorCoreMMASync = 1 << 1, ///< mma.sync.aligned.* (sm_70+; m16n8k16 from sm_80)
  kTensorCoreWGMMA = 1 << 2,   ///< wgmma.mma_async (sm_90a only)
  kTensorCoreTCGen05 = 1 << 3, ///< tcgen05.mma (sm_100a)
};

/// Asynchronous global->shared copy families a chip has (a bit mask).
enum AsyncCopyFamily : uint32_t {
  kAsyncCopyNone = 0,
  kAsyncCopyCpAsync = 1 << 0, ///< cp.async (sm_80+)
  kAsyncCopyTMA = 1 << 1,     ///< cp.async.bulk.tensor, the Tensor Memory Accelerator (sm_90+)
};

/// What one GPU can do. Sizes are in bytes, rates are dense (no sparsity)
/// peak TFLOP/s at the boost clock, 0 where the chip lacks the unit.
struct GPUCapabilities {
  int64_t smCount = 0;
  int64_t warpSize = 32;
  int64_t maxThreadsPerSM = 0;
  int64_t maxThreadsPerBlock = 0;
  int64_t maxBlocksPerSM = 0;
  int64_t regsPerSM = 0;
  int64_t regsPerBlock = 0;
  int64_t maxRegsPerThread = 0;
  /// Registers are allocated per warp in units of this many registers.
  int64_t regAllocUnit = 0;
  int64_t smemPerSM = 0;
  /// Largest static allocation per block (48 KiB on every chip here).
  int64_t smemPerBlock = 0;
  /// Largest dynamic allocation per block after cudaFuncSetAttribute.
  int64_t smemPerBlockOptin = 0;
  int64_t smemAllocUnit = 0;
  /// Shared memory the system reserves for each resident block.
  int64_t smemReservedPerBlock = 0;
  int64_t l2Bytes = 0;
  /// DRAM bandwidth in GB/s (10^9 bytes per second).
  double dramGBps = 0;
  int64_t smClockMHz = 0;
  double fp32TFlops = 0; ///< non-tensor fp32 FMA rate
  double fp64TFlops = 0; ///< the faster of the fp64 FMA and fp64 tensor rates
  double tf32TFlops = 0; ///< tensor cores, tf32 inputs
  double fp16TFlops = 0; ///< tensor cores, fp16 inputs, fp32 accumulation
  double bf16TFlops = 0; ///< tensor cores, bf16 inputs, fp32 accumulation
  double fp8TFlops = 0;  ///< tensor cores, fp8 inputs, fp32 accumulation
  uint32_t tensorCores = kTensorCoreNone;
  uint32_t asyncCopies = kAsyncCopyNone;
  /// Largest thread-block cluster (portable size); 1 where there are none.
  int64_t maxClusterSize = 1;

  bool operator==(const GPUCapabilities &) const = default;
};

/// Hash over every field, for uniquing #ks.arch attributes.
llvm::hash_code hash_value(const GPUCapabilities &caps);

/// One row of the field table: how a capability is named in the assembly
/// format and in JSON, and where it lives in GPUCapabilities.
struct CapabilityField {
  enum class Kind { Int, Real, TensorCores, AsyncCopies };
  const char *key;
  Kind kind;
  int64_t GPUCapabilities::*intField;
  double GPUCapabilities::*realField;
  uint32_t GPUCapabilities::*maskField;
  const char *description;
};

/// Every field of GPUCapabilities, in printing order.
llvm::ArrayRef<CapabilityField> getCapabilityFields();

/// Name of each bit of a family mask, in bit order.
struct FlagName {
  uint32_t bit;
  const char *name;
};
llvm::ArrayRef<FlagName> getTensorCoreFlagNames();
llvm::ArrayRef<FlagName> getAsyncCopyFlagNames();
/// The names of the bits set in `mask`, using `names`.
llvm::SmallVector<llvm::StringRef> flagNames(uint32_t mask,
                                             llvm::ArrayRef<FlagName> names);
/// The bit named `name`, if any.
std::optional<uint32_t> flagBit(llvm::StringRef name,
                                llvm::ArrayRef<FlagName> names);
/// "a, b, c": the valid names, for error messages.
std::string joinFlagNames(llvm::ArrayRef<FlagName> names);

/// One known GPU.
struct ArchEntry {
  const char *key;  ///< short name for options: "h200"
  const char *sku;  ///< the name the CUDA driver reports: "NVIDIA H200"
  const char *chip; ///< the base compilation target: "sm_90"
  GPUCapabilities caps;
};

/// All known GPUs. For each chip, the first entry is its default.
llvm::ArrayRef<ArchEntry> getArchDatabase();

/// The GPU every option defaults to when the user names none.
inline constexpr llvm::StringLiteral kDefaultGPU = "h200";
/// The database entry of kDefaultGPU.
const ArchEntry &getDefaultGPU();

/// Finds a GPU by its short key or its SKU name, ignoring case.
const ArchEntry *lookupGPU(llvm::StringRef name);
/// The default GPU for a compilation target (sm_90a finds the sm_90 entry).
const ArchEntry *lookupDefaultGPUForChip(llvm::StringRef chip);

/// The compilation targets KernelSkill can lower to.
llvm::ArrayRef<llvm::StringRef> getKnownChips();
bool isKnownChip(llvm::StringRef chip);
/// sm_90a -> sm_90, sm_100a -> sm_100; other chips map to themselves.
llvm::StringRef getBaseChip(llvm::StringRef chip);
/// The PTX ISA feature the NVPTX backend needs for `chip` ("+ptx80").
llvm::StringRef getPTXFeatureForChip(llvm::StringRef chip);
/// "sm_70, sm_75, ..." and "v100, t4, ...": the valid choices, for messages.
std::string joinKnownChips();
std::string joinKnownGPUs();

/// Checks the invariants every capability list must satisfy (positive
/// counts, per-block limits within per-SM limits, allocation units dividing
/// their pools, ...). Returns a message naming the first violated one.
std::optional<std::string> checkCapabilities(const GPUCapabilities &caps);

/// The shortest decimal form of `value` that reads back as the same double,
/// with ".0" on integral values: "4800.0", "494.7", "0.556".
std::string formatReal(double value);

/// `value` with `digits` decimals ("%.2f"): the reports' fixed-point figures.
std::string formatFixed(double value, int digits = 2);

/// Prints a capability list as one JSON object:
/// {"chip": "sm_90", "sku": "NVIDIA H200", "sm_count": 132, ...,
///  "tensor_cores": ["wmma", ...], ...}.
void printCapabilitiesJSON(llvm::raw_ostream &os, llvm::StringRef chip,
                           llvm::StringRef sku, const GPUCapabilities &caps);
/// Prints a capability list as an aligned two-column table for people.
void printCapabilitiesText(llvm::raw_ostream &os, llvm::StringRef chip,
                           llvm::StringRef sku, const GPUCapabilities &caps);

} // namespace mlir::ks

#endif // KERNELSKILL_SUPPORT_ARCHDATABASE_H
