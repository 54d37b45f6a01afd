__global__ void k(int *x) {
  asm volatile("membar.gl;");
  x[0] = 1;
}
