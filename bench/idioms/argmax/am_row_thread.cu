// Row-wise argmax of a rows x cols matrix, one thread per row scanning its row
// (first index wins ties); an IDX macro for the row-major indexing.
#include <cuda_runtime.h>

#define IDX(r, c, ld) ((r) * (ld) + (c))

__global__ void row_argmax(const float* x, int* idx, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows)
        return;
    float best = x[IDX(r, 0, cols)];
    int bi = 0;
    for (int c = 1; c < cols; ++c) {
        float v = x[IDX(r, c, cols)];
        if (v > best) {
            best = v;
            bi = c;
        }
    }
    idx[r] = bi;
}

void launch_am_row_thread(const float* x, int* idx, int rows, int cols)
{
    int threads = 128;
    row_argmax<<<(rows + threads - 1) / threads, threads>>>(x, idx, rows, cols);
}
