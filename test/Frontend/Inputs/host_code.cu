#include <cstdio>
__global__ void k(int *x) { x[0] = 1; }
void launch(int *x) {
  k<<<1, 1>>>(x);
  printf("launched\n");
}
