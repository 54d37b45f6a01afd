//===- Pipelines.h - The named KernelSkill pipelines ------------*- C++ -*-===//
#ifndef KERNELSKILL_PIPELINES_PIPELINES_H
#define KERNELSKILL_PIPELINES_PIPELINES_H

#include "kernelskill/Support/Choices.h"
#include "kernelskill/Target/Lowering.h"

#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassManager.h"

namespace mlir::ks {

/// Options of --kernelskill-lower.
struct LowerPipelineOptions : public PassPipelineOptions<LowerPipelineOptions> {
  Option<std::string> gpu{*this, "gpu",
                          llvm::cl::desc("GPU to target (v100, t4, a100, rtx3090, a10, l40s, "
                                         "rtx4090, h200, h100, b200); default: the chip's GPU, else h200"),
                          llvm::cl::init("")};
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("Compilation target (sm_70 ... sm_100a); default: "
                                          "the GPU's chip"),
                           llvm::cl::init("")};
  Option<BinaryFormat> format{*this, "format", llvm::cl::desc("What gpu.binary holds"),
                              llvm::cl::init(BinaryFormat::PTX), KS_BINARY_FORMAT_VALUES};
  Option<std::string> ptx{*this, "ptx", llvm::cl::desc("Also write the PTX to this file"),
                          llvm::cl::init("")};
  Option<int> optLevel{*this, "opt-level",
                       llvm::cl::desc("LLVM optimization level for the NVPTX backend"),
                       llvm::cl::init(kDefaultOptLevel)};
};

