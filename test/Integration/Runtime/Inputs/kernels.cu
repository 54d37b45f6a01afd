// Test kernels for ks-bench's GPU tests: a correct kernel and planted failures.
// Compiled to PTX with nvcc by test_ks_bench.py.

// y[i] = a * x[i] + y0[i]: the reference.
extern "C" __global__ void saxpy(const float *x, const float *y0, float *y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y0[i];
}

// The same computation written differently (a grid-stride loop): passes.
extern "C" __global__ void saxpy_stride(const float *x, const float *y0, float *y, float a, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = fmaf(a, x[i], y0[i]);
}

// Wrong: uses the wrong input for one term.
extern "C" __global__ void saxpy_wrong(const float *x, const float *y0, float *y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + x[i];
}

// Leaves the last element unwritten.
extern "C" __global__ void saxpy_unwritten(const float *x, const float *y0, float *y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n - 1)
    y[i] = a * x[i] + y0[i];
}

// Correct only when the inputs are zeros.
extern "C" __global__ void saxpy_zeros(const float *x, const float *y0, float *y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = 0.0f;
}

// Faults: writes far out of bounds.
extern "C" __global__ void saxpy_fault(const float *x, const float *y0, float *y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i + (1 << 30)] = a * x[i] + y0[i];
}

// Never finishes: the volatile reads are side effects the compiler must keep,
// and random inputs are never NaN.
extern "C" __global__ void saxpy_hang(const float *x, const float *y0, float *y, float a, int n) {
  volatile const float *p = x;
  while (p[0] == p[0])
    ;
}

// Correct for its first three launches, then adds 1: ks-bench verifies
// before the timed runs and must catch it after them.
__device__ unsigned drift_launches;
extern "C" __global__ void saxpy_drift(const float *x, const float *y0, float *y, float a, int n) {
  unsigned seen = *(volatile unsigned *)&drift_launches;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y0[i] + (seen >= 3 ? 1.0f : 0.0f);
  if (blockIdx.x == 0 && threadIdx.x == 0)
    atomicAdd(&drift_launches, 1u);
}

// Correct throughout, but from its fourth launch on its bytes differ from the
// first launches' (scaled by 1 + 2^-20, within the f32 tolerance): the check
// after the timed runs must compare it with the reference again, not fail it
// for differing from its own first outputs.
__device__ unsigned jitter_launches;
extern "C" __global__ void saxpy_jitter(const float *x, const float *y0, float *y, float a, int n) {
  unsigned seen = *(volatile unsigned *)&jitter_launches;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = (a * x[i] + y0[i]) * (seen >= 3 ? 1.0f + 0x1p-20f : 1.0f);
  if (blockIdx.x == 0 && threadIdx.x == 0)
    atomicAdd(&jitter_launches, 1u);
}
