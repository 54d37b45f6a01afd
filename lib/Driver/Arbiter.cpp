//===- Arbiter.cpp - Resolving the agents' conflicts over budgets ---------===//

#include "kernelskill/Driver/Arbiter.h"
#include "kernelskill/Driver/Negotiation.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <cctype>
#include <set>
#include <tuple>

using namespace mlir;
using namespace mlir::ks;

const char *mlir::ks::toString(ConflictKind kind) {
  switch (kind) {
  case ConflictKind::Knob:
    return "knob";
  case ConflictKind::Verifier:
    return "transform";
  case ConflictKind::Threads:
    return "threads";
  case ConflictKind::SharedMemory:
    return "shared memory";
  case ConflictKind::Registers:
    return "registers";
  case ConflictKind::Occupancy:
    break;
  }
  return "occupancy";
}

std::vector<std::string> mlir::ks::knobsInFormula(StringRef formula) {
  std::vector<std::string> names;
  for (size_t i = 0; i < formula.size();) {
    char c = formula[i];
    if (!(std::isalpha(static_cast<unsigned char>(c)) || c == '_')) {
      // Skip numbers whole (so "1e3" is no name).
      ++i;
      while (std::isdigit(static_cast<unsigned char>(c)) && i < formula.size() &&
             std::isalnum(static_cast<unsigned char>(formula[i])))
        ++i;
      continue;
    }
    size_t end = i;
    while (end < formula.size() &&
           (std::isalnum(static_cast<unsigned char>(formula[end])) || formula[end] == '_'))
      ++end;
    std::string name = formula.slice(i, end).str();
    size_t after = formula.find_first_not_of(' ', end);
    bool function = after != StringRef::npos && formula[after] == '(';
    if (!function && !llvm::is_contained(names, name))
      names.push_back(name);
    i = end;
  }
  return names;
}

std::string Offer::describeMoves() const {
  return llvm::join(llvm::map_range(moves,
                                    [](const Move &m) {
                                      return m.knob + "=" + std::to_string(m.to);
                                    }),
                    ",");
}

namespace {

std::string ms(double seconds) { return llvm::formatv("{0:f4} ms", seconds * 1e3).str(); }

/// The arbiter's state: the point the agents stand on and each agent's
/// wishes.
class Arbiter {
public:
  Arbiter(const KernelShape &shape, const ScheduleFamily &family, ArrayRef<AgentWishes> wishes,
          const FamilyClaims &formulas, const GPUCapabilities &caps, const Budgets &budgets)
      : shape(shape), family(family), wishes(wishes), formulas(formulas), caps(caps),
        budgets(budgets) {}

  Arbitration run();

private:
  PointPrice price(const KnobValues &point) const {
    return pricePoint(shape, family, formulas, point, caps, budgets, /*registerFile=*/true);
  }
  const std::vector<int64_t> *listOf(const AgentWishes &w, StringRef knob) const {
    for (auto &[name, values] : w.knobs)
      if (name == knob)
        return &values;
    return nullptr;
  }
  /// The point with `values` (knob -> value) of agent `w` (null: the point
  /// as it is), priced; `kind`'s resource is the offer's use.
  Offer offerWith(const AgentWishes *w, const KnobValues &values, ConflictKind kind) const;
  /// `w`'s re-plan for a conflict of `kind` over `contested` knobs: the
  /// combination of its own values for them that fits with the fewest
  /// knobs changed (the fastest of those; for occupancy the fastest that
  /// frees the resource), else the fewest changed that answers the
  /// conflict; none when nothing it has answers it.
  std::optional<Offer> replan(const AgentWishes &w, ArrayRef<std::string> contested,
                              ConflictKind kind, ConflictKind resource,
                              const PointPrice &now) const;
  double gainOf(StringRef agent) const {
    for (const AgentWishes &w : wishes)
      if (w.agent == agent)
        return w.gain;
    return 0;
  }
  void seed();
  /// The next knob (not in `settled`) whose agents want different values
  /// first; it joins `settled`.
  std::optional<Conflict> knobConflict(std::set<std::string> &settled) const;
  /// The offers of the agents whose knobs `kind`'s resource depends on.
  std::vector<Offer> counterProposals(ConflictKind kind, const PointPrice &now) const;
  static int64_t useOf(ConflictKind kind, const PointPrice &p) {
    switch (kind) {
    case ConflictKind::Threads:
      return p.threads;
    case ConflictKind::SharedMemory:
      return p.sharedBytes;
    case ConflictKind::Registers:
      return p.registers;
    default:
      return 0;
    }
  }
  std::string describeOffer(const Offer &o) const {
    if (o.agent.empty())
      return llvm::formatv("keeping the point: {0}, {1} block(s)/SM", ms(o.seconds),
                           o.blocksPerSM)
          .str();
    std::string s = llvm::formatv("{0} agent {1}: ", o.agent, o.describeMoves()).str();
    if (!o.breaks.empty())
      return s + "breaks " + o.breaks;
    return s + llvm::formatv("{0}, {1} block(s)/SM", ms(o.seconds), o.blocksPerSM).str();
  }
  void settle(Conflict &c, Arbitration &a, bool keepAllowed);

