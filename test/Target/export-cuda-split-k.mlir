// The CUDA exporter writes a split-K schedule: the init kernel, atomic adds
// into the output view, and a launcher that runs both kernels in order. nvcc
// compiles it, where present.
// RUN: ks-opt %s --transform-preload-library=transform-library-paths=%S/Inputs/export-cuda-split-k.schedule.mlir --transform-interpreter -o %t.mlir
// RUN: ks-translate --export-cuda %t.mlir | FileCheck %s
// RUN: %if nvcc %{ ks-translate --export-cuda %t.mlir -o %t.cu %}
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -c %t.cu -o %t.o %}

// CHECK: __global__ void __launch_bounds__(256) gemm_split_init(
// CHECK: __global__ void __launch_bounds__(256) gemm(
// CHECK: atomicAdd(&C[{{.*}} * {{.*}} + {{.*}}], {{.*}});
// CHECK: void launch(
// CHECK: gemm_split_init<<<{{.*}}>>>(A, B, C, M, N, K);
// CHECK: gemm<<<{{.*}}>>>(A, B, C, M, N, K);
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @gemm(%A: memref<?xf32> {ks.name = "A"}, %B: memref<?xf32> {ks.name = "B"}, %C: memref<?xf32> {ks.name = "C"}, %Mi: i32 {ks.name = "M"}, %Ni: i32 {ks.name = "N"}, %Ki: i32 {ks.name = "K"}) kernel attributes {ks.raised} {
      %zero = arith.constant 0.0 : f32
      %M = arith.index_cast %Mi : i32 to index
      %N = arith.index_cast %Ni : i32 to index
      %K = arith.index_cast %Ki : i32 to index
      %a = memref.reinterpret_cast %A to offset: [0], sizes: [%M, %K], strides: [%K, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      %b = memref.reinterpret_cast %B to offset: [0], sizes: [%K, %N], strides: [%N, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      %c = memref.reinterpret_cast %C to offset: [0], sizes: [%M, %N], strides: [%N, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      %e = tensor.empty(%M, %N) : tensor<?x?xf32>
      %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
      %ta = bufferization.to_tensor %a restrict : memref<?x?xf32, strided<[?, 1]>> to tensor<?x?xf32>
      %tb = bufferization.to_tensor %b restrict : memref<?x?xf32, strided<[?, 1]>> to tensor<?x?xf32>
      %mm = linalg.matmul {ks.contract} ins(%ta, %tb : tensor<?x?xf32>, tensor<?x?xf32>) outs(%f : tensor<?x?xf32>) -> tensor<?x?xf32>
      %tc = bufferization.to_tensor %c restrict : memref<?x?xf32, strided<[?, 1]>> to tensor<?x?xf32>
      %e2 = tensor.empty(%M, %N) : tensor<?x?xf32>
      %ep = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm, %tc : tensor<?x?xf32>, tensor<?x?xf32>) outs(%e2 : tensor<?x?xf32>) {
      ^bb0(%x: f32, %old: f32, %o: f32):
        %two = arith.constant 2.0 : f32
        %ax = arith.mulf %two, %x : f32
        %s = arith.addf %ax, %old : f32
        linalg.yield %s : f32
      } -> tensor<?x?xf32>
      bufferization.materialize_in_destination %ep in restrict writable %c : (tensor<?x?xf32>, memref<?x?xf32, strided<[?, 1]>>) -> ()
      gpu.return
    }
  }
  func.func @launch(%A: memref<?xf32> {ks.name = "A"}, %B: memref<?xf32> {ks.name = "B"}, %C: memref<?xf32> {ks.name = "C"}, %M: i32 {ks.name = "M"}, %N: i32 {ks.name = "N"}, %K: i32 {ks.name = "K"}) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@gemm blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%A : memref<?xf32>, %B : memref<?xf32>, %C : memref<?xf32>, %M : i32, %N : i32, %K : i32)
    return
  }
}
