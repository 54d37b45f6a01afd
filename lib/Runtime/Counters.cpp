//===- Counters.cpp - Hardware counters through the CUPTI range profiler --===//
//
// The call sequence (CUDA 12.6+ Range Profiler API):
//   cuptiProfilerInitialize, cuptiProfilerDeviceSupported,
//   cuptiDeviceGetChipName, cuptiProfilerGetCounterAvailability,
//   cuptiProfilerHostInitialize + ConfigAddMetrics + GetConfigImage(Size) +
//   GetNumOfPasses, cuptiRangeProfilerEnable, GetCounterDataSize,
//   CounterDataImageInitialize, SetConfig (auto range, kernel replay),
//   { Start, launch, Stop } until every pass is submitted, DecodeData,
//   GetCounterDataInfo, cuptiProfilerHostEvaluateToGpuValues; then Disable,
//   cuptiProfilerHostDeinitialize and cuptiProfilerDeInitialize.
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Runtime/Counters.h"
#include "kernelskill/Runtime/Device.h"

#include <cuda.h> // types only (CUcontext, CUresult): libcuda is not linked
#include <cuda_runtime.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <cupti_target.h>

#include <dlfcn.h>

#include <algorithm>
#include <cstdint>

using namespace mlir::ks::runtime;

const std::vector<std::string> &mlir::ks::runtime::defaultCounterMetrics() {
  static const std::vector<std::string> metrics = {
      "dram__bytes_read.sum",
      "dram__bytes_write.sum",
      "dram__throughput.avg.pct_of_peak_sustained_elapsed",
      "sm__throughput.avg.pct_of_peak_sustained_elapsed",
      "sm__warps_active.avg.pct_of_peak_sustained_active", // achieved occupancy
      "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
      "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
      "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
      "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
      "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
      "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
      "smsp__sass_average_branch_targets_threads_uniform.pct", // branch efficiency
      "gpu__time_duration.sum",
  };
  return metrics;
}