/// Options of --kernelskill-pipeline: the lowering's, plus the agents'.
struct KernelSkillPipelineOptions
    : public PassPipelineOptions<KernelSkillPipelineOptions> {
  Option<std::string> gpu{*this, "gpu",
                          llvm::cl::desc("GPU to optimize for (v100, t4, a100, rtx3090, a10, "
                                         "l40s, rtx4090, h200, h100, b200); default: the chip's GPU, else h200"),
                          llvm::cl::init("")};
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("Compilation target (sm_70 ... sm_100a); default: "
                                          "the GPU's chip"),
                           llvm::cl::init("")};
  Option<BinaryFormat> format{*this, "format", llvm::cl::desc("What gpu.binary holds"),
                              llvm::cl::init(BinaryFormat::PTX), KS_BINARY_FORMAT_VALUES};
  Option<std::string> ptx{*this, "ptx", llvm::cl::desc("Also write the PTX to this file"),
                          llvm::cl::init("")};
  Option<int> optLevel{*this, "opt-level",
                       llvm::cl::desc("LLVM optimization level for the NVPTX backend"),
                       llvm::cl::init(kDefaultOptLevel)};
  Option<ReportFormat> printArch{
      *this, "print-arch",
      llvm::cl::desc("Write the capability list to arch-report (default: stderr)"),
      llvm::cl::init(ReportFormat::None), KS_REPORT_FORMAT_VALUES};
  Option<std::string> archReport{*this, "arch-report",
                                 llvm::cl::desc("File for print-arch (default: stderr)"),
                                 llvm::cl::init("")};
  Option<ReportFormat> printDiagnosis{
      *this, "print-diagnosis",
      llvm::cl::desc("Write the performance profiler's diagnosis to diagnosis-report (default: "
                     "stderr)"),
      llvm::cl::init(ReportFormat::None), KS_REPORT_FORMAT_VALUES};
  Option<std::string> diagnosisReport{
      *this, "diagnosis-report", llvm::cl::desc("File for print-diagnosis (default: stderr)"),
      llvm::cl::init("")};
  Option<std::string> workload{
      *this, "workload",
      llvm::cl::desc("Sizes the profiler analyzes with: NAME=INT,... (default: the "
                     "launcher's #ks.workload)"),
      llvm::cl::init("")};
  Option<bool> optimize{*this, "optimize",
                        llvm::cl::desc("Raise the kernels and let the agents and the driver "
                                       "optimize them (false: profile and lower only)"),
                        llvm::cl::init(true)};
  Option<std::string> tuningSpec{
      *this, "tuning-spec",
      llvm::cl::desc("Apply this transform library (what schedule=FILE or ks optimize's "
                     ".schedule.mlir wrote: ks-raise, then each kernel's schedule) instead of "
                     "the agents' search: no candidate compiled or measured"),
      llvm::cl::init("")};
  Option<bool> synthesizeLaunchers{
      *this, "synthesize-launchers",
      llvm::cl::desc("Give each kernel that no launcher launches one covering its bounds "
                     "(ks-synthesize-launchers), so it can be raised and optimized; the "
                     "optimized kernel then needs that launch (ks optimize's default)"),
      llvm::cl::init(false)};
  Option<bool> lower{*this, "lower",
                     llvm::cl::desc("Lower to PTX at the end (false: stop with the optimized "
                                    "GPU-dialect IR)"),
                     llvm::cl::init(true)};
  Option<MeasureMode> measure{*this, "measure",
                              llvm::cl::desc("How the driver compares candidates"),
                              llvm::cl::init(MeasureMode::Static), KS_MEASURE_MODE_VALUES};
  Option<int> budget{*this, "budget",
                     llvm::cl::desc("Candidates the driver compiles (and, measure=cuda, "
                                    "measures) per kernel"),
                     llvm::cl::init(4)};
  Option<int> searchSeconds{*this, "search-seconds",
                            llvm::cl::desc("Seconds a kernel's candidates may take to compile "
                                           "before the driver stops compiling more (0: no "
                                           "limit)"),
                            llvm::cl::init(0)};
  Option<int> refine{*this, "refine",
                     llvm::cl::desc("measure=cuda: candidates of the budget kept for rounds "
                                    "around the fastest measured one (its knob neighbours)"),
                     llvm::cl::init(0)};
  Option<double> target{*this, "target",
                        llvm::cl::desc("The fraction of the kernel's roofline floor at which "
                                       "the driver's search stops (0: no target)"),
                        llvm::cl::init(0.8)};
  Option<bool> screen{*this, "screen",
                      llvm::cl::desc("measure=cuda: screen candidates at the workload without "
                                     "verification, verify only the fastest there (false: "
                                     "verify every one)"),
                      llvm::cl::init(true)};
  Option<std::string> bench{*this, "bench",
                            llvm::cl::desc("ks-bench for measure=cuda (default: beside ks-opt, "
                                           "else on PATH)"),
                            llvm::cl::init("")};
  Option<std::string> ptxas{*this, "ptxas",
                            llvm::cl::desc("ptxas for the kernels' resources and the driver's "
                                           "candidates: a path, auto (on PATH, else the CUDA "
                                           "toolkit's) or none (default: auto when measuring, "
                                           "none for measure=static)"),
                            llvm::cl::init("")};
  Option<int> reps{*this, "reps",
                   llvm::cl::desc("Timed runs per measured candidate (measure=cuda)"),
                   llvm::cl::init(10)};
  Option<int> timeout{*this, "timeout",
                      llvm::cl::desc("Seconds a measured candidate may run (measure=cuda)"),
                      llvm::cl::init(120)};
  Option<Precision> precision{*this, "precision",
                              llvm::cl::desc("The arithmetic an optimized kernel may use"),
                              llvm::cl::init(Precision::Strict), KS_PRECISION_VALUES};
  Option<Objective> objective{*this, "objective",
                              llvm::cl::desc("What the driver minimizes"),
                              llvm::cl::init(Objective::Latency), KS_OBJECTIVE_VALUES};
  Option<std::string> verify{
      *this, "verify",
      llvm::cl::desc("How a kernel changed by a static decision is checked against the input "
                     "before it is applied: none, or emulate (on the CPU, tools/ks-emulate; "
                     "the input is kept on a mismatch or when the check cannot run)"),
      llvm::cl::init("none")};
  Option<std::string> emulator{*this, "emulator",
                               llvm::cl::desc("ks-emulate.py for verify=emulate (default: "
                                              "../libexec/ks-emulate/ from ks-opt's directory)"),
                               llvm::cl::init("")};
  Option<double> staticMargin{
      *this, "static-margin",
      llvm::cl::desc("A static decision replaces a kernel only when predicted faster than the "
                     "input by more than this fraction"),
      llvm::cl::init(0.05)};
  Option<std::string> search{*this, "search",
                             llvm::cl::desc("The driver's search order: negotiated, model "
                                            "(top-k by the cost model), random or exhaustive "
                                            "(every admissible point)"),
                             llvm::cl::init("negotiated")};
  Option<int> searchSeed{*this, "search-seed",
                         llvm::cl::desc("search=random: the seed of the order"),
                         llvm::cl::init(0)};
  ListOption<std::string> agents{*this, "agents",
                                 llvm::cl::desc("Only these agents' proposals are searched "
                                                "(default: all)")};
  ListOption<std::string> kernels{*this, "kernels",
                                  llvm::cl::desc("Only these kernels are optimized; the others "
                                                 "come back as they were lifted")};
  Option<std::string> workdir{*this, "workdir",
                              llvm::cl::desc("Directory for the measured candidates' files "
                                             "(default: a temporary one)"),
                              llvm::cl::init("")};
  Option<int> maxRegisters{*this, "max-registers",
                           llvm::cl::desc("Registers per thread no candidate may exceed"),
                           llvm::cl::init(255)};
  Option<int> maxShared{*this, "max-shared",
                        llvm::cl::desc("Shared memory per block (bytes) no candidate may exceed; "
                                       "0: the chip's limit"),
                        llvm::cl::init(0)};
  Option<double> minOccupancy{*this, "min-occupancy",
                              llvm::cl::desc("Occupancy every candidate must reach"),
                              llvm::cl::init(0.0)};
  Option<std::string> db{*this, "db",
                         llvm::cl::desc("Tuning database (SQLite file) the driver remembers "
                                        "compiled and measured candidates in (default: none; "
                                        "ks optimize gives the user's cache)"),
                         llvm::cl::init("")};
  Option<std::string> transcript{*this, "transcript",
                                 llvm::cl::desc("File for the driver's decisions (JSON)"),
                                 llvm::cl::init("")};
  Option<std::string> schedule{*this, "schedule",
                               llvm::cl::desc("File for the winning schedule (transform script)"),
                               llvm::cl::init("")};
  Option<bool> explain{*this, "explain",
                       llvm::cl::desc("Print the driver's decisions to stderr"),
                       llvm::cl::init(false)};
};

/// Appends the lowering of a kernel as it is (no optimization) to PTX or
/// cubin. Returns failure, after calling `errorHandler`, for bad options.
LogicalResult buildLowerPipeline(OpPassManager &pm, const LowerPipelineOptions &options,
                                 function_ref<LogicalResult(const Twine &)> errorHandler);

/// Appends the agents, then the lowering.
LogicalResult buildKernelSkillPipeline(OpPassManager &pm,
                                       const KernelSkillPipelineOptions &options,
                                       function_ref<LogicalResult(const Twine &)> errorHandler);

/// Appends the raising steps (docs/Raising.md), with canonicalization and CSE
/// between them: what `--ks-raise` runs.
void buildRaisePipeline(OpPassManager &pm);


/// Registers --kernelskill-lower, --kernelskill-pipeline, --ks-raise and
/// --ks-structure-import.
void registerKernelSkillPipelines();

} // namespace mlir::ks

#endif // KERNELSKILL_PIPELINES_PIPELINES_H
