//===- Workload.h - What a kernel is launched with --------------*- C++ -*-===//
//
// A launch spec says how to call one kernel: its parameters in order (buffers
// with element type, extent formula and role; scalars with type), grid, block
// and dynamic shared memory as formulas of the scalars, and optional FLOP and
// byte counts. A workload gives the scalars values. Together they resolve to
// concrete sizes. The JSON form is the launch manifest ks-translate writes;
// the command-line form is for quick use:
//
//   --params "A:f32[M*K]:in,B:f32[K*N]:in,C:f32[M*N]:out,M:i32,N:i32,K:i32"
//   --grid "ceildiv(N,16),ceildiv(M,16),1" --block 16,16,1
//   --workload M=4096,N=4096,K=4096
//
// Formulas and the workload list are Support/Formula.h's; the JSON keys are
// Support/LaunchSpecSchema.h's.
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_RUNTIME_WORKLOAD_H
#define KERNELSKILL_RUNTIME_WORKLOAD_H

#include "kernelskill/Support/Formula.h"

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mlir::ks::runtime {

enum class ElemType { F16, BF16, F32, F64, I8, U8, I32, U32, I64, U64 };
/// Scratch: a buffer only the kernels see (a launcher's own intermediate),
/// poisoned before each run like Out but neither compared nor copied back.
enum class Role { In, Out, InOut, Scratch };

/// "f32" -> F32; nullopt for an unknown name.
std::optional<ElemType> parseElemType(const std::string &name);
const char *toString(ElemType type);
size_t sizeOf(ElemType type);
bool isFloat(ElemType type);
std::optional<Role> parseRole(const std::string &name);
const char *toString(Role role);

struct Param {
  std::string name;
  bool isBuffer = false;
  ElemType type = ElemType::I32;
  std::string extent; ///< buffers: element count as a formula
  Role role = Role::In;
  /// A buffer that is a variable of the kernel's module (`__constant__ float
  /// taps[5]`), found by name, rather than an argument: `@taps:f32[5]:in`.
  bool isGlobal = false;
  /// Scalars the launcher computes: the formula of the others it is (the
  /// spec's "value"), used when the workload gives no value of its own.
  std::string value;
  /// Inputs are drawn uniformly from [lo, hi) (floats) or [lo, hi) (integers).
  double lo = -1.0, hi = 1.0;
};

struct LaunchSpec {
  std::string kernel;
  std::vector<Param> params;
  std::array<std::string, 3> grid = {"1", "1", "1"};
  std::array<std::string, 3> block = {"1", "1", "1"};
  std::string smem = "0";
  std::string flops; ///< optional: FLOPs of one launch
  std::string bytes; ///< optional: fewest DRAM bytes of one launch
  ScalarValues scalars; ///< the workload (may be overridden)
};

/// A spec with every formula evaluated.
struct ResolvedLaunch {
  std::array<int64_t, 3> grid{}, block{};
  int64_t smem = 0;
  std::vector<int64_t> extents; ///< per param; 0 for scalars
  /// Every scalar parameter's value: the workload's, or its "value" formula's.
  std::map<std::string, int64_t> scalars;
  std::optional<double> flops, bytes;
};

/// Parses a launch spec from JSON text; on error returns nullopt and sets
/// `error` (with the JSON path of the problem).
std::optional<LaunchSpec> parseLaunchSpecJSON(const std::string &text, std::string &error);
/// Parses "A:f32[M*K]:in,...,M:i32" (roles default to in; scalars to i32).
bool parseParamList(const std::string &text, std::vector<Param> &params, std::string &error);
/// Parses "a,b,c" (1 to 3 formulas, missing ones are "1") into `dims`.
bool parseDims(const std::string &text, std::array<std::string, 3> &dims, std::string &error);

/// Checks the spec (names, a value for every scalar that fits its type,
/// roles) and evaluates it.
std::optional<ResolvedLaunch> resolve(const LaunchSpec &spec, std::string &error);

/// The spec as JSON (the launch manifest format), with the workload values.
std::string toJSON(const LaunchSpec &spec);

} // namespace mlir::ks::runtime

#endif // KERNELSKILL_RUNTIME_WORKLOAD_H
