// Tiled transpose through a 32x33 (padded) shared tile: no bank conflicts.
//
// GROUND TRUTH (launch_smem_column_padded: block 32x32 = 1024 threads = 32 warps; warp w is
// threadIdx.y == w, threadIdx.x = 0..31; static shared memory 32*33*4 = 4224 bytes):
// line 28: load in[y * cols + x]: coalesced, 4 sectors/request (ideal 4) when cols % 8 == 0.
// line 28: shared store tile[threadIdx.y][threadIdx.x]: no bank conflict (word offset
//   33*ty + tx, bank = (ty + tx) % 32: 32 distinct banks).
// line 33: shared load tile[threadIdx.x][threadIdx.y]: no bank conflict (word
//   offset 33*tx + ty, bank = (tx + ty) % 32: 32 distinct banks).
// line 33: store out[y * rows + x]: coalesced, 4 sectors/request (ideal 4) when
//   rows % 8 == 0.
// line 27: branch (x < cols && y < rows): diverges only in the last block column when
//   cols % 32 != 0.
// line 32: branch (x < rows && y < cols): diverges only in the last block row when
//   rows % 32 != 0.
// Pitfalls: the bank of an element of a 2-D shared array follows from the row pitch of the
//   declared type (33 words here), not from the subscript alone; an analysis that assumes a
//   pitch of TILE, or that flags any tile[threadIdx.x][...] as a column access, is wrong here.
// Measured on the H200 (nvcc 13.0 -O3 -arch=sm_90, Nsight Compute):
//   rows = cols = 1024: shared load 1.0 wavefronts/instruction (0.6% noise), shared store 1.0;
//   global load 4.0 and store 4.0 sectors/request; 4224 bytes static shared memory.
#define TILE 32
__global__ void smem_column_padded(const float *in, float *out, int rows, int cols) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  if (x < cols && y < rows)
    tile[threadIdx.y][threadIdx.x] = in[y * cols + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  if (x < rows && y < cols)
    out[y * rows + x] = tile[threadIdx.x][threadIdx.y];
}

void launch_smem_column_padded(const float *in, float *out, int rows, int cols) {
  dim3 block(TILE, TILE);
  dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
  smem_column_padded<<<grid, block>>>(in, out, rows, cols);
}
