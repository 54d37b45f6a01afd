// RUN: ks-opt %s -split-input-file --ks-narrow-offsets --canonicalize --cse | FileCheck %s
// RUN: ks-opt %s -split-input-file --ks-narrow-offsets=loop-offsets=true --canonicalize --cse | FileCheck %s --check-prefix=LOOPS

// A 3-D view of a marked buffer: the offset (z * s + y * n + x + the view's
// offset) is computed in i32 from the source's i32 values and the thread id;
// the access goes to the 1-D buffer at its sign extension. The subscripts'
// sum comes first and the view's offset last, so the load and the store
// (views differing only in their offset) share it. The guard's compare
// stays in 64 bits.
// CHECK-LABEL: gpu.func @view3d
// CHECK-SAME: (%[[IN:.*]]: memref<?xf32> {ks.int32_offsets}, %[[OUT:.*]]: memref<?xf32> {ks.int32_offsets}, %[[N:.*]]: i32)
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : i32
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : i32
// CHECK-DAG: %[[S:.*]] = arith.muli %[[N]], %[[N]] overflow<nsw> : i32
// CHECK-DAG: %[[TX:.*]] = gpu.thread_id x
// CHECK-DAG: %[[T:.*]] = arith.index_cast %[[TX]] : index to i32
// CHECK-DAG: %[[Y:.*]] = arith.muli %{{.*}}, %[[C4]] : i32
// CHECK: arith.cmpi ult, %[[TX]], %{{.*}} : index
// CHECK: %[[Z:.*]] = arith.muli %[[S]], %[[C2]] : i32
// CHECK: %[[YN:.*]] = arith.muli %[[Y]], %[[N]] : i32
// CHECK: %[[ZY:.*]] = arith.addi %[[Z]], %[[YN]] : i32
// CHECK: %[[SUM:.*]] = arith.addi %[[ZY]], %[[T]] : i32
// CHECK: %[[OFF:.*]] = arith.addi %[[SUM]], %[[N]] : i32
// CHECK: %[[I:.*]] = arith.index_cast %[[OFF]] : i32 to index
// CHECK: %[[A:.*]] = memref.load %[[IN]][%[[I]]] : memref<?xf32>
// CHECK: %[[J:.*]] = arith.index_cast %[[SUM]] : i32 to index
// CHECK: memref.store %[[A]], %[[OUT]][%[[J]]] : memref<?xf32>
// CHECK-NOT: memref.reinterpret_cast
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @view3d(%in: memref<?xf32> {ks.int32_offsets}, %out: memref<?xf32> {ks.int32_offsets},
                     %n: i32) kernel {
      %ni = arith.index_cast %n : i32 to index
      %s32 = arith.muli %n, %n overflow<nsw> : i32
      %s = arith.index_cast %s32 : i32 to index
      %v = memref.reinterpret_cast %in to offset: [%ni], sizes: [%ni, %ni, %ni], strides: [%s, %ni, 1]
          : memref<?xf32> to memref<?x?x?xf32, strided<[?, ?, 1], offset: ?>>
      %w = memref.reinterpret_cast %out to offset: [0], sizes: [%ni, %ni, %ni], strides: [%s, %ni, 1]
          : memref<?xf32> to memref<?x?x?xf32, strided<[?, ?, 1]>>
      %x = gpu.thread_id x
      %by = gpu.block_id y
      %c4 = arith.constant 4 : index
      %y = arith.muli %by, %c4 : index
      %z = arith.constant 2 : index
      %ok = arith.cmpi ult, %x, %ni : index
      scf.if %ok {
        %a = memref.load %v[%z, %y, %x] : memref<?x?x?xf32, strided<[?, ?, 1], offset: ?>>
        memref.store %a, %w[%z, %y, %x] : memref<?x?x?xf32, strided<[?, ?, 1]>>
      }
      gpu.return
    }
  }
}

// -----

// A 1-D access of the marked buffer and a vector load from a view of it:
// both narrowed, the vector's alignment kept. The unmarked buffer stays.
// CHECK-LABEL: gpu.func @vectors
// CHECK-SAME: (%[[X:.*]]: memref<?xf32> {ks.int32_offsets}, %[[U:.*]]: memref<?xf32>, %{{.*}}: i32)
// CHECK: %[[OFF:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK: vector.load %[[X]][%[[OFF]]] {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
// CHECK: memref.load %[[U]][%{{.*}}] : memref<?xf32>
// CHECK: %[[J:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK: memref.store %{{.*}}, %[[X]][%[[J]]] : memref<?xf32>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @vectors(%x: memref<?xf32> {ks.int32_offsets}, %u: memref<?xf32>, %cols: i32) kernel {
      %c = arith.index_cast %cols : i32 to index
      %rows = memref.reinterpret_cast %x to offset: [0], sizes: [%c, %c], strides: [%c, 1]
          : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      %r = gpu.block_id x
      %t = gpu.thread_id x
      %c4 = arith.constant 4 : index
      %j = arith.muli %t, %c4 : index
      %a = vector.load %rows[%r, %j] {alignment = 16} : memref<?x?xf32, strided<[?, 1]>>, vector<4xf32>
      %e = vector.extract %a[0] : f32 from vector<4xf32>
      %f = memref.load %u[%j] : memref<?xf32>
      %g = arith.addf %e, %f : f32
      memref.store %g, %x[%j] : memref<?xf32>
      gpu.return
    }
  }
}

