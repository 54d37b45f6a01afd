// Leaky ReLU on a rows x cols matrix: 2-D grid (64 x 4 threads), each thread UNROLL
// consecutive columns (template parameter, 8 here), guard c < cols in the loop.
#include <cuda_runtime.h>

template <int UNROLL>
__global__ void leaky_relu_2d(const float* src, float* dst, int rows, int cols, float slope)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int c0 = (blockIdx.x * blockDim.x + threadIdx.x) * UNROLL;
    if (row >= rows)
        return;
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
        int c = c0 + u;
        if (c < cols) {
            float v = src[row * cols + c];
            dst[row * cols + c] = v > 0.0f ? v : slope * v;
        }
    }
}

void launch_gu_leaky_2d_template(const float* src, float* dst, int rows, int cols, float slope)
{
    const int U = 8;
    dim3 block(64, 4);
    dim3 grid((cols + 64 * U - 1) / (64 * U), (rows + 3) / 4);
    leaky_relu_2d<U><<<grid, block>>>(src, dst, rows, cols, slope);
}
