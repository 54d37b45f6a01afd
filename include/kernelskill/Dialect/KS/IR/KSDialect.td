//===- KSDialect.td - The ks dialect -----------------------*- tablegen -*-===//
#ifndef KS_DIALECT_TD
#define KS_DIALECT_TD

include "mlir/IR/OpBase.td"

def KS_Dialect : Dialect {
  let name = "ks";
  let cppNamespace = "::mlir::ks";
  let summary = "KernelSkill: what the GPU can do, what the kernel needs, what is wrong";
  let description = [{
    The `ks` dialect carries the facts the KernelSkill agents exchange through
    the IR: the capability list of the target GPU (`#ks.arch`), the concrete
    sizes a kernel runs with (`#ks.workload`), the resources of its compiled
    code (`#ks.resources`), the ranked findings of the performance profiler
    (`#ks.diagnosis`, made of `#ks.finding`s) and the per-op facts they
    point at (`#ks.access` on memory accesses, `#ks.branch` on branches and
    loops). Agents write these attributes; transforms read them; lit tests
    check them.
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;

  // The discardable attributes the passes leave on ops, functions and the
  // module besides the ones whose values are ks attributes (#ks.arch,
  // #ks.workload, #ks.resources, #ks.access, #ks.branch, #ks.diagnosis,
  // ks.proposals: each class's kModuleAttrName/kKernelAttrName/kOpAttrName)
  // and ks.predicted_time, ks.floor_time, ks.extents (KSAttrs.h).
  // verifyOperationAttribute checks each one's type, and a `ks.` name not
  // declared here or there is an error (a misspelt mark would otherwise be
  // ignored by the pass that looks for it). The attributes of function
  // arguments (ks.name, ks.const, ks.restrict, ...) are checked by
  // verifyRegionArgAttribute (KSAttrs.cpp).
  let discardableAttrs = (ins
    // The raising: a kernel raised to one iteration space and its
    // contraction, or why it was not; a kernel no launcher launches.
    "::mlir::UnitAttr":$raised,
    "::mlir::StringAttr":$not_raised,
    "::mlir::UnitAttr":$contract,
    "::mlir::StringAttr":$no_launcher,
    // The schedule a transform applied to a kernel (its op's name).
    "::mlir::StringAttr":$schedule,
    // Loops to unroll (unit: fully, an integer: by that factor) and loads
    // whose offsets a loop keeps in 32 bits.
    "::mlir::Attribute":$unroll,
    "::mlir::UnitAttr":$int32_loop_offsets,
    // The importer and the launchers: the source file, extern "C" kernels,
    // host symbols copied to the device, globals, synthesized launchers.
    "::mlir::StringAttr":$source,
    "::mlir::UnitAttr":$extern_c,
    "::mlir::ArrayAttr":$host_symbol_copies,
    "::mlir::UnitAttr":$initialized,
    "::mlir::UnitAttr":$scalar,
    "::mlir::StringAttr":$synthesized,
    // The source's name of a value (on the op defining it), kept for the
    // CUDA export; on arguments it is an argument attribute.
    "::mlir::StringAttr":$name
  );
}

#endif // KS_DIALECT_TD
