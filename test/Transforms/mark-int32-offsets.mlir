// RUN: ks-opt %s -split-input-file --ks-mark-int32-offsets | FileCheck %s

// Subscripts that are the source's `int` values (sign-extended i32) or i32
// constants: both buffers are marked; the scalar is not.
// CHECK-LABEL: gpu.func @int_subscripts
// CHECK-SAME: (%{{.*}}: memref<?xf32> {ks.int32_offsets}, %{{.*}}: memref<?xf32> {ks.int32_offsets}, %{{.*}}: i32)
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @int_subscripts(%x: memref<?xf32>, %y: memref<?xf32>, %n: i32) kernel {
      %tid = gpu.thread_id x
      %t = arith.index_castui %tid : index to i32
      %p = arith.muli %t, %n overflow<nsw> : i32
      %i = arith.index_cast %p : i32 to index
      %c3 = arith.constant 3 : index
      %a = memref.load %x[%i] : memref<?xf32>
      %b = memref.load %x[%c3] : memref<?xf32>
      %s = arith.addf %a, %b : f32
      memref.store %s, %y[%i] : memref<?xf32>
      gpu.return
    }
  }
}

// -----

// Pointer arithmetic (`x + r * cols`, then `[j]`) adds two sign-extended
// ints in 64 bits: the sum may not fit in an int, so x is not marked; y,
// indexed by an int, is.
// CHECK-LABEL: gpu.func @pointer_arithmetic
// CHECK-SAME: (%{{.*}}: memref<?xf32>, %{{.*}}: memref<?xf32> {ks.int32_offsets}, %{{.*}}: i32, %{{.*}}: i32)
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @pointer_arithmetic(%x: memref<?xf32>, %y: memref<?xf32>, %r: i32, %j: i32) kernel {
      %rc = arith.index_cast %r : i32 to index
      %jc = arith.index_cast %j : i32 to index
      %o = arith.addi %rc, %jc : index
      %v = memref.load %x[%o] : memref<?xf32>
      memref.store %v, %y[%jc] : memref<?xf32>
      gpu.return
    }
  }
}

// -----

// A 64-bit subscript (size_t, long), an unsigned index_castui of an i32
// (an `unsigned` subscript may reach 2^32 - 1), a constant beyond 2^31, and
// a buffer used by anything but a load or store: none is marked.
// CHECK-LABEL: gpu.func @not_int
// CHECK-SAME: (%{{.*}}: memref<?xf32>, %{{.*}}: memref<?xf32>, %{{.*}}: memref<?xf32>, %{{.*}}: memref<?xf32>, %{{.*}}: i64, %{{.*}}: i32)
// CHECK-NOT: ks.int32_offsets
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @not_int(%a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>, %d: memref<?xf32>,
                      %k: i64, %u: i32) kernel {
      %i = arith.index_cast %k : i64 to index
      %v = memref.load %a[%i] : memref<?xf32>
      %ui = arith.index_castui %u : i32 to index
      memref.store %v, %b[%ui] : memref<?xf32>
      %big = arith.constant 4294967296 : index
      memref.store %v, %c[%big] : memref<?xf32>
      %view = memref.reinterpret_cast %d to offset: [0], sizes: [4], strides: [1] : memref<?xf32> to memref<4xf32>
      gpu.return
    }
  }
}
