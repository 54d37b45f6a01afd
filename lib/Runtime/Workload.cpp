//===- Workload.cpp - What a kernel is launched with ----------------------===//

#include "kernelskill/Runtime/Workload.h"
#include "kernelskill/Support/IntegerArith.h"
#include "kernelskill/Support/LaunchSpecSchema.h"

#include <nlohmann/json.hpp>

#include <cctype>
#include <cstdlib>
#include <set>

using namespace mlir::ks;
using namespace mlir::ks::runtime;
using json = nlohmann::json;
namespace keys = mlir::ks::launch_spec;

namespace {
struct TypeInfo {
  ElemType type;
  const char *name;
  size_t size;
  bool isFloat;
};
constexpr TypeInfo kTypes[] = {
    {ElemType::F16, "f16", 2, true},   {ElemType::BF16, "bf16", 2, true},
    {ElemType::F32, "f32", 4, true},   {ElemType::F64, "f64", 8, true},
    {ElemType::I8, "i8", 1, false},    {ElemType::U8, "u8", 1, false},
    {ElemType::I32, "i32", 4, false},  {ElemType::U32, "u32", 4, false},
    {ElemType::I64, "i64", 8, false},  {ElemType::U64, "u64", 8, false},
};
const TypeInfo &info(ElemType type) {
  for (const TypeInfo &t : kTypes)
    if (t.type == type)
      return t;
  return kTypes[2];
}
std::string validTypes() {
  std::string s;
  for (const TypeInfo &t : kTypes)
    s += (s.empty() ? "" : ", ") + std::string(t.name);
  return s;
}
std::string trim(const std::string &s) {
  size_t b = s.find_first_not_of(" \t\n"), e = s.find_last_not_of(" \t\n");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}
} // namespace

std::optional<ElemType> mlir::ks::runtime::parseElemType(const std::string &name) {
  for (const TypeInfo &t : kTypes)
    if (name == t.name)
      return t.type;
  return std::nullopt;
}
const char *mlir::ks::runtime::toString(ElemType type) { return info(type).name; }
size_t mlir::ks::runtime::sizeOf(ElemType type) { return info(type).size; }
bool mlir::ks::runtime::isFloat(ElemType type) { return info(type).isFloat; }

std::optional<Role> mlir::ks::runtime::parseRole(const std::string &name) {
  if (name == keys::kRoleIn)
    return Role::In;
  if (name == keys::kRoleOut)
    return Role::Out;
  if (name == keys::kRoleInOut)
    return Role::InOut;
  if (name == keys::kRoleScratch)
    return Role::Scratch;
  return std::nullopt;
}
const char *mlir::ks::runtime::toString(Role role) {
  switch (role) {
  case Role::In:
    return keys::kRoleIn;
  case Role::Out:
    return keys::kRoleOut;
  case Role::InOut:
    return keys::kRoleInOut;
  case Role::Scratch:
    return keys::kRoleScratch;
  }
  return keys::kRoleIn;
}

static bool setDefaultRange(Param &p) {
  if (isFloat(p.type)) {
    p.lo = -1.0;
    p.hi = 1.0;
  } else {
    p.lo = 0;
    p.hi = 16;
  }
  return true;
}

