// RUN: ks-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{#ks.workload scalar 'n' must be an integer or a float, got "big"}}
func.func @f() attributes {w = #ks.workload<scalars = {n = "big"}, buffers = {}>} { return }

// -----

// expected-error @+1 {{#ks.workload buffer 'A' needs a non-negative integer extent (elements), got -1 : i64}}
func.func @f() attributes {w = #ks.workload<scalars = {}, buffers = {A = -1}>} { return }

// -----

// expected-error @+1 {{#ks.workload buffer 'A' needs a non-negative integer extent (elements), got 1.000000e+00 : f32}}
func.func @f() attributes {w = #ks.workload<scalars = {}, buffers = {A = 1.0 : f32}>} { return }

// -----

// expected-error @+1 {{#ks.workload names 'n' both as a scalar and as a buffer}}
func.func @f() attributes {w = #ks.workload<scalars = {n = 4 : i32}, buffers = {n = 4}>} { return }

// -----

// expected-error @+1 {{expected ','}}
func.func @f() attributes {w = #ks.workload<scalars = {n = 4 : i32}>} { return }
