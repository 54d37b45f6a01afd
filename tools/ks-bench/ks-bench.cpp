//===- ks-bench.cpp - Verify and time kernels on a GPU --------------------===//
//
// Measures one or more PTX/cubin variants of a kernel (the first, or
// --reference, is the reference every other is verified against) on a
// workload, next to baselines measured the same way; prints a table, writes
// JSON and records every measurement in the tuning database. `ks-bench db ...`
// exports, imports, queries and checks that database.
//
// Exit codes: 0 all verified, 1 a variant failed verification or faulted,
// 2 bad command line or spec, 3 no usable GPU.
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Runtime/Bench.h"
#include "kernelskill/Runtime/Energy.h"
#include "kernelskill/Runtime/Results.h"
#include "kernelskill/Runtime/TuningDB.h"
#include "kernelskill/Runtime/Workload.h"
#include "kernelskill/Support/BenchResultsSchema.h"

#include <cstdio>
#include <ctime>
#include <fstream>
#include <iostream>
#include <sstream>

#ifndef KS_VERSION_STRING
#define KS_VERSION_STRING "0.0.0"
#endif

using namespace mlir::ks::runtime;
using json = nlohmann::json;
namespace keys = mlir::ks::bench_results;

namespace {

constexpr const char *kUsage = R"(usage: ks-bench [options] [NAME=]FILE[@KERNEL]...
       ks-bench db export|import|query|check [options]

Verifies every variant (PTX or cubin) against the reference on seeded random
inputs with poisoned outputs, times it (CUDA events, warm-up, median of many
runs, L2 flushed), and compares it with baselines measured the same way.

The kernel and its launch:
  --spec FILE             launch spec / manifest (JSON; docs/Runtime.md)
  --kernel NAME           kernel name (overrides the spec's)
  --params LIST           parameters in order: A:f32[M*K]:in,C:f32[M*N]:out,M:i32;
                          @NAME:TYPE[EXTENT]:ROLE is a __constant__/__device__ variable
                          of the module, filled and read by name (no argument)
  --grid F[,F[,F]]        grid size, formulas of the scalars: ceildiv(N,16),ceildiv(M,16)
  --block F[,F[,F]]       block size
  --smem F                dynamic shared memory bytes (default 0)
  --flops F, --bytes F    work per launch, for TFLOP/s and GB/s
  --workload M=4096,...   scalar values (override the spec's)
  --reference [NAME=]FILE[@KERNEL]   the reference (default: the first variant)
  --launches NAME=FILE    the variant NAME runs the launches of this manifest (one or more
                          kernels of its module, each with its own grid, block and smem)
                          instead of one launch with the spec's sizes

Baselines (repeatable):
  --baseline sgemm:M,N,K | tf32:M,N,K | hgemm:M,N,K | bgemm:M,N,K | copy[:BYTES]

Measurement:
  --reps N (50)  --warmup N (5)  --seed N (1)  --device N (0)
  --no-flush-l2  --fresh-inputs  --tolerance X  --tf32  --timeout SECONDS (600)
  --no-isolate            run in this process (a fault then ends the run)
  --no-counters           skip the CUPTI hardware counters
  --time-only             time without verifying (no reference run, no checks): status
                          "timed", not recorded in the database; for screening variants
                          verified elsewhere, never as a verified result
  --streams N (1)         time waves of N concurrent launches, each on its own stream and
                          its own copy of the buffers; the time per launch (the wave's over
                          N) is the steady-state throughput; not recorded in the database;
                          not with --baseline
  --energy SECONDS        after timing, each variant's energy per launch: NVML's energy
                          counter over at least SECONDS (0.1 to 60) of back-to-back
                          launches (L2 warm), and the board's mean power ("energy" in the
                          JSON; an error there when NVML or the counter is missing)

Output:
  --json FILE             write the results as JSON ("-" for stdout)
  --db FILE               tuning database (default $KS_TUNING_DB or ~/.cache/kernelskill/tuning.db)
  --no-db                 do not record
  --fingerprint HEX       kernel fingerprint for the database (default: hash of the reference file)
  --schedule TEXT         schedule text for the database
  --version, --help
)";

int usageError(const std::string &message) {
  std::cerr << "ks-bench: error: " << message << "\n(ks-bench --help for usage)\n";
  return 2;
}

std::string readFile(const std::string &path, bool &ok) {
  std::ifstream in(path, std::ios::binary);
  ok = bool(in);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::string fnv1a(const std::string &data) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : data)
    h = (h ^ c) * 0x100000001b3ull;
  char buffer[17];
  std::snprintf(buffer, sizeof(buffer), "%016llx", static_cast<unsigned long long>(h));
  return buffer;
}

