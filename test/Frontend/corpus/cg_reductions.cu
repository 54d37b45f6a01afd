// REQUIRES: cuda-toolkit
// RUN: ks-translate --import-cuda %s --no-locations | FileCheck %s
// RUN: ks-translate --import-cuda %s -o %t.mlir
// RUN: ks-opt %t.mlir --kernelskill-lower="ptx=%t.ptx" -o /dev/null
// RUN: %if ptxas %{ %ptxas --gpu-name=sm_90 %t.ptx -o %t.cubin %}
// RUN: ks-translate --export-cuda %t.mlir -o %t.out.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -c %t.out.cu -o %t.o %}
// Cooperative groups, as toolkit samples write reductions today: a group
// variable emits nothing; thread_rank, size and meta_group_rank are thread
// index arithmetic; a tile's shuffles are gpu.shuffle with the tile's width;
// cg::reduce is a butterfly of xor shuffles; block.sync() a barrier and a
// tile's sync a warp barrier over the tile's lanes.
// CHECK-LABEL: gpu.func @tile_row_sum
// CHECK-COUNT-5: gpu.shuffle  xor {{.*}}, %c32_i32 : f32
// CHECK-NOT: gpu.shuffle
// CHECK-LABEL: gpu.func @tile_max
// CHECK-SAME: {ks.name = "tile_max_of"}
// CHECK: gpu.shuffle  down {{.*}}, %c16_i32 : i32
// CHECK: nvvm.bar.warp.sync
// CHECK: gpu.barrier
// A tile's votes: over the tile's lanes; its ballot shifted to the tile's
// own bits.
// CHECK-LABEL: gpu.func @tile_votes
// CHECK: nvvm.vote.sync  ballot
// CHECK: arith.shrui
// CHECK: nvvm.vote.sync  any
// CHECK: nvvm.vote.sync  all
#include <climits>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

// Row sums, one 32-thread tile per row.
__global__ void tile_row_sum(const float *x, float *sums, int rows, int cols) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  int row = blockIdx.x * tile.meta_group_size() + tile.meta_group_rank();
  if (row >= rows)
    return;
  float s = 0.0f;
  for (int c = tile.thread_rank(); c < cols; c += tile.size())
    s += x[row * cols + c];
  s = cg::reduce(tile, s, cg::plus<float>());
  if (tile.thread_rank() == 0)
    sums[row] = s;
}

// Block maxima through tiles of 16: shfl_down within each tile, the tiles'
// results staged in shared memory, the first thread combining them.
__global__ void tile_max(const int *x, int *out, int n) {
  __shared__ int tile_max_of[64];
  cg::thread_block block = cg::this_thread_block();
  auto tile = cg::tiled_partition<16>(block);
  int i = blockIdx.x * block.size() + block.thread_rank();
  int v = i < n ? x[i] : INT_MIN;
  for (int o = tile.size() / 2; o > 0; o /= 2)
    v = max(v, tile.shfl_down(v, o));
  tile.sync();
  if (tile.thread_rank() == 0)
    tile_max_of[tile.meta_group_rank()] = v;
  block.sync();
  if (block.thread_rank() == 0) {
    int m = tile_max_of[0];
    for (int t = 1; t < tile.meta_group_size(); ++t)
      m = max(m, tile_max_of[t]);
    out[blockIdx.x] = m;
  }
}

// Per tile of 8: which threads' values are odd (the tile's ballot, bit i for
// its thread i), whether any is 15 and whether all are below 15.
__global__ void tile_votes(const int *x, unsigned *odd, int *flags, int n) {
  auto tile = cg::tiled_partition<8>(cg::this_thread_block());
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? x[i] : 0;
  unsigned mask = tile.ballot(v & 1);
  bool any = tile.any(v == 15);
  bool all = tile.all(v < 15);
  if (i < n) {
    odd[i] = mask;
    flags[i] = any + 2 * all;
  }
}
