// RUN: ks-opt %s -split-input-file -verify-diagnostics --ks-fuse-launches | FileCheck %s

// Two elementwise launches through t (restrict parameters of the launcher):
// one kernel whose forall runs the first body, then the second, the second's
// load of t replaced by the value the first stored (t is still written); its
// parameters are the launches' distinct operands (t once, not const).
// CHECK-LABEL: gpu.module @kernels
// CHECK-NOT: gpu.func @scale(
// CHECK: gpu.func @scale_square(%[[X:.*]]: memref<?xf32> {ks.const, ks.name = "x"}, %[[T:.*]]: memref<?xf32> {ks.name = "t"}, %[[N:.*]]: index {ks.name = "n"}, %[[Y:.*]]: memref<?xf32> {ks.name = "y"}) kernel attributes {ks.raised}
// CHECK: scf.forall (%[[I:.*]]) in (%[[N]]) {
// CHECK-NEXT: %[[V:.*]] = memref.load %[[X]][%[[I]]]
// CHECK-NEXT: %[[D:.*]] = arith.mulf %[[V]], %{{.*}}
// CHECK-NEXT: memref.store %[[D]], %[[T]][%[[I]]]
// CHECK-NEXT: %[[S:.*]] = arith.mulf %[[D]], %[[D]]
// CHECK-NEXT: memref.store %[[S]], %[[Y]][%[[I]]]
// CHECK-NEXT: }
// CHECK-NOT: gpu.func @square(
// CHECK-LABEL: func.func @launch
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT: gpu.launch_func @kernels::@scale_square blocks in (%[[C1]], %[[C1]], %[[C1]]) threads in (%[[C1]], %[[C1]], %[[C1]]) args(%arg0 : memref<?xf32>, %arg1 : memref<?xf32>, %arg3 : index, %arg2 : memref<?xf32>)
// CHECK-NEXT: return
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%x: memref<?xf32> {ks.const, ks.name = "x"}, %t: memref<?xf32> {ks.name = "t"}, %n: index {ks.name = "n"}) kernel attributes {ks.raised} {
      %two = arith.constant 2.0 : f32
      scf.forall (%i) in (%n) {
        %v = memref.load %x[%i] : memref<?xf32>
        %d = arith.mulf %v, %two : f32
        memref.store %d, %t[%i] : memref<?xf32>
      }
      gpu.return
    }
    gpu.func @square(%t: memref<?xf32> {ks.const, ks.name = "t"}, %y: memref<?xf32> {ks.name = "y"}, %n: index {ks.name = "n"}) kernel attributes {ks.raised} {
      scf.forall (%i) in (%n) {
        %v = memref.load %t[%i] : memref<?xf32>
        %s = arith.mulf %v, %v : f32
        memref.store %s, %y[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @launch(%x: memref<?xf32> {ks.restrict}, %t: memref<?xf32> {ks.restrict}, %y: memref<?xf32> {ks.restrict}, %n: index) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<?xf32>, %t : memref<?xf32>, %n : index)
    gpu.launch_func @kernels::@square blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%t : memref<?xf32>, %y : memref<?xf32>, %n : index)
    return
  }
}

// -----

// The same launches without __restrict__: x, t and y may overlap at an
// offset (point i of the second kernel could read what point i + 1 of the
// first writes): not fused, with a remark.
// CHECK-LABEL: func.func @maybe_overlapping
// CHECK: gpu.launch_func @kernels::@scale
// CHECK: gpu.launch_func @kernels::@square
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%x: memref<?xf32>, %t: memref<?xf32>, %n: index) kernel attributes {ks.raised} {
      %two = arith.constant 2.0 : f32
      scf.forall (%i) in (%n) {
        %v = memref.load %x[%i] : memref<?xf32>
        %d = arith.mulf %v, %two : f32
        memref.store %d, %t[%i] : memref<?xf32>
      }
      gpu.return
    }
    gpu.func @square(%t: memref<?xf32>, %y: memref<?xf32>, %n: index) kernel attributes {ks.raised} {
      scf.forall (%i) in (%n) {
        %v = memref.load %t[%i] : memref<?xf32>
        %s = arith.mulf %v, %v : f32
        memref.store %s, %y[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @maybe_overlapping(%x: memref<?xf32>, %t: memref<?xf32>, %y: memref<?xf32>, %n: index) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<?xf32>, %t : memref<?xf32>, %n : index)
    // expected-remark @below {{ks-fuse-launches: not fused with the launch before: a written buffer and another one may overlap (mark the launcher's pointer parameters __restrict__ to fuse)}}
    gpu.launch_func @kernels::@square blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%t : memref<?xf32>, %y : memref<?xf32>, %n : index)
    return
  }
}

