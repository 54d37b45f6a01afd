// Early exit from a loop with break, continue, while and do.
__global__ void first_negative(const int *x, int *pos, int n, int m) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= n) return;
  int found = -1;
  for (int j = 0; j < m; j++) {
    if (x[row * m + j] == 0) continue;
    if (x[row * m + j] < 0) { found = j; break; }
  }
  int k = 0;
  while (k < 3 && found > 0) { found -= 1; ++k; }
  do { k--; } while (k > 0);
  pos[row] = found > 0 ? found : -found;
}
