//===- Bench.cpp - Verify and time kernel variants ------------------------===//

#include "kernelskill/Runtime/Bench.h"
#include "kernelskill/Runtime/Counters.h"
#include "kernelskill/Runtime/Energy.h"
#include "kernelskill/Runtime/Device.h"
#include "kernelskill/Runtime/HostData.h"
#include "kernelskill/Runtime/SharedRun.h"
#include "kernelskill/Runtime/Stats.h"
#include "kernelskill/Runtime/Verify.h"
#include "kernelskill/Support/BenchResultsSchema.h"
#include "kernelskill/Support/LaunchSpecSchema.h"

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>

using namespace mlir::ks::runtime;
using json = nlohmann::json;
namespace keys = mlir::ks::bench_results;

namespace {

json errorResult(const std::string &message) {
  return json{{keys::kStatus, keys::kStatusError}, {keys::kError, message}};
}

/// Device memory freed on scope exit.
struct DeviceMemory {
  void *ptr = nullptr;
  size_t bytes = 0;
  DeviceMemory() = default;
  DeviceMemory(const DeviceMemory &) = delete;
  DeviceMemory &operator=(const DeviceMemory &) = delete;
  ~DeviceMemory() {
    if (ptr)
      cudaFree(ptr);
  }
  cudaError_t allocate(size_t size) {
    bytes = size;
    return cudaMalloc(&ptr, size ? size : 1);
  }
};

/// CUDA events and a stream for timing.
struct Timer {
  cudaStream_t stream = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
  ~Timer() {
    if (start)
      cudaEventDestroy(start);
    if (stop)
      cudaEventDestroy(stop);
    if (stream)
      cudaStreamDestroy(stream);
  }
  cudaError_t init() {
    cudaError_t err = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
    if (err == cudaSuccess)
      err = cudaEventCreate(&start);
    if (err == cudaSuccess)
      err = cudaEventCreate(&stop);
    return err;
  }
};

/// A CUDA graph of what one enqueueing puts on a stream, instantiated for
/// replay: the --streams wave, and the batch of launches that times a kernel
/// too short for one pair of events.
struct CapturedGraph {
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  CapturedGraph() = default;
  CapturedGraph(const CapturedGraph &) = delete;
  CapturedGraph &operator=(const CapturedGraph &) = delete;
  ~CapturedGraph() {
    if (exec)
      cudaGraphExecDestroy(exec);
    if (graph)
      cudaGraphDestroy(graph);
  }
  /// Captures what `enqueue` (returning a cudaError_t) puts on `stream`; the
  /// capture is always ended, and the enqueueing's error comes first.
  template <typename Enqueue>
  cudaError_t capture(cudaStream_t stream, Enqueue enqueue) {
    cudaError_t err = cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal);
    if (err != cudaSuccess)
      return err;
    cudaError_t enqueued = enqueue();
    err = cudaStreamEndCapture(stream, &graph);
    if (enqueued != cudaSuccess)
      err = enqueued;
    if (err == cudaSuccess)
      err = cudaGraphInstantiate(&exec, graph, 0);
    return err;
  }
  cudaError_t launch(cudaStream_t stream) const { return cudaGraphLaunch(exec, stream); }
};

/// --streams S: S-1 more streams and copies of the buffers, the events
/// that fork a wave from the timing stream and join it back, and the wave
/// captured as a CUDA graph (so that the host's enqueueing of S launches is
/// not inside the timed region).
struct ConcurrentLaunches {
  std::vector<cudaStream_t> streams;
  std::vector<cudaEvent_t> joined;
  cudaEvent_t fork = nullptr;
  std::vector<std::vector<DeviceMemory>> copies; ///< per extra stream, per param
  std::vector<std::vector<KernelArg>> args;      ///< per extra stream
  CapturedGraph wave;
  ~ConcurrentLaunches() {
    for (cudaEvent_t e : joined)
      cudaEventDestroy(e);
    if (fork)
      cudaEventDestroy(fork);
    for (cudaStream_t s : streams)
      cudaStreamDestroy(s);
  }
};

json summaryJSON(const TimingSummary &s, const std::string &method) {
  return toJSON(TimingResult{s, method});
}

