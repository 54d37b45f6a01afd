//===- AgentDriver.cpp - Negotiate, rank, compile, apply ------------------===//
//
// The agent driver (docs/Agents.md): Negotiation.cpp composes and ranks the
// agents' proposals; this pass compiles the best candidates on copies of
// the module, applies the winner as a transform script (the same script
// `schedule=FILE` writes, so the file reproduces the result) and records
// every step.
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Analysis/KernelProfile.h"
#include "kernelskill/Dialect/KS/IR/KSAttrs.h"
#include "kernelskill/Driver/Negotiation.h"
#include "kernelskill/Driver/Passes.h"
#include "kernelskill/Driver/Transcript.h"
#include "kernelskill/Target/Lowering.h"
#include "kernelskill/Config.h"
#include "kernelskill/Runtime/TuningDB.h"
#include "kernelskill/Target/PTXAS.h"

#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/Dialect/Transform/Transforms/TransformInterpreterUtils.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/xxhash.h"
#include "llvm/Support/ToolOutputFile.h"

namespace mlir::ks {
#define GEN_PASS_DEF_KSAGENTDRIVER
#include "kernelskill/Driver/Passes.h.inc"
} // namespace mlir::ks

using namespace mlir;
using namespace mlir::ks;

namespace {

/// The transform op that applies `c` to the kernel matched as `%handle`.
std::string opText(const Candidate &c, StringRef handle, StringRef result) {
  return (Twine("%") + result + " = " + c.family->transformOp + " %" + handle + " " +
          c.family->opAttributes(c.knobs) + " : (!transform.any_op) -> !transform.any_op")
      .str();
}

/// A transform script applying each (kernel, op) pair; with `raise`, the
/// lifted input is raised first (a standalone schedule).
std::string scriptText(ArrayRef<std::pair<std::string, const Candidate *>> steps, bool raise) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "module attributes {transform.with_named_sequence} {\n"
     << "  transform.named_sequence @__transform_main(%root: !transform.any_op {"
     << (raise ? "transform.consumed" : "transform.readonly") << "}) {\n";
  StringRef payload = "root";
  if (raise) {
    os << "    %raised = transform.apply_registered_pass \"ks-raise\" to %root : "
          "(!transform.any_op) -> !transform.any_op\n";
    payload = "raised";
  }
  for (auto [i, step] : llvm::enumerate(steps)) {
    std::string k = "k" + std::to_string(i), r = "r" + std::to_string(i);
    os << "    %" << k << " = transform.structured.match ops{[\"gpu.func\"]} attributes "
       << "{sym_name = \"" << step.first << "\"} in %" << payload
       << " : (!transform.any_op) -> !transform.any_op\n"
       << "    " << opText(*step.second, k, r) << "\n";
  }
  os << "    transform.yield\n  }\n}\n";
  return s;
}

/// In a copy made to compile one candidate, the other raised kernels (still
/// linalg, which only a schedule lowers) become empty: only the candidate's
/// figures are read from the copy.
void emptyOtherRaisedKernels(ModuleOp copy, StringRef keep) {
  copy.walk([&](gpu::GPUFuncOp f) {
    if (!f.isKernel() || f.getName() == keep || !f->hasAttr("ks.raised"))
      return;
    Region &body = f.getBody();
    while (body.getBlocks().size() > 1)
      body.back().erase();
    Block &entry = body.front();
    while (!entry.empty())
      entry.back().erase();
    OpBuilder b = OpBuilder::atBlockEnd(&entry);
    gpu::ReturnOp::create(b, f.getLoc());
  });
}

/// Parses `script` in `payload`'s context and applies it to `payload`.
LogicalResult applyScript(ModuleOp payload, StringRef script) {
  OwningOpRef<ModuleOp> transforms = parseSourceString<ModuleOp>(script, payload.getContext());
  if (!transforms)
    return failure();
  transform::NamedSequenceOp entry;
  transforms->walk([&](transform::NamedSequenceOp op) {
    if (op.getSymName() == "__transform_main")
      entry = op;
  });
  if (!entry)
    return failure();
  return transform::applyTransformNamedSequence(payload, entry, *transforms,
                                                transform::TransformOptions());
}

