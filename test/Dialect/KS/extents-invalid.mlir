// RUN: ks-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// ks.extents (recorded by the agent driver on a launcher): buffer name ->
// extent formula, strings only, on a function.
// CHECK-LABEL: func.func @launch
// CHECK-SAME: ks.extents = {in = "n * m"}
func.func @launch(%n: i32) attributes {ks.extents = {in = "n * m"}} { return }

// -----

// expected-error @+1 {{'func.func' op 'ks.extents' must be a dictionary of strings (buffer name -> extent formula) on a launcher}}
func.func @launch() attributes {ks.extents = {in = 4 : i64}} { return }

// -----

// expected-error @+1 {{'builtin.module' op 'ks.extents' must be a dictionary of strings (buffer name -> extent formula) on a launcher}}
module attributes {ks.extents = {in = "n"}} {}
