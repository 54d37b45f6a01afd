#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(float *x) {
  cg::thread_block block = cg::this_thread_block();
  x[threadIdx.x] = 1.f;
  block.sync();
}
