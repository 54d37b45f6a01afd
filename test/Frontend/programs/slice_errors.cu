// What the launch slice cannot follow is a located error, not a guess and
// not an internal error.
// RUN: ks-translate --import-cuda %s --no-pch --verify-diagnostics -o /dev/null
#include <cuda_runtime.h>
#include <utility>

__global__ void step(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 0.5f * in[i];
}

__global__ void wide(const float4 *in, float4 *out, int n4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4)
    out[i] = in[i];
}

// Ping-pong buffers: which one each launch reads depends on the iteration.
void pingPong(int n, int steps) {
  float *a, *b;
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&b, n * sizeof(float));
  for (int s = 0; s < steps; ++s) {
    step<<<(n + 255) / 256, 256>>>(a, b, n); // expected-error {{'a' is reassigned by host code (at line 26), so which buffer each launch gets depends on the run: lifting launches of swapped buffers is not supported yet}}
    std::swap(a, b);
  }
}

// One buffer read as floats and as float4s.
void twoTypes(int n) {
  float *x, *y;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  step<<<(n + 255) / 256, 256>>>(x, y, n);
  wide<<<(n / 4 + 255) / 256, 256>>>((const float4 *)x, (float4 *)y, n / 4); // expected-error {{'x' reaches kernels as two element types (memref<?xf32> and memref<?xvector<4xf32>>), which one launcher parameter cannot be}}
}

// A launcher parameter cast at one launch after another used it as it is
// (a cast alone is supported: test/Frontend/dropin-signatures.test).
void castParam(float *x, float *y, int n) {
  step<<<(n + 255) / 256, 256>>>(x, y, n);
  wide<<<(n / 4 + 255) / 256, 256>>>((const float4 *)x, (float4 *)y, n / 4); // expected-error {{the launch passes a parameter of type memref<?xf32> to a kernel parameter of type memref<?xvector<4xf32>>}}
}

dim3 gridFor(int n);

// A dim3 set by a call.
void opaqueGrid(float *x, float *y, int n) {
  dim3 grid;
  grid = gridFor(n);
  step<<<grid, 256>>>(x, y, n); // expected-error {{the dim3 'grid' is set by host code the launch slice cannot compute (at line 51): compute its components in scalar variables}}
}

int deviceCount();

// A loop bound only a call knows.
void callBound(float *x, float *y, int n) {
  for (int d = 0; d < deviceCount(); ++d) // expected-error {{the launches here depend on a condition or loop bound the launch slice cannot compute (calls or host memory): compute it into a variable first}}
    step<<<(n + 255) / 256, 256>>>(x, y, n);
}

// Chunks of one buffer per stream.
void chunks(int n, int parts) {
  float *x, *y;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  int chunk = n / parts;
  for (int p = 0; p < parts; ++p)
    step<<<(chunk + 255) / 256, 256>>>(x + p * chunk, y, chunk); // expected-error {{'x' is a buffer of host code: pass it to kernels whole (offsets into it, as in x + k, are not supported yet)}}
}

// Members of a struct parameter are launcher parameters, unless the
// function changes the struct: then no one parameter is its value at every
// launch.
struct Sizes {
  int n;
};
void changedStruct(Sizes s, float *x, float *y) {
  s.n /= 2; // expected-error {{'s' is changed by host code in 'changedStruct' (at line 80): the launch slice reads members of unchanged struct parameters only}}
  step<<<(s.n + 255) / 256, 256>>>(x, y, s.n);
}
