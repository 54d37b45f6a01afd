// Half-precision calls outside the subset are located errors, decided before
// their arguments are evaluated (a pair comparison returning bool used to
// crash the importer: its pairs were converted to bool first).
// RUN: ks-translate --import-cuda %s --no-pch --verify-diagnostics -o /dev/null
#include <cuda_fp16.h>

// cuda_fp16.h's lane-wise comparison into a pair of 1.0/0.0.
__global__ void pairMask(const __half2 *p, __half2 *q) {
  q[0] = __hlt2(p[0], p[1]); // expected-error {{call to '__hlt2' is outside the supported subset}}
}

__global__ void infinityTest(const __half *x, int *f) {
  f[0] = __hisinf(x[0]); // expected-error {{call to '__hisinf' is outside the supported subset}}
}

__global__ void fine(const __half2 *p, bool *f) { f[0] = __hbgt2(p[0], p[1]) && __hlt(p[0].x, p[1].y); }
