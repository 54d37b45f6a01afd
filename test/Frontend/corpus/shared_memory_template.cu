// RUN: ks-translate --import-cuda %s --no-locations | FileCheck %s
// RUN: ks-translate --import-cuda %s -o %t.mlir
// RUN: ks-opt %t.mlir --kernelskill-lower="ptx=%t.ptx" -o /dev/null
// RUN: %if ptxas %{ %ptxas --gpu-name=sm_90 %t.ptx -o %t.cubin %}
// RUN: ks-translate --export-cuda %t.mlir -o %t.out.cu
// RUN: FileCheck %s --check-prefix=CUDA < %t.out.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -c %t.out.cu -o %t.o %}
// The CUDA samples' reduction with SharedMemory<T>: one extern __shared__
// int array that each instantiation views as its own T, through a
// conversion operator; here for float (a temporary) and double (a
// variable of the struct).
// CHECK-LABEL: gpu.func @block_sum_float
// CHECK: %[[SMEM:.*]] = gpu.dynamic_shared_memory
// CHECK: memref.view %[[SMEM]][%{{.*}}][] : {{.*}} to memref<{{[0-9]+}}xf32, #gpu.address_space<workgroup>>
// CHECK-LABEL: gpu.func @block_sum_double
// CHECK: memref.view {{.*}} to memref<{{[0-9]+}}xf64, #gpu.address_space<workgroup>>
// CHECK-LABEL: func.func @run_block_sums
// CHECK: gpu.launch_func  @kernels::@block_sum_float {{.*}} dynamic_shared_memory_size
// CUDA: extern __shared__ float dynamic_shared[];
// CUDA: extern __shared__ double dynamic_shared_double[];
template <class T> struct SharedMemory {
  __device__ inline operator T *() {
    extern __shared__ int __smem[];
    return (T *)__smem;
  }
  __device__ inline operator const T *() const {
    extern __shared__ int __smem[];
    return (T *)__smem;
  }
};

template <class T> __global__ void block_sum(const T *in, T *out, unsigned n) {
  T *sdata = SharedMemory<T>();
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = i < n ? in[i] : 0;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

template <> __global__ void block_sum<double>(const double *in, double *out, unsigned n) {
  SharedMemory<double> smem;
  double *sdata = smem;
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x * 2 + threadIdx.x;
  double v = i < n ? in[i] : 0;
  if (i + blockDim.x < n)
    v += in[i + blockDim.x];
  sdata[tid] = v;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] = v = v + sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = v;
}

void run_block_sums(const float *x, float *sums, const double *xd, double *sumsd, unsigned n) {
  block_sum<float><<<(n + 255) / 256, 256, 256 * sizeof(float)>>>(x, sums, n);
  block_sum<double><<<(n + 511) / 512, 256, 256 * sizeof(double)>>>(xd, sumsd, n);
}
