//===- BenchResultsSchema.h - ks-bench's JSON results' keys -----*- C++ -*-===//
//
// ks-bench's results (`--json FILE`, and each record's "results" in the
// tuning database and `ks-bench db export`) are written by lib/Runtime and
// tools/ks-bench with nlohmann/json and read by ks-bench itself and by the
// performance profiler (lib/Agents/Measurements.cpp, with llvm::json). All of
// them spell the keys from here. Standard library only: the runtime builds
// without LLVM.
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_SUPPORT_BENCHRESULTSSCHEMA_H
#define KERNELSKILL_SUPPORT_BENCHRESULTSSCHEMA_H

namespace mlir::ks::bench_results {

// The document: {"date", "ks_version", "command", "device", "workload",
// "spec" (the launch spec), "seed", "variants": [RESULT...], "baselines":
// [RESULT...]}.
inline constexpr const char *kDate = "date";
inline constexpr const char *kKsVersion = "ks_version";
inline constexpr const char *kCommand = "command";
inline constexpr const char *kDevice = "device";
inline constexpr const char *kWorkload = "workload";
inline constexpr const char *kSpec = "spec";
inline constexpr const char *kSeed = "seed";
inline constexpr const char *kVariants = "variants";
inline constexpr const char *kBaselines = "baselines";

// A variant's or baseline's RESULT.
inline constexpr const char *kName = "name";
inline constexpr const char *kPath = "path";
inline constexpr const char *kKernel = "kernel";
inline constexpr const char *kBaseline = "baseline"; ///< the baseline's kind
inline constexpr const char *kStatus = "status";
inline constexpr const char *kError = "error";
inline constexpr const char *kAttributes = "attributes";
inline constexpr const char *kVerification = "verification"; ///< {OUTPUT: CHECK}
inline constexpr const char *kVerificationAfterTiming = "verification_after_timing";
inline constexpr const char *kTiming = "timing";
inline constexpr const char *kTflops = "tflops";
inline constexpr const char *kGbps = "gbps";
inline constexpr const char *kCounters = "counters";
/// --energy: {"joules_per_launch", "watts", "seconds", "launches", "method"},
/// or {"error"} when the counter could not be read (the variant still
/// passes: the energy is a measurement beside its time).
inline constexpr const char *kEnergy = "energy";
inline constexpr const char *kEnergyJoulesPerLaunch = "joules_per_launch";
inline constexpr const char *kEnergyWatts = "watts";
inline constexpr const char *kEnergySeconds = "seconds";
inline constexpr const char *kEnergyLaunches = "launches";
inline constexpr const char *kEnergyMethod = "method";
/// Host wall seconds of a variant job's phases: {"reference" (running it and
/// copying its outputs back, or taking them from an earlier worker),
/// "candidate" (its two poisoned runs and copies), "verification" (host
/// checks, before and after timing), "timing"}.
inline constexpr const char *kSeconds = "seconds";
inline constexpr const char *kSecondsReference = "reference";
inline constexpr const char *kSecondsCandidate = "candidate";
inline constexpr const char *kSecondsVerification = "verification";
inline constexpr const char *kSecondsTiming = "timing";
/// Whether the reference's outputs came from an earlier worker of the run.
inline constexpr const char *kReferenceReused = "reference_reused";

// The values of "status".
inline constexpr const char *kStatusPass = "pass";
inline constexpr const char *kStatusFail = "fail";
inline constexpr const char *kStatusError = "error";
/// Timed but not verified (--time-only): for screening candidates that were
/// verified at another size; never a verified result.
inline constexpr const char *kStatusTimed = "timed";

// "device".
inline constexpr const char *kDeviceName = "name";
inline constexpr const char *kDeviceChip = "chip";
inline constexpr const char *kDeviceSMs = "sms";
inline constexpr const char *kDeviceL2Bytes = "l2_bytes";
inline constexpr const char *kDeviceDriver = "driver";
inline constexpr const char *kDeviceCudaRuntime = "cuda_runtime";

// "attributes": what the driver says of the loaded kernel.
inline constexpr const char *kRegisters = "registers";
inline constexpr const char *kStaticSmem = "static_smem";
inline constexpr const char *kLocalBytes = "local_bytes";
inline constexpr const char *kMaxThreadsPerBlock = "max_threads_per_block";

// A CHECK of one output (or of an input the kernel must not write: then only
// "pass" and "reason").
inline constexpr const char *kElements = "elements";
inline constexpr const char *kRelL2 = "rel_l2";
inline constexpr const char *kMaxAbs = "max_abs";
inline constexpr const char *kNaN = "nan";
inline constexpr const char *kOutliers = "outliers";
inline constexpr const char *kUnwritten = "unwritten";
inline constexpr const char *kReferenceUnwritten = "reference_unwritten";
inline constexpr const char *kTolerance = "tolerance";
inline constexpr const char *kPass = "pass";
inline constexpr const char *kReason = "reason";

// "timing", in milliseconds.
inline constexpr const char *kMedianMs = "median_ms";
inline constexpr const char *kMinMs = "min_ms";
inline constexpr const char *kP90Ms = "p90_ms";
inline constexpr const char *kMeanMs = "mean_ms";
inline constexpr const char *kMaxMs = "max_ms";
inline constexpr const char *kReps = "reps";
inline constexpr const char *kSpread = "spread";
inline constexpr const char *kMethod = "method";

// "counters": {"available": BOOL, "metrics": {NAME: NUMBER}, "skipped":
// [NAME...]} or {"available": false, "unavailable": WHY}.
inline constexpr const char *kAvailable = "available";
inline constexpr const char *kMetrics = "metrics";
inline constexpr const char *kSkipped = "skipped";
inline constexpr const char *kUnavailable = "unavailable";

// A record of `ks-bench db export` (one JSON line): the tuning database's
// columns, with "results" holding one RESULT.
inline constexpr const char *kRecordFingerprint = "fingerprint";
inline constexpr const char *kRecordGpuName = "gpu_name";
inline constexpr const char *kRecordChip = "chip";
inline constexpr const char *kRecordDriverVersion = "driver_version";
inline constexpr const char *kRecordCudaVersion = "cuda_version";
inline constexpr const char *kRecordWorkload = "workload";
inline constexpr const char *kRecordSchedule = "schedule";
inline constexpr const char *kRecordKsVersion = "ks_version";
inline constexpr const char *kRecordCreatedAt = "created_at";
inline constexpr const char *kRecordResults = "results";

} // namespace mlir::ks::bench_results

#endif // KERNELSKILL_SUPPORT_BENCHRESULTSSCHEMA_H