// -----

// The second kernel reads a neighbour of the point (t[i + 1]): another
// point's element of the first kernel's output. Not fused.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%x: memref<?xf32>, %t: memref<?xf32>, %n: index) kernel attributes {ks.raised} {
      %two = arith.constant 2.0 : f32
      scf.forall (%i) in (%n) {
        %v = memref.load %x[%i] : memref<?xf32>
        %d = arith.mulf %v, %two : f32
        memref.store %d, %t[%i] : memref<?xf32>
      }
      gpu.return
    }
    gpu.func @diff(%t: memref<?xf32>, %y: memref<?xf32>, %n: index) kernel attributes {ks.raised} {
      %c1 = arith.constant 1 : index
      scf.forall (%i) in (%n) {
        %j = arith.addi %i, %c1 : index
        %v = memref.load %t[%j] : memref<?xf32>
        memref.store %v, %y[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @neighbour(%x: memref<?xf32> {ks.restrict}, %t: memref<?xf32> {ks.restrict}, %y: memref<?xf32> {ks.restrict}, %n: index) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<?xf32>, %t : memref<?xf32>, %n : index)
    // expected-remark @below {{ks-fuse-launches: not fused with the launch before: 'diff' accesses an element other than the point's own (a neighbour or a scatter)}}
    gpu.launch_func @kernels::@diff blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%t : memref<?xf32>, %y : memref<?xf32>, %n : index)
    return
  }
}

// -----

// Iteration spaces of different sizes (n and m): not fused.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @fill(%t: memref<?xf32>, %n: index) kernel attributes {ks.raised} {
      %one = arith.constant 1.0 : f32
      scf.forall (%i) in (%n) {
        memref.store %one, %t[%i] : memref<?xf32>
      }
      gpu.return
    }
    gpu.func @fill2(%t: memref<?xf32>, %n: index) kernel attributes {ks.raised} {
      %two = arith.constant 2.0 : f32
      scf.forall (%i) in (%n) {
        memref.store %two, %t[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @sizes(%t: memref<?xf32> {ks.restrict}, %n: index, %m: index) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@fill blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%t : memref<?xf32>, %n : index)
    // expected-remark @below {{ks-fuse-launches: not fused with the launch before: the iteration spaces may differ}}
    gpu.launch_func @kernels::@fill2 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%t : memref<?xf32>, %m : index)
    return
  }
}

// -----

// The second kernel writes t before it reads it: its load keeps reading
// memory (K2's own value), not the first kernel's.
// CHECK-LABEL: gpu.func @fill_bump
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[I:.*]]]
// CHECK: memref.store %{{.*}}, %[[T:.*]][%[[I]]]
// CHECK-NEXT: %[[R:.*]] = memref.load %[[T]][%[[I]]]
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @fill(%t: memref<?xf32>, %n: index) kernel attributes {ks.raised} {
      %one = arith.constant 1.0 : f32
      scf.forall (%i) in (%n) {
        memref.store %one, %t[%i] : memref<?xf32>
      }
      gpu.return
    }
    gpu.func @bump(%t: memref<?xf32>, %y: memref<?xf32>, %n: index) kernel attributes {ks.raised} {
      %two = arith.constant 2.0 : f32
      scf.forall (%i) in (%n) {
        memref.store %two, %t[%i] : memref<?xf32>
        %v = memref.load %t[%i] : memref<?xf32>
        memref.store %v, %y[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @rewrite(%t: memref<?xf32> {ks.restrict}, %y: memref<?xf32> {ks.restrict}, %n: index) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@fill blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%t : memref<?xf32>, %n : index)
    gpu.launch_func @kernels::@bump blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%t : memref<?xf32>, %y : memref<?xf32>, %n : index)
    return
  }
}

