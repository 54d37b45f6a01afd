// RUN: ks-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{#ks.diagnosis findings must be ranked by headroom, largest first: finding 1 (5.000000e-01) outranks finding 0 (1.000000e-01)}}
func.func @f() attributes {d = #ks.diagnosis<[
    #ks.finding<kind = divergence, severity = minor, metric = "branch_efficiency", value = 0.5, evidence = predicted, headroom = 0.1, loc = loc(unknown), note = "n">,
    #ks.finding<kind = bank_conflict, severity = major, metric = "conflict_degree", value = 32.0, evidence = predicted, headroom = 0.5, loc = loc(unknown), note = "n">]>} { return }

// -----

// expected-error @+1 {{#ks.finding headroom must be in [0, 1] (a fraction of the kernel's time), got 1.5}}
func.func @f() attributes {d = #ks.finding<kind = divergence, severity = minor, metric = "m", value = 0.5, evidence = predicted, headroom = 1.5, loc = loc(unknown), note = "n">} { return }

// -----

// expected-error @+1 {{#ks.finding needs a non-empty 'metric'}}
func.func @f() attributes {d = #ks.finding<kind = divergence, severity = minor, metric = "", value = 0.5, evidence = predicted, headroom = 0.5, loc = loc(unknown), note = "n">} { return }

// -----

// expected-error @+1 {{#ks.finding needs a 'note' that explains it}}
func.func @f() attributes {d = #ks.finding<kind = divergence, severity = minor, metric = "m", value = 0.5, evidence = predicted, headroom = 0.5, loc = loc(unknown), note = "">} { return }

// -----

// expected-error @+2 {{failed to parse KS_FindingAttr parameter 'kind' which is to be a `::mlir::ks::FindingKind`}}
// expected-error @+1 {{expected ::mlir::ks::FindingKind to be one of: uncoalesced_access, no_reuse, bank_conflict, divergence, low_occupancy, register_spill, launch_bound, memory_bound, compute_bound, latency_bound, tail_effect}}
func.func @f() attributes {d = #ks.finding<kind = slow, severity = minor, metric = "m", value = 0.5, evidence = predicted, headroom = 0.5, loc = loc(unknown), note = "n">} { return }

// -----

// expected-error @+2 {{failed to parse KS_FindingAttr parameter 'severity' which is to be a `::mlir::ks::Severity`}}
// expected-error @+1 {{expected ::mlir::ks::Severity to be one of: info, minor, major, critical}}
func.func @f() attributes {d = #ks.finding<kind = divergence, severity = huge, metric = "m", value = 0.5, evidence = predicted, headroom = 0.5, loc = loc(unknown), note = "n">} { return }

// -----

// expected-error @+1 {{expected '['}}
func.func @f() attributes {d = #ks.diagnosis<#ks.finding<kind = divergence, severity = minor, metric = "m", value = 0.5, evidence = predicted, headroom = 0.5, loc = loc(unknown), note = "n">>} { return }
