//===- CUDABuiltins.h - CUDA's builtin functions and their ops --*- C++ -*-===//
//
// One table of the CUDA functions the importer lifts to single MLIR ops and
// the exporter writes back: math functions, atomics and warp shuffles. The
// importer reads it from name to op, the exporter from op to name, so the
// two can never disagree about what a function means (they once kept a map
// each). Pure data: ops are named by their registered names ("math.sqrt")
// and enum cases by their spellings ("addf", "xor"), so this header needs no
// dialect.
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_SUPPORT_CUDABUILTINS_H
#define KERNELSKILL_SUPPORT_CUDABUILTINS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace mlir::ks::cuda {

/// The memref memory space of __constant__ variables: NVVM's (and PTX's
/// .const) address space 4, which the NVVM lowering keeps, so loads become
/// ld.const. The importer lifts __constant__ into it; the exporter writes
/// globals in it back as __constant__.
inline constexpr unsigned kConstantMemorySpace = 4;

/// A floating-point function that is one op: `sqrtf(x)` is `math.sqrt`.
struct MathBuiltin {
  llvm::StringRef op;            ///< the op's registered name
  unsigned arity;                ///< operands, all of the result's type
  llvm::StringRef f32, f64;      ///< the exporter's spellings
  llvm::StringRef aliases[2];    ///< more names the importer accepts ("__expf")
  /// cuda_fp16.h's and cuda_bf16.h's spellings on a __half (__nv_bfloat16)
  /// and on a pair of them ("hsqrt", "h2sqrt"); empty when there is none.
  llvm::StringRef half = {}, halfPair = {};
};

/// Every math builtin, in the exporter's order.
llvm::ArrayRef<MathBuiltin> mathBuiltins();
/// The builtin CUDA calls `name` (a spelling or an alias), or null.
const MathBuiltin *lookupMathByName(llvm::StringRef name);
/// The builtin that op `opName` is, or null.
const MathBuiltin *lookupMathByOp(llvm::StringRef opName);

/// Which element types an atomic row applies to.
enum class AtomicOperand { Float, Signed, Unsigned, Integer, Any };

/// `atomicAdd(p, v)` on a float buffer is memref.atomic_rmw addf.
struct AtomicBuiltin {
  llvm::StringRef name;     ///< the CUDA function
  AtomicOperand operand;    ///< the buffer's element types it covers
  llvm::StringRef kind;     ///< arith::AtomicRMWKind's spelling
  bool exported;            ///< false: CUDA has no such function to write back
};

llvm::ArrayRef<AtomicBuiltin> atomicBuiltins();
/// The row for `name` on elements that are float / unsigned, or null.
const AtomicBuiltin *lookupAtomic(llvm::StringRef name, bool isFloat, bool isUnsigned);
/// The exported row of atomic_rmw kind `kind`, or null.
const AtomicBuiltin *lookupAtomicByKind(llvm::StringRef kind);

/// `__shfl_xor_sync` is gpu.shuffle xor.
struct ShuffleBuiltin {
  llvm::StringRef name;
  llvm::StringRef mode; ///< gpu::ShuffleMode's spelling
};

llvm::ArrayRef<ShuffleBuiltin> shuffleBuiltins();
const ShuffleBuiltin *lookupShuffle(llvm::StringRef name);
const ShuffleBuiltin *lookupShuffleByMode(llvm::StringRef mode);

} // namespace mlir::ks::cuda

#endif // KERNELSKILL_SUPPORT_CUDABUILTINS_H
