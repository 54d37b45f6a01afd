// print=json and print=text write the capability list to report=FILE, or to
// stderr: never to stdout, which carries only the IR.
// RUN: ks-opt %s --ks-arch-profiler="gpu=h200 print=json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=JSON
// RUN: ks-opt %s --ks-arch-profiler="gpu=h200 print=json report=%t.json" -o /dev/null
// RUN: python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['sm_count'] == 132 and d['tensor_cores'] == ['wmma', 'mma_sync', 'wgmma'] and len(d) == 28, d" %t.json
// RUN: ks-opt %s --ks-arch-profiler="gpu=t4 print=text" -o /dev/null 2>&1 | FileCheck %s --check-prefix=TEXT
// stdout parses as IR with a report asked for:
// RUN: ks-opt %s --ks-arch-profiler="gpu=t4 print=text" 2>/dev/null | ks-opt | FileCheck %s --check-prefix=IR
// IR: module attributes {ks.arch = #ks.arch<chip = "sm_75"

// JSON:      {
// JSON-NEXT:   "chip": "sm_90",
// JSON-NEXT:   "sku": "NVIDIA H200",
// JSON-NEXT:   "sm_count": 132,
// JSON:        "dram_gbps": 4800.0,
// JSON:        "tf32_tflops": 494.7,
// JSON:        "tensor_cores": [
// JSON-NEXT:     "wmma",
// JSON-NEXT:     "mma_sync",
// JSON-NEXT:     "wgmma"
// JSON-NEXT:   ],
// JSON:        "max_cluster_size": 8
// JSON-NEXT: }

// TEXT: GPU capability list: Tesla T4 (sm_75)
// TEXT: max_threads_per_sm       1024
// TEXT: bf16_tflops              0.0
// TEXT: async_copy               none
module {
}
