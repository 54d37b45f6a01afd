//===- ScheduleCost.cpp - Predicted time of a scheduled contraction -------===//

#include "kernelskill/Analysis/ScheduleCost.h"
#include "kernelskill/Analysis/Occupancy.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

using namespace mlir::ks;

namespace {

int64_t knob(const ScalarValues &knobs, const char *name) {
  auto it = knobs.find(name);
  return it == knobs.end() ? 0 : it->second;
}

int64_t ceilDiv(int64_t a, int64_t b) { return b <= 0 ? 0 : (a + b - 1) / b; }

/// The fraction of the DRAM peak a streaming kernel reaches: the device
/// copy's on the H200 (4.23 of 4.8 TB/s, bench/results/*-contraction-run2).
constexpr double kAchievableDram = 0.88;
/// L2-to-SM bandwidth as a multiple of DRAM's (the database has no L2 rate).
constexpr double kL2OverDram = 2.5;
/// Thread instructions an SM issues per cycle: four schedulers, one warp
/// instruction each.
constexpr double kIssuePerCycle = 128;
/// Per reduction step of a block: the loop, the addresses, the barrier.
constexpr double kStepOverhead = 12;
/// A step cannot be shorter than the round trip of its staged loads plus
/// the shared-memory store and barrier behind them.
constexpr double kStepLatencyCycles = kScheduleLatencyCycles + 100;
/// Fixed cost of a launch (and of split-K's extra initialization launch).
constexpr double kLaunchSeconds = 3e-6;
/// A dependent round trip of loads that hit in the L2, under load
/// (predictRowReduction says where the figure comes from).
constexpr double kLateLoadCycles = 740;

/// A streaming kernel's DRAM terms: 0.88 of the peak; memory-level
/// parallelism (the bytes the resident blocks keep in flight against
/// bandwidth x latency); the blocks' spread (an SM cannot pull much more
/// than twice its share of the bandwidth).
struct StreamTerms {
  double dram, inFlight, needed, mlp, spread;
  /// The rate with those two limits (and `efficiency` of the peak's).
  double rate(double efficiency = 1) const {
    return dram * efficiency * std::min(mlp, std::max(spread, 1e-3));
  }
  std::string bound() const {
    return mlp < spread ? "latency" : (spread < 1 ? "too few blocks" : "dram");
  }
};

StreamTerms streamTerms(const GPUCapabilities &caps, int64_t blocks, int64_t blocksPerSM,
                        double bytesInFlightPerBlock) {
  StreamTerms t;
  t.dram = caps.dramGBps * 1e9 * kAchievableDram;
  double clock = double(caps.smClockMHz) * 1e6;
  double resident = std::min<double>(double(blocks), double(caps.smCount * blocksPerSM));
  t.inFlight = resident * bytesInFlightPerBlock;
  t.needed = t.dram * kScheduleLatencyCycles / clock;
  t.mlp = std::min(1.0, t.inFlight / t.needed);
  t.spread = std::min(1.0, 2.0 * resident / double(caps.smCount) /
                               std::max<double>(1.0, double(blocksPerSM)));
  return t;
}

ScheduleCost infeasible(const std::string &why) {
  ScheduleCost c;
  c.seconds = std::numeric_limits<double>::infinity();
  c.bound = "none";
  c.explanation = why;
  return c;
}

} // namespace

