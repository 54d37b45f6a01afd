// ptxas's report, from the same lowering the pipeline ships (chip and LLVM
// level recorded), onto each kernel as #ks.resources.
// REQUIRES: ptxas
// RUN: ks-opt %examples/naive_gemm.mlir --ks-collect-resources | FileCheck %s
// RUN: ks-opt %examples/naive_gemm.mlir --ks-collect-resources="chip=sm_80 opt-level=2" | FileCheck %s --check-prefix=A100
// The chip defaults to the module's #ks.arch:
// RUN: ks-opt %examples/naive_gemm.mlir --ks-arch-profiler=gpu=l40s --ks-collect-resources | FileCheck %s --check-prefix=ARCH
// The pipeline passes its own chip and level, when asked for ptxas:
// RUN: ks-opt %examples/naive_gemm.mlir --kernelskill-pipeline="opt-level=1 ptxas=auto print-diagnosis=json diagnosis-report=%t.json" -o /dev/null
// RUN: python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['kernels'][0]['resources']; assert r['source'] == 'ptxas' and r['opt_level'] == 1 and r['chip'] == 'sm_90', r" %t.json
// A static pipeline runs no ptxas unless asked (hermetic): the profiler estimates.
// RUN: ks-opt %examples/naive_gemm.mlir --kernelskill-pipeline="opt-level=1 print-diagnosis=json diagnosis-report=%t.none.json" -o /dev/null
// RUN: python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['kernels'][0]['resources']; assert r['source'] == 'estimate', r" %t.none.json

// CHECK: gpu.func @naive_gemm({{.*}}) kernel attributes {{{.*}}ks.resources = #ks.resources<registers = {{[1-9][0-9]*}}, stack = 0, spill_stores = 0, spill_loads = 0, shared = 0, chip = "sm_90", opt_level = 3>
// CHECK-NOT: gpu.binary
// A100: ks.resources = #ks.resources<registers = {{[0-9]+}}, {{.*}}chip = "sm_80", opt_level = 2>
// ARCH: ks.resources = #ks.resources<registers = {{[0-9]+}}, {{.*}}chip = "sm_89", opt_level = 3>
