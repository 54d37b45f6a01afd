// RUN: ks-opt %s -split-input-file --transform-interpreter --canonicalize --cse | FileCheck %s
// RUN: ks-opt %s -split-input-file --transform-interpreter --canonicalize --cse | FileCheck %s --check-prefix=MARKS

// Only the interleaved form's loads are marked for 32-bit offsets in loops
// (the rows' own loads, a constant stride apart, keep their 64-bit offsets:
// lib/Transforms/Int32Offsets.cpp).
// MARKS-NOT: ks.int32_loop_offsets
// MARKS-LABEL: gpu.func @col_sum
// MARKS-COUNT-1: {ks.int32_loop_offsets}
// MARKS-NOT: ks.int32_loop_offsets

// A warp per row, 4 rows per block, 128-bit loads: the max loop split over
// the lanes (4 consecutive elements each, 128 per turn), its partials from
// maxnumf's neutral element combined by a butterfly of 5 shuffles, then
// with the loop's init; the normalizing loop split the same way, its loads
// issued before its arithmetic, its stores kept in every lane: 128 bits at
// once where the lane's 4 elements are in the row and aligned (the flag of
// y's address and row start, computed before the loop), else one by one,
// predicated. A group past the last row takes the last row with empty loops.
// CHECK-LABEL: gpu.func @softmax_like
// CHECK-SAME: known_block_size = array<i32: 128, 1, 1>, ks.schedule = "simt_row_reduction"
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[LANE:.*]] = arith.remui %[[TID]], %c32
// CHECK: %[[GROUP:.*]] = arith.divui %[[TID]], %c32
// CHECK: %[[ROW:.*]] = arith.addi %{{.*}}, %[[GROUP]]
// CHECK: %[[VALID:.*]] = arith.cmpi ult, %[[ROW]], %arg2
// CHECK: %[[CLAMPED:.*]] = arith.select %[[VALID]], %[[ROW]],
// CHECK: %[[N:.*]] = arith.select %{{.*}}, %arg3, %c0
// CHECK: memref.extract_aligned_pointer_as_index %arg0
// CHECK: %[[START:.*]] = arith.muli %[[LANE]], %c4
// CHECK: %[[MAX:.*]] = scf.for %[[B:.*]] = %[[START]] to %[[N]] step %c128 iter_args(%{{.*}} = %cst
// CHECK: vector.load %[[X:.*]][%[[CLAMPED]], %[[B]]] {alignment = 16 : i64} : memref<?x?xf32, strided<[?, 1]>>, vector<4xf32>
// CHECK: arith.maxnumf
// CHECK: gpu.shuffle  xor %{{.*}}, %c16_i32, %c32_i32
// CHECK: gpu.shuffle  xor %{{.*}}, %c8_i32, %c32_i32
// CHECK: gpu.shuffle  xor %{{.*}}, %c4_i32, %c32_i32
// CHECK: gpu.shuffle  xor %{{.*}}, %c2_i32, %c32_i32
// CHECK: gpu.shuffle  xor %{{.*}}, %c1_i32, %c32_i32
// CHECK: %[[ROWMAX:.*]] = arith.maxnumf %{{.*}}, %cst{{.*}} : f32
// CHECK: %[[YPTR:.*]] = memref.extract_aligned_pointer_as_index %arg1
// CHECK: %[[YMOD:.*]] = arith.remui %[[YPTR]], %c16
// CHECK: %[[YALIGNED:.*]] = arith.cmpi eq, %[[YMOD]], %c0
// CHECK: %[[YFLAG:.*]] = arith.andi %[[YALIGNED]], %{{.*}} : i1
// CHECK: scf.for %{{.*}} = %[[START]] to %[[N]] step %c128 {
// CHECK: vector.load %[[X]]
// CHECK: %[[D0:.*]] = arith.subf %{{.*}}, %[[ROWMAX]]
// CHECK: %[[D1:.*]] = arith.subf %{{.*}}, %[[ROWMAX]]
// CHECK: %[[D2:.*]] = arith.subf %{{.*}}, %[[ROWMAX]]
// CHECK: %[[D3:.*]] = arith.subf %{{.*}}, %[[ROWMAX]]
// CHECK: %[[WHOLE:.*]] = arith.andi %[[LAST:.*]], %[[YFLAG]] : i1
// CHECK: scf.if %[[WHOLE]] {
// CHECK: %[[VEC:.*]] = vector.from_elements %[[D0]], %[[D1]], %[[D2]], %[[D3]] : vector<4xf32>
// CHECK: vector.store %[[VEC]], %[[Y:.*]][%[[CLAMPED]], %[[J:.*]]] {alignment = 16 : i64}
// CHECK: } else {
// CHECK-NEXT: memref.store %[[D0]], %[[Y]][%[[CLAMPED]], %[[J]]]
// CHECK: scf.if
// CHECK-NEXT: memref.store %[[D1]], %[[Y]][%[[CLAMPED]],
// CHECK: scf.if
// CHECK-NEXT: memref.store %[[D2]], %[[Y]][%[[CLAMPED]],
// CHECK: scf.if %[[LAST]] {
// CHECK-NEXT: memref.store %[[D3]], %[[Y]][%[[CLAMPED]],
// CHECK-NOT: gpu.shuffle
// CHECK: gpu.return
// CHECK-LABEL: func.func @launch
// CHECK: %[[G:.*]] = arith.ceildivui %arg2, %c4
// CHECK: gpu.launch_func @kernels::@softmax_like blocks in (%[[G]], %c1{{.*}}, %c1{{.*}}) threads in (%c128{{.*}}, %c1{{.*}}, %c1{{.*}})
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @softmax_like(%x0: memref<?xf32>, %y0: memref<?xf32>, %rows: index, %cols: index) kernel attributes {ks.raised} {
      %x = memref.reinterpret_cast %x0 to offset: [0], sizes: [%rows, %cols], strides: [%cols, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      %y = memref.reinterpret_cast %y0 to offset: [0], sizes: [%rows, %cols], strides: [%cols, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %ninf = arith.constant 0xFF800000 : f32
      scf.forall (%r) in (%rows) {
        %m = scf.for %j = %c0 to %cols step %c1 iter_args(%acc = %ninf) -> (f32) {
          %v = memref.load %x[%r, %j] : memref<?x?xf32, strided<[?, 1]>>
          %n = arith.maxnumf %acc, %v : f32
          scf.yield %n : f32
        }
        scf.for %j = %c0 to %cols step %c1 {
          %v = memref.load %x[%r, %j] : memref<?x?xf32, strided<[?, 1]>>
          %d = arith.subf %v, %m : f32
          memref.store %d, %y[%r, %j] : memref<?x?xf32, strided<[?, 1]>>
        }
      }
      gpu.return
    }
  }
  func.func @launch(%x: memref<?xf32>, %y: memref<?xf32>, %rows: index, %cols: index) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@softmax_like blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%x : memref<?xf32>, %y : memref<?xf32>, %rows : index, %cols : index)
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %k = transform.ks.simt_row_reduction %f {threads_per_row = 32, rows_per_block = 4, vector = 4} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A block of 256 threads per row: shuffles within each warp, then the 8 warp
// totals through shared memory (one slot per warp, written by lane 0), read
// back by every thread in the same order; the row's total is stored by the
// first thread only. Two turns per iteration, the second predicated past
// the row's end (canonicalization merges its guarded load with its add).
// CHECK-LABEL: gpu.func @row_sum
// CHECK-SAME: workgroup(%[[SLOTS:[^ ]*]] : memref<8xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[TID]], %c0
// CHECK: %[[GUARD:.*]] = arith.andi %[[FIRST]]
// CHECK: %[[S:.*]] = scf.for %[[B:.*]] = %[[TID]] to %{{.*}} step %c512 iter_args(%[[ACC:.*]] = %cst
// CHECK: memref.load %arg0[%{{.*}}, %[[B]]]
// CHECK: arith.addf %[[ACC]]
// CHECK: %[[T1:.*]] = arith.addi %[[B]], %c256
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[T1]]
// CHECK: scf.if %[[IN]] -> (f32)
// CHECK: memref.load %arg0[%{{.*}}, %[[T1]]]
// CHECK: gpu.shuffle  xor %{{.*}}, %c16_i32
// CHECK: gpu.shuffle  xor %{{.*}}, %c1_i32
// CHECK: %[[WARP:.*]] = arith.divui %[[TID]], %c32
// CHECK: scf.if
// CHECK: memref.store %{{.*}}, %[[SLOTS]][%[[WARP]]]
// CHECK: gpu.barrier
// CHECK: memref.load %[[SLOTS]][%c0]
// CHECK: memref.load %[[SLOTS]][%c7]
// CHECK: scf.if %[[GUARD]] {
// CHECK: memref.store %{{.*}}, %arg1[
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @row_sum(%x: memref<?x?xf32>, %y: memref<?xf32>, %rows: index, %cols: index) kernel attributes {ks.raised} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f32
      scf.forall (%r) in (%rows) {
        %s = scf.for %j = %c0 to %cols step %c1 iter_args(%acc = %zero) -> (f32) {
          %v = memref.load %x[%r, %j] : memref<?x?xf32>
          %n = arith.addf %acc, %v : f32
          scf.yield %n : f32
        }
        memref.store %s, %y[%r] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @launch(%x: memref<?x?xf32>, %y: memref<?xf32>, %rows: index, %cols: index) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@row_sum blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%x : memref<?x?xf32>, %y : memref<?xf32>, %rows : index, %cols : index)
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["gpu.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %k = transform.ks.simt_row_reduction %f {threads_per_row = 256, rows_per_block = 1, unroll = 2} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// cached_turns = 2: rows of up to 32 x 4 x 2 = 256 elements are read once.
// Each lane's elements go to a private array (8 = 2 turns x 4) in the first
// loop, which the second loop reads instead of memory; the turns are marked
// for full unrolling (registers). Longer rows take the uncached version,
// which reads the row twice.
// CHECK-LABEL: gpu.func @cached
// CHECK: %[[CACHE:.*]] = memref.alloca() : memref<8xf32>
// CHECK: %[[FITS:.*]] = arith.cmpi sle, %{{.*}}, %c256
// CHECK: scf.if %[[FITS]] {
// CHECK: scf.for %[[T:.*]] = %c0 to %c2 step %c1 iter_args
// CHECK: vector.load
// CHECK: memref.store %{{.*}}, %[[CACHE]]
// CHECK: } {ks.unroll}
// CHECK: gpu.shuffle
// CHECK: scf.for %{{.*}} = %c0 to %c2 step %c1 {
// CHECK-NOT: vector.load
// CHECK: memref.load %[[CACHE]]
// CHECK: memref.store
// CHECK: } {ks.unroll}
// CHECK: } else {
// CHECK: scf.for
// CHECK: vector.load
// CHECK: scf.for
// CHECK: vector.load
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @cached(%x0: memref<?xf32>, %y0: memref<?xf32>, %rows: index, %cols: index) kernel attributes {ks.raised} {
      %x = memref.reinterpret_cast %x0 to offset: [0], sizes: [%rows, %cols], strides: [%cols, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      %y = memref.reinterpret_cast %y0 to offset: [0], sizes: [%rows, %cols], strides: [%cols, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f32
      scf.forall (%r) in (%rows) {
        %s = scf.for %j = %c0 to %cols step %c1 iter_args(%acc = %zero) -> (f32) {
          %v = memref.load %x[%r, %j] : memref<?x?xf32, strided<[?, 1]>>
          %n = arith.addf %acc, %v : f32
          scf.yield %n : f32
        }
        scf.for %j = %c0 to %cols step %c1 {
          %v = memref.load %x[%r, %j] : memref<?x?xf32, strided<[?, 1]>>
          %d = arith.divf %v, %s : f32
          memref.store %d, %y[%r, %j] : memref<?x?xf32, strided<[?, 1]>>
        }
      }
      gpu.return
    }
  }
  func.func @launch(%x: memref<?xf32>, %y: memref<?xf32>, %rows: index, %cols: index) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@cached blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%x : memref<?xf32>, %y : memref<?xf32>, %rows : index, %cols : index)
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %k = transform.ks.simt_row_reduction %f {threads_per_row = 32, rows_per_block = 1, vector = 4, cached_turns = 2} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// prefetch: the second loop's weight[j] (a buffer the kernel does not write,
// at the loop's variable) is loaded by the first loop's turns, next to the
// row's own loads, into a second private array; after the shuffles the
// second loop reads both arrays and no memory. The uncached version keeps
// its loads where they were.
// CHECK-LABEL: gpu.func @rms_like
// CHECK-DAG: %[[ROW:.*]] = memref.alloca() : memref<8xf32>
// CHECK-DAG: %[[W:.*]] = memref.alloca() : memref<8xf32>
// CHECK: scf.if
// CHECK: scf.for %{{.*}} = %c0 to %c2 step %c1 iter_args
// CHECK: vector.load %{{.*}} : memref<?x?xf32, strided<[?, 1]>>, vector<4xf32>
// CHECK: vector.load %{{.*}} : memref<?xf32, strided<[1]>>, vector<4xf32>
// CHECK: } {ks.unroll}
// CHECK: gpu.shuffle
// CHECK: scf.for %{{.*}} = %c0 to %c2 step %c1 {
// CHECK-NOT: vector.load
// CHECK-DAG: memref.load %[[ROW]]
// CHECK-DAG: memref.load %[[W]]
// CHECK: } {ks.unroll}
// CHECK: } else {
// CHECK: gpu.shuffle
// CHECK: scf.for
// CHECK: vector.load %{{.*}} : memref<?xf32, strided<[1]>>, vector<4xf32>
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @rms_like(%x0: memref<?xf32>, %w0: memref<?xf32>, %y0: memref<?xf32>, %rows: index, %cols: index) kernel attributes {ks.raised} {
      %x = memref.reinterpret_cast %x0 to offset: [0], sizes: [%rows, %cols], strides: [%cols, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      %w = memref.reinterpret_cast %w0 to offset: [0], sizes: [%cols], strides: [1] : memref<?xf32> to memref<?xf32, strided<[1]>>
      %y = memref.reinterpret_cast %y0 to offset: [0], sizes: [%rows, %cols], strides: [%cols, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f32
      scf.forall (%r) in (%rows) {
        %s = scf.for %j = %c0 to %cols step %c1 iter_args(%acc = %zero) -> (f32) {
          %v = memref.load %x[%r, %j] : memref<?x?xf32, strided<[?, 1]>>
          %q = arith.mulf %v, %v : f32
          %n = arith.addf %acc, %q : f32
          scf.yield %n : f32
        }
        scf.for %j = %c0 to %cols step %c1 {
          %v = memref.load %x[%r, %j] : memref<?x?xf32, strided<[?, 1]>>
          %g = memref.load %w[%j] : memref<?xf32, strided<[1]>>
          %d = arith.divf %v, %s : f32
          %e = arith.mulf %d, %g : f32
          memref.store %e, %y[%r, %j] : memref<?x?xf32, strided<[?, 1]>>
        }
      }
      gpu.return
    }
  }
  func.func @launch(%x: memref<?xf32>, %w: memref<?xf32>, %y: memref<?xf32>, %rows: index, %cols: index) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@rms_like blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%x : memref<?xf32>, %w : memref<?xf32>, %y : memref<?xf32>, %rows : index, %cols : index)
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %k = transform.ks.simt_row_reduction %f {threads_per_row = 32, rows_per_block = 1, vector = 4, cached_turns = 2, prefetch = true} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// prefetch where the later loop's load cannot move: its index is a value
// the first loop's reduction computes (weight[j * 0 + ...] is not at the
// loop's variable alone), so only the row is cached and the second loop
// still loads the weight from memory, after the shuffles.
// CHECK-LABEL: gpu.func @no_prefetch
// CHECK: memref.alloca() : memref<8xf32>
// CHECK-NOT: memref.alloca
// CHECK: scf.if
// CHECK: gpu.shuffle
// CHECK: scf.for %{{.*}} = %c0 to %c2 step %c1 {
// CHECK: memref.load %{{.*}} : memref<?x?xf32, strided<[?, 1]>>
// CHECK: } {ks.unroll}
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @no_prefetch(%x0: memref<?xf32>, %w0: memref<?xf32>, %y0: memref<?xf32>, %rows: index, %cols: index) kernel attributes {ks.raised} {
      %x = memref.reinterpret_cast %x0 to offset: [0], sizes: [%rows, %cols], strides: [%cols, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      %y = memref.reinterpret_cast %y0 to offset: [0], sizes: [%rows, %cols], strides: [%cols, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      %w = memref.reinterpret_cast %w0 to offset: [0], sizes: [%rows, %cols], strides: [%cols, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f32
      scf.forall (%r) in (%rows) {
        %s = scf.for %j = %c0 to %cols step %c1 iter_args(%acc = %zero) -> (f32) {
          %v = memref.load %x[%r, %j] : memref<?x?xf32, strided<[?, 1]>>
          %n = arith.addf %acc, %v : f32
          scf.yield %n : f32
        }
        %si32 = arith.fptoui %s : f32 to i32
        %si = arith.index_cast %si32 : i32 to index
        %row = arith.remui %si, %rows : index
        scf.for %j = %c0 to %cols step %c1 {
          %v = memref.load %x[%r, %j] : memref<?x?xf32, strided<[?, 1]>>
          %g = memref.load %w[%row, %j] : memref<?x?xf32, strided<[?, 1]>>
          %e = arith.mulf %v, %g : f32
          memref.store %e, %y[%r, %j] : memref<?x?xf32, strided<[?, 1]>>
        }
      }
      gpu.return
    }
  }
  func.func @launch(%x: memref<?xf32>, %w: memref<?xf32>, %y: memref<?xf32>, %rows: index, %cols: index) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@no_prefetch blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%x : memref<?xf32>, %w : memref<?xf32>, %y : memref<?xf32>, %rows : index, %cols : index)
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %k = transform.ks.simt_row_reduction %f {threads_per_row = 32, rows_per_block = 1, vector = 4, cached_turns = 2, prefetch = true} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Interleaved lanes (a column sum: the forall runs over columns): lane l of
// the block's column g is thread l * 16 + g, so a warp reads 16 adjacent
// columns of 2 rows; each lane takes every 64th row; no shuffles: the
// partials meet in shared memory (64 x 16 slots), lane 0 stores. The
// column's loads are marked for 32-bit offsets in the loop
// (ks.int32_loop_offsets: the rows are a runtime stride apart).
// CHECK-LABEL: gpu.func @col_sum
// CHECK-SAME: workgroup(%[[SLOTS:.*]] : memref<1024xf32, #gpu.address_space<workgroup>>
// CHECK-SAME: known_block_size = array<i32: 1024, 1, 1>, ks.schedule = "simt_row_reduction"
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[LANE:.*]] = arith.divui %[[TID]], %c16
// CHECK: %[[GROUP:.*]] = arith.remui %[[TID]], %c16
// CHECK: %[[COL:.*]] = arith.addi %{{.*}}, %[[GROUP]]
// CHECK: scf.for %{{.*}} = %[[LANE]] to %{{.*}} step %c64
// CHECK: memref.load %{{.*}} {ks.int32_loop_offsets} : memref<?x?xf32, strided<[?, 1]>>
// CHECK-NOT: gpu.shuffle
// CHECK: memref.store %{{.*}}, %[[SLOTS]]
// CHECK: gpu.barrier
// CHECK-LABEL: func.func @launch
// CHECK: %[[G:.*]] = arith.ceildivui %arg3, %c16
// CHECK: gpu.launch_func @kernels::@col_sum blocks in (%[[G]], %c1{{.*}}, %c1{{.*}}) threads in (%c1024{{.*}}, %c1{{.*}}, %c1{{.*}})
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @col_sum(%x0: memref<?xf32>, %y: memref<?xf32>, %rows: index, %cols: index) kernel attributes {ks.raised} {
      %x = memref.reinterpret_cast %x0 to offset: [0], sizes: [%rows, %cols], strides: [%cols, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f32
      scf.forall (%c) in (%cols) {
        %s = scf.for %i = %c0 to %rows step %c1 iter_args(%acc = %zero) -> (f32) {
          %v = memref.load %x[%i, %c] : memref<?x?xf32, strided<[?, 1]>>
          %n = arith.addf %acc, %v : f32
          scf.yield %n : f32
        }
        memref.store %s, %y[%c] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @launch(%x: memref<?xf32>, %y: memref<?xf32>, %rows: index, %cols: index) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@col_sum blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%x : memref<?xf32>, %y : memref<?xf32>, %rows : index, %cols : index)
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %k = transform.ks.simt_row_reduction %f {threads_per_row = 64, rows_per_block = 16, unroll = 1, interleaved = true} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// online: softmax's max loop and its sum of exponentials become one loop
// carrying (max, sum) from (-inf, 0) in every lane: per element the new max,
// the sum rescaled where the max grew (kept where it did not), and the
// element's term (0 for -inf). The lanes' pairs are combined as pairs: both
// shuffled at each distance, the larger max kept, each sum rescaled to it.
// A row whose max is -inf gets the NaN sum the two loops give. The
// normalizing loop reads the row again.
// CHECK-LABEL: gpu.func @online
// CHECK-DAG: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK-DAG: %[[NAN:.*]] = arith.constant 0x7FC00000 : f32
// CHECK: %[[PAIR:.*]]:2 = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c32 iter_args(%[[M:.*]] = %[[NINF]], %[[S:.*]] = %cst{{.*}}) -> (f32, f32) {
// CHECK: %[[X:.*]] = memref.load %arg0
// CHECK: %[[NEXT:.*]] = arith.maxnumf %[[M]], %[[X]] : f32
// CHECK: %[[SAME:.*]] = arith.cmpf oeq, %[[M]], %[[NEXT]] : f32
// CHECK: %[[D:.*]] = arith.subf %[[M]], %[[NEXT]] : f32
// CHECK: %[[F:.*]] = math.exp %[[D]] : f32
// CHECK: %[[SCALED:.*]] = arith.mulf %[[S]], %[[F]] : f32
// CHECK: %[[KEPT:.*]] = arith.select %[[SAME]], %[[S]], %[[SCALED]] : f32
// CHECK: %[[ISNINF:.*]] = arith.cmpf oeq, %[[X]], %[[NINF]] : f32
// CHECK: %[[XD:.*]] = arith.subf %[[X]], %[[NEXT]] : f32
// CHECK: %[[E:.*]] = math.exp %[[XD]] : f32
// CHECK: %[[TERM:.*]] = arith.select %[[ISNINF]], %{{.*}}, %[[E]] : f32
// CHECK: %[[SUM:.*]] = arith.addf %[[KEPT]], %[[TERM]] : f32
// CHECK: scf.yield %{{.*}}, %{{.*}} : f32, f32
// CHECK: gpu.shuffle  xor %[[PAIR]]#0, %c16_i32
// CHECK: gpu.shuffle  xor %[[PAIR]]#1, %c16_i32
// CHECK: arith.maxnumf %[[PAIR]]#0
// CHECK-COUNT-2: math.exp
// CHECK: gpu.shuffle  xor %{{.*}}, %c8_i32
// CHECK: gpu.shuffle  xor %{{.*}}, %c1_i32
// CHECK: %[[ALLNINF:.*]] = arith.andi
// CHECK: %[[FIXED:.*]] = arith.select %[[ALLNINF]], %[[NAN]], %{{.*}} : f32
// CHECK: scf.for
// CHECK: memref.load %arg0
// CHECK: arith.divf %{{.*}}, %[[FIXED]] : f32
// CHECK: memref.store
// CHECK-NOT: scf.for
// CHECK: gpu.return
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @online(%x: memref<?x?xf32>, %y: memref<?x?xf32>, %rows: index, %cols: index) kernel attributes {ks.raised} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %ninf = arith.constant 0xFF800000 : f32
      %zero = arith.constant 0.0 : f32
      scf.forall (%r) in (%rows) {
        %m = scf.for %j = %c0 to %cols step %c1 iter_args(%acc = %ninf) -> (f32) {
          %v = memref.load %x[%r, %j] : memref<?x?xf32>
          %n = arith.maxnumf %acc, %v : f32
          scf.yield %n : f32
        }
        %s = scf.for %j = %c0 to %cols step %c1 iter_args(%acc = %zero) -> (f32) {
          %v = memref.load %x[%r, %j] : memref<?x?xf32>
          %d = arith.subf %v, %m : f32
          %e = math.exp %d : f32
          %n = arith.addf %acc, %e : f32
          scf.yield %n : f32
        }
        scf.for %j = %c0 to %cols step %c1 {
          %v = memref.load %x[%r, %j] : memref<?x?xf32>
          %d = arith.subf %v, %m : f32
          %e = math.exp %d : f32
          %q = arith.divf %e, %s : f32
          memref.store %q, %y[%r, %j] : memref<?x?xf32>
        }
      }
      gpu.return
    }
  }
  func.func @launch(%x: memref<?x?xf32>, %y: memref<?x?xf32>, %rows: index, %cols: index) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@online blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%x : memref<?x?xf32>, %y : memref<?x?xf32>, %rows : index, %cols : index)
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %k = transform.ks.simt_row_reduction %f {threads_per_row = 32, rows_per_block = 4, online = true} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// online with 4 elements per turn: the pair is updated once per turn. The
// turn's elements past the row's end count as -inf; the turn's max first,
// then the new running max, one rescaling of the sum, the four elements'
// exponentials (independent) added as a tree.
// CHECK-LABEL: gpu.func @online_turn
// CHECK: scf.for {{.*}} iter_args(%[[M:.*]] = %{{.*}}, %[[S:.*]] = %{{.*}}) -> (f32, f32) {
// CHECK: vector.load
// CHECK: %[[X1:.*]] = arith.select %{{.*}}, %{{.*}}, %[[NINF:.*]] : f32
// CHECK: %[[X2:.*]] = arith.select %{{.*}}, %{{.*}}, %[[NINF]] : f32
// CHECK: %[[X3:.*]] = arith.select %{{.*}}, %{{.*}}, %[[NINF]] : f32
// CHECK: %[[T1:.*]] = arith.maxnumf %[[X0:.*]], %[[X1]] : f32
// CHECK: %[[T2:.*]] = arith.maxnumf %[[T1]], %[[X2]] : f32
// CHECK: %[[T3:.*]] = arith.maxnumf %[[T2]], %[[X3]] : f32
// CHECK: %[[NEXT:.*]] = arith.maxnumf %[[M]], %[[T3]] : f32
// CHECK: arith.cmpf oeq, %[[M]], %[[NEXT]] : f32
// CHECK: arith.subf %[[M]], %[[NEXT]] : f32
// CHECK-COUNT-5: math.exp
// CHECK-NOT: math.exp
// CHECK: scf.yield %[[NEXT]], %{{.*}} : f32, f32
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @online_turn(%x0: memref<?xf32>, %y: memref<?xf32>, %rows: index, %cols: index) kernel attributes {ks.raised} {
      %x = memref.reinterpret_cast %x0 to offset: [0], sizes: [%rows, %cols], strides: [%cols, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %ninf = arith.constant 0xFF800000 : f32
      %zero = arith.constant 0.0 : f32
      scf.forall (%r) in (%rows) {
        %m = scf.for %j = %c0 to %cols step %c1 iter_args(%acc = %ninf) -> (f32) {
          %v = memref.load %x[%r, %j] : memref<?x?xf32, strided<[?, 1]>>
          %n = arith.maxnumf %acc, %v : f32
          scf.yield %n : f32
        }
        %s = scf.for %j = %c0 to %cols step %c1 iter_args(%acc = %zero) -> (f32) {
          %v = memref.load %x[%r, %j] : memref<?x?xf32, strided<[?, 1]>>
          %d = arith.subf %v, %m : f32
          %e = math.exp %d : f32
          %n = arith.addf %acc, %e : f32
          scf.yield %n : f32
        }
        %l = arith.addf %m, %s : f32
        memref.store %l, %y[%r] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @launch(%x: memref<?xf32>, %y: memref<?xf32>, %rows: index, %cols: index) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@online_turn blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%x : memref<?xf32>, %y : memref<?xf32>, %rows : index, %cols : index)
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %k = transform.ks.simt_row_reduction %f {threads_per_row = 32, rows_per_block = 4, vector = 4, online = true} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// online with the sum's zero defined between the two loops: the merged loop
// (at the max loop's place) starts from a copy of it.
// CHECK-LABEL: gpu.func @online_late_zero
// CHECK: scf.for {{.*}} -> (f32, f32) {
// CHECK: math.exp
// CHECK: gpu.return
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @online_late_zero(%x: memref<?x?xf32>, %y: memref<?xf32>, %rows: index, %cols: index) kernel attributes {ks.raised} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %ninf = arith.constant 0xFF800000 : f32
      scf.forall (%r) in (%rows) {
        %m = scf.for %j = %c0 to %cols step %c1 iter_args(%acc = %ninf) -> (f32) {
          %v = memref.load %x[%r, %j] : memref<?x?xf32>
          %n = arith.maxnumf %acc, %v : f32
          scf.yield %n : f32
        }
        %zero = arith.constant 0.0 : f32
        %s = scf.for %j = %c0 to %cols step %c1 iter_args(%acc = %zero) -> (f32) {
          %v = memref.load %x[%r, %j] : memref<?x?xf32>
          %d = arith.subf %v, %m : f32
          %e = math.exp %d : f32
          %n = arith.addf %acc, %e : f32
          scf.yield %n : f32
        }
        memref.store %s, %y[%r] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @launch(%x: memref<?x?xf32>, %y: memref<?xf32>, %rows: index, %cols: index) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@online_late_zero blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%x : memref<?x?xf32>, %y : memref<?xf32>, %rows : index, %cols : index)
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %k = transform.ks.simt_row_reduction %f {threads_per_row = 32, rows_per_block = 4, online = true} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// online where the math does not allow it: the sum loop takes exp(2x - m),
// not x's own difference from the max, so the two loops stay apart (two
// loops with one value each, nothing merged).
// CHECK-LABEL: gpu.func @not_online
// CHECK: scf.for {{.*}} -> (f32) {
// CHECK: arith.maxnumf
// CHECK: scf.for {{.*}} -> (f32) {
// CHECK: arith.mulf
// CHECK: math.exp
// CHECK-NOT: arith.cmpf
// CHECK: gpu.return
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @not_online(%x: memref<?x?xf32>, %y: memref<?xf32>, %rows: index, %cols: index) kernel attributes {ks.raised} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %ninf = arith.constant 0xFF800000 : f32
      %zero = arith.constant 0.0 : f32
      %two = arith.constant 2.0 : f32
      scf.forall (%r) in (%rows) {
        %m = scf.for %j = %c0 to %cols step %c1 iter_args(%acc = %ninf) -> (f32) {
          %v = memref.load %x[%r, %j] : memref<?x?xf32>
          %n = arith.maxnumf %acc, %v : f32
          scf.yield %n : f32
        }
        %s = scf.for %j = %c0 to %cols step %c1 iter_args(%acc = %zero) -> (f32) {
          %v = memref.load %x[%r, %j] : memref<?x?xf32>
          %w = arith.mulf %v, %two : f32
          %d = arith.subf %w, %m : f32
          %e = math.exp %d : f32
          %n = arith.addf %acc, %e : f32
          scf.yield %n : f32
        }
        memref.store %s, %y[%r] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @launch(%x: memref<?x?xf32>, %y: memref<?xf32>, %rows: index, %cols: index) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@not_online blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%x : memref<?x?xf32>, %y : memref<?xf32>, %rows : index, %cols : index)
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %k = transform.ks.simt_row_reduction %f {threads_per_row = 32, rows_per_block = 4, online = true} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