/// Times `body` (which enqueues work on timer.stream) with events: warm-up,
/// then `reps` samples, each after `before` (an L2 flush, new inputs), which
/// is outside the timed region. Returns false with `error` on a CUDA error.
bool timeSamples(Timer &timer, int warmup, int reps, const std::function<cudaError_t(int)> &before,
                 const std::function<cudaError_t()> &body, std::vector<double> &samples,
                 std::string &error) {
  cudaError_t err;
  for (int i = 0; i < warmup + reps; ++i) {
    if ((err = before(i)) != cudaSuccess || (err = cudaEventRecord(timer.start, timer.stream)) ||
        (err = body()) != cudaSuccess || (err = cudaEventRecord(timer.stop, timer.stream)) ||
        (err = cudaEventSynchronize(timer.stop)) != cudaSuccess ||
        (err = cudaGetLastError()) != cudaSuccess) {
      error = describe(err);
      return false;
    }
    float ms = 0;
    cudaEventElapsedTime(&ms, timer.start, timer.stop);
    if (i >= warmup)
      samples.push_back(ms);
  }
  return true;
}

/// A variant's kernels and their launches, in order.
struct Program {
  std::vector<LoadedKernel> kernels;
  std::vector<LaunchStep> steps;
  /// Per spec parameter: the device address of a module variable (@taps),
  /// else null.
  std::vector<void *> globals;
};

/// Host wall time between laps, for the results' "seconds".
class Stopwatch {
public:
  double lap() {
    auto now = std::chrono::steady_clock::now();
    double seconds = std::chrono::duration<double>(now - last).count();
    last = now;
    return seconds;
  }

private:
  std::chrono::steady_clock::time_point last = std::chrono::steady_clock::now();
};

/// The state of one variant job: device buffers, kernels.
class VariantRunner {
public:
  VariantRunner(const LaunchSpec &spec, const ResolvedLaunch &launch, const BenchOptions &options,
                SharedRun &shared)
      : spec(spec), launch(launch), options(options), shared(shared), inputs(shared.inputs()),
        hasGlobals(std::any_of(spec.params.begin(), spec.params.end(),
                               [](const Param &p) { return p.isGlobal; })) {}

  json run(const Variant &reference, const Variant &candidate);

private:
  const LaunchSpec &spec;
  const ResolvedLaunch &launch;
  const BenchOptions &options;
  SharedRun &shared;
  const std::vector<std::vector<uint8_t>> &inputs; // per param: the in/inout buffers' contents
  /// Some parameter is a module variable (@taps): launches pass the others.
  const bool hasGlobals;
  std::vector<DeviceMemory> buffers;         // per param
  std::vector<KernelArg> args;

  size_t bytesOf(size_t i) const { return size_t(launch.extents[i]) * sizeOf(spec.params[i].type); }
  bool isOutput(size_t i) const { return mlir::ks::runtime::isOutput(spec.params[i]); }

  /// Uploads `contents` (per param; empty: leave the buffer) to the buffers.
  cudaError_t upload(const std::vector<std::vector<uint8_t>> &contents, cudaStream_t stream) {
    for (size_t i = 0; i < spec.params.size(); ++i)
      if (!contents[i].empty()) {
        cudaError_t err = cudaMemcpyAsync(buffers[i].ptr, contents[i].data(), contents[i].size(),
                                          cudaMemcpyHostToDevice, stream);
        if (err != cudaSuccess)
          return err;
      }
    return cudaSuccess;
  }

  /// Module variables are staged in buffers like the others: before a
  /// launch each takes its buffer's contents (`in`), after it the buffer
  /// takes the variable's (`out`).
  cudaError_t copyGlobals(const Program &program, bool in, cudaStream_t stream) {
    for (size_t i = 0; i < spec.params.size(); ++i)
      if (program.globals[i])
        if (cudaError_t err = cudaMemcpyAsync(in ? program.globals[i] : buffers[i].ptr,
                                              in ? buffers[i].ptr : program.globals[i], bytesOf(i),
                                              cudaMemcpyDeviceToDevice, stream))
          return err;
    return cudaSuccess;
  }

  /// Restores the inputs and poisons the `out` and `scratch` buffers with
  /// `poison` (a kernel reading scratch it did not write then shows in the
  /// outputs of the two poisoned runs).
  cudaError_t restoreAndPoison(uint8_t poison) {
    cudaError_t err = upload(inputs, nullptr);
    for (size_t i = 0; err == cudaSuccess && i < spec.params.size(); ++i)
      if (spec.params[i].isBuffer &&
          (spec.params[i].role == Role::Out || spec.params[i].role == Role::Scratch))
        err = cudaMemset(buffers[i].ptr, poison, bytesOf(i));
    return err;
  }