namespace {

// The libcupti functions used; all exist in CUDA 12.6+ (the range profiler's
// first release), so a missing one means an older CUPTI.
#define KS_CUPTI_REQUIRED(X)                                                                       \
  X(cuptiGetResultString)                                                                          \
  X(cuptiProfilerInitialize)                                                                       \
  X(cuptiProfilerDeInitialize)                                                                     \
  X(cuptiDeviceGetChipName)                                                                        \
  X(cuptiProfilerGetCounterAvailability)                                                           \
  X(cuptiProfilerHostInitialize)                                                                   \
  X(cuptiProfilerHostDeinitialize)                                                                 \
  X(cuptiProfilerHostConfigAddMetrics)                                                             \
  X(cuptiProfilerHostGetConfigImageSize)                                                           \
  X(cuptiProfilerHostGetConfigImage)                                                               \
  X(cuptiProfilerHostGetNumOfPasses)                                                               \
  X(cuptiProfilerHostEvaluateToGpuValues)                                                          \
  X(cuptiRangeProfilerEnable)                                                                      \
  X(cuptiRangeProfilerDisable)                                                                     \
  X(cuptiRangeProfilerGetCounterDataSize)                                                          \
  X(cuptiRangeProfilerCounterDataImageInitialize)                                                  \
  X(cuptiRangeProfilerSetConfig)                                                                   \
  X(cuptiRangeProfilerStart)                                                                       \
  X(cuptiRangeProfilerStop)                                                                        \
  X(cuptiRangeProfilerDecodeData)                                                                  \
  X(cuptiRangeProfilerGetCounterDataInfo)
// Used when present: they only improve the messages.
#define KS_CUPTI_OPTIONAL(X)                                                                       \
  X(cuptiGetErrorMessage)                                                                          \
  X(cuptiProfilerDeviceSupported)

/// libcupti's entry points, looked up by name so that nothing links against
/// it. Loaded once per process and never unloaded: CUPTI hooks itself into
/// the driver, which may call into it until the process exits.
struct Cupti {
#define KS_DECLARE(name) decltype(&::name) name = nullptr;
  KS_CUPTI_REQUIRED(KS_DECLARE)
  KS_CUPTI_OPTIONAL(KS_DECLARE)
#undef KS_DECLARE
  std::string error; ///< why CUPTI cannot be used; empty when it can
};

Cupti loadCupti() {
  Cupti api;
  // The soname first (found through the loader's path), then where CUDA
  // toolkits put it, for machines whose loader path lacks the toolkit.
  void *handle = nullptr;
  std::string firstError;
  for (const char *path : {"libcupti.so.13", "libcupti.so", "/usr/local/cuda/lib64/libcupti.so.13",
                           "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so.13"}) {
    if ((handle = dlopen(path, RTLD_NOW | RTLD_LOCAL)))
      break;
    if (firstError.empty())
      if (const char *e = dlerror())
        firstError = e;
  }
  if (!handle) {
    api.error = "CUPTI library not found (" + firstError + ")";
    return api;
  }
#define KS_REQUIRE(name)                                                                           \
  api.name = reinterpret_cast<decltype(api.name)>(dlsym(handle, #name));                           \
  if (!api.name && api.error.empty())                                                              \
    api.error = "the CUPTI library lacks " #name " (the range profiler needs CUDA 12.6 or newer)";
#define KS_LOOK_UP(name) api.name = reinterpret_cast<decltype(api.name)>(dlsym(handle, #name));
  KS_CUPTI_REQUIRED(KS_REQUIRE)
  KS_CUPTI_OPTIONAL(KS_LOOK_UP)
#undef KS_REQUIRE
#undef KS_LOOK_UP
  return api;
}

const Cupti &cupti() {
  static const Cupti api = loadCupti();
  return api;
}

/// A CUPTI parameter struct: zeroed, with its structSize set (CUPTI reads
/// only the fields that size covers, which keeps old callers working).
template <typename T> T params(size_t structSize) {
  T p{};
  p.structSize = structSize;
  return p;
}
#define KS_PARAMS(T) params<T>(T##_STRUCT_SIZE)

bool notPermitted(CUptiResult r) {
  return r == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES ||
         r == CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES;
}

bool deviceUnsupported(CUptiResult r) {
  switch (r) {
  case CUPTI_ERROR_NOT_SUPPORTED:
  case CUPTI_ERROR_NOT_COMPATIBLE:
  case CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED:
  case CUPTI_ERROR_LEGACY_PROFILER_NOT_SUPPORTED:
  case CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED:
  case CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED:
  case CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED:
  case CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED:
  case CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED:
  case CUPTI_ERROR_INVALID_CHIP_NAME:
    return true;
  default:
    return false;
  }
}

/// "CUPTI_ERROR_NOT_INITIALIZED (CUPTI is not initialized...)".
std::string describeCupti(const Cupti &api, CUptiResult r) {
  const char *name = nullptr, *message = nullptr;
  std::string text = api.cuptiGetResultString(r, &name) == CUPTI_SUCCESS && name
                         ? std::string(name)
                         : "CUPTI error " + std::to_string(int(r));
  if (api.cuptiGetErrorMessage && api.cuptiGetErrorMessage(r, &message) == CUPTI_SUCCESS &&
      message && *message)
    text += std::string(" (") + message + ")";
  return text;
}

/// Numerator / denominator as `name`, when both were collected and the
/// denominator is positive.
void addRatio(std::map<std::string, double> &metrics, const std::string &name,
              const std::string &numerator, const std::string &denominator) {
  auto n = metrics.find(numerator), d = metrics.find(denominator);
  if (n != metrics.end() && d != metrics.end() && d->second > 0)
    metrics[name] = n->second / d->second;
}

/// One profiling session on the current context. Whatever a step set up is
/// torn down by the destructor, so every early return cleans up.
class Session {
public:
  explicit Session(const Cupti &api) : api(api) {}
  Session(const Session &) = delete;
  Session &operator=(const Session &) = delete;
  ~Session();

  /// Profiles `launch` into `result`; false with reason() on any failure.
  bool run(const std::function<cudaError_t()> &launch, CounterResult &result) {
    return currentContext() && initialize() && queryChip() && buildConfig(result.skippedMetrics) &&
           configure() && profile(launch) && evaluate(result);
  }
  const std::string &reason() const { return why; }

private:
  // The counter data image has room for a few ranges, so that a launch that
  // runs more than one kernel is reported as such rather than truncated.
  static constexpr size_t kMaxRanges = 8;

  const Cupti &api;
  std::string why;
  bool profilerInitialized = false;
  CUcontext ctx = nullptr;
  int device = 0;
  std::string chip;
  std::vector<uint8_t> availability, config, counterData;
  CUpti_Profiler_Host_Object *host = nullptr;
  CUpti_RangeProfiler_Object *rangeProfiler = nullptr;
  std::vector<const char *> metrics; ///< accepted ones, into defaultCounterMetrics()
  size_t passes = 1;

  /// Records the first failure only: later ones are usually its echoes.
  bool fail(const std::string &reason) {
    if (why.empty())
      why = reason;
    return false;
  }
  bool check(CUptiResult r, const char *call);

  bool currentContext();
  bool initialize();
  bool deviceSupported();
  bool queryChip();
  CUptiResult newHost(CUpti_Profiler_Host_Object *&out);
  void freeHost(CUpti_Profiler_Host_Object *&h);
  CUptiResult addMetrics(CUpti_Profiler_Host_Object *h, std::vector<const char *> names);
  bool buildConfig(std::vector<std::string> &skipped);
  bool configure();
  bool profile(const std::function<cudaError_t()> &launch);
  bool evaluate(CounterResult &result);
};

Session::~Session() {
  if (rangeProfiler) {
    auto p = KS_PARAMS(CUpti_RangeProfiler_Disable_Params);
    p.pRangeProfilerObject = rangeProfiler;
    api.cuptiRangeProfilerDisable(&p);
  }
  freeHost(host);
  if (profilerInitialized) {
    auto p = KS_PARAMS(CUpti_Profiler_DeInitialize_Params);
    api.cuptiProfilerDeInitialize(&p);
  }
}

bool Session::check(CUptiResult r, const char *call) {
  if (r == CUPTI_SUCCESS)
    return true;
  std::string what = std::string(call) + " failed: " + describeCupti(api, r);
  if (notPermitted(r))
    return fail("profiling not permitted: " + what +
                "; GPU performance counters need root, or the driver loaded with "
                "NVreg_RestrictProfilingToAdminUsers=0 "
                "(https://developer.nvidia.com/ERR_NVGPUCTRPERM)");
  if (deviceUnsupported(r))
    return fail("profiling not supported on this device: " + what);
  return fail(what);
}

bool Session::currentContext() {
  // Creates the device's primary context if the runtime has not yet.
  cudaError_t err = cudaFree(nullptr);
  if (err == cudaSuccess)
    err = cudaGetDevice(&device);
  if (err != cudaSuccess)
    return fail("no usable CUDA context: " + describe(err));
  // The runtime API cannot name its context; the driver's cuCtxGetCurrent,
  // found through the runtime, can, without linking libcuda.
  void *fn = nullptr;
  cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
  err = cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &fn, 12000, cudaEnableDefault, &found);
  if (err != cudaSuccess || found != cudaDriverEntryPointSuccess || !fn)
    return fail("cannot find cuCtxGetCurrent in the CUDA driver" +
                (err != cudaSuccess ? ": " + describe(err) : std::string()));
  if (reinterpret_cast<decltype(&cuCtxGetCurrent)>(fn)(&ctx) != CUDA_SUCCESS || !ctx)
    return fail("no current CUDA context");
  return true;
}

bool Session::initialize() {
  auto p = KS_PARAMS(CUpti_Profiler_Initialize_Params);
  if (!check(api.cuptiProfilerInitialize(&p), "cuptiProfilerInitialize"))
    return false;
  profilerInitialized = true;
  return deviceSupported();
}

/// Names the reason (vGPU, confidential computing, ...) up front, where the
/// later calls would fail with a bare error code. A query that itself fails
/// is no verdict: the calls after it then report their own errors.
bool Session::deviceSupported() {
  if (!api.cuptiProfilerDeviceSupported)
    return true;
  auto p = KS_PARAMS(CUpti_Profiler_DeviceSupported_Params);
  p.cuDevice = CUdevice(device); // the runtime's ordinal is the driver's device
  p.api = CUPTI_PROFILER_RANGE_PROFILING;
  if (api.cuptiProfilerDeviceSupported(&p) != CUPTI_SUCCESS ||
      (p.isSupported != CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED &&
       p.isSupported != CUPTI_PROFILER_CONFIGURATION_DISABLED))
    return true;
  std::string blockers;
  auto add = [&](const char *feature, CUpti_Profiler_Support_Level level) {
    if (level == CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED ||
        level == CUPTI_PROFILER_CONFIGURATION_DISABLED)
      blockers += std::string(blockers.empty() ? "" : ", ") + feature +
                  (level == CUPTI_PROFILER_CONFIGURATION_DISABLED ? " (disabled)" : "");
  };
  add("architecture", p.architecture);
  add("SLI", p.sli);
  add("vGPU", p.vGpu);
  add("confidential computing", p.confidentialCompute);
  add("CMP", p.cmp);
  add("WSL", p.wsl);
  return fail("profiling not supported on this device" +
              (blockers.empty() ? std::string() : ": " + blockers));
}

bool Session::queryChip() {
  auto name = KS_PARAMS(CUpti_Device_GetChipName_Params);
  name.deviceIndex = size_t(device);
  if (!check(api.cuptiDeviceGetChipName(&name), "cuptiDeviceGetChipName"))
    return false;
  chip = name.pChipName ? name.pChipName : "";
  // The availability image tells the host side which counters this device
  // can collect now. It is optional for chips CUPTI knows, so a failure other
  // than a refusal only loses that filter.
  auto avail = KS_PARAMS(CUpti_Profiler_GetCounterAvailability_Params);
  avail.ctx = ctx;
  CUptiResult r = api.cuptiProfilerGetCounterAvailability(&avail);
  if (r == CUPTI_SUCCESS && avail.counterAvailabilityImageSize) {
    availability.assign(avail.counterAvailabilityImageSize, 0);
    avail.pCounterAvailabilityImage = availability.data();
    r = api.cuptiProfilerGetCounterAvailability(&avail);
  }
  if (notPermitted(r))
    return check(r, "cuptiProfilerGetCounterAvailability");
  if (r != CUPTI_SUCCESS)
    availability.clear();
  return true;
}

/// A host object for the chip: it turns metric names into a config image and
/// decoded counters into metric values.
CUptiResult Session::newHost(CUpti_Profiler_Host_Object *&out) {
  auto p = KS_PARAMS(CUpti_Profiler_Host_Initialize_Params);
  p.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  p.pChipName = chip.c_str();
  p.pCounterAvailabilityImage = availability.empty() ? nullptr : availability.data();
  CUptiResult r = api.cuptiProfilerHostInitialize(&p);
  out = r == CUPTI_SUCCESS ? p.pHostObject : nullptr;
  return r;
}

void Session::freeHost(CUpti_Profiler_Host_Object *&h) {
  if (!h)
    return;
  auto p = KS_PARAMS(CUpti_Profiler_Host_Deinitialize_Params);
  p.pHostObject = h;
  api.cuptiProfilerHostDeinitialize(&p);
  h = nullptr;
}

CUptiResult Session::addMetrics(CUpti_Profiler_Host_Object *h, std::vector<const char *> names) {
  auto p = KS_PARAMS(CUpti_Profiler_Host_ConfigAddMetrics_Params);
  p.pHostObject = h;
  p.ppMetricNames = names.data();
  p.numMetrics = names.size();
  return api.cuptiProfilerHostConfigAddMetrics(&p);
}

/// Schedules the metrics into a config image. When the chip rejects the set,
/// each metric is tried alone on a fresh host object (a failed add may leave
/// an object half-configured) and the rejected ones go to `skipped`.
bool Session::buildConfig(std::vector<std::string> &skipped) {
  std::vector<const char *> wanted;
  for (const std::string &m : defaultCounterMetrics())
    wanted.push_back(m.c_str());
  if (!check(newHost(host), "cuptiProfilerHostInitialize"))
    return false;
  CUptiResult r = addMetrics(host, wanted);
  if (r != CUPTI_SUCCESS) {
    if (notPermitted(r))
      return check(r, "cuptiProfilerHostConfigAddMetrics");
    freeHost(host);
    std::vector<const char *> accepted;
    for (const char *m : wanted) {
      CUpti_Profiler_Host_Object *probe = nullptr;
      if (!check(newHost(probe), "cuptiProfilerHostInitialize"))
        return false;
      if (addMetrics(probe, {m}) == CUPTI_SUCCESS)
        accepted.push_back(m);
      else
        skipped.push_back(m);
      freeHost(probe);
    }
    if (accepted.empty())
      return fail("CUPTI accepts none of the metrics on " + chip + " (" + describeCupti(api, r) +
                  ")");
    if (!check(newHost(host), "cuptiProfilerHostInitialize") ||
        !check(addMetrics(host, accepted), "cuptiProfilerHostConfigAddMetrics"))
      return false;
    wanted = accepted;
  }
  metrics = wanted;

  auto size = KS_PARAMS(CUpti_Profiler_Host_GetConfigImageSize_Params);
  size.pHostObject = host;
  if (!check(api.cuptiProfilerHostGetConfigImageSize(&size), "cuptiProfilerHostGetConfigImageSize"))
    return false;
  config.assign(size.configImageSize, 0);
  auto image = KS_PARAMS(CUpti_Profiler_Host_GetConfigImage_Params);
  image.pHostObject = host;
  image.configImageSize = config.size();
  image.pConfigImage = config.data();
  if (!check(api.cuptiProfilerHostGetConfigImage(&image), "cuptiProfilerHostGetConfigImage"))
    return false;
  auto numPasses = KS_PARAMS(CUpti_Profiler_Host_GetNumOfPasses_Params);
  numPasses.configImageSize = config.size();
  numPasses.pConfigImage = config.data();
  if (!check(api.cuptiProfilerHostGetNumOfPasses(&numPasses), "cuptiProfilerHostGetNumOfPasses"))
    return false;
  passes = std::max<size_t>(numPasses.numOfPasses, 1);
  return true;
}

/// Enables the range profiler on the context and hands it the config and a
/// fresh counter data image: one range per kernel, kernel replay.
bool Session::configure() {
  auto enable = KS_PARAMS(CUpti_RangeProfiler_Enable_Params);
  enable.ctx = ctx;
  if (!check(api.cuptiRangeProfilerEnable(&enable), "cuptiRangeProfilerEnable"))
    return false;
  rangeProfiler = enable.pRangeProfilerObject;

  auto size = KS_PARAMS(CUpti_RangeProfiler_GetCounterDataSize_Params);
  size.pRangeProfilerObject = rangeProfiler;
  size.pMetricNames = metrics.data();
  size.numMetrics = metrics.size();
  size.maxNumOfRanges = kMaxRanges;
  size.maxNumRangeTreeNodes = uint32_t(kMaxRanges);
  if (!check(api.cuptiRangeProfilerGetCounterDataSize(&size), "cuptiRangeProfilerGetCounterDataSize"))
    return false;
  counterData.assign(size.counterDataSize, 0);
  auto init = KS_PARAMS(CUpti_RangeProfiler_CounterDataImage_Initialize_Params);
  init.pRangeProfilerObject = rangeProfiler;
  init.counterDataSize = counterData.size();
  init.pCounterData = counterData.data();
  if (!check(api.cuptiRangeProfilerCounterDataImageInitialize(&init),
             "cuptiRangeProfilerCounterDataImageInitialize"))
    return false;

  auto set = KS_PARAMS(CUpti_RangeProfiler_SetConfig_Params);
  set.pRangeProfilerObject = rangeProfiler;
  set.configSize = config.size();
  set.pConfig = config.data();
  set.counterDataImageSize = counterData.size();
  set.pCounterDataImage = counterData.data();
  set.range = CUPTI_AutoRange;
  set.replayMode = CUPTI_KernelReplay;
  set.maxRangesPerPass = kMaxRanges;
  set.numNestingLevels = 1; // auto range: no nesting
  set.minNestingLevel = 1;
  set.passIndex = 0;
  set.targetNestingLevel = 1;
  return check(api.cuptiRangeProfilerSetConfig(&set), "cuptiRangeProfilerSetConfig");
}

/// Kernel replay runs every pass inside the one launch, so the first round
/// should submit them all; the loop follows the API's contract anyway, with
/// a bound in case CUPTI never reports completion.
bool Session::profile(const std::function<cudaError_t()> &launch) {
  bool allSubmitted = false;
  for (size_t round = 0; !allSubmitted; ++round) {
    if (round > passes)
      return fail("CUPTI did not submit all " + std::to_string(passes) + " passes in " +
                  std::to_string(round) + " rounds");
    auto start = KS_PARAMS(CUpti_RangeProfiler_Start_Params);
    start.pRangeProfilerObject = rangeProfiler;
    if (!check(api.cuptiRangeProfilerStart(&start), "cuptiRangeProfilerStart"))
      return false;
    // Synchronizing inside the range surfaces a faulting kernel here, as a
    // launch failure, not later as a decode error.
    cudaError_t err = launch();
    if (err == cudaSuccess)
      err = cudaDeviceSynchronize();
    auto stop = KS_PARAMS(CUpti_RangeProfiler_Stop_Params);
    stop.pRangeProfilerObject = rangeProfiler;
    CUptiResult stopped = api.cuptiRangeProfilerStop(&stop); // always pairs the Start
    if (err != cudaSuccess)
      return fail("the kernel failed under the profiler: " + describe(err));
    if (!check(stopped, "cuptiRangeProfilerStop"))
      return false;
    allSubmitted = stop.isAllPassSubmitted != 0;
  }
  return true;
}

bool Session::evaluate(CounterResult &result) {
  auto decode = KS_PARAMS(CUpti_RangeProfiler_DecodeData_Params);
  decode.pRangeProfilerObject = rangeProfiler;
  if (!check(api.cuptiRangeProfilerDecodeData(&decode), "cuptiRangeProfilerDecodeData"))
    return false;
  auto info = KS_PARAMS(CUpti_RangeProfiler_GetCounterDataInfo_Params);
  info.pCounterDataImage = counterData.data();
  info.counterDataImageSize = counterData.size();
  if (!check(api.cuptiRangeProfilerGetCounterDataInfo(&info), "cuptiRangeProfilerGetCounterDataInfo"))
    return false;
  size_t kernels = info.numTotalRanges + decode.numOfRangeDropped;
  if (kernels == 0)
    return fail("no kernel ran while profiling");
  if (kernels > 1)
    return fail("the launch ran " + std::to_string(kernels) +
                " kernels; counters are per kernel, so it must run exactly one");

  // One metric at a time, so that one the host side cannot evaluate costs
  // only itself.
  for (const char *m : metrics) {
    double value = 0;
    const char *names[] = {m};
    auto eval = KS_PARAMS(CUpti_Profiler_Host_EvaluateToGpuValues_Params);
    eval.pHostObject = host;
    eval.pCounterDataImage = counterData.data();
    eval.counterDataImageSize = counterData.size();
    eval.rangeIndex = 0;
    eval.ppMetricNames = names;
    eval.numMetrics = 1;
    eval.pMetricValues = &value;
    if (api.cuptiProfilerHostEvaluateToGpuValues(&eval) == CUPTI_SUCCESS)
      result.metrics[m] = value;
    else
      result.skippedMetrics.push_back(m);
  }
  if (result.metrics.empty())
    return fail("CUPTI could evaluate none of the metrics");
  addRatio(result.metrics, "global_load_sectors_per_request",
           "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
           "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum");
  addRatio(result.metrics, "global_store_sectors_per_request",
           "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
           "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum");
  return true;
}

} // namespace

CounterResult mlir::ks::runtime::collectCounters(const std::function<cudaError_t()> &launch) {
  CounterResult result;
  const Cupti &api = cupti();
  if (!api.error.empty()) {
    result.unavailableReason = api.error;
    return result;
  }
  Session session(api);
  result.available = session.run(launch, result);
  if (!result.available) {
    result.unavailableReason = session.reason();
    result.metrics.clear();
  }
  return result;
}
