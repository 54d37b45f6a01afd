// The profiler's per-op facts round-trip through the printer and parser:
// #ks.access (with and without a constant stride), #ks.branch, #ks.resources,
// and a finding naming its subject by id.
// RUN: ks-opt %s -split-input-file -mlir-print-local-scope | FileCheck %s
// RUN: ks-opt %s -split-input-file | ks-opt -split-input-file -mlir-print-local-scope | FileCheck %s

// CHECK-LABEL: gpu.func @k
// CHECK-SAME: ks.diagnosis = #ks.diagnosis<[#ks.finding<kind = uncoalesced_access, severity = critical, metric = "sectors_per_request", value = 32.0, evidence = predicted, headroom = 0.9, loc = loc("t.cu":3:7), subject = 0, note = "strided">, #ks.finding<kind = memory_bound, severity = info, metric = "time_over_floor", value = 1.0, evidence = predicted, headroom = 0.0, loc = loc(unknown), note = "at the floor">]>
// CHECK-SAME: ks.resources = #ks.resources<registers = 40, stack = 16, spill_stores = 8, spill_loads = 4, shared = 1024, chip = "sm_90", opt_level = 2>
// CHECK: memref.load {{.*}} {ks.access = #ks.access<id = 0, kind = load, space = global, pattern = strided, stride = 4096, sectors_per_request = 32.0, ideal_sectors_per_request = 4.0, wavefronts_per_request = 0.0, warps_per_element = 1.0, loop_invariant = false>}
// CHECK: memref.store {{.*}} {ks.access = #ks.access<id = 1, kind = store, space = shared, pattern = gather, sectors_per_request = 0.0, ideal_sectors_per_request = 0.0, wavefronts_per_request = 2.5, warps_per_element = 1.0, loop_invariant = true>}
// CHECK: {ks.branch = #ks.branch<id = 2, kind = branch, executions = 64.0, divergent_fraction = 0.5, lane_dependent = true>}
// CHECK: {ks.branch = #ks.branch<id = 3, kind = switch, executions = 8.0, divergent_fraction = 0.0, lane_dependent = false>}
gpu.module @m {
  gpu.func @k(%a: memref<?xf32>, %s: memref<32xf32, #gpu.address_space<workgroup>>, %i: index, %c: i1) kernel attributes {
      ks.resources = #ks.resources<registers = 40, stack = 16, spill_stores = 8, spill_loads = 4, shared = 1024, chip = "sm_90", opt_level = 2>,
      ks.diagnosis = #ks.diagnosis<[
        #ks.finding<kind = uncoalesced_access, severity = critical, metric = "sectors_per_request", value = 32.0, evidence = predicted, headroom = 0.9, loc = loc("t.cu":3:7), subject = 0, note = "strided">,
        #ks.finding<kind = memory_bound, severity = info, metric = "time_over_floor", value = 1.0, evidence = predicted, headroom = 0.0, loc = loc(unknown), note = "at the floor">]>} {
    %v = memref.load %a[%i] {ks.access = #ks.access<id = 0, kind = load, space = global, pattern = strided, stride = 4096, sectors_per_request = 32.0, ideal_sectors_per_request = 4.0, wavefronts_per_request = 0.0, warps_per_element = 1.0, loop_invariant = false>} : memref<?xf32>
    memref.store %v, %s[%i] {ks.access = #ks.access<id = 1, kind = store, space = shared, pattern = gather, sectors_per_request = 0.0, ideal_sectors_per_request = 0.0, wavefronts_per_request = 2.5, warps_per_element = 1.0, loop_invariant = true>} : memref<32xf32, #gpu.address_space<workgroup>>
    scf.if %c {
      scf.yield
    } {ks.branch = #ks.branch<id = 2, kind = branch, executions = 64.0, divergent_fraction = 0.5, lane_dependent = true>}
    scf.index_switch %i {ks.branch = #ks.branch<id = 3, kind = switch, executions = 8.0, divergent_fraction = 0.0, lane_dependent = false>}
    case 1 {
      scf.yield
    }
    default {
      scf.yield
    }
    gpu.return
  }
}
