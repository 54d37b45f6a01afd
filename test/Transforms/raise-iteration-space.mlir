// RUN: ks-opt %s -split-input-file -verify-diagnostics --ks-raise-iteration-space | FileCheck %s

// One thread per output of a 2-D problem, `if (row < M && col < N)` (&& as
// the importer writes it: an scf.if yielding the right-hand side), the grid
// ceil(N / 16) x ceil(M / 16): an scf.forall over (M, N), z outermost, x
// innermost, and a launch of one thread.
// CHECK-LABEL: gpu.func @guarded
// CHECK-SAME: kernel attributes {ks.raised}
// CHECK-NOT: gpu.thread_id
// CHECK: %[[M:.*]] = arith.index_cast %arg1 : i32 to index
// CHECK: %[[N:.*]] = arith.index_cast %arg2 : i32 to index
// CHECK: scf.forall (%[[I:.*]], %[[J:.*]]) in (%[[M]], %[[N]]) {
// CHECK: %[[ROW:.*]] = arith.index_cast %[[I]] : index to i32
// CHECK: %[[COL:.*]] = arith.index_cast %[[J]] : index to i32
// CHECK: %[[T:.*]] = arith.muli %[[ROW]], %arg2 overflow<nsw> : i32
// CHECK: arith.addi %[[T]], %[[COL]] overflow<nsw> : i32
// CHECK: memref.store
// CHECK-LABEL: func.func @launch
// CHECK-NOT: arith.divui
// CHECK: gpu.launch_func @kernels::@guarded blocks in (%[[ONE:[a-z0-9_]+]], %[[ONE]], %[[ONE]]) threads in (%[[ONE]], %[[ONE]], %[[ONE]])
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @guarded(%out: memref<?xf32>, %M: i32, %N: i32) kernel {
      %false = arith.constant false
      %one = arith.constant 1.0 : f32
      %by = gpu.block_id y
      %0 = arith.index_castui %by : index to i32
      %dy = gpu.block_dim y
      %1 = arith.index_castui %dy : index to i32
      %2 = arith.muli %0, %1 : i32
      %ty = gpu.thread_id y
      %3 = arith.index_castui %ty : index to i32
      %row = arith.addi %2, %3 : i32
      %bx = gpu.block_id x
      %5 = arith.index_castui %bx : index to i32
      %dx = gpu.block_dim x
      %6 = arith.index_castui %dx : index to i32
      %7 = arith.muli %5, %6 : i32
      %tx = gpu.thread_id x
      %8 = arith.index_castui %tx : index to i32
      %col = arith.addi %7, %8 : i32
      %in0 = arith.cmpi slt, %row, %M : i32
      %in = scf.if %in0 -> (i1) {
        %c = arith.cmpi slt, %col, %N : i32
        scf.yield %c : i1
      } else {
        scf.yield %false : i1
      }
      scf.if %in {
        %t = arith.muli %row, %N overflow<nsw> : i32
        %i = arith.addi %t, %col overflow<nsw> : i32
        %x = arith.index_cast %i : i32 to index
        memref.store %one, %out[%x] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @launch(%out: memref<?xf32>, %M: i32, %N: i32) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c15_i32 = arith.constant 15 : i32
    %c16_i32 = arith.constant 16 : i32
    %a = arith.addi %N, %c15_i32 : i32
    %gx = arith.divui %a, %c16_i32 : i32
    %b = arith.addi %M, %c15_i32 : i32
    %gy = arith.divui %b, %c16_i32 : i32
    %gxi = arith.index_castui %gx : i32 to index
    %gyi = arith.index_castui %gy : i32 to index
    gpu.launch_func @kernels::@guarded blocks in (%gxi, %gyi, %c1) threads in (%c16, %c16, %c1)
        args(%out : memref<?xf32>, %M : i32, %N : i32)
    return
  }
}

// -----

