// ks-collect-resources without a usable ptxas leaves the kernels unannotated
// and says so; bad options are errors. (No toolkit needed.)
// RUN: ks-opt %examples/naive_gemm.mlir --ks-collect-resources="ptxas=%t.no-such-ptxas" 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not ks-opt %examples/naive_gemm.mlir --ks-collect-resources="chip=sm_91" -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not ks-opt %examples/naive_gemm.mlir --ks-collect-resources="opt-level=7" -o /dev/null 2>&1 | FileCheck %s --check-prefix=LEVEL
// Without #ks.resources the profiler estimates and says why:
// RUN: ks-opt %examples/naive_gemm.mlir --ks-collect-resources="ptxas=%t.no-such-ptxas" --ks-perf-profiler=format=text -o /dev/null 2>&1 | FileCheck %s --check-prefix=ESTIMATE

// MISSING: remark: ks-collect-resources: no ptxas found at '{{.*}}no-such-ptxas'; kernels keep no #ks.resources and the profiler estimates from the IR
// MISSING-NOT: ks.resources
// CHIP: error: ks-collect-resources: unknown chip 'sm_91'; valid chips: sm_70
// LEVEL: error: ks-collect-resources: opt-level must be 0 to 3, got 7
// ESTIMATE: resources (estimated from the IR ({{[0-9]+}} scalar values); the kernel has no #ks.resources (run ks-collect-resources, which needs ptxas))
