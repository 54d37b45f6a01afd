// Needs the -I and -D that clang-args.test passes after `--`.
#include "ks_scale.h"

__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = x[i] * KS_SCALE_FACTOR + KS_OFFSET;
}
