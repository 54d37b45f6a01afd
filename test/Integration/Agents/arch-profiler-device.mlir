// On a GPU machine, source=device reads the live GPU. (No FileCheck here: the
// GPU machine has no LLVM tools, only the bundle's ks-opt, python3 and grep.)
// REQUIRES: gpu, cuda-toolkit
// RUN: ks-opt %s --ks-arch-profiler="source=device print=json report=%t.json" -o %t.mlir 2> %t.remarks
// RUN: python3 -c "import json,subprocess; d=json.load(open('%t.json')); smi=subprocess.run(['nvidia-smi','--query-gpu=name','--format=csv,noheader','-i','0'],capture_output=True,text=True).stdout.strip(); assert d['sku'] == smi, (d['sku'], smi); assert d['chip'].startswith('sm_') and d['sm_count'] > 0 and d['l2_bytes'] > 0 and d['max_threads_per_sm'] >= 1024, d; print(d['sku'], d['chip'], d['sm_count'], d['l2_bytes'])"
// RUN: grep -q 'ks.arch = #ks.arch<chip = "sm_' %t.mlir
// RUN: cat %t.remarks
// RUN: grep -q "remark: ks-arch-profiler: device 0 is .NVIDIA" %t.remarks
// RUN: not ks-opt %s --ks-arch-profiler="source=device device=99" 2> %t.err
// RUN: grep -q "error: ks-arch-profiler: no CUDA device 99: this machine has" %t.err
module {
}
