// RUN: ks-opt %s -split-input-file -verify-diagnostics --transform-interpreter -o /dev/null

// Knobs: the block size along a dimension must divide the tile's.
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<?x?xf32>, %y: memref<?x?xf32>, %n: index, %m: index) kernel attributes {ks.raised} {
      %c1 = arith.constant 1 : index
      // expected-note @below {{target}}
      scf.forall (%i, %j) in (%n, %m) {
        %j1 = arith.addi %j, %c1 : index
        %a = memref.load %x[%i, %j] : memref<?x?xf32>
        %b = memref.load %x[%i, %j1] : memref<?x?xf32>
        %s = arith.addf %a, %b : f32
        memref.store %s, %y[%i, %j] : memref<?x?xf32>
      }
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{ks.simt_halo_tile: block size 3 does not divide the tile's 16 along dimension 1}}
    %k = transform.ks.simt_halo_tile %f {tile = array<i64: 8, 16>, block = array<i64: 3, 8>} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Knobs: a tile size per dimension of the forall.
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<?x?xf32>, %y: memref<?x?xf32>, %n: index, %m: index) kernel attributes {ks.raised} {
      %c1 = arith.constant 1 : index
      // expected-note @below {{target}}
      scf.forall (%i, %j) in (%n, %m) {
        %j1 = arith.addi %j, %c1 : index
        %a = memref.load %x[%i, %j] : memref<?x?xf32>
        %b = memref.load %x[%i, %j1] : memref<?x?xf32>
        %s = arith.addf %a, %b : f32
        memref.store %s, %y[%i, %j] : memref<?x?xf32>
      }
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{ks.simt_halo_tile: the forall runs over 2 dimensions, the tile over 3}}
    %k = transform.ks.simt_halo_tile %f {tile = array<i64: 2, 8, 16>, block = array<i64: 16, 8, 1>} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// No neighbourhood: every buffer is read at the point only (an elementwise
// kernel has nothing to share between threads).
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @k(%x0: memref<?xf32>, %y0: memref<?xf32>, %n: index, %m: index) kernel attributes {ks.raised} {
      %x = memref.reinterpret_cast %x0 to offset: [0], sizes: [%n, %m], strides: [%m, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      %y = memref.reinterpret_cast %y0 to offset: [0], sizes: [%n, %m], strides: [%m, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      // expected-note @below {{target}}
      scf.forall (%i, %j) in (%n, %m) {
        %a = memref.load %x[%i, %j] : memref<?x?xf32, strided<[?, 1]>>
        %s = arith.addf %a, %a : f32
        memref.store %s, %y[%i, %j] : memref<?x?xf32, strided<[?, 1]>>
      }
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{ks.simt_halo_tile: the body reads no buffer at neighbouring points}}
    %k = transform.ks.simt_halo_tile %f {tile = array<i64: 8, 32>, block = array<i64: 32, 8>} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A buffer read at neighbouring points that the kernel also writes (an
// in-place update) cannot be staged: a thread would read another's
// element before or after it changes.
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @k(%x0: memref<?xf32>, %n: index, %m: index) kernel attributes {ks.raised} {
      %c1 = arith.constant 1 : index
      %x = memref.reinterpret_cast %x0 to offset: [0], sizes: [%n, %m], strides: [%m, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      // expected-note @below {{target}}
      scf.forall (%i, %j) in (%n, %m) {
        %j1 = arith.addi %j, %c1 : index
        %a = memref.load %x[%i, %j] : memref<?x?xf32, strided<[?, 1]>>
        %b = memref.load %x[%i, %j1] : memref<?x?xf32, strided<[?, 1]>>
        %s = arith.addf %a, %b : f32
        memref.store %s, %x[%i, %j] : memref<?x?xf32, strided<[?, 1]>>
      }
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{ks.simt_halo_tile: the body reads no buffer at neighbouring points (index = iteration variable + constant, at two or more offsets) that the kernel does not write}}
    %k = transform.ks.simt_halo_tile %f {tile = array<i64: 8, 32>, block = array<i64: 32, 8>} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Offsets more than 8 apart along a dimension.
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @k(%x0: memref<?xf32>, %y0: memref<?xf32>, %n: index, %m: index) kernel attributes {ks.raised} {
      %c9 = arith.constant 9 : index
      %x = memref.reinterpret_cast %x0 to offset: [0], sizes: [%n, %m], strides: [%m, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      %y = memref.reinterpret_cast %y0 to offset: [0], sizes: [%n, %m], strides: [%m, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      // expected-note @below {{target}}
      scf.forall (%i, %j) in (%n, %m) {
        %j9 = arith.addi %j, %c9 : index
        %a = memref.load %x[%i, %j] : memref<?x?xf32, strided<[?, 1]>>
        %b = memref.load %x[%i, %j9] : memref<?x?xf32, strided<[?, 1]>>
        %s = arith.addf %a, %b : f32
        memref.store %s, %y[%i, %j] : memref<?x?xf32, strided<[?, 1]>>
      }
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{ks.simt_halo_tile: the body reads a buffer 9 elements apart along dimension 1 (at most 8)}}
    %k = transform.ks.simt_halo_tile %f {tile = array<i64: 8, 32>, block = array<i64: 32, 8>} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// The tiles over the shared memory a block may use.
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @k(%x0: memref<?xf32>, %y0: memref<?xf32>, %n: index, %m: index) kernel attributes {ks.raised} {
      %c1 = arith.constant 1 : index
      %x = memref.reinterpret_cast %x0 to offset: [0], sizes: [%n, %m], strides: [%m, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      %y = memref.reinterpret_cast %y0 to offset: [0], sizes: [%n, %m], strides: [%m, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      // expected-note @below {{target}}
      scf.forall (%i, %j) in (%n, %m) {
        %j1 = arith.addi %j, %c1 : index
        %a = memref.load %x[%i, %j] : memref<?x?xf32, strided<[?, 1]>>
        %b = memref.load %x[%i, %j1] : memref<?x?xf32, strided<[?, 1]>>
        %s = arith.addf %a, %b : f32
        memref.store %s, %y[%i, %j] : memref<?x?xf32, strided<[?, 1]>>
      }
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{ks.simt_halo_tile: the shared tiles need 65792 bytes}}
    %k = transform.ks.simt_halo_tile %f {tile = array<i64: 64, 256>, block = array<i64: 256, 4>} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// The body may only read and write memory (a barrier in it would be
// reached once per point).
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @k(%x0: memref<?xf32>, %y0: memref<?xf32>, %n: index, %m: index) kernel attributes {ks.raised} {
      %c1 = arith.constant 1 : index
      %x = memref.reinterpret_cast %x0 to offset: [0], sizes: [%n, %m], strides: [%m, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      %y = memref.reinterpret_cast %y0 to offset: [0], sizes: [%n, %m], strides: [%m, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      // expected-note @below {{target}}
      scf.forall (%i, %j) in (%n, %m) {
        %j1 = arith.addi %j, %c1 : index
        %a = memref.load %x[%i, %j] : memref<?x?xf32, strided<[?, 1]>>
        gpu.barrier
        %b = memref.load %x[%i, %j1] : memref<?x?xf32, strided<[?, 1]>>
        %s = arith.addf %a, %b : f32
        memref.store %s, %y[%i, %j] : memref<?x?xf32, strided<[?, 1]>>
      }
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{ks.simt_halo_tile: the body holds 'gpu.barrier', an effect other than loads and stores}}
    %k = transform.ks.simt_halo_tile %f {tile = array<i64: 8, 32>, block = array<i64: 32, 8>} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A kernel that already reads a block index (the raising left a batch on
// the grid) cannot take a grid of tiles.
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @k(%x0: memref<?xf32>, %y0: memref<?xf32>, %n: index, %m: index) kernel attributes {ks.raised} {
      %c1 = arith.constant 1 : index
      %b = gpu.block_id z
      %x = memref.reinterpret_cast %x0 to offset: [0], sizes: [%n, %m], strides: [%m, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      %y = memref.reinterpret_cast %y0 to offset: [0], sizes: [%n, %m], strides: [%m, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      // expected-note @below {{target}}
      scf.forall (%i, %j) in (%n, %m) {
        %j1 = arith.addi %j, %c1 : index
        %a = memref.load %x[%i, %j] : memref<?x?xf32, strided<[?, 1]>>
        %c = memref.load %x[%i, %j1] : memref<?x?xf32, strided<[?, 1]>>
        %s = arith.addf %a, %c : f32
        %jb = arith.addi %j, %b : index
        memref.store %s, %y[%i, %jb] : memref<?x?xf32, strided<[?, 1]>>
      }
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{ks.simt_halo_tile: the kernel already maps a dimension to the grid (blockIdx is read)}}
    %k = transform.ks.simt_halo_tile %f {tile = array<i64: 8, 32>, block = array<i64: 32, 8>} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Streamed: one thread along the walked dimension, and the planes per step
// dividing the tile's planes.
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<?x?xf32>, %y: memref<?x?xf32>, %n: index, %m: index) kernel attributes {ks.raised} {
      // expected-note @below {{target}}
      scf.forall (%i, %j) in (%n, %m) {
        %a = memref.load %x[%i, %j] : memref<?x?xf32>
        memref.store %a, %y[%i, %j] : memref<?x?xf32>
      }
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{ks.simt_halo_tile: streamed: the block has one thread along the outermost dimension (its last size), got 8}}
    %k = transform.ks.simt_halo_tile %f {tile = array<i64: 64, 32>, block = array<i64: 32, 8>, stream = 8} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<?x?xf32>, %y: memref<?x?xf32>, %n: index, %m: index) kernel attributes {ks.raised} {
      // expected-note @below {{target}}
      scf.forall (%i, %j) in (%n, %m) {
        %a = memref.load %x[%i, %j] : memref<?x?xf32>
        memref.store %a, %y[%i, %j] : memref<?x?xf32>
      }
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{ks.simt_halo_tile: streamed: stream (planes per step, at most 16) must divide the tile's 60 planes}}
    %k = transform.ks.simt_halo_tile %f {tile = array<i64: 60, 32>, block = array<i64: 32, 1>, stream = 8} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Registers: one point per thread along the inner dimensions.
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<?x?xf32>, %y: memref<?x?xf32>, %n: index, %m: index) kernel attributes {ks.raised} {
      // expected-note @below {{target}}
      scf.forall (%i, %j) in (%n, %m) {
        %a = memref.load %x[%i, %j] : memref<?x?xf32>
        memref.store %a, %y[%i, %j] : memref<?x?xf32>
      }
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{ks.simt_halo_tile: registers: one point per thread along dimension 1 (tile 64, block 32)}}
    %k = transform.ks.simt_halo_tile %f {tile = array<i64: 8, 64>, block = array<i64: 32, 2>, registers = true} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Registers: at most 32 consecutive points per thread; not with stream.
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<?x?xf32>, %y: memref<?x?xf32>, %n: index, %m: index) kernel attributes {ks.raised} {
      // expected-note @below {{target}}
      scf.forall (%i, %j) in (%n, %m) {
        %a = memref.load %x[%i, %j] : memref<?x?xf32>
        memref.store %a, %y[%i, %j] : memref<?x?xf32>
      }
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{ks.simt_halo_tile: registers: more than 32 consecutive points per thread along dimension 0}}
    %k = transform.ks.simt_halo_tile %f {tile = array<i64: 128, 32>, block = array<i64: 32, 2>, registers = true} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<?x?xf32>, %y: memref<?x?xf32>, %n: index, %m: index) kernel attributes {ks.raised} {
      // expected-note @below {{target}}
      scf.forall (%i, %j) in (%n, %m) {
        %a = memref.load %x[%i, %j] : memref<?x?xf32>
        memref.store %a, %y[%i, %j] : memref<?x?xf32>
      }
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{ks.simt_halo_tile: registers and stream exclude each other (a register window walks no planes)}}
    %k = transform.ks.simt_halo_tile %f {tile = array<i64: 8, 32>, block = array<i64: 32, 1>, stream = 4, registers = true} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Registers: the body reads `x` at two points of a row (j and j + 1), none
// along dimension 0: nothing to keep in a column.
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<?x?xf32>, %y: memref<?x?xf32>, %n: index, %m: index) kernel attributes {ks.raised} {
      %c1 = arith.constant 1 : index
      // expected-note @below {{target}}
      scf.forall (%i, %j) in (%n, %m) {
        %a = memref.load %x[%i, %j] : memref<?x?xf32>
        %j1 = arith.addi %j, %c1 : index
        %b = memref.load %x[%i, %j1] : memref<?x?xf32>
        %s = arith.addf %a, %b : f32
        memref.store %s, %y[%i, %j] : memref<?x?xf32>
      }
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{ks.simt_halo_tile: the body reads no buffer at two or more points along dimension 0 alone (index = iteration variable + constant) that the kernel does not write}}
    %k = transform.ks.simt_halo_tile %f {tile = array<i64: 8, 32>, block = array<i64: 32, 2>, registers = true} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// The views' offset is `m * r` in i32 without nsw, the stride `r * m` in
// index: the narrow product may wrap, so they are not known to be the same
// value and the rows above and below are not neighbours.
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @k(%x0: memref<?xf32>, %y0: memref<?xf32>, %n: index, %m32: i32, %r32: i32) kernel attributes {ks.raised} {
      %m = arith.index_cast %m32 : i32 to index
      %r = arith.index_cast %r32 : i32 to index
      %stride = arith.muli %r, %m : index
      %s32 = arith.muli %m32, %r32 : i32
      %s = arith.index_cast %s32 : i32 to index
      %c0 = arith.constant 0 : index
      %negs = arith.subi %c0, %s : index
      %up = memref.reinterpret_cast %x0 to offset: [%negs], sizes: [%n, %m], strides: [%stride, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1], offset: ?>>
      %down = memref.reinterpret_cast %x0 to offset: [%s], sizes: [%n, %m], strides: [%stride, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1], offset: ?>>
      %y = memref.reinterpret_cast %y0 to offset: [0], sizes: [%n, %m], strides: [%stride, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      // expected-note @below {{target}}
      scf.forall (%i, %j) in (%n, %m) {
        %a = memref.load %up[%i, %j] : memref<?x?xf32, strided<[?, 1], offset: ?>>
        %b = memref.load %down[%i, %j] : memref<?x?xf32, strided<[?, 1], offset: ?>>
        %t = arith.addf %a, %b : f32
        memref.store %t, %y[%i, %j] : memref<?x?xf32, strided<[?, 1]>>
      }
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{ks.simt_halo_tile: the body reads no buffer at two or more points along dimension 0 alone}}
    %k = transform.ks.simt_halo_tile %f {tile = array<i64: 4, 4>, block = array<i64: 4, 2>, registers = true} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
