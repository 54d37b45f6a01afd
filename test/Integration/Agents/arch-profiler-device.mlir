// On a GPU machine, source=device reads the live GPU.
// REQUIRES: gpu, cuda-toolkit
// RUN: ks-opt %s --ks-arch-profiler="source=device print=json" -o %t.mlir > %t.json 2> %t.remarks
// RUN: FileCheck %s --input-file=%t.json
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.mlir
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// RUN: not ks-opt %s --ks-arch-profiler="source=device device=99" 2>&1 | FileCheck %s --check-prefix=ORDINAL

// CHECK: "chip": "sm_{{[0-9]+}}",
// CHECK: "sku": "{{.+}}",
// CHECK: "sm_count": {{[1-9][0-9]*}},
// IR: ks.arch = #ks.arch<chip = "sm_{{[0-9]+}}"
// REMARK: remark: ks-arch-profiler: device 0 is
// ORDINAL: error: ks-arch-profiler: no CUDA device 99: this machine has {{[0-9]+}}
module {
}
