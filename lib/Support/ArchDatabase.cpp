//===- ArchDatabase.cpp - What each supported GPU can do ------------------===//
//
// Sources, cited per value below:
//  [PG]   CUDA C++ Programming Guide (CUDA 13.0), "Technical Specifications per
//         Compute Capability" table, and the CUDA Occupancy Calculator's
//         allocation granularities (register unit 256 per warp; shared memory
//         unit 256 B on 7.x, 128 B from 8.0; 1 KiB reserved per block from 8.0).
//  [V100] NVIDIA Tesla V100 datasheet (SXM2) and Volta whitepaper.
//  [T4]   NVIDIA T4 datasheet and Turing whitepaper (fp64 at 1/32 of fp32).
//  [A100] NVIDIA A100 datasheet (SXM4 80GB) and Ampere GA100 whitepaper.
//  [GA102] NVIDIA Ampere GA102 whitepaper (RTX 3090 and A10 tables; fp64 at 1/64).
//  [A10]  NVIDIA A10 datasheet.
//  [ADA]  NVIDIA Ada Lovelace (AD102) whitepaper (RTX 4090 table; fp64 1/64).
//  [L40S] NVIDIA L40S datasheet (dense = the sparse figure / 2).
//  [H100] NVIDIA H100 datasheet (SXM5; dense = the sparse figure / 2).
//  [H200] NVIDIA H200 datasheet (SXM) for bandwidth; compute rates equal H100 SXM.
//  [KS]   Measured on this project's lent H200 (cudaGetDeviceProperties via
//         PyTorch, 2026-10-28, ../shared/BASELINES.md): 132 SMs, 60 MiB L2.
//  [B200] NVIDIA DGX/HGX B200 datasheet (per GPU = platform / 8, dense =
//         sparse / 2); SM count from chipsandcheese's B200 article; clock and
//         L2 from a third-party spec aggregation (hmc-tech.com): approximate.
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Support/ArchDatabase.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/bit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir::ks;
using llvm::StringRef;

