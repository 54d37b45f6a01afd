//===- Results.cpp - ks-bench's results as data and as JSON ---------------===//

#include "kernelskill/Runtime/Results.h"
#include "kernelskill/Support/BenchResultsSchema.h"

using namespace mlir::ks::runtime;
namespace keys = mlir::ks::bench_results;
using json = nlohmann::json;

json mlir::ks::runtime::toJSON(const DeviceInfo &d) {
  return {{keys::kDeviceName, d.name},          {keys::kDeviceChip, d.chip},
          {keys::kDeviceSMs, d.smCount},        {keys::kDeviceL2Bytes, d.l2Bytes},
          {keys::kDeviceDriver, d.driverVersion}, {keys::kDeviceCudaRuntime, d.runtimeVersion}};
}

json mlir::ks::runtime::toJSON(const CounterResult &c) {
  json j = {{keys::kAvailable, c.available}};
  if (c.available) {
    j[keys::kMetrics] = c.metrics;
    if (!c.skippedMetrics.empty())
      j[keys::kSkipped] = c.skippedMetrics;
  } else {
    j[keys::kUnavailable] = c.unavailableReason;
  }
  return j;
}

json mlir::ks::runtime::toJSON(const KernelAttributes &a) {
  return {{keys::kRegisters, a.registers},
          {keys::kStaticSmem, a.staticSmem},
          {keys::kLocalBytes, a.localBytes},
          {keys::kMaxThreadsPerBlock, a.maxThreadsPerBlock}};
}

json mlir::ks::runtime::toJSON(const TimingResult &t) {
  const TimingSummary &s = t.summary;
  return {{keys::kMedianMs, s.median}, {keys::kMinMs, s.min},   {keys::kP90Ms, s.p90},
          {keys::kMeanMs, s.mean},     {keys::kMaxMs, s.max},   {keys::kReps, s.count},
          {keys::kSpread, s.relativeSpread}, {keys::kMethod, t.method}};
}

json mlir::ks::runtime::toJSON(const OutputCheck &check) {
  const Comparison &c = check.comparison;
  json j = {{keys::kElements, c.count},
            {keys::kRelL2, c.relativeL2},
            {keys::kMaxAbs, c.maxAbs},
            {keys::kNaN, c.nanCount},
            {keys::kOutliers, c.outlierCount},
            {keys::kUnwritten, c.unwrittenCount},
            {keys::kReferenceUnwritten, check.referenceUnwritten},
            {keys::kTolerance, check.tolerance},
            {keys::kPass, c.pass}};
  if (!c.pass)
    j[keys::kReason] = c.reason;
  return j;
}

json mlir::ks::runtime::toJSON(const VariantResult &r) {
  json j = {{keys::kName, r.name}, {keys::kStatus, r.status}};
  auto setString = [&](const char *key, const std::string &value) {
    if (!value.empty())
      j[key] = value;
  };
  setString(keys::kPath, r.path);
  setString(keys::kKernel, r.kernel);
  setString(keys::kBaseline, r.baseline);
  setString(keys::kError, r.error);
  if (r.device)
    j[keys::kDevice] = toJSON(*r.device);
  if (r.attributes)
    j[keys::kAttributes] = toJSON(*r.attributes);
  if (!r.verification.empty()) {
    json checks = json::object();
    for (const auto &[name, check] : r.verification)
      checks[name] = toJSON(check);
    j[keys::kVerification] = checks;
  }
  if (r.verificationAfterTiming)
    j[keys::kVerificationAfterTiming] = *r.verificationAfterTiming;
  if (r.timing)
    j[keys::kTiming] = toJSON(*r.timing);
  if (r.tflops)
    j[keys::kTflops] = *r.tflops;
  if (r.gbps)
    j[keys::kGbps] = *r.gbps;
  if (r.counters)
    j[keys::kCounters] = toJSON(*r.counters);
  if (!r.seconds.empty())
    j[keys::kSeconds] = r.seconds;
  if (r.referenceReused)
    j[keys::kReferenceReused] = *r.referenceReused;
  return j;
}

namespace {
/// Reads the keys of one JSON object into fields, remembering the first key
/// of the wrong type (`path` names the object in the message).
class Reader {
public:
  Reader(const json &object, std::string path, std::string &error)
      : object(object), path(std::move(path)), error(error) {}

  bool ok() const { return error.empty(); }
  const json *find(const char *key) const {
    auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
  }
  template <typename T> void number(const char *key, T &out) {
    if (const json *v = find(key))
      v->is_number() ? void(out = v->get<T>()) : fail(key, "a number");
  }
  template <typename T> void number(const char *key, std::optional<T> &out) {
    T value{};
    if (find(key)) {
      number(key, value);
      out = value;
    }
  }
  void string(const char *key, std::string &out) {
    if (const json *v = find(key))
      v->is_string() ? void(out = v->get<std::string>()) : fail(key, "a string");
  }
  void boolean(const char *key, bool &out) {
    if (const json *v = find(key))
      v->is_boolean() ? void(out = v->get<bool>()) : fail(key, "true or false");
  }
  /// The object at `key`, if there is one and it is an object.
  const json *childObject(const char *key) {
    const json *v = find(key);
    if (v && !v->is_object()) {
      fail(key, "an object");
      return nullptr;
    }
    return v;
  }
  std::string at(const char *key) const { return path.empty() ? key : path + "." + key; }

private:
  const json &object;
  std::string path;
  std::string &error;