/// A fingerprint of the kernel's code: its generic form without the facts
/// the profilers and agents attach (they describe the code, they are not it).
std::string fingerprintOf(gpu::GPUFuncOp kernel) {
  OwningOpRef<Operation *> copy = kernel->clone();
  for (StringRef name : {DiagnosisAttr::kKernelAttrName.data(), ProposalAttr::kKernelAttrName.data(),
                         kPredictedTimeAttrName.data(), ResourcesAttr::kKernelAttrName.data()})
    (*copy)->removeAttr(name);
  (*copy)->walk([](Operation *op) {
    op->removeAttr(AccessAttr::kOpAttrName);
    op->removeAttr(BranchAttr::kOpAttrName);
  });
  std::string text;
  llvm::raw_string_ostream os(text);
  (*copy)->print(os, OpPrintingFlags().printGenericOpForm().elideLargeElementsAttrs());
  return llvm::formatv("{0:x16}", llvm::xxh3_64bits(text)).str();
}

/// Long-term memory of compiled candidates (Runtime/TuningDB.h): one record
/// per (kernel fingerprint, GPU, op attributes) with ptxas's verdict.
class CompileMemory {
public:
  CompileMemory(StringRef path, std::string fingerprint, std::string gpu, std::string chip,
                int optLevel)
      : fingerprint(std::move(fingerprint)), gpu(std::move(gpu)), chip(std::move(chip)),
        optLevel(optLevel) {
#if !KS_HAVE_TUNING_DB
    return; // built without SQLite: the short-term memory only
#endif
    if (path == "none")
      return;
    std::string where = path.empty() ? runtime::TuningDB::defaultPath() : path.str();
    db = runtime::TuningDB::open(where, error);
    if (!db)
      return;
    if (auto records = db->query(this->fingerprint, this->gpu, std::nullopt, error))
      for (const runtime::MeasurementRecord &r : *records) {
        llvm::Expected<llvm::json::Value> v = llvm::json::parse(r.results);
        if (!v) {
          llvm::consumeError(v.takeError());
          continue;
        }
        const llvm::json::Object *o = v->getAsObject();
        if (!o || o->getString("kind") != "ptxas" || o->getInteger("opt_level") != optLevel ||
            r.chip != this->chip)
          continue;
        known[r.schedule] = {o->getInteger("registers").value_or(0),
                             o->getInteger("spill_bytes").value_or(0),
                             o->getString("status").value_or("").str()};
      }
  }
  struct Verdict {
    int64_t registers = 0, spillBytes = 0;
    std::string status; ///< "compiled" or "rejected: ..."
  };
  const Verdict *lookup(const std::string &schedule) const {
    auto it = known.find(schedule);
    return it == known.end() ? nullptr : &it->second;
  }
  void remember(const std::string &schedule, const Verdict &v) {
    known[schedule] = v;
#if !KS_HAVE_TUNING_DB
    return;
#endif
    if (!db)
      return;
    runtime::MeasurementRecord r;
    r.fingerprint = fingerprint;
    r.gpuName = gpu;
    r.chip = chip;
    r.schedule = schedule;
    r.workload = "{}";
    r.ksVersion = KS_VERSION_STRING;
    llvm::json::Object results{{"kind", "ptxas"},          {"opt_level", optLevel},
                               {"registers", v.registers}, {"spill_bytes", v.spillBytes},
                               {"status", v.status}};
    r.results = llvm::formatv("{0}", llvm::json::Value(std::move(results))).str();
    std::string ignored;
    db->insert(r, ignored);
  }
  bool enabled() const { return db != nullptr; }
  std::string error;

private:
  std::unique_ptr<runtime::TuningDB> db;
  std::string fingerprint, gpu, chip;
  int optLevel;
  std::map<std::string, Verdict> known;
};

struct AgentDriver : ks::impl::KSAgentDriverBase<AgentDriver> {
  using Base::Base;