namespace {
constexpr int64_t KiB = 1024;
constexpr int64_t MiB = 1024 * 1024;

/// Limits fixed by the compute capability, shared by every SKU of a chip [PG].
struct ChipLimits {
  int64_t maxThreadsPerSM, maxBlocksPerSM, smemPerSM, smemPerBlockOptin,
      smemAllocUnit, smemReservedPerBlock, maxClusterSize;
  uint32_t tensorCores, asyncCopies;
};

// clang-format off
// [PG] rows for compute capability 7.0, 7.5, 8.0, 8.6, 8.9, 9.0, 10.0.
constexpr ChipLimits kSm70  = {2048, 32,  96 * KiB,  96 * KiB, 256,   0, 1,
                               kTensorCoreWMMA | kTensorCoreMMASync, kAsyncCopyNone};
constexpr ChipLimits kSm75  = {1024, 16,  64 * KiB,  64 * KiB, 256,   0, 1,
                               kTensorCoreWMMA | kTensorCoreMMASync, kAsyncCopyNone};
constexpr ChipLimits kSm80  = {2048, 32, 164 * KiB, 163 * KiB, 128, KiB, 1,
                               kTensorCoreWMMA | kTensorCoreMMASync, kAsyncCopyCpAsync};
constexpr ChipLimits kSm86  = {1536, 16, 100 * KiB,  99 * KiB, 128, KiB, 1,
                               kTensorCoreWMMA | kTensorCoreMMASync, kAsyncCopyCpAsync};
constexpr ChipLimits kSm89  = {1536, 24, 100 * KiB,  99 * KiB, 128, KiB, 1,
                               kTensorCoreWMMA | kTensorCoreMMASync, kAsyncCopyCpAsync};
// wgmma needs the sm_90a target; the family is listed because the chip runs it.
constexpr ChipLimits kSm90  = {2048, 32, 228 * KiB, 227 * KiB, 128, KiB, 8,
                               kTensorCoreWMMA | kTensorCoreMMASync | kTensorCoreWGMMA,
                               kAsyncCopyCpAsync | kAsyncCopyTMA};
// Blackwell has no wgmma; tcgen05 needs the sm_100a target.
constexpr ChipLimits kSm100 = {2048, 32, 228 * KiB, 227 * KiB, 128, KiB, 8,
                               kTensorCoreWMMA | kTensorCoreMMASync | kTensorCoreTCGen05,
                               kAsyncCopyCpAsync | kAsyncCopyTMA};
// clang-format on

/// What differs between SKUs of one chip (datasheets, cited per entry).
struct SkuFigures {
  int64_t smCount, l2Bytes;
  double dramGBps;
  int64_t smClockMHz;
  double fp32, fp64, tf32, fp16, bf16, fp8;
};

GPUCapabilities makeCaps(const ChipLimits &chip, const SkuFigures &sku) {
  GPUCapabilities c;
  c.smCount = sku.smCount;
  c.warpSize = 32;                         // [PG] every compute capability
  c.maxThreadsPerSM = chip.maxThreadsPerSM;
  c.maxThreadsPerBlock = 1024;             // [PG] every compute capability
  c.maxBlocksPerSM = chip.maxBlocksPerSM;
  c.regsPerSM = 64 * 1024;                 // [PG] 64K 32-bit registers per SM
  c.regsPerBlock = 64 * 1024;              // [PG]
  c.maxRegsPerThread = 255;                // [PG]
  c.regAllocUnit = 256;                    // [PG] occupancy calculator
  c.smemPerSM = chip.smemPerSM;
  c.smemPerBlock = 48 * KiB;               // [PG] static allocations
  c.smemPerBlockOptin = chip.smemPerBlockOptin;
  c.smemAllocUnit = chip.smemAllocUnit;
  c.smemReservedPerBlock = chip.smemReservedPerBlock;
  c.l2Bytes = sku.l2Bytes;
  c.dramGBps = sku.dramGBps;
  c.smClockMHz = sku.smClockMHz;
  c.fp32TFlops = sku.fp32;
  c.fp64TFlops = sku.fp64;
  c.tf32TFlops = sku.tf32;
  c.fp16TFlops = sku.fp16;
  c.bf16TFlops = sku.bf16;
  c.fp8TFlops = sku.fp8;
  c.tensorCores = chip.tensorCores;
  c.asyncCopies = chip.asyncCopies;
  c.maxClusterSize = chip.maxClusterSize;
  return c;
}

// clang-format off
// Per SKU: {SMs, L2 bytes, DRAM GB/s, boost MHz, fp32, fp64, tf32, fp16, bf16, fp8}.
// The first entry of each chip is that chip's default.
const ArchEntry kDatabase[] = {
    // [V100] 80 SMs, 6 MiB L2, 900 GB/s HBM2, 1530 MHz; 15.7 fp32, 7.8 fp64, 125 fp16 tensor.
    {"v100", "Tesla V100-SXM2", "sm_70",
     makeCaps(kSm70, {80, 6 * MiB, 900, 1530, 15.7, 7.8, 0, 125, 0, 0})},
    // [T4] 40 SMs, 4 MiB L2, 320 GB/s GDDR6, 1590 MHz; 8.1 fp32, fp64 1/32, 65 fp16 tensor.
    {"t4", "Tesla T4", "sm_75",
     makeCaps(kSm75, {40, 4 * MiB, 320, 1590, 8.1, 0.25, 0, 65, 0, 0})},
    // [A100] 108 SMs, 40 MiB L2, 2039 GB/s HBM2e, 1410 MHz; 19.5 fp32, 19.5 fp64 tensor,
    // 156 tf32, 312 fp16/bf16.
    {"a100", "NVIDIA A100-SXM4-80GB", "sm_80",
     makeCaps(kSm80, {108, 40 * MiB, 2039, 1410, 19.5, 19.5, 156, 312, 312, 0})},
    // [GA102] RTX 3090: 82 SMs, 6 MiB L2, 936 GB/s, 1695 MHz; 35.6 fp32, 0.556 fp64,
    // 35.6 tf32, 71 fp16/bf16 tensor with fp32 accumulation.
    {"rtx3090", "NVIDIA GeForce RTX 3090", "sm_86",
     makeCaps(kSm86, {82, 6 * MiB, 936, 1695, 35.6, 0.556, 35.6, 71, 71, 0})},
    // [A10] 72 SMs, 6 MiB L2, 600 GB/s, 1695 MHz; 31.2 fp32, 62.5 tf32, 125 fp16/bf16;
    // fp64 from [GA102]'s 1/64 ratio.
    {"a10", "NVIDIA A10", "sm_86",
     makeCaps(kSm86, {72, 6 * MiB, 600, 1695, 31.2, 0.49, 62.5, 125, 125, 0})},
    // [L40S] 142 SMs, 96 MiB L2, 864 GB/s, 2520 MHz; 91.6 fp32, 183 tf32, 362 fp16/bf16,
    // 733 fp8; fp64 1/64 [ADA].
    {"l40s", "NVIDIA L40S", "sm_89",
     makeCaps(kSm89, {142, 96 * MiB, 864, 2520, 91.6, 1.43, 183, 362, 362, 733})},
    // [ADA] RTX 4090: 128 SMs, 72 MiB L2, 1008 GB/s, 2520 MHz; 82.6 fp32, 1.29 fp64,
    // 82.6 tf32, 165.2 fp16/bf16 and 330.3 fp8 with fp32 accumulation.
    {"rtx4090", "NVIDIA GeForce RTX 4090", "sm_89",
     makeCaps(kSm89, {128, 72 * MiB, 1008, 2520, 82.6, 1.29, 82.6, 165.2, 165.2, 330.3})},
    // [H200] 4800 GB/s HBM3e; [KS] 132 SMs, 60 MiB L2; [H100] 1980 MHz, 67 fp32,
    // 67 fp64 tensor, 494.7 tf32, 989.4 fp16/bf16, 1978.9 fp8.
    {"h200", "NVIDIA H200", "sm_90",
     makeCaps(kSm90, {132, 60 * MiB, 4800, 1980, 67, 67, 494.7, 989.4, 989.4, 1978.9})},
    // [H100] SXM5: 132 SMs, 50 MiB L2, 3350 GB/s HBM3, 1980 MHz; rates as above.
    {"h100", "NVIDIA H100 80GB HBM3", "sm_90",
     makeCaps(kSm90, {132, 50 * MiB, 3350, 1980, 67, 67, 494.7, 989.4, 989.4, 1978.9})},
    // [B200] 148 SMs, 8000 GB/s HBM3e, ~1965 MHz; ~75 fp32 (third party), 37 fp64,
    // 1125 tf32, 2250 fp16/bf16, 4500 fp8. L2 ~126 MiB by several reports; the
    // aggregation above says 65.5 MB: unverified, treat as approximate.
    {"b200", "NVIDIA B200", "sm_100",
     makeCaps(kSm100, {148, 126 * MiB, 8000, 1965, 75, 37, 1125, 2250, 2250, 4500})},
};
// clang-format on

constexpr FlagName kTensorCoreNames[] = {{kTensorCoreWMMA, "wmma"},
                                         {kTensorCoreMMASync, "mma_sync"},
                                         {kTensorCoreWGMMA, "wgmma"},
                                         {kTensorCoreTCGen05, "tcgen05"}};
constexpr FlagName kAsyncCopyNames[] = {{kAsyncCopyCpAsync, "cp_async"},
                                        {kAsyncCopyTMA, "tma"}};

const StringRef kChips[] = {"sm_70", "sm_75", "sm_80",  "sm_86",  "sm_89",
                            "sm_90", "sm_90a", "sm_100", "sm_100a"};

using K = CapabilityField::Kind;
using G = GPUCapabilities;
#define KS_INT(key, member, desc)                                              \
  CapabilityField { key, K::Int, &G::member, nullptr, nullptr, desc }
#define KS_REAL(key, member, desc)                                             \
  CapabilityField { key, K::Real, nullptr, &G::member, nullptr, desc }
#define KS_MASK(key, kind, member, desc)                                       \
  CapabilityField { key, kind, nullptr, nullptr, &G::member, desc }
const CapabilityField kFields[] = {
    KS_INT("sm_count", smCount, "streaming multiprocessors"),
    KS_INT("warp_size", warpSize, "threads per warp"),
    KS_INT("max_threads_per_sm", maxThreadsPerSM, "resident threads per SM"),
    KS_INT("max_threads_per_block", maxThreadsPerBlock, "threads per block"),
    KS_INT("max_blocks_per_sm", maxBlocksPerSM, "resident blocks per SM"),
    KS_INT("regs_per_sm", regsPerSM, "32-bit registers per SM"),
    KS_INT("regs_per_block", regsPerBlock, "32-bit registers per block"),
    KS_INT("max_regs_per_thread", maxRegsPerThread, "registers per thread"),
    KS_INT("reg_alloc_unit", regAllocUnit, "register allocation unit per warp"),
    KS_INT("smem_per_sm", smemPerSM, "shared memory per SM (bytes)"),
    KS_INT("smem_per_block", smemPerBlock, "static shared memory per block (bytes)"),
    KS_INT("smem_per_block_optin", smemPerBlockOptin,
           "dynamic shared memory per block after opt-in (bytes)"),
    KS_INT("smem_alloc_unit", smemAllocUnit, "shared memory allocation unit (bytes)"),
    KS_INT("smem_reserved_per_block", smemReservedPerBlock,
           "shared memory reserved by the system per block (bytes)"),
    KS_INT("l2_bytes", l2Bytes, "L2 cache (bytes)"),
    KS_REAL("dram_gbps", dramGBps, "DRAM bandwidth (GB/s)"),
    KS_INT("sm_clock_mhz", smClockMHz, "boost clock (MHz)"),
    KS_REAL("fp32_tflops", fp32TFlops, "peak fp32 FMA (TFLOP/s)"),
    KS_REAL("fp64_tflops", fp64TFlops, "peak fp64 (TFLOP/s)"),
    KS_REAL("tf32_tflops", tf32TFlops, "peak tf32 tensor (TFLOP/s, dense)"),
    KS_REAL("fp16_tflops", fp16TFlops, "peak fp16 tensor (TFLOP/s, dense)"),
    KS_REAL("bf16_tflops", bf16TFlops, "peak bf16 tensor (TFLOP/s, dense)"),
    KS_REAL("fp8_tflops", fp8TFlops, "peak fp8 tensor (TFLOP/s, dense)"),
    KS_MASK("tensor_cores", K::TensorCores, tensorCores, "tensor-core families"),
    KS_MASK("async_copy", K::AsyncCopies, asyncCopies, "async-copy families"),
    KS_INT("max_cluster_size", maxClusterSize,
           "largest portable thread-block cluster (1: none)"),
};
#undef KS_INT
#undef KS_REAL
#undef KS_MASK
} // namespace

