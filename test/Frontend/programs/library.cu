// A library: kernels and host wrappers in a header of the user's project
// (found with -I), used from this file. The header's kernels, its
// wrappers (one of them returning an error code, one a template) and this
// file's function that calls them are all looked at; the wrappers become
// launchers, the caller is skipped (it launches through them).
// RUN: ks-translate --import-cuda %s --no-pch --no-locations -o %t.mlir -- -I%S/include 2> %t.remarks
// RUN: FileCheck %s < %t.mlir
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
#include "vecops.cuh"

void normalize(float *x, float *partial, int n) {
  vecops::sum<128>(x, partial, n);
  vecops::scale(x, 0.5f, n);
}

// CHECK-DAG: gpu.func @scaleKernel(
// CHECK-DAG: gpu.func @sumBlocks_128(
// CHECK-LABEL: func.func @scale(
// CHECK-SAME: memref<?xf32> {ks.name = "x"}, %{{.*}}: f32 {ks.name = "a"}, %{{.*}}: i32 {ks.name = "n"})
// CHECK: gpu.launch_func @kernels::@scaleKernel
// CHECK-LABEL: func.func @sum_128(
// CHECK: gpu.launch_func @kernels::@sumBlocks_128

// One remark per skipped host function, the header's included; located.
// REMARK-DAG: vecops.cuh:27:12: remark: host function 'blocksFor' launches no kernel: launch slices that call it inline it: skipped
// REMARK-DAG: library.cu:11:6: remark: host function 'normalize' launches no kernel: skipped
