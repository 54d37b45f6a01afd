// Without a GPU (or driver), source=device fails with a reason, not a crash.
// UNSUPPORTED: gpu
// RUN: not ks-opt %s --ks-arch-profiler="source=device" 2>&1 | FileCheck %s
// CHECK: error: ks-arch-profiler:
// CHECK-SAME: {{cannot load the CUDA driver|built without the CUDA toolkit|no CUDA device|cuInit failed}}
module {
}
