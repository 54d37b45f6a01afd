//===- Passes.td - The KernelSkill agents ------------------*- tablegen -*-===//
#ifndef KS_AGENTS_PASSES_TD
#define KS_AGENTS_PASSES_TD

include "mlir/Pass/PassBase.td"

def KSArchProfiler : Pass<"ks-arch-profiler", "::mlir::ModuleOp"> {
  let summary = "Attach the target GPU's capability list (#ks.arch) to the module";
  let description = [{
    The first agent: it answers "what can the GPU do?" for every agent after
    it, by attaching `#ks.arch` to the module as the `ks.arch` attribute.

    The capability list comes from KernelSkill's architecture database
    (`source=database`, the default), chosen by `gpu=` (a short name such as
    `h200`, or the driver's product name such as `"NVIDIA H200"`) and/or
    `chip=` (the compilation target: `sm_90`, `sm_90a`, ...). With neither,
    the target is the H200 (`sm_90`). With only `chip=`, the chip's default
    GPU is used; with both, the chip must belong to the GPU.

    `source=device` reads the live GPU `device=N` through the CUDA driver API
    (limits, SM count, L2, clocks, bus width); peak rates, which the driver
    does not report, come from the database entry of the same product or are
    scaled from the chip's default entry by SM count and clock. It needs a
    build with the CUDA toolkit and a GPU at run time, and says which is
    missing otherwise.

    `print=text` or `print=json` also prints the capability list to stdout.

    Example: `ks-opt --ks-arch-profiler="gpu=a100 print=json" in.mlir`.
  }];
  let dependentDialects = ["::mlir::ks::KSDialect"];
  let options = [
    Option<"gpu", "gpu", "std::string", /*default=*/"\"\"",
           "GPU to target: a database key (v100, t4, a100, rtx3090, a10, l40s, "
           "rtx4090, h200, h100, b200) or the driver's product name">,
    Option<"chip", "chip", "std::string", /*default=*/"\"\"",
           "Compilation target: sm_70, sm_75, sm_80, sm_86, sm_89, sm_90, "
           "sm_90a, sm_100, sm_100a">,
    Option<"source", "source", "std::string", /*default=*/"\"database\"",
           "Where the capability list comes from: database or device">,
    Option<"device", "device", "int", /*default=*/"0",
           "CUDA device ordinal for source=device">,
    Option<"print", "print", "std::string", /*default=*/"\"none\"",
           "Also print the capability list to stdout: none, text or json">,
  ];
}

#endif // KS_AGENTS_PASSES_TD
