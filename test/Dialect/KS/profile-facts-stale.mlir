// A finding may outlive its subject (issue 44: "#ks.diagnosis names subject
// 14, but no op of the kernel has a #ks.access or #ks.branch with that id"
// stopped the pipeline on its own IR): the canonicalizer erases a dead load
// that carries the finding's #ks.access, and the kernel still verifies, its
// diagnosis kept, the finding then about the kernel as a whole.
// RUN: ks-opt %s --canonicalize -mlir-print-local-scope | FileCheck %s

// CHECK-LABEL: gpu.func @k
// CHECK-SAME: subject = 0
// CHECK-NOT: memref.load
// CHECK: gpu.return
gpu.module @m {
  gpu.func @k(%a: memref<?xf32>) kernel attributes {ks.diagnosis = #ks.diagnosis<[#ks.finding<kind = uncoalesced_access, severity = critical, metric = "sectors_per_request", value = 32.0, evidence = predicted, headroom = 0.9, loc = loc(unknown), subject = 0, note = "strided">]>} {
    %c0 = arith.constant 0 : index
    %dead = memref.load %a[%c0] {ks.access = #ks.access<id = 0, kind = load, space = global, pattern = strided, stride = 4096, sectors_per_request = 32.0, ideal_sectors_per_request = 4.0, wavefronts_per_request = 0.0, warps_per_element = 1.0, loop_invariant = false>} : memref<?xf32>
    gpu.return
  }
}
