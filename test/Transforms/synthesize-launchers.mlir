// RUN: ks-opt %s -split-input-file --ks-synthesize-launchers -verify-diagnostics | FileCheck %s
// RUN: ks-opt %s -split-input-file --ks-synthesize-launchers=remarks=false --ks-raise | FileCheck %s --check-prefix=RAISE
// kernels= (only the kernels named get a launcher):
// test/Pipelines/synthesize-selected.test.

// A file of kernels alone: each kernel whose launch the raising's analysis
// can infer gets func.func @launch_<kernel>, one thread per index below its
// bound, ceil(bound / block) blocks (docs/Raising.md, "Kernels without a
// launcher").

// CHECK-LABEL: func.func @launch_rows1d(
// CHECK-SAME: %[[X:.*]]: memref<?xf32> {ks.const, ks.name = "x"}, %[[Y:.*]]: memref<?xf32> {ks.name = "y"}, %[[ROWS:.*]]: i32 {ks.name = "rows"}) attributes {ks.synthesized = "rows1d"}
// CHECK-DAG: %[[C256:.*]] = arith.constant 256 : index
// CHECK-DAG: %[[C255:.*]] = arith.constant 255 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[B:.*]] = arith.index_cast %[[ROWS]] : i32 to index
// CHECK-DAG: %[[N:.*]] = arith.addi %[[B]], %[[C255]] : index
// CHECK-DAG: %[[G:.*]] = arith.divsi %[[N]], %[[C256]] : index
// CHECK: gpu.launch_func @kernels::@rows1d blocks in (%[[G]], %[[C1]], %[[C1]]) threads in (%[[C256]], %[[C1]], %[[C1]]) args(%[[X]] : memref<?xf32>, %[[Y]] : memref<?xf32>, %[[ROWS]] : i32)
// The raising reads the launch as covering [0, rows).
// RAISE-LABEL: gpu.func @rows1d
// RAISE: scf.forall (%{{.*}}) in (%{{.*}})
// RAISE-LABEL: func.func @launch_rows1d
// RAISE: gpu.launch_func @kernels::@rows1d blocks in (%[[ONE:.*]], %[[ONE]], %[[ONE]]) threads in (%[[ONE]], %[[ONE]], %[[ONE]])

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-remark @below {{no launcher launches the kernel: wrote @launch_rows1d}}
    gpu.func @rows1d(%arg0: memref<?xf32> {ks.const, ks.name = "x"}, %arg1: memref<?xf32> {ks.name = "y"}, %arg2: i32 {ks.name = "rows"}) kernel {
      %cst = arith.constant 2.000000e+00 : f32
      %block_id_x = gpu.block_id  x
      %0 = arith.index_castui %block_id_x : index to i32
      %block_dim_x = gpu.block_dim  x
      %1 = arith.index_castui %block_dim_x : index to i32
      %2 = arith.muli %0, %1 : i32
      %thread_id_x = gpu.thread_id  x
      %3 = arith.index_castui %thread_id_x : index to i32
      %4 = arith.addi %2, %3 : i32
      %5 = arith.cmpi sge, %4, %arg2 : i32
      scf.if %5 {
      } else {
        %6 = arith.index_cast %4 : i32 to index
        %7 = memref.load %arg0[%6] : memref<?xf32>
        %8 = arith.mulf %7, %cst fastmath<contract> : f32
        memref.store %8, %arg1[%6] : memref<?xf32>
      }
      gpu.return
    }
  }
}

// -----

