// The main ks-launch-trace runs library.cu with (launch-trace.test): the
// library's caller, and its wrappers called directly, at sizes no multiple
// of the block.
int main() {
  float *x, *partial;
  cudaMalloc(&x, 1000 * sizeof(float));
  cudaMalloc(&partial, 8 * sizeof(float));
  normalize(x, partial, 1000);
  vecops::scale(x, 3.0f, 777);
  vecops::sum<128>(x, partial, 129);
  return 0;
}
