// A 3x3 convolution with nine scalar coefficients, guarded the other way
// round: (i < ni-1) && (j < nj-1) && (i > 0) && (j > 0).
__global__ void conv3(int ni, int nj, const float* A, float* B) {
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  float c11 = 0.2f, c21 = 0.5f, c31 = -0.8f;
  float c12 = -0.3f, c22 = 0.6f, c32 = -0.9f;
  float c13 = 0.4f, c23 = 0.7f, c33 = 0.1f;
  if ((i < ni - 1) && (j < nj - 1) && (i > 0) && (j > 0))
    B[i * nj + j] = c11 * A[(i - 1) * nj + (j - 1)] + c12 * A[i * nj + (j - 1)] + c13 * A[(i + 1) * nj + (j - 1)]
                  + c21 * A[(i - 1) * nj + j] + c22 * A[i * nj + j] + c23 * A[(i + 1) * nj + j]
                  + c31 * A[(i - 1) * nj + (j + 1)] + c32 * A[i * nj + (j + 1)] + c33 * A[(i + 1) * nj + (j + 1)];
}

