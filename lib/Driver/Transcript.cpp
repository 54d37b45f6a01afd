//===- Transcript.cpp - What the agent driver did and why -----------------===//

#include "kernelskill/Driver/Transcript.h"

#include "llvm/Support/Format.h"

using namespace mlir;
using namespace mlir::ks;
using llvm::json::Array;
using llvm::json::Object;

namespace {

double ms(double seconds) { return seconds * 1e3; }

Object knobsJSON(const KnobValues &knobs) {
  Object o;
  for (auto &[name, value] : knobs)
    o[name] = value;
  return o;
}

Object candidateJSON(const Candidate &c) {
  Object o{{"family", std::string(c.family->name)},
                {"knobs", knobsJSON(c.knobs)},
                {"changed_knobs", describeKnobs(c)},
                {"predicted_ms", ms(c.cost.seconds)},
                {"model", c.cost.explanation},
                {"shared_bytes", c.sharedBytes},
                {"threads", c.threads},
                {"registers", c.registers},
                {"registers_from", c.registersFromPtxas ? "ptxas" : "estimate"},
                {"spill_bytes", c.spillBytes},
                {"complexity", c.family->complexity(c.knobs)},
                {"status", c.statusText()}};
  if (c.measuredMs >= 0)
    o["measured_ms"] = c.measuredMs;
  if (c.measuredEnergyJ > 0)
    o["measured_energy_mj"] = c.measuredEnergyJ * 1e3;
  if (!c.verification.empty())
    o["verification"] = c.verification;
  if (c.measuredFromMemory)
    o["measured_from"] = "tuning database";
  if (c.round > 1)
    o["round"] = c.round;
  if (c.calibration != 1) {
    o["calibration"] = c.calibration;
    o["calibrated_ms"] = ms(calibratedSeconds(c));
  }
  return o;
}

/// One family's negotiation: the composed space, the counts, the
/// messages and the arbiter's conflicts.
Object negotiationJSON(const std::string &family, const Negotiation &n) {
  Array messages;
  for (const NegotiationMessage &m : n.messages)
    messages.push_back(
        Object{{"from", m.from}, {"to", m.to}, {"knob", m.knob}, {"text", m.text}});
  Array reasons;
  for (auto &[why, count] : n.verifierReasons)
    reasons.push_back(Object{{"reason", why}, {"points", count}});
  Object space;
  for (auto &[name, values] : n.space) {
    Array v;
    for (int64_t x : values)
      v.push_back(x);
    space[name] = std::move(v);
  }
  Array conflicts;
  for (const Conflict &c : n.arbitration.conflicts) {
    Array offers;
    for (const Offer &o : c.offers) {
      Object offer{{"agent", o.agent.empty() ? "(keep)" : o.agent}};
      if (!o.agent.empty()) {
        Object moves;
        for (const Move &m : o.moves)
          moves[m.knob] = Array{m.from, m.to};
        offer["moves"] = std::move(moves);
      }
      if (o.breaks.empty()) {
        offer["predicted_ms"] = ms(o.seconds);
        offer["blocks_per_sm"] = o.blocksPerSM;
      } else {
        offer["breaks"] = o.breaks;
      }
      offers.push_back(std::move(offer));
    }
    Array parties;
    for (const std::string &p : c.parties)
      parties.push_back(p);
    conflicts.push_back(Object{{"kind", toString(c.kind)},
                               {"parties", std::move(parties)},
                               {"over", c.over},
                               {"offers", std::move(offers)},
                               {"accepted", c.accepted},
                               {"resolution", c.resolution}});
  }
  Object arbiter{{"conflicts", std::move(conflicts)}, {"outcome", n.arbitration.outcome}};
  if (n.arbitration.agreed) {
    Object agreed;
    for (auto &[name, value] : *n.arbitration.agreed)
      agreed[name] = value;
    arbiter["agreed"] = std::move(agreed);
  }
  return Object{{"family", family},
                {"arbiter", std::move(arbiter)},
                {"space", std::move(space)},
                {"considered", n.considered},
                {"rejected_by_verifier", n.rejectedByVerifier},
                {"rejected_by_budget", n.rejectedByBudget},
                {"admissible", int64_t(n.admissible.size())},
                {"verifier_reasons", std::move(reasons)},
                {"messages", std::move(messages)}};
}

} // namespace