  void runOnOperation() override;

private:
  void decide(gpu::GPUFuncOp kernel, KernelDecision &d, const GPUCapabilities &caps,
              const Budgets &budgets, const llvm::StringMap<int64_t> &workloadValues,
              StringRef chip, StringRef sku, const std::optional<std::string> &ptxasPath);
  bool writeFile(StringRef path, StringRef text);
  void scheduleAnyway(gpu::GPUFuncOp kernel, KernelDecision &d, const KernelShape &shape,
                      const std::vector<Candidate> &ranked, const GPUCapabilities &caps,
                      const std::string &reason);
};

/// A raised kernel holds linalg on tensors, launched as one thread: only a
/// schedule lowers it. When the driver keeps no candidate for it, it still
/// applies one — the best compiled, else the best admissible, else the
/// family's defaults — and says so; the kernel is never left unlowerable.
void AgentDriver::scheduleAnyway(gpu::GPUFuncOp kernel, KernelDecision &d,
                                 const KernelShape &shape, const std::vector<Candidate> &ranked,
                                 const GPUCapabilities &caps, const std::string &reason) {
  std::optional<Candidate> pick;
  for (const Candidate &c : d.evaluated)
    if (!pick && c.status == "compiled")
      pick = c;
  if (!pick && !ranked.empty())
    pick = ranked.front();
  if (!pick) {
    // The family's defaults; a raised kernel without a contraction is its
    // iteration space, mapped back onto threads (256 per block).
    const ScheduleFamily *family =
        lookupScheduleFamily(!shape.problem                    ? "one_per_thread"
                             : shape.cls == ProblemClass::Gemm ? "outer_product"
                                                               : "split_reduction");
    Candidate c;
    c.family = family;
    c.knobs = family->complete({});
    if (!shape.problem ||
        family->verify(*shape.problem, {}, caps.maxThreadsPerBlock, caps.smemPerBlock).empty())
      pick = c;
  }
  std::string script = pick ? scriptText({{d.kernel, &*pick}}, /*raise=*/false) : "";
  if (!pick || failed(applyScript(getOperation(), script))) {
    kernel.emitError() << "ks-agent-driver: " << reason
                       << "; and no schedule applies to the raised kernel, which cannot be "
                          "lowered without one (run the pipeline with optimize=false)";
    d.decision = reason + "; no schedule applies: the raised kernel cannot be lowered";
    return signalPassFailure();
  }
  pick->status = "chosen";
  d.evaluated.push_back(*pick);
  d.chosen = int(d.evaluated.size()) - 1;
  d.changed = true;
  d.scheduleOp = opText(*pick, "k", "r");
  d.decision = reason + "; scheduled anyway with " + std::string(pick->family->name) + " " +
               describeKnobs(*pick) + ": a raised kernel is lowered only through a schedule";
}

bool AgentDriver::writeFile(StringRef path, StringRef text) {
  std::error_code ec;
  llvm::ToolOutputFile file(path, ec, llvm::sys::fs::OF_Text);
  if (ec) {
    emitError(getOperation().getLoc()) << "ks-agent-driver: cannot write '" << path
                                       << "': " << ec.message();
    return false;
  }
  file.os() << text;
  file.keep();
  return true;
}