Variant parseVariant(const std::string &text, const std::string &defaultKernel) {
  Variant v;
  std::string rest = text;
  size_t eq = rest.find('=');
  if (eq != std::string::npos) {
    v.name = rest.substr(0, eq);
    rest = rest.substr(eq + 1);
  }
  size_t at = rest.rfind('@');
  if (at != std::string::npos) {
    v.kernel = rest.substr(at + 1);
    rest = rest.substr(0, at);
  }
  v.path = rest;
  if (v.kernel.empty())
    v.kernel = defaultKernel;
  if (v.name.empty()) {
    size_t slash = v.path.find_last_of('/');
    v.name = slash == std::string::npos ? v.path : v.path.substr(slash + 1);
  }
  return v;
}

std::string fmt(std::optional<double> value, const char *format, double scale = 1) {
  if (!value)
    return "-";
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), format, *value * scale);
  return buffer;
}
std::string fmt(const std::map<std::string, double> &metrics, const char *name,
                const char *format, double scale = 1) {
  auto it = metrics.find(name);
  return fmt(it == metrics.end() ? std::nullopt : std::optional<double>(it->second), format,
             scale);
}

/// The records of `list`, read back as ks-bench's readers see them.
std::vector<VariantResult> readResults(const json &list) {
  std::vector<VariantResult> out;
  for (const json &j : list) {
    std::string error;
    std::optional<VariantResult> r = variantResultFromJSON(j, error);
    if (!r) {
      r.emplace();
      r->name = j.value(keys::kName, "?");
      r->status = keys::kStatusError;
      r->error = "unreadable result: " + error;
    }
    out.push_back(*r);
  }
  return out;
}