llvm::ArrayRef<CapabilityField> mlir::ks::getCapabilityFields() { return kFields; }
llvm::ArrayRef<FlagName> mlir::ks::getTensorCoreFlagNames() { return kTensorCoreNames; }
llvm::ArrayRef<FlagName> mlir::ks::getAsyncCopyFlagNames() { return kAsyncCopyNames; }

llvm::SmallVector<StringRef> mlir::ks::flagNames(uint32_t mask,
                                                 llvm::ArrayRef<FlagName> names) {
  llvm::SmallVector<StringRef> result;
  for (const FlagName &f : names)
    if (mask & f.bit)
      result.push_back(f.name);
  return result;
}

std::optional<uint32_t> mlir::ks::flagBit(StringRef name,
                                          llvm::ArrayRef<FlagName> names) {
  for (const FlagName &f : names)
    if (name == f.name)
      return f.bit;
  return std::nullopt;
}

std::string mlir::ks::joinFlagNames(llvm::ArrayRef<FlagName> names) {
  return llvm::join(llvm::map_range(names, [](const FlagName &f) { return StringRef(f.name); }),
                    ", ");
}

llvm::ArrayRef<ArchEntry> mlir::ks::getArchDatabase() { return kDatabase; }

const ArchEntry *mlir::ks::lookupGPU(StringRef name) {
  for (const ArchEntry &e : kDatabase)
    if (name.equals_insensitive(e.key) || name.equals_insensitive(e.sku))
      return &e;
  return nullptr;
}

