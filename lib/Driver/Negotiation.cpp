//===- Negotiation.cpp - Composing and negotiating the agents' proposals --===//

#include "kernelskill/Driver/Negotiation.h"
#include "kernelskill/Analysis/Occupancy.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::ks;

namespace {

std::string list(const std::vector<int64_t> &values) {
  std::string s = "{";
  for (size_t i = 0; i < values.size(); ++i)
    s += (i ? ", " : "") + std::to_string(values[i]);
  return s + "}";
}

/// Step 1: the union of the proposals' knob domains, the larger gain's
/// order first. Agents overlap on knobs (the memory agent wants deeper
/// stages, the resource agent fewer): every value someone wants is in the
/// space, and the arbiter weighs who yields (Arbiter.h).
void compose(ArrayRef<ProposalAttr> proposals, Negotiation &n) {
  SmallVector<ProposalAttr> byGain(proposals);
  llvm::stable_sort(byGain, [](ProposalAttr a, ProposalAttr b) {
    return a.getGain().convertToDouble() > b.getGain().convertToDouble();
  });
  for (ProposalAttr p : byGain) {
    for (NamedAttribute knob : p.getKnobs()) {
      std::string name = knob.getName().str();
      auto values = cast<DenseI64ArrayAttr>(knob.getValue()).asArrayRef();
      std::vector<int64_t> wanted(values.begin(), values.end());
      auto it = llvm::find_if(n.space, [&](auto &k) { return k.first == name; });
      if (it == n.space.end()) {
        n.space.emplace_back(name, wanted);
        n.owner[name] = p.getAgent().str();
        continue;
      }
      std::string holder = n.owner[name];
      if (it->second != wanted)
        n.messages.push_back({p.getAgent().str(), holder, name,
                              name + ": " + holder + " agent wants " + list(it->second) + ", " +
                                  p.getAgent().str() + " agent " + list(wanted) +
                                  "; the space keeps both, the arbiter weighs them"});
      for (int64_t v : wanted)
        if (!llvm::is_contained(it->second, v))
          it->second.push_back(v);
      n.owner[name] = holder + "+" + p.getAgent().str();
    }
  }
}

/// The proposals as the arbiter reads them, the larger gain first.
std::vector<AgentWishes> wishesOf(ArrayRef<ProposalAttr> proposals) {
  std::vector<AgentWishes> wishes;
  for (ProposalAttr p : proposals) {
    AgentWishes w;
    w.agent = p.getAgent().str();
    w.gain = p.getGain().convertToDouble();
    for (NamedAttribute knob : p.getKnobs()) {
      auto values = cast<DenseI64ArrayAttr>(knob.getValue()).asArrayRef();
      w.knobs.emplace_back(knob.getName().str(),
                           std::vector<int64_t>(values.begin(), values.end()));
    }
    for (NamedAttribute claim : p.getClaims())
      if (auto text = dyn_cast<StringAttr>(claim.getValue()))
        w.claims[claim.getName().str()] = text.str();
    wishes.push_back(std::move(w));
  }
  llvm::stable_sort(wishes,
                    [](const AgentWishes &a, const AgentWishes &b) { return a.gain > b.gain; });
  return wishes;
}

/// No agent alone could answer a conflict (a budget that needs knobs of
/// several agents changed together): the arbiter proposes the admissible
/// point nearest where the agents stopped (fewest knobs different; the
/// model's faster of equals), and says so.
void mediate(Negotiation &n) {
  const KnobValues &reached = n.arbitration.reached;
  auto distance = [&](const Candidate &c) {
    int64_t differ = 0;
    for (auto &[name, value] : reached)
      if (auto it = c.knobs.find(name); it == c.knobs.end() || it->second != value)
        ++differ;
    return differ;
  };
  const Candidate *nearest = nullptr;
  int64_t best = 0;
  for (const Candidate &c : n.admissible) // fastest first
    if (int64_t d = distance(c); !nearest || d < best) {
      nearest = &c;
      best = d;
    }
  KnobValues agreed;
  for (auto &[name, value] : nearest->knobs)
    if (llvm::any_of(n.space, [&](auto &k) { return k.first == name; }))
      agreed[name] = value;
  n.arbitration.agreed = agreed;
  n.arbitration.mediated = true;
  n.arbitration.outcome =
      llvm::formatv("mediated on {0}: the admissible point nearest the agents' positions ({1} "
                    "knob(s) differ), predicted {2:f4} ms; the agents alone reached {3}",
                    describeKnobs(*nearest), best, nearest->cost.seconds * 1e3,
                    n.arbitration.outcome)
          .str();
}

} // namespace