Object mlir::ks::toJSON(const KernelDecision &d) {
  Array findings, proposals, negotiations, candidates;
  for (FindingAttr f : d.findings)
    findings.push_back(Object{{"kind", stringifyFindingKind(f.getKind()).str()},
                              {"headroom", f.getHeadroom().convertToDouble()},
                              {"note", f.getNote().str()}});
  for (ProposalAttr p : d.proposals) {
    Object knobs;
    for (NamedAttribute k : p.getKnobs()) {
      Array values;
      for (int64_t v : cast<DenseI64ArrayAttr>(k.getValue()).asArrayRef())
        values.push_back(v);
      knobs[k.getName().str()] = std::move(values);
    }
    Array answers;
    for (Attribute a : p.getAnswers())
      answers.push_back(cast<StringAttr>(a).str());
    Object claims;
    for (NamedAttribute c : p.getClaims())
      claims[c.getName().str()] = cast<StringAttr>(c.getValue()).str();
    proposals.push_back(Object{{"agent", p.getAgent().str()},
                               {"schedule", p.getSchedule().str()},
                               {"answers", std::move(answers)},
                               {"knobs", std::move(knobs)},
                               {"claims", std::move(claims)},
                               {"gain", p.getGain().convertToDouble()},
                               {"rationale", p.getRationale().str()}});
  }
  for (auto &[family, n] : d.negotiations)
    negotiations.push_back(negotiationJSON(family, n));
  for (const Candidate &c : d.evaluated)
    candidates.push_back(candidateJSON(c));
  Object o{{"kernel", d.kernel},
           {"round", d.round},
           {"sizes", d.sizes},
           {"diagnosis", std::move(findings)},
           {"proposals", std::move(proposals)},
           {"negotiation", std::move(negotiations)},
           {"candidates", std::move(candidates)},
           {"compiled_with", d.compiledWith},
           {"restored_original", d.restoredOriginal},
           {"changed", d.changed},
           {"decision", d.decision},
           {"schedule", d.scheduleOp}};
  if (d.predictedBefore >= 0)
    o["predicted_before_ms"] = ms(d.predictedBefore);
  if (d.chosen >= 0)
    o["chosen"] = d.chosen;
  if (!d.measuredWith.empty())
    o["measured_with"] = d.measuredWith;
  if (!d.verifiedWith.empty())
    o["verified_with"] = d.verifiedWith;
  if (d.measuredBeforeMs >= 0)
    o["measured_before_ms"] = d.measuredBeforeMs;
  if (d.measuredBeforeEnergyJ > 0)
    o["measured_before_energy_mj"] = d.measuredBeforeEnergyJ * 1e3;
  if (d.compileSeconds >= 0)
    o["compile_seconds"] = d.compileSeconds;
  if (!d.calibratedWith.empty())
    o["calibrated_with"] = d.calibratedWith;
  if (d.measureSeconds >= 0)
    o["measure_seconds"] = d.measureSeconds;
  if (d.floorMs > 0)
    o["floor_ms"] = d.floorMs;
  if (!d.rounds.empty()) {
    Array rounds;
    for (const RoundDiagnosis &r : d.rounds) {
      Object round{{"round", r.round},
                   {"candidate", r.candidate},
                   {"ms", r.ms},
                   {"evidence", r.measured ? "measured" : "predicted"}};
      if (r.ofFloor() > 0) {
        round["of_floor"] = r.ofFloor();
        round["headroom"] = r.headroom();
        // Not compared with the target (Iteration.h, kBeyondFloor).
        if (r.beyondFloor())
          round["beyond_floor"] = true;
      }
      rounds.push_back(std::move(round));
    }
    o["reprofiled"] = std::move(rounds);
  }
  return o;
}

