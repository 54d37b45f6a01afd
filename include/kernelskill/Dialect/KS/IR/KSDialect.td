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
}

#endif // KS_DIALECT_TD