  /// Restores inputs, poisons outputs with `poison`, launches once and
  /// copies every output buffer back.
  bool runOnce(const Program &k, uint8_t poison, std::vector<std::vector<uint8_t>> &outputs,
               std::string &error) {
    cudaError_t err = restoreAndPoison(poison);
    if (err == cudaSuccess)
      err = copyGlobals(k, /*in=*/true, nullptr);
    if (err == cudaSuccess)
      err = launch_(k, nullptr);
    if (err == cudaSuccess)
      err = copyGlobals(k, /*in=*/false, nullptr);
    if (err == cudaSuccess)
      err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
      error = describe(err);
      return false;
    }
    outputs.assign(spec.params.size(), {});
    for (size_t i = 0; i < spec.params.size(); ++i)
      if (isOutput(i)) {
        outputs[i].resize(bytesOf(i));
        if ((err = cudaMemcpy(outputs[i].data(), buffers[i].ptr, bytesOf(i),
                              cudaMemcpyDeviceToHost)) != cudaSuccess) {
          error = describe(err);
          return false;
        }
      }
    return true;
  }

  /// Launches `program` on `stream` with `with`'s arguments (default: the
  /// buffers' own, `args`).
  cudaError_t launch_(const Program &program, cudaStream_t stream,
                      std::vector<KernelArg> *with = nullptr) {
    std::vector<KernelArg> &all = with ? *with : args;
    for (size_t i = 0; i < program.steps.size(); ++i) {
      const LaunchStep &step = program.steps[i];
      // A launch that names its own parameters passes those, and a spec
      // with module variables its arguments (the common case passes all of
      // the spec's without a copy).
      std::vector<KernelArg> named;
      if (!step.params.empty() || hasGlobals)
        for (size_t a : stepArguments(step, spec.params))
          named.push_back(all[a]);
      if (cudaError_t err = mlir::ks::runtime::launch(program.kernels[i], step.grid, step.block,
                                                      step.smem, named.empty() ? all : named,
                                                      stream))
        return err;
    }
    return cudaSuccess;
  }

  /// Loads the variant's kernels: its steps, or one launch of its kernel
  /// with the spec's sizes; and finds its module variables.
  bool load(const Variant &v, Program &program, std::string &error) {
    program.steps = v.steps;
    if (program.steps.empty())
      program.steps.push_back(LaunchStep{v.kernel, launch.grid, launch.block, launch.smem});
    program.kernels.assign(program.steps.size(), LoadedKernel());
    for (size_t i = 0; i < program.steps.size(); ++i)
      if (!loadKernel(v.path, program.steps[i].kernel, program.kernels[i], error))
        return false;
    program.globals.assign(spec.params.size(), nullptr);
    for (size_t i = 0; i < spec.params.size(); ++i) {
      if (!spec.params[i].isGlobal)
        continue;
      const std::string &name = spec.params[i].name;
      size_t bytes = 0;
      if (cudaError_t err = cudaLibraryGetGlobal(&program.globals[i], &bytes,
                                                 program.kernels.back().library, name.c_str())) {
        error = "no module variable '" + name + "' in " + v.path + " (" + describe(err) + ")";
        return false;
      }
      if (bytes != bytesOf(i)) {
        error = "module variable '" + name + "' in " + v.path + " has " + std::to_string(bytes) +
                " bytes, the spec " + std::to_string(bytesOf(i));
        return false;
      }
    }
    return true;
  }

  /// Compares a candidate's outputs (poisoned with A and with B) with the
  /// reference's (Verify.h); fills `report` and returns whether every output
  /// passed.
  bool verify(const std::vector<std::span<const uint8_t>> &refA,
              const std::vector<std::span<const uint8_t>> &refB,
              const std::vector<std::vector<uint8_t>> &outA,
              const std::vector<std::vector<uint8_t>> *outB, json &report) {
    bool pass = true;
    report = json::object();
    for (size_t i = 0; i < spec.params.size(); ++i) {
      if (!isOutput(i))
        continue;
      const Param &p = spec.params[i];
      double tolerance = options.tolerance.value_or(defaultTolerance(p.type, options.tf32));
      OutputRuns runs{refA[i], refB[i], outA[i], outB ? &(*outB)[i] : nullptr,
                      /*poisoned=*/p.role == Role::Out};
      OutputCheck check = verifyOutput(runs, p.type, size_t(launch.extents[i]), tolerance);
      report[p.name] = toJSON(check);
      pass &= check.comparison.pass;
    }
    return pass;
  }
};

