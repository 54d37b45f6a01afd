// One explicit step of the 3-D heat equation, 7-point stencil on an
// nz x ny x nx grid, interior points only: 3-D grid of 32x4x4 blocks.
__global__ void heat3d_7pt(const float *u, float *unew, float alpha, int nx, int ny, int nz) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x < 1 || y < 1 || z < 1 || x >= nx - 1 || y >= ny - 1 || z >= nz - 1)
    return;
  int plane = nx * ny;
  int c = z * plane + y * nx + x;
  float lap = u[c - 1] + u[c + 1] + u[c - nx] + u[c + nx] + u[c - plane] + u[c + plane] -
              6.0f * u[c];
  unew[c] = u[c] + alpha * lap;
}

void launch_heat3d_7pt(const float *u, float *unew, float alpha, int nx, int ny, int nz) {
  dim3 block(32, 4, 4);
  dim3 grid((nx + 31) / 32, (ny + 3) / 4, (nz + 3) / 4);
  heat3d_7pt<<<grid, block>>>(u, unew, alpha, nx, ny, nz);
}
