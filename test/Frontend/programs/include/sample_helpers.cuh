// Helpers in the style of the CUDA samples' helper_cuda.h.
#pragma once
#include <cstdio>
#include <cstdlib>
#define checkCudaErrors(val) check_result((val), #val, __FILE__, __LINE__)
static inline void check_result(cudaError_t result, const char *what, const char *file, int line) {
  if (result) {
    fprintf(stderr, "CUDA error at %s:%d code=%d \"%s\"\n", file, line, (int)result, what);
    exit(EXIT_FAILURE);
  }
}
__device__ __forceinline__ float fma_accumulate(float acc, float a, float b) { return acc + a * b; }