void printTable(const json &variantsJSON, const json &baselinesJSON) {
  std::vector<VariantResult> variants = readResults(variantsJSON),
                             baselines = readResults(baselinesJSON);
  auto timing = [](const VariantResult &v, double TimingSummary::*field) {
    return v.timing ? std::optional<double>(v.timing->summary.*field) : std::nullopt;
  };
  std::printf("%-24s %-6s %10s %10s %10s %9s %9s %7s %9s %5s %6s %6s\n", "variant", "status",
              "median_ms", "min_ms", "p90_ms", "TFLOP/s", "GB/s", "vs_ref", "rel_err", "regs",
              "smem", "local");
  double refMedian = 0;
  for (const VariantResult &v : variants) {
    double median = timing(v, &TimingSummary::median).value_or(0);
    if (refMedian == 0 && median > 0)
      refMedian = median;
    double worst = 0;
    for (const auto &[name, check] : v.verification)
      worst = std::max(worst, check.comparison.relativeL2);
    std::string speedup = "-";
    if (median > 0 && refMedian > 0) {
      char buffer[16];
      std::snprintf(buffer, sizeof(buffer), "%.2fx", refMedian / median);
      speedup = buffer;
    }
    char err[16];
    std::snprintf(err, sizeof(err), "%.1e", worst);
    auto attr = [&](int64_t KernelAttributes::*field) {
      return v.attributes ? std::optional<double>(double(*v.attributes.*field)) : std::nullopt;
    };
    std::printf("%-24s %-6s %10s %10s %10s %9s %9s %7s %9s %5s %6s %6s\n",
                v.name.substr(0, 24).c_str(), v.status.c_str(),
                fmt(timing(v, &TimingSummary::median), "%.4f").c_str(),
                fmt(timing(v, &TimingSummary::min), "%.4f").c_str(),
                fmt(timing(v, &TimingSummary::p90), "%.4f").c_str(), fmt(v.tflops, "%.2f").c_str(),
                fmt(v.gbps, "%.1f").c_str(), speedup.c_str(),
                v.verification.empty() ? "-" : err,
                fmt(attr(&KernelAttributes::registers), "%.0f").c_str(),
                fmt(attr(&KernelAttributes::staticSmem), "%.0f").c_str(),
                fmt(attr(&KernelAttributes::localBytes), "%.0f").c_str());
  }
  for (const VariantResult &b : baselines)
    std::printf("%-24s %-6s %10s %10s %10s %9s %9s\n", b.name.substr(0, 24).c_str(),
                b.status.c_str(), fmt(timing(b, &TimingSummary::median), "%.4f").c_str(),
                fmt(timing(b, &TimingSummary::min), "%.4f").c_str(),
                fmt(timing(b, &TimingSummary::p90), "%.4f").c_str(), fmt(b.tflops, "%.2f").c_str(),
                fmt(b.gbps, "%.1f").c_str());
  for (const VariantResult &v : variants) {
    if (!v.counters)
      continue;
    if (!v.counters->available) {
      std::printf("  %s: no counters: %s\n", v.name.c_str(),
                  v.counters->unavailableReason.c_str());
      continue;
    }
    const std::map<std::string, double> &m = v.counters->metrics;
    std::printf("  %s: DRAM %s%% of peak (%s MB read, %s MB written), SM %s%%, occupancy %s%%, "
                "sectors/request ld %s st %s, smem bank conflicts %s, branch uniformity %s%%\n",
                v.name.c_str(),
                fmt(m, "dram__throughput.avg.pct_of_peak_sustained_elapsed", "%.1f").c_str(),
                fmt(m, "dram__bytes_read.sum", "%.1f", 1e-6).c_str(),
                fmt(m, "dram__bytes_write.sum", "%.1f", 1e-6).c_str(),
                fmt(m, "sm__throughput.avg.pct_of_peak_sustained_elapsed", "%.1f").c_str(),
                fmt(m, "sm__warps_active.avg.pct_of_peak_sustained_active", "%.1f").c_str(),
                fmt(m, "global_load_sectors_per_request", "%.2f").c_str(),
                fmt(m, "global_store_sectors_per_request", "%.2f").c_str(),
                fmt(m, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "%.0f").c_str(),
                fmt(m, "smsp__sass_average_branch_targets_threads_uniform.pct", "%.1f").c_str());
  }
  for (const json &v : variantsJSON) {
    if (!v.contains(keys::kEnergy))
      continue;
    const json &e = v[keys::kEnergy];
    std::string name = v.value(keys::kName, std::string("?"));
    if (e.contains(keys::kError))
      std::printf("  %s: no energy: %s\n", name.c_str(),
                  e[keys::kError].get<std::string>().c_str());
    else
      std::printf("  %s: %.4f mJ per launch, %.0f W over %.2f s (%lld launches)\n", name.c_str(),
                  e[keys::kEnergyJoulesPerLaunch].get<double>() * 1e3,
                  e[keys::kEnergyWatts].get<double>(), e[keys::kEnergySeconds].get<double>(),
                  (long long)e[keys::kEnergyLaunches].get<int64_t>());
  }
  for (const VariantResult &v : variants)
    if (v.status != keys::kStatusPass && v.status != keys::kStatusTimed) {
      std::string why = v.error;
      for (const auto &[name, check] : v.verification)
        if (!check.comparison.reason.empty())
          why += "; " + name + ": " + check.comparison.reason;
      std::printf("  %s: %s\n", v.name.c_str(), why.c_str());
    }
}

int runDb(int argc, char **argv) {
  if (argc < 3)
    return usageError("ks-bench db needs a command: export, import, query or check");
  std::string command = argv[2], dbPath = TuningDB::defaultPath(), output = "-", input,
              fingerprint, gpu;
  std::optional<std::string> workload;
  for (int i = 3; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--db")
      dbPath = next();
    else if (a == "-o")
      output = next();
    else if (a == "--fingerprint")
      fingerprint = next();
    else if (a == "--gpu")
      gpu = next();
    else if (a == "--workload")
      workload = next();
    else if (command == "import" && input.empty() && a[0] != '-')
      input = a;
    else
      return usageError("unknown db option '" + a + "'");
  }
  std::string error;
  auto db = TuningDB::open(dbPath, error);
  if (!db) {
    std::cerr << "ks-bench: error: " << error << "\n";
    return 3;
  }
  if (command == "export") {
    std::ofstream file;
    if (output != "-") {
      file.open(output);
      if (!file)
        return usageError("cannot write " + output);
    }
    if (!db->exportJSONL(output == "-" ? std::cout : file, error)) {
      std::cerr << "ks-bench: error: " << error << "\n";
      return 3;
    }
    return 0;
  }
  if (command == "import") {
    std::ifstream in(input);
    if (input.empty() || !in)
      return usageError("ks-bench db import FILE: cannot read '" + input + "'");
    std::optional<size_t> added = db->importJSONL(in, error);
    if (!added) {
      std::cerr << "ks-bench: error: import of " << input << " failed (nothing imported): "
                << error << "\n";
      return 2;
    }
    std::cout << "imported " << *added << " records into " << dbPath << "\n";
    return 0;
  }
  if (command == "query") {
    if (fingerprint.empty() || gpu.empty())
      return usageError("ks-bench db query needs --fingerprint HEX and --gpu NAME");
    auto records = db->query(fingerprint, gpu, workload, error);
    if (!records) {
      std::cerr << "ks-bench: error: " << error << "\n";
      return 3;
    }
    for (const MeasurementRecord &r : *records)
      std::cout << toJSON(r) << "\n";
    return 0;
  }
  if (command == "check") {
    std::string result = db->integrityCheck();
    std::cout << dbPath << ": " << result << "\n";
    return result == "ok" ? 0 : 1;
  }
  return usageError("unknown db command '" + command + "'; valid: export, import, query, check");
}
} // namespace

