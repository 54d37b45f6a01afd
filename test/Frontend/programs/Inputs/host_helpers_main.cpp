// The main ks-launch-trace runs host_helpers.cu with (launch-trace.test),
// and the pickSize it declares: each helper's branch is taken once (the
// clamp's upper bound, its lower bound, neither).
int pickSize(int n) { return n / 3 + 1; }

int main() {
  float *x;
  cudaMalloc(&x, (1 << 22) * sizeof(float));
  launchAll(x, 1000);
  launchAll(x, 1 << 21);
  launchAll(x, 0);
  resized(x, 1000);
  twoDecls(x, 1001);
  return 0;
}
