// RUN: ks-opt %s -split-input-file -verify-diagnostics

// A transform that copies an annotated op without dropping its facts makes
// the findings' subjects ambiguous: the verifier rejects it.
gpu.module @m {
  gpu.func @k(%a: memref<?xf32>, %i: index) kernel attributes {ks.diagnosis = #ks.diagnosis<[]>} {
    // expected-note @+1 {{the other op}}
    %v = memref.load %a[%i] {ks.access = #ks.access<id = 0, kind = load, space = global, pattern = coalesced, stride = 1, sectors_per_request = 4.0, ideal_sectors_per_request = 4.0, wavefronts_per_request = 0.0, warps_per_element = 1.0, loop_invariant = false>} : memref<?xf32>
    // expected-error @+1 {{has profile id 0, which another op of the kernel already has}}
    %w = memref.load %a[%i] {ks.access = #ks.access<id = 0, kind = load, space = global, pattern = coalesced, stride = 1, sectors_per_request = 4.0, ideal_sectors_per_request = 4.0, wavefronts_per_request = 0.0, warps_per_element = 1.0, loop_invariant = false>} : memref<?xf32>
    gpu.return
  }
}

// -----

// expected-error @+1 {{#ks.finding subject must be the non-negative id of a #ks.access or #ks.branch, got -1}}
func.func @f() attributes {d = #ks.finding<kind = divergence, severity = minor, metric = "m", value = 0.5, evidence = predicted, headroom = 0.1, loc = loc(unknown), subject = -1, note = "n">} { return }

// -----

// expected-error @+1 {{#ks.branch divergent_fraction must be in [0, 1], got 1.5}}
func.func @f() attributes {d = #ks.branch<id = 0, kind = loop, executions = 1.0, divergent_fraction = 1.5, lane_dependent = false>} { return }

// -----

// expected-error @+1 {{#ks.access id must be non-negative, got -2}}
func.func @f() attributes {d = #ks.access<id = -2, kind = load, space = global, pattern = coalesced, sectors_per_request = 1.0, ideal_sectors_per_request = 4.0, wavefronts_per_request = 0.0, warps_per_element = 1.0, loop_invariant = false>} { return }

// -----

// expected-error @+1 {{#ks.resources chip 'sm_91' is not a known compilation target}}
func.func @f() attributes {d = #ks.resources<registers = 1, stack = 0, spill_stores = 0, spill_loads = 0, shared = 0, chip = "sm_91", opt_level = 2>} { return }

// -----

// expected-error @+1 {{'ks.access' must be a #ks.access on a memory access}}
func.func @f() attributes {ks.access = #ks.branch<id = 0, kind = loop, executions = 1.0, divergent_fraction = 0.0, lane_dependent = false>} { return }

// -----

// expected-error @+1 {{'ks.resources' must be a #ks.resources}}
func.func @f() attributes {ks.resources = 3 : i32} { return }