json VariantRunner::run(const Variant &reference, const Variant &candidate) {
  json result = {{keys::kName, candidate.name},
                 {keys::kPath, candidate.path},
                 {keys::kKernel, candidate.kernel}};
  DeviceInfo device;
  std::string error;
  if (!openDevice(options.device, device, error))
    return errorResult(error);
  result[keys::kDevice] = toJSON(device);

  Program ref, cand;
  if (!load(reference, ref, error)) {
    result.update(errorResult("reference: " + error));
    return result;
  }
  if (!load(candidate, cand, error)) {
    result.update(errorResult(error));
    return result;
  }
  // The spec must match the kernels' signatures: launching with too few or
  // mis-sized arguments would read garbage.
  for (const Program *program : {&ref, &cand})
    for (size_t i = 0; i < program->kernels.size(); ++i) {
      const LoadedKernel &k = program->kernels[i];
      std::vector<size_t> expected;
      for (size_t a : stepArguments(program->steps[i], spec.params))
        expected.push_back(spec.params[a].isBuffer ? sizeof(void *) : sizeOf(spec.params[a].type));
      if (k.paramSizes == expected)
        continue;
      auto list = [](const std::vector<size_t> &sizes) {
        std::string s;
        for (size_t size : sizes)
          s += (s.empty() ? "" : ", ") + std::to_string(size);
        return "(" + s + ")";
      };
      result.update(errorResult(
          std::string(program == &ref ? "reference" : "kernel") + " '" + program->steps[i].kernel +
          "' takes " + std::to_string(k.paramSizes.size()) + " parameters of " +
          list(k.paramSizes) + " bytes, but the spec gives " + std::to_string(expected.size()) +
          " of " + list(expected) + " (buffers are 8-byte pointers)"));
      return result;
    }
  // The attributes of the variant's last launch (its main kernel).
  const LoadedKernel &main = cand.kernels.back();
  result[keys::kAttributes] =
      toJSON(KernelAttributes{main.numRegs, main.staticSmem, main.localBytes,
                              main.maxThreadsPerBlock});

  // Buffers and arguments.
  buffers = std::vector<DeviceMemory>(spec.params.size());
  args.assign(spec.params.size(), {});
  for (size_t i = 0; i < spec.params.size(); ++i) {
    const Param &p = spec.params[i];
    if (p.isBuffer) {
      cudaError_t err = buffers[i].allocate(bytesOf(i));
      if (err != cudaSuccess) {
        result.update(errorResult("cannot allocate " + std::to_string(bytesOf(i)) +
                                  " bytes for '" + p.name + "': " + describe(err)));
        return result;
      }
      std::memcpy(args[i].bytes.data(), &buffers[i].ptr, sizeof(void *));
      continue;
    }
    int64_t value = launch.scalars.at(p.name);
    switch (p.type) {
    case ElemType::F32: {
      float f = float(value);
      std::memcpy(args[i].bytes.data(), &f, 4);
      break;
    }
    case ElemType::F64: {
      double d = double(value);
      std::memcpy(args[i].bytes.data(), &d, 8);
      break;
    }
    case ElemType::F16:
    case ElemType::BF16: {
      uint16_t h = p.type == ElemType::F16 ? floatToHalf(float(value)) : floatToBF16(float(value));
      std::memcpy(args[i].bytes.data(), &h, 2);
      break;
    }
    default: // little-endian: the low bytes hold the narrower integer types
      std::memcpy(args[i].bytes.data(), &value, 8);
    }
  }

  // Verification: the reference and the candidate, each under two
  // poisonings; the reference's outputs from an earlier worker where one
  // stored them.
  json phases = json::object();
  Stopwatch phase;
  std::vector<std::vector<uint8_t>> ownA, ownB, outA, outB;
  std::vector<std::span<const uint8_t>> refA(spec.params.size()), refB(spec.params.size());
  if (options.timeOnly) {
    // Screening (--time-only): the inputs in place and the outputs poisoned
    // once, as a verified run would leave them; nothing is compared.
    cudaError_t err = restoreAndPoison(kPoisonA);
    if (err == cudaSuccess)
      err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
      result.update(errorResult("input upload failed: " + describe(err)));
      return result;
    }
    phases[keys::kSecondsCandidate] = phase.lap();
  } else {
    bool reused = shared.hasReference();
    if (reused) {
      for (size_t i = 0; i < spec.params.size(); ++i) {
        refA[i] = shared.reference(i, /*poisonB=*/false);
        refB[i] = shared.reference(i, /*poisonB=*/true);
      }
    } else {
      if (!runOnce(ref, kPoisonA, ownA, error) || !runOnce(ref, kPoisonB, ownB, error)) {
        result.update(errorResult("the reference failed: " + error));
        return result;
      }
      shared.storeReference(ownA, ownB);
      refA.assign(ownA.begin(), ownA.end());
      refB.assign(ownB.begin(), ownB.end());
    }
    result[keys::kReferenceReused] = reused;
    phases[keys::kSecondsReference] = phase.lap();
    if (!runOnce(cand, kPoisonA, outA, error) || !runOnce(cand, kPoisonB, outB, error)) {
      result.update(errorResult("launch failed: " + error));
      return result;
    }
    phases[keys::kSecondsCandidate] = phase.lap();
    json report;
    bool pass = verify(refA, refB, outA, &outB, report);
    // A kernel must not write its `in` buffers.
    for (size_t k = 0; k < spec.params.size(); ++k) {
      const Param &p = spec.params[k];
      if (!p.isBuffer || p.role != Role::In || inputs[k].empty())
        continue;
      std::vector<uint8_t> after(inputs[k].size());
      if (cudaMemcpy(after.data(), buffers[k].ptr, after.size(), cudaMemcpyDeviceToHost) !=
          cudaSuccess)
        continue;
      if (std::optional<std::string> why = checkInputUnchanged(p.name, inputs[k], after)) {
        report[p.name] = {{keys::kPass, false}, {keys::kReason, *why}};
        pass = false;
      }
    }
    result[keys::kVerification] = report;
    phases[keys::kSecondsVerification] = phase.lap();
    result[keys::kSeconds] = phases;
    if (!pass) {
      result[keys::kStatus] = keys::kStatusFail;
      result[keys::kError] = "verification failed";
      return result;
    }
  }

  // Timing.
  Timer timer;
  cudaError_t err = timer.init();
  DeviceMemory flush;
  if (err == cudaSuccess && options.flushL2)
    err = flush.allocate(size_t(std::max<int64_t>(2 * device.l2Bytes, 64 << 20)));
  if (err != cudaSuccess) {
    result.update(errorResult("timing setup: " + describe(err)));
    return result;
  }
  // --streams: every extra launch gets its own stream and a copy of the
  // buffers as they are now (inputs, poisoned outputs), so that no launch
  // reads what another brought into the L2.
  int streams = std::max(1, options.streams);
  ConcurrentLaunches more;
  // Module variables cannot be copied per launch: read-only ones are shared
  // (every launch reads the same), written ones would be raced.
  for (const Param &p : spec.params)
    if (streams > 1 && p.isGlobal && p.role != Role::In) {
      result.update(errorResult("--streams: concurrent launches would share the module "
                                "variable '" + p.name + "', which the kernel writes"));
      return result;
    }
  for (int s = 1; err == cudaSuccess && s < streams; ++s) {
    cudaStream_t stream = nullptr;
    cudaEvent_t joined = nullptr;
    if ((err = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking)) != cudaSuccess)
      break;
    more.streams.push_back(stream);
    if ((err = cudaEventCreateWithFlags(&joined, cudaEventDisableTiming)) != cudaSuccess)
      break;
    more.joined.push_back(joined);
    std::vector<DeviceMemory> &copy = more.copies.emplace_back(spec.params.size());
    std::vector<KernelArg> &copyArgs = more.args.emplace_back(args);
    for (size_t k = 0; err == cudaSuccess && k < spec.params.size(); ++k) {
      if (!spec.params[k].isBuffer || spec.params[k].isGlobal)
        continue;
      if ((err = copy[k].allocate(bytesOf(k))) == cudaSuccess)
        err = cudaMemcpyAsync(copy[k].ptr, buffers[k].ptr, bytesOf(k), cudaMemcpyDeviceToDevice,
                              timer.stream);
      std::memcpy(copyArgs[k].bytes.data(), &copy[k].ptr, sizeof(void *));
    }
  }
  if (streams > 1) {
    // The wave, captured once: a fork event on the timing stream, every
    // stream's launch after it, and the timing stream waiting for each.
    if (err == cudaSuccess)
      err = cudaEventCreateWithFlags(&more.fork, cudaEventDisableTiming);
    if (err == cudaSuccess)
      err = cudaStreamSynchronize(timer.stream); // the copies, before any wave
    if (err == cudaSuccess)
      err = more.wave.capture(timer.stream, [&] {
        cudaError_t e = cudaEventRecord(more.fork, timer.stream);
        if (e == cudaSuccess)
          e = launch_(cand, timer.stream);
        for (size_t s = 0; e == cudaSuccess && s < more.streams.size(); ++s) {
          e = cudaStreamWaitEvent(more.streams[s], more.fork);
          if (e == cudaSuccess)
            e = launch_(cand, more.streams[s], &more.args[s]);
          if (e == cudaSuccess)
            e = cudaEventRecord(more.joined[s], more.streams[s]);
          if (e == cudaSuccess)
            e = cudaStreamWaitEvent(timer.stream, more.joined[s]);
        }
        return e;
      });
  }
  if (err != cudaSuccess) {
    result.update(errorResult("--streams " + std::to_string(streams) + ": " + describe(err)));
    return result;
  }
  // One sample: the launch alone, or a wave of `streams` launches.
  auto wave = [&]() -> cudaError_t {
    return streams == 1 ? launch_(cand, timer.stream) : more.wave.launch(timer.stream);
  };
  uint64_t freshSeed = options.seed;
  std::vector<std::vector<uint8_t>> fresh;
  auto before = [&](int i) -> cudaError_t {
    if (options.freshInputs && i > 0) {
      fresh = makeInputs(spec, launch, ++freshSeed);
      if (cudaError_t e = upload(fresh, timer.stream))
        return e;
    } else {
      // inout buffers accumulate: every timed run starts from the inputs.
      for (size_t k = 0; k < spec.params.size(); ++k)
        if (spec.params[k].isBuffer && spec.params[k].role == Role::InOut)
          if (cudaError_t e = cudaMemcpyAsync(buffers[k].ptr, inputs[k].data(), inputs[k].size(),
                                              cudaMemcpyHostToDevice, timer.stream))
            return e;
    }
    // --streams: the other launches' inout buffers start from the inputs
    // too (fresh inputs renew the first launch's buffers only).
    for (std::vector<DeviceMemory> &copy : more.copies)
      for (size_t k = 0; k < spec.params.size(); ++k)
        if (spec.params[k].isBuffer && !spec.params[k].isGlobal &&
            spec.params[k].role == Role::InOut)
          if (cudaError_t e = cudaMemcpyAsync(copy[k].ptr, inputs[k].data(), inputs[k].size(),
                                              cudaMemcpyHostToDevice, timer.stream))
            return e;
    if (cudaError_t e = copyGlobals(cand, /*in=*/true, timer.stream))
      return e;
    return options.flushL2 ? cudaMemsetAsync(flush.ptr, i & 0xFF, flush.bytes, timer.stream)
                           : cudaSuccess;
  };
  std::vector<double> samples;
  if (!timeSamples(timer, options.warmup, options.reps, before, wave, samples, error)) {
    result.update(errorResult("timed run failed: " + error));
    return result;
  }
  for (double &sample : samples)
    sample /= streams;
  TimingSummary summary = summarize(samples);
  std::string method = options.flushL2 ? "events, L2 flushed" : "events";
  if (options.freshInputs)
    method += ", fresh inputs";
  if (streams > 1)
    method += ", waves of " + std::to_string(streams) +
              " concurrent launches on their own streams and buffers, per launch";
  // (A wave of several launches is long enough for the events.)
  if (summary.median < options.graphBelowMs && streams == 1) {
    // Too short for one event pair to resolve: replay a graph of many launches.
    int batch = int(std::min(1000.0, std::ceil(0.5 / std::max(summary.median, 1e-4))));
    CapturedGraph replay;
    err = replay.capture(timer.stream, [&] {
      cudaError_t e = cudaSuccess;
      for (int b = 0; e == cudaSuccess && b < batch; ++b)
        e = launch_(cand, timer.stream);
      return e;
    });
    std::vector<double> graphSamples;
    if (err == cudaSuccess &&
        timeSamples(timer, 2, options.reps, [](int) { return cudaSuccess; },
                    [&] { return replay.launch(timer.stream); }, graphSamples, error)) {
      for (double &s : graphSamples)
        s /= batch;
      summary = summarize(graphSamples);
      method = "CUDA graph of " + std::to_string(batch) + " launches (L2 warm)";
    }
  }
  result[keys::kTiming] = summaryJSON(summary, method);
  double seconds = summary.median * 1e-3;
  if (launch.flops)
    result[keys::kTflops] = *launch.flops / seconds / 1e12;
  if (launch.bytes)
    result[keys::kGbps] = *launch.bytes / seconds / 1e9;

  if (options.energySeconds > 0) {
    // Batches of about 5 ms, at most four in flight (an event ends each):
    // the GPU stays busy while the host reads the energy counter.
    int64_t perBatch = int64_t(std::clamp(std::ceil(5.0 / std::max(summary.median, 1e-4)), 1.0,
                                          20000.0));
    constexpr size_t kInFlight = 4;
    std::vector<cudaEvent_t> ends(kInFlight, nullptr);
    size_t issued = 0;
    EnergySample sample;
    std::string why;
    auto enqueue = [&]() -> int64_t {
      cudaEvent_t &end = ends[issued++ % kInFlight];
      // The batch kInFlight back is done before another is added.
      cudaError_t e = end ? cudaEventSynchronize(end)
                          : cudaEventCreateWithFlags(&end, cudaEventDisableTiming);
      for (int64_t b = 0; e == cudaSuccess && b < perBatch; ++b)
        e = launch_(cand, timer.stream);
      if (e == cudaSuccess)
        e = cudaEventRecord(end, timer.stream);
      if (e != cudaSuccess) {
        why = "launch failed: " + describe(e);
        return -1;
      }
      return perBatch;
    };
    auto drain = [&]() {
      cudaError_t e = cudaStreamSynchronize(timer.stream);
      if (e != cudaSuccess)
        why = "launch failed: " + describe(e);
      return e == cudaSuccess;
    };
    if (measureEnergy(options.device, options.energySeconds, enqueue, drain, sample, why))
      result[keys::kEnergy] = energyJSON(sample);
    else
      result[keys::kEnergy] = {{keys::kError, why}};
    (void)cudaStreamSynchronize(timer.stream);
    for (cudaEvent_t end : ends)
      if (end)
        cudaEventDestroy(end);
  }
  phases[keys::kSecondsTiming] = phase.lap();
  if (options.timeOnly) {
    result[keys::kSeconds] = phases;
    result[keys::kStatus] = keys::kStatusTimed;
    return result;
  }
  // Outputs are checked again after the timed runs (with the original inputs).
  if (!runOnce(cand, kPoisonA, outA, error)) {
    result.update(errorResult("post-timing run failed: " + error));
    return result;
  }
  json again;
  bool passAgain = verify(refA, refB, outA, nullptr, again);
  result[keys::kVerificationAfterTiming] = passAgain;
  phases[keys::kSecondsVerification] =
      phases[keys::kSecondsVerification].get<double>() + phase.lap();
  result[keys::kSeconds] = phases;
  if (!passAgain) {
    result[keys::kStatus] = keys::kStatusFail;
    result[keys::kError] = "outputs differ from the reference after the timed runs";
    result[keys::kVerification] = again;
    return result;
  }
  if (options.counters) {
    // One more launch on the original inputs, replayed by CUPTI per pass.
    if ((err = upload(inputs, nullptr)) == cudaSuccess)
      err = cudaDeviceSynchronize();
    CounterResult counters = err == cudaSuccess
                                 ? collectCounters([&] { return launch_(cand, nullptr); })
                                 : CounterResult{false, "input upload failed: " + describe(err), {}, {}};
    result[keys::kCounters] = toJSON(counters);
  }
  result[keys::kStatus] = keys::kStatusPass;
  return result;
}

