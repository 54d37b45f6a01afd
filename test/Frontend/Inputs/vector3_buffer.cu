__global__ void k(const float3 *p, float *out) { out[threadIdx.x] = p[threadIdx.x].y; }
