// RUN: ks-opt %s -split-input-file --ks-bare-pointer-abi | FileCheck %s

// A lifted kernel's dynamic 1-D memrefs become pointers; scalars stay.
// CHECK-LABEL: gpu.func @scale
// CHECK-SAME: (%[[X:.*]]: !llvm.ptr {llvm.align = 4 : i64}, %[[Y:.*]]: !llvm.ptr<1> {llvm.align = 4 : i64}, %[[N:.*]]: i32) kernel
// CHECK: %[[D0:.*]] = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK: llvm.insertvalue %[[X]], %[[D0]][0]
// CHECK: %[[XM:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> to memref<?xf32>
// CHECK: llvm.insertvalue %[[Y]], %{{.*}}[0] : !llvm.struct<(ptr<1>, ptr<1>, i64, array<1 x i64>, array<1 x i64>)>
// CHECK: %[[YM:.*]] = builtin.unrealized_conversion_cast %{{.*}} to memref<?xf32, 1>
// CHECK: memref.load %[[XM]]
// CHECK: memref.store %{{.*}}, %[[YM]]
// The launcher passes the aligned pointers.
// CHECK-LABEL: func.func @launch
// CHECK-SAME: (%[[A:.*]]: memref<?xf32>, %[[B:.*]]: memref<?xf32, 1>, %[[M:.*]]: i32)
// CHECK: %[[AI:.*]] = memref.extract_aligned_pointer_as_index %[[A]]
// CHECK: %[[AL:.*]] = arith.index_cast %[[AI]] : index to i64
// CHECK: %[[AP:.*]] = llvm.inttoptr %[[AL]] : i64 to !llvm.ptr
// CHECK: %[[BI:.*]] = memref.extract_aligned_pointer_as_index %[[B]]
// CHECK: %[[BP:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<1>
// CHECK: gpu.launch_func @kernels::@scale {{.*}} args(%[[AP]] : !llvm.ptr, %[[BP]] : !llvm.ptr<1>, %[[M]] : i32)
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%x: memref<?xf32>, %y: memref<?xf32, 1>, %n: i32) kernel {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<?xf32>
      memref.store %v, %y[%i] : memref<?xf32, 1>
      gpu.return
    }
  }
  func.func @launch(%a: memref<?xf32>, %b: memref<?xf32, 1>, %m: i32) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%a : memref<?xf32>, %b : memref<?xf32, 1>, %m : i32)
    return
  }
}

// -----

// Statically shaped memrefs are left to upstream's bare-pointer convention,
// and non-kernel functions are untouched.
// CHECK-LABEL: gpu.func @tile
// CHECK-SAME: (%{{.*}}: memref<16xf32>) kernel
// CHECK-NOT: llvm.mlir.poison
// CHECK-LABEL: gpu.func @helper
// CHECK-SAME: (%{{.*}}: memref<?xf32>)
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @tile(%x: memref<16xf32>) kernel {
      gpu.return
    }
    gpu.func @helper(%x: memref<?xf32>) {
      gpu.return
    }
  }
}

// -----

// What the source proves about a pointer reaches LLVM: the element's
// alignment always, noalias for __restrict__, readonly for
// const __restrict__ (the read-only load path); nothing for const alone.
// CHECK-LABEL: gpu.func @restricted
// CHECK-SAME: (%{{.*}}: !llvm.ptr {ks.const, ks.restrict, llvm.align = 4 : i64, llvm.noalias, llvm.readonly},
// CHECK-SAME: %{{.*}}: !llvm.ptr {ks.restrict, llvm.align = 8 : i64, llvm.noalias},
// CHECK-SAME: %{{.*}}: !llvm.ptr {ks.const, llvm.align = 2 : i64}) kernel
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @restricted(%x: memref<?xf32> {ks.const, ks.restrict}, %y: memref<?xf64> {ks.restrict},
                         %z: memref<?xf16> {ks.const}) kernel {
      %i = gpu.thread_id x
      %v = memref.load %y[%i] : memref<?xf64>
      memref.store %v, %y[%i] : memref<?xf64>
      gpu.return
    }
  }
}