/// cuBLAS GEMM C[MxN] = A[MxK] B[KxN], row-major, on random inputs.
json runGemm(const Baseline &b, const BenchOptions &options, const DeviceInfo &device) {
  cudaDataType_t type = CUDA_R_32F;
  cublasComputeType_t compute = CUBLAS_COMPUTE_32F;
  ElemType elem = ElemType::F32;
  if (b.kind == "tf32") {
    compute = CUBLAS_COMPUTE_32F_FAST_TF32;
  } else if (b.kind == "hgemm") {
    type = CUDA_R_16F;
    elem = ElemType::F16;
  } else if (b.kind == "bgemm") {
    type = CUDA_R_16BF;
    elem = ElemType::BF16;
  }
  DeviceMemory A, B, C, flush;
  size_t w = sizeOf(elem);
  cudaError_t err = A.allocate(size_t(b.batch * b.m * b.k) * w);
  if (err == cudaSuccess)
    err = B.allocate(size_t(b.batch * b.k * b.n) * w);
  if (err == cudaSuccess)
    err = C.allocate(size_t(b.batch * b.m * b.n) * w);
  if (err == cudaSuccess && options.flushL2)
    err = flush.allocate(size_t(std::max<int64_t>(2 * device.l2Bytes, 64 << 20)));
  std::vector<uint8_t> host;
  for (auto [mem, count, name] :
       {std::tuple{&A, b.batch * b.m * b.k, "A"}, {&B, b.batch * b.k * b.n, "B"}}) {
    if (err != cudaSuccess)
      break;
    fillRandom(host, elem, size_t(count), -1, 1, seedFor(options.seed, name));
    err = cudaMemcpy(mem->ptr, host.data(), host.size(), cudaMemcpyHostToDevice);
  }
  if (err != cudaSuccess)
    return errorResult("cuBLAS baseline setup: " + describe(err));
  Timer timer;
  if ((err = timer.init()) != cudaSuccess)
    return errorResult(describe(err));
  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    return errorResult("cublasCreate failed");
  cublasSetStream(handle, timer.stream);
  float alpha = 1, beta = 0;
  cublasStatus_t status = CUBLAS_STATUS_SUCCESS;
  // Row-major C = op(A) op(B) is column-major C^T = op(B)^T op(A)^T: a
  // row-major B (K x N) is a column-major N x K matrix as it is, a
  // transposed one (N x K) needs the transpose; likewise A.
  cublasOperation_t opB = b.transB ? CUBLAS_OP_T : CUBLAS_OP_N;
  cublasOperation_t opA = b.transA ? CUBLAS_OP_T : CUBLAS_OP_N;
  int ldb = int(b.transB ? b.k : b.n), lda = int(b.transA ? b.m : b.k);
  auto gemm = [&]() -> cudaError_t {
    if (b.batch > 1)
      status = cublasGemmStridedBatchedEx(
          handle, opB, opA, int(b.n), int(b.m), int(b.k), &alpha, B.ptr, type, ldb, b.k * b.n,
          A.ptr, type, lda, b.m * b.k, &beta, C.ptr, type, int(b.n), b.m * b.n, int(b.batch),
          compute, CUBLAS_GEMM_DEFAULT);
    else
      status = cublasGemmEx(handle, opB, opA, int(b.n), int(b.m), int(b.k), &alpha, B.ptr, type,
                            ldb, A.ptr, type, lda, &beta, C.ptr, type, int(b.n), compute,
                            CUBLAS_GEMM_DEFAULT);
    return status == CUBLAS_STATUS_SUCCESS ? cudaSuccess : cudaErrorUnknown;
  };
  auto before = [&](int i) {
    return options.flushL2 ? cudaMemsetAsync(flush.ptr, i & 0xFF, flush.bytes, timer.stream)
                           : cudaSuccess;
  };
  std::vector<double> samples;
  std::string error;
  bool ok = timeSamples(timer, options.warmup, options.reps, before, gemm, samples, error);
  cublasDestroy(handle);
  if (!ok)
    return errorResult("cuBLAS " + b.kind + " failed: " +
                       (status != CUBLAS_STATUS_SUCCESS ? cublasGetStatusString(status) : error));
  TimingSummary s = summarize(samples);
  json r = {{keys::kStatus, keys::kStatusPass},
            {keys::kTiming, summaryJSON(s, options.flushL2 ? "events, L2 flushed" : "events")},
            {keys::kTflops, 2.0 * double(b.batch) * double(b.m) * double(b.n) * double(b.k) /
                                (s.median * 1e-3) / 1e12}};
  return r;
}