// -----

// An elementwise kernel over (r, c) into a row sum over r with a loop over
// c: the elementwise body moves to the start of the loop's iteration, at
// the point (r, c); the loop's load of t takes the value (t still written).
// CHECK-LABEL: gpu.func @scale_rowsum(
// CHECK: scf.forall (%[[R:.*]]) in
// CHECK-NEXT: %[[S:.*]] = scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32) {
// CHECK-NEXT: %[[V:.*]] = memref.load %{{.*}}[%[[R]], %[[C]]]
// CHECK-NEXT: %[[D:.*]] = arith.mulf %[[V]]
// CHECK-NEXT: memref.store %[[D]], %{{.*}}[%[[R]], %[[C]]]
// CHECK-NEXT: %[[N:.*]] = arith.addf %[[ACC]], %[[D]]
// CHECK-NEXT: scf.yield %[[N]]
// CHECK: memref.store %[[S]], %{{.*}}[%[[R]]]
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%x: memref<?x?xf32>, %t: memref<?x?xf32>, %m: index, %n: index) kernel attributes {ks.raised} {
      %two = arith.constant 2.0 : f32
      scf.forall (%r, %c) in (%m, %n) {
        %v = memref.load %x[%r, %c] : memref<?x?xf32>
        %d = arith.mulf %v, %two : f32
        memref.store %d, %t[%r, %c] : memref<?x?xf32>
      }
      gpu.return
    }
    gpu.func @rowsum(%t: memref<?x?xf32>, %y: memref<?xf32>, %m: index, %n: index) kernel attributes {ks.raised} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f32
      scf.forall (%r) in (%m) {
        %s = scf.for %c = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
          %v = memref.load %t[%r, %c] : memref<?x?xf32>
          %a = arith.addf %acc, %v : f32
          scf.yield %a : f32
        }
        memref.store %s, %y[%r] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @launch(%x: memref<?x?xf32> {ks.restrict}, %t: memref<?x?xf32> {ks.restrict}, %y: memref<?xf32> {ks.restrict}, %m: index, %n: index) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<?x?xf32>, %t : memref<?x?xf32>, %m : index, %n : index)
    gpu.launch_func @kernels::@rowsum blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%t : memref<?x?xf32>, %y : memref<?xf32>, %m : index, %n : index)
    return
  }
}

// -----

// The row sum also reads t after its loop (its last element): not every
// read of t is one of the loop's points. Not fused.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%x: memref<?x?xf32>, %t: memref<?x?xf32>, %m: index, %n: index) kernel attributes {ks.raised} {
      %two = arith.constant 2.0 : f32
      scf.forall (%r, %c) in (%m, %n) {
        %v = memref.load %x[%r, %c] : memref<?x?xf32>
        %d = arith.mulf %v, %two : f32
        memref.store %d, %t[%r, %c] : memref<?x?xf32>
      }
      gpu.return
    }
    gpu.func @rowsum_last(%t: memref<?x?xf32>, %y: memref<?xf32>, %m: index, %n: index) kernel attributes {ks.raised} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f32
      scf.forall (%r) in (%m) {
        %s = scf.for %c = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
          %v = memref.load %t[%r, %c] : memref<?x?xf32>
          %a = arith.addf %acc, %v : f32
          scf.yield %a : f32
        }
        %last = arith.subi %n, %c1 : index
        %l = memref.load %t[%r, %last] : memref<?x?xf32>
        %b = arith.addf %s, %l : f32
        memref.store %b, %y[%r] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @outside(%x: memref<?x?xf32> {ks.restrict}, %t: memref<?x?xf32> {ks.restrict}, %y: memref<?xf32> {ks.restrict}, %m: index, %n: index) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<?x?xf32>, %t : memref<?x?xf32>, %m : index, %n : index)
    // expected-remark @below {{ks-fuse-launches: not fused with the launch before: 'rowsum_last' accesses an element other than the point's own (a neighbour or a scatter)}}
    gpu.launch_func @kernels::@rowsum_last blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%t : memref<?x?xf32>, %y : memref<?xf32>, %m : index, %n : index)
    return
  }
}

// -----

