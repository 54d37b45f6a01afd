// RUN: ks-opt %s -split-input-file -verify-diagnostics --ks-unroll-marked-loops | FileCheck %s

// Marked loops are unrolled, innermost first (ks.unroll: fully; an
// integer: by that factor); unmarked loops stay.
// CHECK-LABEL: func.func @marked
// CHECK-COUNT-6: memref.store
// CHECK-NOT: memref.store
// CHECK: scf.for
// CHECK-COUNT-2: memref.load
func.func @marked(%buf: memref<2x3xf32>, %n: index, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  scf.for %i = %c0 to %c2 step %c1 {
    scf.for %j = %c0 to %c3 step %c1 {
      memref.store %v, %buf[%i, %j] : memref<2x3xf32>
    } {ks.unroll}
  } {ks.unroll}
  scf.for %k = %c0 to %n step %c1 {
    scf.for %l = %c0 to %c2 step %c1 {
      %x = memref.load %buf[%l, %c0] : memref<2x3xf32>
    } {ks.unroll = 2 : i64}
  }
  return
}

// -----

func.func @dynamic(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @below {{ks-unroll-marked-loops: cannot unroll this loop (its trip count is not constant)}}
  scf.for %i = %c0 to %n step %c1 {
  } {ks.unroll}
  return
}
