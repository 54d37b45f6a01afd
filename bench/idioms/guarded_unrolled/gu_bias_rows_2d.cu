// out[r][c] = x[r][c] + bias[c]: one grid row per matrix row (blockIdx.y), each thread
// 4 consecutive columns in an unrolled loop guarded by c0 + u < cols.
#include <cuda_runtime.h>

__global__ void add_bias_rows(const float* x, const float* bias, float* out, int rows, int cols)
{
    int row = blockIdx.y;
    int c0 = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
#pragma unroll
    for (int u = 0; u < 4; ++u) {
        if (c0 + u < cols)
            out[row * cols + c0 + u] = x[row * cols + c0 + u] + bias[c0 + u];
    }
}

void launch_gu_bias_rows_2d(const float* x, const float* bias, float* out, int rows, int cols)
{
    dim3 block(128);
    dim3 grid((cols + 4 * 128 - 1) / (4 * 128), rows);
    add_bias_rows<<<grid, block>>>(x, bias, out, rows, cols);
}
