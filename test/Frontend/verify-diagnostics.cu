// The importer's errors are MLIR diagnostics at source locations: checked
// here with -verify-diagnostics against the comments below. Every kernel is
// imported even after one fails, so each reports its first error.
// RUN: ks-translate --import-cuda %s --no-pch --verify-diagnostics -o /dev/null

__global__ void jumps(float *x) {
  goto end; // expected-error {{'goto' is outside the supported subset}}
end:
  x[0] = 1.0f;
}

__global__ void assembly(int *x) {
  asm volatile("trap;"); // expected-error {{inline 'asm' is outside the supported subset}}
}

__device__ int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); } // expected-error {{recursion ('fact') is outside the supported subset}}

__global__ void recursive(int *x) { x[0] = fact(x[0]); }

struct Pair { float a, b; };
// expected-error@+1 {{parameter 'p' of type 'Pair' is outside the supported subset}}
__global__ void byValue(Pair p, float *out) { out[0] = p.a; }

__global__ void fine(float *x) { x[threadIdx.x] *= 2.0f; }
