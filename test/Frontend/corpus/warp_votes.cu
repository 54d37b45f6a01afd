// RUN: ks-translate --import-cuda %s --no-locations | FileCheck %s
// RUN: ks-translate --import-cuda %s -o %t.mlir
// RUN: ks-opt %t.mlir --kernelskill-lower="ptx=%t.ptx" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %if ptxas %{ %ptxas --gpu-name=sm_90 %t.ptx -o %t.cubin %}
// RUN: ks-translate --export-cuda %t.mlir -o %t.out.cu
// RUN: FileCheck %s --check-prefix=CUDA < %t.out.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -c %t.out.cu -o %t.o %}
// Warp votes: a warp-aggregated count (one atomic per warp, of the
// ballot's population), the warp's any/all flags, and bit positions.
// CHECK-LABEL: gpu.func @warp_count
// CHECK: nvvm.vote.sync  ballot %{{.*}}, %{{.*}} -> i32
// CHECK: nvvm.vote.sync  any %{{.*}}, %{{.*}} -> i1
// CHECK: nvvm.vote.sync  all %{{.*}}, %{{.*}} -> i1
// CHECK: math.ctpop
// CHECK: math.ctlz
// CHECK: math.cttz
// PTX-DAG: vote.sync.ballot.b32
// PTX-DAG: vote.sync.any.pred
// PTX-DAG: vote.sync.all.pred
// PTX-DAG: popc.b32
// Comments carry the source's lines: the kernel's, each if's and loop's.
// CUDA: // warp_votes.cu:[[#@LINE+9]]
// CUDA-NEXT: __global__ void warp_count(
// CUDA: const int ballot = __ballot_sync(0xffffffffu, [[V:.*]] > 0);
// CUDA: __any_sync(0xffffffffu, [[V]] == 3)
// CUDA: __all_sync(0xffffffffu, [[V]] >= -7)
// CUDA: if ({{.*}} % 32u == 0) {  // warp_votes.cu:[[#@LINE+10]]
// CUDA-NEXT: if (ballot != 0) {  // warp_votes.cu:[[#@LINE+10]]
// CUDA: atomicAdd(&count[0], __popc(ballot))
// CUDA: __clz([[V]]) * 64 + ([[V]] == 0 ? 0 : __clz(__brev([[V]])) + 1)
__global__ void warp_count(const int *x, int *count, unsigned *masks, int *flags, int *bits, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? x[i] : 0;
  unsigned ballot = __ballot_sync(0xffffffffu, v > 0);
  int any = __any_sync(0xffffffffu, v == 3);
  int all = __all_sync(0xffffffffu, v >= -7);
  if (i < n && threadIdx.x % 32 == 0) {
    if (ballot)
      atomicAdd(count, __popc(ballot));
    masks[i / 32] = ballot;
    flags[i / 32] = any + 2 * all;
  }
  if (i < n)
    bits[i] = __clz(v) * 64 + __ffs(v);
}