llvm::json::Value mlir::ks::transcriptJSON(StringRef measure, StringRef gpu,
                                           ArrayRef<KernelDecision> decisions) {
  Array kernels;
  for (const KernelDecision &d : decisions)
    kernels.push_back(toJSON(d));
  return Object{{"measure", measure.str()}, {"gpu", gpu.str()}, {"kernels", std::move(kernels)}};
}

void mlir::ks::printExplanation(llvm::raw_ostream &os, const KernelDecision &d) {
  os << "kernel " << d.kernel << " (" << d.sizes << ")\n";
  for (FindingAttr f : d.findings)
    os << "  finding: " << stringifyFindingKind(f.getKind()) << " (headroom "
       << llvm::format("%.2f", f.getHeadroom().convertToDouble()) << ")\n";
  for (ProposalAttr p : d.proposals)
    os << "  " << p.getAgent() << " agent proposes " << p.getSchedule() << " (gain "
       << llvm::format("%.2f", p.getGain().convertToDouble()) << ")\n";
  for (auto &[family, n] : d.negotiations) {
    os << "  " << family << ": " << n.considered << " points, " << n.admissible.size()
       << " admissible, " << n.messages.size() << " negotiation messages\n";
    for (const Conflict &c : n.arbitration.conflicts)
      os << "  " << c.resolution << "\n";
    if (!n.arbitration.outcome.empty())
      os << "  arbiter: " << n.arbitration.outcome << "\n";
  }
  if (d.chosen >= 0) {
    const Candidate &c = d.evaluated[d.chosen];
    os << "  chosen: " << c.family->name << " " << describeKnobs(c);
    // A family's defaults applied without a prediction (scheduleAnyway).
    if (c.cost.seconds <= 0)
      os << ", not predicted (the family's defaults)";
    else
      os << ", predicted " << llvm::format("%.4f", ms(c.cost.seconds)) << " ms";
    if (c.calibration != 1)
      os << " (calibrated " << llvm::format("%.4f", ms(calibratedSeconds(c))) << " ms)";
    if (d.predictedBefore > 0 && c.cost.seconds > 0)
      os << " vs " << llvm::format("%.4f", ms(d.predictedBefore)) << " ms before ("
         << llvm::format("%.1f", d.predictedBefore / c.cost.seconds) << "x)";
    os << "\n";
    if (c.measuredMs >= 0 && d.measuredBeforeMs > 0)
      os << "  measured: " << llvm::format("%.4f", c.measuredMs) << " ms vs "
         << llvm::format("%.4f", d.measuredBeforeMs) << " ms for the original ("
         << llvm::format("%.2f", d.measuredBeforeMs / c.measuredMs) << "x, verified)\n";
    if (c.measuredEnergyJ > 0 && d.measuredBeforeEnergyJ > 0)
      os << "  energy: " << llvm::format("%.4f", c.measuredEnergyJ * 1e3) << " mJ per launch vs "
         << llvm::format("%.4f", d.measuredBeforeEnergyJ * 1e3) << " mJ for the original ("
         << llvm::format("%.2f", d.measuredBeforeEnergyJ / c.measuredEnergyJ) << "x less)\n";
  } else if (d.measuredBeforeMs > 0) {
    os << "  measured: the original " << llvm::format("%.4f", d.measuredBeforeMs) << " ms\n";
  }
  if (!d.measuredWith.empty())
    os << "  measured with: " << d.measuredWith << "\n";
  if (!d.verifiedWith.empty())
    os << "  verified with: " << d.verifiedWith << "\n";
  for (const RoundDiagnosis &r : d.rounds)
    os << "  re-profiled: " << describeRound(r) << "\n";
  os << "  decision: " << d.decision << "\n";
}
