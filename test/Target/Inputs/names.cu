__global__ void names(const float *x, float *y, int n) {
  float acc = 0.f, acc1 = 1.f;
  for (int i = 0; i < n; ++i) { float t = acc; acc = acc1 + x[i]; acc1 = t * x[i]; }
  y[0] = acc + acc1;
}
