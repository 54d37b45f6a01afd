//===- CandidateMemory.h - The tuning database as the driver reads it -*- C++ -*-===//
//
// Private to lib/Driver: the evaluator's long- and short-term memory of
// the candidates of one kernel (ptxas's verdicts, measurements, the
// calibration ratios of other workloads).
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_LIB_DRIVER_CANDIDATEMEMORY_H
#define KERNELSKILL_LIB_DRIVER_CANDIDATEMEMORY_H

#include "kernelskill/Config.h"
#include "kernelskill/Driver/Passes.h"
#include "kernelskill/Runtime/Stats.h"
#include "kernelskill/Runtime/TuningDB.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace mlir::ks::driver {

/// Long-term memory of the candidates (Runtime/TuningDB.h), keyed by the
/// kernel's fingerprint, the GPU and the op's attributes: ptxas's verdict
/// (any workload) and, with measure=cuda, the measured median and
/// verification at one workload ("original" is the lifted kernel). Records
/// count only under the same toolchain identity (Target/PTXAS.h): the
/// verdict belongs to the PTX, which another build may lower differently.
/// Times per launch with concurrent launches (objective=throughput) are
/// another kind of record than a launch's own ("measured_throughput"): a
/// search for one objective never takes the other's times; nor are energy
/// records ("measured_energy", with joules per launch beside the time).
class CandidateMemory {
public:
  CandidateMemory(StringRef path, std::string fingerprint, std::string gpu, std::string chip,
                  int optLevel, std::string workload, std::string toolchain,
                  Objective objective)
      : fingerprint(std::move(fingerprint)), gpu(std::move(gpu)), chip(std::move(chip)),
        workload(std::move(workload)), toolchain(std::move(toolchain)),
        measuredKind(objective == Objective::Throughput ? "measured_throughput"
                     : objective == Objective::Energy   ? "measured_energy"
                                                        : "measured"),
        optLevel(optLevel) {
#if !KS_HAVE_TUNING_DB
    return; // built without SQLite: the short-term memory only
#endif
    // Hermetic by default: a database only where db=PATH names one (the
    // same input and options give the same IR on every machine).
    if (path.empty() || path == "none")
      return;
    db = runtime::TuningDB::open(path.str(), error);
    if (!db)
      return;
    if (auto records = db->query(this->fingerprint, this->gpu, std::nullopt, error))
      for (const runtime::MeasurementRecord &r : *records) {
        llvm::Expected<llvm::json::Value> v = llvm::json::parse(r.results);
        if (!v) {
          llvm::consumeError(v.takeError());
          continue;
        }
        const llvm::json::Object *o = v->getAsObject();
        if (!o || o->getInteger("opt_level") != optLevel || r.chip != this->chip ||
            o->getString("toolchain") != StringRef(this->toolchain))
          continue;
        std::string status = o->getString("status").value_or("").str();
        if (o->getString("kind") == "ptxas")
          known[r.schedule] = {o->getInteger("registers").value_or(0),
                               o->getInteger("spill_bytes").value_or(0), status};
        else if (o->getString("kind") == measuredKind && r.workload == this->workload)
          measured[r.schedule] = {o->getNumber("median_ms").value_or(-1), status,
                                  o->getString("verification").value_or("").str(), -1,
                                  o->getNumber("energy_j").value_or(-1)};
        else if (o->getString("kind") == "measured" && r.workload != this->workload &&
                 status == "pass") {
          // Another workload's measurement calibrates the model here (that
          // workload's own decides by its measurements, so a repeat run
          // ranks as the first did).
          double median = o->getNumber("median_ms").value_or(-1);
          double predicted = o->getNumber("predicted_ms").value_or(-1);
          if (median > 0 && predicted > 0)
            ratios[r.schedule].push_back(median / predicted);
        }
      }
  }
  struct Verdict {
    int64_t registers = 0, spillBytes = 0;
    std::string status; ///< "compiled" or "rejected: ..."
  };
  struct Measurement {
    double medianMs = -1;
    std::string status;       ///< "pass" or "rejected: ..."
    std::string verification; ///< where it was verified
    double predictedMs = -1;  ///< the model's time at that workload (calibration)
    double energyJ = -1;      ///< objective=energy: joules per launch
  };
  const Verdict *lookup(const std::string &schedule) const {
    auto it = known.find(schedule);
    return it == known.end() ? nullptr : &it->second;
  }
  const Measurement *lookupMeasurement(const std::string &schedule) const {
    auto it = measured.find(schedule);
    return it == measured.end() ? nullptr : &it->second;
  }
  void remember(const std::string &schedule, const Verdict &v) {
    known[schedule] = v;
    insert(schedule, "{}",
           llvm::json::Object{{"kind", "ptxas"},          {"opt_level", optLevel},
                              {"registers", v.registers}, {"spill_bytes", v.spillBytes},
                              {"status", v.status},       {"toolchain", toolchain}});
  }
  void remember(const std::string &schedule, const Measurement &m) {
    measured[schedule] = m;
    insert(schedule, workload,
           llvm::json::Object{{"kind", measuredKind},
                              {"opt_level", optLevel},
                              {"median_ms", m.medianMs},
                              {"status", m.status},
                              {"verification", m.verification},
                              {"predicted_ms", m.predictedMs},
                              {"energy_j", m.energyJ},
                              {"toolchain", toolchain}});
  }
  /// Measured / predicted of `schedule` at other workloads (the median of
  /// its records), else of every point of the kernel measured there
  /// (excluding the original); nothing without records.
  std::optional<double> calibration(const std::string &schedule) const {
    auto median = [](std::vector<double> v) { return runtime::summarize(std::move(v)).median; };
    if (auto it = ratios.find(schedule); it != ratios.end())
      return median(it->second);
    std::vector<double> all;
    for (auto &[name, values] : ratios)
      if (name != "original")
        llvm::append_range(all, values);
    if (all.empty())
      return std::nullopt;
    return median(all);
  }
  /// How many measurements of candidates at other workloads calibrate the
  /// model (the original's alone do not: the candidates would stay at the
  /// model's times while the original's moved).
  size_t calibrationRecords() const {
    size_t n = 0;
    for (auto &[name, values] : ratios)
      if (name != "original")
        n += values.size();
    return n;
  }
  bool enabled() const { return db != nullptr; }
  std::string error;

private:
  void insert(const std::string &schedule, const std::string &recordWorkload,
              llvm::json::Object results) {
#if !KS_HAVE_TUNING_DB
    return;
#endif
    if (!db)
      return;
    runtime::MeasurementRecord r;
    r.fingerprint = fingerprint;
    r.gpuName = gpu;
    r.chip = chip;
    r.schedule = schedule;
    r.workload = recordWorkload;
    r.ksVersion = KS_VERSION_STRING;
    r.results = llvm::formatv("{0}", llvm::json::Value(std::move(results))).str();
    std::string ignored;
    db->insert(r, ignored);
  }
  std::unique_ptr<runtime::TuningDB> db;
  std::string fingerprint, gpu, chip, workload, toolchain;
  std::string measuredKind; ///< "measured", or "measured_throughput"
  int optLevel;
  std::map<std::string, Verdict> known;
  std::map<std::string, Measurement> measured;
  std::map<std::string, std::vector<double>> ratios; ///< measured / predicted, other workloads
};

} // namespace mlir::ks::driver

#endif // KERNELSKILL_LIB_DRIVER_CANDIDATEMEMORY_H
