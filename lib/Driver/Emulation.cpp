//===- Emulation.cpp - Checking a changed kernel on the CPU ---------------===//

#include "kernelskill/Driver/Emulation.h"
#include "kernelskill/Driver/ChildProcess.h"
#include "kernelskill/Support/Formula.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

using namespace mlir::ks;

std::map<std::string, int64_t>
mlir::ks::emulationWorkload(const std::map<std::string, int64_t> &values) {
  std::map<std::string, int64_t> small;
  for (const auto &[name, v] : values) {
    if (v < 8) {
      small[name] = v;
      continue;
    }
    int64_t grown = 24 + 2 * int64_t(std::ceil(4 * std::log2(double(v) / 24)));
    small[name] = v <= grown ? v : grown | 1;
  }
  return small;
}

namespace {
/// ks-emulate.py's names of the launch spec's element types.
bool emulatorKnows(llvm::StringRef type) {
  return llvm::is_contained({"f32", "f64", "i32", "u32", "i64", "u8", "i8", "f16", "bf16"}, type);
}

} // namespace

llvm::Expected<std::string>
mlir::ks::emulationParams(llvm::StringRef spec, const std::map<std::string, int64_t> &values) {
  llvm::Expected<llvm::json::Value> doc = llvm::json::parse(spec);
  if (!doc)
    return doc.takeError();
  const llvm::json::Object *root = doc->getAsObject();
  const llvm::json::Array *params = root ? root->getArray("params") : nullptr;
  if (!params)
    return llvm::createStringError("the launch spec has no params");
  ScalarValues scalars(values.begin(), values.end());
  std::string text;
  for (const llvm::json::Value &p : *params) {
    const llvm::json::Object *o = p.getAsObject();
    if (!o)
      return llvm::createStringError("a launch spec parameter is not an object");
    std::string name = o->getString("name").value_or("").str();
    llvm::StringRef type = o->getString("type").value_or("");
    if (!emulatorKnows(type))
      return llvm::createStringError("parameter '" + name + "' has type '" + type.str() +
                                     "', which the emulator does not know");
    std::string item = name + ":" + type.str();
    if (std::optional<llvm::StringRef> extent = o->getString("extent")) {
      auto value = evaluateFormula(extent->str(), scalars);
      if (auto *error = std::get_if<FormulaError>(&value))
        return llvm::createStringError("the extent of '" + name + "' (" + extent->str() +
                                       ") does not evaluate: " + error->message);
      int64_t n = std::max<int64_t>(1, std::get<int64_t>(value));
      std::string role = o->getString("role").value_or("inout").str();
      item += "[" + std::to_string(n) + "]:" + role;
    } else if (o->get("role")) {
      return llvm::createStringError("buffer '" + name + "' has no extent");
    }
    text += (text.empty() ? "" : ",") + item;
  }
  return text;
}

double mlir::ks::emulationTolerance(llvm::StringRef spec, bool tf32) {
  double tolerance = tf32 ? 5e-3 : 1e-5;
  llvm::Expected<llvm::json::Value> doc = llvm::json::parse(spec);
  if (!doc) {
    llvm::consumeError(doc.takeError());
    return tolerance;
  }
  if (const llvm::json::Object *root = doc->getAsObject())
    if (const llvm::json::Array *params = root->getArray("params"))
      for (const llvm::json::Value &p : *params)
        if (const llvm::json::Object *o = p.getAsObject()) {
          llvm::StringRef role = o->getString("role").value_or("");
          llvm::StringRef type = o->getString("type").value_or("");
          if ((role == "out" || role == "inout") && (type == "f16" || type == "bf16"))
            tolerance = std::max(tolerance, 1e-2);
        }
  return tolerance;
}

EmulationVerdict mlir::ks::runEmulation(const EmulationJob &job) {
  EmulationVerdict verdict;
  llvm::ErrorOr<std::string> python = llvm::sys::findProgramByName("python3");
  if (!python) {
    verdict.detail = "no python3 on PATH to run the emulator";
    return verdict;
  }
  // (%g: formatv's default for a double is 2 fixed decimals, 1e-5 -> 0.00.)
  char tolerance[32];
  std::snprintf(tolerance, sizeof(tolerance), "%g", job.tolerance);
  std::vector<std::string> args = {*python,          job.emulator,
                                   job.referencePath, job.candidatePath,
                                   "--launcher",      job.launcher,
                                   "--params",        job.params,
                                   "--workload",      job.workload,
                                   "--tolerance",     tolerance};
  ChildResult child = runLogged(*python, args, job.logPath, unsigned(std::max(1, job.timeoutSeconds)));
  int rc = child.rc;
  std::string log = logTail(job.logPath, 600);
  if (rc == 0) {
    verdict.status = EmulationVerdict::Status::Match;
    verdict.detail = log;
  } else if (rc == 1) {
    verdict.status = EmulationVerdict::Status::Mismatch;
    verdict.detail = log;
  } else if (rc < 0) {
    verdict.detail = child.error.empty() ? "the emulator did not finish" : child.error;
    if (rc == -2)
      verdict.detail = "the emulator crashed or ran past " + std::to_string(job.timeoutSeconds) + " s";
  } else {
    verdict.detail = "the emulator failed (exit " + std::to_string(rc) + "): " + log;
  }
  return verdict;
}

std::optional<std::string> mlir::ks::findEmulator(llvm::StringRef option) {
  if (!option.empty())
    return llvm::sys::fs::exists(option) ? std::optional<std::string>(option.str())
                                         : std::nullopt;
  std::string self =
      llvm::sys::fs::getMainExecutable(nullptr, reinterpret_cast<void *>(&findEmulator));
  llvm::SmallString<256> path(llvm::sys::path::parent_path(self));
  llvm::sys::path::append(path, "..", "libexec", "ks-emulate", "ks-emulate.py");
  if (llvm::sys::fs::exists(path))
    return std::string(path);
  return std::nullopt;
}
