__global__ void child(int *x) { x[0] = 1; }
__global__ void parent(int *x) { child<<<1, 1>>>(x); }
