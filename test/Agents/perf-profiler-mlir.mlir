// Kernels written in MLIR (no launcher, no source file): the block shape from
// known_block_size, sizes from the workload option (arguments without a
// ks.name are argN), scf.for loops, locations from the IR.
// RUN: ks-opt %s --ks-perf-profiler="format=text workload=arg2=4096,grid.x=1024" -split-input-file -o /dev/null 2>&1 | FileCheck %s

// CHECK-LABEL: kernel column_walk
// CHECK: sizes: arg2 = 4096 (from the kernel alone and the workload option); grid 1024x1x1, block 256x1x1
// CHECK-NOT: assumed
// CHECK: load arg0[iv0 + arg2*threadIdx.x + arg2*blockDim.x*blockIdx.x] (walk.mlir:12): strided, stride arg2, 32.00 sectors/request (ideal 4.00)
// CHECK: 1. [{{[a-z]+}}] uncoalesced_access, {{.*}}: load of `arg0[{{.*}}]` (walk.mlir:12) is strided by arg2 elements across the warp
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @column_walk(%a: memref<?xf32>, %out: memref<?xf32>, %n: index) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %cst = arith.constant 0.0 : f32
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %base = arith.muli %bid, %bdim : index
      %row = arith.addi %base, %tid : index
      %sum = scf.for %j = %c0 to %c64 step %c1 iter_args(%acc = %cst) -> (f32) {
        %rowoff = arith.muli %row, %n : index
        %i = arith.addi %rowoff, %j : index
        %v = memref.load %a[%i] : memref<?xf32> loc("walk.mlir":12:5)
        %s = arith.addf %acc, %v : f32
        scf.yield %s : f32
      }
      memref.store %sum, %out[%row] : memref<?xf32> loc("walk.mlir":14:3)
      gpu.return
    }
  }
}

// -----

// Without known_block_size, a launcher or an option, the block is assumed.
// CHECK-LABEL: kernel copy
// CHECK: sizes: no scalars (from the kernel alone and the workload option); grid 1024x1x1, block 256x1x1
// CHECK-NEXT: assumed: a block of 256 threads
// CHECK-NOT: a grid of
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @copy(%a: memref<?xf32>, %b: memref<?xf32>) kernel {
      %tid = gpu.thread_id x
      %v = memref.load %a[%tid] : memref<?xf32>
      memref.store %v, %b[%tid] : memref<?xf32>
      gpu.return
    }
  }
}
