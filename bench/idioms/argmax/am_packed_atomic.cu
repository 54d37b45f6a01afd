// Argmax of a whole array with the packed 64-bit atomicMax trick: high word = the value
// as an order-preserving uint, low word = ~index (smaller index wins ties); grid-stride
// per thread, warp shuffle max, one atomicMax per warp. The result stays packed.
#include <cuda_runtime.h>

__device__ __forceinline__ unsigned int float_to_ordered(float f)
{
    unsigned int u = __float_as_uint(f);
    return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}

__global__ void argmax_packed(const float* __restrict__ x, unsigned long long* __restrict__ best, int n)
{
    unsigned long long key = 0ull;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        unsigned long long k = ((unsigned long long)float_to_ordered(x[i]) << 32) | (unsigned int)(~i);
        if (k > key)
            key = k;
    }
    for (int off = 16; off > 0; off >>= 1) {
        unsigned long long other = __shfl_down_sync(0xffffffff, key, off);
        if (other > key)
            key = other;
    }
    if ((threadIdx.x & 31) == 0)
        atomicMax(best, key);
}

void launch_am_packed_atomic(const float* x, unsigned long long* best, int n)
{
    int blocks = (n + 255) / 256;
    if (blocks > 1024)
        blocks = 1024;
    argmax_packed<<<blocks, 256>>>(x, best, n);
}
