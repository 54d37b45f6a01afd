// Row-wise argmin, one 256-thread block per row: strided scan per thread, then a
// (value, index) tree in dynamic shared memory (values then indices); smaller index wins ties.
#include <cuda_runtime.h>

__global__ void row_argmin_block(const float* x, int* out, int rows, int cols)
{
    extern __shared__ float sval[];
    int* sidx = (int*)&sval[blockDim.x];

    int row = blockIdx.x;
    int tid = threadIdx.x;
    if (row >= rows)
        return;
    const float* xr = x + (size_t)row * cols;

    float best = 3.402823466e+38f;
    int bi = 0x7fffffff;
    for (int c = tid; c < cols; c += blockDim.x) {
        float v = xr[c];
        if (v < best) {
            best = v;
            bi = c;
        }
    }
    sval[tid] = best;
    sidx[tid] = bi;
    __syncthreads();

    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) {
            float ov = sval[tid + s];
            int oi = sidx[tid + s];
            if (ov < sval[tid] || (ov == sval[tid] && oi < sidx[tid])) {
                sval[tid] = ov;
                sidx[tid] = oi;
            }
        }
        __syncthreads();
    }

    if (tid == 0)
        out[row] = sidx[0];
}

void launch_am_row_block_argmin(const float* x, int* out, int rows, int cols)
{
    const int threads = 256;
    size_t smem = threads * (sizeof(float) + sizeof(int));
    row_argmin_block<<<rows, threads, smem>>>(x, out, rows, cols);
}
