// __constant__ and __device__ variables: memref.global ops of the kernels'
// module (ImportGlobals.cpp), and the located errors around them.
// RUN: ks-translate --import-cuda %s --no-locations | FileCheck %s
// RUN: ks-translate --import-cuda %S/Inputs/global_errors.cu --no-pch --verify-diagnostics -o /dev/null

// Scalars are arrays of one (ks.scalar), in the order kernels first use them.
// CHECK: memref.global "public" @count : memref<1xi64, #gpu.address_space<global>> = dense<7> {ks.initialized, ks.scalar}
// CHECK: memref.global "public" constant @weights : memref<2x3xf64, 4> = dense<{{\[\[}}1.000000e+00, 2.000000e+00, 0.000000e+00], [4.000000e+00, 0.000000e+00, 0.000000e+00]]>
// CHECK: memref.global "public" @flags : memref<3xi1, 4> = dense<[true, false, false]>
// CHECK-LABEL: gpu.func @reads
// CHECK-DAG: memref.get_global @count
// CHECK-DAG: memref.get_global @weights
// CHECK: memref.store {{.*}} : memref<1xi64, #gpu.address_space<global>>
// CHECK-LABEL: gpu.func @again
// One global, declared once, read by two kernels.
// CHECK: memref.get_global @count
__device__ long long count = 7;
__constant__ const double weights[2][3] = {{1, 2}, {4}};
__constant__ bool flags[3] = {true};

__global__ void reads(double *out, int i) {
  count += 1;
  out[0] = weights[i % 2][i % 3] + (flags[i % 3] ? 1.0 : 0.0);
}

__global__ void again(long long *out) { out[0] = count; }
