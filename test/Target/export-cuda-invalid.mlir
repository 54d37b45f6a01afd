// RUN: not ks-translate --export-cuda %s 2>&1 | FileCheck %s
// RUN: not ks-translate --export-cuda %s -o %t.cu 2>&1 && not test -e %t.cu
// CHECK: error: export-cuda: the kernel still has unstructured control flow; run ks-lift-kernel-cfg first
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<?xf32>, %c: i1) kernel {
      cf.cond_br %c, ^a, ^b
    ^a:
      gpu.return
    ^b:
      gpu.return
    }
  }
}
