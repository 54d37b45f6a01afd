// RUN: ks-opt %s -split-input-file -verify-diagnostics --transform-interpreter --canonicalize --cse | FileCheck %s

// A histogram of bytes: 256 private counters zeroed, each thread's points
// b * 128 * 4 + t + k * 128 (loads of 2 points, then their updates into
// shared memory; a byte is provably below 256, so no test), a barrier, and
// one global update per non-zero counter. The launch: ceil(n / 512) blocks
// of 128.
// CHECK-LABEL: gpu.func @histogram
// CHECK-SAME: workgroup(%[[PRIV:.*]] : memref<256xi32, #gpu.address_space<workgroup>>
// CHECK-SAME: known_block_size = array<i32: 128, 1, 1>, ks.schedule = "simt_privatized_atomics"
// CHECK: %[[TX:.*]] = gpu.thread_id x
// CHECK: scf.for %[[K:.*]] = %[[TX]] to %c256 step %c128 {
// CHECK-NEXT: memref.store %c0_i32, %[[PRIV]][%[[K]]]
// CHECK: gpu.barrier
// CHECK: %[[B:.*]] = gpu.block_id x
// CHECK: %[[FIRST:.*]] = arith.muli %[[B]], %c512
// CHECK: scf.for %{{.*}} = %c0 to %c4 step %c2 {
// CHECK: %[[I0:.*]] = scf.if %{{.*}} -> (index) {
// CHECK: memref.load
// CHECK: %[[I1:.*]] = scf.if %{{.*}} -> (index) {
// CHECK: memref.load
// CHECK-NOT: arith.cmpi ult, %[[I0]]
// CHECK: memref.atomic_rmw addi %{{.*}}, %[[PRIV]][%[[I0]]]
// CHECK: memref.atomic_rmw addi %{{.*}}, %[[PRIV]][%[[I1]]]
// CHECK: gpu.barrier
// CHECK: scf.for %[[M:.*]] = %[[TX]] to %c256 step %c128 {
// CHECK: %[[C:.*]] = memref.load %[[PRIV]][%[[M]]]
// CHECK: %[[NZ:.*]] = arith.cmpi ne, %[[C]], %c0_i32
// CHECK: scf.if %[[NZ]] {
// CHECK: memref.atomic_rmw addi %[[C]], %arg1[%[[M]]] : (i32, memref<?xi32>)
// CHECK-LABEL: func.func @launch
// CHECK: %[[G:.*]] = arith.ceildivui %{{.*}}, %c512
// CHECK: gpu.launch_func @kernels::@histogram blocks in (%[[G]], %c1, %c1) threads in (%c128, %c1, %c1)
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @histogram(%in: memref<?xi8>, %bins: memref<?xi32>, %n: i32) kernel attributes {ks.raised} {
      %one = arith.constant 1 : i32
      %m = arith.index_cast %n : i32 to index
      scf.forall (%i) in (%m) {
        %byte = memref.load %in[%i] : memref<?xi8>
        %bin = arith.index_castui %byte : i8 to index
        %old = memref.atomic_rmw addi %one, %bins[%bin] : (i32, memref<?xi32>) -> i32
      }
      gpu.return
    }
  }
  func.func @launch(%in: memref<?xi8>, %bins: memref<?xi32>, %n: i32) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@histogram blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%in : memref<?xi8>, %bins : memref<?xi32>, %n : i32)
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %k = transform.ks.simt_privatized_atomics %f {bins = 256, threads = 128, items_per_thread = 4, unroll = 2} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// An index nothing bounds (a 32-bit value), float weights: updates below
// `bins` go to the private counters, the others to the global buffer as
// before; the merge skips counters equal to 0.0.
// CHECK-LABEL: gpu.func @weighted
// CHECK-SAME: workgroup(%[[PRIV:.*]] : memref<64xf32, #gpu.address_space<workgroup>>
// CHECK: %[[HELD:.*]] = arith.cmpi ult, %[[IDX:.*]], %c64 : index
// CHECK: scf.if %[[HELD]] {
// CHECK-NEXT: memref.atomic_rmw addf %{{.*}}, %[[PRIV]][%[[IDX]]]
// CHECK: } else {
// CHECK-NEXT: memref.atomic_rmw addf %{{.*}}, %arg2[%[[IDX]]] : (f32, memref<?xf32>)
// CHECK: gpu.barrier
// CHECK: arith.cmpf une, %{{.*}}, %cst
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @weighted(%key: memref<?xi32>, %w: memref<?xf32>, %bins: memref<?xf32>, %n: index) kernel attributes {ks.raised} {
      scf.forall (%i) in (%n) {
        %k = memref.load %key[%i] : memref<?xi32>
        %idx = arith.index_cast %k : i32 to index
        %x = memref.load %w[%i] : memref<?xf32>
        %old = memref.atomic_rmw addf %x, %bins[%idx] : (f32, memref<?xf32>) -> f32
      }
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %k = transform.ks.simt_privatized_atomics %f {bins = 64, threads = 64, items_per_thread = 1, unroll = 1} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A maximum is not privatized (only additions).
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @maxes(%key: memref<?xi8>, %bins: memref<?xi32>, %n: index) kernel attributes {ks.raised} {
      %c = arith.constant 7 : i32
      // expected-note @below {{target}}
      scf.forall (%i) in (%n) {
        %k = memref.load %key[%i] : memref<?xi8>
        %idx = arith.index_castui %k : i8 to index
        %old = memref.atomic_rmw maxs %c, %bins[%idx] : (i32, memref<?xi32>) -> i32
      }
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{ks.simt_privatized_atomics: the atomic update is 'maxs'; only additions (addi, addf) are privatized}}
    %k = transform.ks.simt_privatized_atomics %f : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// The old value is used: refused.
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @ticket(%key: memref<?xi8>, %bins: memref<?xi32>, %out: memref<?xi32>, %n: index) kernel attributes {ks.raised} {
      %one = arith.constant 1 : i32
      // expected-note @below {{target}}
      scf.forall (%i) in (%n) {
        %k = memref.load %key[%i] : memref<?xi8>
        %idx = arith.index_castui %k : i8 to index
        %old = memref.atomic_rmw addi %one, %bins[%idx] : (i32, memref<?xi32>) -> i32
        memref.store %old, %out[%i] : memref<?xi32>
      }
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{ks.simt_privatized_atomics: the atomic update's old value is used}}
    %k = transform.ks.simt_privatized_atomics %f : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// The counters are also read: refused (the private copy would hide updates).
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @peek(%key: memref<?xi8>, %bins: memref<?xi32>, %n: index) kernel attributes {ks.raised} {
      %one = arith.constant 1 : i32
      // expected-note @below {{target}}
      scf.forall (%i) in (%n) {
        %k = memref.load %key[%i] : memref<?xi8>
        %idx = arith.index_castui %k : i8 to index
        %seen = memref.load %bins[%i] : memref<?xi32>
        %w = arith.addi %seen, %one : i32
        %old = memref.atomic_rmw addi %w, %bins[%idx] : (i32, memref<?xi32>) -> i32
      }
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{ks.simt_privatized_atomics: the kernel reads or writes the counters' buffer besides the atomic update}}
    %k = transform.ks.simt_privatized_atomics %f : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A conditional update (the atomic inside an scf.if): refused, saying so.
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @some(%key: memref<?xi8>, %bins: memref<?xi32>, %n: index) kernel attributes {ks.raised} {
      %one = arith.constant 1 : i32
      %zero = arith.constant 0 : i8
      // expected-note @below {{target}}
      scf.forall (%i) in (%n) {
        %k = memref.load %key[%i] : memref<?xi8>
        %nz = arith.cmpi ne, %k, %zero : i8
        scf.if %nz {
          %idx = arith.index_castui %k : i8 to index
          %old = memref.atomic_rmw addi %one, %bins[%idx] : (i32, memref<?xi32>) -> i32
        }
      }
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{ks.simt_privatized_atomics: the atomic update is nested in a region of the body}}
    %k = transform.ks.simt_privatized_atomics %f : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Knobs that cannot apply.
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @knobs(%key: memref<?xi8>, %bins: memref<?xi32>, %n: index) kernel attributes {ks.raised} {
      %one = arith.constant 1 : i32
      // expected-note @below {{target}}
      scf.forall (%i) in (%n) {
        %k = memref.load %key[%i] : memref<?xi8>
        %idx = arith.index_castui %k : i8 to index
        %old = memref.atomic_rmw addi %one, %bins[%idx] : (i32, memref<?xi32>) -> i32
      }
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{ks.simt_privatized_atomics: unroll must divide items_per_thread}}
    %k = transform.ks.simt_privatized_atomics %f {items_per_thread = 6, unroll = 4} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Counters beyond shared memory.
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @huge(%key: memref<?xi32>, %bins: memref<?xi32>, %n: index) kernel attributes {ks.raised} {
      %one = arith.constant 1 : i32
      // expected-note @below {{target}}
      scf.forall (%i) in (%n) {
        %k = memref.load %key[%i] : memref<?xi32>
        %idx = arith.index_cast %k : i32 to index
        %old = memref.atomic_rmw addi %one, %bins[%idx] : (i32, memref<?xi32>) -> i32
      }
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{ks.simt_privatized_atomics: the private counters need 1048576 bytes of shared memory}}
    %k = transform.ks.simt_privatized_atomics %f {bins = 262144} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// copies = 4: four copies of the 256 counters (1024 zeroed), warp w adding
// into copy w % 4 at offset (w % 4) * 256; the merge adds a counter's four
// copies before its one global update.
// CHECK-LABEL: gpu.func @per_warp
// CHECK-SAME: workgroup(%[[PRIV:.*]] : memref<1024xi32, #gpu.address_space<workgroup>>
// CHECK: %[[TX:.*]] = gpu.thread_id x
// CHECK: %[[WARP:.*]] = arith.divui %[[TX]], %c32
// CHECK: %[[COPY:.*]] = arith.remui %[[WARP]], %c4
// CHECK: %[[OFFSET:.*]] = arith.muli %[[COPY]], %c256
// CHECK: scf.for %[[K:.*]] = %[[TX]] to %c1024 step %c128 {
// CHECK-NEXT: memref.store %c0_i32, %[[PRIV]][%[[K]]]
// CHECK: gpu.barrier
// CHECK: %[[SLOT:.*]] = arith.addi %[[OFFSET]], %{{.*}} : index
// CHECK: memref.atomic_rmw addi %{{.*}}, %[[PRIV]][%[[SLOT]]]
// CHECK: gpu.barrier
// CHECK: scf.for %[[M:.*]] = %[[TX]] to %c256 step %c128 {
// CHECK: %[[C0:.*]] = memref.load %[[PRIV]][%[[M]]]
// CHECK: %[[M1:.*]] = arith.addi %[[M]], %c256
// CHECK: %[[C1:.*]] = memref.load %[[PRIV]][%[[M1]]]
// CHECK: %[[S1:.*]] = arith.addi %[[C0]], %[[C1]] : i32
// CHECK: %[[M2:.*]] = arith.addi %[[M]], %c512
// CHECK: %[[C2:.*]] = memref.load %[[PRIV]][%[[M2]]]
// CHECK: %[[S2:.*]] = arith.addi %[[S1]], %[[C2]] : i32
// CHECK: %[[M3:.*]] = arith.addi %[[M]], %c768
// CHECK: %[[C3:.*]] = memref.load %[[PRIV]][%[[M3]]]
// CHECK: %[[S3:.*]] = arith.addi %[[S2]], %[[C3]] : i32
// CHECK: arith.cmpi ne, %[[S3]], %c0_i32
// CHECK: memref.atomic_rmw addi %[[S3]], %arg1[%[[M]]] : (i32, memref<?xi32>)
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @per_warp(%in: memref<?xi8>, %bins: memref<?xi32>, %n: i32) kernel attributes {ks.raised} {
      %one = arith.constant 1 : i32
      %m = arith.index_cast %n : i32 to index
      scf.forall (%i) in (%m) {
        %byte = memref.load %in[%i] : memref<?xi8>
        %bin = arith.index_castui %byte : i8 to index
        %old = memref.atomic_rmw addi %one, %bins[%bin] : (i32, memref<?xi32>) -> i32
      }
      gpu.return
    }
  }
  func.func @launch(%in: memref<?xi8>, %bins: memref<?xi32>, %n: i32) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@per_warp blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%in : memref<?xi8>, %bins : memref<?xi32>, %n : i32)
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %k = transform.ks.simt_privatized_atomics %f {bins = 256, threads = 128, items_per_thread = 4, unroll = 1, copies = 4} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// copies must divide the block's warps.
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @copies(%key: memref<?xi8>, %bins: memref<?xi32>, %n: index) kernel attributes {ks.raised} {
      %one = arith.constant 1 : i32
      // expected-note @below {{target}}
      scf.forall (%i) in (%n) {
        %k = memref.load %key[%i] : memref<?xi8>
        %idx = arith.index_castui %k : i8 to index
        %old = memref.atomic_rmw addi %one, %bins[%idx] : (i32, memref<?xi32>) -> i32
      }
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{ks.simt_privatized_atomics: copies must be a power of two dividing the block's warps (4)}}
    %k = transform.ks.simt_privatized_atomics %f {threads = 128, copies = 8} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Warp-aggregated updates of a byte histogram: each point's counter is
// matched across the warp (the key a 32-bit copy of the index, provably
// below 256 here), the lowest lane of a match (no lane below it in the
// mask) adds 1 times the match's size into the private counter.
// CHECK-LABEL: gpu.func @aggregated
// CHECK-SAME: workgroup(%[[PRIV:.*]] : memref<256xi32, #gpu.address_space<workgroup>>
// CHECK: %[[TX:.*]] = gpu.thread_id x
// CHECK: %[[LANE:.*]] = arith.remui %[[TX]], %c32
// CHECK: %[[LANE32:.*]] = arith.index_castui %[[LANE]] : index to i32
// CHECK: %[[ABOVE:.*]] = arith.shli %c-1_i32, %[[LANE32]]
// CHECK: %[[BELOW:.*]] = arith.xori %[[ABOVE]], %c-1_i32
// CHECK: %[[IDX:.*]] = scf.if %[[IN:.*]] -> (index) {
// CHECK: %[[KEY32:.*]] = arith.index_castui %[[IDX]] : index to i32
// CHECK: %[[KEY:.*]] = arith.select %[[IN]], %[[KEY32]], %c256_i32
// CHECK: %[[SAME:.*]] = nvvm.match.sync  any %c-1_i32, %[[KEY]] : i32 -> i32
// CHECK: %[[LOW:.*]] = arith.andi %[[SAME]], %[[BELOW]]
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[LOW]], %c0_i32
// CHECK: %[[GO:.*]] = arith.andi %[[IN]], %[[FIRST]]
// CHECK: scf.if %[[GO]] {
// CHECK-NEXT: %[[N:.*]] = math.ctpop %[[SAME]] : i32
// CHECK-NEXT: memref.atomic_rmw addi %[[N]], %[[PRIV]][%[[IDX]]]
// CHECK-NOT: memref.atomic_rmw addi %{{.*}}, %arg1
// CHECK: gpu.barrier
// CHECK: memref.atomic_rmw addi %{{.*}}, %arg1
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @aggregated(%in: memref<?xi8>, %bins: memref<?xi32>, %n: index) kernel attributes {ks.raised} {
      scf.forall (%i) in (%n) {
        %one = arith.constant 1 : i32
        %byte = memref.load %in[%i] : memref<?xi8>
        %bin = arith.index_castui %byte : i8 to index
        %old = memref.atomic_rmw addi %one, %bins[%bin] : (i32, memref<?xi32>) -> i32
      }
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %k = transform.ks.simt_privatized_atomics %f {bins = 256, threads = 64, items_per_thread = 1, unroll = 1, aggregate = true} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Aggregated, an index nothing bounds and a float weight defined outside
// the forall: lanes past the private counters take the key 64 and are never
// a match's adding lane; they add into the global buffer one by one. The
// private amount is the weight times the match's size, as a float.
// CHECK-LABEL: gpu.func @aggregated_weight
// CHECK: %[[HELD:.*]] = arith.cmpi ult, %[[IDX:.*]], %c64 : index
// CHECK: %[[OK:.*]] = arith.andi %[[IN:.*]], %[[HELD]]
// CHECK: arith.select %[[OK]], %{{.*}}, %c64_i32
// CHECK: nvvm.match.sync  any
// CHECK: math.ctpop
// CHECK: %[[F:.*]] = arith.uitofp %{{.*}} : i32 to f32
// CHECK: %[[AMOUNT:.*]] = arith.mulf %arg2, %[[F]]
// CHECK: memref.atomic_rmw addf %[[AMOUNT]], %{{.*}}[%[[IDX]]] : (f32, memref<64xf32, #gpu.address_space<workgroup>>)
// CHECK: %[[PAST:.*]] = arith.cmpi uge, %[[IDX]], %c64
// CHECK: %[[GLOBAL:.*]] = arith.andi %[[IN]], %[[PAST]]
// CHECK: scf.if %[[GLOBAL]] {
// CHECK-NEXT: memref.atomic_rmw addf %arg2, %arg1[%[[IDX]]] : (f32, memref<?xf32>)
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @aggregated_weight(%key: memref<?xi32>, %bins: memref<?xf32>, %w: f32, %n: index) kernel attributes {ks.raised} {
      scf.forall (%i) in (%n) {
        %k = memref.load %key[%i] : memref<?xi32>
        %idx = arith.index_cast %k : i32 to index
        %old = memref.atomic_rmw addf %w, %bins[%idx] : (f32, memref<?xf32>) -> f32
      }
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %k = transform.ks.simt_privatized_atomics %f {bins = 64, threads = 64, items_per_thread = 1, unroll = 1, aggregate = true} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Aggregated updates add one value per match: a value loaded per point is
// refused.
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @per_point(%key: memref<?xi8>, %w: memref<?xf32>, %bins: memref<?xf32>, %n: index) kernel attributes {ks.raised} {
      // expected-note @below {{target}}
      scf.forall (%i) in (%n) {
        %k = memref.load %key[%i] : memref<?xi8>
        %idx = arith.index_castui %k : i8 to index
        %x = memref.load %w[%i] : memref<?xf32>
        %old = memref.atomic_rmw addf %x, %bins[%idx] : (f32, memref<?xf32>) -> f32
      }
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{ks.simt_privatized_atomics: aggregate needs the added value to be the same at every point (a constant or a value defined outside the forall)}}
    %k = transform.ks.simt_privatized_atomics %f {aggregate = true} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
