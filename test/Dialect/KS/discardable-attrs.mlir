// The ks dialect's discardable attributes (KSDialect.td's discardableAttrs,
// the argument attributes in KSAttrs.cpp): each name is declared with the
// type of its value; a misspelt ks.* name or a wrong value is an error where
// the pass that looks for it would silently find nothing.
// RUN: ks-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @declared
// CHECK-SAME: ks.name = "x"
// CHECK-SAME: ks.raised, ks.schedule = "simt_row_reduction"
func.func @declared(%x: memref<?xf32> {ks.name = "x", ks.const, ks.restrict, ks.cxx_type = "const float *"})
    attributes {ks.raised, ks.schedule = "simt_row_reduction", ks.extern_c} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c4 step %c1 {
  } {ks.unroll = 2 : i64}
  return
}

// -----

// expected-error @+1 {{'ks.raisd' is not an attribute the ks dialect declares on an operation (ks.arch, ks.workload,}}
func.func @misspelt() attributes {ks.raisd} { return }

// -----

// expected-error @+1 {{'ks.raised' must be a unit attribute}}
func.func @raised_string() attributes {ks.raised = "yes"} { return }

// -----

// expected-error @+1 {{'ks.not_raised' must be a string (why)}}
func.func @not_raised_unit() attributes {ks.not_raised} { return }

// -----

// expected-error @+1 {{'ks.workload' must be a #ks.workload}}
func.func @workload_dict() attributes {ks.workload = {M = 4}} { return }

// -----

func.func @unroll_zero() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'ks.unroll' must be a unit attribute or a positive integer (the unroll factor)}}
  scf.for %i = %c0 to %c1 step %c1 {
  } {ks.unroll = 0 : i64}
  return
}

// -----

// expected-error @+1 {{'ks.constant' is not an attribute the ks dialect declares on argument 0 (ks.name, ks.cxx_type, ks.const,}}
func.func @arg_misspelt(%x: memref<?xf32> {ks.constant}) { return }

// -----

// expected-error @+1 {{'ks.name' must be a string (the parameter's name)}}
func.func @arg_name_unit(%x: memref<?xf32>, %y: i32 {ks.name}) { return }

// -----

// An op attribute is not an argument attribute.
// expected-error @+1 {{'ks.raised' is not an attribute the ks dialect declares on argument 0}}
func.func @arg_op_attr(%x: memref<?xf32> {ks.raised}) { return }
