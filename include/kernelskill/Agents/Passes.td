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

    `print=text` or `print=json` also writes the capability list to
    `report=FILE`, or to stderr when no file is given: never to stdout,
    which carries the IR.

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
    Option<"source", "source", "::mlir::ks::ArchSource",
           /*default=*/"::mlir::ks::ArchSource::Database",
           "Where the capability list comes from", [{KS_ARCH_SOURCE_VALUES}]>,
    Option<"device", "device", "int", /*default=*/"0",
           "CUDA device ordinal for source=device">,
    Option<"print", "print", "::mlir::ks::ReportFormat",
           /*default=*/"::mlir::ks::ReportFormat::None",
           "Also write the capability list to the report", [{KS_REPORT_FORMAT_VALUES}]>,
    Option<"report", "report", "std::string", /*default=*/"\"\"",
           "File the capability list goes to (default: stderr)">,
  ];
}

def KSPerfProfiler : Pass<"ks-perf-profiler", "::mlir::ModuleOp"> {
  let summary = "Diagnose what limits each kernel: ranked findings with evidence (#ks.diagnosis)";
  let description = [{
    The second agent: it answers "what is wrong with this kernel?" for the
    agents that act. For every `gpu.func` kernel it runs the static analyses
    of `lib/Analysis` — index polynomials, a warp-level simulation of the
    index arithmetic (coalescing, sectors per request, bank conflicts,
    divergence, trip counts, FLOPs), reuse, the kernel's resources,
    occupancy and the roofline (one `KernelProfileAnalysis` per kernel,
    shared with later passes until the kernel changes) — and attaches
    `ks.access = #ks.access<...>` to each memory access and `ks.branch =
    #ks.branch<...>` to each branch and loop it analyzed, and `ks.diagnosis =
    #ks.diagnosis<[...]>`: findings ranked by the fraction of the kernel's
    time a fix could save, each with its metric, value, source location, the
    `subject` (the id of the access or branch it is about) and a sentence
    that names the access or branch, the line and the reason. Running it
    again replaces all of these.

    Sizes come from the launcher's `#ks.workload`, the `workload=` option
    (`"M=1000,N=1023,K=512"`; `block.x=`/`grid.x=`... set the launch shape of
    a kernel without a launcher) or are assumed, and the report says which.
    The target is the module's `#ks.arch` (run `ks-arch-profiler` first),
    else the H200.

    Registers, spills, stack and static shared memory come from the kernel's
    `#ks.resources` (written by `ks-collect-resources` from ptxas's report
    on the pipeline's own lowering, or by hand in tests); without it they are
    estimated from the IR and the report says so.

    `measurements=FILE` merges measurements: ks-bench's `--json` output or
    `ks-bench db export` lines. The measured time sets the roofline headroom,
    and each counter with a static prediction (sectors per request, bank
    conflicts, occupancy, branch uniformity, DRAM bytes, registers) is
    compared, disagreements called out.

    `format=text` or `format=json` also writes the diagnosis with its
    evidence to `report=FILE`, or to stderr when no file is given: never to
    stdout, which carries the IR.
  }];
  let dependentDialects = ["::mlir::ks::KSDialect"];
  let options = [
    Option<"format", "format", "::mlir::ks::ReportFormat",
           /*default=*/"::mlir::ks::ReportFormat::None",
           "Also write the diagnosis to the report", [{KS_REPORT_FORMAT_VALUES}]>,
    Option<"report", "report", "std::string", /*default=*/"\"\"",
           "File the diagnosis goes to (default: stderr)">,
    Option<"workload", "workload", "std::string", /*default=*/"\"\"",
           "Sizes to analyze with: NAME=INT,... (argument names, block.x, grid.x, ...)">,
    Option<"measurements", "measurements", "std::string", /*default=*/"\"\"",
           "ks-bench JSON (or db export lines) to merge">,
  ];
}

def KSMemoryAgent : Pass<"ks-memory-agent", "::mlir::ModuleOp"> {
  let summary = "Propose how each kernel's operands move: shared-memory staging, vector loads, padding, pipelining";
  let description = [{
    The memory agent answers findings about global-memory traffic (no
    reuse, uncoalesced accesses, memory or latency bound): which operands
    to stage in shared memory and in which order, the width of the global
    loads along each operand's contiguous dimension, padding against the
    bank conflicts of transposed staging, cp.async pipelines on sm_80 and
    later, and for matrix-vector products how lanes walk the matrix.

    Like every proposing agent it reads the module's `#ks.arch`, each raised
    kernel's contraction (`ks-raise`) and `#ks.diagnosis`
    (`ks-perf-profiler`), runs its rules of the rule table
    (lib/Agents/Rules.cpp, docs/Agents.md) and writes one `#ks.proposal`
    per schedule family whose rules fire into the kernel's `ks.proposals`,
    replacing its own earlier proposals and keeping the other agents'. A
    kernel without a contraction or without a finding its rules answer gets
    none. It transforms nothing: `ks-agent-driver` decides.
  }];
  let options = [
    Option<"workload", "workload", "std::string", /*default=*/"\"\"",
           "Sizes to decide with: NAME=INT,... (default: the launcher's #ks.workload)">,
  ];
  let dependentDialects = ["::mlir::ks::KSDialect"];
}

def KSComputeAgent : Pass<"ks-compute-agent", "::mlir::ModuleOp"> {
  let summary = "Propose each kernel's arithmetic per byte: register tiles, unrolling";
  let description = [{
    The compute agent answers findings about the issue rate and the
    arithmetic per byte moved (compute bound, no reuse): register tile
    sizes of the GEMM family, loads in flight (unrolling) of the GEMV
    family.

    Like every proposing agent it reads the module's `#ks.arch`, each raised
    kernel's contraction (`ks-raise`) and `#ks.diagnosis`
    (`ks-perf-profiler`), runs its rules of the rule table
    (lib/Agents/Rules.cpp, docs/Agents.md) and writes one `#ks.proposal`
    per schedule family whose rules fire into the kernel's `ks.proposals`,
    replacing its own earlier proposals and keeping the other agents'. A
    kernel without a contraction or without a finding its rules answer gets
    none. It transforms nothing: `ks-agent-driver` decides.
  }];
  let options = [
    Option<"workload", "workload", "std::string", /*default=*/"\"\"",
           "Sizes to decide with: NAME=INT,... (default: the launcher's #ks.workload)">,
  ];
  let dependentDialects = ["::mlir::ks::KSDialect"];
}

def KSResourceAgent : Pass<"ks-resource-agent", "::mlir::ModuleOp"> {
  let summary = "Propose each kernel's block shape against the GPU: tile sizes, warps per block, split-K";
  let description = [{
    The resource agent answers findings about how the kernel fills the GPU
    (occupancy, the tail of the last wave, latency): block tile sizes and
    warps per block, splitting a long reduction across blocks when the
    output has too few tiles, warps splitting the reduction of a GEMV.
    The budgets themselves (shared memory, registers, threads, occupancy
    floor) are the driver's to enforce against every agent's claims.

    Like every proposing agent it reads the module's `#ks.arch`, each raised
    kernel's contraction (`ks-raise`) and `#ks.diagnosis`
    (`ks-perf-profiler`), runs its rules of the rule table
    (lib/Agents/Rules.cpp, docs/Agents.md) and writes one `#ks.proposal`
    per schedule family whose rules fire into the kernel's `ks.proposals`,
    replacing its own earlier proposals and keeping the other agents'. A
    kernel without a contraction or without a finding its rules answer gets
    none. It transforms nothing: `ks-agent-driver` decides.
  }];
  let options = [
    Option<"workload", "workload", "std::string", /*default=*/"\"\"",
           "Sizes to decide with: NAME=INT,... (default: the launcher's #ks.workload)">,
  ];
  let dependentDialects = ["::mlir::ks::KSDialect"];
}

#endif // KS_AGENTS_PASSES_TD
