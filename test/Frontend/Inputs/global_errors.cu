// Each kernel's first error, checked by --verify-diagnostics (globals.cu).
// (Host variables read in a kernel and __managed__ ones clang itself refuses.)
__constant__ float taps[4];
__constant__ int limit;
__device__ float *table_ptr;
__device__ float4 vec_table[2];

__global__ void writesConstant(float *x) {
  taps[threadIdx.x] = x[threadIdx.x]; // expected-error {{a kernel cannot write __constant__ memory (the host sets it, with cudaMemcpyToSymbol)}}
}

__global__ void atomicOnConstant(int *x) {
  atomicAdd(&limit, 1); // expected-error {{atomics cannot change __constant__ memory}}
}

__global__ void readsDevicePointer(float *x) {
  x[0] = table_ptr[0]; // expected-error@-12 {{file-scope device pointers (set with cudaMemcpyToSymbol) are outside the supported subset; pass the buffer as a kernel parameter}}
}

__global__ void readsVectorTable(float *x) {
  x[0] = vec_table[0].x; // expected-error@-15 {{file-scope device variables of vector or half types are not supported yet (use scalar elements)}}
}
