// Tree reductions, interleaved (tid % (2 * s)) and strided (2 * s * tid), for
// the sequential-addressing rewrite, with launchers; the kernels after
// tree_strided_sum must be refused.
#define BLOCK 256

__global__ void tree_sum(const float *in, float *out, int n) {
  __shared__ float sdata[BLOCK];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}
void launch_tree_sum(const float *in, float *out, int n) {
  tree_sum<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(in, out, n);
}

// Integer max, signed counter doubled by a shift, the operands swapped.
__global__ void tree_max(const int *in, int *out, int n) {
  __shared__ int best[128];
  int tid = threadIdx.x;
  int i = blockIdx.x * 128 + tid;
  best[tid] = i < n ? in[i] : -2147483647;
  __syncthreads();
  for (int s = 1; s < blockDim.x; s <<= 1) {
    if (tid % (2 * s) == 0)
      best[tid] = max(best[tid + s], best[tid]);
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = best[0];
}
void launch_tree_max(const int *in, int *out, int n) {
  tree_max<<<(n + 127) / 128, 128>>>(in, out, n);
}

// Strided (2 * s * tid: bank conflicts), the counter doubled by a multiply.
__global__ void tree_strided(const float *in, float *out, int n) {
  __shared__ float sdata[BLOCK];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    unsigned index = 2 * s * tid;
    if (index < blockDim.x)
      sdata[index] += sdata[index + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}
void launch_tree_strided(const float *in, float *out, int n) {
  tree_strided<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(in, out, n);
}
// Strided, int sum (nsw in the source), the factors in another order.
__global__ void tree_strided_sum(const int *in, int *out, int n) {
  __shared__ int part[64];
  int tid = threadIdx.x;
  int i = blockIdx.x * 64 + tid;
  part[tid] = i < n ? in[i] : 0;
  __syncthreads();
  for (int s = 1; s < blockDim.x; s <<= 1) {
    int index = tid * s * 2;
    if (index < blockDim.x)
      part[index] = part[index + s] + part[index];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = part[0];
}
void launch_tree_strided_sum(const int *in, int *out, int n) {
  tree_strided_sum<<<(n + 63) / 64, 64>>>(in, out, n);
}

// Refused: the block of 96 threads is no power of two.
__global__ void tree_odd_block(const float *in, float *out, int n) {
  __shared__ float sdata[128];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}
void launch_tree_odd_block(const float *in, float *out, int n) {
  tree_odd_block<<<n / 96, 96>>>(in, out, n);
}

// Refused: every thread reads its own partial sum after the loop.
__global__ void tree_partials(const float *in, float *out, int n) {
  __shared__ float sdata[BLOCK];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * BLOCK + tid];
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  out[blockIdx.x * BLOCK + tid] = sdata[tid];
}
void launch_tree_partials(const float *in, float *out, int n) {
  tree_partials<<<n / BLOCK, BLOCK>>>(in, out, n);
}

// Refused: dynamic shared memory, whose views of other types share its bytes
// (t[tid] read after the loop is s's partial sum).
__global__ void tree_dynamic(const float *in, float *out, int *aux, int n) {
  extern __shared__ float s[];
  extern __shared__ int t[];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned k = 1; k < blockDim.x; k *= 2) {
    if (tid % (2 * k) == 0)
      s[tid] += s[tid + k];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
  aux[blockIdx.x * blockDim.x + tid] = t[tid];
}
void launch_tree_dynamic(const float *in, float *out, int *aux, int n) {
  tree_dynamic<<<n / 256, 256, 256 * sizeof(float)>>>(in, out, aux, n);
}

// Refused: a[tid] combined from a value read before the loop, not a tree.
__global__ void tree_stale(const float *in, float *out, int n) {
  __shared__ float sdata[BLOCK];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * BLOCK + tid];
  __syncthreads();
  float mine = sdata[tid];
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0)
      sdata[tid] = mine + sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}
void launch_tree_stale(const float *in, float *out, int n) {
  tree_stale<<<n / BLOCK, BLOCK>>>(in, out, n);
}

// Refused: s * tid, not 2 * s * tid (another computation: the rewrite
// would change what element 0 holds).
__global__ void tree_strided_short(const float *in, float *out, int n) {
  __shared__ float sdata[BLOCK];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * BLOCK + tid];
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    unsigned index = s * tid;
    if (index < blockDim.x)
      sdata[index] += sdata[index + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}
void launch_tree_strided_short(const float *in, float *out, int n) {
  tree_strided_short<<<n / BLOCK, BLOCK>>>(in, out, n);
}