void AgentDriver::decide(gpu::GPUFuncOp kernel, KernelDecision &d, const GPUCapabilities &caps,
                         const Budgets &budgets, const llvm::StringMap<int64_t> &workloadValues,
                         StringRef chip, StringRef sku,
                         const std::optional<std::string> &ptxasPath) {
  ModuleOp module = getOperation();
  d.kernel = kernel.getName().str();
  if (auto t = kernel->getAttrOfType<FloatAttr>(kPredictedTimeAttrName))
    d.predictedBefore = t.getValueAsDouble();
  if (auto diagnosis = kernel->getAttrOfType<DiagnosisAttr>(DiagnosisAttr::kKernelAttrName))
    llvm::append_range(d.findings, diagnosis.getFindings());
  if (auto list = kernel->getAttrOfType<ArrayAttr>(ProposalAttr::kKernelAttrName))
    for (Attribute a : list)
      d.proposals.push_back(cast<ProposalAttr>(a));
  kernel->removeAttr(ProposalAttr::kKernelAttrName);

  KernelShape shape = readKernelShape(kernel, module, workloadValues);
  d.sizes = "m=" + std::to_string(shape.sizes.m) + ", n=" + std::to_string(shape.sizes.n) +
            ", k=" + std::to_string(shape.sizes.k) + ", batch=" + std::to_string(shape.sizes.batch) +
            (shape.sizesFrom.empty() ? "" : " (" + shape.sizesFrom + ")");
  if (!shape.problem) {
    if (kernel->hasAttr("ks.raised"))
      return scheduleAnyway(kernel, d, shape, {}, caps, shape.whyNot);
    d.decision = "unchanged: " + shape.whyNot;
    return;
  }
  if (d.proposals.empty())
    return scheduleAnyway(kernel, d, shape, {}, caps,
                          "no agent proposed anything (no finding their rules answer)");

  // Steps 1-3 per family; the families exclude each other (one schedule
  // per kernel), so their candidates compete in one ranking.
  std::vector<Candidate> ranked;
  for (const ScheduleFamily *family : allScheduleFamilies()) {
    SmallVector<ProposalAttr> mine;
    for (ProposalAttr p : d.proposals)
      if (p.getSchedule() == family->name)
        mine.push_back(p);
    if (mine.empty())
      continue;
    Negotiation n = negotiate(shape, *family, mine, caps, budgets);
    llvm::append_range(ranked, n.admissible);
    d.negotiations.emplace_back(family->name.str(), std::move(n));
  }
  for (ProposalAttr p : d.proposals)
    if (!lookupScheduleFamily(p.getSchedule()))
      kernel.emitWarning() << "ks-agent-driver: unknown schedule family '" << p.getSchedule()
                           << "' in a proposal of the " << p.getAgent() << " agent: ignored";
  llvm::stable_sort(ranked, [](const Candidate &a, const Candidate &b) {
    return a.cost.seconds < b.cost.seconds;
  });
  if (ranked.empty())
    return scheduleAnyway(kernel, d, shape, ranked, caps,
                          "no point of the proposals fits the verifier and the budgets");

  // Step 4: compile the best `budget` on copies of the module.
  int64_t count = std::min<int64_t>(std::max(budget.getValue(), 1), int64_t(ranked.size()));
  d.compiledWith = ptxasPath ? "ptxas " + *ptxasPath + " (" + chip.str() + ", -O" +
                                   std::to_string(optLevel) + ")"
                             : "no ptxas found: transforms applied to copies, registers "
                               "estimated";
  // Points the model cannot tell apart (same time and claims) are compiled
  // once: the first in the agents' order of preference. A candidate that
  // spills lowers the register budget to below its estimate, so the next
  // ones the estimate puts at least as high are not compiled either.
  int64_t registerCap = budgets.maxRegisters;
  int64_t fromMemory = 0;
  CompileMemory memory(db, fingerprintOf(kernel), sku.str(), chip.str(), optLevel);
  if (!memory.error.empty())
    kernel.emitWarning() << "ks-agent-driver: tuning database not used: " << memory.error;
  std::vector<const Candidate *> seen;
  int64_t skippedSame = 0, skippedCap = 0;
  for (size_t next = 0; next < ranked.size() && int64_t(d.evaluated.size()) < count; ++next) {
    Candidate c = ranked[next];
    if (llvm::any_of(seen, [&](const Candidate *s) {
          return s->cost.seconds == c.cost.seconds && s->registers == c.registers &&
                 s->sharedBytes == c.sharedBytes && s->threads == c.threads;
        })) {
      ++skippedSame;
      continue;
    }
    if (c.registers > registerCap) {
      ++skippedCap;
      continue;
    }
    seen.push_back(&ranked[next]);
    int64_t estimate = c.registers;
    std::string script = scriptText({{d.kernel, &c}}, /*raise=*/false);
    std::string attributes = c.family->opAttributes(c.knobs);
    if (ptxasPath) {
      // ptxas's verdict: from the tuning database when an earlier run
      // compiled this point, else from compiling it now.
      CompileMemory::Verdict verdict;
      if (const CompileMemory::Verdict *v = memory.lookup(attributes)) {
        verdict = *v;
        ++fromMemory;
      } else {
        std::string error;
        auto report = lowerAndAssemble(module, *ptxasPath, chip, optLevel, error,
                                       [&](ModuleOp copy) {
                                         emptyOtherRaisedKernels(copy, d.kernel);
                                         return applyScript(copy, script);
                                       });
        if (failed(report)) {
          // Not remembered: a failure may come from the rest of the module.
          c.status = "rejected: " + error;
          d.evaluated.push_back(std::move(c));
          continue;
        }
        verdict.registers = c.registers;
        for (auto &[name, info] : *report) {
          if (name != d.kernel && name != d.kernel + "_split_init")
            continue;
          verdict.spillBytes += info.spillStoreBytes + info.spillLoadBytes;
          if (name == d.kernel)
            verdict.registers = info.registers;
        }
        verdict.status = verdict.spillBytes > 0 ? "rejected: ptxas spills " +
                                                      std::to_string(verdict.spillBytes) + " bytes"
                                                : "compiled";
        memory.remember(attributes, verdict);
      }
      c.registers = verdict.registers;
      c.registersFromPtxas = true;
      c.spillBytes = verdict.spillBytes;
      if (verdict.status != "compiled") {
        c.status = verdict.status;
        if (c.spillBytes > 0 && estimate <= registerCap) {
          registerCap = estimate - 1;
          d.negotiations.back().second.messages.push_back(
              {"resource", "driver", "registers",
               "ptxas spilled " + describeKnobs(c) + " (estimated " + std::to_string(estimate) +
                   " registers): the register budget for the remaining candidates is " +
                   std::to_string(registerCap) + " by the estimate"});
        }
        d.evaluated.push_back(std::move(c));
        continue;
      }
    } else {
      OwningOpRef<ModuleOp> copy = cast<ModuleOp>(module->clone());
      ScopedDiagnosticHandler quiet(&getContext(), [](Diagnostic &) { return success(); });
      if (failed(applyScript(*copy, script))) {
        c.status = "rejected: the transform did not apply";
        d.evaluated.push_back(std::move(c));
        continue;
      }
    }
    if (c.registersFromPtxas && c.registers > budgets.maxRegisters) {
      c.status = "rejected: ptxas allocates " + std::to_string(c.registers) +
                 " registers > max-registers " + std::to_string(budgets.maxRegisters);
      d.evaluated.push_back(std::move(c));
      continue;
    }
    c.cost = predictCandidate(c, shape, caps);
    c.status = "compiled";
    d.evaluated.push_back(std::move(c));
  }
  if (fromMemory)
    d.compiledWith += "; " + std::to_string(fromMemory) + " of " +
                      std::to_string(d.evaluated.size()) +
                      " candidates' ptxas results from the tuning database";

  if (skippedSame || skippedCap)
    d.negotiations.back().second.messages.push_back(
        {"driver", "driver", "",
         std::to_string(skippedSame) + " points the model rates like a compiled one and " +
             std::to_string(skippedCap) +
             " over the lowered register budget were not compiled"});

  // Step 5: the fastest compiled candidate; between equal predictions the
  // simpler one. (Preferring the simpler one within a margin is for
  // measurements, whose noise is known; the model's error is not noise:
  // measured, run 3 lost up to 1.6x to "simpler within 3%".)
  int best = -1;
  for (auto [i, c] : llvm::enumerate(d.evaluated)) {
    if (c.status != "compiled")
      continue;
    if (best < 0 || c.cost.seconds < d.evaluated[best].cost.seconds ||
        (c.cost.seconds == d.evaluated[best].cost.seconds &&
         c.family->complexity(c.knobs) <
             d.evaluated[best].family->complexity(d.evaluated[best].knobs)))
      best = int(i);
  }
  if (best < 0)
    return scheduleAnyway(kernel, d, shape, ranked, caps,
                          "every compiled candidate was rejected");
  int chosen = best;
  Candidate &winner = d.evaluated[chosen];
  if (d.predictedBefore > 0 && winner.cost.seconds >= d.predictedBefore) {
    std::string why = llvm::formatv("the best candidate is predicted no faster than the "
                                    "kernel ({0:e3} s vs {1:e3} s)",
                                    winner.cost.seconds, d.predictedBefore)
                          .str();
    // A raised kernel cannot stay as it is (see scheduleAnyway).
    return scheduleAnyway(kernel, d, shape, {winner}, caps, why);
  }
  std::string script = scriptText({{d.kernel, &winner}}, /*raise=*/false);
  if (failed(applyScript(module, script))) {
    kernel.emitWarning() << "ks-agent-driver: the winning schedule did not apply to the kernel "
                            "after it applied to a copy";
    d.decision = "unchanged: the winning schedule failed on the kernel itself";
    return;
  }
  winner.status = "chosen";
  d.chosen = chosen;
  d.changed = true;
  d.scheduleOp = opText(winner, "k", "r");
  d.decision = "applied " + std::string(winner.family->name) + " " + describeKnobs(winner) +
               ": predicted fastest of " + std::to_string(d.evaluated.size()) + " compiled";
}

