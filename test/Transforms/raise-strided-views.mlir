// RUN: ks-opt %s -split-input-file -verify-diagnostics --ks-raise-strided-views | FileCheck %s

// A[row * K + p] with nsw i32 arithmetic: a [M, K] view with strides [K, 1],
// indexed by the loop variables; B[p * N + col]: [K, N] with strides [N, 1]
// (the unit-stride dimension last).
// CHECK-LABEL: gpu.func @gemm
// CHECK-DAG: %[[M:[a-z0-9_]+]] = arith.index_cast %arg3 : i32 to index
// CHECK-DAG: %[[N:[a-z0-9_]+]] = arith.index_cast %arg4 : i32 to index
// CHECK-DAG: %[[K:[a-z0-9_]+]] = arith.index_cast %arg5 : i32 to index
// CHECK: %[[A:[a-z0-9_]+]] = memref.reinterpret_cast %arg0 to offset: [0], sizes: [%[[M]], %[[K]]], strides: [%{{.*}}, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
// CHECK: %[[B:[a-z0-9_]+]] = memref.reinterpret_cast %arg1 to offset: [0], sizes: [%[[K]], %[[N]]], strides: [%{{.*}}, 1]
// CHECK: %[[C:[a-z0-9_]+]] = memref.reinterpret_cast %arg2 to offset: [0], sizes: [%[[M]], %[[N]]]
// CHECK: scf.forall (%[[I:[a-z0-9_]+]], %[[J:[a-z0-9_]+]]) in
// CHECK: scf.for %[[P:[a-z0-9_]+]] =
// CHECK: memref.load %[[A]][%[[I]], %[[P]]]
// CHECK: memref.load %[[B]][%[[P]], %[[J]]]
// CHECK: memref.store %{{.*}}, %[[C]][%[[I]], %[[J]]]
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @gemm(%A: memref<?xf32>, %B: memref<?xf32>, %C: memref<?xf32>, %Mi: i32, %Ni: i32, %Ki: i32) kernel attributes {ks.raised} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f32
      %M = arith.index_cast %Mi : i32 to index
      %N = arith.index_cast %Ni : i32 to index
      %K = arith.index_cast %Ki : i32 to index
      scf.forall (%i, %j) in (%M, %N) {
        %row = arith.index_cast %i : index to i32
        %col = arith.index_cast %j : index to i32
        %acc = scf.for %p = %c0 to %K step %c1 iter_args(%s = %zero) -> (f32) {
          %p32 = arith.index_cast %p : index to i32
          %t = arith.muli %row, %Ki overflow<nsw> : i32
          %ai = arith.addi %t, %p32 overflow<nsw> : i32
          %ax = arith.index_cast %ai : i32 to index
          %a = memref.load %A[%ax] : memref<?xf32>
          %u = arith.muli %p32, %Ni overflow<nsw> : i32
          %bi = arith.addi %u, %col overflow<nsw> : i32
          %bx = arith.index_cast %bi : i32 to index
          %b = memref.load %B[%bx] : memref<?xf32>
          %m = arith.mulf %a, %b : f32
          %s2 = arith.addf %s, %m : f32
          scf.yield %s2 : f32
        }
        %v = arith.muli %row, %Ni overflow<nsw> : i32
        %ci = arith.addi %v, %col overflow<nsw> : i32
        %cx = arith.index_cast %ci : i32 to index
        memref.store %acc, %C[%cx] : memref<?xf32>
      }
      gpu.return
    }
  }
}

// -----

// size_t batch offsets (64-bit, zero-extended): the offset of the view is
// batch * M * K, any invariant; 64-bit arithmetic needs no flags.
// CHECK-LABEL: gpu.func @batch_offset
// CHECK: %[[OFF:[a-z0-9_]+]] = arith.muli
// CHECK: memref.reinterpret_cast %arg0 to offset: [%{{.*}}], sizes: [%{{.*}}], strides: [1] : memref<?xf32> to memref<?xf32, strided<[1], offset: ?>>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @batch_offset(%A: memref<?xf32>, %n: i32, %m: i32) kernel attributes {ks.raised} {
      %one = arith.constant 1.0 : f32
      %bz = gpu.block_id z
      %b = arith.index_castui %bz : index to i32
      %b64 = arith.extui %b : i32 to i64
      %m64 = arith.extsi %m : i32 to i64
      %base = arith.muli %b64, %m64 : i64
      %N = arith.index_cast %n : i32 to index
      scf.forall (%i) in (%N) {
        %i32 = arith.index_cast %i : index to i32
        %i64 = arith.extsi %i32 : i32 to i64
        %k = arith.addi %base, %i64 : i64
        %x = arith.index_castui %k : i64 to index
        memref.store %one, %A[%x] : memref<?xf32>
      }
      gpu.return
    }
  }
}