bool mlir::ks::runtime::parseParamList(const std::string &text, std::vector<Param> &params,
                                       std::string &error) {
  for (const std::string &item : splitTopLevel(text)) {
    // NAME:TYPE[EXTENT]:ROLE[:LO..HI]  or  NAME:TYPE  or  NAME
    std::vector<std::string> fields = splitTopLevel(item, ':');
    Param p;
    p.name = fields[0];
    if (!p.name.empty() && p.name[0] == '@') {
      // @NAME:TYPE[EXTENT]:ROLE: a module variable.
      p.isGlobal = true;
      p.name = p.name.substr(1);
    }
    if (!isIdentifier(p.name)) {
      error = "parameter '" + item + "': expected NAME:TYPE[EXTENT]:ROLE or NAME:TYPE";
      return false;
    }
    std::string type = fields.size() > 1 ? fields[1] : "i32";
    size_t bracket = type.find('[');
    if (bracket != std::string::npos) {
      if (type.back() != ']') {
        error = "parameter '" + p.name + "': missing ']' after the extent";
        return false;
      }
      p.isBuffer = true;
      p.extent = trim(type.substr(bracket + 1, type.size() - bracket - 2));
      type = trim(type.substr(0, bracket));
    }
    std::optional<ElemType> elem = parseElemType(type);
    if (!elem) {
      error = "parameter '" + p.name + "': unknown type '" + type + "'; valid types: " + validTypes();
      return false;
    }
    p.type = *elem;
    setDefaultRange(p);
    if (fields.size() > 2) {
      std::optional<Role> role = parseRole(fields[2]);
      if (!role || !p.isBuffer) {
        error = "parameter '" + p.name + "': " +
                (p.isBuffer ? "unknown role '" + fields[2] + "'; valid roles: in, out, inout, scratch"
                            : std::string("only buffers (TYPE[EXTENT]) have a role"));
        return false;
      }
      p.role = *role;
    }
    if (fields.size() > 3) {
      // LO..HI: the range inputs are drawn from (as a spec's "range").
      std::string range = trim(fields[3]);
      size_t dots = range.find("..");
      char *end = nullptr;
      double lo = 0, hi = 0;
      bool ok = dots != std::string::npos && dots > 0 && p.isBuffer;
      if (ok) {
        std::string loText = range.substr(0, dots), hiText = range.substr(dots + 2);
        lo = std::strtod(loText.c_str(), &end);
        ok = end && *end == '\0' && !hiText.empty();
        if (ok) {
          hi = std::strtod(hiText.c_str(), &end);
          ok = end && *end == '\0' && lo < hi;
        }
      }
      if (!ok) {
        error = "parameter '" + p.name + "': expected a range LO..HI with LO < HI after the role, got '" +
                range + "'";
        return false;
      }
      p.lo = lo;
      p.hi = hi;
    }
    if (fields.size() > 4) {
      error = "parameter '" + item + "': too many ':' fields";
      return false;
    }
    if (p.isBuffer && p.extent.empty()) {
      error = "parameter '" + p.name + "': empty extent";
      return false;
    }
    if (p.isGlobal && !p.isBuffer) {
      error = "parameter '@" + p.name + "': a module variable needs TYPE[EXTENT] (a scalar is [1])";
      return false;
    }
    params.push_back(p);
  }
  return true;
}

bool mlir::ks::runtime::parseDims(const std::string &text, std::array<std::string, 3> &dims,
                                  std::string &error) {
  std::vector<std::string> parts = splitTopLevel(text);
  if (parts.empty() || parts.size() > 3 || parts[0].empty()) {
    error = "expected 1 to 3 comma-separated sizes, got '" + text + "'";
    return false;
  }
  dims = {"1", "1", "1"};
  for (size_t i = 0; i < parts.size(); ++i)
    dims[i] = parts[i];
  return true;
}

namespace {
/// JSON values of a formula field may be numbers or strings.
bool formulaField(const json &value, const std::string &path, std::string &out,
                  std::string &error) {
  if (value.is_number_integer()) {
    out = std::to_string(value.get<int64_t>());
    return true;
  }
  if (value.is_string()) {
    out = value.get<std::string>();
    return true;
  }
  error = path + ": expected an integer or a formula string";
  return false;
}
} // namespace

namespace {
/// Whether `value` is a value of integer type `type` (any value fits a
/// float or a 64-bit type).
bool fitsType(int64_t value, ElemType type) {
  unsigned bits = unsigned(8 * sizeOf(type));
  switch (type) {
  case ElemType::I8:
  case ElemType::I32:
    return normalizeInteger(value, bits) == value;
  case ElemType::U8:
  case ElemType::U32:
    return value >= 0 && int64_t(asUnsignedInteger(value, bits)) == value;
  default:
    return true;
  }
}

bool isTopLevelKey(const std::string &key) {
  for (const char *known : keys::kTopLevelKeys)
    if (key == known)
      return true;
  return false;
}
} // namespace

