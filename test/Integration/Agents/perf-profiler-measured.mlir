// The performance profiler against the GPU's own counters: measure the
// example's naive GEMM with ks-bench (CUPTI), merge the measurement, and
// check that the static predictions agree where they must.
// REQUIRES: gpu
// RUN: ks-opt %examples/naive_gemm.mlir --kernelskill-lower="ptx=%t.ptx" -o /dev/null
// RUN: ks-opt %examples/naive_gemm.mlir --ks-emit-launch-spec="path=%t.json" -o /dev/null
// RUN: ks-bench %t.ptx --spec %t.json --workload M=1024,N=1024,K=1024 --reps 3 --warmup 1 --no-db --json %t.out.json
// RUN: ks-opt %examples/naive_gemm.mlir --ks-collect-resources --ks-perf-profiler="format=json report=%t.diag.json workload=M=1024,N=1024,K=1024 measurements=%t.out.json" -o /dev/null
// RUN: python3 %s.py %t.diag.json
module {
}