ScheduleCost mlir::ks::predictOuterProduct(const GPUCapabilities &caps,
                                           const ContractionSizes &sz,
                                           const ScalarValues &knobs, int64_t registers,
                                           int64_t sharedBytes) {
  int64_t bm = knob(knobs, "BM"), bn = knob(knobs, "BN"), bk = knob(knobs, "BK");
  int64_t wm = knob(knobs, "WM"), wn = knob(knobs, "WN"), lm = knob(knobs, "LM");
  int64_t tm = knob(knobs, "TM"), tn = knob(knobs, "TN");
  int64_t vecA = std::max<int64_t>(1, knob(knobs, "VEC_A"));
  int64_t vecB = std::max<int64_t>(1, knob(knobs, "VEC_B"));
  int64_t stages = knob(knobs, "STAGES"), split = std::max<int64_t>(1, knob(knobs, "SPLIT_K"));
  if (bm <= 0 || bn <= 0 || bk <= 0 || wm <= 0 || wn <= 0 || lm <= 0 || 32 % lm || tm <= 0 ||
      tn <= 0)
    return infeasible("a tile size is not positive");
  int64_t ln = 32 / lm;
  double repM = double(bm) / double(wm * lm * tm), repN = double(bn) / double(wn * ln * tn);
  int64_t threads = 32 * wm * wn;

  Occupancy occ = computeOccupancy(caps, {threads, registers, sharedBytes, 0});
  if (occ.activeBlocksPerSM == 0)
    return infeasible("no block fits on an SM: " + occ.whyNone);

  int64_t blocks = ceilDiv(sz.m, bm) * ceilDiv(sz.n, bn) * sz.batch * split;
  int64_t kPerBlock = ceilDiv(sz.k, split);
  int64_t steps = ceilDiv(kPerBlock, bk);
  double fma = double(tm * tn) * repM * repN * (sz.fma ? 1.0 : 2.0);
  double fragments = double(tm) * repM / 4.0 + double(tn) * repN / 4.0;
  double staging = 2.0 * (double(bm * bk) / double(vecA) + double(bk * bn) / double(vecB)) /
                   double(threads) / double(bk);
  double perThreadPerK = fma + fragments + staging + kStepOverhead / double(bk);
  double stepIssue =
      double(threads) * double(bk) * perThreadPerK / kIssuePerCycle / kIssueEfficiency;

  // Blocks are handed to SMs as they free up: each SM runs its share of the
  // grid, `concurrent` at a time, sharing its issue slots.
  double perSM = std::ceil(double(blocks) / double(caps.smCount));
  double concurrent = std::min<double>(double(occ.activeBlocksPerSM), perSM);
  double rounds = perSM / concurrent;
  // Few warps per SM cannot keep four schedulers issuing.
  double warps = concurrent * double(threads / 32);
  double issueUse = std::min(1.0, warps / 8.0);
  double busy = concurrent * stepIssue / issueUse;
  double latency = stages >= 2 ? kStepLatencyCycles : kStepLatencyCycles + stepIssue;
  double stepTime = std::max(busy, latency);
  double clock = double(caps.smClockMHz) * 1e6;
  double computeSeconds = rounds * double(steps) * stepTime / clock;

  double dram = caps.dramGBps * 1e9 * kAchievableDram;
  double eb = double(sz.elementBytes);
  double dramSeconds =
      double(sz.batch) * eb *
      (double(sz.m * sz.k) + double(sz.k * sz.n) + double(sz.m * sz.n) * double(split)) / dram;
  double l2Seconds =
      double(blocks) * double(bm + bn) * double(kPerBlock) * eb / (dram * kL2OverDram);
  // Split-K: each block adds its tile atomically; a first launch sets C.
  double splitSeconds =
      split > 1 ? kLaunchSeconds + double(sz.batch * sz.m * sz.n * split) * eb / (dram / 4) : 0;

  ScheduleCost c;
  c.blocks = blocks;
  c.blocksPerSM = occ.activeBlocksPerSM;
  c.occupancy = occ.occupancy;
  double body = std::max({computeSeconds, dramSeconds, l2Seconds});
  c.bound = body == computeSeconds ? (busy >= latency ? "issue" : "latency")
                                   : body == dramSeconds ? "dram" : "l2";
  c.seconds = body + splitSeconds + kLaunchSeconds;
  std::ostringstream os;
  os << blocks << " blocks, " << occ.activeBlocksPerSM << " per SM (" << toString(occ.limiter)
     << "), " << steps << " steps of " << int64_t(stepTime) << " cycles ("
     << (busy >= latency ? "issue" : "latency") << "), bound by " << c.bound;
  c.explanation = os.str();
  return c;
}

