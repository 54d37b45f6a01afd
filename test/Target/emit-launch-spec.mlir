// The launch spec ks-bench reads, rebuilt from the host launcher.
// RUN: ks-opt %examples/naive_gemm.mlir --ks-emit-launch-spec -o /dev/null | FileCheck %s --check-prefix=GEMM
// RUN: ks-opt %s -split-input-file --ks-emit-launch-spec -o /dev/null | FileCheck %s

// GEMM:      "grid": [
// GEMM-NEXT:   "udiv(N + 15, 16)",
// GEMM-NEXT:   "udiv(M + 15, 16)",
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
// CHECK-NEXT:   "minu(ceildivu(arg2, 256), 1024)",
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
// CHECK:      "smem": "trunc(arg2 * 2, 32)"
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

// -----

// The launcher's integer semantics, bit for bit: an i32 add wraps at 32 bits
// (trunc), signed and unsigned division stay apart, index_castui and extui
// read the value as unsigned (zext), trunci keeps the low bits, and a trunc
// is added only where an op reads more than the low bits.
// CHECK:      "grid": [
// CHECK-NEXT:   "zext(trunc(n + 255, 32) / 256, 32)",
// CHECK-NEXT:   "trunc(urem(udiv(n, 3, 32), 3, 32) + 3, 32)",
// CHECK-NEXT:   "max(trunc(zext(n, 32) * 7, 8), 3)"
// CHECK:      "smem": "trunc(n * 256, 32)"
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @fill(%x: memref<?xf32>, %n: i32) kernel {
      gpu.return
    }
  }
  func.func @launch(%x: memref<?xf32> {ks.name = "x"}, %n: i32 {ks.name = "n"})
      attributes {ks.workload = #ks.workload<scalars = {n = 1000 : i64}, buffers = {x = 1000}>} {
    %c1 = arith.constant 1 : index
    %c255 = arith.constant 255 : i32
    %c256 = arith.constant 256 : i32
    %c3 = arith.constant 3 : i32
    %c7 = arith.constant 7 : i64
    %sum = arith.addi %n, %c255 : i32
    %q = arith.divsi %sum, %c256 : i32
    %gx = arith.index_castui %q : i32 to index
    %nu = arith.divui %n, %c3 : i32
    %r = arith.remui %nu, %c3 : i32
    %r1 = arith.addi %r, %c3 : i32
    %gy = arith.index_cast %r1 : i32 to index
    %wide = arith.extui %n : i32 to i64
    %w7 = arith.muli %wide, %c7 : i64
    %t = arith.trunci %w7 : i64 to i32
    %t8 = arith.trunci %t : i32 to i8
    %gz0 = arith.extsi %t8 : i8 to i32
    %gz1 = arith.maxsi %gz0, %c3 : i32
    %gz = arith.index_cast %gz1 : i32 to index
    %smem = arith.muli %n, %c256 : i32
    gpu.launch_func @kernels::@fill blocks in (%gx, %gy, %gz) threads in (%c1, %c1, %c1)
        dynamic_shared_memory_size %smem
        args(%x : memref<?xf32>, %n : i32)
    return
  }
}

// -----

// Buffers of 1-D vectors (__half2, float2, float4 as lifted) are given to
// ks-bench as their lanes: the scalar type, the extent times the lanes (a
// workload's extent, a static shape, a module variable's), the same bytes.
// CHECK-LABEL: "kernel": "pairs",
// CHECK:      "extent": "2000",
// CHECK-NEXT: "name": "x",
// CHECK-NEXT: "role": "in",
// CHECK-NEXT: "type": "f16"
// CHECK:      "extent": "48",
// CHECK-NEXT: "name": "y",
// CHECK-NEXT: "role": "in",
// CHECK-NEXT: "type": "f32"
// CHECK:      "extent": "1000",
// CHECK-NEXT: "name": "z",
// CHECK-NEXT: "role": "in",
// CHECK-NEXT: "type": "bf16"
// CHECK:      "extent": "4",
// CHECK-NEXT: "global": true,
// CHECK-NEXT: "name": "table",
// CHECK-NEXT: "role": "in",
// CHECK-NEXT: "type": "f32"
module attributes {gpu.container_module} {
  gpu.module @kernels {
    memref.global "private" @table : memref<2xvector<2xf32>>
    gpu.func @pairs(%x: memref<?xvector<2xf16>>, %y: memref<12xvector<4xf32>>,
                    %z: memref<?xbf16>) kernel {
      %t = memref.get_global @table : memref<2xvector<2xf32>>
      gpu.return
    }
  }
  func.func @launch(%x: memref<?xvector<2xf16>> {ks.name = "x"},
                    %y: memref<12xvector<4xf32>> {ks.name = "y"},
                    %z: memref<?xbf16> {ks.name = "z"})
      attributes {ks.workload = #ks.workload<scalars = {}, buffers = {x = 1000, z = 1000}>} {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@pairs blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%x : memref<?xvector<2xf16>>, %y : memref<12xvector<4xf32>>, %z : memref<?xbf16>)
    return
  }
}

// -----

// A launcher's own intermediate (the importer's ks.scratch: allocated,
// handed to kernels, freed) that the kernel does not touch (a fused
// kernel's dropped buffer, u) is "scratch": ks-bench poisons it and compares
// nothing of it. One the kernel writes (t) is this launch's output: the spec
// describes one launch, whose result it is.
// CHECK-LABEL: "kernel": "produce",
// CHECK:      "extent": "1000",
// CHECK-NEXT: "name": "t",
// CHECK-NEXT: "role": "out",
// CHECK:      "extent": "1000",
// CHECK-NEXT: "name": "u",
// CHECK-NEXT: "role": "scratch",
// CHECK:      "name": "y",
// CHECK-NEXT: "role": "out",
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @produce(%t: memref<?xf32>, %u: memref<?xf32>, %y: memref<?xf32>) kernel {
      %i = gpu.thread_id x
      %c = arith.constant 1.0 : f32
      memref.store %c, %t[%i] : memref<?xf32>
      memref.store %c, %y[%i] : memref<?xf32>
      gpu.return
    }
  }
  func.func @launch(%t: memref<?xf32> {ks.allocated, ks.name = "t", ks.scratch},
                    %u: memref<?xf32> {ks.allocated, ks.name = "u", ks.scratch},
                    %y: memref<?xf32> {ks.name = "y"})
      attributes {ks.workload = #ks.workload<scalars = {}, buffers = {t = 1000, u = 1000, y = 1000}>} {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@produce blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%t : memref<?xf32>, %u : memref<?xf32>, %y : memref<?xf32>)
    return
  }
}
