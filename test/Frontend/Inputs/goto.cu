__global__ void k(int *x) {
  int i = 0;
again:
  if (++i < 4) goto again;
  x[0] = i;
}
