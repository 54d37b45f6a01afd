// RUN: ks-opt %s -split-input-file -verify-diagnostics --transform-interpreter -o /dev/null

// Knobs: threads per row must be a power of two.
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<?x?xf32>, %y: memref<?x?xf32>, %rows: index, %cols: index) kernel attributes {ks.raised} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f32
      // expected-note @below {{target}}
      scf.forall (%r) in (%rows) {
        %s = scf.for %j = %c0 to %cols step %c1 iter_args(%acc = %zero) -> (f32) {
          %v = memref.load %x[%r, %j] : memref<?x?xf32>
          %n = arith.addf %acc, %v : f32
          scf.yield %n : f32
        }
        memref.store %s, %y[%r, %c0] : memref<?x?xf32>
      }
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{ks.simt_row_reduction: threads_per_row must be a power of two}}
    %k = transform.ks.simt_row_reduction %f {threads_per_row = 24} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A row of more than a warp takes the whole block.
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<?x?xf32>, %y: memref<?x?xf32>, %rows: index, %cols: index) kernel attributes {ks.raised} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f32
      // expected-note @below {{target}}
      scf.forall (%r) in (%rows) {
        %s = scf.for %j = %c0 to %cols step %c1 iter_args(%acc = %zero) -> (f32) {
          %v = memref.load %x[%r, %j] : memref<?x?xf32>
          %n = arith.addf %acc, %v : f32
          scf.yield %n : f32
        }
        memref.store %s, %y[%r, %c0] : memref<?x?xf32>
      }
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{ks.simt_row_reduction: a row of more than a warp takes the whole block: rows_per_block must be 1}}
    %k = transform.ks.simt_row_reduction %f {threads_per_row = 64, rows_per_block = 2} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Partial warps would leave shuffle lanes without threads.
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<?x?xf32>, %y: memref<?x?xf32>, %rows: index, %cols: index) kernel attributes {ks.raised} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f32
      // expected-note @below {{target}}
      scf.forall (%r) in (%rows) {
        %s = scf.for %j = %c0 to %cols step %c1 iter_args(%acc = %zero) -> (f32) {
          %v = memref.load %x[%r, %j] : memref<?x?xf32>
          %n = arith.addf %acc, %v : f32
          scf.yield %n : f32
        }
        memref.store %s, %y[%r, %c0] : memref<?x?xf32>
      }
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{ks.simt_row_reduction: the block (threads_per_row x rows_per_block = 16) must be whole warps: the shuffles take every lane of a warp}}
    %k = transform.ks.simt_row_reduction %f {threads_per_row = 8, rows_per_block = 2} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// More threads than the chip allows.
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<?x?xf32>, %y: memref<?x?xf32>, %rows: index, %cols: index) kernel attributes {ks.raised} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f32
      // expected-note @below {{target}}
      scf.forall (%r) in (%rows) {
        %s = scf.for %j = %c0 to %cols step %c1 iter_args(%acc = %zero) -> (f32) {
          %v = memref.load %x[%r, %j] : memref<?x?xf32>
          %n = arith.addf %acc, %v : f32
          scf.yield %n : f32
        }
        memref.store %s, %y[%r, %c0] : memref<?x?xf32>
      }
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{ks.simt_row_reduction: 2048 threads per block exceed the chip's 1024}}
    %k = transform.ks.simt_row_reduction %f {threads_per_row = 2048, rows_per_block = 1} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Vectors of 3.
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<?x?xf32>, %y: memref<?x?xf32>, %rows: index, %cols: index) kernel attributes {ks.raised} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f32
      // expected-note @below {{target}}
      scf.forall (%r) in (%rows) {
        %s = scf.for %j = %c0 to %cols step %c1 iter_args(%acc = %zero) -> (f32) {
          %v = memref.load %x[%r, %j] : memref<?x?xf32>
          %n = arith.addf %acc, %v : f32
          scf.yield %n : f32
        }
        memref.store %s, %y[%r, %c0] : memref<?x?xf32>
      }
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{ks.simt_row_reduction: vector must be 1, 2, 4 or 8}}
    %k = transform.ks.simt_row_reduction %f {vector = 3} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Elementwise work has no loop over a row.
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<?x?xf32>, %y: memref<?x?xf32>, %rows: index, %cols: index) kernel attributes {ks.raised} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f32
      // expected-note @below {{target}}
      scf.forall (%r) in (%rows) {
        %v = memref.load %x[%r, %c0] : memref<?x?xf32>
        memref.store %v, %y[%r, %c0] : memref<?x?xf32>
      }
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{ks.simt_row_reduction: the forall holds no loop over a row (elementwise work: ks.map_forall_to_grid maps it)}}
    %k = transform.ks.simt_row_reduction %f  : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A carried value that is not a reduction (the previous element).
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<?x?xf32>, %y: memref<?x?xf32>, %rows: index, %cols: index) kernel attributes {ks.raised} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f32
      // expected-note @below {{target}}
      scf.forall (%r) in (%rows) {
        %s = scf.for %j = %c0 to %cols step %c1 iter_args(%prev = %zero) -> (f32) {
          %v = memref.load %x[%r, %j] : memref<?x?xf32>
          %d = arith.subf %v, %prev : f32
          memref.store %d, %y[%r, %j] : memref<?x?xf32>
          scf.yield %v : f32
        }
      }
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{ks.simt_row_reduction: a value carried by a loop over the row is not a reduction (the loop yields combine(acc, x) with acc used nowhere else)}}
    %k = transform.ks.simt_row_reduction %f  : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A combining op without a neutral element.
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<?x?xf32>, %y: memref<?x?xf32>, %rows: index, %cols: index) kernel attributes {ks.raised} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f32
      // expected-note @below {{target}}
      scf.forall (%r) in (%rows) {
        %s = scf.for %j = %c0 to %cols step %c1 iter_args(%acc = %zero) -> (f32) {
          %v = memref.load %x[%r, %j] : memref<?x?xf32>
          %n = arith.subf %acc, %v : f32
          scf.yield %n : f32
        }
        memref.store %s, %y[%r, %c0] : memref<?x?xf32>
      }
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{ks.simt_row_reduction: the reduction's 'arith.subf' is not an associative op with a neutral element (add, mul, min, max)}}
    %k = transform.ks.simt_row_reduction %f  : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A shifted read of what the loop writes: another lane writes it.
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<?x?xf32>, %y: memref<?x?xf32>, %rows: index, %cols: index) kernel attributes {ks.raised} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f32
      // expected-note @below {{target}}
      scf.forall (%r) in (%rows) {
        scf.for %j = %c0 to %cols step %c1 {
          %j1 = arith.addi %j, %c1 : index
          %v = memref.load %y[%r, %j1] : memref<?x?xf32>
          memref.store %v, %y[%r, %j] : memref<?x?xf32>
        }
      }
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{ks.simt_row_reduction: a buffer the kernel writes is accessed at other elements than its loop's variable (one lane would read what another writes)}}
    %k = transform.ks.simt_row_reduction %f  : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A buffer written outside the loops and read in them.
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<?x?xf32>, %y: memref<?x?xf32>, %rows: index, %cols: index) kernel attributes {ks.raised} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f32
      // expected-note @below {{target}}
      scf.forall (%r) in (%rows) {
        memref.store %zero, %y[%r, %c0] : memref<?x?xf32>
        %s = scf.for %j = %c0 to %cols step %c1 iter_args(%acc = %zero) -> (f32) {
          %v = memref.load %y[%r, %j] : memref<?x?xf32>
          %n = arith.addf %acc, %v : f32
          scf.yield %n : f32
        }
      }
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{ks.simt_row_reduction: a buffer written outside the loops over the row is also read, or written in them}}
    %k = transform.ks.simt_row_reduction %f  : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Loops of different starts over a written buffer.
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<?x?xf32>, %y: memref<?x?xf32>, %rows: index, %cols: index) kernel attributes {ks.raised} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f32
      // expected-note @below {{target}}
      scf.forall (%r) in (%rows) {
        scf.for %j = %c0 to %cols step %c1 {
          %v = memref.load %x[%r, %j] : memref<?x?xf32>
          memref.store %v, %y[%r, %j] : memref<?x?xf32>
        }
        scf.for %j = %c1 to %cols step %c1 {
          %v = memref.load %y[%r, %j] : memref<?x?xf32>
          %w = arith.addf %v, %v : f32
          memref.store %w, %y[%r, %j] : memref<?x?xf32>
        }
      }
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{ks.simt_row_reduction: a buffer the kernel writes is accessed in loops of different starts or steps}}
    %k = transform.ks.simt_row_reduction %f  : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// An atomic update is a side effect the schedule does not distribute.
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<?x?xf32>, %y: memref<?x?xf32>, %rows: index, %cols: index) kernel attributes {ks.raised} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f32
      // expected-note @below {{target}}
      scf.forall (%r) in (%rows) {
        scf.for %j = %c0 to %cols step %c1 {
          %v = memref.load %x[%r, %j] : memref<?x?xf32>
          %o = memref.atomic_rmw addf %v, %y[%r, %c0] : (f32, memref<?x?xf32>) -> f32
        }
      }
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{ks.simt_row_reduction: the row holds 'memref.atomic_rmw', a side effect the schedule does not distribute}}
    %k = transform.ks.simt_row_reduction %f  : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A private array.
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<?x?xf32>, %y: memref<?x?xf32>, %rows: index, %cols: index) kernel attributes {ks.raised} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f32
      // expected-note @below {{target}}
      scf.forall (%r) in (%rows) {
        %a = memref.alloca() : memref<4xf32>
        scf.for %j = %c0 to %cols step %c1 {
          %v = memref.load %x[%r, %j] : memref<?x?xf32>
          memref.store %v, %a[%c0] : memref<4xf32>
        }
      }
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{ks.simt_row_reduction: the row holds 'memref.alloca', a side effect the schedule does not distribute}}
    %k = transform.ks.simt_row_reduction %f  : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// cached_turns with a loop whose bound depends on the row (the rows would
