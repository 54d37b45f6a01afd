// Matrix transpose out = src^T (src is rows x cols) through a 32x32 shared tile without padding:
// the tile is read column-wise on the way out (32-way bank conflicts). 32x8 blocks, 4 rows per thread.
#define TILE_DIM 32
#define BLOCK_ROWS 8

__global__ void transpose_smem(const float *src, float *out, int rows, int cols) {
  __shared__ float tile[TILE_DIM][TILE_DIM];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < cols && y + j < rows)
      tile[threadIdx.y + j][threadIdx.x] = src[(y + j) * cols + x];
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;  // transposed block offset
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < rows && y + j < cols)
      out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

void launch_transpose_smem(const float *src, float *out, int rows, int cols) {
  dim3 block(TILE_DIM, BLOCK_ROWS);
  dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM);
  transpose_smem<<<grid, block>>>(src, out, rows, cols);
}
