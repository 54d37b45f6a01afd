// RUN: ks-opt %s -split-input-file -verify-diagnostics --ks-raise-counted-loops | FileCheck %s

// The importer's `for (int p = 0; p < K; ++p)`: an i32 while loop becomes an
// scf.for over index from the sign-extended bounds; the body reads the
// counter as i32.
// CHECK-LABEL: func.func @slt
// CHECK-SAME: (%[[K:.*]]: i32)
// CHECK: %[[LB:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK: %[[UB:.*]] = arith.index_cast %[[K]] : i32 to index
// CHECK: %[[STEP:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK: %[[R:.*]] = scf.for %[[IV:.*]] = %[[LB]] to %[[UB]] step %[[STEP]] iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32) {
// CHECK-NEXT: %[[P:.*]] = arith.index_cast %[[IV]] : index to i32
// CHECK-NEXT: %[[F:.*]] = arith.sitofp %[[P]]
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[ACC]], %[[F]]
// CHECK-NEXT: scf.yield %[[S]] : f32
// CHECK-NOT: scf.while
// CHECK: return %[[R]]
func.func @slt(%K: i32) -> f32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant 0.0 : f32
  %r:2 = scf.while (%p = %c0, %acc = %zero) : (i32, f32) -> (i32, f32) {
    %c = arith.cmpi slt, %p, %K : i32
    scf.condition(%c) %p, %acc : i32, f32
  } do {
  ^bb0(%p: i32, %acc: f32):
    %f = arith.sitofp %p : i32 to f32
    %s = arith.addf %acc, %f : f32
    %next = arith.addi %p, %c1 overflow<nsw> : i32
    scf.yield %next, %s : i32, f32
  }
  return %r#1 : f32
}

// -----

// `i <= n` with an nsw increment: the bound plus one, in index arithmetic
// where it cannot overflow. The counter's final value is used: it is
// lb + max(0, ceildiv(ub - lb, step)) * step.
// CHECK-LABEL: func.func @sle_final
// CHECK-SAME: (%[[N:.*]]: i32)
// CHECK: %[[UB0:.*]] = arith.index_cast %[[N]] : i32 to index
// CHECK: %[[UB:.*]] = arith.addi %[[UB0]], %{{.*}} : index
// CHECK: scf.for %{{.*}} = %[[LB:.*]] to %[[UB]] step %[[ST:.*]] {
// CHECK: %[[SPAN:.*]] = arith.subi %[[UB]], %[[LB]]
// CHECK: %[[POS:.*]] = arith.maxsi %[[SPAN]]
// CHECK: %[[TRIPS:.*]] = arith.ceildivsi %[[POS]], %[[ST]]
// CHECK: %[[LAST:.*]] = arith.addi %[[LB]], %{{.*}}
// CHECK: %[[I32:.*]] = arith.index_cast %[[LAST]] : index to i32
// CHECK: return %[[I32]]
func.func @sle_final(%n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c2 = arith.constant 2 : i32
  %r = scf.while (%i = %c0) : (i32) -> (i32) {
    %c = arith.cmpi sle, %i, %n : i32
    scf.condition(%c) %i : i32
  } do {
  ^bb0(%i: i32):
    %next = arith.addi %i, %c2 overflow<nsw> : i32
    scf.yield %next : i32
  }
  return %r : i32
}

// -----

// `n > i` (the bound on the left) and an unsigned counter: an unsigned
// scf.for over the zero-extended bounds.
// CHECK-LABEL: func.func @ugt_swapped
// CHECK: arith.index_castui %{{.*}} : i32 to index
// CHECK: scf.for unsigned
func.func @ugt_swapped(%n: i32, %buf: memref<?xf32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant 0.0 : f32
  %w1 = scf.while (%i = %c0) : (i32) -> (i32) {
    %c = arith.cmpi ugt, %n, %i : i32
    scf.condition(%c) %i : i32
  } do {
  ^bb0(%i: i32):
    %x = arith.index_castui %i : i32 to index
    memref.store %zero, %buf[%x] : memref<?xf32>
    %next = arith.addi %i, %c1 : i32
    scf.yield %next : i32
  }
  return
}

// -----

// An invariant bound computed in the condition region is hoisted.
// CHECK-LABEL: func.func @hoisted_bound
// CHECK: %[[B:.*]] = arith.subi %{{.*}}, %{{.*}} : i32
// CHECK: %[[UB:.*]] = arith.index_cast %[[B]] : i32 to index
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[UB]]
func.func @hoisted_bound(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %w2 = scf.while (%i = %c0) : (i32) -> (i32) {
    %b = arith.subi %n, %c1 : i32
    %c = arith.cmpi slt, %i, %b : i32
    scf.condition(%c) %i : i32
  } do {
  ^bb0(%i: i32):
    %next = arith.addi %i, %c1 overflow<nsw> : i32
    scf.yield %next : i32
  }
  return
}

