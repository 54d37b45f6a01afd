// Embedding lookup out[t][d] = table[tok[t]][d]: a template on the element
// type, 2-D grid (x over the embedding dim, y over tokens), 64x4 blocks.
// V (the vocabulary size) is passed along but not checked.
template <typename scalar_t>
__global__ void embedding_lookup(const scalar_t *table, const int *tok, scalar_t *out, int ntok,
                                 int D, int V) {
  int d = blockIdx.x * blockDim.x + threadIdx.x;
  int t = blockIdx.y * blockDim.y + threadIdx.y;
  if (t < ntok && d < D) {
    int row = tok[t];
    out[t * D + d] = table[row * D + d];
  }
}

void launch_embedding_lookup(const float *table, const int *tok, float *out, int ntok,
                             int D, int V) {
  dim3 block(64, 4);
  dim3 grid((D + 63) / 64, (ntok + 3) / 4);
  embedding_lookup<float><<<grid, block>>>(table, tok, out, ntok, D, V);
}