ScheduleCost mlir::ks::predictRowReduction(const GPUCapabilities &caps, const RowSizes &sz,
                                           const ScalarValues &knobs, int64_t registers,
                                           int64_t sharedBytes) {
  int64_t T = knob(knobs, "T"), R = knob(knobs, "R"), V = knob(knobs, "V");
  int64_t U = std::max<int64_t>(1, knob(knobs, "U")), C = knob(knobs, "C");
  if (T <= 0 || R <= 0 || V <= 0)
    return infeasible("a count is not positive");
  int64_t threads = T * R;
  Occupancy occ = computeOccupancy(caps, {threads, registers, sharedBytes, 0});
  if (occ.activeBlocksPerSM == 0)
    return infeasible("no block fits on an SM: " + occ.whyNone);
  int64_t blocks = ceilDiv(sz.rows, R);
  bool cached = C > 0 && T * V * C >= sz.length;
  double eb = double(sz.elementBytes);
  double row = double(sz.length) * eb;
  // Online: each merged pair of loops reads the row once where it read it
  // twice (kept in registers, the row is read once either way). Neither its
  // extra exponentials nor its one combine instead of two are charged: the
  // kernel stays memory-bound.
  int64_t merged = knob(knobs, "O") > 0 ? sz.onlinePairs : 0;
  int64_t passes = cached ? 1 : std::max<int64_t>(1, sz.readPasses - merged);
  double bytes = double(sz.rows) * (row * double(passes + (sz.writes ? 1 : 0)) +
                                    (sz.writes ? 0.0 : eb));
  double clock = double(caps.smClockMHz) * 1e6;
  // Memory-level parallelism: a cached row's turns are unrolled, so all
  // of a thread's loads are in flight at once; otherwise U turns of V.
  int64_t share = ceilDiv(sz.length, T);
  double perThread = double(std::min<int64_t>(cached ? V * C : U * V, std::max<int64_t>(share, 1)));
  StreamTerms terms =
      streamTerms(caps, blocks, occ.activeBlocksPerSM, double(threads) * perThread * eb);
  double achieved = terms.rate();
  // Each loop's combine across the row's threads: 5 shuffle steps, and for
  // more than a warp a round through shared memory between two barriers;
  // one wave of resident rows after another.
  // (Interleaved lanes always combine through shared memory.)
  double combineCycles = 5 * 30 + (T > 32 || knob(knobs, "IL") > 0 ? 2 * 100 : 0);
  int64_t reductions = std::max<int64_t>(1, sz.readPasses - (sz.writes ? 1 : 0));
  double waves = double(ceilDiv(blocks, caps.smCount * occ.activeBlocksPerSM));
  double combineSeconds = waves * double(reductions) * combineCycles / clock;
  // A later loop's loads of read-only buffers (RMSNorm's weight) issued
  // only after the row's reduction: one more round trip (L2 hits) per wave
  // of resident rows, unless prefetched with the row. Measured on the H200
  // (2026-12-04): RMSNorm 65536 x 1024 with 128 threads per row, 0.142 ms
  // without, 0.130 ms with, over 32 waves: about 740 cycles per wave.
  bool prefetched = cached && knob(knobs, "P") > 0;
  double lateSeconds =
      sz.prefetchable > 0 && !prefetched ? waves * kLateLoadCycles / clock : 0.0;
  ScheduleCost c;
  c.blocks = blocks;
  c.blocksPerSM = occ.activeBlocksPerSM;
  c.occupancy = occ.occupancy;
  c.seconds = bytes / achieved + combineSeconds + lateSeconds + kLaunchSeconds;
  c.bound = terms.bound();
  std::ostringstream os;
  os << blocks << " blocks, " << occ.activeBlocksPerSM << " per SM, rows "
     << (cached ? "kept in registers (read once)" : "read " + std::to_string(passes) + " times")
     << ", " << int64_t(terms.inFlight / 1024) << " KiB in flight of "
     << int64_t(terms.needed / 1024) << " KiB needed, bound by " << c.bound;
  c.explanation = os.str();
  return c;
}

ScheduleCost mlir::ks::predictTransposeTile(const GPUCapabilities &caps, const TileSizes &sz,
                                            const ScalarValues &knobs, int64_t registers,
                                            int64_t sharedBytes) {
  int64_t ti = knob(knobs, "TI"), tj = knob(knobs, "TJ"), bx = knob(knobs, "BX"),
          by = knob(knobs, "BY");
  if (ti <= 0 || tj <= 0 || bx <= 0 || by <= 0)
    return infeasible("a count is not positive");
  int64_t threads = bx * by;
  Occupancy occ = computeOccupancy(caps, {threads, registers, sharedBytes, 0});
  if (occ.activeBlocksPerSM == 0)
    return infeasible("no block fits on an SM: " + occ.whyNone);
  int64_t blocks = ceilDiv(sz.rows, ti) * ceilDiv(sz.cols, tj);
  double eb = double(sz.elementBytes);
  double bytes = 2.0 * double(sz.rows) * double(sz.cols) * eb;
  // The first phase's loads, all of the tile's, are in flight at once.
  StreamTerms terms = streamTerms(caps, blocks, occ.activeBlocksPerSM, double(ti * tj) * eb);
  ScheduleCost c;
  c.blocks = blocks;
  c.blocksPerSM = occ.activeBlocksPerSM;
  c.occupancy = occ.occupancy;
  c.seconds = bytes / terms.rate() + kLaunchSeconds;
  c.bound = terms.bound();
  std::ostringstream os;
  os << blocks << " tiles of " << ti << " x " << tj << ", " << occ.activeBlocksPerSM
     << " per SM, " << int64_t(terms.inFlight / 1024) << " KiB in flight of "
     << int64_t(terms.needed / 1024) << " KiB needed, bound by " << c.bound;
  c.explanation = os.str();
  return c;
}