// -----

// Refusals: each loop stays a while loop, with a remark that says why.
func.func @refusals(%n: i32, %flag: i1, %s: i32, %buf: memref<?xi32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  // A data-dependent exit (a break): the condition reads memory.
  // expected-remark @below {{not a counted loop: the condition region computes more than an invariant bound}}
  %w3 = scf.while (%i = %c0) : (i32) -> (i32) {
    %x = arith.index_cast %i : i32 to index
    %v = memref.load %buf[%x] : memref<?xi32>
    %c = arith.cmpi slt, %v, %n : i32
    scf.condition(%c) %i : i32
  } do {
  ^bb0(%i: i32):
    %next = arith.addi %i, %c1 : i32
    scf.yield %next : i32
  }
  // Counting down: not `counter < bound`.
  // expected-remark @below {{not a counted loop: the exit condition is not 'counter < bound'}}
  %w4 = scf.while (%i = %n) : (i32) -> (i32) {
    %c = arith.cmpi sgt, %i, %c0 : i32
    scf.condition(%c) %i : i32
  } do {
  ^bb0(%i: i32):
    %next = arith.subi %i, %c1 : i32
    scf.yield %next : i32
  }
  // A step of 2 without nsw could wrap past the bound.
  // expected-remark @below {{not a counted loop: the counter may wrap around: a step other than 1 or an inclusive bound needs the increment to be nsw}}
  %w5 = scf.while (%i = %c0) : (i32) -> (i32) {
    %c = arith.cmpi slt, %i, %n : i32
    scf.condition(%c) %i : i32
  } do {
  ^bb0(%i: i32):
    %next = arith.addi %i, %c2 : i32
    scf.yield %next : i32
  }
  // The step is computed in the loop from the counter.
  // expected-remark @below {{not a counted loop: the step is computed inside the loop from values that change in it}}
  %w6 = scf.while (%i = %c0) : (i32) -> (i32) {
    %c = arith.cmpi slt, %i, %n : i32
    scf.condition(%c) %i : i32
  } do {
  ^bb0(%i: i32):
    %st = arith.addi %i, %c1 : i32
    %next = arith.addi %i, %st overflow<nsw> : i32
    scf.yield %next : i32
  }
  // A non-positive constant step.
  // expected-remark @below {{not a counted loop: the step is not positive}}
  %w7 = scf.while (%i = %c0) : (i32) -> (i32) {
    %c = arith.cmpi slt, %i, %n : i32
    scf.condition(%c) %i : i32
  } do {
  ^bb0(%i: i32):
    %next = arith.addi %i, %c0 overflow<nsw> : i32
    scf.yield %next : i32
  }
  return
}

// -----