int main(int argc, char **argv) {
  if (argc >= 2 && std::string(argv[1]) == "db")
    return runDb(argc, argv);

  LaunchSpec spec;
  BenchOptions options;
  std::vector<std::string> variantArgs, baselineArgs, launchArgs;
  std::string specPath, kernel, paramsText, gridText, blockText, smemText, flopsText, bytesText,
      referenceArg, jsonPath, dbPath = TuningDB::defaultPath(), fingerprint, schedule;
  std::vector<std::string> workloads;
  bool useDb = true;
  std::string command;
  for (int i = 0; i < argc; ++i)
    command += (i ? " " : "") + std::string(argv[i]);

  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](std::string &out) {
      if (i + 1 >= argc)
        return false;
      out = argv[++i];
      return true;
    };
    auto number = [&](auto &out) {
      std::string text;
      if (!value(text))
        return false;
      std::istringstream in(text);
      in >> out;
      return bool(in) && in.eof();
    };
    bool ok = true;
    if (a == "--help" || a == "-h") {
      std::cout << kUsage;
      return 0;
    } else if (a == "--version") {
      std::cout << "KernelSkill ks-bench " KS_VERSION_STRING "\n";
      return 0;
    } else if (a == "--spec")
      ok = value(specPath);
    else if (a == "--kernel")
      ok = value(kernel);
    else if (a == "--params")
      ok = value(paramsText);
    else if (a == "--grid")
      ok = value(gridText);
    else if (a == "--block")
      ok = value(blockText);
    else if (a == "--smem")
      ok = value(smemText);
    else if (a == "--flops")
      ok = value(flopsText);
    else if (a == "--bytes")
      ok = value(bytesText);
    else if (a == "--workload") {
      std::string w;
      ok = value(w);
      workloads.push_back(w);
    } else if (a == "--reference")
      ok = value(referenceArg);
    else if (a == "--baseline") {
      std::string b;
      ok = value(b);
      baselineArgs.push_back(b);
    } else if (a == "--reps")
      ok = number(options.reps) && options.reps > 0;
    else if (a == "--warmup")
      ok = number(options.warmup) && options.warmup >= 0;
    else if (a == "--seed")
      ok = number(options.seed);
    else if (a == "--device")
      ok = number(options.device);
    else if (a == "--timeout")
      ok = number(options.timeoutSeconds) && options.timeoutSeconds > 0;
    else if (a == "--tolerance") {
      double t;
      ok = number(t) && t >= 0;
      options.tolerance = t;
    } else if (a == "--tf32")
      options.tf32 = true;
    else if (a == "--no-flush-l2")
      options.flushL2 = false;
    else if (a == "--fresh-inputs")
      options.freshInputs = true;
    else if (a == "--no-isolate")
      options.isolate = false;
    else if (a == "--no-counters")
      options.counters = false;
    else if (a == "--time-only")
      options.timeOnly = true;
    else if (a == "--streams")
      ok = number(options.streams) && options.streams >= 1 && options.streams <= 64;
    else if (a == "--energy")
      ok = number(options.energySeconds) && options.energySeconds >= kMinEnergySeconds &&
           options.energySeconds <= 60;
    else if (a == "--json")
      ok = value(jsonPath);
    else if (a == "--db")
      ok = value(dbPath);
    else if (a == "--no-db")
      useDb = false;
    else if (a == "--fingerprint")
      ok = value(fingerprint);
    else if (a == "--launches") {
      std::string v;
      ok = value(v);
      launchArgs.push_back(v);
    } else if (a == "--schedule")
      ok = value(schedule);
    else if (!a.empty() && a[0] == '-')
      return usageError("unknown option '" + a + "'");
    else
      variantArgs.push_back(a);
    if (!ok)
      return usageError("option '" + a + "' needs a valid value");
  }

  // The launch spec: the file, then command-line overrides.
  std::string error;
  if (!specPath.empty()) {
    bool readOk;
    std::string text = readFile(specPath, readOk);
    if (!readOk)
      return usageError("cannot read spec " + specPath);
    std::optional<LaunchSpec> parsed = parseLaunchSpecJSON(text, error);
    if (!parsed)
      return usageError(specPath + ": " + error);
    spec = *parsed;
  }
  if (!kernel.empty())
    spec.kernel = kernel;
  if (!paramsText.empty()) {
    spec.params.clear();
    if (!parseParamList(paramsText, spec.params, error))
      return usageError("--params: " + error);
  }
  if (!gridText.empty() && !parseDims(gridText, spec.grid, error))
    return usageError("--grid: " + error);
  if (!blockText.empty() && !parseDims(blockText, spec.block, error))
    return usageError("--block: " + error);
  if (!smemText.empty())
    spec.smem = smemText;
  if (!flopsText.empty())
    spec.flops = flopsText;
  if (!bytesText.empty())
    spec.bytes = bytesText;
  for (const std::string &w : workloads)
    if (!mlir::ks::parseWorkload(w, spec.scalars, error))
      return usageError("--workload: " + error);

  if (variantArgs.empty() && referenceArg.empty() && baselineArgs.empty())
    return usageError("nothing to measure: give a PTX/cubin variant or a --baseline");
  // Baselines are timed alone: beside per-launch times of waves they would
  // compare two quantities.
  if (options.streams > 1 && !baselineArgs.empty())
    return usageError("--streams times waves of concurrent launches; baselines are timed "
                      "alone: measure them in another run");

  std::vector<Variant> variants;
  for (const std::string &v : variantArgs)
    variants.push_back(parseVariant(v, spec.kernel));
  std::optional<Variant> reference;
  if (!referenceArg.empty())
    reference = parseVariant(referenceArg, spec.kernel);
  else if (!variants.empty())
    reference = variants.front();
  if (reference && variants.empty())
    variants.push_back(*reference);

  std::optional<ResolvedLaunch> launch;
  if (reference) {
    if (spec.kernel.empty() && reference->kernel.empty())
      return usageError("no kernel name: give --kernel, a spec, or FILE@KERNEL");
    for (Variant *v : {&*reference}) {
      if (v->kernel.empty())
        v->kernel = spec.kernel;
    }
    if (spec.kernel.empty())
      spec.kernel = reference->kernel;
    for (Variant &v : variants)
      if (v.kernel.empty())
        v.kernel = spec.kernel;
    if (spec.params.empty())
      return usageError("no kernel parameters: give --params or --spec");
    launch = resolve(spec, error);
    if (!launch)
      return usageError(error);
    for (const std::string &l : launchArgs) {
      size_t eq = l.find('=');
      if (eq == std::string::npos)
        return usageError("--launches: expected NAME=FILE, got '" + l + "'");
      std::string name = l.substr(0, eq), file = l.substr(eq + 1);
      bool readOk;
      std::string text = readFile(file, readOk);
      if (!readOk)
        return usageError("--launches: cannot read " + file);
      std::optional<std::vector<LaunchStep>> steps = parseLaunchSteps(text, spec.scalars, error);
      if (!steps)
        return usageError("--launches " + file + ": " + error);
      bool found = false;
      for (Variant *v : {&*reference})
        if (v->name == name) {
          v->steps = *steps;
          found = true;
        }
      for (Variant &v : variants)
        if (v.name == name) {
          v.steps = *steps;
          found = true;
        }
      if (!found)
        return usageError("--launches: no variant named '" + name + "'");
    }
    for (const Variant &v : variants) {
      std::ifstream probe(v.path);
      if (!probe)
        return usageError("cannot read variant '" + v.path + "'");
    }
  }
  std::vector<Baseline> baselines;
  for (const std::string &b : baselineArgs) {
    std::optional<Baseline> parsed = parseBaseline(b, spec.scalars, error);
    if (!parsed)
      return usageError(error);
    baselines.push_back(*parsed);
  }

  // Measure.
  json variantResults = json::array(), baselineResults = json::array();
  // A worker that died reports no name: keep the job's.
  std::optional<SharedRun> shared;
  if (!variants.empty())
    shared.emplace(spec, *launch, options.seed);
  for (const Variant &v : variants) {
    json r = runIsolated("variant '" + v.name + "'", options, [&] {
      return runVariantJob(spec, *launch, *reference, v, options, *shared);
    });
    r.emplace(keys::kName, v.name);
    r.emplace(keys::kPath, v.path);
    r.emplace(keys::kKernel, v.kernel);
    variantResults.push_back(r);
  }
  for (const Baseline &b : baselines) {
    json r = runIsolated("baseline '" + b.kind + "'", options,
                         [&] { return runBaselineJob(b, options); });
    r.emplace(keys::kName, b.kind);
    r.emplace(keys::kBaseline, b.kind);
    baselineResults.push_back(r);
  }

  // Without a GPU every job fails the same way: say so once, exit 3.
  json device = json::object();
  bool anyDevice = false;
  for (const json *list : {&variantResults, &baselineResults})
    for (const json &r : *list)
      if (r.contains(keys::kDevice)) {
        device = r[keys::kDevice];
        anyDevice = true;
      }
  printTable(variantResults, baselineResults);

  json workload = json::object();
  for (const auto &[name, value] : spec.scalars)
    workload[name] = value;
  json report = {{keys::kDate, currentTimeUTC()},
                 {keys::kKsVersion, KS_VERSION_STRING},
                 {keys::kCommand, command},
                 {keys::kDevice, device},
                 {keys::kWorkload, workload},
                 {keys::kSpec, json::parse(toJSON(spec))},
                 {keys::kSeed, options.seed},
                 {keys::kVariants, variantResults},
                 {keys::kBaselines, baselineResults}};
  if (!jsonPath.empty()) {
    std::string text = report.dump(2, ' ', false, json::error_handler_t::replace);
    if (jsonPath == "-") {
      std::cout << text << "\n";
    } else {
      std::ofstream out(jsonPath);
      out << text << "\n";
      if (!out)
        std::cerr << "ks-bench: error: cannot write " << jsonPath << "\n";
    }
  }

  // Timed but unverified results are not measurements to reuse.
  // (Nor are throughput times: another quantity than a launch's own.)
  if (useDb && anyDevice && !options.timeOnly && options.streams == 1) {
    auto db = TuningDB::open(dbPath, error);
    if (!db) {
      std::cerr << "ks-bench: warning: measurements not recorded: " << error << "\n";
    } else {
      bool readOk = false;
      std::string refHash =
          fingerprint.empty() && reference ? fnv1a(readFile(reference->path, readOk)) : fingerprint;
      auto record = [&](const json &r, const std::string &fp, const std::string &sched) {
        MeasurementRecord m;
        m.fingerprint = fp;
        m.gpuName = device.value(keys::kDeviceName, "");
        m.chip = device.value(keys::kDeviceChip, "");
        m.driverVersion = device.value(keys::kDeviceDriver, "");
        m.cudaVersion = device.value(keys::kDeviceCudaRuntime, "");
        m.workload = workload.dump();
        m.schedule = sched;
        m.results = r.dump(-1, ' ', false, json::error_handler_t::replace);
        m.ksVersion = KS_VERSION_STRING;
        if (!db->insert(m, error))
          std::cerr << "ks-bench: warning: " << error << "\n";
      };
      for (const json &r : variantResults)
        record(r, refHash, schedule.empty() ? r.value(keys::kName, "") : schedule);
      for (const json &r : baselineResults)
        record(r, "baseline:" + r.value(keys::kBaseline, ""), "");
    }
  }

  if (!anyDevice) {
    for (const json *list : {&variantResults, &baselineResults})
      for (const json &r : *list) {
        std::cerr << "ks-bench: error: " << r.value(keys::kError, "no GPU") << "\n";
        return 3;
      }
  }
  for (const json *list : {&variantResults, &baselineResults})
    for (const json &r : *list)
      if (r.value(keys::kStatus, "") != keys::kStatusPass &&
          r.value(keys::kStatus, "") != keys::kStatusTimed)
        return 1;
  return 0;
}
