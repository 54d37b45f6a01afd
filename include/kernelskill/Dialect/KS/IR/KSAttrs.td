//===- KSAttrs.td - Attributes of the ks dialect -----------*- tablegen -*-===//
#ifndef KS_ATTRS_TD
#define KS_ATTRS_TD

include "kernelskill/Dialect/KS/IR/KSDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

/// A double, printed so it reads naturally and parses back exactly ("32.0",
/// "0.5"); integer literals are accepted too.
class KS_RealParameter<string desc> : APFloatParameter<desc> {
  let parser = [{ ::mlir::ks::parseRealParameter($_parser) }];
  let printer = [{ ::mlir::ks::printReal($_printer.getStream(), $_self.convertToDouble()) }];
}

class KS_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<KS_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

//===----------------------------------------------------------------------===//
// #ks.arch
//===----------------------------------------------------------------------===//

def KS_ArchAttr : KS_Attr<"Arch", "arch"> {
  let summary = "The hardware capability list of the target GPU";
  let description = [{
    What the target GPU can do: the compilation target (`chip`), the product
    name as the CUDA driver reports it (`sku`), and every limit and rate the
    agents reason with. Every key is required, in any order:

    ```mlir
    #ks.arch<chip = "sm_90", sku = "NVIDIA H200", sm_count = 132,
             warp_size = 32, max_threads_per_sm = 2048, ...,
             tensor_cores = [wmma, mma_sync, wgmma],
             async_copy = [cp_async, tma], max_cluster_size = 8>
    ```

    Sizes are bytes; `dram_gbps` is GB/s; the `*_tflops` keys are dense peak
    rates at the boost clock, 0 where the chip lacks the unit. The key list
    and its meaning are the field table in
    `kernelskill/Support/ArchDatabase.h`. The verifier checks that the chip
    is known and that the limits are consistent (per-block limits within
    per-SM limits, allocation units dividing their pools, ...).

    `ks-arch-profiler` attaches it to the module as `ks.arch`.
  }];
  let parameters = (ins
    StringRefParameter<"compilation target, e.g. sm_90">:$chip,
    StringRefParameter<"product name, e.g. NVIDIA H200">:$sku,
    AttrParameter<"::mlir::ks::GPUCapabilities", "limits and rates">:$caps
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The name of the module attribute that holds the target's #ks.arch.
    static constexpr ::llvm::StringLiteral kModuleAttrName = "ks.arch";
  }];
}

//===----------------------------------------------------------------------===//
// #ks.workload
//===----------------------------------------------------------------------===//

def KS_WorkloadAttr : KS_Attr<"Workload", "workload"> {
  let summary = "Concrete sizes a kernel runs with";
  let description = [{
    The values of a kernel's scalar arguments and the extents (in elements)
    of its buffer arguments, by argument name, so analyses and measurements
    can use real sizes:

    ```mlir
    #ks.workload<scalars = {K = 4096 : i32, M = 4096 : i32, N = 4096 : i32},
                 buffers = {A = 16777216, B = 16777216, C = 16777216}>
    ```

    Scalars are integers or floats; extents are non-negative integers; a
    name is either a scalar or a buffer, never both. Either dictionary may be
    empty (`{}`).
  }];
  let parameters = (ins
    "::mlir::DictionaryAttr":$scalars,
    "::mlir::DictionaryAttr":$buffers
  );
  let assemblyFormat = "`<` `scalars` `=` $scalars `,` `buffers` `=` $buffers `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The extent of buffer `name`, if the workload has it.
    std::optional<int64_t> getBufferExtent(::llvm::StringRef name) const;
    /// The integer value of scalar `name`, if the workload has it.
    std::optional<int64_t> getIntScalar(::llvm::StringRef name) const;
    /// The name of the attribute a launcher or kernel holds it in.
    static constexpr ::llvm::StringLiteral kAttrName = "ks.workload";
  }];
}

//===----------------------------------------------------------------------===//
// #ks.finding and #ks.diagnosis
//===----------------------------------------------------------------------===//

def KS_FindingKind : I32EnumAttr<"FindingKind", "what a finding is about", [
    I32EnumAttrCase<"uncoalesced_access", 0>,
    I32EnumAttrCase<"no_reuse", 1>,
    I32EnumAttrCase<"bank_conflict", 2>,
    I32EnumAttrCase<"divergence", 3>,
    I32EnumAttrCase<"low_occupancy", 4>,
    I32EnumAttrCase<"register_spill", 5>,
    I32EnumAttrCase<"launch_bound", 6>,
    I32EnumAttrCase<"memory_bound", 7>,
    I32EnumAttrCase<"compute_bound", 8>,
    I32EnumAttrCase<"latency_bound", 9>,
    I32EnumAttrCase<"tail_effect", 10>
  ]> {
  let cppNamespace = "::mlir::ks";
  let genSpecializedAttr = 0;
}

