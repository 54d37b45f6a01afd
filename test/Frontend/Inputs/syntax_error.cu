__global__ void k(int *x) {
  x[0] = 1
}
