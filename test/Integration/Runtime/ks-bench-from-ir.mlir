// The IR's own launch spec and workload drive ks-bench: lower the example,
// emit its spec, measure and verify it on the GPU.
// REQUIRES: gpu
// RUN: ks-opt %examples/naive_gemm.mlir --kernelskill-lower="ptx=%t.ptx" -o /dev/null
// RUN: ks-opt %examples/naive_gemm.mlir --ks-emit-launch-spec="path=%t.json" -o /dev/null
// RUN: ks-bench %t.ptx --spec %t.json --reps 3 --warmup 1 --no-db --no-counters --json %t.out.json
// RUN: python3 -c "import json; r=json.load(open('%t.out.json')); v=r['variants'][0]; assert v['status']=='pass' and v['timing']['median_ms']>0 and r['workload']=={'K':4096,'M':4096,'N':4096}, v"
module {
}