void AgentDriver::runOnOperation() {
  ModuleOp module = getOperation();
  std::string error;
  FailureOr<llvm::StringMap<int64_t>> workloadValues = parseWorkloadOption(workload, error);
  if (failed(workloadValues)) {
    emitError(module.getLoc()) << "ks-agent-driver: " << error;
    return signalPassFailure();
  }
  if (optLevel < 0 || optLevel > 3) {
    emitError(module.getLoc()) << "ks-agent-driver: opt-level must be 0 to 3, got "
                               << int(optLevel);
    return signalPassFailure();
  }
  auto [sku, caps] = getTargetGPU(module);
  auto arch = module->getAttrOfType<ArchAttr>(ArchAttr::kModuleAttrName);
  std::string chip = arch ? arch.getChip().str() : std::string(getDefaultGPU().chip);
  Budgets budgets;
  budgets.maxThreads = caps.maxThreadsPerBlock;
  budgets.maxSharedBytes = maxShared > 0 ? std::min<int64_t>(maxShared, caps.smemPerBlock)
                                         : caps.smemPerBlock;
  budgets.maxRegisters = std::min<int64_t>(maxRegisters, caps.maxRegsPerThread);
  budgets.minOccupancy = minOccupancy;
  std::optional<std::string> ptxasPath = findPtxas(ptxas);

  SmallVector<gpu::GPUFuncOp> kernels;
  module.walk([&](gpu::GPUFuncOp k) {
    if (k.isKernel())
      kernels.push_back(k);
  });
  std::vector<KernelDecision> decisions;
  for (gpu::GPUFuncOp kernel : kernels) {
    KernelDecision &d = decisions.emplace_back();
    decide(kernel, d, caps, budgets, *workloadValues, chip, sku, ptxasPath);
    if (explain)
      printExplanation(llvm::errs(), d);
  }

  if (!transcript.empty()) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << llvm::formatv("{0:2}", transcriptJSON("static", sku, decisions)) << "\n";
    if (!writeFile(transcript, text))
      return signalPassFailure();
  }
  if (!schedule.empty()) {
    std::vector<std::pair<std::string, const Candidate *>> steps;
    for (const KernelDecision &d : decisions)
      if (d.chosen >= 0)
        steps.emplace_back(d.kernel, &d.evaluated[d.chosen]);
    std::string text = "// The schedule ks-agent-driver chose (measure=static, " + sku +
                       "): apply to the lifted module with\n//   ks-opt IN.mlir "
                       "--transform-preload-library=\"transform-library-paths=THIS\" "
                       "--transform-interpreter --canonicalize --cse\n" +
                       scriptText(steps, /*raise=*/true);
    if (!writeFile(schedule, text))
      return signalPassFailure();
  }
}

} // namespace
