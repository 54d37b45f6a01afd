__device__ int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
__global__ void k(int *x) { x[0] = fact(x[1]); }