// Two dimensions: 16 x 16 blocks, x over the columns (N), y over the rows (M).
// CHECK-LABEL: func.func @launch_grid2d(
// CHECK-SAME: %{{.*}}: i32 {ks.name = "M"}, %[[N:.*]]: i32 {ks.name = "N"}) attributes {ks.synthesized = "grid2d"}
// CHECK: %[[NX:.*]] = arith.index_cast %[[N]] : i32 to index
// CHECK: %[[GX:.*]] = arith.divsi %{{.*}}, %[[C16:.*]] : index
// CHECK: %[[MY:.*]] = arith.index_cast %arg1 : i32 to index
// CHECK: %[[GY:.*]] = arith.divsi %{{.*}}, %{{.*}} : index
// CHECK: gpu.launch_func @kernels::@grid2d blocks in (%[[GX]], %[[GY]], %{{.*}}) threads in (%[[C16]], %{{.*}}, %{{.*}})
// RAISE-LABEL: gpu.func @grid2d
// RAISE: scf.forall (%{{.*}}, %{{.*}}) in (%{{.*}}, %{{.*}})

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-remark @below {{no launcher launches the kernel: wrote @launch_grid2d}}
    gpu.func @grid2d(%arg0: memref<?xf32> {ks.name = "c"}, %arg1: i32 {ks.name = "M"}, %arg2: i32 {ks.name = "N"}) kernel {
      %false = arith.constant false
      %cst = arith.constant 1.000000e+00 : f32
      %block_id_y = gpu.block_id  y
      %0 = arith.index_castui %block_id_y : index to i32
      %block_dim_y = gpu.block_dim  y
      %1 = arith.index_castui %block_dim_y : index to i32
      %2 = arith.muli %0, %1 : i32
      %thread_id_y = gpu.thread_id  y
      %3 = arith.index_castui %thread_id_y : index to i32
      %4 = arith.addi %2, %3 : i32
      %block_id_x = gpu.block_id  x
      %5 = arith.index_castui %block_id_x : index to i32
      %block_dim_x = gpu.block_dim  x
      %6 = arith.index_castui %block_dim_x : index to i32
      %7 = arith.muli %5, %6 : i32
      %thread_id_x = gpu.thread_id  x
      %8 = arith.index_castui %thread_id_x : index to i32
      %9 = arith.addi %7, %8 : i32
      %10 = arith.cmpi slt, %4, %arg1 : i32
      %11 = scf.if %10 -> (i1) {
        %12 = arith.cmpi slt, %9, %arg2 : i32
        scf.yield %12 : i1
      } else {
        scf.yield %false : i1
      }
      scf.if %11 {
        %12 = arith.muli %4, %arg2 overflow<nsw> : i32
        %13 = arith.addi %12, %9 overflow<nsw> : i32
        %14 = arith.index_cast %13 : i32 to index
        memref.store %cst, %arg0[%14] : memref<?xf32>
      }
      gpu.return
    }
  }
}

// -----

// The block the index fixes (blockIdx.x * 128 + threadIdx.x); an unsigned
// bound (i < n as ult) is extended and divided unsigned.
// CHECK-LABEL: func.func @launch_fixed_block(
// CHECK-DAG: %[[C128:.*]] = arith.constant 128 : index
// CHECK-DAG: %[[C127:.*]] = arith.constant 127 : index
// CHECK-DAG: %[[B:.*]] = arith.index_castui %arg1 : i32 to index
// CHECK-DAG: %[[S:.*]] = arith.addi %[[B]], %[[C127]] : index
// CHECK-DAG: %[[G:.*]] = arith.divui %[[S]], %[[C128]] : index
// CHECK: gpu.launch_func @kernels::@fixed_block blocks in (%[[G]], %{{.*}}, %{{.*}}) threads in (%[[C128]],
// RAISE-LABEL: gpu.func @fixed_block
// RAISE: scf.forall

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-remark @below {{no launcher launches the kernel: wrote @launch_fixed_block}}
    gpu.func @fixed_block(%arg0: memref<?xf32> {ks.name = "y"}, %arg1: i32 {ks.name = "n"}) kernel {
      %cst = arith.constant 0.000000e+00 : f32
      %c128_i32 = arith.constant 128 : i32
      %block_id_x = gpu.block_id  x
      %0 = arith.index_castui %block_id_x : index to i32
      %1 = arith.muli %0, %c128_i32 : i32
      %thread_id_x = gpu.thread_id  x
      %2 = arith.index_castui %thread_id_x : index to i32
      %3 = arith.addi %1, %2 : i32
      %4 = arith.cmpi ult, %3, %arg1 : i32
      scf.if %4 {
        %5 = arith.index_castui %3 : i32 to index
        memref.store %cst, %arg0[%5] : memref<?xf32>
      }
      gpu.return
    }
  }
}