// The row sum also writes t (in its loop): the producer's output is not
// only read. Not fused (the rule is kept simple: forwarding would have to
// follow the consumer's own stores).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%x: memref<?x?xf32>, %t: memref<?x?xf32>, %m: index, %n: index) kernel attributes {ks.raised} {
      %two = arith.constant 2.0 : f32
      scf.forall (%r, %c) in (%m, %n) {
        %v = memref.load %x[%r, %c] : memref<?x?xf32>
        %d = arith.mulf %v, %two : f32
        memref.store %d, %t[%r, %c] : memref<?x?xf32>
      }
      gpu.return
    }
    gpu.func @rowsum_halve(%t: memref<?x?xf32>, %y: memref<?xf32>, %m: index, %n: index) kernel attributes {ks.raised} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f32
      %half = arith.constant 0.5 : f32
      scf.forall (%r) in (%m) {
        %s = scf.for %c = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
          %v = memref.load %t[%r, %c] : memref<?x?xf32>
          %h = arith.mulf %v, %half : f32
          memref.store %h, %t[%r, %c] : memref<?x?xf32>
          %a = arith.addf %acc, %v : f32
          scf.yield %a : f32
        }
        memref.store %s, %y[%r] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @rewrites(%x: memref<?x?xf32> {ks.restrict}, %t: memref<?x?xf32> {ks.restrict}, %y: memref<?xf32> {ks.restrict}, %m: index, %n: index) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<?x?xf32>, %t : memref<?x?xf32>, %m : index, %n : index)
    // expected-remark @below {{ks-fuse-launches: not fused with the launch before: the consumer writes the producer's output, or reads it outside its loop}}
    gpu.launch_func @kernels::@rowsum_halve blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%t : memref<?x?xf32>, %y : memref<?xf32>, %m : index, %n : index)
    return
  }
}

// -----

// A host value computed between the two launches (pure) that only the
// second takes: the fused launch goes where the second was.
// CHECK-LABEL: func.func @between
// CHECK: %[[A:.*]] = arith.addi %arg3, %arg3 : index
// CHECK-NEXT: gpu.launch_func @kernels::@copy_fill_{{.*}}args(%arg0 : memref<?xf32>, %arg1 : memref<?xf32>, %arg3 : index, %arg2 : memref<?xf32>, %[[A]] : index)
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @copy(%x: memref<?xf32>, %t: memref<?xf32>, %n: index) kernel attributes {ks.raised} {
      scf.forall (%i) in (%n) {
        %v = memref.load %x[%i] : memref<?xf32>
        memref.store %v, %t[%i] : memref<?xf32>
      }
      gpu.return
    }
    gpu.func @fill_index(%y: memref<?xf32>, %n: index, %k: index) kernel attributes {ks.raised} {
      scf.forall (%i) in (%n) {
        %w = arith.addi %i, %k : index
        %c = arith.index_cast %w : index to i32
        %f = arith.sitofp %c : i32 to f32
        memref.store %f, %y[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @between(%x: memref<?xf32> {ks.restrict}, %t: memref<?xf32> {ks.restrict}, %y: memref<?xf32> {ks.restrict}, %n: index) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@copy blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<?xf32>, %t : memref<?xf32>, %n : index)
    %a = arith.addi %n, %n : index
    gpu.launch_func @kernels::@fill_index blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%y : memref<?xf32>, %n : index, %a : index)
    return
  }
}

// -----

// The same kernel twice: not fused (its arguments would map twice).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @twice(%x: memref<?xf32>, %t: memref<?xf32>, %n: index) kernel attributes {ks.raised} {
      scf.forall (%i) in (%n) {
        %v = memref.load %x[%i] : memref<?xf32>
        memref.store %v, %t[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @again(%x: memref<?xf32> {ks.restrict}, %t: memref<?xf32> {ks.restrict}, %y: memref<?xf32> {ks.restrict}, %n: index) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@twice blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<?xf32>, %t : memref<?xf32>, %n : index)
    // expected-remark @below {{ks-fuse-launches: not fused with the launch before: the same kernel is launched twice}}
    gpu.launch_func @kernels::@twice blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%t : memref<?xf32>, %y : memref<?xf32>, %n : index)
    return
  }
}

// -----