// disagree on fitting the registers).
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<?x?xf32>, %y: memref<?xf32>, %rows: index, %cols: index) kernel attributes {ks.raised} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f32
      // expected-note @below {{target}}
      scf.forall (%r) in (%rows) {
        %s = scf.for %j = %c0 to %r step %c1 iter_args(%acc = %zero) -> (f32) {
          %v = memref.load %x[%r, %j] : memref<?x?xf32>
          %n = arith.addf %acc, %v : f32
          scf.yield %n : f32
        }
        memref.store %s, %y[%r] : memref<?xf32>
      }
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{ks.simt_row_reduction: cached_turns: a loop's bounds vary between rows (whether a row fits the registers must be the same for every row)}}
    %k = transform.ks.simt_row_reduction %f {cached_turns = 2} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<?x?xf32>, %y: memref<?xf32>, %rows: index, %cols: index) kernel attributes {ks.raised} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f32
      // expected-note @below {{target}}
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
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{ks.simt_row_reduction: cached_turns x vector must be between 0 and 64 (elements each lane keeps in registers)}}
    %k = transform.ks.simt_row_reduction %f {vector = 4, cached_turns = 32} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A reduction in f64: the warp shuffles carry 32-bit values only.
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<?x?xf64>, %y: memref<?xf64>, %rows: index, %cols: index) kernel attributes {ks.raised} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f64
      // expected-note @below {{target}}
      scf.forall (%r) in (%rows) {
        %s = scf.for %j = %c0 to %cols step %c1 iter_args(%acc = %zero) -> (f64) {
          %v = memref.load %x[%r, %j] : memref<?x?xf64>
          %n = arith.addf %acc, %v : f64
          scf.yield %n : f64
        }
        memref.store %s, %y[%r] : memref<?xf64>
      }
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{ks.simt_row_reduction: a reduction of a type the warp shuffles do not carry (f32 and i32 only)}}
    %k = transform.ks.simt_row_reduction %f : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Interleaved lanes: each thread reads its row's partials, at most 64.
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<?x?xf32>, %y: memref<?x?xf32>, %rows: index, %cols: index) kernel attributes {ks.raised} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f32
      // expected-note @below {{target}}
      scf.forall (%r) in (%rows) {
        %s = scf.for %j = %c0 to %cols step %c1 iter_args(%acc = %zero) -> (f32) {
          %v = memref.load %x[%r, %j] : memref<?x?xf32>
          %n = arith.addf %acc, %v : f32
          scf.yield %n : f32
        }
        memref.store %s, %y[%r, %c0] : memref<?x?xf32>
      }
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{ks.simt_row_reduction: interleaved: threads_per_row must be at most 64}}
    %k = transform.ks.simt_row_reduction %f {threads_per_row = 128, rows_per_block = 8, interleaved = true} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// prefetch keeps the later loop's loads in the cached turns' registers: it
// needs cached_turns.
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<?x?xf32>, %y: memref<?x?xf32>, %rows: index, %cols: index) kernel attributes {ks.raised} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f32
      // expected-note @below {{target}}
      scf.forall (%r) in (%rows) {
        %s = scf.for %j = %c0 to %cols step %c1 iter_args(%acc = %zero) -> (f32) {
          %v = memref.load %x[%r, %j] : memref<?x?xf32>
          %n = arith.addf %acc, %v : f32
          scf.yield %n : f32
        }
        memref.store %s, %y[%r, %c0] : memref<?x?xf32>
      }
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{ks.simt_row_reduction: prefetch needs cached_turns > 0 (the prefetched elements are kept in the cached turns' registers)}}
    %k = transform.ks.simt_row_reduction %f {prefetch = true} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
