// RUN: ks-translate --import-cuda %s --no-locations | FileCheck %s
// A device buffer the host function allocates itself becomes a launcher
// parameter (the slice does not allocate) marked ks.allocated: cudaMalloc
// gave it memory no other buffer shares. When it is only allocated, handed to
// kernels and freed, no host code reads it: ks.scratch too (ks-fuse-launches
// may stop writing it). A copy back to the host, a memset or an initializer
// other than a null pointer keeps ks.scratch off; a parameter (x) is neither.
// CHECK-LABEL: func.func @pipeline
// CHECK-SAME: %arg0: memref<?xf32> {ks.const, ks.name = "x"}
// CHECK-SAME: {ks.allocated, ks.name = "t", ks.scratch}
// CHECK-SAME: {ks.allocated, ks.name = "u"}
// CHECK-SAME: {ks.allocated, ks.name = "v"}
// CHECK-SAME: {ks.allocated, ks.name = "w", ks.scratch}
// CHECK-NOT: ks.scratch
// CHECK-NOT: ks.allocated
// CHECK: return
__global__ void step(const float *a, float *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    b[i] = a[i] + 1.f;
}

void pipeline(const float *x, float *host, int n) {
  float *t = nullptr, *u, *v, *w;
  cudaMalloc(&t, n * sizeof(float));
  cudaMalloc((void **)&u, n * sizeof(float));
  cudaMalloc(&v, n * sizeof(float));
  cudaMalloc(&w, n * sizeof(float));
  cudaMemset(v, 0, n * sizeof(float));
  step<<<(n + 255) / 256, 256>>>(x, t, n);
  step<<<(n + 255) / 256, 256>>>(t, u, n);
  step<<<(n + 255) / 256, 256>>>(u, v, n);
  step<<<(n + 255) / 256, 256>>>(v, w, n);
  cudaMemcpy(host, u, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(t);
  cudaFree(u);
  cudaFree(v);
  cudaFree(w);
}