ScheduleCost mlir::ks::predictRegisterWindow(const GPUCapabilities &caps,
                                             const StencilSizes &sz, const ScalarValues &knobs,
                                             int64_t registers, int64_t sharedBytes) {
  int64_t K = knob(knobs, "K"), bx = knob(knobs, "BX"), by = knob(knobs, "BY");
  if (K <= 0 || bx <= 0 || by <= 0 || sz.extents.size() < 2)
    return infeasible("a count is not positive");
  int64_t threads = bx * by;
  Occupancy occ = computeOccupancy(caps, {threads, registers, sharedBytes, 0});
  if (occ.activeBlocksPerSM == 0)
    return infeasible("no block fits on an SM: " + occ.whyNone);
  // Blocks: x along the innermost extent; 2-D: BY threads of K rows along
  // the outer one; 3-D: BY along the middle, K planes along the outermost.
  llvm::ArrayRef<int64_t> e = sz.extents;
  int64_t inner = e.back(), points = 1;
  for (int64_t v : e)
    points *= v;
  int64_t blocks = ceilDiv(inner, bx);
  if (e.size() == 2)
    blocks *= ceilDiv(e[0], K * by);
  else
    blocks *= ceilDiv(e[1], by) * ceilDiv(e[0], K);
  double eb = double(sz.elementBytes);
  double bytes = 2.0 * double(points) * eb;
  StreamTerms terms =
      streamTerms(caps, blocks, occ.activeBlocksPerSM, double(threads * (K + sz.halo)) * eb);
  ScheduleCost c;
  c.blocks = blocks;
  c.blocksPerSM = occ.activeBlocksPerSM;
  c.occupancy = occ.occupancy;
  c.seconds = bytes / terms.rate() + kLaunchSeconds;
  c.bound = terms.bound();
  std::ostringstream os;
  os << blocks << " blocks, " << occ.activeBlocksPerSM << " per SM, columns of " << K << " + "
     << sz.halo << " in registers, " << int64_t(terms.inFlight / 1024) << " KiB in flight of "
     << int64_t(terms.needed / 1024) << " KiB needed, bound by " << c.bound;
  c.explanation = os.str();
  return c;
}

ScheduleCost mlir::ks::predictSplitReduction(const GPUCapabilities &caps,
                                             const ContractionSizes &sz,
                                             const ScalarValues &knobs, int64_t registers,
                                             int64_t sharedBytes) {
  int64_t lanesOut = knob(knobs, "LANES_OUT"), warpsOut = knob(knobs, "WARPS_OUT");
  int64_t warpsRed = knob(knobs, "WARPS_RED"), outs = knob(knobs, "OUTS");
  int64_t vec = std::max<int64_t>(1, knob(knobs, "VEC"));
  int64_t unroll = std::max<int64_t>(1, knob(knobs, "UNROLL"));
  if (lanesOut <= 0 || 32 % lanesOut || warpsOut <= 0 || warpsRed <= 0 || outs <= 0)
    return infeasible("a count is not positive");
  int64_t threads = 32 * warpsOut * warpsRed;
  Occupancy occ = computeOccupancy(caps, {threads, registers, sharedBytes, 0});
  if (occ.activeBlocksPerSM == 0)
    return infeasible("no block fits on an SM: " + occ.whyNone);
  // One of m and n is 1 for the GEMV family; the other is the outputs.
  int64_t outputs = sz.m * sz.n;
  int64_t blocks = ceilDiv(outputs, lanesOut * warpsOut * outs) * sz.batch;
  double eb = double(sz.elementBytes);
  double bytes = double(sz.batch) * eb * (double(outputs * sz.k) + double(sz.k) + double(outputs));
  // Memory-level parallelism: every resident thread keeps UNROLL loads of
  // VEC x OUTS elements in flight.
  StreamTerms terms = streamTerms(caps, blocks, occ.activeBlocksPerSM,
                                  double(threads) * double(unroll * vec * outs) * eb);
  // DRAM serves long runs of a row better than scattered 128-byte pieces:
  // the bytes one warp request reads contiguously (32 lanes x VEC along the
  // reduction, or x OUTS along the outputs). Fitted on gemv_cols, H200
  // run 3: 128-byte runs reached 0.62 of the 512-byte runs' bandwidth.
  double run = 32.0 * eb * double(lanesOut == 1 ? vec : outs);
  double runEfficiency = std::pow(std::min(1.0, run / 512.0), 0.35);
  ScheduleCost c;
  c.blocks = blocks;
  c.blocksPerSM = occ.activeBlocksPerSM;
  c.occupancy = occ.occupancy;
  c.seconds = bytes / terms.rate(runEfficiency) + kLaunchSeconds;
  c.bound = terms.bound();
  std::ostringstream os;
  os << blocks << " blocks, " << occ.activeBlocksPerSM << " per SM, "
     << int64_t(terms.inFlight / 1024) << " KiB in flight of " << int64_t(terms.needed / 1024)
     << " KiB needed, bound by " << c.bound;
  c.explanation = os.str();
  return c;
}