// The same pair in two launchers: two fused kernels, the second renamed;
// the originals stay while the other launcher still launches them, and go
// once nothing does.
// CHECK-LABEL: gpu.module @kernels
// CHECK-DAG: gpu.func @copy_neg(
// CHECK-DAG: gpu.func @copy_neg_{{[0-9]+}}(
// CHECK-NOT: gpu.func @copy(
// CHECK-LABEL: func.func @first
// CHECK: gpu.launch_func @kernels::@copy_neg
// CHECK-LABEL: func.func @second
// CHECK: gpu.launch_func @kernels::@copy_neg_{{[0-9]+}}
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @copy(%x: memref<?xf32>, %t: memref<?xf32>, %n: index) kernel attributes {ks.raised} {
      scf.forall (%i) in (%n) {
        %v = memref.load %x[%i] : memref<?xf32>
        memref.store %v, %t[%i] : memref<?xf32>
      }
      gpu.return
    }
    gpu.func @neg(%t: memref<?xf32>, %y: memref<?xf32>, %n: index) kernel attributes {ks.raised} {
      scf.forall (%i) in (%n) {
        %v = memref.load %t[%i] : memref<?xf32>
        %w = arith.negf %v : f32
        memref.store %w, %y[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @first(%x: memref<?xf32> {ks.restrict}, %t: memref<?xf32> {ks.restrict}, %y: memref<?xf32> {ks.restrict}, %n: index) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@copy blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<?xf32>, %t : memref<?xf32>, %n : index)
    gpu.launch_func @kernels::@neg blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%t : memref<?xf32>, %y : memref<?xf32>, %n : index)
    return
  }
  func.func @second(%x: memref<?xf32> {ks.restrict}, %t: memref<?xf32> {ks.restrict}, %y: memref<?xf32> {ks.restrict}, %n: index) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@copy blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<?xf32>, %t : memref<?xf32>, %n : index)
    gpu.launch_func @kernels::@neg blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%t : memref<?xf32>, %y : memref<?xf32>, %n : index)
    return
  }
}

// -----

// t is the launcher's own buffer (ks.allocated: no other buffer overlaps
// it; ks.scratch: no host code reads it). Once the second launch's load of
// t takes the stored value, no launch reads t: its store goes. y is the
// launcher's own too and no host code reads it either (a benchmark's
// result), but it is no intermediate: it stays written.
// CHECK-LABEL: gpu.func @scale_square
// CHECK-SAME: %[[T:[^:]*]]: memref<?xf32> {ks.name = "t"}, %{{[^:]*}}: index {ks.name = "n"}, %[[Y:[^:]*]]: memref<?xf32> {ks.name = "y"}
// CHECK-NOT: memref.store %{{.*}}, %[[T]]
// CHECK: memref.store %{{.*}}, %[[Y]]
// CHECK-NOT: memref.store %{{.*}}, %[[T]]
// CHECK: gpu.return
// CHECK-LABEL: func.func @scratch
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%x: memref<?xf32> {ks.const, ks.name = "x"}, %t: memref<?xf32> {ks.name = "t"}, %n: index {ks.name = "n"}) kernel attributes {ks.raised} {
      %two = arith.constant 2.0 : f32
      scf.forall (%i) in (%n) {
        %v = memref.load %x[%i] : memref<?xf32>
        %d = arith.mulf %v, %two : f32
        memref.store %d, %t[%i] : memref<?xf32>
      }
      gpu.return
    }
    gpu.func @square(%t: memref<?xf32> {ks.const, ks.name = "t"}, %y: memref<?xf32> {ks.name = "y"}, %n: index {ks.name = "n"}) kernel attributes {ks.raised} {
      scf.forall (%i) in (%n) {
        %v = memref.load %t[%i] : memref<?xf32>
        %s = arith.mulf %v, %v : f32
        memref.store %s, %y[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @scratch(%x: memref<?xf32> {ks.restrict}, %y: memref<?xf32> {ks.allocated, ks.scratch, ks.name = "y"}, %n: index, %t: memref<?xf32> {ks.allocated, ks.scratch, ks.name = "t"}) {
    %c1 = arith.constant 1 : index
    // expected-remark @below {{ks-fuse-launches: 't' is the launcher's own buffer and no launch reads it now: no longer written}}
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<?xf32>, %t : memref<?xf32>, %n : index)
    gpu.launch_func @kernels::@square blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%t : memref<?xf32>, %y : memref<?xf32>, %n : index)
    return
  }
}