// -----

// In a loop: the load whose subscript advances with the induction variable
// keeps its 64-bit offset (LLVM strength-reduces it to a pointer
// increment); the store, whose subscript is invariant of the loop, is
// narrowed. With loop-offsets=true both are.
// CHECK-LABEL: gpu.func @row_loop
// CHECK-SAME: (%[[X:.*]]: memref<?xf32> {ks.int32_offsets}, %[[Y:.*]]: memref<?xf32> {ks.int32_offsets}, %{{.*}}: i32)
// CHECK: scf.for %[[J:.*]] = {{.*}} iter_args
// CHECK:   memref.load %{{.*}}[%{{.*}}, %[[J]]] : memref<?x?xf32, strided<[?, 1]>>
// CHECK: %[[RC:.*]] = arith.muli %{{.*}}, %{{.*}} : i32
// CHECK: %[[RT:.*]] = arith.addi %[[RC]], %{{.*}} : i32
// CHECK: %[[R:.*]] = arith.index_cast %[[RT]] : i32 to index
// CHECK: memref.store %{{.*}}, %[[Y]][%[[R]]] : memref<?xf32>
// LOOPS-LABEL: gpu.func @row_loop
// LOOPS: scf.for
// LOOPS:   %[[I:.*]] = arith.index_cast %{{.*}} : i32 to index
// LOOPS:   memref.load %{{.*}}[%[[I]]] : memref<?xf32>
// LOOPS: memref.store
// LOOPS-NOT: memref.reinterpret_cast
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @row_loop(%x: memref<?xf32> {ks.int32_offsets}, %y: memref<?xf32> {ks.int32_offsets},
                       %cols: i32) kernel {
      %c = arith.index_cast %cols : i32 to index
      %rows = memref.reinterpret_cast %x to offset: [0], sizes: [%c, %c], strides: [%c, 1]
          : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      %r = gpu.block_id x
      %c0 = arith.constant 0 : index
      %c32 = arith.constant 32 : index
      %zero = arith.constant 0.0 : f32
      %t = gpu.thread_id x
      %sum = scf.for %j = %t to %c step %c32 iter_args(%acc = %zero) -> (f32) {
        %v = memref.load %rows[%r, %j] : memref<?x?xf32, strided<[?, 1]>>
        %a = arith.addf %acc, %v : f32
        scf.yield %a : f32
      }
      %partial = memref.reinterpret_cast %y to offset: [0], sizes: [%c, %c], strides: [%c, 1]
          : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      memref.store %sum, %partial[%r, %t] : memref<?x?xf32, strided<[?, 1]>>
      gpu.return
    }
  }
}

// -----

// A load marked ks.int32_loop_offsets (the interleaved row reduction's walk
// down a column, rows a runtime stride apart) is narrowed although its
// subscript varies with the loop, and loses the mark; the unmarked load
// beside it keeps its 64-bit offset.
// CHECK-LABEL: gpu.func @column_loop
// CHECK: scf.for %[[I:.*]] = {{.*}} iter_args
// CHECK:   %[[IW:.*]] = arith.index_cast %[[I]] : index to i32
// CHECK:   %[[M:.*]] = arith.muli %[[IW]], %{{.*}} : i32
// CHECK:   %[[O:.*]] = arith.addi %[[M]], %{{.*}} : i32
// CHECK:   %[[L:.*]] = arith.index_cast %[[O]] : i32 to index
// CHECK:   memref.load %{{.*}}[%[[L]]] : memref<?xf32>
// CHECK-NOT: ks.int32_loop_offsets
// CHECK:   memref.load %{{.*}}[%[[I]], %{{.*}}] : memref<?x?xf32, strided<[?, 1]>>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @column_loop(%x: memref<?xf32> {ks.int32_offsets}, %y: memref<?xf32> {ks.int32_offsets},
                          %rows: index, %cols: index) kernel {
      %cols2d = memref.reinterpret_cast %x to offset: [0], sizes: [%rows, %cols], strides: [%cols, 1]
          : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      %c = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f32
      %sum = scf.for %i = %c0 to %rows step %c1 iter_args(%acc = %zero) -> (f32) {
        %v = memref.load %cols2d[%i, %c] {ks.int32_loop_offsets} : memref<?x?xf32, strided<[?, 1]>>
        %w = memref.load %cols2d[%i, %c] : memref<?x?xf32, strided<[?, 1]>>
        %a = arith.addf %acc, %v : f32
        %b = arith.addf %a, %w : f32
        scf.yield %b : f32
      }
      memref.store %sum, %y[%c] : memref<?xf32>
      gpu.return
    }
  }
}