// An early return, `if (i >= n) return;` (the work in the else branch), and
// `blockIdx.x * 256 + threadIdx.x` with blocks of 256: a 1-D forall. A
// conjunct that is not a bound stays as a check inside the loop.
// CHECK-LABEL: gpu.func @early_return
// CHECK: scf.forall (%[[I:.*]]) in (%{{.*}}) {
// CHECK: %[[I32:.*]] = arith.index_cast %[[I]] : index to i32
// CHECK: %[[ODD:.*]] = arith.andi %[[I32]]
// CHECK: %[[EVEN:.*]] = arith.cmpi eq, %[[ODD]]
// CHECK: %[[KEEP:.*]] = arith.xori %[[EVEN]]
// CHECK: scf.if %[[KEEP]] {
// CHECK: memref.store
// CHECK-LABEL: func.func @launch
// CHECK: blocks in (%[[ONE:[a-z0-9_]+]], %[[ONE]], %[[ONE]]) threads in (%[[ONE]], %[[ONE]], %[[ONE]])
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @early_return(%out: memref<?xf32>, %n: i32) kernel {
      %c1_i32 = arith.constant 1 : i32
      %c0_i32 = arith.constant 0 : i32
      %c256 = arith.constant 256 : i32
      %one = arith.constant 1.0 : f32
      %bx = gpu.block_id x
      %0 = arith.index_castui %bx : index to i32
      %1 = arith.muli %0, %c256 : i32
      %tx = gpu.thread_id x
      %2 = arith.index_castui %tx : index to i32
      %i = arith.addi %1, %2 : i32
      %past = arith.cmpi sge, %i, %n : i32
      %odd = arith.andi %i, %c1_i32 : i32
      %even = arith.cmpi eq, %odd, %c0_i32 : i32
      %skip = arith.ori %past, %even : i1
      scf.if %skip {
      } else {
        %x = arith.index_cast %i : i32 to index
        memref.store %one, %out[%x] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @launch(%out: memref<?xf32>, %n: i32) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %c255_i32 = arith.constant 255 : i32
    %c256_i32 = arith.constant 256 : i32
    %a = arith.addi %n, %c255_i32 : i32
    %g = arith.divsi %a, %c256_i32 : i32
    %gi = arith.index_cast %g : i32 to index
    gpu.launch_func @kernels::@early_return blocks in (%gi, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%out : memref<?xf32>, %n : i32)
    return
  }
}

// -----

