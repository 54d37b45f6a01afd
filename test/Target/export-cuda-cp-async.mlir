// The CUDA exporter writes what the outer-product schedule introduces with
// cp.async: 16-byte aligned shared tiles, strided views as pointers with
// strides, cp.async through cuda_pipeline.h, 128-bit shared loads, #pragma
// unroll. nvcc compiles it, where present.
// RUN: ks-opt %s --transform-preload-library=transform-library-paths=%S/Inputs/export-cuda-cp-async.schedule.mlir --transform-interpreter -o %t.mlir
// RUN: ks-translate --export-cuda %t.mlir | FileCheck %s
// RUN: %if nvcc %{ ks-translate --export-cuda %t.mlir -o %t.cu %}
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -c %t.cu -o %t.o %}

// CHECK: #include <cuda_pipeline.h>
// CHECK: __global__ void __launch_bounds__(256) gemm(const float *A, const float *B, float *C, int M, int N, int K) {
// CHECK-NEXT: __shared__ __align__(16) float shared[3][128][12];
// CHECK-NEXT: __shared__ __align__(16) float shared1[3][8][128];
// CHECK: float local[8][8];
// CHECK: #pragma unroll
// CHECK: __pipeline_memcpy_async(&shared[{{.*}}][{{.*}}][{{.*}}], &A[{{.*}} * {{.*}} + {{.*}}], 16, 16 - {{.*}} * 4);
// CHECK: __pipeline_commit();
// CHECK: __pipeline_wait_prior(1);
// CHECK: __syncthreads();
// CHECK: *reinterpret_cast<const float4 *>(&shared[
// CHECK: C[{{.*}} * {{.*}} + {{.*}}] =
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @gemm(%A: memref<?xf32> {ks.const, ks.name = "A"}, %B: memref<?xf32> {ks.const, ks.name = "B"}, %C: memref<?xf32> {ks.name = "C"}, %Mi: i32 {ks.name = "M"}, %Ni: i32 {ks.name = "N"}, %Ki: i32 {ks.name = "K"}) kernel attributes {ks.raised} {
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
            bufferization.materialize_in_destination %mm in restrict writable %c : (tensor<?x?xf32>, memref<?x?xf32, strided<[?, 1]>>) -> ()
      gpu.return
    }
  }
  func.func @launch(%A: memref<?xf32>, %B: memref<?xf32>, %C: memref<?xf32>, %M: i32, %N: i32, %K: i32) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@gemm blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%A : memref<?xf32>, %B : memref<?xf32>, %C : memref<?xf32>, %M : i32, %N : i32, %K : i32)
    return
  }
}
