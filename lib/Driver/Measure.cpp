//===- Measure.cpp - Measuring candidates on the local GPU ----------------===//

#include "kernelskill/Driver/Measure.h"
#include "kernelskill/Driver/ChildProcess.h"
#include "kernelskill/Support/BenchResultsSchema.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <algorithm>

using namespace mlir::ks;
namespace keys = mlir::ks::bench_results;

namespace {

/// Why a failed variant failed: its error, else its first failing check.
std::string failureReason(const llvm::json::Object &r) {
  if (std::optional<llvm::StringRef> error = r.getString(keys::kError); error && !error->empty())
    return error->str();
  for (const char *key : {keys::kVerification, keys::kVerificationAfterTiming}) {
    const llvm::json::Object *checks = r.getObject(key);
    if (!checks)
      continue;
    for (const auto &[output, check] : *checks) {
      const llvm::json::Object *c = check.getAsObject();
      if (!c || c->getBoolean(keys::kPass).value_or(true))
        continue;
      std::string why = c->getString(keys::kReason).value_or("").str();
      if (why.empty())
        why = llvm::formatv("relative L2 error {0:e2}", c->getNumber(keys::kRelL2).value_or(-1));
      return (key == llvm::StringRef(keys::kVerification) ? "" : "after timing: ") +
             output.str() + ": " + why;
    }
  }
  return "failed (no reason given)";
}

} // namespace

llvm::Expected<std::map<std::string, BenchOutcome>> mlir::ks::runBench(const BenchJob &job) {
  std::vector<std::string> args = {job.bench};
  for (const BenchVariant &v : job.variants)
    args.push_back(v.name + "=" + v.ptxPath + "@" + job.kernel);
  args.insert(args.end(), {"--spec", job.specPath});
  if (job.reference)
    args.insert(args.end(),
                {"--reference", job.reference->name + "=" + job.reference->ptxPath + "@" +
                                    job.kernel});
  for (const BenchVariant &v : job.variants)
    if (!v.manifestPath.empty())
      args.insert(args.end(), {"--launches", v.name + "=" + v.manifestPath});
  if (!job.workload.empty())
    args.insert(args.end(), {"--workload", job.workload});
  args.insert(args.end(), {"--reps", std::to_string(job.reps), "--warmup",
                           std::to_string(job.warmup), "--timeout",
                           std::to_string(job.timeoutSeconds), "--no-counters", "--no-db",
                           "--json", job.jsonPath});
  if (job.tf32Tolerance)
    args.push_back("--tf32");
  if (job.timeOnly)
    args.push_back("--time-only");
  if (job.streams > 1)
    args.insert(args.end(), {"--streams", std::to_string(job.streams)});
  if (job.energySeconds > 0)
    args.insert(args.end(), {"--energy", llvm::formatv("{0}", job.energySeconds).str()});
  llvm::sys::fs::remove(job.jsonPath);
  // (ks-bench enforces its own --timeout per run.)
  ChildResult child = runLogged(job.bench, args, job.logPath, /*timeoutSeconds=*/0);
  int rc = child.rc;
  std::string command = llvm::join(args, " ");
  // The end of what ks-bench printed, on one line.
  auto tail = [&] { return logTail(job.logPath, 1500); };
  if (rc < 0)
    return llvm::createStringError("cannot run '" + command + "': " + child.error);
  std::string text = readText(job.jsonPath);
  if (text.empty())
    return llvm::createStringError(llvm::formatv("'{0}' exited with {1} and wrote no results: {2}",
                                                 command, rc, tail())
                                       .str());
  llvm::Expected<llvm::json::Value> doc = llvm::json::parse(text);
  if (!doc)
    return llvm::createStringError("ks-bench's results " + job.jsonPath +
                                   " are not JSON: " + llvm::toString(doc.takeError()));
  const llvm::json::Object *root = doc->getAsObject();
  const llvm::json::Array *variants = root ? root->getArray(keys::kVariants) : nullptr;
  if (!variants)
    return llvm::createStringError("ks-bench's results " + job.jsonPath + " have no variants");
  std::map<std::string, BenchOutcome> outcomes;
  for (const llvm::json::Value &v : *variants) {
    const llvm::json::Object *r = v.getAsObject();
    if (!r)
      continue;
    BenchOutcome o;
    o.status = r->getString(keys::kStatus).value_or(keys::kStatusError).str();
    if (o.status != keys::kStatusPass && o.status != keys::kStatusTimed)
      o.reason = failureReason(*r);
    if (const llvm::json::Object *timing = r->getObject(keys::kTiming))
      o.medianMs = timing->getNumber(keys::kMedianMs).value_or(-1);
    if (const llvm::json::Object *energy = r->getObject(keys::kEnergy)) {
      o.energyJ = energy->getNumber(keys::kEnergyJoulesPerLaunch).value_or(-1);
      o.energyError = energy->getString(keys::kError).value_or("").str();
    }
    outcomes[r->getString(keys::kName).value_or("").str()] = o;
  }
  // No GPU: every job fails the same way; the caller falls back.
  if (rc == 3)
    return llvm::createStringError("ks-bench found no usable GPU: " + tail());
  return outcomes;
}

std::string mlir::ks::oddWorkload(const std::map<std::string, int64_t> &values) {
  std::map<std::string, int64_t> odd;
  for (const auto &[name, v] : values)
    odd[name] = v < 8 ? v : (v / 4) | 1;
  return workloadText(odd);
}

std::string mlir::ks::workloadText(const std::map<std::string, int64_t> &values) {
  std::string text;
  for (const auto &[name, v] : values)
    text += (text.empty() ? "" : ",") + name + "=" + std::to_string(v);
  return text;
}

std::optional<std::string> mlir::ks::findBench(llvm::StringRef option) {
  if (!option.empty())
    return llvm::sys::fs::can_execute(option) ? std::optional<std::string>(option.str())
                                              : std::nullopt;
  std::string self =
      llvm::sys::fs::getMainExecutable(nullptr, reinterpret_cast<void *>(&findBench));
  if (!self.empty()) {
    llvm::SmallString<256> beside(llvm::sys::path::parent_path(self));
    llvm::sys::path::append(beside, "ks-bench");
    if (llvm::sys::fs::can_execute(beside))
      return beside.str().str();
  }
  if (llvm::ErrorOr<std::string> onPath = llvm::sys::findProgramByName("ks-bench"))
    return *onPath;
  return std::nullopt;
}
