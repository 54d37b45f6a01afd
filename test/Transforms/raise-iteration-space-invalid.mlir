// RUN: ks-opt %s -split-input-file -verify-diagnostics --ks-raise-iteration-space -o /dev/null

// Each kernel is left as it is, with a remark that says why.

// No launcher in the module: the grid that covers the iteration space is
// unknown.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-remark @below {{not raised: no launcher in the module launches the kernel}}
    gpu.func @no_launcher(%out: memref<?xf32>, %n: i32) kernel {
      %one = arith.constant 1.0 : f32
      %bx = gpu.block_id x
      %dx = gpu.block_dim x
      %tx = gpu.thread_id x
      %0 = arith.muli %bx, %dx : index
      %i = arith.addi %0, %tx : index
      %ni = arith.index_cast %n : i32 to index
      %in = arith.cmpi slt, %i, %ni : index
      scf.if %in {
        memref.store %one, %out[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
}

// -----

// Threads that synchronize are not independent outputs.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-remark @below {{not raised: the kernel synchronizes or communicates between threads}}
    gpu.func @barrier(%out: memref<?xf32>, %n: index) kernel {
      %one = arith.constant 1.0 : f32
      %bx = gpu.block_id x
      %dx = gpu.block_dim x
      %tx = gpu.thread_id x
      %0 = arith.muli %bx, %dx : index
      %i = arith.addi %0, %tx : index
      gpu.barrier
      %in = arith.cmpi slt, %i, %n : index
      scf.if %in {
        memref.store %one, %out[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @launch(%out: memref<?xf32>, %n: index) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %g = arith.ceildivui %n, %c128 : index
    gpu.launch_func @kernels::@barrier blocks in (%g, %c1, %c1) threads in (%c128, %c1, %c1)
        args(%out : memref<?xf32>, %n : index)
    return
  }
}

// -----

// threadIdx.x read on its own (a position in the block, not an output).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-remark @below {{not raised: threadIdx.x is used outside blockIdx.x * blockDim.x + threadIdx.x}}
    gpu.func @lane(%out: memref<?xindex>, %n: index) kernel {
      %bx = gpu.block_id x
      %dx = gpu.block_dim x
      %tx = gpu.thread_id x
      %0 = arith.muli %bx, %dx : index
      %i = arith.addi %0, %tx : index
      %in = arith.cmpi slt, %i, %n : index
      scf.if %in {
        memref.store %tx, %out[%i] : memref<?xindex>
      }
      gpu.return
    }
  }
  func.func @launch(%out: memref<?xindex>, %n: index) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %g = arith.ceildivui %n, %c128 : index
    gpu.launch_func @kernels::@lane blocks in (%g, %c1, %c1) threads in (%c128, %c1, %c1)
        args(%out : memref<?xindex>, %n : index)
    return
  }
}

// -----

