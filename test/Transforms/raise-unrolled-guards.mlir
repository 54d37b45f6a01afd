// RUN: ks-opt %s -split-input-file -verify-diagnostics --ks-raise-unrolled-guards --canonicalize | FileCheck %s

// `c0 = (blockIdx.x * blockDim.x + threadIdx.x) * 4; for u < 4: if (c0 + u
// < n) y[c0 + u] = ...` on (n + 1023) / 1024 blocks of 256: one element per
// thread, `if (gid < n)`, on ceil(n / 256) blocks of 256.
// CHECK-LABEL: gpu.func @scale4
// CHECK: %[[GID:.*]] = arith.addi
// CHECK-NOT: scf.for
// CHECK: %[[IN:.*]] = arith.cmpi slt, %[[GID]], %arg2 : i32
// CHECK: scf.if %[[IN]] {
// CHECK: %[[I:.*]] = arith.index_cast %[[GID]] : i32 to index
// CHECK: memref.load %arg0[%[[I]]]
// CHECK: memref.store %{{.*}}, %arg1[%[[I]]]
// CHECK-LABEL: func.func @launch
// CHECK: %[[N:.*]] = arith.index_cast %arg2 : i32 to index
// CHECK: %[[R:.*]] = arith.addi %[[N]], %c255 : index
// CHECK: %[[G:.*]] = arith.divsi %[[R]], %c256 : index
// CHECK: gpu.launch_func @kernels::@scale4 blocks in (%[[G]], %c1, %c1) threads in (%c256, %c1, %c1)
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale4(%x: memref<?xf32>, %y: memref<?xf32>, %n: i32) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c4_i32 = arith.constant 4 : i32
      %bx = gpu.block_id x
      %0 = arith.index_castui %bx : index to i32
      %dx = gpu.block_dim x
      %1 = arith.index_castui %dx : index to i32
      %2 = arith.muli %0, %1 : i32
      %tx = gpu.thread_id x
      %3 = arith.index_castui %tx : index to i32
      %gid = arith.addi %2, %3 : i32
      %c0i = arith.muli %gid, %c4_i32 : i32
      scf.for %u = %c0 to %c4 step %c1 {
        %u32 = arith.index_cast %u : index to i32
        %e = arith.addi %c0i, %u32 overflow<nsw> : i32
        %in = arith.cmpi slt, %e, %n : i32
        scf.if %in {
          %i = arith.index_cast %e : i32 to index
          %v = memref.load %x[%i] : memref<?xf32>
          %w = arith.addf %v, %v : f32
          memref.store %w, %y[%i] : memref<?xf32>
        }
      }
      gpu.return
    }
  }
  func.func @launch(%x: memref<?xf32>, %y: memref<?xf32>, %n: i32) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %c1023 = arith.constant 1023 : i32
    %c1024 = arith.constant 1024 : i32
    %0 = arith.addi %n, %c1023 : i32
    %1 = arith.divsi %0, %c1024 : i32
    %g = arith.index_castui %1 : i32 to index
    gpu.launch_func @kernels::@scale4 blocks in (%g, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%x : memref<?xf32>, %y : memref<?xf32>, %n : i32)
    return
  }
}

// -----

// The work reads c0 and u apart from their sum (a row's offset plus u): they
// become gid - gid % 4 and gid % 4.
// CHECK-LABEL: gpu.func @parts
// CHECK: %[[GID:.*]] = arith.addi
// CHECK: %[[U:.*]] = arith.remui %[[GID]], %c4_i32 : i32
// CHECK: %[[C0:.*]] = arith.subi %[[GID]], %[[U]] : i32
// CHECK: scf.if
// CHECK: arith.addi %{{.*}}, %[[C0]]
// CHECK: arith.addi %{{.*}}, %[[U]]
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @parts(%x: memref<?xf32>, %off: i32, %n: i32) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c4_i32 = arith.constant 4 : i32
      %one = arith.constant 1.0 : f32
      %bx = gpu.block_id x
      %0 = arith.index_castui %bx : index to i32
      %dx = gpu.block_dim x
      %1 = arith.index_castui %dx : index to i32
      %2 = arith.muli %0, %1 : i32
      %tx = gpu.thread_id x
      %3 = arith.index_castui %tx : index to i32
      %gid = arith.addi %2, %3 : i32
      %c0i = arith.muli %gid, %c4_i32 : i32
      scf.for %u = %c0 to %c4 step %c1 {
        %u32 = arith.index_cast %u : index to i32
        %e = arith.addi %c0i, %u32 overflow<nsw> : i32
        %in = arith.cmpi slt, %e, %n : i32
        scf.if %in {
          %a = arith.addi %off, %c0i overflow<nsw> : i32
          %b = arith.addi %a, %u32 overflow<nsw> : i32
          %i = arith.index_cast %b : i32 to index
          memref.store %one, %x[%i] : memref<?xf32>
        }
      }
      gpu.return
    }
  }
  func.func @launch(%x: memref<?xf32>, %off: i32, %n: i32) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %c511 = arith.constant 511 : i32
    %c512 = arith.constant 512 : i32
    %0 = arith.addi %n, %c511 : i32
    %1 = arith.divsi %0, %c512 : i32
    %g = arith.index_castui %1 : i32 to index
    gpu.launch_func @kernels::@parts blocks in (%g, %c1, %c1) threads in (%c128, %c1, %c1)
        args(%x : memref<?xf32>, %off : i32, %n : i32)
    return
  }
}

