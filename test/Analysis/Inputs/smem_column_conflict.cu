// Tiled transpose through a 32x32 shared tile WITHOUT padding: column reads of the tile conflict.
//
// GROUND TRUTH (launch_smem_column_conflict: block 32x32 = 1024 threads = 32 warps; warp w is
// threadIdx.y == w, threadIdx.x = 0..31; static shared memory 32*32*4 = 4096 bytes):
// line 29: load in[y * cols + x]: coalesced, 4 sectors/request (ideal 4) when cols % 8 == 0.
// line 29: shared store tile[threadIdx.y][threadIdx.x]: no bank conflict (word offset
//   32*ty + tx, bank = tx: 32 distinct banks; 1 wavefront).
// line 34: shared load tile[threadIdx.x][threadIdx.y]: 32-way bank conflict (word
//   offset 32*tx + ty, bank = ty for every lane, 32 distinct addresses; 32 wavefronts).
// line 34: store out[y * rows + x]: coalesced, 4 sectors/request (ideal 4) when
//   rows % 8 == 0 (x = by*32 + threadIdx.x after the swap of block indices).
// line 28: branch (x < cols && y < rows): diverges only in the last block column when
//   cols % 32 != 0 (y is warp-uniform).
// line 33: branch (x < rows && y < cols): diverges only in the last block row when
//   rows % 32 != 0 (x now comes from blockIdx.y).
// Pitfalls: both shared accesses use the same array and both indices are threadIdx
//   components; only the position of threadIdx.x (the lane-varying index) in the subscript
//   decides. The lane stride of the load is the row length 32 (= number of banks), hence 32-way.
//   The fix is padding (smem_column_padded.cu), not a different global access.
// Measured on the H200 (nvcc 13.0 -O3 -arch=sm_90, Nsight Compute):
//   rows = cols = 1024: shared load 32.0 wavefronts/instruction, shared store 1.0;
//   global load 4.0 and store 4.0 sectors/request; 4096 bytes static shared memory.
#define TILE 32
__global__ void smem_column_conflict(const float *in, float *out, int rows, int cols) {
  __shared__ float tile[TILE][TILE];
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

void launch_smem_column_conflict(const float *in, float *out, int rows, int cols) {
  dim3 block(TILE, TILE);
  dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
  smem_column_conflict<<<grid, block>>>(in, out, rows, cols);
}