// A fixed grid that need not cover the bound.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-remark @below {{not raised: the launch grid along x is not derived from the bound}}
    gpu.func @fixed_grid(%out: memref<?xf32>, %n: index) kernel {
      %one = arith.constant 1.0 : f32
      %bx = gpu.block_id x
      %dx = gpu.block_dim x
      %tx = gpu.thread_id x
      %0 = arith.muli %bx, %dx : index
      %i = arith.addi %0, %tx : index
      %in = arith.cmpi slt, %i, %n : index
      scf.if %in {
        memref.store %one, %out[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @launch(%out: memref<?xf32>, %n: index) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    gpu.launch_func @kernels::@fixed_grid blocks in (%c64, %c1, %c1) threads in (%c128, %c1, %c1)
        args(%out : memref<?xf32>, %n : index)
    return
  }
}

// -----

// blockIdx.x * 256 + threadIdx.x launched with blocks of 128 threads.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-remark @below {{not raised: the global index along x multiplies by 256 but the launch's blocks are not that wide}}
    gpu.func @wrong_width(%out: memref<?xf32>, %n: index) kernel {
      %one = arith.constant 1.0 : f32
      %c256 = arith.constant 256 : index
      %bx = gpu.block_id x
      %tx = gpu.thread_id x
      %0 = arith.muli %bx, %c256 : index
      %i = arith.addi %0, %tx : index
      %in = arith.cmpi slt, %i, %n : index
      scf.if %in {
        memref.store %one, %out[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @launch(%out: memref<?xf32>, %n: index) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %g = arith.ceildivui %n, %c128 : index
    gpu.launch_func @kernels::@wrong_width blocks in (%g, %c1, %c1) threads in (%c128, %c1, %c1)
        args(%out : memref<?xf32>, %n : index)
    return
  }
}

// -----

// A dimension the kernel ignores, launched with several threads: every
// thread along it would repeat the work.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-remark @below {{not raised: the kernel does not use dimension y but is launched with more than one block or thread along it}}
    gpu.func @repeated(%out: memref<?xf32>, %n: index) kernel {
      %one = arith.constant 1.0 : f32
      %bx = gpu.block_id x
      %dx = gpu.block_dim x
      %tx = gpu.thread_id x
      %0 = arith.muli %bx, %dx : index
      %i = arith.addi %0, %tx : index
      %in = arith.cmpi slt, %i, %n : index
      scf.if %in {
        memref.store %one, %out[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @launch(%out: memref<?xf32>, %n: index) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c128 = arith.constant 128 : index
    %g = arith.ceildivui %n, %c128 : index
    gpu.launch_func @kernels::@repeated blocks in (%g, %c1, %c1) threads in (%c128, %c4, %c1)
        args(%out : memref<?xf32>, %n : index)
    return
  }
}

// -----

// Work outside the bounds check.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-remark @below {{not raised: more than one statement with side effects at the kernel's top level}}
    gpu.func @two_statements(%out: memref<?xf32>, %flag: memref<?xf32>, %n: index) kernel {
      %one = arith.constant 1.0 : f32
      %c0 = arith.constant 0 : index
      %bx = gpu.block_id x
      %dx = gpu.block_dim x
      %tx = gpu.thread_id x
      %0 = arith.muli %bx, %dx : index
      %i = arith.addi %0, %tx : index
      memref.store %one, %flag[%c0] : memref<?xf32>
      %in = arith.cmpi slt, %i, %n : index
      scf.if %in {
        memref.store %one, %out[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @launch(%out: memref<?xf32>, %flag: memref<?xf32>, %n: index) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %g = arith.ceildivui %n, %c128 : index
    gpu.launch_func @kernels::@two_statements blocks in (%g, %c1, %c1) threads in (%c128, %c1, %c1)
        args(%out : memref<?xf32>, %flag : memref<?xf32>, %n : index)
    return
  }
}

// -----

// No bounds check on a dimension indexed by the thread.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-remark @below {{not raised: no bounds check on the global index along y}}
    gpu.func @unguarded(%out: memref<?xf32>, %n: index) kernel {
      %one = arith.constant 1.0 : f32
      %bx = gpu.block_id x
      %dx = gpu.block_dim x
      %tx = gpu.thread_id x
      %0 = arith.muli %bx, %dx : index
      %i = arith.addi %0, %tx : index
      %by = gpu.block_id y
      %dy = gpu.block_dim y
      %ty = gpu.thread_id y
      %1 = arith.muli %by, %dy : index
      %j = arith.addi %1, %ty : index
      %in = arith.cmpi slt, %i, %n : index
      scf.if %in {
        %k = arith.addi %i, %j : index
        memref.store %one, %out[%k] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @launch(%out: memref<?xf32>, %n: index) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c128 = arith.constant 128 : index
    %g = arith.ceildivui %n, %c128 : index
    gpu.launch_func @kernels::@unguarded blocks in (%g, %c4, %c1) threads in (%c128, %c4, %c1)
        args(%out : memref<?xf32>, %n : index)
    return
  }
}

// -----

// (n + 126) / 128 blocks of 128 threads miss the last index when n is one
// past a multiple of 128: the rounding must add exactly block - 1.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-remark @below {{not raised: the launch grid along x is not derived from the bound}}
    gpu.func @short_grid(%out: memref<?xf32>, %n: index) kernel {
      %one = arith.constant 1.0 : f32
      %bx = gpu.block_id x
      %dx = gpu.block_dim x
      %tx = gpu.thread_id x
      %0 = arith.muli %bx, %dx : index
      %i = arith.addi %0, %tx : index
      %in = arith.cmpi slt, %i, %n : index
      scf.if %in {
        memref.store %one, %out[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @launch(%out: memref<?xf32>, %n: index) {
    %c1 = arith.constant 1 : index
    %c126 = arith.constant 126 : index
    %c128 = arith.constant 128 : index
    %r = arith.addi %n, %c126 : index
    %g = arith.divui %r, %c128 : index
    gpu.launch_func @kernels::@short_grid blocks in (%g, %c1, %c1) threads in (%c128, %c1, %c1)
        args(%out : memref<?xf32>, %n : index)
    return
  }
}

// -----

// (n + 5) / 8 blocks of 8 may fall short of the bound n - 1 (n = 10: one
// block, 8 threads for 9 indices): not raised.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-remark @below {{not raised: the launch grid along x is not derived from the bound}}
    gpu.func @short(%out: memref<?xf32>, %n: index) kernel {
      %one = arith.constant 1.0 : f32
      %c1 = arith.constant 1 : index
      %bx = gpu.block_id x
      %dx = gpu.block_dim x
      %tx = gpu.thread_id x
      %0 = arith.muli %bx, %dx : index
      %i = arith.addi %0, %tx : index
      %bound = arith.subi %n, %c1 : index
      %in = arith.cmpi slt, %i, %bound : index
      scf.if %in {
        memref.store %one, %out[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @launch(%out: memref<?xf32>, %n: index) {
    %c1 = arith.constant 1 : index
    %c5 = arith.constant 5 : index
    %c8 = arith.constant 8 : index
    %m = arith.addi %n, %c5 : index
    %g = arith.divui %m, %c8 : index
    gpu.launch_func @kernels::@short blocks in (%g, %c1, %c1) threads in (%c8, %c1, %c1)
        args(%out : memref<?xf32>, %n : index)
    return
  }
}

// -----

// A block count truncated to 16 bits wraps past 65535 blocks.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-remark @below {{not raised: the launch grid along x is not derived from the bound}}
    gpu.func @truncated16(%out: memref<?xf32>, %n: i64) kernel {
      %one = arith.constant 1.0 : f32
      %bx = gpu.block_id x
      %b = arith.index_castui %bx : index to i64
      %dx = gpu.block_dim x
      %d = arith.index_castui %dx : index to i64
      %tx = gpu.thread_id x
      %t = arith.index_castui %tx : index to i64
      %0 = arith.muli %b, %d : i64
      %i = arith.addi %0, %t : i64
      %in = arith.cmpi ult, %i, %n : i64
      scf.if %in {
        %x = arith.index_castui %i : i64 to index
        memref.store %one, %out[%x] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @launch(%out: memref<?xf32>, %n: i64) {
    %c1 = arith.constant 1 : index
    %c512 = arith.constant 512 : index
    %c511_i64 = arith.constant 511 : i64
    %c512_i64 = arith.constant 512 : i64
    %0 = arith.addi %n, %c511_i64 : i64
    %1 = arith.divui %0, %c512_i64 : i64
    %2 = arith.trunci %1 : i64 to i16
    %g = arith.index_castui %2 : i16 to index
    gpu.launch_func @kernels::@truncated16 blocks in (%g, %c1, %c1) threads in (%c512, %c1, %c1)
        args(%out : memref<?xf32>, %n : i64)
    return
  }
}