json runCopy(const Baseline &b, const BenchOptions &options) {
  DeviceMemory src, dst;
  cudaError_t err = src.allocate(size_t(b.bytes));
  if (err == cudaSuccess)
    err = dst.allocate(size_t(b.bytes));
  if (err == cudaSuccess)
    err = cudaMemset(src.ptr, 0x5A, size_t(b.bytes));
  Timer timer;
  if (err == cudaSuccess)
    err = timer.init();
  if (err != cudaSuccess)
    return errorResult("copy baseline setup: " + describe(err));
  std::vector<double> samples;
  std::string error;
  if (!timeSamples(
          timer, options.warmup, options.reps, [](int) { return cudaSuccess; },
          [&] {
            return cudaMemcpyAsync(dst.ptr, src.ptr, size_t(b.bytes), cudaMemcpyDeviceToDevice,
                                   timer.stream);
          },
          samples, error))
    return errorResult("copy failed: " + error);
  TimingSummary s = summarize(samples);
  return {{keys::kStatus, keys::kStatusPass},
          {keys::kTiming, summaryJSON(s, "events")},
          {keys::kGbps, 2.0 * double(b.bytes) / (s.median * 1e-3) / 1e9}};
}
} // namespace

json mlir::ks::runtime::runVariantJob(const LaunchSpec &spec, const ResolvedLaunch &launch,
                                      const Variant &reference, const Variant &candidate,
                                      const BenchOptions &options, SharedRun &shared) {
  VariantRunner runner(spec, launch, options, shared);
  json result = runner.run(reference, candidate);
  result[keys::kName] = candidate.name;
  result[keys::kPath] = candidate.path;
  result[keys::kKernel] = candidate.kernel;
  return result;
}

json mlir::ks::runtime::runBaselineJob(const Baseline &b, const BenchOptions &options) {
  DeviceInfo device;
  std::string error;
  if (!openDevice(options.device, device, error))
    return errorResult(error);
  json result = b.kind == "copy" ? runCopy(b, options) : runGemm(b, options, device);
  result[keys::kDevice] = toJSON(device);
  std::string name = b.kind == "copy" ? "copy (" + std::to_string(b.bytes) + " B)"
                                       : "cublas-" + b.kind + " " + std::to_string(b.m) + "x" +
                                             std::to_string(b.n) + "x" + std::to_string(b.k);
  // Batched problems run cublasGemmStridedBatchedEx: the name says so.
  if (b.kind != "copy" && b.batch > 1)
    name += " x" + std::to_string(b.batch) + " strided-batched";
  result[keys::kName] = name;
  result[keys::kBaseline] = b.kind;
  return result;
}

