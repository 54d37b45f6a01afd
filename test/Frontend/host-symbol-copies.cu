// Host code that sets or reads module variables (cudaMemcpyToSymbol,
// cudaMemcpyFromSymbol) is outside the launch slice: the launcher does not
// run it. The importer says so where it is, also inside an error-checking
// macro, and names the calls on the launcher (ks.host_symbol_copies) for the
// exporter (test/Target/export-cuda-host-copies.mlir).
// RUN: ks-translate --import-cuda %s --no-pch --verify-diagnostics -o /dev/null
// RUN: ks-translate --import-cuda %s --no-pch --no-locations 2>/dev/null | FileCheck %s
// CHECK-LABEL: func.func @run(
// CHECK-SAME: ks.host_symbol_copies = ["cudaMemcpyToSymbol(taps, h_taps, sizeof(taps))", "cudaMemcpyFromSymbol(h_hits, hits, sizeof(int))"]
// CHECK-LABEL: func.func @plain(
// CHECK-NOT: ks.host_symbol_copies
// A call over several lines is kept on one.
// CHECK-LABEL: func.func @multi(
// CHECK-SAME: ks.host_symbol_copies = ["cudaMemcpyToSymbol(taps, h_taps, sizeof(taps))"]
#define CHECK_CUDA(call) do { cudaError_t e = (call); (void)e; } while (0)

__constant__ float taps[3];
__device__ int hits;

__global__ void k(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = taps[i % 3];
    atomicAdd(&hits, 1);
  }
}

void run(const float *h_taps, float *out, int n, int *h_hits) {
  // expected-warning @+1 {{'cudaMemcpyToSymbol(taps, h_taps, sizeof(taps))' is host code outside the launch slice: the launcher @run does not run it; call it before the launcher, as the source does}}
  cudaMemcpyToSymbol(taps, h_taps, sizeof(taps));
  k<<<(n + 255) / 256, 256>>>(out, n);
  // expected-warning @+1 {{'cudaMemcpyFromSymbol(h_hits, hits, sizeof(int))' is host code outside the launch slice: the launcher @run does not run it; call it after the launcher, as the source does}}
  CHECK_CUDA(cudaMemcpyFromSymbol(h_hits, hits, sizeof(int)));
}

void plain(float *out, int n) { k<<<(n + 255) / 256, 256>>>(out, n); }

void multi(const float *h_taps, float *out, int n) {
  // expected-warning @+1 {{'cudaMemcpyToSymbol(taps, h_taps, sizeof(taps))' is host code}}
  CHECK_CUDA(cudaMemcpyToSymbol(taps, h_taps,
                                sizeof(taps)));
  k<<<(n + 255) / 256, 256>>>(out, n);
}