// -----

// A bound computed from the arguments is computed again in the launcher.
// CHECK-LABEL: func.func @launch_quads(
// CHECK: %[[C4:.*]] = arith.constant 4 : i32
// CHECK: %[[M:.*]] = arith.muli %arg1, %[[C4]] overflow<nsw> : i32
// CHECK: %[[B:.*]] = arith.index_cast %[[M]] : i32 to index
// CHECK: arith.addi %[[B]], %{{.*}} : index
// RAISE-LABEL: gpu.func @quads
// RAISE: scf.forall

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-remark @below {{no launcher launches the kernel: wrote @launch_quads}}
    gpu.func @quads(%arg0: memref<?xf32> {ks.name = "y"}, %arg1: i32 {ks.name = "n"}) kernel {
      %cst = arith.constant 1.000000e+00 : f32
      %c4_i32 = arith.constant 4 : i32
      %block_id_x = gpu.block_id  x
      %0 = arith.index_castui %block_id_x : index to i32
      %block_dim_x = gpu.block_dim  x
      %1 = arith.index_castui %block_dim_x : index to i32
      %2 = arith.muli %0, %1 : i32
      %thread_id_x = gpu.thread_id  x
      %3 = arith.index_castui %thread_id_x : index to i32
      %4 = arith.addi %2, %3 : i32
      %5 = arith.muli %arg1, %c4_i32 overflow<nsw> : i32
      %6 = arith.cmpi slt, %4, %5 : i32
      scf.if %6 {
        %7 = arith.index_cast %4 : i32 to index
        memref.store %cst, %arg0[%7] : memref<?xf32>
      }
      gpu.return
    }
  }
}

// -----

// Kernels whose launch cannot be inferred keep none.
// CHECK-NOT: func.func

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-remark @below {{no launcher written: blockIdx.z is used alone: how many bloc}}
    gpu.func @batched(%arg0: memref<?xf32> {ks.name = "y"}, %arg1: i32 {ks.name = "n"}) kernel {
      %cst = arith.constant 1.000000e+00 : f32
      %block_id_x = gpu.block_id  x
      %0 = arith.index_castui %block_id_x : index to i32
      %block_dim_x = gpu.block_dim  x
      %1 = arith.index_castui %block_dim_x : index to i32
      %2 = arith.muli %0, %1 : i32
      %thread_id_x = gpu.thread_id  x
      %3 = arith.index_castui %thread_id_x : index to i32
      %4 = arith.addi %2, %3 : i32
      %5 = arith.cmpi slt, %4, %arg1 : i32
      scf.if %5 {
        %block_id_z = gpu.block_id  z
        %6 = arith.index_castui %block_id_z : index to i32
        %7 = arith.muli %6, %arg1 : i32
        %8 = arith.addi %7, %4 : i32
        %9 = arith.index_castui %8 : i32 to index
        memref.store %cst, %arg0[%9] : memref<?xf32>
      }
      gpu.return
    }
    // expected-remark @below {{no launcher written: the kernel synchronizes or communicates}}
    gpu.func @synced(%arg0: memref<?xf32> {ks.name = "y"}, %arg1: i32 {ks.name = "n"}) kernel {
      %cst = arith.constant 1.000000e+00 : f32
      %block_id_x = gpu.block_id  x
      %0 = arith.index_castui %block_id_x : index to i32
      %block_dim_x = gpu.block_dim  x
      %1 = arith.index_castui %block_dim_x : index to i32
      %2 = arith.muli %0, %1 : i32
      %thread_id_x = gpu.thread_id  x
      %3 = arith.index_castui %thread_id_x : index to i32
      %4 = arith.addi %2, %3 : i32
      gpu.barrier
      %5 = arith.cmpi slt, %4, %arg1 : i32
      scf.if %5 {
        %6 = arith.index_cast %4 : i32 to index
        memref.store %cst, %arg0[%6] : memref<?xf32>
      }
      gpu.return
    }
    // expected-remark @below {{no launcher written: more than one statement with side effec}}
    gpu.func @loaded_bound(%arg0: memref<?xf32> {ks.name = "y"}, %arg1: memref<?xi32> {ks.const, ks.name = "n"}) kernel {
      %cst = arith.constant 1.000000e+00 : f32
      %c0 = arith.constant 0 : index
      %block_id_x = gpu.block_id  x
      %0 = arith.index_castui %block_id_x : index to i32
      %block_dim_x = gpu.block_dim  x
      %1 = arith.index_castui %block_dim_x : index to i32
      %2 = arith.muli %0, %1 : i32
      %thread_id_x = gpu.thread_id  x
      %3 = arith.index_castui %thread_id_x : index to i32
      %4 = arith.addi %2, %3 : i32
      %5 = memref.load %arg1[%c0] : memref<?xi32>
      %6 = arith.cmpi slt, %4, %5 : i32
      scf.if %6 {
        %7 = arith.index_cast %4 : i32 to index
        memref.store %cst, %arg0[%7] : memref<?xf32>
      }
      gpu.return
    }
    // expected-remark @below {{no launcher written: the kernel's work is not inside a bound}}
    gpu.func @unguarded(%arg0: memref<?xf32> {ks.name = "y"}) kernel {
      %cst = arith.constant 1.000000e+00 : f32
      %block_id_x = gpu.block_id  x
      %0 = arith.index_castui %block_id_x : index to i32
      %block_dim_x = gpu.block_dim  x
      %1 = arith.index_castui %block_dim_x : index to i32
      %2 = arith.muli %0, %1 : i32
      %thread_id_x = gpu.thread_id  x
      %3 = arith.index_castui %thread_id_x : index to i32
      %4 = arith.addi %2, %3 : i32
      %5 = arith.index_castui %4 : i32 to index
      memref.store %cst, %arg0[%5] : memref<?xf32>
      gpu.return
    }
  }
}

