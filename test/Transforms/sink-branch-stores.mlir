// RUN: ks-opt %s -split-input-file --ks-sink-branch-stores | FileCheck %s

// Both branches end storing to out[%i]: the values are yielded, one store
// follows the if.
// CHECK-LABEL: func.func @border_copy
// CHECK: %[[V:.*]] = scf.if %{{.*}} -> (f32) {
// CHECK-NEXT: %[[A:.*]] = memref.load %arg0[%arg2]
// CHECK-NEXT: scf.yield %[[A]] : f32
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[B:.*]] = memref.load %arg0[%arg2]
// CHECK-NEXT: %[[C:.*]] = arith.mulf %[[B]], %[[B]]
// CHECK-NEXT: scf.yield %[[C]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: memref.store %[[V]], %arg1[%arg2] : memref<?xf32>
// CHECK-NOT: memref.store
func.func @border_copy(%in: memref<?xf32>, %out: memref<?xf32>, %i: index, %c: i1) {
  scf.if %c {
    %a = memref.load %in[%i] : memref<?xf32>
    memref.store %a, %out[%i] : memref<?xf32>
  } else {
    %b = memref.load %in[%i] : memref<?xf32>
    %s = arith.mulf %b, %b : f32
    memref.store %s, %out[%i] : memref<?xf32>
  }
  return
}

// -----

// An if with results keeps them, the stored value after them; nested ifs
// sink from the inside out.
// CHECK-LABEL: func.func @results_and_nesting
// CHECK: %[[R:.*]]:2 = scf.if %arg3 -> (index, f32) {
// CHECK: %[[INNER:.*]] = scf.if %arg4 -> (f32) {
// CHECK: }
// CHECK: scf.yield %{{.*}}, %[[INNER]] : index, f32
// CHECK: } else {
// CHECK: scf.yield %{{.*}}, %{{.*}} : index, f32
// CHECK: }
// CHECK-NEXT: memref.store %[[R]]#1, %arg1[%arg2]
// CHECK-NOT: memref.store
// CHECK: return %[[R]]#0
func.func @results_and_nesting(%in: memref<?xf32>, %out: memref<?xf32>, %i: index, %c: i1, %d: i1) -> index {
  %c1 = arith.constant 1 : index
  %r = scf.if %c -> (index) {
    scf.if %d {
      %a = memref.load %in[%i] : memref<?xf32>
      memref.store %a, %out[%i] : memref<?xf32>
    } else {
      %z = arith.constant 0.0 : f32
      memref.store %z, %out[%i] : memref<?xf32>
    }
    scf.yield %i : index
  } else {
    %j = arith.addi %i, %c1 : index
    %one = arith.constant 1.0 : f32
    memref.store %one, %out[%i] : memref<?xf32>
    scf.yield %j : index
  }
  return %r : index
}

// -----

// Not the same element (other indices, an index computed in a branch), or
// an op after the store: left as they are.
// CHECK-LABEL: func.func @left_alone
// CHECK-COUNT-7: memref.store
// CHECK-NOT: scf.if {{.*}} -> (f32)
func.func @left_alone(%in: memref<?xf32>, %out: memref<?xf32>, %i: index, %j: index, %c: i1) {
  %z = arith.constant 0.0 : f32
  scf.if %c {
    memref.store %z, %out[%i] : memref<?xf32>
  } else {
    memref.store %z, %out[%j] : memref<?xf32>
  }
  scf.if %c {
    %k = arith.addi %i, %j : index
    memref.store %z, %out[%k] : memref<?xf32>
  } else {
    %k = arith.addi %i, %j : index
    memref.store %z, %out[%k] : memref<?xf32>
  }
  scf.if %c {
    memref.store %z, %out[%i] : memref<?xf32>
    %a = memref.load %in[%i] : memref<?xf32>
    memref.store %a, %in[%j] : memref<?xf32>
  } else {
    memref.store %z, %out[%i] : memref<?xf32>
  }
  return
}

// -----

// Nontemporal stores of the same element: the one store after the if keeps
// the flag and the alignment.
// CHECK-LABEL: func.func @streaming
// CHECK: %[[V:.*]] = scf.if
// CHECK: memref.store %[[V]], %arg1[%arg2] {alignment = 4 : i64, nontemporal = true} : memref<?xf32>
func.func @streaming(%in: memref<?xf32>, %out: memref<?xf32>, %i: index, %c: i1) {
  scf.if %c {
    %a = memref.load %in[%i] : memref<?xf32>
    memref.store %a, %out[%i] {alignment = 4 : i64, nontemporal = true} : memref<?xf32>
  } else {
    %b = arith.constant 0.0 : f32
    memref.store %b, %out[%i] {alignment = 4 : i64, nontemporal = true} : memref<?xf32>
  }
  return
}

// -----

// One store nontemporal, the other not: two different stores, left alone.
// CHECK-LABEL: func.func @mixed
// CHECK: scf.if %{{.*}} {
// CHECK: memref.store %{{.*}}, %arg1[%arg2] {nontemporal = true}
// CHECK: } else {
// CHECK: memref.store %{{.*}}, %arg1[%arg2] : memref<?xf32>
func.func @mixed(%in: memref<?xf32>, %out: memref<?xf32>, %i: index, %c: i1) {
  scf.if %c {
    %a = memref.load %in[%i] : memref<?xf32>
    memref.store %a, %out[%i] {nontemporal = true} : memref<?xf32>
  } else {
    %b = arith.constant 0.0 : f32
    memref.store %b, %out[%i] : memref<?xf32>
  }
  return
}