// -----

// Blocks of 256 threads taking 4 elements each need (n + 1023) / 1024 blocks;
// (n + 255) / 256 is more than that (fine), (n + 2047) / 2048 fewer.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-remark @below {{not rewritten: the launch grid along x is not ceil(bound / (block * 4)) blocks}}
    gpu.func @short(%y: memref<?xf32>, %n: i32) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c4_i32 = arith.constant 4 : i32
      %one = arith.constant 1.0 : f32
      %bx = gpu.block_id x
      %0 = arith.index_castui %bx : index to i32
      %dx = gpu.block_dim x
      %1 = arith.index_castui %dx : index to i32
      %2 = arith.muli %0, %1 : i32
      %tx = gpu.thread_id x
      %3 = arith.index_castui %tx : index to i32
      %gid = arith.addi %2, %3 : i32
      %c0i = arith.muli %gid, %c4_i32 : i32
      scf.for %u = %c0 to %c4 step %c1 {
        %u32 = arith.index_cast %u : index to i32
        %e = arith.addi %c0i, %u32 overflow<nsw> : i32
        %in = arith.cmpi slt, %e, %n : i32
        scf.if %in {
          %i = arith.index_cast %e : i32 to index
          memref.store %one, %y[%i] : memref<?xf32>
        }
      }
      gpu.return
    }
  }
  func.func @launch(%y: memref<?xf32>, %n: i32) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %c2047 = arith.constant 2047 : i32
    %c2048 = arith.constant 2048 : i32
    %0 = arith.addi %n, %c2047 : i32
    %1 = arith.divsi %0, %c2048 : i32
    %g = arith.index_castui %1 : i32 to index
    gpu.launch_func @kernels::@short blocks in (%g, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%y : memref<?xf32>, %n : i32)
    return
  }
}

// -----

// c0 is (blockIdx.x * blockDim.x + threadIdx.x) * 8 but the loop takes 4:
// half the elements would be skipped, and moving them changes nothing only
// when c0 + u counts every index once.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-remark @below {{not rewritten: c0 is not (blockIdx.x * blockDim.x + threadIdx.x) * 4}}
    gpu.func @stride8(%y: memref<?xf32>, %n: i32) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c8_i32 = arith.constant 8 : i32
      %one = arith.constant 1.0 : f32
      %bx = gpu.block_id x
      %0 = arith.index_castui %bx : index to i32
      %dx = gpu.block_dim x
      %1 = arith.index_castui %dx : index to i32
      %2 = arith.muli %0, %1 : i32
      %tx = gpu.thread_id x
      %3 = arith.index_castui %tx : index to i32
      %gid = arith.addi %2, %3 : i32
      %c0i = arith.muli %gid, %c8_i32 : i32
      scf.for %u = %c0 to %c4 step %c1 {
        %u32 = arith.index_cast %u : index to i32
        %e = arith.addi %c0i, %u32 overflow<nsw> : i32
        %in = arith.cmpi slt, %e, %n : i32
        scf.if %in {
          %i = arith.index_cast %e : i32 to index
          memref.store %one, %y[%i] : memref<?xf32>
        }
      }
      gpu.return
    }
  }
  func.func @launch(%y: memref<?xf32>, %n: i32) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %c2047 = arith.constant 2047 : i32
    %c2048 = arith.constant 2048 : i32
    %0 = arith.addi %n, %c2047 : i32
    %1 = arith.divsi %0, %c2048 : i32
    %g = arith.index_castui %1 : i32 to index
    gpu.launch_func @kernels::@stride8 blocks in (%g, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%y : memref<?xf32>, %n : i32)
    return
  }
}

