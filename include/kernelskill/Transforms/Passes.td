//===- Passes.td - KernelSkill transforms ------------------*- tablegen -*-===//
#ifndef KS_TRANSFORMS_PASSES_TD
#define KS_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def KSBarePointerABI : Pass<"ks-bare-pointer-abi", "::mlir::ModuleOp"> {
  let summary = "Pass kernel buffers as bare CUDA pointers";
  let description = [{
    A lowering step. A lifted kernel takes each CUDA pointer argument as a
    dynamically sized 1-D memref (`memref<?xf32>`). Upstream's bare-pointer
    calling convention only accepts statically shaped memrefs, and the default
    convention passes five values per memref, which no CUDA launcher, nvcc
    kernel or our runtime would match. This pass rewrites each such argument of
    each `gpu.func` kernel to an `!llvm.ptr` (the address space kept) and
    rebuilds the memref descriptor inside the kernel (offset 0, stride 1), and
    rewrites every `gpu.launch_func` of that kernel to pass the buffer's
    aligned pointer. After it, with `kernel-bare-ptr-calling-convention`, the
    PTX entry takes exactly the parameters the CUDA source declared:
    `(float *A, ..., int M, ...)` becomes `.param .u64 .ptr ..., .param .u32`.

    Memrefs with static shapes are left to upstream's bare-pointer
    convention. A dynamic memref of rank > 1 or with a non-identity layout
    cannot be rebuilt from a pointer and is an error naming the argument.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect", "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect"];
}

def KSLiftKernelCFG : Pass<"ks-lift-kernel-cfg", "::mlir::ModuleOp"> {
  let summary = "Lift the control-flow graphs of gpu.func kernels to scf";
  let description = [{
    The CUDA importer emits each kernel as an unstructured CFG (cf.br,
    cf.cond_br), which makes break, continue, early return and
    short-circuit operators easy to import. This pass recovers structure:
    upstream's CFG-to-SCF lifting (`transformCFGToSCF`, what
    `lift-cf-to-scf` runs on func.func only) applied to every kernel, with
    `gpu.return` where an exit is unreachable, then upstream's uplifting of
    canonical `scf.while` loops to `scf.for`. Kernels that are already
    structured are left alone.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::ub::UBDialect",
                           "::mlir::arith::ArithDialect"];
}

def KSDropProfileFacts : Pass<"ks-drop-profile-facts", "::mlir::ModuleOp"> {
  let summary = "Remove the performance profiler's facts from every kernel";
  let description = [{
    The profiler's `#ks.diagnosis` (on a kernel) and `#ks.access` /
    `#ks.branch` (on the ops inside) describe the IR it analyzed. A
    transform that rewrites a kernel must keep them valid or drop them; this
    pass drops them from every `gpu.func` kernel (`dropProfileAttributes`),
    for pipelines that rewrite kernels wholesale. The lowering runs it first:
    after it, loads and branches no longer exist as the facts name them.
    `#ks.resources` and `#ks.arch` stay.
  }];
}

#endif // KS_TRANSFORMS_PASSES_TD
