// Each analysis on hand-written IR (no importer): a kernel in, one remark per
// fact out, checked with -verify-diagnostics. The CUDA-based tests beside this
// file are the integration tests of the same analyses.

// RUN: ks-opt %s -verify-diagnostics --ks-print-analysis="analysis=coalescing workload=grid.x=64" -o /dev/null
// RUN: ks-opt %s --ks-print-analysis="analysis=index workload=grid.x=64" -o /dev/null 2>&1 | FileCheck %s --check-prefix=INDEX
// RUN: ks-opt %s --ks-print-analysis="analysis=divergence workload=grid.x=64" -o /dev/null 2>&1 | FileCheck %s --check-prefix=DIVERGENCE
// RUN: ks-opt %s --ks-print-analysis="analysis=bank-conflicts workload=grid.x=64" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BANKS
// RUN: ks-opt %s --ks-print-analysis="analysis=resources workload=grid.x=64" -o /dev/null 2>&1 | FileCheck %s --check-prefix=RESOURCES
// RUN: ks-opt %s --ks-print-analysis="analysis=occupancy workload=grid.x=64" -o /dev/null 2>&1 | FileCheck %s --check-prefix=OCCUPANCY

// A copy: consecutive lanes, consecutive floats.
// INDEX: handwritten.mlir:[[@LINE+11]]:{{[0-9]+}}: remark: load arg0[{{.*}}]: index = threadIdx.x + blockDim.x*blockIdx.x
module attributes {gpu.container_module} {
  gpu.module @kernels0 {
    gpu.func @copy(%a: memref<?xf32>, %b: memref<?xf32>) kernel
        attributes {known_block_size = array<i32: 128, 1, 1>} {
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      // expected-remark @+1 {{coalesced, stride 1 along threadIdx.x, 4.00 sectors/request (ideal 4.00)}}
      %v = memref.load %a[%i] : memref<?xf32>
      // expected-remark @+1 {{coalesced, stride 1 along threadIdx.x, 4.00 sectors/request (ideal 4.00)}}
      memref.store %v, %b[%i] : memref<?xf32>
      gpu.return
    }
  }


// A column walk with a constant stride of 64 floats: one sector per lane.
  gpu.module @kernels1 {
    gpu.func @column(%a: memref<?xf32>, %b: memref<?xf32>) kernel
        attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c64 = arith.constant 64 : index
      %tid = gpu.thread_id x
      %i = arith.muli %tid, %c64 : index
      // expected-remark @+1 {{strided, stride 64 along threadIdx.x, 32.00 sectors/request (ideal 4.00)}}
      %v = memref.load %a[%i] : memref<?xf32>
      // expected-remark @+1 {{coalesced, stride 1 along threadIdx.x, 4.00 sectors/request (ideal 4.00)}}
      memref.store %v, %b[%tid] : memref<?xf32>
      gpu.return
    }
  }


// Odd lanes take one side, even lanes the other; a switch on the warp id
// never splits a warp. A shared tile read column-wise: 32-way conflicts.
// DIVERGENCE: branches.mlir:2:3: remark: branch on `{{.*}}`: divergent in 100.0% of warp executions (lane-dependent)
// DIVERGENCE: branches.mlir:3:3: remark: switch on `{{.*}}`: divergent in 0.0% of warp executions (depends on the thread, uniform within each warp)
// BANKS: branches.mlir:4:3: remark: shared load {{.*}}: 32.0-way bank conflict on average, 32-way at worst
// RESOURCES: remark: resources (ptxas): 40 registers, 4096 B static shared, 0 B dynamic shared, 0 B stack
// OCCUPANCY: remark: occupancy 75.0%: 12 blocks, 48 warps per SM, limited by registers (block of 128 threads, 40 registers, 4096 B shared)
  gpu.module @kernels2 {
    gpu.func @branches(%a: memref<?xf32>) workgroup(%tile: memref<1024xf32, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 128, 1, 1>,
                    ks.resources = #ks.resources<registers = 40, stack = 0, spill_stores = 0, spill_loads = 0, shared = 4096, chip = "sm_90", opt_level = 2>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c32 = arith.constant 32 : index
      %tid = gpu.thread_id x
      %odd = arith.remui %tid, %c2 : index
      %isOdd = arith.cmpi eq, %odd, %c1 : index
      scf.if %isOdd {
        %t = arith.addi %tid, %c1 : index
      } loc("branches.mlir":2:3)
      %warp = arith.divui %tid, %c32 : index
      scf.index_switch %warp
      case 0 {
        %t = arith.addi %tid, %c2 : index
        scf.yield
      }
      default {
        scf.yield
      } loc("branches.mlir":3:3)
      %lane = arith.remui %tid, %c32 : index
      %row = arith.muli %lane, %c32 : index
      // expected-remark @+1 {{coalesced, stride 1 along threadIdx.x, 4.00 sectors/request (ideal 4.00)}}
      %w = memref.load %a[%tid] : memref<?xf32>
      %x = memref.load %tile[%row] : memref<1024xf32, #gpu.address_space<workgroup>> loc("branches.mlir":4:3)
      %s = arith.addf %w, %x : f32
      // expected-remark @+1 {{coalesced, stride 1 along threadIdx.x, 4.00 sectors/request (ideal 4.00)}}
      memref.store %s, %a[%tid] : memref<?xf32>
      gpu.return
    }
  }
}
