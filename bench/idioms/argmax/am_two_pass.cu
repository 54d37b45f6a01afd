// Argmax of a whole array in two passes: per-block (value, index) partials from a static
// shared-memory tree, then one 1024-thread block reduces the partials to the index.
#include <cuda_runtime.h>

__global__ void argmax_partial(const float* x, float* pval, int* pidx, int n)
{
    __shared__ float sv[256];
    __shared__ int si[256];
    int tid = threadIdx.x;
    int i = blockIdx.x * 256 + tid;
    sv[tid] = (i < n) ? x[i] : -3.402823466e+38f;
    si[tid] = (i < n) ? i : 0x7fffffff;
    __syncthreads();
    for (int s = 128; s > 0; s >>= 1) {
        if (tid < s) {
            if (sv[tid + s] > sv[tid] || (sv[tid + s] == sv[tid] && si[tid + s] < si[tid])) {
                sv[tid] = sv[tid + s];
                si[tid] = si[tid + s];
            }
        }
        __syncthreads();
    }
    if (tid == 0) {
        pval[blockIdx.x] = sv[0];
        pidx[blockIdx.x] = si[0];
    }
}

__global__ void argmax_final(const float* pval, const int* pidx, int* out, int n)
{
    __shared__ float sv[1024];
    __shared__ int si[1024];
    int tid = threadIdx.x;
    int nparts = (n + 255) / 256;

    float best = -3.402823466e+38f;
    int bi = 0x7fffffff;
    for (int p = tid; p < nparts; p += blockDim.x) {
        float v = pval[p];
        int j = pidx[p];
        if (v > best || (v == best && j < bi)) {
            best = v;
            bi = j;
        }
    }
    sv[tid] = best;
    si[tid] = bi;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) {
            if (sv[tid + s] > sv[tid] || (sv[tid + s] == sv[tid] && si[tid + s] < si[tid])) {
                sv[tid] = sv[tid + s];
                si[tid] = si[tid + s];
            }
        }
        __syncthreads();
    }
    if (tid == 0)
        out[0] = si[0];
}

void launch_am_two_pass(const float* x, float* pval, int* pidx, int* idx, int n)
{
    int blocks = (n + 255) / 256;
    argmax_partial<<<blocks, 256>>>(x, pval, pidx, n);
    argmax_final<<<1, 1024>>>(pval, pidx, idx, n);
}