// A pointer walked beside the counter (`for (c = 0; c < n; ++c, ++p) s += *p;`)
// becomes a function of the counter: init + iv * 1, no longer carried; an
// i32 value advanced by 3 in a loop from 2 by 2 is init + ((iv - 2) / 2) * 3
// in i32 (wrapping as the repeated addition does).
// CHECK-LABEL: func.func @derived
// CHECK-SAME: %[[A:.*]]: memref<?xf32>, %[[N:.*]]: index, %[[P0:.*]]: index, %[[J0:.*]]: i32
// CHECK: scf.for %[[IV:.*]] = %{{.*}} to %[[N]] step %[[C1:.*]] iter_args(%[[S:.*]] = %{{.*}}, %[[PC:.*]] = %[[P0]]) -> (f32, index) {
// CHECK-NEXT: %[[M:.*]] = arith.muli %[[IV]], %[[C1]] : index
// CHECK-NEXT: %[[P:.*]] = arith.addi %[[P0]], %[[M]] : index
// CHECK-NEXT: memref.load %[[A]][%[[P]]]
// CHECK: scf.yield %{{.*}}, %[[PC]] : f32, index
// CHECK: scf.for %[[IV2:.*]] = %[[C2:.*]] to %[[N]] step %[[C2]] iter_args(%[[JC:.*]] = %[[J0]]) -> (i32) {
// CHECK-NEXT: %[[K:.*]] = arith.subi %[[IV2]], %[[C2]] : index
// CHECK-NEXT: %[[K2:.*]] = arith.divui %[[K]], %[[C2]] : index
// CHECK-NEXT: %[[KI:.*]] = arith.index_cast %[[K2]] : index to i32
// CHECK-NEXT: %[[M2:.*]] = arith.muli %[[KI]], %{{.*}} : i32
// CHECK-NEXT: %[[J:.*]] = arith.addi %[[J0]], %[[M2]] : i32
// CHECK-NEXT: arith.index_cast %[[J]] : i32 to index
// CHECK: scf.yield %[[JC]] : i32
// The value after the loop is used: left carried.
// CHECK: scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}, %[[PL:.*]] = %[[P0]]) -> (f32, index) {
// CHECK-NEXT: memref.load %[[A]][%[[PL]]]
func.func @derived(%a: memref<?xf32>, %n: index, %p0: index, %j0: i32) -> (f32, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : i32
  %zero = arith.constant 0.0 : f32
  %r:2 = scf.for %c = %c0 to %n step %c1 iter_args(%s = %zero, %p = %p0) -> (f32, index) {
    %v = memref.load %a[%p] : memref<?xf32>
    %s2 = arith.addf %s, %v : f32
    %p2 = arith.addi %p, %c1 : index
    scf.yield %s2, %p2 : f32, index
  }
  %j = scf.for %c = %c2 to %n step %c2 iter_args(%jj = %j0) -> (i32) {
    %x = arith.index_cast %jj : i32 to index
    memref.store %zero, %a[%x] : memref<?xf32>
    %jn = arith.addi %c3, %jj : i32
    scf.yield %jn : i32
  }
  %l:2 = scf.for %c = %c0 to %n step %c1 iter_args(%s = %r#0, %p = %p0) -> (f32, index) {
    %v = memref.load %a[%p] : memref<?xf32>
    %s2 = arith.addf %s, %v : f32
    %p2 = arith.addi %p, %c1 : index
    scf.yield %s2, %p2 : f32, index
  }
  return %l#0, %l#1 : f32, index
}

// -----

// A loop over i32 (not one this pass wrote) keeps its carried values.
// CHECK-LABEL: func.func @narrow_counter
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[P:.*]] = %arg1) -> (i32) : i32 {
// CHECK: arith.addi %[[P]]
func.func @narrow_counter(%n: i32, %p0: i32, %a: memref<?xi32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%p = %p0) -> (i32) : i32 {
    %x = arith.index_cast %p : i32 to index
    memref.store %i, %a[%x] : memref<?xi32>
    %q = arith.addi %p, %c1 : i32
    scf.yield %q : i32
  }
  return
}

// -----