std::optional<LaunchSpec> mlir::ks::runtime::parseLaunchSpecJSON(const std::string &text,
                                                                  std::string &error) {
  json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) {
    error = "not valid JSON";
    return std::nullopt;
  }
  if (!doc.is_object()) {
    error = "expected a JSON object";
    return std::nullopt;
  }
  LaunchSpec spec;
  for (auto it = doc.begin(); it != doc.end(); ++it)
    if (!isTopLevelKey(it.key())) {
      std::string valid;
      for (const char *key : keys::kTopLevelKeys)
        valid += (valid.empty() ? "" : ", ") + std::string(key);
      error = "unknown key '" + it.key() + "'; valid keys: " + valid;
      return std::nullopt;
    }
  if (!doc.contains(keys::kKernel) || !doc[keys::kKernel].is_string()) {
    error = "'kernel' (the kernel's name) is required and must be a string";
    return std::nullopt;
  }
  spec.kernel = doc[keys::kKernel];
  if (!doc.contains(keys::kParams) || !doc[keys::kParams].is_array()) {
    error = "'params' (the kernel's parameters, in order) is required and must be an array";
    return std::nullopt;
  }
  for (size_t i = 0; i < doc[keys::kParams].size(); ++i) {
    const json &p = doc[keys::kParams][i];
    std::string path = "params[" + std::to_string(i) + "]";
    if (!p.is_object() || !p.contains(keys::kName) || !p[keys::kName].is_string() ||
        !p.contains(keys::kType) || !p[keys::kType].is_string()) {
      error = path + ": expected {\"name\": ..., \"type\": ...}";
      return std::nullopt;
    }
    Param param;
    param.name = p[keys::kName];
    std::optional<ElemType> type = parseElemType(p[keys::kType]);
    if (!type) {
      error = path + ": unknown type '" + p[keys::kType].get<std::string>() +
              "'; valid types: " + validTypes();
      return std::nullopt;
    }
    param.type = *type;
    setDefaultRange(param);
    if (p.contains(keys::kExtent)) {
      param.isBuffer = true;
      if (!formulaField(p[keys::kExtent], path + ".extent", param.extent, error))
        return std::nullopt;
    }
    if (p.contains(keys::kGlobal)) {
      if (!p[keys::kGlobal].is_boolean() || !p.contains(keys::kExtent)) {
        error = path + ": 'global' must be true or false, on a buffer with an extent";
        return std::nullopt;
      }
      param.isGlobal = p[keys::kGlobal].get<bool>();
    }
    if (p.contains(keys::kValue)) {
      if (param.isBuffer) {
        error = path + ": only scalars have a 'value'";
        return std::nullopt;
      }
      if (!formulaField(p[keys::kValue], path + ".value", param.value, error))
        return std::nullopt;
    }
    if (p.contains(keys::kRole) && !param.isBuffer) {
      error = path + ": buffer '" + param.name +
              "' has no extent (a manifest leaves sizes out): add \"extent\" or give the "
              "parameters with --params";
      return std::nullopt;
    }
    if (p.contains(keys::kRole)) {
      std::optional<Role> role =
          p[keys::kRole].is_string() ? parseRole(p[keys::kRole]) : std::optional<Role>();
      if (!role || !param.isBuffer) {
        error = path + ": 'role' must be in, out, inout or scratch, and only buffers have one";
        return std::nullopt;
      }
      param.role = *role;
    }
    if (p.contains(keys::kRange)) {
      const json &r = p[keys::kRange];
      if (!r.is_array() || r.size() != 2 || !r[0].is_number() || !r[1].is_number() ||
          r[0].get<double>() >= r[1].get<double>()) {
        error = path + ".range: expected [lo, hi] with lo < hi";
        return std::nullopt;
      }
      param.lo = r[0];
      param.hi = r[1];
    }
    spec.params.push_back(param);
  }
  for (const char *key : {keys::kGrid, keys::kBlock}) {
    if (!doc.contains(key))
      continue;
    const json &dims = doc[key];
    auto &out = std::string(key) == keys::kGrid ? spec.grid : spec.block;
    if (!dims.is_array() || dims.empty() || dims.size() > 3) {
      error = std::string(key) + ": expected an array of 1 to 3 sizes";
      return std::nullopt;
    }
    out = {"1", "1", "1"};
    for (size_t i = 0; i < dims.size(); ++i)
      if (!formulaField(dims[i], std::string(key) + "[" + std::to_string(i) + "]", out[i], error))
        return std::nullopt;
  }
  for (auto [key, field] : {std::pair{keys::kSmem, &spec.smem}, {keys::kFlops, &spec.flops},
                            {keys::kBytes, &spec.bytes}})
    if (doc.contains(key) && !formulaField(doc[key], key, *field, error))
      return std::nullopt;
  if (doc.contains(keys::kScalars)) {
    if (!doc[keys::kScalars].is_object()) {
      error = "scalars: expected an object of NAME: integer";
      return std::nullopt;
    }
    for (auto it = doc[keys::kScalars].begin(); it != doc[keys::kScalars].end(); ++it) {
      if (!it.value().is_number_integer()) {
        error = "scalars." + it.key() + ": expected an integer";
        return std::nullopt;
      }
      spec.scalars[it.key()] = it.value().get<int64_t>();
    }
  }
  return spec;
}