  const KernelShape &shape;
  const ScheduleFamily &family;
  ArrayRef<AgentWishes> wishes;
  const FamilyClaims &formulas;
  const GPUCapabilities &caps;
  const Budgets &budgets;
  KnobValues point;
};

Offer Arbiter::offerWith(const AgentWishes *w, const KnobValues &values,
                         ConflictKind kind) const {
  KnobValues moved = point;
  Offer o;
  if (w) {
    o.agent = w->agent;
    for (auto &[knob, to] : values) {
      o.moves.push_back({knob, point.at(knob), to});
      moved[knob] = to;
    }
  }
  PointPrice p = price(moved);
  o.seconds = p.seconds;
  o.use = useOf(kind, p);
  o.blocksPerSM = p.occupancy.activeBlocksPerSM;
  o.breaks = !p.verifier.empty() ? "the transform (" + p.verifier + ")" : p.budget;
  return o;
}

void Arbiter::seed() {
  // Every knob someone wants, at the first preference of the agent with the
  // larger gain (the order of `wishes`).
  for (const AgentWishes &w : wishes)
    for (auto &[name, values] : w.knobs)
      if (!values.empty() && !point.count(name))
        point[name] = values.front();
}

std::optional<Conflict> Arbiter::knobConflict(std::set<std::string> &settled) const {
  for (auto &[name, value] : point) {
    if (settled.count(name))
      continue;
    std::vector<const AgentWishes *> wanting;
    std::set<int64_t> firsts;
    for (const AgentWishes &w : wishes)
      if (const std::vector<int64_t> *values = listOf(w, name); values && !values->empty()) {
        wanting.push_back(&w);
        firsts.insert(values->front());
      }
    if (firsts.size() < 2)
      continue;
    settled.insert(name);
    Conflict c;
    c.kind = ConflictKind::Knob;
    std::string wants;
    for (const AgentWishes *w : wanting) {
      c.parties.push_back(w->agent);
      int64_t first = listOf(*w, name)->front();
      wants += (wants.empty() ? "" : ", ") + w->agent + " agent wants " + std::to_string(first);
      if (llvm::none_of(c.offers, [&](const Offer &o) { return o.moves[0].to == first; }))
        c.offers.push_back(offerWith(w, {{name, first}}, ConflictKind::Knob));
    }
    c.over = name + " (" + wants + "; now " + std::to_string(value) + ")";
    // A value no agent wants first (one conceded it in an earlier
    // conflict) may stay.
    if (!firsts.count(value))
      c.offers.push_back(offerWith(nullptr, {}, ConflictKind::Knob));
    return c;
  }
  return std::nullopt;
}

std::vector<Offer> Arbiter::counterProposals(ConflictKind kind, const PointPrice &now) const {
  // The resource an offer must free: the budget's, or for occupancy the
  // resource that limits the blocks per SM.
  ConflictKind resource = kind;
  if (kind == ConflictKind::Occupancy)
    resource = now.occupancy.limiter == OccupancyLimiter::SharedMemory ? ConflictKind::SharedMemory
                                                                        : ConflictKind::Registers;
  // The contested knobs: every one for the transform's objection, else those
  // the resource's formula reads (a block's registers: its threads too,
  // unless occupancy is at stake, where the registers per thread decide).
  std::vector<std::string> contested;
  auto add = [&](StringRef formula) {
    for (std::string &k : knobsInFormula(formula))
      if (!llvm::is_contained(contested, k))
        contested.push_back(std::move(k));
  };
  if (kind == ConflictKind::Verifier) {
    for (auto &[name, value] : point)
      contested.push_back(name);
  } else if (resource == ConflictKind::SharedMemory) {
    add(formulas.sharedBytes);
  } else if (resource == ConflictKind::Threads) {
    add(formulas.threads);
  } else if (resource == ConflictKind::Registers) {
    if (kind != ConflictKind::Occupancy)
      add(formulas.threads);
    add(formulas.registers);
  }
  std::vector<Offer> offers;
  for (const AgentWishes &w : wishes)
    if (std::optional<Offer> o = replan(w, contested, kind, resource, now))
      offers.push_back(std::move(*o));
  return offers;
}

std::optional<Offer> Arbiter::replan(const AgentWishes &w, ArrayRef<std::string> contested,
                                     ConflictKind kind, ConflictKind resource,
                                     const PointPrice &now) const {
  // The agent's knobs among the contested, with the values it may offer:
  // from the point's value on in its order (its own first to last where
  // the knob holds another agent's value).
  std::vector<std::pair<std::string, std::vector<int64_t>>> mine;
  int64_t combinations = 1;
  for (const std::string &knob : contested) {
    const std::vector<int64_t> *values = listOf(w, knob);
    if (!values)
      continue;
    auto at = llvm::find(*values, point.at(knob));
    std::vector<int64_t> offered;
    if (at != values->end())
      offered.push_back(*at); // unchanged
    offered.insert(offered.end(), at == values->end() ? values->begin() : std::next(at),
                   values->end());
    if (offered.size() < 2 && at != values->end())
      continue; // nothing left to concede
    combinations *= int64_t(offered.size());
    mine.emplace_back(knob, std::move(offered));
  }
  if (mine.empty())
    return std::nullopt;
  bool oneAtATime = combinations > kMaxReplans;
  auto answers = [&](const Offer &o) {
    if (kind == ConflictKind::Verifier)
      return o.breaks != "the transform (" + now.verifier + ")";
    return o.use < useOf(resource, now);
  };
  // Ranked: fits, then (occupancy: faster) fewer knobs changed, then faster.
  auto rank = [&](const Offer &o) {
    bool soft = kind == ConflictKind::Occupancy;
    return std::make_tuple(!o.breaks.empty(), soft ? o.seconds : 0.0, o.moves.size(),
                           o.seconds, o.use);
  };
  std::optional<Offer> best;
  std::vector<size_t> index(mine.size(), 0);
  for (int64_t n = 0; n < combinations; ++n) {
    KnobValues values;
    for (size_t i = 0; i < mine.size(); ++i)
      if (mine[i].second[index[i]] != point.at(mine[i].first))
        values[mine[i].first] = mine[i].second[index[i]];
    for (size_t i = mine.size(); i-- > 0;) {
      if (++index[i] < mine[i].second.size())
        break;
      index[i] = 0;
    }
    if (values.empty() || (oneAtATime && values.size() > 1))
      continue;
    Offer o = offerWith(&w, values, resource);
    if (!answers(o) || (kind == ConflictKind::Occupancy && !o.breaks.empty()))
      continue;
    if (!best || rank(o) < rank(*best))
      best = std::move(o);
  }
  return best;
}

/// Accepts the offer the model predicts fastest among those that fit (for
/// a hard conflict with none that fits, the one that frees the most), moves
/// the point there, and writes the resolution.
void Arbiter::settle(Conflict &c, Arbitration &a, bool keepAllowed) {
  int best = -1;
  for (auto [i, o] : llvm::enumerate(c.offers)) {
    if (!o.breaks.empty())
      continue;
    if (best < 0 || o.seconds < c.offers[best].seconds)
      best = int(i);
  }
  // None fits: progress. Every offer answers the conflict (counter-
  // proposals free its resource or meet the transform's objection); the
  // transform's other objections weigh most, then what is left of the
  // resource, then the smaller gain (its agent expects least) yields.
  if (best < 0 && !keepAllowed) {
    auto rank = [&](const Offer &o) {
      bool transform = o.breaks.find("the transform") != std::string::npos;
      return std::make_tuple(transform, o.use, gainOf(o.agent));
    };
    for (auto [i, o] : llvm::enumerate(c.offers))
      if (!o.agent.empty() && (best < 0 || rank(o) < rank(c.offers[best])))
        best = int(i);
  }
  c.accepted = best;
  std::string offers = llvm::join(
      llvm::map_range(c.offers, [&](const Offer &o) { return describeOffer(o); }), "; ");
  if (best < 0) {
    c.resolution = toString(c.kind) + std::string(" conflict: ") + c.over + "; " +
                   (c.offers.empty() ? std::string("no agent has a value left that answers it")
                                     : "offers: " + offers + "; none resolves it");
    a.conflicts.push_back(std::move(c));
    return;
  }
  const Offer &o = c.offers[best];
  std::string verdict;
  if (o.agent.empty()) {
    verdict = "the model prefers keeping the point";
  } else if (!o.breaks.empty()) {
    verdict = llvm::formatv("no offer fits; the {0} agent's {1} answers the conflict (still "
                            "breaks {2}): {0} agent yields",
                            o.agent, o.describeMoves(), o.breaks)
                  .str();
  } else if (c.kind == ConflictKind::Knob) {
    std::string losers;
    for (const std::string &p : c.parties)
      if (p != o.agent)
        losers += (losers.empty() ? "" : " and ") + p;
    bool tie = llvm::count_if(c.offers, [&](const Offer &x) {
                 return x.breaks.empty() && x.seconds == o.seconds;
               }) > 1;
    verdict = llvm::formatv("the model prefers {0}{1}: {2} agent yields", o.describeMoves(),
                            tie ? " (equal predictions: the earlier proposal's, by gain)" : "", losers)
                  .str();
  } else {
    verdict = llvm::formatv("the model prefers the {0} agent's {1} ({2}): {0} agent yields",
                            o.agent, o.describeMoves(), ms(o.seconds))
                  .str();
  }
  c.resolution = (c.kind == ConflictKind::Knob ? std::string("conflict over ")
                                               : toString(c.kind) + std::string(" conflict: ")) +
                 c.over + "; offers: " + offers + "; " + verdict;
  for (const Move &m : o.moves)
    point[m.knob] = m.to;
  a.conflicts.push_back(std::move(c));
}

Arbitration Arbiter::run() {
  Arbitration a;
  seed();
  std::set<OccupancyLimiter> tradedOccupancy;
  std::set<std::string> settledKnobs;
  for (int step = 0; step < kMaxArbitrationSteps; ++step) {
    PointPrice now = price(point);
    Conflict c;
    bool keepAllowed = false;
    // The hard conflicts first (a point that does not fit cannot be
    // priced), then the agents' differing first choices at a point that
    // fits, then one block per SM.
    if (!now.verifier.empty()) {
      c.kind = ConflictKind::Verifier;
      c.over = now.verifier;
    } else if (!now.budget.empty()) {
      c.kind = now.brokenBudget;
      c.over = now.budget;
    } else if (std::optional<Conflict> knob = knobConflict(settledKnobs)) {
      c = std::move(*knob);
      keepAllowed = llvm::any_of(c.offers, [](const Offer &o) { return o.agent.empty(); });
      settle(c, a, keepAllowed);
      continue;
    } else if (now.occupancy.activeBlocksPerSM == 1 &&
               (now.occupancy.limiter == OccupancyLimiter::Registers ||
                now.occupancy.limiter == OccupancyLimiter::SharedMemory) &&
               tradedOccupancy.insert(now.occupancy.limiter).second) {
      // One block per SM leaves nothing to run while it waits at a barrier
      // or on memory: a trade the model weighs (keeping the point is one of
      // the offers).
      c.kind = ConflictKind::Occupancy;
      c.over = llvm::formatv("one block per SM, limited by {0} ({1} registers per thread, {2} B "
                             "of shared memory per block)",
                             toString(now.occupancy.limiter), now.registers, now.sharedBytes)
                   .str();
      keepAllowed = true;
    } else {
      a.agreed = point;
      a.reached = point;
      Candidate shown;
      shown.family = &family;
      shown.knobs = family.complete(point);
      a.outcome = llvm::formatv("agreed on {0}: predicted {1}, {2} threads, {3} B shared, "
                                "~{4} registers, {5} block(s)/SM",
                                describeKnobs(shown), ms(now.seconds), now.threads,
                                now.sharedBytes, now.registers,
                                now.occupancy.activeBlocksPerSM)
                      .str();
      return a;
    }
    c.offers = counterProposals(c.kind, now);
    std::set<std::string> parties;
    for (const Offer &o : c.offers)
      parties.insert(o.agent);
    if (parties.empty())
      for (const AgentWishes &w : wishes)
        parties.insert(w.agent);
    c.parties.assign(parties.begin(), parties.end());
    if (keepAllowed)
      c.offers.push_back(offerWith(nullptr, {}, c.kind));
    settle(c, a, keepAllowed);
    if (a.conflicts.back().accepted < 0) {
      a.reached = point;
      a.outcome = "no agreement: " + a.conflicts.back().resolution;
      return a;
    }
  }
  a.reached = point;
  a.outcome = "no agreement after " + std::to_string(kMaxArbitrationSteps) + " conflicts";
  return a;
}

} // namespace

Arbitration mlir::ks::arbitrate(const KernelShape &shape, const ScheduleFamily &family,
                                ArrayRef<AgentWishes> wishes, const FamilyClaims &claims,
                                const GPUCapabilities &caps, const Budgets &budgets) {
  return Arbiter(shape, family, wishes, claims, caps, budgets).run();
}
