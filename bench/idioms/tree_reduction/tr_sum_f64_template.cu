// Sum of a double array: templated on element type and block size, the extern
// unsigned char shared buffer cast to T*, sequential-addressing tree, atomicAdd(double).
#include <cuda_runtime.h>

template <typename T, unsigned int BLOCK>
__global__ void reduce_sum(const T* input, T* out, int n)
{
    extern __shared__ unsigned char smem_raw[];
    T* sdata = reinterpret_cast<T*>(smem_raw);

    unsigned int tid = threadIdx.x;
    int i = blockIdx.x * BLOCK + tid;
    sdata[tid] = (i < n) ? input[i] : T(0);
    __syncthreads();

    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }

    if (tid == 0)
        atomicAdd(out, sdata[0]);
}

void launch_tr_sum_f64_template(const double* x, double* out, int n)
{
    const unsigned int block = 512;
    int grid = (n + block - 1) / block;
    reduce_sum<double, block><<<grid, block, block * sizeof(double)>>>(x, out, n);
}
