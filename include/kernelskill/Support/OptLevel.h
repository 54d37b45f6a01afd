//===- OptLevel.h - The lowering's default LLVM optimization level -*- C++ -*-===//
//
// One constant shared by the lowering (lib/Target), the resource collection
// and the analyses that model what the lowering does to loops (the profiler's
// loads in flight), so all of them describe one binary.
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_SUPPORT_OPTLEVEL_H
#define KERNELSKILL_SUPPORT_OPTLEVEL_H

namespace mlir::ks {

/// The LLVM optimization level the lowering uses unless told otherwise; the
/// resource collection uses the same, so both describe one binary. 3, as
/// nvcc -O3: at 2, LLVM's NVPTX unroll threshold (a quarter of the level's)
/// partially unrolls simple loops by 2 where nvcc unrolls by 4, and the
/// memory-bound kernels of the corpus lose a third of their loads in
/// flight (bench/lowering, docs/Performance.md).
constexpr int kDefaultOptLevel = 3;

} // namespace mlir::ks

#endif // KERNELSKILL_SUPPORT_OPTLEVEL_H