const ArchEntry &mlir::ks::getDefaultGPU() {
  const ArchEntry *entry = lookupGPU(kDefaultGPU);
  assert(entry && "kDefaultGPU is not in the database");
  return *entry;
}

const ArchEntry *mlir::ks::lookupDefaultGPUForChip(StringRef chip) {
  if (!isKnownChip(chip))
    return nullptr;
  StringRef base = getBaseChip(chip);
  for (const ArchEntry &e : kDatabase)
    if (base == e.chip)
      return &e;
  return nullptr;
}

llvm::ArrayRef<StringRef> mlir::ks::getKnownChips() { return kChips; }

bool mlir::ks::isKnownChip(StringRef chip) { return llvm::is_contained(kChips, chip); }

StringRef mlir::ks::getBaseChip(StringRef chip) {
  if (chip.ends_with("a") && isKnownChip(chip))
    return chip.drop_back();
  return chip;
}

StringRef mlir::ks::getPTXFeatureForChip(StringRef chip) {
  // LLVM's NVPTX backend needs PTX ISA 8.0 for sm_90a and 8.6 for sm_100/a;
  // 8.0 is accepted by ptxas 12.0+ for every older chip too.
  return getBaseChip(chip) == "sm_100" ? "+ptx86" : "+ptx80";
}

