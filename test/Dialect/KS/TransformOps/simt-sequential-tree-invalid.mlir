// RUN: ks-opt %s -split-input-file -verify-diagnostics --transform-interpreter -o /dev/null

// The strided element used outside the update would keep its old meaning there.
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    // expected-note @below {{target}}
    gpu.func @used_outside(%in: memref<?xf32>, %out: memref<?xf32>)
        workgroup(%a : memref<256xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %dim = gpu.block_dim x
      %base = arith.muli %bid, %dim : index
      %i = arith.addi %base, %tid : index
      %v = memref.load %in[%i] : memref<?xf32>
      memref.store %v, %a[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %last = scf.while (%s = %c1) : (index) -> index {
        %more = arith.cmpi ult, %s, %dim : index
        scf.condition(%more) %s : index
      } do {
      ^bb0(%s: index):
        %two = arith.shli %s, %c1 : index
        %e = arith.muli %tid, %two : index
        %z = arith.cmpi ult, %e, %dim : index
        %elsewhere = arith.cmpi eq, %e, %c0 : index
        scf.if %z {
          %j = arith.addi %s, %e : index
          %y = memref.load %a[%j] : memref<256xf32, #gpu.address_space<workgroup>>
          %x = memref.load %a[%e] : memref<256xf32, #gpu.address_space<workgroup>>
          %sum = arith.maximumf %y, %x : f32
          memref.store %sum, %a[%e] : memref<256xf32, #gpu.address_space<workgroup>>
        }
        gpu.barrier
        scf.yield %two : index
      }
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        %t = memref.load %a[%c0] : memref<256xf32, #gpu.address_space<workgroup>>
        memref.store %t, %out[%bid] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @launch(%in: memref<?xf32>, %out: memref<?xf32>, %n: index) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @kernels::@used_outside blocks in (%n, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%in : memref<?xf32>, %out : memref<?xf32>)
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["gpu.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{ks.simt_sequential_tree: no interleaved or strided tree reduction to rewrite: the strided update's element 2 * s * tid is used outside the update}}
    %r = transform.ks.simt_sequential_tree %k : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// 2 * s * tid in 16 bits may wrap (s = 512, tid = 1023 at 1024 threads).
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    // expected-note @below {{target}}
    gpu.func @narrow(%in: memref<?xf32>, %out: memref<?xf32>)
        workgroup(%a : memref<256xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %dim = gpu.block_dim x
      %base = arith.muli %bid, %dim : index
      %i = arith.addi %base, %tid : index
      %v = memref.load %in[%i] : memref<?xf32>
      memref.store %v, %a[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %one16 = arith.constant 1 : i16
      %dim16 = arith.index_castui %dim : index to i16
      %tid16 = arith.index_castui %tid : index to i16
      %last = scf.while (%s = %one16) : (i16) -> i16 {
        %more = arith.cmpi ult, %s, %dim16 : i16
        scf.condition(%more) %s : i16
      } do {
      ^bb0(%s: i16):
        %two = arith.shli %s, %one16 : i16
        %e16 = arith.muli %tid16, %two : i16
        %z = arith.cmpi ult, %e16, %dim16 : i16
        %e = arith.index_castui %e16 : i16 to index
        %s64 = arith.index_castui %s : i16 to index
        scf.if %z {
          %j = arith.addi %s64, %e : index
          %y = memref.load %a[%j] : memref<256xf32, #gpu.address_space<workgroup>>
          %x = memref.load %a[%e] : memref<256xf32, #gpu.address_space<workgroup>>
          %sum = arith.maximumf %y, %x : f32
          memref.store %sum, %a[%e] : memref<256xf32, #gpu.address_space<workgroup>>
        }
        gpu.barrier
        scf.yield %two : i16
      }
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        %t = memref.load %a[%c0] : memref<256xf32, #gpu.address_space<workgroup>>
        memref.store %t, %out[%bid] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @launch(%in: memref<?xf32>, %out: memref<?xf32>, %n: index) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @kernels::@narrow blocks in (%n, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%in : memref<?xf32>, %out : memref<?xf32>)
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["gpu.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{ks.simt_sequential_tree: no interleaved or strided tree reduction to rewrite: the strided update's element 2 * s * tid is narrower than 32 bits}}
    %r = transform.ks.simt_sequential_tree %k : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// s * tid is not 2 * s * tid: another computation.
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    // expected-note @below {{target}}
    gpu.func @short(%in: memref<?xf32>, %out: memref<?xf32>)
        workgroup(%a : memref<256xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %dim = gpu.block_dim x
      %base = arith.muli %bid, %dim : index
      %i = arith.addi %base, %tid : index
      %v = memref.load %in[%i] : memref<?xf32>
      memref.store %v, %a[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %last = scf.while (%s = %c1) : (index) -> index {
        %more = arith.cmpi ult, %s, %dim : index
        scf.condition(%more) %s : index
      } do {
      ^bb0(%s: index):
        %two = arith.shli %s, %c1 : index
        %e = arith.muli %tid, %s : index
        %z = arith.cmpi ult, %e, %dim : index
        scf.if %z {
          %j = arith.addi %s, %e : index
          %y = memref.load %a[%j] : memref<256xf32, #gpu.address_space<workgroup>>
          %x = memref.load %a[%e] : memref<256xf32, #gpu.address_space<workgroup>>
          %sum = arith.maximumf %y, %x : f32
          memref.store %sum, %a[%e] : memref<256xf32, #gpu.address_space<workgroup>>
        }
        gpu.barrier
        scf.yield %two : index
      }
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        %t = memref.load %a[%c0] : memref<256xf32, #gpu.address_space<workgroup>>
        memref.store %t, %out[%bid] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @launch(%in: memref<?xf32>, %out: memref<?xf32>, %n: index) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @kernels::@short blocks in (%n, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%in : memref<?xf32>, %out : memref<?xf32>)
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["gpu.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{ks.simt_sequential_tree: no interleaved or strided tree reduction to rewrite: the update's guard is neither tid % (2 * s) == 0 nor 2 * s * tid < blockDim.x}}
    %r = transform.ks.simt_sequential_tree %k : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
