// Naive contractions in the element types users bring: one thread per output,
// accumulating in another type than the operands'. None may crash the
// pipeline (issue 44); each is optimized or kept as it was.
#include <cuda_fp16.h>
#include <cuda_bf16.h>

// fp16 operands, fp32 accumulation through __half2float, fp16 output.
__global__ void hgemm(const __half* A, const __half* B, __half* C, int M, int N, int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < M && col < N) {
    float acc = 0.0f;
    for (int k = 0; k < K; ++k)
      acc += __half2float(A[row * K + k]) * __half2float(B[k * N + col]);
    C[row * N + col] = __float2half(acc);
  }
}

// bf16 column-major operands, float output.
__global__ void bfgemm(const __nv_bfloat16* A, const __nv_bfloat16* B, float* C, int M, int N, int K) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < M && j < N) {
    float acc = 0.0f;
    for (int k = 0; k < K; ++k)
      acc += __bfloat162float(A[k * M + i]) * __bfloat162float(B[j * K + k]);
    C[j * M + i] = acc;
  }
}

// float operands, a double accumulator.
__global__ void dacc_gemm(const float* A, const float* B, float* C, int M, int N, int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < M && col < N) {
    double acc = 0.0;
    for (int k = 0; k < K; ++k)
      acc += (double)A[row * K + k] * (double)B[k * N + col];
    C[row * N + col] = (float)acc;
  }
}

// float products truncated into an int accumulator.
__global__ void iacc_gemm(const float* A, const float* B, float* C, int M, int N, int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < M && col < N) {
    int acc = 0;
    for (int k = 0; k < K; ++k)
      acc += (int)(A[row * K + k] * B[k * N + col] * 16.0f);
    C[row * N + col] = (float)acc;
  }
}

// A GEMV over __half2 pairs.
__global__ void h2gemv(const __half2* A, const __half2* x, float* y, int M, int K2) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < M) {
    float acc = 0.0f;
    for (int k = 0; k < K2; ++k) {
      float2 p = __half22float2(__hmul2(A[row * K2 + k], x[k]));
      acc += p.x + p.y;
    }
    y[row] = acc;
  }
}