// -----

// A kernel the module launches is left alone (and says nothing); a new
// launcher's name does not take one that exists.
// CHECK-LABEL: func.func @launch_other(
// CHECK: gpu.launch_func @kernels::@launched
// CHECK-LABEL: func.func @launch_other_0(
// CHECK-SAME: attributes {ks.synthesized = "other"}
// CHECK: gpu.launch_func @kernels::@other
// CHECK-NOT: func.func

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @launched(%arg0: memref<?xf32> {ks.name = "y"}, %arg1: i32 {ks.name = "n"}) kernel {
      %cst = arith.constant 1.000000e+00 : f32
      %block_id_x = gpu.block_id  x
      %0 = arith.index_castui %block_id_x : index to i32
      %block_dim_x = gpu.block_dim  x
      %1 = arith.index_castui %block_dim_x : index to i32
      %2 = arith.muli %0, %1 : i32
      %thread_id_x = gpu.thread_id  x
      %3 = arith.index_castui %thread_id_x : index to i32
      %4 = arith.addi %2, %3 : i32
      %5 = arith.cmpi slt, %4, %arg1 : i32
      scf.if %5 {
        %6 = arith.index_cast %4 : i32 to index
        memref.store %cst, %arg0[%6] : memref<?xf32>
      }
      gpu.return
    }
    // expected-remark @below {{no launcher launches the kernel: wrote @launch_other_0}}
    gpu.func @other(%arg0: memref<?xf32> {ks.name = "y"}, %arg1: i32 {ks.name = "n"}) kernel {
      %cst = arith.constant 2.000000e+00 : f32
      %block_id_x = gpu.block_id  x
      %0 = arith.index_castui %block_id_x : index to i32
      %block_dim_x = gpu.block_dim  x
      %1 = arith.index_castui %block_dim_x : index to i32
      %2 = arith.muli %0, %1 : i32
      %thread_id_x = gpu.thread_id  x
      %3 = arith.index_castui %thread_id_x : index to i32
      %4 = arith.addi %2, %3 : i32
      %5 = arith.cmpi slt, %4, %arg1 : i32
      scf.if %5 {
        %6 = arith.index_cast %4 : i32 to index
        memref.store %cst, %arg0[%6] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @launch_other(%arg0: memref<?xf32> {ks.name = "y"}, %arg1: i32 {ks.name = "n"}) {
    %c64 = arith.constant 64 : index
    %c1 = arith.constant 1 : index
    %c64_i32 = arith.constant 64 : i32
    %c63_i32 = arith.constant 63 : i32
    %0 = arith.addi %arg1, %c63_i32 overflow<nsw> : i32
    %1 = arith.divsi %0, %c64_i32 : i32
    %2 = arith.index_castui %1 : i32 to index
    gpu.launch_func  @kernels::@launched blocks in (%2, %c1, %c1) threads in (%c64, %c1, %c1)  args(%arg0 : memref<?xf32>, %arg1 : i32)
    return
  }
}

// -----

// Within CUDA's limits: a kernel indexing z alone gets 64 threads along z
// (not 256); one whose index fixes 128 along x gets 8 along y (not 16).
// CHECK-LABEL: func.func @launch_zonly(
// CHECK: gpu.launch_func @kernels::@zonly blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%c1, %c1, %c64)
// CHECK-LABEL: func.func @launch_wide_x(
// CHECK: gpu.launch_func @kernels::@wide_x blocks in ({{.*}}) threads in (%c128, %c8, %c1)
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-remark @below {{wrote @launch_zonly, one thread per index below the bound, 1x1x64 threads per block}}
    gpu.func @zonly(%arg0: memref<?xf32> {ks.name = "y"}, %arg1: i32 {ks.name = "n"}) kernel {
      %cst = arith.constant 1.000000e+00 : f32
      %block_id_z = gpu.block_id  z
      %0 = arith.index_castui %block_id_z : index to i32
      %block_dim_z = gpu.block_dim  z
      %1 = arith.index_castui %block_dim_z : index to i32
      %2 = arith.muli %0, %1 : i32
      %thread_id_z = gpu.thread_id  z
      %3 = arith.index_castui %thread_id_z : index to i32
      %4 = arith.addi %2, %3 : i32
      %5 = arith.cmpi slt, %4, %arg1 : i32
      scf.if %5 {
        %6 = arith.index_cast %4 : i32 to index
        memref.store %cst, %arg0[%6] : memref<?xf32>
      }
      gpu.return
    }
    // expected-remark @below {{wrote @launch_wide_x, one thread per index below the bound, 128x8x1 threads per block}}
    gpu.func @wide_x(%arg0: memref<?xf32> {ks.name = "y"}, %arg1: i32 {ks.name = "n"}, %arg2: i32 {ks.name = "m"}) kernel {
      %false = arith.constant false
      %cst = arith.constant 1.000000e+00 : f32
      %c128_i32 = arith.constant 128 : i32
      %block_id_x = gpu.block_id  x
      %0 = arith.index_castui %block_id_x : index to i32
      %1 = arith.muli %0, %c128_i32 : i32
      %thread_id_x = gpu.thread_id  x
      %2 = arith.index_castui %thread_id_x : index to i32
      %3 = arith.addi %1, %2 : i32
      %block_id_y = gpu.block_id  y
      %4 = arith.index_castui %block_id_y : index to i32
      %block_dim_y = gpu.block_dim  y
      %5 = arith.index_castui %block_dim_y : index to i32
      %6 = arith.muli %4, %5 : i32
      %thread_id_y = gpu.thread_id  y
      %7 = arith.index_castui %thread_id_y : index to i32
      %8 = arith.addi %6, %7 : i32
      %9 = arith.cmpi slt, %3, %arg1 : i32
      %10 = scf.if %9 -> (i1) {
        %11 = arith.cmpi slt, %8, %arg2 : i32
        scf.yield %11 : i1
      } else {
        scf.yield %false : i1
      }
      scf.if %10 {
        %11 = arith.muli %8, %arg1 overflow<nsw> : i32
        %12 = arith.addi %11, %3 overflow<nsw> : i32
        %13 = arith.index_cast %12 : i32 to index
        memref.store %cst, %arg0[%13] : memref<?xf32>
      }
      gpu.return
    }
  }
}

