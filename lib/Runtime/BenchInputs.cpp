//===- BenchInputs.cpp - What ks-bench is asked to measure ---------------===//
//
// The parsers of ks-bench's measurement requests that need no GPU: the
// baselines (--baseline) and a variant's launches (--launches). Pure C++,
// unit-tested on CI.
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Runtime/Bench.h"
#include "kernelskill/Support/Formula.h"
#include "kernelskill/Support/LaunchSpecSchema.h"

#include <algorithm>

using namespace mlir::ks;
using namespace mlir::ks::runtime;
using json = nlohmann::json;

std::optional<Baseline> mlir::ks::runtime::parseBaseline(const std::string &text,
                                                         const ScalarValues &scalars,
                                                         std::string &error) {
  size_t colon = text.find(':');
  Baseline b;
  b.kind = text.substr(0, colon);
  std::string rest = colon == std::string::npos ? "" : text.substr(colon + 1);
  auto eval = [&](const std::string &formula, int64_t &out) {
    auto v = evaluateFormula(formula, scalars);
    if (auto *e = std::get_if<FormulaError>(&v)) {
      error = "baseline '" + text + "': " + e->message;
      return false;
    }
    out = std::get<int64_t>(v);
    if (out <= 0) {
      error = "baseline '" + text + "': sizes must be positive";
      return false;
    }
    return true;
  };
  if (b.kind == "copy") {
    if (!eval(rest.empty() ? "1073741824" : rest, b.bytes))
      return std::nullopt;
    return b;
  }
  if (b.kind == "sgemm" || b.kind == "tf32" || b.kind == "hgemm" || b.kind == "bgemm") {
    std::string layout = "nn";
    if (size_t c = rest.find(':'); c != std::string::npos) {
      layout = rest.substr(c + 1);
      rest = rest.substr(0, c);
    }
    if (layout != "nn" && layout != "nt" && layout != "tn" && layout != "tt") {
      error = "baseline '" + text + "': layout '" + layout + "' is not nn, nt, tn or tt";
      return std::nullopt;
    }
    b.transA = layout[0] == 't';
    b.transB = layout[1] == 't';
    std::vector<std::string> dims = splitTopLevel(rest);
    if (dims.size() != 3 && dims.size() != 4) {
      error = "baseline '" + text + "': expected " + b.kind + ":M,N,K[,BATCH][:LAYOUT]";
      return std::nullopt;
    }
    if (!eval(dims[0], b.m) || !eval(dims[1], b.n) || !eval(dims[2], b.k) ||
        (dims.size() == 4 && !eval(dims[3], b.batch)))
      return std::nullopt;
    return b;
  }
  error = "unknown baseline '" + b.kind + "'; valid: sgemm:M,N,K[,BATCH][:LAYOUT] (cuBLAS fp32), tf32:M,N,K, "
          "hgemm:M,N,K (fp16), bgemm:M,N,K (bf16), copy[:BYTES]";
  return std::nullopt;
}

std::optional<std::vector<LaunchStep>>
mlir::ks::runtime::parseLaunchSteps(const std::string &text, const ScalarValues &scalars,
                                    std::string &error) {
  json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) {
    error = "not valid JSON";
    return std::nullopt;
  }
  if (!doc.is_array())
    doc = json::array({doc});
  namespace spec_keys = mlir::ks::launch_spec;
  std::vector<LaunchStep> steps;
  for (size_t i = 0; i < doc.size(); ++i) {
    const json &launchDoc = doc[i];
    std::string where = "launch " + std::to_string(i) + ": ";
    if (!launchDoc.is_object() || !launchDoc.contains(spec_keys::kKernel) ||
        !launchDoc[spec_keys::kKernel].is_string()) {
      error = where + "expected an object with a 'kernel'";
      return std::nullopt;
    }
    // The sizes through the spec's own reader and resolver: one spec with no
    // parameters, this launch's kernel and sizes.
    json sizes = {{spec_keys::kKernel, launchDoc[spec_keys::kKernel]},
                  {spec_keys::kParams, json::array()}};
    for (const char *key : {spec_keys::kGrid, spec_keys::kBlock, spec_keys::kSmem})
      if (launchDoc.contains(key))
        sizes[key] = launchDoc[key];
    std::optional<LaunchSpec> spec = parseLaunchSpecJSON(sizes.dump(), error);
    if (!spec) {
      error = where + error;
      return std::nullopt;
    }
    spec->scalars = scalars;
    std::optional<ResolvedLaunch> resolved = resolve(*spec, error);
    if (!resolved) {
      error = where + error;
      return std::nullopt;
    }
    LaunchStep step{spec->kernel, resolved->grid, resolved->block, resolved->smem, {}};
    if (launchDoc.contains(spec_keys::kParams) && launchDoc[spec_keys::kParams].is_array())
      for (const json &p : launchDoc[spec_keys::kParams]) {
        if (!p.is_object() || !p.contains("name") || !p["name"].is_string()) {
          error = where + "every entry of 'params' needs a 'name'";
          return std::nullopt;
        }
        step.params.push_back(p["name"].get<std::string>());
      }
    steps.push_back(step);
  }
  if (steps.empty()) {
    error = "no launch";
    return std::nullopt;
  }
  return steps;
}

std::vector<size_t> mlir::ks::runtime::stepArguments(const LaunchStep &step,
                                                     const std::vector<Param> &specParams) {
  // Module variables (@taps) are no arguments.
  std::vector<size_t> all;
  for (size_t i = 0; i < specParams.size(); ++i)
    if (!specParams[i].isGlobal)
      all.push_back(i);
  std::vector<size_t> named;
  for (const std::string &name : step.params) {
    auto it = std::find_if(specParams.begin(), specParams.end(),
                           [&](const Param &p) { return p.name == name; });
    if (it == specParams.end() || it->isGlobal)
      return all;
    named.push_back(size_t(it - specParams.begin()));
  }
  return named.empty() ? all : named;
}
