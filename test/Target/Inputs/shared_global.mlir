module attributes {gpu.container_module} {
  gpu.module @kernels {
    memref.global "public" @s : memref<4xf32, #gpu.address_space<workgroup>>
    gpu.func @k() kernel {
      gpu.return
    }
  }
}
