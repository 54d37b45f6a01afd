//===- Measurements.cpp - Measured counters against predictions -----------===//

#include "kernelskill/Agents/Measurements.h"
#include "kernelskill/Support/BenchResultsSchema.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::ks;
namespace keys = mlir::ks::bench_results;

namespace {
void addVariant(const llvm::json::Object &v, llvm::StringMap<Measurement> &out) {
  std::optional<StringRef> kernel = v.getString(keys::kKernel);
  if (!kernel || v.getString(keys::kStatus).value_or(keys::kStatusPass) != keys::kStatusPass)
    return;
  Measurement m;
  if (const llvm::json::Object *timing = v.getObject(keys::kTiming))
    m.medianMs = timing->getNumber(keys::kMedianMs);
  if (const llvm::json::Object *attrs = v.getObject(keys::kAttributes))
    m.registers = attrs->getNumber(keys::kRegisters);
  if (const llvm::json::Object *counters = v.getObject(keys::kCounters))
    if (counters->getBoolean(keys::kAvailable).value_or(false))
      if (const llvm::json::Object *metrics = counters->getObject(keys::kMetrics))
        for (const auto &[key, value] : *metrics)
          if (std::optional<double> d = value.getAsNumber())
            m.metrics[key.str()] = *d;
  out[*kernel] = std::move(m); // the last measurement of a kernel wins
}

} // namespace

FailureOr<llvm::StringMap<Measurement>> mlir::ks::loadMeasurements(StringRef path, std::string &error) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer) {
    error = "cannot read measurements '" + path.str() + "': " + buffer.getError().message();
    return failure();
  }
  llvm::StringMap<Measurement> out;
  StringRef text = (*buffer)->getBuffer();
  if (llvm::Expected<llvm::json::Value> whole = llvm::json::parse(text)) {
    const llvm::json::Object *doc = whole->getAsObject();
    const llvm::json::Array *variants = doc ? doc->getArray(keys::kVariants) : nullptr;
    if (variants) {
      for (const llvm::json::Value &v : *variants)
        if (const llvm::json::Object *o = v.getAsObject())
          addVariant(*o, out);
      return out;
    }
    if (!doc || !doc->getObject(keys::kRecordResults)) {
      error = "measurements '" + path.str() +
              "' are neither ks-bench --json output (\"variants\") nor `ks-bench db export` "
              "lines (\"results\")";
      return failure();
    }
  } else {
    llvm::consumeError(whole.takeError());
  }
  // JSON lines from `ks-bench db export`: each record's results is a variant.
  SmallVector<StringRef> lines;
  text.split(lines, '\n', -1, false);
  for (auto [n, line] : llvm::enumerate(lines)) {
    if (line.trim().empty())
      continue;
    llvm::Expected<llvm::json::Value> record = llvm::json::parse(line);
    if (!record) {
      error = "measurements '" + path.str() + "' line " + std::to_string(n + 1) +
              ": " + llvm::toString(record.takeError());
      return failure();
    }
    const llvm::json::Object *o = record->getAsObject();
    const llvm::json::Object *results = o ? o->getObject(keys::kRecordResults) : nullptr;
    if (!results) {
      error = "measurements '" + path.str() + "' line " + std::to_string(n + 1) +
              ": not a `ks-bench db export` record (no \"results\")";
      return failure();
    }
    addVariant(*results, out);
  }
  return out;
}