std::string Candidate::statusText() const {
  switch (status) {
  case CandidateStatus::Admissible:
    return "admissible";
  case CandidateStatus::Compiled:
    return "compiled";
  case CandidateStatus::Rejected:
    return "rejected: " + why;
  case CandidateStatus::ScreenedOut:
    return "screened out: " + why;
  case CandidateStatus::Chosen:
    break;
  }
  return "chosen";
}

void Candidate::setStatusText(StringRef text) {
  why.clear();
  if (text == "admissible")
    status = CandidateStatus::Admissible;
  else if (text == "compiled")
    status = CandidateStatus::Compiled;
  else if (text == "chosen")
    status = CandidateStatus::Chosen;
  else if (text.consume_front("screened out: "))
    status = CandidateStatus::ScreenedOut, why = text.str();
  else if (text.consume_front("rejected: "))
    reject(text.str());
  else
    reject(text.str());
}

ScheduleCost mlir::ks::predictCandidate(const Candidate &c, const KernelShape &shape,
                                        const GPUCapabilities &caps) {
  if (c.family->name == "outer_product")
    return predictOuterProduct(caps, shape.sizes, c.knobs, c.registers, c.sharedBytes);
  if (c.family->name == "row_reduction")
    return predictRowReduction(caps, shape.rows, c.knobs, c.registers, c.sharedBytes);
  if (c.family->name == "transpose_tile")
    return predictTransposeTile(caps, shape.tile, c.knobs, c.registers, c.sharedBytes);
  if (c.family->name == "register_window")
    return predictRegisterWindow(caps, shape.stencil, c.knobs, c.registers, c.sharedBytes);
  return predictSplitReduction(caps, shape.sizes, c.knobs, c.registers, c.sharedBytes);
}

std::string mlir::ks::describeKnobs(const Candidate &c) {
  std::string s;
  for (const Knob &k : c.family->knobs) {
    auto it = c.knobs.find(k.name);
    if (it == c.knobs.end() || it->second == k.defaultValue)
      continue;
    s += (s.empty() ? "" : ",") + std::string(k.name) + "=" + std::to_string(it->second);
  }
  return s.empty() ? "(defaults)" : s;
}

FamilyClaims mlir::ks::claimsOf(const ScheduleFamily &family, ArrayRef<ProposalAttr> proposals) {
  FamilyClaims claims{family.sharedBytes.str(), family.threads.str(), family.registers.str()};
  std::vector<AgentWishes> wishes = wishesOf(proposals);
  for (auto [name, field] : {std::pair{"shared_bytes", &claims.sharedBytes},
                             std::pair{"threads", &claims.threads},
                             std::pair{"registers", &claims.registers}})
    for (const AgentWishes &w : wishes)
      if (auto it = w.claims.find(name); it != w.claims.end()) {
        *field = it->second;
        break;
      }
  return claims;
}

