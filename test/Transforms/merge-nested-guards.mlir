// RUN: ks-opt %s -split-input-file --ks-merge-nested-guards | FileCheck %s

// An early return on the rows (`if (row >= rows) {} else {...}`), then the
// column check: one guard on !(row >= rows) && col < cols, the pure ops
// that compute the column check hoisted above it.
// CHECK-LABEL: gpu.func @early_return
// CHECK: %[[OUT:.*]] = arith.cmpi sge, %[[ROW:.*]], %arg2 : i32
// CHECK: %[[ROWOK:.*]] = arith.xori %[[OUT]], %true
// CHECK: %[[IN:.*]] = arith.cmpi slt, %[[COL:.*]], %arg3 : i32
// CHECK: %[[BOTH:.*]] = arith.andi %[[ROWOK]], %[[IN]]
// CHECK: scf.if %[[BOTH]] {
// CHECK-NEXT: arith.muli
// CHECK: memref.store
// CHECK-NEXT: }
// CHECK-NEXT: gpu.return
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @early_return(%src: memref<?xf32>, %dst: memref<?xf32>, %rows: i32, %cols: i32) kernel {
      %by = gpu.block_id y
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %tx = gpu.thread_id x
      %r0 = arith.index_castui %by : index to i32
      %r1 = arith.index_castui %ty : index to i32
      %row = arith.addi %r0, %r1 : i32
      %c0 = arith.index_castui %bx : index to i32
      %c1 = arith.index_castui %tx : index to i32
      %col = arith.addi %c0, %c1 : i32
      %out = arith.cmpi sge, %row, %rows : i32
      scf.if %out {
      } else {
        %in = arith.cmpi slt, %col, %cols : i32
        scf.if %in {
          %m = arith.muli %row, %cols : i32
          %e = arith.addi %m, %col : i32
          %i = arith.index_cast %e : i32 to index
          %v = memref.load %src[%i] : memref<?xf32>
          memref.store %v, %dst[%i] : memref<?xf32>
        }
      }
      gpu.return
    }
  }
}

// -----

// Three levels, each `if (index < bound) {`: one guard on their
// conjunction.
// CHECK-LABEL: gpu.func @three_levels
// CHECK: %[[AB:.*]] = arith.andi %{{.*}}, %{{.*}} : i1
// CHECK: %[[ABC:.*]] = arith.andi %[[AB]], %{{.*}} : i1
// CHECK: scf.if %[[ABC]] {
// CHECK-NEXT: memref.store
// CHECK-NOT: scf.if
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @three_levels(%dst: memref<?xf32>, %n: index, %a: i1, %b: i1, %c: i1) kernel {
      %one = arith.constant 1.0 : f32
      %tx = gpu.thread_id x
      scf.if %a {
        scf.if %b {
          scf.if %c {
            memref.store %one, %dst[%tx] : memref<?xf32>
          }
        }
      }
      gpu.return
    }
  }
}

// -----

// Left alone: work beside the inner guard (a store), a division that may
// trap before it, both branches of the outer check holding work.
// CHECK-LABEL: gpu.func @not_merged
// CHECK: scf.if %arg2 {
// CHECK-NEXT: memref.store
// CHECK-NEXT: scf.if %arg3 {
// CHECK: scf.if %arg2 {
// CHECK-NEXT: arith.divsi
// CHECK-NEXT: scf.if %arg3 {
// CHECK: scf.if %arg2 {
// CHECK-NEXT: scf.if %arg3 {
// CHECK: } else {
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @not_merged(%dst: memref<?xi32>, %n: i32, %a: i1, %b: i1) kernel {
      %one = arith.constant 1 : i32
      %tx = gpu.thread_id x
      scf.if %a {
        memref.store %one, %dst[%tx] : memref<?xi32>
        scf.if %b {
          memref.store %one, %dst[%tx] : memref<?xi32>
        }
      }
      scf.if %a {
        %q = arith.divsi %one, %n : i32
        scf.if %b {
          memref.store %q, %dst[%tx] : memref<?xi32>
        }
      }
      scf.if %a {
        scf.if %b {
          memref.store %one, %dst[%tx] : memref<?xi32>
        }
      } else {
        memref.store %one, %dst[%tx] : memref<?xi32>
      }
      gpu.return
    }
  }
}