// -----

// Accesses left flat, each with the reason.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @flat(%A: memref<?xf32>, %n: i32) kernel attributes {ks.raised} {
      %one = arith.constant 1.0 : f32
      %N = arith.index_cast %n : i32 to index
      scf.forall (%i) in (%N) {
        %i32 = arith.index_cast %i : index to i32
        // A 32-bit multiply that may wrap (no nsw): not a 64-bit offset.
        %w = arith.muli %i32, %n : i32
        %wx = arith.index_cast %w : i32 to index
        // expected-remark @below {{left flat: the index is multiplied at 32 bits without nsw, which may wrap}}
        memref.store %one, %A[%wx] : memref<?xf32>
        // The square of a loop variable.
        %sq = arith.muli %i, %i : index
        // expected-remark @below {{left flat: the index multiplies two loop variables}}
        memref.store %one, %A[%sq] : memref<?xf32>
        // A division.
        %h = arith.divui %i, %N : index
        // expected-remark @below {{left flat: the index is computed by 'arith.divui'}}
        memref.store %one, %A[%h] : memref<?xf32>
      }
      gpu.return
    }
  }
}

// -----

// A convolution's input in[(c * H + (y + r)) * W + (x + s)]: one view
// dimension per loop variable, the two unit-stride ones (x, s) last: a
// view whose dimensions alias, read through a projected permutation.
// CHECK-LABEL: gpu.func @conv_input
// CHECK: memref.reinterpret_cast %arg0 to offset: [0], sizes: [%{{.*}}, %{{.*}}, 3, %{{.*}}, 3], strides: [%{{.*}}, %{{.*}}, %{{.*}}, 1, 1]
// CHECK: scf.forall (%[[Y:[a-z0-9_]+]], %[[X:[a-z0-9_]+]]) in
// CHECK: scf.for %[[C:[a-z0-9_]+]] =
// CHECK: scf.for %[[R:[a-z0-9_]+]] =
// CHECK: scf.for %[[S:[a-z0-9_]+]] =
// CHECK: memref.load %{{.*}}[%[[Y]], %[[C]], %[[R]], %[[X]], %[[S]]]
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @conv_input(%in: memref<?xf32>, %out: memref<?xf32>, %h: i32, %w: i32, %cc: i32) kernel attributes {ks.raised} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %zero = arith.constant 0.0 : f32
      %H = arith.index_cast %h : i32 to index
      %W = arith.index_cast %w : i32 to index
      %C = arith.index_cast %cc : i32 to index
      scf.forall (%y, %x) in (%H, %W) {
        %y32 = arith.index_cast %y : index to i32
        %x32 = arith.index_cast %x : index to i32
        %r0 = scf.for %c = %c0 to %C step %c1 iter_args(%s0 = %zero) -> (f32) {
          %r1 = scf.for %r = %c0 to %c3 step %c1 iter_args(%s1 = %s0) -> (f32) {
            %r2 = scf.for %s = %c0 to %c3 step %c1 iter_args(%s2 = %s1) -> (f32) {
              %c32 = arith.index_cast %c : index to i32
              %rr = arith.index_cast %r : index to i32
              %ss = arith.index_cast %s : index to i32
              %t0 = arith.muli %c32, %h overflow<nsw> : i32
              %yr = arith.addi %y32, %rr overflow<nsw> : i32
              %t1 = arith.addi %t0, %yr overflow<nsw> : i32
              %t2 = arith.muli %t1, %w overflow<nsw> : i32
              %xs = arith.addi %x32, %ss overflow<nsw> : i32
              %t3 = arith.addi %t2, %xs overflow<nsw> : i32
              %ix = arith.index_cast %t3 : i32 to index
              %v = memref.load %in[%ix] : memref<?xf32>
              %n = arith.addf %s2, %v : f32
              scf.yield %n : f32
            }
            scf.yield %r2 : f32
          }
          scf.yield %r1 : f32
        }
        %o0 = arith.muli %y32, %w overflow<nsw> : i32
        %o1 = arith.addi %o0, %x32 overflow<nsw> : i32
        %ox = arith.index_cast %o1 : i32 to index
        memref.store %r0, %out[%ox] : memref<?xf32>
      }
      gpu.return
    }
  }
}