PointPrice mlir::ks::pricePoint(const KernelShape &shape, const ScheduleFamily &family,
                                const FamilyClaims &claims, const KnobValues &values,
                                const GPUCapabilities &caps, const Budgets &budgets,
                                bool registerFile) {
  PointPrice p;
  // The claims first: the arbiter compares what a point the transform
  // rejects would take with what the point it came from takes.
  KnobValues all = family.complete(values);
  p.sharedBytes = evaluateClaim(claims.sharedBytes, all).value_or(0);
  p.threads = evaluateClaim(claims.threads, all).value_or(0);
  p.registers = evaluateClaim(claims.registers, all).value_or(0);
  // The transform's own limits are the chip's; the user's budgets are the
  // negotiation's (below), so that the transcript can say who yielded.
  p.verifier = family.verify(shape, values, caps.maxThreadsPerBlock, caps.smemPerBlock);
  if (!p.verifier.empty())
    return p;
  p.occupancy = computeOccupancy(caps, {p.threads, p.registers, p.sharedBytes, 0});
  auto broke = [&](ConflictKind kind, std::string text) {
    p.brokenBudget = kind;
    p.budget = std::move(text);
  };
  if (p.threads > budgets.maxThreads)
    broke(ConflictKind::Threads,
          "threads " + std::to_string(p.threads) + " > " + std::to_string(budgets.maxThreads));
  else if (p.sharedBytes > budgets.maxSharedBytes)
    broke(ConflictKind::SharedMemory, "shared memory " + std::to_string(p.sharedBytes) +
                                          " B > " + std::to_string(budgets.maxSharedBytes));
  else if (p.registers > budgets.maxRegisters)
    broke(ConflictKind::Registers, "registers " + std::to_string(p.registers) +
                                       " > max-registers " +
                                       std::to_string(budgets.maxRegisters));
  else if (registerFile && p.registers > registersAllowed(p.threads, caps, budgets))
    broke(ConflictKind::Registers,
          "registers " + std::to_string(p.registers) + " > the " +
              std::to_string(registersAllowed(p.threads, caps, budgets)) + " a block of " +
              std::to_string(p.threads) + " threads leaves each");
  else if (budgets.minOccupancy > 0 && p.occupancy.occupancy < budgets.minOccupancy)
    broke(ConflictKind::Occupancy, "occupancy " + std::to_string(p.occupancy.occupancy) +
                                       " < min-occupancy " +
                                       std::to_string(budgets.minOccupancy));
  if (!p.budget.empty())
    return p;
  Candidate c;
  c.family = &family;
  c.knobs = all;
  c.sharedBytes = p.sharedBytes;
  c.threads = p.threads;
  c.registers = p.registers;
  p.seconds = predictCandidate(c, shape, caps).seconds;
  return p;
}

Negotiation mlir::ks::negotiate(const KernelShape &shape, const ScheduleFamily &family,
                                ArrayRef<ProposalAttr> proposals, const GPUCapabilities &caps,
                                const Budgets &budgets) {
  Negotiation n;
  compose(proposals, n);
  FamilyClaims claims = claimsOf(family, proposals);
  int64_t points = 1;
  for (auto &[name, values] : n.space)
    points *= int64_t(values.size());
  if (points > kMaxPoints)
    n.messages.push_back({"driver", "driver", "",
                          std::to_string(points) + " points in the composed space; the first " +
                              std::to_string(kMaxPoints) + " in preference order are searched"});

  // Which values of each knob some admissible point keeps, and which budget
  // excluded the others.
  std::map<std::string, std::map<int64_t, bool>> kept;
  std::map<std::string, std::map<int64_t, std::string>> excludedBy;
  std::vector<size_t> index(n.space.size(), 0);
  for (int64_t visited = 0; visited < std::min(points, kMaxPoints); ++visited) {
    KnobValues values;
    for (size_t i = 0; i < n.space.size(); ++i)
      values[n.space[i].first] = n.space[i].second[index[i]];
    // Next point: the last knob varies fastest, so the first points are
    // the agents' first preferences.
    for (size_t i = n.space.size(); i-- > 0;) {
      if (++index[i] < n.space[i].second.size())
        break;
      index[i] = 0;
    }
    ++n.considered;
    PointPrice price =
        pricePoint(shape, family, claims, values, caps, budgets, /*registerFile=*/false);
    if (!price.verifier.empty()) {
      ++n.rejectedByVerifier;
      ++n.verifierReasons[price.verifier];
      continue;
    }
    for (auto &[name, v] : values) {
      if (price.budget.empty())
        kept[name][v] = true;
      else if (!kept[name][v] && !excludedBy[name].count(v))
        excludedBy[name][v] = price.budget;
    }
    if (!price.budget.empty()) {
      ++n.rejectedByBudget;
      continue;
    }
    Candidate c;
    c.family = &family;
    c.knobs = family.complete(values);
    c.sharedBytes = price.sharedBytes;
    c.threads = price.threads;
    c.registers = price.registers;
    c.cost = predictCandidate(c, shape, caps);
    if (std::isfinite(c.cost.seconds))
      n.admissible.push_back(std::move(c));
  }
  // A value no admissible point keeps was yielded to a budget.
  for (auto &[name, values] : n.space)
    for (int64_t v : values)
      if (!kept[name][v] && excludedBy[name].count(v))
        n.messages.push_back({n.owner[name], "driver", name,
                              n.owner[name] + " agent yields " + name + "=" + std::to_string(v) +
                                  ": every point with it breaks a budget (" +
                                  excludedBy[name][v] + ")"});
  llvm::stable_sort(n.admissible, [](const Candidate &a, const Candidate &b) {
    return a.cost.seconds < b.cost.seconds;
  });
  // The agents' own conflicts: from their first preferences to a point
  // they agree on, which the driver evaluates first.
  n.arbitration = arbitrate(shape, family, wishesOf(proposals), claims, caps, budgets);
  if (!n.arbitration.agreed && !n.admissible.empty())
    mediate(n);
  for (const Conflict &c : n.arbitration.conflicts)
    n.messages.push_back({llvm::join(c.parties, "+"), "arbiter",
                          c.kind == ConflictKind::Knob ? c.over.substr(0, c.over.find(':')) : "",
                          c.resolution});
  n.messages.push_back({"arbiter", "driver", "", n.arbitration.outcome});
  return n;
}

