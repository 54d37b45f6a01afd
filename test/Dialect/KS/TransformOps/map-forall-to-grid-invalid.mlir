// RUN: ks-opt %s -split-input-file -verify-diagnostics --transform-interpreter -o /dev/null

module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @big(%out: memref<?xf32>, %n: index) kernel attributes {ks.raised} {
      %one = arith.constant 1.0 : f32
      // expected-note @below {{target}}
      scf.forall (%i) in (%n) {
        memref.store %one, %out[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{ks.map_forall_to_grid: the block has more threads than the chip allows}}
    %k = transform.ks.map_forall_to_grid %f {block = array<i64: 2048, 1, 1>} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A kernel that is not raised (it already runs on threads).
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @simt(%out: memref<?xf32>, %n: index) kernel {
      %one = arith.constant 1.0 : f32
      // expected-note @below {{target}}
      scf.forall (%i) in (%n) {
        memref.store %one, %out[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{ks.map_forall_to_grid: the target is not the top-level scf.forall of a raised kernel}}
    %k = transform.ks.map_forall_to_grid %f : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Work besides the forall would run in every thread.
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @extra(%out: memref<?xf32>, %n: index) kernel attributes {ks.raised} {
      %one = arith.constant 1.0 : f32
      %c0 = arith.constant 0 : index
      memref.store %one, %out[%c0] : memref<?xf32>
      // expected-note @below {{target}}
      scf.forall (%i) in (%n) {
        memref.store %one, %out[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{ks.map_forall_to_grid: the kernel holds other work besides the forall}}
    %k = transform.ks.map_forall_to_grid %f : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// More than 64 points per thread.
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @many(%out: memref<?xf32>, %n: index) kernel attributes {ks.raised} {
      %one = arith.constant 1.0 : f32
      // expected-note @below {{target}}
      scf.forall (%i) in (%n) {
        memref.store %one, %out[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{ks.map_forall_to_grid: coarsen gives a thread more than 64 points}}
    %k = transform.ks.map_forall_to_grid %f {coarsen = array<i64: 8, 4, 4>} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A zero count.
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @none(%out: memref<?xf32>, %n: index) kernel attributes {ks.raised} {
      %one = arith.constant 1.0 : f32
      // expected-note @below {{target}}
      scf.forall (%i) in (%n) {
        memref.store %one, %out[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{ks.map_forall_to_grid: coarsen takes three positive counts (x, y, z)}}
    %k = transform.ks.map_forall_to_grid %f {coarsen = array<i64: 1, 0, 1>} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
