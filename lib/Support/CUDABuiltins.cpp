//===- CUDABuiltins.cpp - CUDA's builtin functions and their ops ----------===//

#include "kernelskill/Support/CUDABuiltins.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir::ks::cuda;

// The spellings are CUDA's (the math API of the CUDA headers, cuda_fp16.h's
// and cuda_bf16.h's for halves and their pairs); the aliases
// are the intrinsics that compute the same value in the same type. Fast-math
// intrinsics (__expf) are lifted to the exact op: the lowering then chooses
// the precision (docs/Frontend.md).
static const MathBuiltin kMath[] = {
    {"math.sqrt", 1, "sqrtf", "sqrt", {"__fsqrt_rn"}, "hsqrt", "h2sqrt"},
    {"math.rsqrt", 1, "rsqrtf", "rsqrt", {}, "hrsqrt", "h2rsqrt"},
    {"math.exp", 1, "expf", "exp", {"__expf"}, "hexp", "h2exp"},
    {"math.exp2", 1, "exp2f", "exp2", {"__exp2f"}, "hexp2", "h2exp2"},
    {"math.log", 1, "logf", "log", {"__logf"}, "hlog", "h2log"},
    {"math.log2", 1, "log2f", "log2", {"__log2f"}, "hlog2", "h2log2"},
    {"math.sin", 1, "sinf", "sin", {"__sinf"}, "hsin", "h2sin"},
    {"math.cos", 1, "cosf", "cos", {"__cosf"}, "hcos", "h2cos"},
    {"math.tanh", 1, "tanhf", "tanh", {}},
    {"math.erf", 1, "erff", "erf", {}},
    {"math.absf", 1, "fabsf", "fabs", {}, "__habs", "__habs2"},
    {"math.floor", 1, "floorf", "floor", {}, "hfloor", "h2floor"},
    {"math.ceil", 1, "ceilf", "ceil", {}, "hceil", "h2ceil"},
    // rint rounds to the nearest, ties to even (the default rounding mode);
    // round ties away from zero; trunc toward zero.
    {"math.roundeven", 1, "rintf", "rint", {"nearbyintf", "__frint_rn"}, "hrint", "h2rint"},
    {"math.round", 1, "roundf", "round", {}},
    {"math.trunc", 1, "truncf", "trunc", {}, "htrunc", "h2trunc"},
    {"math.powf", 2, "powf", "pow", {"__powf"}},
    {"math.fma", 3, "fmaf", "fma", {"__fmaf_rn"}, "__hfma", "__hfma2"},
    // C's fmax/fmin return the other operand for a NaN: maxnumf/minnumf.
    {"arith.maxnumf", 2, "fmaxf", "fmax", {}, "__hmax", "__hmax2"},
    {"arith.minnumf", 2, "fminf", "fmin", {}, "__hmin", "__hmin2"},
    // The exporter writes divf as `/`: no spelling of its own here.
    {"arith.divf", 2, "", "", {"__fdividef", "fdividef"}},
};

llvm::ArrayRef<MathBuiltin> mlir::ks::cuda::mathBuiltins() { return kMath; }

const MathBuiltin *mlir::ks::cuda::lookupMathByName(llvm::StringRef name) {
  if (name.empty())
    return nullptr;
  for (const MathBuiltin &m : kMath)
    if (m.f32 == name || m.f64 == name || llvm::is_contained(m.aliases, name) ||
        m.half == name || m.halfPair == name)
      return &m;
  return nullptr;
}

const MathBuiltin *mlir::ks::cuda::lookupMathByOp(llvm::StringRef opName) {
  for (const MathBuiltin &m : kMath)
    if (m.op == opName && !m.f32.empty())
      return &m;
  return nullptr;
}

// CUDA overloads the atomics on the buffer's element type; the first row
// that covers the element type wins.
static const AtomicBuiltin kAtomics[] = {
    {"atomicAdd", AtomicOperand::Float, "addf", true},
    {"atomicAdd", AtomicOperand::Integer, "addi", true},
    {"atomicMax", AtomicOperand::Signed, "maxs", true},
    {"atomicMax", AtomicOperand::Unsigned, "maxu", true},
    {"atomicMin", AtomicOperand::Signed, "mins", true},
    {"atomicMin", AtomicOperand::Unsigned, "minu", true},
    // CUDA has no float atomicMax/atomicMin: lifted (from user overloads
    // clang resolved) but not written back.
    {"atomicMax", AtomicOperand::Float, "maximumf", false},
    {"atomicMin", AtomicOperand::Float, "minimumf", false},
    {"atomicExch", AtomicOperand::Any, "assign", true},
    {"atomicOr", AtomicOperand::Integer, "ori", true},
    {"atomicAnd", AtomicOperand::Integer, "andi", true},
    {"atomicXor", AtomicOperand::Integer, "xori", true},
};

llvm::ArrayRef<AtomicBuiltin> mlir::ks::cuda::atomicBuiltins() { return kAtomics; }

static bool covers(AtomicOperand operand, bool isFloat, bool isUnsigned) {
  switch (operand) {
  case AtomicOperand::Float:
    return isFloat;
  case AtomicOperand::Signed:
    return !isFloat && !isUnsigned;
  case AtomicOperand::Unsigned:
    return !isFloat && isUnsigned;
  case AtomicOperand::Integer:
    return !isFloat;
  case AtomicOperand::Any:
    return true;
  }
  return false;
}

const AtomicBuiltin *mlir::ks::cuda::lookupAtomic(llvm::StringRef name, bool isFloat,
                                                  bool isUnsigned) {
  for (const AtomicBuiltin &a : kAtomics)
    if (a.name == name && covers(a.operand, isFloat, isUnsigned))
      return &a;
  return nullptr;
}

const AtomicBuiltin *mlir::ks::cuda::lookupAtomicByKind(llvm::StringRef kind) {
  for (const AtomicBuiltin &a : kAtomics)
    if (a.kind == kind && a.exported)
      return &a;
  return nullptr;
}

// Only the *_sync forms: the mask names the lanes that take part, which
// the pre-Volta forms leave implicit.
static const ShuffleBuiltin kShuffles[] = {
    {"__shfl_sync", "idx"},
    {"__shfl_xor_sync", "xor"},
    {"__shfl_down_sync", "down"},
    {"__shfl_up_sync", "up"},
};

llvm::ArrayRef<ShuffleBuiltin> mlir::ks::cuda::shuffleBuiltins() { return kShuffles; }

const ShuffleBuiltin *mlir::ks::cuda::lookupShuffle(llvm::StringRef name) {
  for (const ShuffleBuiltin &s : kShuffles)
    if (s.name == name)
      return &s;
  return nullptr;
}

const ShuffleBuiltin *mlir::ks::cuda::lookupShuffleByMode(llvm::StringRef mode) {
  for (const ShuffleBuiltin &s : kShuffles)
    if (s.mode == mode)
      return &s;
  return nullptr;
}