int64_t mlir::ks::registersAllowed(int64_t threads, const GPUCapabilities &caps,
                                   const Budgets &budgets) {
  int64_t limit = std::min(caps.maxRegsPerThread, budgets.maxRegisters);
  if (threads > 0 && caps.regsPerBlock > 0)
    limit = std::min(limit, caps.regsPerBlock / threads);
  return limit;
}

bool mlir::ks::spilledAtRegisterLimit(int64_t registers, int64_t threads,
                                      const GPUCapabilities &caps, const Budgets &budgets) {
  return registers + 8 >= registersAllowed(threads, caps, budgets);
}

std::vector<const Candidate *>
mlir::ks::knobNeighbours(const Candidate &center, const std::vector<Candidate> &ranked,
                         ArrayRef<std::pair<std::string, std::vector<int64_t>>> space,
                         ArrayRef<Candidate> evaluated) {
  // Steps go by value: the space lists each knob's values in the agents'
  // order of preference ({128, 256, 32}), not sorted.
  std::map<std::string, std::vector<int64_t>, std::less<>> sorted;
  for (auto &[name, values] : space) {
    std::vector<int64_t> v = values;
    llvm::sort(v);
    sorted[name] = std::move(v);
  }
  auto stepOf = [&](StringRef knob, int64_t value) -> std::optional<size_t> {
    auto it = sorted.find(knob);
    if (it == sorted.end())
      return std::nullopt;
    auto at = llvm::find(it->second, value);
    if (at == it->second.end())
      return std::nullopt;
    return size_t(at - it->second.begin());
  };
  std::vector<const Candidate *> out;
  for (const Candidate &c : ranked) {
    if (c.family != center.family || c.knobs.size() != center.knobs.size())
      continue;
    int differing = 0;
    bool adjacent = true;
    for (auto &[name, value] : c.knobs) {
      auto it = center.knobs.find(name);
      if (it == center.knobs.end()) {
        adjacent = false;
        break;
      }
      if (it->second == value)
        continue;
      ++differing;
      std::optional<size_t> a = stepOf(name, value), b = stepOf(name, it->second);
      adjacent &= a && b && (*a + 1 == *b || *b + 1 == *a);
    }
    if (differing != 1 || !adjacent)
      continue;
    if (llvm::any_of(evaluated, [&](const Candidate &e) {
          return e.family == c.family && e.knobs == c.knobs;
        }))
      continue;
    out.push_back(&c);
  }
  return out;
}
