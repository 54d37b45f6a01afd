//===- Passes.td - The agent driver ------------------------*- tablegen -*-===//
#ifndef KS_DRIVER_PASSES_TD
#define KS_DRIVER_PASSES_TD

include "mlir/Pass/PassBase.td"

def KSAgentDriver : Pass<"ks-agent-driver", "::mlir::ModuleOp"> {
  let summary = "Negotiate the agents' proposals, rank and compile candidates, apply the winner";
  let description = [{
    The decision maker (docs/Agents.md). For every kernel with `ks.proposals`
    (from `ks-memory-agent`, `ks-compute-agent`, `ks-resource-agent`):

    1. **Compose.** The proposals of one schedule family are joined knob
       by knob: every value some agent wants is in the space (the larger
       gain's order first). Knobs nobody set take the family's default.
    2. **Negotiate.** Every point of the composed space is checked by the
       transform's own verifier and its claims (shared memory, threads,
       the register estimate) against the budgets: the `#ks.arch` limits,
       `max-shared=`, `max-registers=`, `min-occupancy=`. Values of a knob
       that no admissible point keeps are yielded, with the budget that
       excluded them. The arbiter (Driver/Arbiter.h) starts from every
       agent's first preference and resolves the conflicts among them
       (the transform's objections, broken budgets, different values of
       one knob, one block per SM) by the agents' counter-proposals, the
       cost model pricing each; the point they agree on is evaluated in
       the first round (step 4), and every conflict, offer and resolution
       goes to the transcript.
    3. **Rank.** The analytical cost model (Analysis/ScheduleCost.h)
       predicts each admissible point's time.
    4. **Evaluate.** The `budget=` best are applied to a copy of the
       module, lowered with the pipeline's own lowering and assembled by
       ptxas: candidates that fail or spill are rejected; the others are
       ranked again with ptxas's registers. Without ptxas the estimate
       stands and the transcript says so. With `measure=cuda` and
       `refine=N`, N of the budget wait for the measurements: after the
       model's best are measured, the points one knob step away from the
       fastest verified one are compiled and measured, round after round,
       until a round finds nothing faster (beyond the noise), no such point
       is left or the budget is spent (the transcript's candidates carry
       their round, the messages say why the rounds stopped).
    5. **Apply.** The best candidate is applied to the kernel when the
       model predicts it faster than the kernel's `ks.predicted_time` (the
       profiler's) by more than `static-margin=`; between equal predictions
       the simpler candidate (fewer transforms) wins. A schedule nothing
       predicts (a family's defaults) is applied only when the profiler's
       model of the rewritten kernel predicts it faster by that margin.
       With `verify=emulate` the chosen schedule is first run against the
       lifted input on the CPU. Otherwise, or on a mismatch, the kernel
       gets its lifted original back, with the reason. `ks.proposals` is
       removed either way.

    Given a tuning database (`db=PATH`; none by default, so that the pass
    depends only on its input and options), every compiled candidate's
    ptxas result (registers, spills, or why it failed) goes into it, keyed
    by a fingerprint
    of the kernel, the GPU, the op's attributes and the toolchain (a hash of
    the running program and of ptxas); a repeat run reuses
    them instead of compiling again (the transcript says "tuning database").

    `measure=static` decides from the model alone, and from ptxas too when
    `ptxas=auto` or a path asks for it: deterministic, no GPU, and without
    `ptxas=` no subprocess (the same input and options give the same IR on
    any machine; `ks optimize` passes `ptxas=auto`). `measure=cuda` measures the compiled candidates
    on the local GPU with ks-bench (a process of its own, each candidate in
    a restartable worker), verifying each against the lifted original
    (`original=FILE`, or the pipeline's copy of its input) at an odd-sized
    workload and at the workload itself, and chooses the fastest verified
    one; a kernel whose candidates are not faster than the original, or
    none verified, gets the original back. Measurements go into the tuning
    database and a repeat run reuses them. `measure=auto` is cuda where a
    GPU and ks-bench are usable and static otherwise (the transcript says
    which and why). `kernels=a,b` optimizes only those kernels; the others
    get their lifted original back (which the pipeline keeps for this). `transcript=FILE` writes every
    step as JSON; `schedule=FILE` writes the winners as a standalone
    transform script that reproduces the result from the lifted input
    (`ks-raise`, then one op per kernel); `explain` prints a short summary
    to stderr.
  }];
  let dependentDialects = ["::mlir::ks::KSDialect", "::mlir::transform::TransformDialect"];
  let options = [
    Option<"measure", "measure", "::mlir::ks::MeasureMode",
           /*default=*/"::mlir::ks::MeasureMode::Static",
           "How candidates are compared", [{KS_MEASURE_MODE_VALUES}]>,
    Option<"budget", "budget", "int", /*default=*/"4",
           "Candidates compiled with ptxas per kernel">,
    Option<"searchSeconds", "search-seconds", "int", /*default=*/"0",
           "Seconds a kernel's candidates may take to compile: past them no further one "
           "is compiled, and those compiled are measured and decided (0: no limit)">,
    Option<"screen", "screen", "bool", /*default=*/"true",
           "measure=cuda: time the candidates verified at the odd workload once at the "
           "workload without verifying them there (ks-bench --time-only), then verify and "
           "time only the fastest (false: verify every candidate at the workload)">,
    Option<"refine", "refine", "int", /*default=*/"0",
           "measure=cuda: candidates of the budget kept for refinement rounds. The model's "
           "best budget-refine are measured first; then, round after round, the knob "
           "neighbours of the fastest verified one (one knob one step away, not yet "
           "compiled), while a round finds a faster one and the budget lasts (0: none)">,
    Option<"target", "target", "double", /*default=*/"0.8",
           "The fraction of the kernel's roofline floor (ks.floor_time / time) at which the "
           "search stops: after each round the fastest verified candidate is profiled "
           "against the floor, and refinement rounds run only while it is below this "
           "(0: no target; at most 1)">,
    Option<"maxRegisters", "max-registers", "int", /*default=*/"255",
           "Registers per thread no candidate may exceed">,
    Option<"maxShared", "max-shared", "int", /*default=*/"0",
           "Shared memory per block in bytes no candidate may exceed (0: the chip's limit)">,
    Option<"minOccupancy", "min-occupancy", "double", /*default=*/"0.0",
           "Occupancy (resident warps / max warps) every candidate must reach">,
    Option<"optLevel", "opt-level", "int", /*default=*/"3",
           "LLVM optimization level of the candidates' lowering (the pipeline's)">,
    Option<"ptxas", "ptxas", "std::string", /*default=*/"\"\"",
           "ptxas to assemble candidates with: a path, auto (found as "
           "ks-collect-resources does) or none (default: auto when measuring, none for "
           "measure=static, which is then hermetic)">,
    Option<"workload", "workload", "std::string", /*default=*/"\"\"",
           "Sizes to decide with: NAME=INT,... (default: the launcher's #ks.workload)">,
    Option<"db", "db", "std::string", /*default=*/"\"\"",
           "Tuning database (SQLite file) for the candidates' ptxas results and measurements "
           "(default: none; the pass reads and writes a database only when given one)">,
    Option<"bench", "bench", "std::string", /*default=*/"\"\"",
           "ks-bench to measure with (default: beside ks-opt, else on PATH)">,
    Option<"original", "original", "std::string", /*default=*/"\"\"",
           "The lifted module the raised input came from (measure=cuda verifies against it "
           "and returns it when nothing is faster; the pipeline passes its own)">,
    Option<"reps", "reps", "int", /*default=*/"10",
           "Timed runs per measured candidate (the median decides)">,
    Option<"timeout", "timeout", "int", /*default=*/"120",
           "Seconds a measured candidate may run before its worker is killed">,
    Option<"workdir", "workdir", "std::string", /*default=*/"\"\"",
           "Directory for the measured candidates' PTX, launch manifests and results "
           "(default: a temporary one, removed afterwards)">,
    Option<"precision", "precision", "::mlir::ks::Precision",
           /*default=*/"::mlir::ks::Precision::Strict",
           "The arithmetic an optimized kernel may use; measured candidates are verified at "
           "its tolerance", [{KS_PRECISION_VALUES}]>,
    Option<"objective", "objective", "::mlir::ks::Objective",
           /*default=*/"::mlir::ks::Objective::Latency",
           "What the driver minimizes: one launch's time alone (latency) or the time per "
           "launch with many independent launches at once (throughput: measure=cuda times "
           "waves of concurrent launches, each on its own stream and buffers; the static "
           "model has no term for co-resident launches and ranks as for latency)",
           [{KS_OBJECTIVE_VALUES}]>,
    ListOption<"kernels", "kernels", "std::string",
               "Only these kernels are optimized; the others come back as they were lifted "
               "(default: every kernel)">,
    Option<"transcript", "transcript", "std::string", /*default=*/"\"\"",
           "File to write the decisions to, as JSON">,
    Option<"schedule", "schedule", "std::string", /*default=*/"\"\"",
           "File to write the winning schedule to, as a standalone transform script">,
    Option<"explain", "explain", "bool", /*default=*/"false",
           "Print a short summary of each kernel's decision to stderr">,
    Option<"verify", "verify", "std::string", /*default=*/"\"none\"",
           "How a kernel changed by a static decision is checked against the lifted input "
           "before it is applied: none, or emulate (both exported to CUDA C++ and run on "
           "the CPU by tools/ks-emulate at a small odd workload; on a mismatch, or when the "
           "check cannot run, the input is kept). ks optimize passes emulate">,
    Option<"emulator", "emulator", "std::string", /*default=*/"\"\"",
           "ks-emulate.py for verify=emulate (default: ../libexec/ks-emulate/ks-emulate.py "
           "from ks-opt's directory)">,
    Option<"staticMargin", "static-margin", "double", /*default=*/"0.05",
           "A static decision replaces a kernel only when the model predicts the schedule "
           "faster than the input by more than this fraction (0.05: 5%)">,
    Option<"search", "search", "std::string", /*default=*/"\"negotiated\"",
           "The order candidates are compiled and measured in: negotiated (the model's "
           "best of each structure, the agents' agreed point in every first round), model "
           "(the cost model's ranking alone, a plain top-k autotuner), random (the "
           "admissible points in a seeded random order) or exhaustive (every admissible "
           "point in the model's order, whatever budget= says, none skipped as rated like "
           "another); the baselines of the negotiation benchmark">,
    Option<"searchSeed", "search-seed", "int", /*default=*/"0",
           "search=random: the seed of the order">,
    ListOption<"agents", "agents", "std::string",
               "Only these agents' proposals are searched (memory, compute, resource; "
               "default: all), each agent alone for the negotiation benchmark">,
  ];
}

#endif // KS_DRIVER_PASSES_TD
