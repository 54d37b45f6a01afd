// out = in * scale + offset, grid-stride loop with size_t indices and a `stride`
// variable; grid = min((n + 255) / 256, 4096) blocks.
#include <cuda_runtime.h>

__global__ void scale_offset(const float* src, float* dst, float scale, float offset, size_t n)
{
    size_t stride = (size_t)blockDim.x * gridDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        dst[i] = src[i] * scale + offset;
}

void launch_gs_scale_offset_sizet(const float* src, float* dst, float scale, float offset, size_t n)
{
    size_t blocks = (n + 255) / 256;
    if (blocks > 4096)
        blocks = 4096;
    scale_offset<<<(unsigned int)blocks, 256>>>(src, dst, scale, offset, n);
}
