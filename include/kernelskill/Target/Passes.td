//===- Passes.td - KernelSkill target passes ---------------*- tablegen -*-===//
#ifndef KS_TARGET_PASSES_TD
#define KS_TARGET_PASSES_TD

include "mlir/Pass/PassBase.td"

def KSWritePTX : Pass<"ks-write-ptx", "::mlir::ModuleOp"> {
  let summary = "Write the PTX held by the module's gpu.binary ops to a file";
  let description = [{
    After `gpu-module-to-binary` with `format=isa`, each `gpu.binary` holds
    its module's PTX as text. This pass writes that text to `path` (all
    binaries, one after the other, each preceded by a comment naming it), so
    ptxas, ks-bench or a person can use it. `-` writes to stdout. It is an
    error if the module holds no PTX (for example after `format=bin`).
  }];
  let options = [
    Option<"path", "path", "std::string", /*default=*/"\"\"",
           "File to write the PTX to (- for stdout)">,
  ];
}

def KSPatchPTX : Pass<"ks-patch-ptx", "::mlir::ModuleOp"> {
  let summary = "Replace PTX instructions that compute wrong results on the GPU with exact equivalents";
  let description = [{
    After `gpu-module-to-binary` with `format=isa`, rewrites the PTX text of
    every `gpu.binary` object. Each rewrite replaces an instruction that was
    measured to give wrong results on a real GPU with bit operations that give
    the IEEE result exactly:

    - `neg.bf16 d, a` becomes `xor.b16 d, a, 0x8000`, and `neg.bf16x2 d, a`
      becomes `xor.b32 d, a, 0x80008000` (a negation flips each lane's sign
      bit and nothing else, NaNs included). LLVM emits `neg.bf16` when it
      moves a negation past an f32-to-bf16 truncation (`__floats2bfloat162_rn(b,
      -b)`); in that kernel's PTX the H200 returned `+b`, and the same PTX
      with the xor matches nvcc. `neg.bf16` on its own, and in a reduced
      copy of the pattern, computes correctly there
      (bench/lowering/ptx_negation_probe.py): the cause in the full kernel
      is not isolated, so the rewrite is a workaround, kept because it is
      exact (bench/results/2026-12-03-h200-export-equivalence,
      docs/Frontend.md).

    The lowering (`--kernelskill-lower`, `--kernelskill-pipeline`,
    `ks-collect-resources`) runs this pass right after the PTX is made, so
    every consumer (ks-write-ptx, ks-assemble-ptx, ks-bench) sees the patched
    text. A remark counts the rewrites when there are any.
  }];
}

def KSAssemblePTX : Pass<"ks-assemble-ptx", "::mlir::ModuleOp"> {
  let summary = "Assemble each gpu.binary's PTX into a cubin with ptxas";
  let description = [{
    Runs `ptxas -v --gpu-name=<chip>` on the PTX object of every `gpu.binary`
    (the chip comes from the object's `#nvvm.target`) and replaces the object
    with the cubin (`format = bin`), keeping ptxas's resource report (registers,
    shared memory, stack, spills) in the object's properties as `ptxas_info`.
    Upstream's `gpu-module-to-binary` with `format=bin` runs ptxas too but
    drops that report, which the agents need, and finds ptxas only on PATH.

    ptxas is looked for in `ptxas=`, on PATH, in `$CUDA_HOME/bin`,
    `$CUDA_PATH/bin`, `$CUDA_ROOT/bin`, then in the toolkit found at build
    time; when it is missing, or rejects the PTX, the pass fails and shows why.
  }];
  let options = [
    Option<"ptxas", "ptxas", "std::string", /*default=*/"\"\"",
           "Path of the ptxas to use (default: search)">,
  ];
}

def KSEmitLaunchSpec : Pass<"ks-emit-launch-spec", "::mlir::ModuleOp"> {
  let summary = "Write the launch spec (manifest) ks-bench measures a kernel with";
  let description = [{
    Reads the host launcher (the `func.func` holding one `gpu.launch_func`)
    and writes the JSON launch spec of docs/Runtime.md: the kernel's name, its
    parameters in order (buffers with element type, extent and role; scalars
    with type), grid, block and dynamic shared memory as formulas of the
    launcher's scalar arguments, and the workload's scalar values.

    Names come from the launcher's `ks.name` argument attributes (else
    `arg<N>`). A buffer's role is inferred from the kernel: only loaded is
    `in`, only stored is `out`, both is `inout`. Extents and scalar values
    come from a `ks.workload = #ks.workload<...>` attribute on the launcher;
    a buffer whose extent is not given there is an error that asks for it
    (symbolic extents inferred from the kernel's accesses come with the
    index analysis). Grid and block formulas are rebuilt from `arith` ops
    (add, sub, mul, div, rem, ceildiv, min, max, casts, constants); any other
    op is an error naming it.
  }];
  let options = [
    Option<"path", "path", "std::string", /*default=*/"\"-\"",
           "File to write the JSON to (- for stdout)">,
    Option<"launcher", "launcher", "std::string", /*default=*/"\"\"",
           "Name of the launcher function (default: the only one with a launch)">,
  ];
}

def KSCollectResources : Pass<"ks-collect-resources", "::mlir::ModuleOp"> {
  let summary = "Attach ptxas's resource report (#ks.resources) to each kernel";
  let description = [{
    Lowers a copy of the module exactly as `--kernelskill-lower` and
    `--kernelskill-pipeline` do (`chip=`, `opt-level=`: pass the pipeline's
    own, which it does itself), runs `ptxas -v` on the PTX and writes what
    it reports for each kernel (registers, stack frame, spill stores and
    loads, static shared memory) onto that `gpu.func` as `ks.resources =
    #ks.resources<...>`, with the chip and optimization level, so the
    figures describe the binary the pipeline ships. The module itself is not
    lowered. The performance profiler reads the attribute and estimates from
    the IR when it is absent.

    The chip defaults to the module's `#ks.arch`, else the default GPU's.
    Without a ptxas (see `ks-assemble-ptx` for where it is looked for) the
    kernels are left unannotated and a remark says why; a lowering or ptxas
    failure is an error.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"\"",
           "Compilation target (default: the module's #ks.arch, else the default GPU's)">,
    Option<"optLevel", "opt-level", "int", /*default=*/"::mlir::ks::kDefaultOptLevel",
           "LLVM optimization level of the lowering (the pipeline's default)">,
    Option<"ptxas", "ptxas", "std::string", /*default=*/"\"\"",
           "Path of the ptxas to use (default: search)">,
  ];
}

#endif // KS_TARGET_PASSES_TD
