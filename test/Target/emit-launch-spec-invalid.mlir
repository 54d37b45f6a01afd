// RUN: ks-opt %s -split-input-file --ks-emit-launch-spec -verify-diagnostics -o /dev/null

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<?xf32>) kernel {
      gpu.return
    }
  }
  func.func @launch(%x: memref<?xf32> {ks.name = "x"}) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{ks-emit-launch-spec: the extent of buffer 'x' is unknown: give it (in elements) in the launcher's ks.workload = #ks.workload<..., buffers = {x = N}>}}
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<?xf32>)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%n: i32) kernel {
      gpu.return
    }
  }
  func.func @launch(%n: i32) {
    %c1 = arith.constant 1 : index
    %ni = arith.index_cast %n : i32 to index
    // expected-error @+1 {{ks-emit-launch-spec: cannot express the launch size computed by 'arith.shli' as a formula of the launcher's arguments}}
    %g = arith.shli %ni, %c1 : index
    gpu.launch_func @kernels::@k blocks in (%g, %c1, %c1) threads in (%c1, %c1, %c1) args(%n : i32)
    return
  }
}

// -----

// expected-error @+1 {{ks-emit-launch-spec: expected one gpu.launch_func, found 0}}
module attributes {gpu.container_module} {
}

// -----

// expected-error @+1 {{ks-emit-launch-spec: expected one gpu.launch_func, found 2; pick the launcher with launcher=NAME}}
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  func.func @a() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
  func.func @b() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}

// -----

// An index read in place is bounded only through loops and scalars it can
// trust: a product with a scalar that bounds no enclosing loop (it may be
// negative) has no bound, so the extent stays unknown.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<?xf32>, %n: i32, %s: i32) kernel {
      %ni = arith.index_cast %n : i32 to index
      scf.forall (%i) in (%ni) {
        %i32 = arith.index_cast %i : index to i32
        %p = arith.muli %i32, %s overflow<nsw> : i32
        %pi = arith.index_cast %p : i32 to index
        %v = memref.load %x[%pi] : memref<?xf32>
        memref.store %v, %x[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @launch(%x: memref<?xf32> {ks.name = "x"}, %n: i32 {ks.name = "n"}, %s: i32 {ks.name = "s"}) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{ks-emit-launch-spec: the extent of buffer 'x' is unknown}}
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<?xf32>, %n : i32, %s : i32)
    return
  }
}

// -----

// A 32-bit addition that may wrap (no nsw) has no bound either.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<?xf32>, %n: i32) kernel {
      %ni = arith.index_cast %n : i32 to index
      scf.forall (%i) in (%ni) {
        %i32 = arith.index_cast %i : index to i32
        %p = arith.addi %i32, %n : i32
        %pi = arith.index_cast %p : i32 to index
        %v = memref.load %x[%pi] : memref<?xf32>
        memref.store %v, %x[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @launch(%x: memref<?xf32> {ks.name = "x"}, %n: i32 {ks.name = "n"}) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{ks-emit-launch-spec: the extent of buffer 'x' is unknown}}
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<?xf32>, %n : i32)
    return
  }
}

// -----

// A subtraction of a scalar (x[n - i]) has no bound: only constants are
// subtracted.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<?xf32>, %n: i32) kernel {
      %ni = arith.index_cast %n : i32 to index
      scf.forall (%i) in (%ni) {
        %r = arith.subi %ni, %i : index
        %v = memref.load %x[%r] : memref<?xf32>
        memref.store %v, %x[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @launch(%x: memref<?xf32> {ks.name = "x"}, %n: i32 {ks.name = "n"}) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{ks-emit-launch-spec: the extent of buffer 'x' is unknown}}
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<?xf32>, %n : i32)
    return
  }
}

// -----

// A 32-bit unsigned value has no bound (2^32 elements would be a guess).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<?xf32>, %keys: memref<?xi32>, %n: i32) kernel {
      %ni = arith.index_cast %n : i32 to index
      scf.forall (%i) in (%ni) {
        %key = memref.load %keys[%i] : memref<?xi32>
        %r = arith.index_castui %key : i32 to index
        %v = memref.load %x[%r] : memref<?xf32>
        memref.store %v, %x[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @launch(%x: memref<?xf32> {ks.name = "x"}, %keys: memref<?xi32> {ks.name = "keys"}, %n: i32 {ks.name = "n"}) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{ks-emit-launch-spec: the extent of buffer 'x' is unknown}}
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<?xf32>, %keys : memref<?xi32>, %n : i32)
    return
  }
}

// -----

// A scalar bounding a loop that starts below zero may itself be negative
// where the access runs (n = -2 still runs j = -4, -3): i * n has no bound.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<?xf32>, %n: i32) kernel {
      %ni = arith.index_cast %n : i32 to index
      %c-4 = arith.constant -4 : index
      %c1 = arith.constant 1 : index
      scf.for %j = %c-4 to %ni step %c1 {
        %c3 = arith.constant 3 : index
        scf.forall (%i) in (%c3) {
          %p = arith.muli %i, %ni : index
          %v = memref.load %x[%p] : memref<?xf32>
          memref.store %v, %x[%i] : memref<?xf32>
        }
      }
      gpu.return
    }
  }
  func.func @launch(%x: memref<?xf32> {ks.name = "x"}, %n: i32 {ks.name = "n"}) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{ks-emit-launch-spec: the extent of buffer 'x' is unknown}}
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<?xf32>, %n : i32)
    return
  }
}

