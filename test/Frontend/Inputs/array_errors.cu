// Each kernel's first error, checked by --verify-diagnostics (arrays.cu).
__global__ void zero(float *x) {
  float none[0]; // expected-error {{zero-length arrays are not allowed (nvcc rejects them)}}
  x[0] = 1.0f;
}

__global__ void tooMuchShared(float *x) {
  __shared__ float a[8192];
  __shared__ float b[4096];
  __shared__ float c[1]; // expected-error {{this kernel's static __shared__ memory reaches 49156 bytes, over the 49152 a block may declare statically}}
  a[threadIdx.x] = b[threadIdx.x] = c[0] = x[threadIdx.x];
}
