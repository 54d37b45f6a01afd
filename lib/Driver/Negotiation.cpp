//===- Negotiation.cpp - Composing and negotiating the agents' proposals --===//

#include "kernelskill/Driver/Negotiation.h"
#include "kernelskill/Analysis/Occupancy.h"

#include "llvm/ADT/STLExtras.h"

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

/// Step 1: intersect the proposals' knob domains, the larger gain first.
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
      std::vector<int64_t> common;
      for (int64_t v : it->second)
        if (llvm::is_contained(wanted, v))
          common.push_back(v);
      std::string holder = n.owner[name];
      if (common.empty()) {
        n.messages.push_back({p.getAgent().str(), holder, name,
                              p.getAgent().str() + " agent wanted " + name + " in " +
                                  list(wanted) + ", " + holder + " agent " + list(it->second) +
                                  ": no common value; " + p.getAgent().str() +
                                  " yields (smaller predicted gain)"});
        continue;
      }
      if (common.size() < it->second.size() || common.size() < wanted.size())
        n.messages.push_back({p.getAgent().str(), holder, name,
                              name + ": " + holder + " agent allows " + list(it->second) + ", " +
                                  p.getAgent().str() + " agent " + list(wanted) + "; agreed " +
                                  list(common)});
      it->second = common;
      n.owner[name] = holder + "+" + p.getAgent().str();
    }
  }
}

} // namespace

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

Negotiation mlir::ks::negotiate(const KernelShape &shape, const ScheduleFamily &family,
                                ArrayRef<ProposalAttr> proposals, const GPUCapabilities &caps,
                                const Budgets &budgets) {
  Negotiation n;
  compose(proposals, n);
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
    Candidate c;
    c.family = &family;
    c.knobs = family.complete(values);
    // The transform's own limits are the chip's; the user's budgets are the
    // negotiation's (below), so that the transcript can say who yielded.
    std::string why =
        family.verify(shape, values, caps.maxThreadsPerBlock, caps.smemPerBlock);
    if (!why.empty()) {
      ++n.rejectedByVerifier;
      ++n.verifierReasons[why];
      continue;
    }
    c.sharedBytes = evaluateClaim(family.sharedBytes, c.knobs).value_or(0);
    c.threads = evaluateClaim(family.threads, c.knobs).value_or(0);
    c.registers = evaluateClaim(family.registers, c.knobs).value_or(0);
    std::string over;
    if (c.threads > budgets.maxThreads)
      over = "threads " + std::to_string(c.threads) + " > " + std::to_string(budgets.maxThreads);
    else if (c.sharedBytes > budgets.maxSharedBytes)
      over = "shared memory " + std::to_string(c.sharedBytes) + " B > " +
             std::to_string(budgets.maxSharedBytes);
    else if (c.registers > budgets.maxRegisters)
      over = "registers " + std::to_string(c.registers) + " > max-registers " +
             std::to_string(budgets.maxRegisters);
    else if (budgets.minOccupancy > 0) {
      Occupancy occ = computeOccupancy(caps, {c.threads, c.registers, c.sharedBytes, 0});
      if (occ.occupancy < budgets.minOccupancy)
        over = "occupancy " + std::to_string(occ.occupancy) + " < min-occupancy " +
               std::to_string(budgets.minOccupancy);
    }
    for (auto &[name, v] : values) {
      if (over.empty())
        kept[name][v] = true;
      else if (!kept[name][v] && !excludedBy[name].count(v))
        excludedBy[name][v] = over;
    }
    if (!over.empty()) {
      ++n.rejectedByBudget;
      continue;
    }
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