def KS_Severity : I32EnumAttr<"Severity", "how much a finding matters", [
    I32EnumAttrCase<"info", 0>,
    I32EnumAttrCase<"minor", 1>,
    I32EnumAttrCase<"major", 2>,
    I32EnumAttrCase<"critical", 3>
  ]> {
  let cppNamespace = "::mlir::ks";
  let genSpecializedAttr = 0;
}

def KS_Evidence : I32EnumAttr<"Evidence", "where a finding's value comes from", [
    I32EnumAttrCase<"predicted", 0>,
    I32EnumAttrCase<"measured", 1>
  ]> {
  let cppNamespace = "::mlir::ks";
  let genSpecializedAttr = 0;
}

//===----------------------------------------------------------------------===//
// #ks.resources
//===----------------------------------------------------------------------===//

def KS_ResourcesAttr : KS_Attr<"Resources", "resources"> {
  let summary = "What a kernel's compiled code uses per thread and per block, from ptxas";
  let description = [{
    ptxas's resource report for one kernel as the pipeline compiles it:
    registers per thread, the stack frame and spill traffic (bytes per
    thread) and the static shared memory per block, with the compilation
    target and the LLVM optimization level of the lowering that produced the
    PTX, so a reader knows which binary the figures describe:

    ```mlir
    gpu.func @k(...) kernel attributes {ks.resources = #ks.resources<
        registers = 40, stack = 0, spill_stores = 0, spill_loads = 0,
        shared = 8192, chip = "sm_90", opt_level = 2>}
    ```

    `ks-collect-resources` (lib/Target) writes it; the performance profiler
    reads it and estimates from the IR when it is absent. Tests may write it
    by hand.
  }];
  let parameters = (ins
    "int64_t":$registers,
    "int64_t":$stack,
    "int64_t":$spill_stores,
    "int64_t":$spill_loads,
    "int64_t":$shared,
    StringRefParameter<"compilation target the figures are for">:$chip,
    "int64_t":$opt_level
  );
  let assemblyFormat = [{
    `<` `registers` `=` $registers `,` `stack` `=` $stack `,` `spill_stores` `=`
    $spill_stores `,` `spill_loads` `=` $spill_loads `,` `shared` `=` $shared
    `,` `chip` `=` $chip `,` `opt_level` `=` $opt_level `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The name of the kernel attribute that holds the resources.
    static constexpr ::llvm::StringLiteral kKernelAttrName = "ks.resources";
  }];
}

//===----------------------------------------------------------------------===//
// #ks.access and #ks.branch: the profiler's facts on the ops they describe
//===----------------------------------------------------------------------===//

def KS_AccessSpace : I32EnumAttr<"AccessSpace", "the memory an access goes to", [
    I32EnumAttrCase<"global", 0>,
    I32EnumAttrCase<"shared", 1>
  ]> {
  let cppNamespace = "::mlir::ks";
  let genSpecializedAttr = 0;
}

def KS_AccessKind : I32EnumAttr<"AccessKind", "what an access does", [
    I32EnumAttrCase<"load", 0>,
    I32EnumAttrCase<"store", 1>,
    I32EnumAttrCase<"atomic", 2>
  ]> {
  let cppNamespace = "::mlir::ks";
  let genSpecializedAttr = 0;
}

def KS_AccessPatternKind : I32EnumAttr<"AccessPatternKind",
    "how the lanes of a warp address memory along threadIdx.x", [
    I32EnumAttrCase<"coalesced", 0>,
    I32EnumAttrCase<"strided", 1>,
    I32EnumAttrCase<"broadcast", 2>,
    I32EnumAttrCase<"gather", 3>
  ]> {
  let cppNamespace = "::mlir::ks";
  let genSpecializedAttr = 0;
}

def KS_AccessAttr : KS_Attr<"Access", "access"> {
  let summary = "The profiler's facts about one memory access, on the access op";
  let description = [{
    Attached by `ks-perf-profiler` as `ks.access` to each global and shared
    memory access it analyzed (`memref.load`, `memref.store`,
    `memref.atomic_rmw`, vector loads and stores), so agents point their
    proposals at the op itself, not at a source location two ops may share.
    `id` is unique among the kernel's `#ks.access` and `#ks.branch`
    attributes; a finding names its subject by that id. `stride` is the
    constant number of elements between neighbouring lanes along
    threadIdx.x, absent when it is symbolic or unknown.

    ```mlir
    %v = memref.load %B[%i] {ks.access = #ks.access<id = 1, kind = load,
        space = global, pattern = strided, stride = 4096,
        sectors_per_request = 32.0, ideal_sectors_per_request = 4.0,
        wavefronts_per_request = 0.0, warps_per_element = 16.0,
        loop_invariant = false>} : memref<?xf32>
    ```

    The facts hold for the IR the profiler saw: a transform that changes the
    op (or clones it) must drop the attribute (`dropProfileAttributes`);
    the verifier rejects two ops of a kernel with the same id.
  }];
  let parameters = (ins
    "int64_t":$id,
    EnumParameter<KS_AccessKind>:$kind,
    EnumParameter<KS_AccessSpace>:$space,
    EnumParameter<KS_AccessPatternKind>:$pattern,
    OptionalParameter<"std::optional<int64_t>">:$stride,
    KS_RealParameter<"32-byte sectors per warp-level request">:$sectors_per_request,
    KS_RealParameter<"sectors per request if the bytes were contiguous">:$ideal_sectors_per_request,
    KS_RealParameter<"shared: bank passes per request over the ideal">:$wavefronts_per_request,
    KS_RealParameter<"warps of a block that read each element">:$warps_per_element,
    "bool":$loop_invariant
  );
  let assemblyFormat = [{
    `<` `id` `=` $id `,` `kind` `=` $kind `,` `space` `=` $space `,` `pattern`
    `=` $pattern `,` (`stride` `=` $stride^ `,`)? `sectors_per_request` `=`
    $sectors_per_request `,` `ideal_sectors_per_request` `=`
    $ideal_sectors_per_request `,` `wavefronts_per_request` `=`
    $wavefronts_per_request `,` `warps_per_element` `=` $warps_per_element `,`
    `loop_invariant` `=` $loop_invariant `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The name of the op attribute that holds the access's facts.
    static constexpr ::llvm::StringLiteral kOpAttrName = "ks.access";
  }];
}

def KS_BranchKind : I32EnumAttr<"BranchKind", "what kind of control flow", [
    I32EnumAttrCase<"branch", 0>,
    I32EnumAttrCase<"loop", 1>,
    I32EnumAttrCase<"switch_", 2, "switch">
  ]> {
  let cppNamespace = "::mlir::ks";
  let genSpecializedAttr = 0;
}

def KS_BranchAttr : KS_Attr<"Branch", "branch"> {
  let summary = "The profiler's facts about one branch or loop, on the op";
  let description = [{
    Attached by `ks-perf-profiler` as `ks.branch` to each `scf.if`,
    `scf.index_switch`, `scf.while` and `scf.for` of a kernel: how many
    warp-level executions the simulation saw, the fraction in which the
    warp's lanes split (loops: left at different iterations), and whether
    the condition may differ between lanes. `id` shares the numbering of
    `#ks.access`.

    ```mlir
    scf.if %c {...} {ks.branch = #ks.branch<id = 3, kind = branch,
        executions = 65536.0, divergent_fraction = 1.0, lane_dependent = true>}
    ```
  }];
  let parameters = (ins
    "int64_t":$id,
    EnumParameter<KS_BranchKind>:$kind,
    KS_RealParameter<"warp-level executions">:$executions,
    KS_RealParameter<"fraction of executions whose lanes split">:$divergent_fraction,
    "bool":$lane_dependent
  );
  let assemblyFormat = [{
    `<` `id` `=` $id `,` `kind` `=` $kind `,` `executions` `=` $executions `,`
    `divergent_fraction` `=` $divergent_fraction `,` `lane_dependent` `=`
    $lane_dependent `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The name of the op attribute that holds the branch's facts.
    static constexpr ::llvm::StringLiteral kOpAttrName = "ks.branch";
  }];
}

def KS_FindingAttr : KS_Attr<"Finding", "finding"> {
  let summary = "One thing that is wrong with a kernel, with its evidence";
  let description = [{
    A finding of the performance profiler: its `kind`, `severity`, the
    `metric` it rests on and that metric's `value`, whether the value was
    `predicted` by a static analysis or `measured` on a GPU, the estimated
    `headroom` (the fraction of the kernel's time fixing it could save, in
    [0, 1]), the source location of the evidence, and a `note` a CUDA
    engineer would write. A finding about one access, branch or loop names
    it by `subject`, the `id` of its `#ks.access` or `#ks.branch` in the same
    kernel; one about the whole kernel (occupancy, the roofline) has none:

    ```mlir
    #ks.finding<kind = uncoalesced_access, severity = major,
                metric = "sectors_per_request", value = 3.200000e+01,
                evidence = predicted, headroom = 5.000000e-01,
                loc = loc("gemm.cu":9:20), subject = 1,
                note = "load of b[col * k + p] is strided by k across the warp">
    ```
  }];
  let parameters = (ins
    EnumParameter<KS_FindingKind>:$kind,
    EnumParameter<KS_Severity>:$severity,
    StringRefParameter<"the metric the finding rests on">:$metric,
    KS_RealParameter<"the metric's value">:$value,
    EnumParameter<KS_Evidence>:$evidence,
    KS_RealParameter<"fraction of the kernel's time fixing it could save">:$headroom,
    "::mlir::LocationAttr":$loc,
    OptionalParameter<"std::optional<int64_t>",
                      "id of the #ks.access or #ks.branch it is about">:$subject,
    StringRefParameter<"an explanation for a CUDA engineer">:$note
  );
  let assemblyFormat = [{
    `<` `kind` `=` $kind `,` `severity` `=` $severity `,` `metric` `=` $metric
    `,` `value` `=` $value `,` `evidence` `=` $evidence `,` `headroom` `=`
    $headroom `,` `loc` `=` $loc `,` (`subject` `=` $subject^ `,`)? `note` `=`
    $note `>`
  }];
  let genVerifyDecl = 1;
}

