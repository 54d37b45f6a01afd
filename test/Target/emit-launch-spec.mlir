// The launch spec ks-bench reads, rebuilt from the host launcher.
// RUN: ks-opt %examples/naive_gemm.mlir --ks-emit-launch-spec -o /dev/null | FileCheck %s --check-prefix=GEMM
// RUN: ks-opt %s -split-input-file --ks-emit-launch-spec -o /dev/null | FileCheck %s

// GEMM:      "grid": [
// GEMM-NEXT:   "(N + 15) / 16",
// GEMM-NEXT:   "(M + 15) / 16",
// GEMM-NEXT:   "1"
// GEMM:      "kernel": "naive_gemm",
// GEMM:        "extent": "16777216",
// GEMM-NEXT:   "name": "A",
// GEMM-NEXT:   "role": "in",
// GEMM-NEXT:   "type": "f32"
// GEMM:        "name": "C",
// GEMM-NEXT:   "role": "out",
// GEMM:        "name": "K",
// GEMM-NEXT:   "type": "i32"
// GEMM:      "scalars": {
// GEMM-NEXT:   "K": 4096,
// GEMM-NEXT:   "M": 4096,
// GEMM-NEXT:   "N": 4096
// GEMM:      "smem": "0"

// In-place update (inout), unnamed arguments, ceildiv/min in the launch,
// dynamic shared memory, a static buffer, index scalars.
// CHECK:      "block": [
// CHECK-NEXT:   "256",
// CHECK:      "grid": [
// CHECK-NEXT:   "min(ceildiv(arg2, 256), 1024)",
// CHECK:      "kernel": "scale",
// CHECK:        "extent": "1000",
// CHECK-NEXT:   "name": "arg0",
// CHECK-NEXT:   "role": "inout",
// CHECK-NEXT:   "type": "bf16"
// CHECK:        "extent": "64",
// CHECK-NEXT:   "name": "arg1",
// CHECK-NEXT:   "role": "in",
// CHECK-NEXT:   "type": "i32"
// CHECK:        "name": "arg2",
// CHECK-NEXT:   "type": "i64"
// CHECK:      "scalars": {
// CHECK-NEXT:   "arg2": 1000
// CHECK:      "smem": "arg2 * 2"
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%x: memref<?xbf16>, %t: memref<64xi32>, %n: index) kernel {
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %v = memref.load %x[%i] : memref<?xbf16>
      %w = memref.load %t[%c0] : memref<64xi32>
      memref.store %v, %x[%i] : memref<?xbf16>
      gpu.return
    }
  }
  func.func @launch(%x: memref<?xbf16>, %t: memref<64xi32>, %n: index)
      attributes {ks.workload = #ks.workload<scalars = {arg2 = 1000 : i64}, buffers = {arg0 = 1000}>} {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c256 = arith.constant 256 : index
    %c1024 = arith.constant 1024 : index
    %g0 = arith.ceildivui %n, %c256 : index
    %g = arith.minui %g0, %c1024 : index
    %smem0 = arith.muli %n, %c2 : index
    %smem = arith.index_cast %smem0 : index to i32
    gpu.launch_func @kernels::@scale blocks in (%g, %c1, %c1) threads in (%c256, %c1, %c1)
        dynamic_shared_memory_size %smem
        args(%x : memref<?xbf16>, %t : memref<64xi32>, %n : index)
    return
  }
}
