// RUN: ks-opt %s -split-input-file -mlir-print-local-scope | FileCheck %s
// RUN: ks-opt %s -split-input-file | ks-opt -split-input-file -mlir-print-local-scope | FileCheck %s

// CHECK-LABEL: func.func @ranked
// CHECK-SAME: ks.diagnosis = #ks.diagnosis<[#ks.finding<kind = uncoalesced_access, severity = major, metric = "sectors_per_request", value = 32.0, evidence = predicted, headroom = 0.5, loc = loc("gemm.cu":9:20), note = "load of b[col * k + p] is strided by k across the warp: 32 sectors per request, ideal 4">,
// CHECK-SAME: #ks.finding<kind = low_occupancy, severity = minor, metric = "achieved_occupancy", value = 0.25, evidence = measured, headroom = 0.1, loc = loc(unknown), note = "registers limit the SM to 16 warps">]>
func.func @ranked() attributes {ks.diagnosis = #ks.diagnosis<[
    #ks.finding<kind = uncoalesced_access, severity = major, metric = "sectors_per_request",
                value = 32.0, evidence = predicted, headroom = 0.5, loc = loc("gemm.cu":9:20),
                note = "load of b[col * k + p] is strided by k across the warp: 32 sectors per request, ideal 4">,
    #ks.finding<kind = low_occupancy, severity = minor, metric = "achieved_occupancy",
                value = 0.25, evidence = measured, headroom = 0.1, loc = loc(unknown),
                note = "registers limit the SM to 16 warps">]>} {
  return
}

// -----

// An empty diagnosis: nothing worth fixing.
// CHECK-LABEL: func.func @healthy
// CHECK-SAME: ks.diagnosis = #ks.diagnosis<[]>
func.func @healthy() attributes {ks.diagnosis = #ks.diagnosis<[]>} {
  return
}