// A grid-stride loop covers [0, n) whatever the grid: a forall over n.
// CHECK-LABEL: gpu.func @grid_stride
// CHECK-NOT: gpu.grid_dim
// CHECK: %[[N:.*]] = arith.index_cast %arg0 : i32 to index
// CHECK: scf.forall (%[[I:.*]]) in (%[[N]]) {
// CHECK: memref.load %arg1[%[[I]]]
// CHECK-LABEL: func.func @launch
// CHECK: threads in (%[[ONE:[a-z0-9_]+]], %[[ONE]], %[[ONE]])
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @grid_stride(%n: i32, %x: memref<?xf32>, %y: memref<?xf32>) kernel {
      %bx = gpu.block_id x
      %0 = arith.index_castui %bx : index to i32
      %dx = gpu.block_dim x
      %1 = arith.index_castui %dx : index to i32
      %2 = arith.muli %0, %1 : i32
      %tx = gpu.thread_id x
      %3 = arith.index_castui %tx : index to i32
      %gid = arith.addi %2, %3 : i32
      %gx = gpu.grid_dim x
      %4 = arith.index_castui %gx : index to i32
      %stride = arith.muli %1, %4 : i32
      %lb = arith.index_cast %gid : i32 to index
      %ub = arith.index_cast %n : i32 to index
      %st = arith.index_cast %stride : i32 to index
      scf.for %i = %lb to %ub step %st {
        %v = memref.load %x[%i] : memref<?xf32>
        memref.store %v, %y[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @launch(%n: i32, %x: memref<?xf32>, %y: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    %c264 = arith.constant 264 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @kernels::@grid_stride blocks in (%c264, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%n : i32, %x : memref<?xf32>, %y : memref<?xf32>)
    return
  }
}

// -----

// A loop from the global index along x that strides by the grid along y
// does not cover [0, n) once per index whatever the grid: not raised.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-remark @below {{not raised: blockDim.y is used outside blockIdx.y * blockDim.y + threadIdx.y}}
    gpu.func @stride_along_y(%n: i32, %x: memref<?xf32>, %y: memref<?xf32>) kernel {
      %bx = gpu.block_id x
      %0 = arith.index_castui %bx : index to i32
      %dx = gpu.block_dim x
      %1 = arith.index_castui %dx : index to i32
      %2 = arith.muli %0, %1 : i32
      %tx = gpu.thread_id x
      %3 = arith.index_castui %tx : index to i32
      %gid = arith.addi %2, %3 : i32
      %dy = gpu.block_dim y
      %5 = arith.index_castui %dy : index to i32
      %gy = gpu.grid_dim y
      %4 = arith.index_castui %gy : index to i32
      %stride = arith.muli %5, %4 : i32
      %lb = arith.index_cast %gid : i32 to index
      %ub = arith.index_cast %n : i32 to index
      %st = arith.index_cast %stride : i32 to index
      scf.for %i = %lb to %ub step %st {
        %v = memref.load %x[%i] : memref<?xf32>
        memref.store %v, %y[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @launch(%n: i32, %x: memref<?xf32>, %y: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    %c264 = arith.constant 264 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @kernels::@stride_along_y blocks in (%c264, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%n : i32, %x : memref<?xf32>, %y : memref<?xf32>)
    return
  }
}

// -----

// A batch index `blockIdx.z` alone, with one thread per block along z and
// no bounds check, stays on the grid: the launch keeps grid.z.
// CHECK-LABEL: gpu.func @batched
// CHECK: %[[B:.*]] = gpu.block_id z
// CHECK: %[[B32:.*]] = arith.index_castui %[[B]]
// CHECK: scf.forall (%{{.*}}) in (%{{.*}}) {
// CHECK: arith.muli %[[B32]]
// CHECK-LABEL: func.func @launch
// CHECK-SAME: %[[Z:[a-z0-9]+]]: index)
// CHECK: blocks in (%[[ONE:[a-z0-9_]+]], %[[ONE]], %[[Z]]) threads in (%[[ONE]], %[[ONE]], %[[ONE]])
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @batched(%out: memref<?xf32>, %n: i32) kernel {
      %one = arith.constant 1.0 : f32
      %bz = gpu.block_id z
      %b = arith.index_castui %bz : index to i32
      %bx = gpu.block_id x
      %0 = arith.index_castui %bx : index to i32
      %dx = gpu.block_dim x
      %1 = arith.index_castui %dx : index to i32
      %2 = arith.muli %0, %1 : i32
      %tx = gpu.thread_id x
      %3 = arith.index_castui %tx : index to i32
      %i = arith.addi %2, %3 : i32
      %in = arith.cmpi slt, %i, %n : i32
      scf.if %in {
        %t = arith.muli %b, %n overflow<nsw> : i32
        %k = arith.addi %t, %i overflow<nsw> : i32
        %x = arith.index_cast %k : i32 to index
        memref.store %one, %out[%x] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @launch(%out: memref<?xf32>, %n: i32, %batches: index) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %ni = arith.index_cast %n : i32 to index
    %g = arith.ceildivui %ni, %c128 : index
    gpu.launch_func @kernels::@batched blocks in (%g, %c1, %batches) threads in (%c128, %c1, %c1)
        args(%out : memref<?xf32>, %n : i32)
    return
  }
}

// -----

// An interior bound `i < n - 1` under a grid of (n + 7) / 8 blocks of 8: the
// grid covers more than the bound (issue 45's stencils), which is enough.
// CHECK-LABEL: gpu.func @interior
// CHECK-SAME: kernel attributes {ks.raised}
// CHECK: scf.forall
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @interior(%out: memref<?xf32>, %n: index) kernel {
      %one = arith.constant 1.0 : f32
      %c1 = arith.constant 1 : index
      %bx = gpu.block_id x
      %dx = gpu.block_dim x
      %tx = gpu.thread_id x
      %0 = arith.muli %bx, %dx : index
      %i = arith.addi %0, %tx : index
      %bound = arith.subi %n, %c1 : index
      %in = arith.cmpi slt, %i, %bound : index
      scf.if %in {
        memref.store %one, %out[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @launch(%out: memref<?xf32>, %n: index) {
    %c1 = arith.constant 1 : index
    %c7 = arith.constant 7 : index
    %c8 = arith.constant 8 : index
    %m = arith.addi %n, %c7 : index
    %g = arith.divui %m, %c8 : index
    gpu.launch_func @kernels::@interior blocks in (%g, %c1, %c1) threads in (%c8, %c1, %c1)
        args(%out : memref<?xf32>, %n : index)
    return
  }
}

// -----

// `(unsigned)((n + 511) / 512)` blocks of 512 with a size_t n: the count
// truncated to 32 bits is the count below 2^41 indices, more than any
// buffer such a bound indexes.
// CHECK-LABEL: gpu.func @truncated_count
// CHECK-SAME: kernel attributes {ks.raised}
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @truncated_count(%out: memref<?xf32>, %n: i64) kernel {
      %one = arith.constant 1.0 : f32
      %bx = gpu.block_id x
      %b = arith.index_castui %bx : index to i64
      %dx = gpu.block_dim x
      %d = arith.index_castui %dx : index to i64
      %tx = gpu.thread_id x
      %t = arith.index_castui %tx : index to i64
      %0 = arith.muli %b, %d : i64
      %i = arith.addi %0, %t : i64
      %in = arith.cmpi ult, %i, %n : i64
      scf.if %in {
        %x = arith.index_castui %i : i64 to index
        memref.store %one, %out[%x] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @launch(%out: memref<?xf32>, %n: i64) {
    %c1 = arith.constant 1 : index
    %c512 = arith.constant 512 : index
    %c511_i64 = arith.constant 511 : i64
    %c512_i64 = arith.constant 512 : i64
    %0 = arith.addi %n, %c511_i64 : i64
    %1 = arith.divui %0, %c512_i64 : i64
    %2 = arith.trunci %1 : i64 to i32
    %g = arith.index_castui %2 : i32 to index
    gpu.launch_func @kernels::@truncated_count blocks in (%g, %c1, %c1) threads in (%c512, %c1, %c1)
        args(%out : memref<?xf32>, %n : i64)
    return
  }
}