// The importer's `for (int i = ...; i < n; i += blockDim.x * gridDim.x)`:
// gridDim.x is read in the loop and the unsigned step is added without nsw.
// The step's ops are invariant and pure: hoisted above the loop. The body
// indexes x with the counter sign-extended, so a wrapped (negative) counter
// would read before x: the index loop is the original where it is defined.
// CHECK-LABEL: gpu.func @grid_stride
// CHECK: gpu.block_dim x
// CHECK-NEXT: %[[BD:.*]] = arith.index_castui %{{.*}} : index to i32
// CHECK: %[[GD:.*]] = gpu.grid_dim x
// CHECK: %[[GD32:.*]] = arith.index_castui %[[GD]] : index to i32
// CHECK: %[[ST32:.*]] = arith.muli %[[BD]], %[[GD32]] : i32
// CHECK: %[[ST:.*]] = arith.index_cast %[[ST32]] : i32 to index
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[ST]] {
// CHECK-NOT: gpu.grid_dim
// CHECK: memref.store
// CHECK-NEXT: }
// CHECK-NEXT: gpu.return
gpu.module @m {
  gpu.func @grid_stride(%n: i32, %x: memref<?xf32>) kernel {
    %tid = gpu.thread_id x
    %t = arith.index_castui %tid : index to i32
    %bd = gpu.block_dim x
    %b = arith.index_castui %bd : index to i32
    %r = scf.while (%i = %t) : (i32) -> (i32) {
      %c = arith.cmpi slt, %i, %n : i32
      scf.condition(%c) %i : i32
    } do {
    ^bb0(%i: i32):
      %idx = arith.index_cast %i : i32 to index
      %v = memref.load %x[%idx] : memref<?xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %x[%idx] : memref<?xf32>
      %gd = gpu.grid_dim x
      %g = arith.index_castui %gd : index to i32
      %st = arith.muli %b, %g : i32
      %next = arith.addi %i, %st : i32
      scf.yield %next : i32
    }
    gpu.return
  }
}

// -----

// The same without nsw, but the counter indexes memory only under a
// condition: a wrapped counter could run an iteration the original runs, so
// the loop stays.
// CHECK-LABEL: gpu.func @grid_stride_guarded
// CHECK: scf.while
gpu.module @m {
  gpu.func @grid_stride_guarded(%n: i32, %x: memref<?xf32>, %p: i1) kernel {
    %tid = gpu.thread_id x
    %t = arith.index_castui %tid : index to i32
    %bd = gpu.block_dim x
    %b = arith.index_castui %bd : index to i32
    // expected-remark @below {{not a counted loop: the counter may wrap around}}
    %r = scf.while (%i = %t) : (i32) -> (i32) {
      %c = arith.cmpi slt, %i, %n : i32
      scf.condition(%c) %i : i32
    } do {
    ^bb0(%i: i32):
      scf.if %p {
        %idx = arith.index_cast %i : i32 to index
        %v = memref.load %x[%idx] : memref<?xf32>
        memref.store %v, %x[%idx] : memref<?xf32>
      }
      %next = arith.addi %i, %b : i32
      scf.yield %next : i32
    }
    // A signed counter zero-extended into the index: a wrapped (negative)
    // counter would index above 2^31, which a large buffer may hold.
    // expected-remark @below {{not a counted loop: the counter may wrap around}}
    %r2 = scf.while (%i = %t) : (i32) -> (i32) {
      %c = arith.cmpi slt, %i, %n : i32
      scf.condition(%c) %i : i32
    } do {
    ^bb0(%i: i32):
      %idx = arith.index_castui %i : i32 to index
      %v = memref.load %x[%idx] : memref<?xf32>
      memref.store %v, %x[%idx] : memref<?xf32>
      %next = arith.addi %i, %b : i32
      scf.yield %next : i32
    }
    gpu.return
  }
}

// -----

// `for (size_t i = ...; i < n; i += (size_t)blockDim.x * gridDim.x)`: an
// unsigned 64-bit counter stepped by at most the launch's thread count wraps
// only past 2^64 - 2^41, beyond any buffer it indexes: raised. Stepped by a
// parameter, it could wrap to a small index (a step of 2^64 - 1 counts
// down): the loop stays.
// CHECK-LABEL: gpu.func @grid_stride_size_t
// CHECK: scf.for
// CHECK: scf.while
gpu.module @m {
  gpu.func @grid_stride_size_t(%n: i64, %x: memref<?xf32>, %s: i64) kernel {
    %tid = gpu.thread_id x
    %t = arith.index_castui %tid : index to i64
    %r = scf.while (%i = %t) : (i64) -> (i64) {
      %c = arith.cmpi ult, %i, %n : i64
      scf.condition(%c) %i : i64
    } do {
    ^bb0(%i: i64):
      %idx = arith.index_castui %i : i64 to index
      %v = memref.load %x[%idx] : memref<?xf32>
      memref.store %v, %x[%idx] : memref<?xf32>
      %bd = gpu.block_dim x
      %b = arith.index_castui %bd : index to i64
      %gd = gpu.grid_dim x
      %g = arith.index_castui %gd : index to i64
      %st = arith.muli %b, %g : i64
      %next = arith.addi %i, %st : i64
      scf.yield %next : i64
    }
    // expected-remark @below {{not a counted loop: the counter may wrap around}}
    %r2 = scf.while (%i = %t) : (i64) -> (i64) {
      %c = arith.cmpi ult, %i, %n : i64
      scf.condition(%c) %i : i64
    } do {
    ^bb0(%i: i64):
      %idx = arith.index_castui %i : i64 to index
      %v = memref.load %x[%idx] : memref<?xf32>
      memref.store %v, %x[%idx] : memref<?xf32>
      %next = arith.addi %i, %s : i64
      scf.yield %next : i64
    }
    // Stepped by a constant of 2^50, beyond any launch's thread count.
    %big = arith.constant 1125899906842624 : i64
    // expected-remark @below {{not a counted loop: the counter may wrap around}}
    %r3 = scf.while (%i = %t) : (i64) -> (i64) {
      %c = arith.cmpi ult, %i, %n : i64
      scf.condition(%c) %i : i64
    } do {
    ^bb0(%i: i64):
      %idx = arith.index_castui %i : i64 to index
      %v = memref.load %x[%idx] : memref<?xf32>
      memref.store %v, %x[%idx] : memref<?xf32>
      %next = arith.addi %i, %big : i64
      scf.yield %next : i64
    }
    gpu.return
  }
}