def KS_DiagnosisAttr : KS_Attr<"Diagnosis", "diagnosis"> {
  let summary = "The ranked findings of the performance profiler for a kernel";
  let description = [{
    What is wrong with one kernel: its findings, ranked by estimated headroom,
    largest first (the verifier enforces the order). An empty list means the
    profiler found nothing worth fixing.

    ```mlir
    gpu.func @k(...) kernel attributes {ks.diagnosis = #ks.diagnosis<[
        #ks.finding<...>, #ks.finding<...>]>}
    ```
  }];
  let parameters = (ins ArrayRefParameter<"::mlir::ks::FindingAttr", "findings">:$findings);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The name of the kernel attribute that holds the diagnosis.
    static constexpr ::llvm::StringLiteral kKernelAttrName = "ks.diagnosis";
  }];
}

//===----------------------------------------------------------------------===//
// #ks.proposal
//===----------------------------------------------------------------------===//

def KS_ProposalAttr : KS_Attr<"Proposal", "proposal"> {
  let summary = "What an agent proposes to do to a kernel: a schedule family with open knobs";
  let description = [{
    Written by the memory, compute and resource agents onto each kernel (the
    `ks.proposals` array), read and removed by the agent driver
    (docs/Agents.md). A proposal names the `agent` that made it, the
    `schedule` family it configures (`outer_product`, `split_reduction`: one
    transform op each, docs/Transforms.md), the finding kinds it `answers`,
    the `knobs` it constrains (each an integer knob of the family with the
    values the agent allows, in its order of preference), its resource
    `claims` (`shared_bytes`, `threads`, `registers` per thread: formulas of
    the family's knobs, Support/Formula.h), the `gain` it predicts (the
    fraction of the kernel's time it could save, in [0, 1]) and a
    `rationale` for the transcript. Knobs a proposal does not mention are
    left to the other agents or the family's default.

    ```mlir
    #ks.proposal<agent = "memory", schedule = "outer_product",
                 answers = ["no_reuse"], knobs = {BK = array<i64: 8, 16>},
                 claims = {shared_bytes = "4*STAGES*BK*(BM+PAD_A+BN+PAD_B)"},
                 gain = 0.9, rationale = "stage A and B tiles in shared memory">
    ```
  }];
  let parameters = (ins
    StringRefParameter<"the agent that made the proposal">:$agent,
    StringRefParameter<"the schedule family">:$schedule,
    "::mlir::ArrayAttr":$answers,
    "::mlir::DictionaryAttr":$knobs,
    "::mlir::DictionaryAttr":$claims,
    KS_RealParameter<"the fraction of the kernel's time it could save">:$gain,
    StringRefParameter<"why, for the transcript">:$rationale
  );
  let assemblyFormat = [{
    `<` `agent` `=` $agent `,` `schedule` `=` $schedule `,` `answers` `=` $answers `,`
    `knobs` `=` $knobs `,` `claims` `=` $claims `,` `gain` `=` $gain `,` `rationale` `=`
    $rationale `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The name of the kernel attribute that holds the proposals (an array).
    static constexpr ::llvm::StringLiteral kKernelAttrName = "ks.proposals";
  }];
}

#endif // KS_ATTRS_TD