// -----

// The same, but a later launch (over another space: not fused) reads t:
// t is still written.
// CHECK-LABEL: gpu.func @scale_square
// CHECK-SAME: %[[T:[^:]*]]: memref<?xf32> {ks.name = "t"}
// CHECK: memref.store %{{.*}}, %[[T]]
// CHECK-LABEL: func.func @scratch_read_later
// CHECK: gpu.launch_func @kernels::@scale_square
// CHECK: gpu.launch_func @kernels::@square
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%x: memref<?xf32> {ks.const, ks.name = "x"}, %t: memref<?xf32> {ks.name = "t"}, %n: index {ks.name = "n"}) kernel attributes {ks.raised} {
      %two = arith.constant 2.0 : f32
      scf.forall (%i) in (%n) {
        %v = memref.load %x[%i] : memref<?xf32>
        %d = arith.mulf %v, %two : f32
        memref.store %d, %t[%i] : memref<?xf32>
      }
      gpu.return
    }
    gpu.func @square(%t: memref<?xf32> {ks.const, ks.name = "t"}, %y: memref<?xf32> {ks.name = "y"}, %n: index {ks.name = "n"}) kernel attributes {ks.raised} {
      scf.forall (%i) in (%n) {
        %v = memref.load %t[%i] : memref<?xf32>
        %s = arith.mulf %v, %v : f32
        memref.store %s, %y[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @scratch_read_later(%x: memref<?xf32> {ks.restrict}, %y: memref<?xf32> {ks.restrict}, %z: memref<?xf32> {ks.restrict}, %n: index, %m: index, %t: memref<?xf32> {ks.allocated, ks.scratch, ks.name = "t"}) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<?xf32>, %t : memref<?xf32>, %n : index)
    gpu.launch_func @kernels::@square blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%t : memref<?xf32>, %y : memref<?xf32>, %n : index)
    // expected-remark @below {{ks-fuse-launches: not fused with the launch before: the iteration spaces may differ}}
    gpu.launch_func @kernels::@square blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%t : memref<?xf32>, %z : memref<?xf32>, %m : index)
    return
  }
}

// -----

// A fresh allocation overlaps no other buffer: t is ks.allocated but no
// __restrict__ parameter, and the launches fuse all the same (x and y, a
// read and a written parameter, must still be __restrict__). t is not
// ks.scratch: the caller's code may read it, so it is still written.
// CHECK-LABEL: gpu.func @scale_square
// CHECK-SAME: %[[T:[^:]*]]: memref<?xf32> {ks.name = "t"}
// CHECK: memref.store %{{.*}}, %[[T]]
// CHECK-LABEL: func.func @allocated_not_restrict
// CHECK: gpu.launch_func @kernels::@scale_square
// CHECK-NEXT: return
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%x: memref<?xf32> {ks.const, ks.name = "x"}, %t: memref<?xf32> {ks.name = "t"}, %n: index {ks.name = "n"}) kernel attributes {ks.raised} {
      %two = arith.constant 2.0 : f32
      scf.forall (%i) in (%n) {
        %v = memref.load %x[%i] : memref<?xf32>
        %d = arith.mulf %v, %two : f32
        memref.store %d, %t[%i] : memref<?xf32>
      }
      gpu.return
    }
    gpu.func @square(%t: memref<?xf32> {ks.const, ks.name = "t"}, %y: memref<?xf32> {ks.name = "y"}, %n: index {ks.name = "n"}) kernel attributes {ks.raised} {
      scf.forall (%i) in (%n) {
        %v = memref.load %t[%i] : memref<?xf32>
        %s = arith.mulf %v, %v : f32
        memref.store %s, %y[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @allocated_not_restrict(%x: memref<?xf32> {ks.restrict}, %y: memref<?xf32> {ks.restrict}, %n: index, %t: memref<?xf32> {ks.allocated, ks.name = "t"}) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<?xf32>, %t : memref<?xf32>, %n : index)
    gpu.launch_func @kernels::@square blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%t : memref<?xf32>, %y : memref<?xf32>, %n : index)
    return
  }
}
