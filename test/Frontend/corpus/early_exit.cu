// RUN: ks-translate --import-cuda %s --no-locations | FileCheck %s
// RUN: ks-translate --import-cuda %s -o %t.mlir
// RUN: ks-opt %t.mlir --kernelskill-lower="ptx=%t.ptx" -o /dev/null
// RUN: %if ptxas %{ %ptxas --gpu-name=sm_90 %t.ptx -o %t.cubin %}
// RUN: ks-translate --export-cuda %t.mlir -o %t.out.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -c %t.out.cu -o %t.o %}
// break, continue, while, do and ?: are lifted to scf.
// CHECK-LABEL: gpu.func @first_negative
// CHECK-NOT: cf.br
// CHECK-NOT: cf.cond_br
// CHECK: scf.while
// CHECK: gpu.return

// Early exit from a loop with break, continue, while and do.
__global__ void first_negative(const int *x, int *pos, int n, int m) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= n) return;
  int found = -1;
  for (int j = 0; j < m; j++) {
    if (x[row * m + j] == 0) continue;
    if (x[row * m + j] < 0) { found = j; break; }
  }
  int k = 0;
  while (k < 3 && found > 0) { found -= 1; ++k; }
  do { k--; } while (k > 0);
  pos[row] = found > 0 ? found : -found;
}