// -----

// threadIdx.x is read on its own (a lane's position): the work cannot move
// between threads.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-remark @below {{not rewritten: threadIdx.x or blockIdx.x is read apart from the global index}}
    gpu.func @lane(%y: memref<?xi32>, %n: i32) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c4_i32 = arith.constant 4 : i32
      %bx = gpu.block_id x
      %0 = arith.index_castui %bx : index to i32
      %dx = gpu.block_dim x
      %1 = arith.index_castui %dx : index to i32
      %2 = arith.muli %0, %1 : i32
      %tx = gpu.thread_id x
      %3 = arith.index_castui %tx : index to i32
      %gid = arith.addi %2, %3 : i32
      %c0i = arith.muli %gid, %c4_i32 : i32
      scf.for %u = %c0 to %c4 step %c1 {
        %u32 = arith.index_cast %u : index to i32
        %e = arith.addi %c0i, %u32 overflow<nsw> : i32
        %in = arith.cmpi slt, %e, %n : i32
        scf.if %in {
          %i = arith.index_cast %e : i32 to index
          memref.store %3, %y[%i] : memref<?xi32>
        }
      }
      gpu.return
    }
  }
  func.func @launch(%y: memref<?xi32>, %n: i32) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %c1023 = arith.constant 1023 : i32
    %c1024 = arith.constant 1024 : i32
    %0 = arith.addi %n, %c1023 : i32
    %1 = arith.divsi %0, %c1024 : i32
    %g = arith.index_castui %1 : i32 to index
    gpu.launch_func @kernels::@lane blocks in (%g, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%y : memref<?xi32>, %n : i32)
    return
  }
}

// -----

// A barrier in the kernel: threads communicate.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-remark @below {{not rewritten: the kernel communicates between threads}}
    gpu.func @synced(%y: memref<?xf32>, %n: i32) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c4_i32 = arith.constant 4 : i32
      %one = arith.constant 1.0 : f32
      %bx = gpu.block_id x
      %0 = arith.index_castui %bx : index to i32
      %dx = gpu.block_dim x
      %1 = arith.index_castui %dx : index to i32
      %2 = arith.muli %0, %1 : i32
      %tx = gpu.thread_id x
      %3 = arith.index_castui %tx : index to i32
      %gid = arith.addi %2, %3 : i32
      %c0i = arith.muli %gid, %c4_i32 : i32
      scf.for %u = %c0 to %c4 step %c1 {
        %u32 = arith.index_cast %u : index to i32
        %e = arith.addi %c0i, %u32 overflow<nsw> : i32
        %in = arith.cmpi slt, %e, %n : i32
        scf.if %in {
          %i = arith.index_cast %e : i32 to index
          gpu.barrier
          memref.store %one, %y[%i] : memref<?xf32>
        }
      }
      gpu.return
    }
  }
  func.func @launch(%y: memref<?xf32>, %n: i32) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %c1023 = arith.constant 1023 : i32
    %c1024 = arith.constant 1024 : i32
    %0 = arith.addi %n, %c1023 : i32
    %1 = arith.divsi %0, %c1024 : i32
    %g = arith.index_castui %1 : i32 to index
    gpu.launch_func @kernels::@synced blocks in (%g, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%y : memref<?xf32>, %n : i32)
    return
  }
}

// -----

// c0 is a kernel argument, not the thread's index times U.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-remark @below {{not rewritten: c0 is not (blockIdx.x * blockDim.x + threadIdx.x) * 4}}
    gpu.func @argument(%y: memref<?xf32>, %c0i: i32, %n: i32) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %one = arith.constant 1.0 : f32
      scf.for %u = %c0 to %c4 step %c1 {
        %u32 = arith.index_cast %u : index to i32
        %e = arith.addi %c0i, %u32 overflow<nsw> : i32
        %in = arith.cmpi slt, %e, %n : i32
        scf.if %in {
          %i = arith.index_cast %e : i32 to index
          memref.store %one, %y[%i] : memref<?xf32>
        }
      }
      gpu.return
    }
  }
  func.func @launch(%y: memref<?xf32>, %c0i: i32, %n: i32) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @kernels::@argument blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%y : memref<?xf32>, %c0i : i32, %n : i32)
    return
  }
}