  void fail(const char *key, const char *what) {
    if (error.empty())
      error = at(key) + ": expected " + what;
  }
};

OutputCheck checkFromJSON(const json &j, const std::string &path, std::string &error) {
  OutputCheck check;
  Comparison &c = check.comparison;
  Reader r(j, path, error);
  r.number(keys::kElements, c.count);
  r.number(keys::kRelL2, c.relativeL2);
  r.number(keys::kMaxAbs, c.maxAbs);
  r.number(keys::kNaN, c.nanCount);
  r.number(keys::kOutliers, c.outlierCount);
  r.number(keys::kUnwritten, c.unwrittenCount);
  r.number(keys::kReferenceUnwritten, check.referenceUnwritten);
  r.number(keys::kTolerance, check.tolerance);
  r.boolean(keys::kPass, c.pass);
  r.string(keys::kReason, c.reason);
  return check;
}
} // namespace

std::optional<VariantResult> mlir::ks::runtime::variantResultFromJSON(const json &j,
                                                                      std::string &error) {
  error.clear();
  if (!j.is_object()) {
    error = "a result must be a JSON object";
    return std::nullopt;
  }
  VariantResult out;
  Reader r(j, "", error);
  r.string(keys::kName, out.name);
  r.string(keys::kPath, out.path);
  r.string(keys::kKernel, out.kernel);
  r.string(keys::kBaseline, out.baseline);
  r.string(keys::kStatus, out.status);
  r.string(keys::kError, out.error);
  if (const json *d = r.childObject(keys::kDevice)) {
    DeviceInfo &device = out.device.emplace();
    Reader dr(*d, r.at(keys::kDevice), error);
    dr.string(keys::kDeviceName, device.name);
    dr.string(keys::kDeviceChip, device.chip);
    dr.number(keys::kDeviceSMs, device.smCount);
    dr.number(keys::kDeviceL2Bytes, device.l2Bytes);
    dr.string(keys::kDeviceDriver, device.driverVersion);
    dr.string(keys::kDeviceCudaRuntime, device.runtimeVersion);
  }
  if (const json *a = r.childObject(keys::kAttributes)) {
    KernelAttributes &attrs = out.attributes.emplace();
    Reader ar(*a, r.at(keys::kAttributes), error);
    ar.number(keys::kRegisters, attrs.registers);
    ar.number(keys::kStaticSmem, attrs.staticSmem);
    ar.number(keys::kLocalBytes, attrs.localBytes);
    ar.number(keys::kMaxThreadsPerBlock, attrs.maxThreadsPerBlock);
  }
  if (const json *v = r.childObject(keys::kVerification))
    for (const auto &[name, check] : v->items()) {
      std::string path = r.at(keys::kVerification) + "." + name;
      if (!check.is_object()) {
        error = path + ": expected an object";
        return std::nullopt;
      }
      out.verification[name] = checkFromJSON(check, path, error);
    }
  if (r.find(keys::kVerificationAfterTiming))
    r.boolean(keys::kVerificationAfterTiming, out.verificationAfterTiming.emplace());
  if (const json *t = r.childObject(keys::kTiming)) {
    TimingResult &timing = out.timing.emplace();
    Reader tr(*t, r.at(keys::kTiming), error);
    tr.number(keys::kMedianMs, timing.summary.median);
    tr.number(keys::kMinMs, timing.summary.min);
    tr.number(keys::kP90Ms, timing.summary.p90);
    tr.number(keys::kMeanMs, timing.summary.mean);
    tr.number(keys::kMaxMs, timing.summary.max);
    tr.number(keys::kReps, timing.summary.count);
    tr.number(keys::kSpread, timing.summary.relativeSpread);
    tr.string(keys::kMethod, timing.method);
  }
  r.number(keys::kTflops, out.tflops);
  r.number(keys::kGbps, out.gbps);
  if (const json *c = r.childObject(keys::kCounters)) {
    CounterResult &counters = out.counters.emplace();
    Reader cr(*c, r.at(keys::kCounters), error);
    cr.boolean(keys::kAvailable, counters.available);
    cr.string(keys::kUnavailable, counters.unavailableReason);
    if (const json *m = cr.childObject(keys::kMetrics))
      for (const auto &[name, value] : m->items())
        if (value.is_number())
          counters.metrics[name] = value.get<double>();
    if (const json *s = cr.find(keys::kSkipped); s && s->is_array())
      for (const json &name : *s)
        if (name.is_string())
          counters.skippedMetrics.push_back(name.get<std::string>());
  }
  if (const json *s = r.childObject(keys::kSeconds))
    for (const auto &[phase, value] : s->items())
      if (value.is_number())
        out.seconds[phase] = value.get<double>();
  if (r.find(keys::kReferenceReused))
    r.boolean(keys::kReferenceReused, out.referenceReused.emplace());
  if (!error.empty())
    return std::nullopt;
  return out;
}