// -----

// A block id is named by its greatest value: through arithmetic that may
// decrease (blockIdx.x % 4) that name bounds nothing, so the extent stays
// unknown.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<?xf32>) kernel {
      %b = gpu.block_id x
      %c4 = arith.constant 4 : index
      %r = arith.remui %b, %c4 : index
      %v = memref.load %x[%r] : memref<?xf32>
      memref.store %v, %x[%b] : memref<?xf32>
      gpu.return
    }
  }
  func.func @launch(%x: memref<?xf32> {ks.name = "x"}, %g: i32 {ks.name = "g"}) {
    %c1 = arith.constant 1 : index
    %gi = arith.index_cast %g : i32 to index
    // expected-error @+1 {{ks-emit-launch-spec: the extent of buffer 'x' is unknown}}
    gpu.launch_func @kernels::@k blocks in (%gi, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<?xf32>)
    return
  }
}

// -----

// Vectors of a type ks-bench has no lanes for, or of more than one
// dimension, are refused.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<?xvector<2xi16>>) kernel {
      gpu.return
    }
  }
  func.func @launch(%x: memref<?xvector<2xi16>> {ks.name = "x"}) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{ks-emit-launch-spec: buffer 'x' has element type 'vector<2xi16>', which ks-bench does not support}}
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<?xvector<2xi16>>)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<?xvector<2x2xf32>>) kernel {
      gpu.return
    }
  }
  func.func @launch(%x: memref<?xvector<2x2xf32>> {ks.name = "x"}) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{ks-emit-launch-spec: buffer 'x' has element type 'vector<2x2xf32>', which ks-bench does not support}}
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<?xvector<2x2xf32>>)
    return
  }
}

// -----

// A table some kernel writes does not keep its initializer: it bounds no
// index (and ks-bench fills it like any module variable).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    memref.global "public" @table : memref<4xi32> = dense<[0, 1, 2, 3]> {ks.initialized}
    gpu.func @k(%counts: memref<?xi32>, %n: i32) kernel attributes {ks.raised} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : i32
      %t = memref.get_global @table : memref<4xi32>
      %ni = arith.index_cast %n : i32 to index
      scf.forall (%i) in (%ni) {
        %b = memref.load %t[%c0] : memref<4xi32>
        %bi = arith.index_cast %b : i32 to index
        %old = memref.atomic_rmw addi %c1, %counts[%bi] : (i32, memref<?xi32>) -> i32
        memref.store %c1, %t[%c0] : memref<4xi32>
      }
      gpu.return
    }
  }
  func.func @launch(%counts: memref<?xi32> {ks.name = "counts"}, %n: i32 {ks.name = "n"}) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{ks-emit-launch-spec: the extent of buffer 'counts' is unknown}}
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%counts : memref<?xi32>, %n : i32)
    return
  }
}

// -----

// A vector of 3 lanes is padded to 4 in memory: its buffer is not its lanes.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<?xvector<3xf32>>) kernel {
      gpu.return
    }
  }
  func.func @launch(%x: memref<?xvector<3xf32>> {ks.name = "x"}) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{ks-emit-launch-spec: buffer 'x' has element type 'vector<3xf32>', which ks-bench does not support}}
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<?xvector<3xf32>>)
    return
  }
}

// -----

// Nor does one the host copies into (a launcher's ks.host_symbol_copies),
// or one without the source's own initializer (ks.initialized: C's zero,
// which the host fills).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    memref.global "public" @table : memref<4xi32> = dense<[0, 1, 2, 3]> {ks.initialized}
    gpu.func @k(%counts: memref<?xi32>, %n: i32) kernel attributes {ks.raised} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : i32
      %t = memref.get_global @table : memref<4xi32>
      %ni = arith.index_cast %n : i32 to index
      scf.forall (%i) in (%ni) {
        %b = memref.load %t[%c0] : memref<4xi32>
        %bi = arith.index_cast %b : i32 to index
        %old = memref.atomic_rmw addi %c1, %counts[%bi] : (i32, memref<?xi32>) -> i32
      }
      gpu.return
    }
  }
  func.func @launch(%counts: memref<?xi32> {ks.name = "counts"}, %n: i32 {ks.name = "n"})
      attributes {ks.host_symbol_copies = ["cudaMemcpyToSymbol(table, host_table, 16)"]} {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{ks-emit-launch-spec: the extent of buffer 'counts' is unknown}}
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%counts : memref<?xi32>, %n : i32)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    memref.global "public" @table : memref<4xi32> = dense<[0, 1, 2, 3]>
    gpu.func @k(%counts: memref<?xi32>, %n: i32) kernel attributes {ks.raised} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : i32
      %t = memref.get_global @table : memref<4xi32>
      %ni = arith.index_cast %n : i32 to index
      scf.forall (%i) in (%ni) {
        %b = memref.load %t[%c0] : memref<4xi32>
        %bi = arith.index_cast %b : i32 to index
        %old = memref.atomic_rmw addi %c1, %counts[%bi] : (i32, memref<?xi32>) -> i32
      }
      gpu.return
    }
  }
  func.func @launch(%counts: memref<?xi32> {ks.name = "counts"}, %n: i32 {ks.name = "n"}) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{ks-emit-launch-spec: the extent of buffer 'counts' is unknown}}
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%counts : memref<?xi32>, %n : i32)
    return
  }
}
