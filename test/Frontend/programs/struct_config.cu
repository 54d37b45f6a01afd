// Sizes in a host struct filled from the command line and a wrapper that
// takes the struct by const reference: the members its launches read become
// named launcher parameters (the struct's name and the member's), each with
// a remark; the wrapper launches a kernel template instance twice.
// RUN: ks-translate --import-cuda %s --no-pch --no-locations -o %t.mlir 2> %t.remarks
// RUN: FileCheck %s < %t.mlir
// RUN: FileCheck %s --check-prefix=REMARK --implicit-check-not=remark: < %t.remarks
#include <cstdlib>
#include <cuda_runtime.h>

struct Config {
  int n;
  float alpha;
  int threads;
};

template <typename T>
__global__ void axpby(const T *x, T *y, T alpha, T beta, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = alpha * x[i] + beta * y[i];
}

void run(const Config &cfg, const float *x, float *y) {
  int blocks = (cfg.n + cfg.threads - 1) / cfg.threads;
  axpby<float><<<blocks, cfg.threads>>>(x, y, cfg.alpha, 1.0f, cfg.n);
  axpby<float><<<blocks, cfg.threads>>>(x, y, -cfg.alpha, 0.5f, cfg.n);
}

int main(int argc, char **argv) {
  Config cfg{argc > 1 ? atoi(argv[1]) : 1 << 20, 2.0f, 256};
  float *x, *y;
  cudaMalloc(&x, cfg.n * sizeof(float));
  cudaMalloc(&y, cfg.n * sizeof(float));
  run(cfg, x, y);
  cudaDeviceSynchronize();
  return 0;
}

// CHECK-LABEL: gpu.func @axpby_float
// CHECK-LABEL: func.func @run(
// CHECK-SAME: {ks.const, ks.name = "x"}, %{{.*}}: memref<?xf32> {ks.name = "y"}, %[[N:[^:]*]]: i32 {ks.host_value, ks.name = "cfg_n"}, %[[T:[^:]*]]: i32 {ks.host_value, ks.name = "cfg_threads"}, %[[A:[^:]*]]: f32 {ks.host_value, ks.name = "cfg_alpha"})
// CHECK: gpu.launch_func  @kernels::@axpby_float {{.*}} args(%{{.*}}, %{{.*}}, %[[A]] : f32, %{{.*}} : f32, %[[N]] : i32)
// CHECK: %[[NEG:.*]] = arith.negf %[[A]]
// CHECK: gpu.launch_func  @kernels::@axpby_float {{.*}} args(%{{.*}}, %{{.*}}, %[[NEG]] : f32, %{{.*}} : f32, %[[N]] : i32)
// REMARK-DAG: struct_config.cu:29:5: remark: host function 'main' launches no kernel: skipped
// REMARK-DAG: struct_config.cu:24:21: remark: 'cfg.n' is computed by host code outside the launch slice of 'run': the launcher takes it as parameter 'cfg_n'
// REMARK-DAG: struct_config.cu:24:29: remark: 'cfg.threads' is computed by host code outside the launch slice of 'run': the launcher takes it as parameter 'cfg_threads'
// REMARK-DAG: struct_config.cu:25:51: remark: 'cfg.alpha' is computed by host code outside the launch slice of 'run': the launcher takes it as parameter 'cfg_alpha'