// -----

// A stencil's neighbours before the point: a view cannot start before its
// buffer, so a negative constant offset moves into the indices of the
// constant-stride dimensions: in[i * 1024 + j - 1] is view[i, j - 1],
// in[(i - 1) * 1024 + j] is view[i - 1, j], in[i * 1024 + j - 1025] is
// view[i - 1, j - 1]; in[i * 1024 + j + 1] keeps its offset.
// CHECK-LABEL: gpu.func @stencil
// CHECK: %[[W:.*]] = memref.reinterpret_cast %arg0 to offset: [0], sizes: [%{{.*}}, 1024], strides: [1024, 1]
// CHECK: %[[N:.*]] = memref.reinterpret_cast %arg0 to offset: [0], sizes: [%{{.*}}, 1024], strides: [1024, 1]
// CHECK: %[[NW:.*]] = memref.reinterpret_cast %arg0 to offset: [0], sizes: [%{{.*}}, 1024], strides: [1024, 1]
// CHECK: %[[E:.*]] = memref.reinterpret_cast %arg0 to offset: [1], sizes: [%{{.*}}, 1024], strides: [1024, 1]
// CHECK: scf.forall (%[[I:[a-z0-9_]+]], %[[J:[a-z0-9_]+]]) in
// CHECK: %[[C1:.*]] = arith.constant -1 : index
// CHECK: %[[WJ:.*]] = arith.addi %[[J]], %[[C1]] : index
// CHECK: memref.load %[[W]][%[[I]], %[[WJ]]]
// CHECK: %[[C2:.*]] = arith.constant -1 : index
// CHECK: %[[NI:.*]] = arith.addi %[[I]], %[[C2]] : index
// CHECK: memref.load %[[N]][%[[NI]], %[[J]]]
// CHECK: %[[C3:.*]] = arith.constant -1 : index
// CHECK: %[[NWI:.*]] = arith.addi %[[I]], %[[C3]] : index
// CHECK: %[[C4:.*]] = arith.constant -1 : index
// CHECK: %[[NWJ:.*]] = arith.addi %[[J]], %[[C4]] : index
// CHECK: memref.load %[[NW]][%[[NWI]], %[[NWJ]]]
// CHECK: memref.load %[[E]][%[[I]], %[[J]]]
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @stencil(%in: memref<?xf32>, %out: memref<?xf32>, %ni: i32) kernel attributes {ks.raised} {
      %n = arith.index_cast %ni : i32 to index
      %c1024 = arith.constant 1024 : index
      %w = arith.constant 1024 : i32
      %one = arith.constant 1 : i32
      %diag = arith.constant 1025 : i32
      scf.forall (%i, %j) in (%n, %c1024) {
        %i32 = arith.index_cast %i : index to i32
        %j32 = arith.index_cast %j : index to i32
        %row = arith.muli %i32, %w overflow<nsw> : i32
        %p = arith.addi %row, %j32 overflow<nsw> : i32
        %west = arith.subi %p, %one overflow<nsw> : i32
        %wx = arith.index_cast %west : i32 to index
        %a = memref.load %in[%wx] : memref<?xf32>
        %im1 = arith.subi %i32, %one overflow<nsw> : i32
        %nrow = arith.muli %im1, %w overflow<nsw> : i32
        %north = arith.addi %nrow, %j32 overflow<nsw> : i32
        %nx = arith.index_cast %north : i32 to index
        %b = memref.load %in[%nx] : memref<?xf32>
        %nw = arith.subi %p, %diag overflow<nsw> : i32
        %nwx = arith.index_cast %nw : i32 to index
        %c = memref.load %in[%nwx] : memref<?xf32>
        %east = arith.addi %p, %one overflow<nsw> : i32
        %ex = arith.index_cast %east : i32 to index
        %d = memref.load %in[%ex] : memref<?xf32>
        %s0 = arith.addf %a, %b : f32
        %s1 = arith.addf %s0, %c : f32
        %s2 = arith.addf %s1, %d : f32
        %px = arith.index_cast %p : i32 to index
        memref.store %s2, %out[%px] : memref<?xf32>
      }
      gpu.return
    }
  }
}
