// out = (a - b)^2, ELEMS consecutive elements per thread with size_t indices; the
// block size and unroll factor are macros (TPB used in the kernel instead of blockDim.x).
#include <cuda_runtime.h>

#define TPB 256
#define ELEMS 4

__global__ void sqdiff4(const float* a, const float* b, float* out, size_t n)
{
    size_t c0 = ((size_t)blockIdx.x * TPB + threadIdx.x) * ELEMS;
#pragma unroll
    for (int u = 0; u < ELEMS; ++u) {
        size_t i = c0 + u;
        if (i < n) {
            float d = a[i] - b[i];
            out[i] = d * d;
        }
    }
}

void launch_gu_sqdiff_macro_sizet(const float* a, const float* b, float* out, size_t n)
{
    size_t blocks = (n + TPB * ELEMS - 1) / (TPB * ELEMS);
    sqdiff4<<<(unsigned int)blocks, TPB>>>(a, b, out, n);
}
