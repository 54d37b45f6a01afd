// out = x * y + z for doubles: templated grid-stride kernel (for-loop with the index
// declared outside), __ldg loads, __restrict__, fixed grid of 2048 x 256.
#include <cuda_runtime.h>

template <typename T>
__global__ void fma3_kernel(const T* __restrict__ x, const T* __restrict__ y,
                            const T* __restrict__ z, T* __restrict__ out, int n)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    for (; idx < n; idx += gridDim.x * blockDim.x)
        out[idx] = __ldg(&x[idx]) * __ldg(&y[idx]) + __ldg(&z[idx]);
}

void launch_gs_fma3_template(const double* x, const double* y, const double* z, double* out, int n)
{
    fma3_kernel<double><<<2048, 256>>>(x, y, z, out, n);
}
