// Row-wise argmax with one warp per row (block 32 x 8 = 8 rows), lane-strided scan and a
// __shfl_down_sync (value, index) reduction; int64 indices like torch.argmax.
#include <cuda_runtime.h>

__global__ void row_argmax_warp(const float* __restrict__ x, long long* __restrict__ idx, int rows, int cols)
{
    int row = blockIdx.x * blockDim.y + threadIdx.y;
    if (row >= rows)
        return;
    int lane = threadIdx.x;
    const float* xr = x + (size_t)row * cols;

    float best = -3.402823466e+38f;
    int bi = 0x7fffffff;
    for (int c = lane; c < cols; c += 32) {
        float v = xr[c];
        if (v > best) {
            best = v;
            bi = c;
        }
    }
    for (int off = 16; off > 0; off >>= 1) {
        float ov = __shfl_down_sync(0xffffffff, best, off);
        int oi = __shfl_down_sync(0xffffffff, bi, off);
        if (ov > best || (ov == best && oi < bi)) {
            best = ov;
            bi = oi;
        }
    }
    if (lane == 0)
        idx[row] = bi;
}

void launch_am_row_warp_i64(const float* x, long long* idx, int rows, int cols)
{
    dim3 block(32, 8);
    dim3 grid((rows + 7) / 8);
    row_argmax_warp<<<grid, block>>>(x, idx, rows, cols);
}