std::string mlir::ks::joinKnownChips() { return llvm::join(llvm::ArrayRef<StringRef>(kChips), ", "); }

std::string mlir::ks::joinKnownGPUs() {
  return llvm::join(llvm::map_range(kDatabase, [](const ArchEntry &e) { return StringRef(e.key); }),
                    ", ");
}

std::optional<std::string> mlir::ks::checkCapabilities(const GPUCapabilities &c) {
  for (const CapabilityField &f : kFields) {
    // Chips before sm_80 reserve no shared memory per block: 0 is valid there.
    if (f.intField == &G::smemReservedPerBlock) {
      if (c.smemReservedPerBlock < 0)
        return llvm::formatv("'{0}' must be non-negative", f.key).str();
      continue;
    }
    if (f.intField && c.*f.intField <= 0)
      return llvm::formatv("'{0}' must be positive, got {1}", f.key, c.*f.intField).str();
    if (f.realField && !(c.*f.realField >= 0))
      return llvm::formatv("'{0}' must be non-negative, got {1}", f.key, c.*f.realField).str();
  }
  auto fail = [](const llvm::Twine &msg) { return std::optional<std::string>(msg.str()); };
  if (c.warpSize != 32)
    return fail("'warp_size' must be 32 on NVIDIA GPUs, got " + llvm::Twine(c.warpSize));
  if (c.maxThreadsPerBlock > c.maxThreadsPerSM)
    return fail("'max_threads_per_block' exceeds 'max_threads_per_sm'");
  if (c.maxThreadsPerSM % c.warpSize || c.maxThreadsPerBlock % c.warpSize)
    return fail("thread limits must be multiples of 'warp_size'");
  if (c.regsPerBlock > c.regsPerSM)
    return fail("'regs_per_block' exceeds 'regs_per_sm'");
  if (c.maxRegsPerThread > 255)
    return fail("'max_regs_per_thread' exceeds 255, the PTX limit");
  if (c.regsPerSM % c.regAllocUnit)
    return fail("'reg_alloc_unit' must divide 'regs_per_sm'");
  if (c.smemPerBlock > c.smemPerBlockOptin)
    return fail("'smem_per_block' exceeds 'smem_per_block_optin'");
  if (c.smemPerBlockOptin > c.smemPerSM)
    return fail("'smem_per_block_optin' exceeds 'smem_per_sm'");
  if (c.smemPerSM % c.smemAllocUnit)
    return fail("'smem_alloc_unit' must divide 'smem_per_sm'");
  if (c.smemReservedPerBlock + c.smemPerBlockOptin > c.smemPerSM)
    return fail("'smem_reserved_per_block' plus 'smem_per_block_optin' exceeds 'smem_per_sm'");
  if (c.tensorCores & ~uint32_t(kTensorCoreWMMA | kTensorCoreMMASync | kTensorCoreWGMMA |
                                kTensorCoreTCGen05))
    return fail("'tensor_cores' has unknown bits");
  if (c.asyncCopies & ~uint32_t(kAsyncCopyCpAsync | kAsyncCopyTMA))
    return fail("'async_copy' has unknown bits");
  if (c.tensorCores == kTensorCoreNone &&
      (c.tf32TFlops > 0 || c.fp16TFlops > 0 || c.bf16TFlops > 0 || c.fp8TFlops > 0))
    return fail("tensor-core peak rates given but 'tensor_cores' is empty");
  return std::nullopt;
}

llvm::hash_code mlir::ks::hash_value(const GPUCapabilities &c) {
  llvm::hash_code h = llvm::hash_value(0);
  for (const CapabilityField &f : kFields) {
    if (f.intField)
      h = llvm::hash_combine(h, c.*f.intField);
    else if (f.realField)
      h = llvm::hash_combine(h, llvm::bit_cast<uint64_t>(c.*f.realField));
    else
      h = llvm::hash_combine(h, c.*f.maskField);
  }
  return h;
}
