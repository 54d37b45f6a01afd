// RUN: ks-opt %s -split-input-file --ks-bare-pointer-abi -verify-diagnostics

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @+1 {{kernel argument #0: cannot pass 'memref<?x?xf32>' as a bare pointer: only rank-1 identity-layout dynamic memrefs (lifted CUDA pointers) can be rebuilt from a pointer}}
    gpu.func @matrix(%x: memref<?x?xf32>) kernel {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @+1 {{kernel argument #1: cannot pass 'memref<?xf32, strided<[2]>>' as a bare pointer}}
    gpu.func @strided(%n: i32, %x: memref<?xf32, strided<[2]>>) kernel {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @+1 {{kernel argument #0: cannot pass 'memref<?xf32, #gpu.address_space<workgroup>>': unsupported memory space}}
    gpu.func @shared(%x: memref<?xf32, #gpu.address_space<workgroup>>) kernel {
      gpu.return
    }
  }
}