std::vector<Comparison> mlir::ks::compareWithCounters(const KernelProfile &p, const Measurement &m) {
  std::vector<Comparison> out;
  auto metric = [&](const char *name) -> std::optional<double> {
    auto it = m.metrics.find(name);
    return it == m.metrics.end() ? std::nullopt : std::optional<double>(it->second);
  };
  auto add = [&](const std::string &name, double predicted, std::optional<double> measured,
                 double relTolerance, double absTolerance, std::string why) {
    if (!measured)
      return;
    double diff = std::abs(predicted - *measured);
    bool agrees = diff <= absTolerance ||
                  diff <= relTolerance * std::max(std::abs(predicted), std::abs(*measured));
    out.push_back({name, predicted, *measured, agrees, agrees ? "" : why});
  };
  add("global_load_sectors_per_request", p.loadSectorsPerRequest,
      metric("global_load_sectors_per_request"), 0.1, 0.25,
      "data-dependent addresses, misaligned rows or sizes the simulation did not sample");
  add("global_store_sectors_per_request", p.storeSectorsPerRequest,
      metric("global_store_sectors_per_request"), 0.1, 0.25,
      "data-dependent addresses or misaligned rows");
  double sharedWavefronts = 0;
  for (const AccessReport &a : p.accesses)
    if (a.space == MemorySpace::Shared)
      sharedWavefronts += a.stats.wavefronts;
  // The conflict counters also count passes lost to shared accesses
  // issued at the same time by other warps (about a tenth of the
  // wavefronts in conflict-free kernels on the H200), which a
  // per-instruction analysis cannot see.
  const char *concurrent = "the counter also counts conflicts between shared accesses of "
                           "different warps issued together, which a per-instruction analysis "
                           "cannot see";
  add("shared_load_bank_conflicts", p.sharedLoadConflicts,
      metric("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"), 0.25,
      0.1 * sharedWavefronts + 1, concurrent);
  add("shared_store_bank_conflicts", p.sharedStoreConflicts,
      metric("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"), 0.25,
      0.1 * sharedWavefronts + 1, concurrent);
  // Achieved occupancy: at most what the resources and the grid allow, and
  // lower when warps retire unevenly; half of it is still "agrees".
  if (std::optional<double> occ = metric("sm__warps_active.avg.pct_of_peak_sustained_active")) {
    double measured = *occ / 100, expected = p.expectedAchievedOccupancy;
    bool agrees = measured <= expected + 0.05 && measured >= 0.5 * expected;
    out.push_back({"occupancy", expected, measured, agrees,
                   agrees ? ""
                   : measured > expected
                       ? "more warps resident than the resources allow: the register or shared-"
                         "memory figures are wrong"
                       : "warps retire unevenly: a short or memory-bound kernel spends much of "
                         "its time ramping up and draining"});
  }
  // No branch instruction at all reads as 0 %: nothing to compare.
  if (std::optional<double> u = metric("smsp__sass_average_branch_targets_threads_uniform.pct");
      u && *u > 0)
    add("branch_uniformity", p.branchUniformity, *u / 100, 0.0, 0.1,
        "the compiler predicated or added branches the IR does not show");
  // DRAM: reads and writes apart. A footprint that fits in L2 may be
  // there from the previous launch; inputs the host has just uploaded leave
  // dirty lines in L2 that are written back while the kernel runs.
  bool fitsL2 = p.footprintBytes + p.localBytes < double(p.caps.l2Bytes);
  auto dram = [&](const char *name, double predicted, std::optional<double> measured,
                  const char *extra) {
    if (!measured)
      return;
    bool agrees = fitsL2 ? *measured <= 1.25 * predicted + 2e6
                         : std::abs(predicted - *measured) <= 0.25 * std::max(predicted, *measured) + 2e6;
    out.push_back({name, predicted, *measured, agrees,
                   agrees ? ""
                   : *measured > predicted
                       ? std::string("the footprint exceeds L2 and is read again, or ") + extra
                       : "L2 held more than the model assumes"});
  };
  dram("dram_read_bytes", p.dramReadBytes, metric("dram__bytes_read.sum"),
       "local memory the model under-counts");
  dram("dram_write_bytes", p.dramWriteBytes, metric("dram__bytes_write.sum"),
       "the inputs' upload left dirty lines in L2 that were written back during the kernel");
  if (m.registers)
    add("registers", double(p.resources.info.registers), *m.registers, 0.0, 0.5,
        p.resources.fromPtxas ? "the measuring machine compiled the PTX with a different "
                                "ptxas (driver or toolkit), which allocates differently"
                              : "the estimate is rough");
  return out;
}