std::optional<ResolvedLaunch> mlir::ks::runtime::resolve(const LaunchSpec &spec,
                                                         std::string &error) {
  if (spec.kernel.empty()) {
    error = "no kernel name";
    return std::nullopt;
  }
  std::set<std::string> names;
  ScalarValues scalars;
  for (const Param &p : spec.params) {
    if (!isIdentifier(p.name) || !names.insert(p.name).second) {
      error = "parameter name '" + p.name + "' is not a valid, unique identifier";
      return std::nullopt;
    }
    if (p.isBuffer || (!p.value.empty() && !spec.scalars.count(p.name)))
      continue; // computed below, from the others
    auto it = spec.scalars.find(p.name);
    if (it == spec.scalars.end()) {
      error = "scalar parameter '" + p.name + "' has no value; give it with --workload " +
              p.name + "=VALUE";
      return std::nullopt;
    }
    // Formulas see the value the launcher passes: it must be one of the
    // type's (a wider one would be truncated silently when copied into the
    // kernel's argument).
    if (!fitsType(it->second, p.type)) {
      error = "scalar parameter '" + p.name + "' = " + std::to_string(it->second) +
              " does not fit its type " + toString(p.type);
      return std::nullopt;
    }
    scalars[p.name] = it->second;
  }
  // Formulas may also use workload names that are not parameters.
  for (const auto &[name, value] : spec.scalars)
    scalars.emplace(name, value);
  // The scalars the launcher computes, from the others.
  for (const Param &p : spec.params) {
    if (p.isBuffer || p.value.empty() || spec.scalars.count(p.name))
      continue;
    auto value = evaluateFormula(p.value, scalars);
    if (auto *err = std::get_if<FormulaError>(&value)) {
      error = "scalar parameter '" + p.name + "' (value " + p.value + "): " + err->message;
      return std::nullopt;
    }
    if (!fitsType(std::get<int64_t>(value), p.type)) {
      error = "scalar parameter '" + p.name + "' = " + std::to_string(std::get<int64_t>(value)) +
              " does not fit its type " + toString(p.type);
      return std::nullopt;
    }
    scalars[p.name] = std::get<int64_t>(value);
  }

  ResolvedLaunch r;
  for (const Param &p : spec.params)
    if (!p.isBuffer)
      r.scalars[p.name] = scalars.at(p.name);
  auto eval = [&](const std::string &what, const std::string &formula, int64_t &out) {
    auto value = evaluateFormula(formula, scalars);
    if (auto *err = std::get_if<FormulaError>(&value)) {
      error = what + ": " + err->message;
      return false;
    }
    out = std::get<int64_t>(value);
    return true;
  };
  const char *axes = "xyz";
  for (int i = 0; i < 3; ++i) {
    if (!eval(std::string("grid.") + axes[i], spec.grid[i], r.grid[i]) ||
        !eval(std::string("block.") + axes[i], spec.block[i], r.block[i]))
      return std::nullopt;
    if (r.grid[i] <= 0 || r.block[i] <= 0) {
      error = std::string("grid and block sizes must be positive; ") + axes[i] + " is " +
              std::to_string(r.grid[i]) + " x " + std::to_string(r.block[i]);
      return std::nullopt;
    }
  }
  if (r.block[0] * r.block[1] * r.block[2] > 1024) {
    error = "a block of " + std::to_string(r.block[0] * r.block[1] * r.block[2]) +
            " threads exceeds 1024";
    return std::nullopt;
  }
  if (!eval("smem", spec.smem, r.smem))
    return std::nullopt;
  for (const Param &p : spec.params) {
    int64_t extent = 0;
    if (p.isBuffer) {
      if (!eval("extent of '" + p.name + "'", p.extent, extent))
        return std::nullopt;
      if (extent < 0) {
        error = "extent of '" + p.name + "' is negative (" + std::to_string(extent) + ")";
        return std::nullopt;
      }
    }
    r.extents.push_back(extent);
  }
  int64_t value;
  if (!spec.flops.empty()) {
    if (!eval("flops", spec.flops, value))
      return std::nullopt;
    r.flops = double(value);
  }
  if (!spec.bytes.empty()) {
    if (!eval("bytes", spec.bytes, value))
      return std::nullopt;
    r.bytes = double(value);
  }
  return r;
}

std::string mlir::ks::runtime::toJSON(const LaunchSpec &spec) {
  json doc;
  doc[keys::kKernel] = spec.kernel;
  doc[keys::kParams] = json::array();
  for (const Param &p : spec.params) {
    json j = {{keys::kName, p.name}, {keys::kType, toString(p.type)}};
    if (p.isBuffer) {
      j[keys::kExtent] = p.extent;
      j[keys::kRole] = toString(p.role);
      j[keys::kRange] = {p.lo, p.hi};
      if (p.isGlobal)
        j[keys::kGlobal] = true;
    } else if (!p.value.empty()) {
      j[keys::kValue] = p.value;
    }
    doc[keys::kParams].push_back(j);
  }
  doc[keys::kGrid] = spec.grid;
  doc[keys::kBlock] = spec.block;
  doc[keys::kSmem] = spec.smem;
  if (!spec.flops.empty())
    doc[keys::kFlops] = spec.flops;
  if (!spec.bytes.empty())
    doc[keys::kBytes] = spec.bytes;
  doc[keys::kScalars] = json::object();
  for (const auto &[name, value] : spec.scalars)
    doc[keys::kScalars][name] = value;
  return doc.dump();
}
