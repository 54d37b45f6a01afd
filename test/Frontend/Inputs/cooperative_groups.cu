#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(float *x) {
  cg::grid_group grid = cg::this_grid();
  x[threadIdx.x] = 1.f;
  grid.sync();
}
