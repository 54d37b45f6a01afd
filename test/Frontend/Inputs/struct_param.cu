struct Pair { float a, b; };
__global__ void k(Pair p, float *y) { y[0] = p.a; }
