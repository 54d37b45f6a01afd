//===- ArchDatabaseTest.cpp - The architecture database -------------------===//

#include "kernelskill/Support/ArchDatabase.h"

#include "llvm/ADT/StringSet.h"
#include "gtest/gtest.h"

using namespace mlir::ks;

namespace {

TEST(ArchDatabase, EveryEntryIsConsistent) {
  for (const ArchEntry &e : getArchDatabase()) {
    SCOPED_TRACE(e.key);
    EXPECT_EQ(checkCapabilities(e.caps), std::nullopt);
    EXPECT_TRUE(isKnownChip(e.chip));
  }
}

TEST(ArchDatabase, CoversTheIssuedGPUs) {
  for (const char *key :
       {"v100", "t4", "a100", "rtx3090", "a10", "l40s", "rtx4090", "h100", "h200", "b200"})
    EXPECT_NE(lookupGPU(key), nullptr) << key;
}

TEST(ArchDatabase, KeysAndSkusAreUnique) {
  llvm::StringSet<> names;
  for (const ArchEntry &e : getArchDatabase()) {
    EXPECT_TRUE(names.insert(llvm::StringRef(e.key).lower()).second) << e.key;
    EXPECT_TRUE(names.insert(llvm::StringRef(e.sku).lower()).second) << e.sku;
  }
}

TEST(ArchDatabase, EveryChipHasADefault) {
  for (llvm::StringRef chip : getKnownChips()) {
    const ArchEntry *e = lookupDefaultGPUForChip(chip);
    ASSERT_NE(e, nullptr) << chip.str();
    EXPECT_EQ(llvm::StringRef(e->chip), getBaseChip(chip));
  }
  EXPECT_EQ(lookupDefaultGPUForChip("sm_90")->key, llvm::StringRef("h200"));
  EXPECT_EQ(lookupDefaultGPUForChip("sm_91"), nullptr);
}

TEST(ArchDatabase, KnownH200Values) {
  const ArchEntry *h200 = lookupGPU("NVIDIA H200"); // the driver's name
  ASSERT_NE(h200, nullptr);
  EXPECT_EQ(h200, lookupGPU("H200"));
  EXPECT_EQ(llvm::StringRef(h200->chip), "sm_90");
  EXPECT_EQ(h200->caps.smCount, 132);
  EXPECT_EQ(h200->caps.l2Bytes, 60 * 1024 * 1024);
  EXPECT_EQ(h200->caps.maxThreadsPerSM, 2048);
  EXPECT_EQ(h200->caps.smemPerSM, 228 * 1024);
  EXPECT_EQ(h200->caps.smemPerBlockOptin, 227 * 1024);
  EXPECT_DOUBLE_EQ(h200->caps.dramGBps, 4800);
  EXPECT_TRUE(h200->caps.tensorCores & kTensorCoreWGMMA);
  EXPECT_TRUE(h200->caps.asyncCopies & kAsyncCopyTMA);
  EXPECT_EQ(h200->caps.maxClusterSize, 8);
}

TEST(ArchDatabase, KnownValuesOfOlderChips) {
  const ArchEntry *a100 = lookupGPU("a100");
  EXPECT_EQ(a100->caps.smCount, 108);
  EXPECT_EQ(a100->caps.smemPerSM, 164 * 1024);
  EXPECT_TRUE(a100->caps.asyncCopies & kAsyncCopyCpAsync);
  EXPECT_FALSE(a100->caps.asyncCopies & kAsyncCopyTMA);
  EXPECT_FALSE(a100->caps.tensorCores & kTensorCoreWGMMA);
  const ArchEntry *t4 = lookupGPU("t4");
  EXPECT_EQ(t4->caps.maxThreadsPerSM, 1024);
  EXPECT_EQ(t4->caps.maxBlocksPerSM, 16);
  EXPECT_DOUBLE_EQ(t4->caps.bf16TFlops, 0);
  const ArchEntry *rtx4090 = lookupGPU("rtx4090");
  EXPECT_EQ(rtx4090->caps.maxThreadsPerSM, 1536);
  EXPECT_EQ(rtx4090->caps.maxBlocksPerSM, 24);
  // Blackwell runs tcgen05, not wgmma.
  const ArchEntry *b200 = lookupGPU("b200");
  EXPECT_FALSE(b200->caps.tensorCores & kTensorCoreWGMMA);
  EXPECT_TRUE(b200->caps.tensorCores & kTensorCoreTCGen05);
}

TEST(ArchDatabase, RidgePointsAreOrdered) {
  // Memory-bound below the ridge: the H200 has more bandwidth than the H100
  // at the same peak rate, so its ridge point is lower.
  auto ridge = [](const char *key) {
    const GPUCapabilities &c = lookupGPU(key)->caps;
    return c.bf16TFlops * 1e12 / (c.dramGBps * 1e9);
  };
  EXPECT_LT(ridge("h200"), ridge("h100"));
  EXPECT_NEAR(ridge("h200"), 206, 1);
}

TEST(ArchDatabase, ChipHelpers) {
  EXPECT_EQ(getBaseChip("sm_90a"), "sm_90");
  EXPECT_EQ(getBaseChip("sm_100a"), "sm_100");
  EXPECT_EQ(getBaseChip("sm_80"), "sm_80");
  EXPECT_EQ(getPTXFeatureForChip("sm_90a"), "+ptx80");
  EXPECT_EQ(getPTXFeatureForChip("sm_100a"), "+ptx86");
  EXPECT_FALSE(isKnownChip("sm_91"));
  EXPECT_FALSE(isKnownChip("h200"));
  EXPECT_EQ(lookupGPU("h300"), nullptr);
}

TEST(ArchDatabase, CheckCapabilitiesCatchesInconsistencies) {
  GPUCapabilities c = lookupGPU("h200")->caps;
  c.maxThreadsPerBlock = 4096;
  EXPECT_NE(checkCapabilities(c), std::nullopt);
  c = lookupGPU("h200")->caps;
  c.smemPerBlockOptin = c.smemPerSM + 1;
  EXPECT_NE(checkCapabilities(c), std::nullopt);
  c = lookupGPU("h200")->caps;
  c.warpSize = 64;
  EXPECT_NE(checkCapabilities(c), std::nullopt);
  c = lookupGPU("h200")->caps;
  c.smCount = 0;
  EXPECT_NE(checkCapabilities(c), std::nullopt);
  c = lookupGPU("h200")->caps;
  c.regAllocUnit = 300; // does not divide 65536
  EXPECT_NE(checkCapabilities(c), std::nullopt);
  c = lookupGPU("v100")->caps;
  c.tensorCores = kTensorCoreNone; // but a fp16 tensor rate is given
  EXPECT_NE(checkCapabilities(c), std::nullopt);
}

TEST(ArchDatabase, FlagNamesRoundTrip) {
  uint32_t mask = kTensorCoreWMMA | kTensorCoreWGMMA;
  auto names = flagNames(mask, getTensorCoreFlagNames());
  ASSERT_EQ(names.size(), 2u);
  EXPECT_EQ(names[0], "wmma");
  EXPECT_EQ(names[1], "wgmma");
  EXPECT_EQ(flagBit("tma", getAsyncCopyFlagNames()), uint32_t(kAsyncCopyTMA));
  EXPECT_EQ(flagBit("tmaa", getAsyncCopyFlagNames()), std::nullopt);
}

TEST(ArchDatabase, FieldTableCoversEveryField) {
  // Every field has a distinct key, and changing any field changes equality
  // and (almost surely) the hash: a field missing from the table would not.
  llvm::StringSet<> keys;
  const GPUCapabilities base = lookupGPU("h200")->caps;
  for (const CapabilityField &f : getCapabilityFields()) {
    EXPECT_TRUE(keys.insert(f.key).second) << f.key;
    GPUCapabilities changed = base;
    if (f.intField)
      changed.*f.intField += 1;
    else if (f.realField)
      changed.*f.realField += 1;
    else
      changed.*f.maskField ^= 1;
    EXPECT_FALSE(changed == base) << f.key;
    EXPECT_NE(hash_value(changed), hash_value(base)) << f.key;
  }
  // sizeof check: 22 int64 fields + 6 doubles... any new member must be added
  // to the table (this fails when the struct grows without the table).
  size_t bytes = 0;
  for (const CapabilityField &f : getCapabilityFields())
    bytes += f.maskField ? sizeof(uint32_t) : 8;
  EXPECT_EQ(bytes, sizeof(GPUCapabilities));
}

TEST(ArchDatabase, JsonHasEveryKey) {
  std::string text;
  llvm::raw_string_ostream os(text);
  const ArchEntry *h200 = lookupGPU("h200");
  printCapabilitiesJSON(os, "sm_90", h200->sku, h200->caps);
  for (const CapabilityField &f : getCapabilityFields())
    EXPECT_NE(text.find(std::string("\"") + f.key + "\""), std::string::npos) << f.key;
  EXPECT_NE(text.find("\"wgmma\""), std::string::npos);
}

} // namespace
