// Naive fp32 GEMM, C[M,N] = A[M,K] * B[K,N], row-major, one thread per output
// element, 16x16 thread blocks. This is the "lifted" SIMT form of:
//
//   __global__ void naive_gemm(const float *A, const float *B, float *C,
//                              int M, int N, int K) {
//     int row = blockIdx.y * blockDim.y + threadIdx.y;
//     int col = blockIdx.x * blockDim.x + threadIdx.x;
//     if (row < M && col < N) {
//       float acc = 0.0f;
//       for (int p = 0; p < K; ++p) acc += A[row * K + p] * B[p * N + col];
//       C[row * N + col] = acc;
//     }
//   }
//   void launch(const float *A, const float *B, float *C, int M, int N, int K) {
//     dim3 block(16, 16);
//     dim3 grid((N + 15) / 16, (M + 15) / 16);
//     naive_gemm<<<grid, block>>>(A, B, C, M, N, K);
//   }
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @naive_gemm(%A: memref<?xf32> {ks.name = "A"}, %B: memref<?xf32> {ks.name = "B"},
                         %C: memref<?xf32> {ks.name = "C"}, %M: i32 {ks.name = "M"},
                         %N: i32 {ks.name = "N"}, %K: i32 {ks.name = "K"}) kernel {
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %dx = gpu.block_dim x
      %dy = gpu.block_dim y
      %row0 = arith.muli %by, %dy : index
      %row = arith.addi %row0, %ty : index
      %col0 = arith.muli %bx, %dx : index
      %col = arith.addi %col0, %tx : index
      %Mi = arith.index_cast %M : i32 to index
      %Ni = arith.index_cast %N : i32 to index
      %Ki = arith.index_cast %K : i32 to index
      %rin = arith.cmpi slt, %row, %Mi : index
      %cin = arith.cmpi slt, %col, %Ni : index
      %in = arith.andi %rin, %cin : i1
      scf.if %in {
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        %zero = arith.constant 0.0 : f32
        %arow = arith.muli %row, %Ki : index
        %acc = scf.for %p = %c0 to %Ki step %c1 iter_args(%s = %zero) -> (f32) {
          %ai = arith.addi %arow, %p : index
          %bi0 = arith.muli %p, %Ni : index
          %bi = arith.addi %bi0, %col : index
          %a = memref.load %A[%ai] : memref<?xf32>
          %b = memref.load %B[%bi] : memref<?xf32>
          %ab = arith.mulf %a, %b : f32
          %s2 = arith.addf %s, %ab : f32
          scf.yield %s2 : f32
        }
        %crow = arith.muli %row, %Ni : index
        %ci = arith.addi %crow, %col : index
        memref.store %acc, %C[%ci] : memref<?xf32>
      }
      gpu.return
    }
  }

  // Host launcher: grid and block computed from the scalar arguments. The
  // argument names and the workload (the sizes ks-bench measures with) are
  // attributes, as the CUDA importer writes them.
  func.func @naive_gemm_launch(%A: memref<?xf32> {ks.name = "A"}, %B: memref<?xf32> {ks.name = "B"},
                               %C: memref<?xf32> {ks.name = "C"}, %M: i32 {ks.name = "M"},
                               %N: i32 {ks.name = "N"}, %K: i32 {ks.name = "K"})
      attributes {ks.workload = #ks.workload<scalars = {M = 4096 : i32, N = 4096 : i32, K = 4096 : i32},
                                             buffers = {A = 16777216, B = 16777216, C = 16777216}>} {
    %c1 = arith.constant 1 : index
    %c15 = arith.constant 15 : index
    %c16 = arith.constant 16 : index
    %Mi = arith.index_cast %M : i32 to index
    %Ni = arith.index_cast %N : i32 to index
    %gx0 = arith.addi %Ni, %c15 : index
    %gx = arith.divui %gx0, %c16 : index
    %gy0 = arith.addi %Mi, %c15 : index
    %gy = arith.divui %gy0, %c16 : index
    gpu.launch_func @kernels::@naive_gemm
        blocks in (%gx, %gy, %c1) threads in (%c16, %c16, %c1)
        args(%A : memref<?xf32>, %B : memref<?xf32>, %C : memref<?xf32>,
             %M : i32, %N : i32, %K : i32)
    return
  }
}
