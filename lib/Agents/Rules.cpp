//===- Rules.cpp - What the agents know: findings to transforms -----------===//
//
// The rule table (docs/Agents.md, "The rule tables"). Values are listed in
// the agent's order of preference. Nothing here names a benchmark: the
// conditions are the problem class, the operands' layouts, the output's
// size against the GPU's SM count, and for rows the direction of the walk.
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Agents/Rules.h"
#include "kernelskill/Agents/ScheduleFamily.h"

#include "mlir/IR/Builders.h"

#include <algorithm>
#include <set>

using namespace mlir;
using namespace mlir::ks;

namespace {
using FK = FindingKind;
using RC = RuleCondition;
using PC = ProblemClass;
using AK = AgentKind;
constexpr double kInf = std::numeric_limits<double>::infinity();

/// What a kernel that re-reads its operands from global memory shows.
const std::vector<FindingKind> kReuse = {FK::no_reuse, FK::compute_bound, FK::memory_bound,
                                         FK::uncoalesced_access, FK::latency_bound};
/// What a kernel that walks rows one thread each shows: every lane in a
/// different row (uncoalesced), too few loads in flight.
const std::vector<FindingKind> kRows = {FK::memory_bound, FK::uncoalesced_access,
                                        FK::latency_bound, FK::low_occupancy, FK::tail_effect};
/// What a transpose one element per thread shows: the store (or the loads)
/// strided across the warp.
const std::vector<FindingKind> kTranspose = {FK::uncoalesced_access, FK::memory_bound,
                                             FK::latency_bound};
/// What a stencil one point per thread shows: each input element loaded
/// by several threads (its neighbours'), too few loads in flight.
const std::vector<FindingKind> kStencil = {FK::memory_bound, FK::latency_bound,
                                           FK::uncoalesced_access, FK::low_occupancy,
                                           FK::tail_effect};
/// What a streaming kernel with too little in flight shows.
const std::vector<FindingKind> kStreaming = {FK::memory_bound, FK::latency_bound,
                                             FK::uncoalesced_access, FK::low_occupancy,
                                             FK::tail_effect};
} // namespace

const std::vector<Rule> &mlir::ks::agentRules() {
  static const std::vector<Rule> rules = {
      // --- memory agent: where the operands live and how they move ---
      {AK::Memory, PC::Gemm, RC::Always, 0, "outer_product", kReuse,
       {{"BK", {8, 16}}, {"KOUTER_A", {1}}, {"KOUTER_B", {1}}, {"STAGES", {2}}},
       0.9,
       "stage A and B tiles in shared memory, so each element is read from global memory "
       "once per block instead of once per output; the next tile's loads overlap this "
       "tile's arithmetic (register double buffering)"},
      {AK::Memory, PC::Gemm, RC::Always, 80, "outer_product", {},
       {{"STAGES", {2, 3}}, {"ASYNC", {0, 1}}},
       0.9, "cp.async (sm_80+) copies tiles to shared memory without registers, several in flight"},
      {AK::Memory, PC::Gemm, RC::LhsAlongReduction, 0, "outer_product", {},
       {{"VEC_A", {4, 1}}, {"PAD_A", {4}}},
       0.9,
       "A is contiguous along k: 128-bit loads along k, stored transposed (k outer) with 4 "
       "elements of padding per row against the transposed stores' bank conflicts"},
      {AK::Memory, PC::Gemm, RC::LhsAlongOutput, 0, "outer_product", {},
       {{"VEC_A", {4, 1}}, {"PAD_A", {0}}}, 0.9,
       "A is contiguous along m: staged as it lies, 128-bit loads"},
      {AK::Memory, PC::Gemm, RC::LhsNoContiguous, 0, "outer_product", {},
       {{"VEC_A", {1}}, {"PAD_A", {4}}}, 0.9,
       "A has no unit-stride dimension (a gather): element loads, padded rows"},
      {AK::Memory, PC::Gemm, RC::RhsAlongReduction, 0, "outer_product", {},
       {{"VEC_B", {4, 1}}, {"PAD_B", {4}}}, 0.9,
       "B is contiguous along k: 128-bit loads along k, stored transposed with padding"},
      {AK::Memory, PC::Gemm, RC::RhsAlongOutput, 0, "outer_product", {},
       {{"VEC_B", {4, 1}}, {"PAD_B", {0}}}, 0.9,
       "B is contiguous along n: staged as it lies, 128-bit loads"},
      {AK::Memory, PC::Gemm, RC::RhsNoContiguous, 0, "outer_product", {},
       {{"VEC_B", {1}}, {"PAD_B", {4}}}, 0.9,
       "B has no unit-stride dimension (a gather): element loads, padded rows"},
      {AK::Memory, PC::Gemv, RC::MatrixAlongReduction, 0, "split_reduction", kStreaming,
       {{"LANES_OUT", {1}}, {"VEC", {4, 1}}, {"OUTS", {1}}},
       0.9,
       "the matrix is contiguous along the reduction: the lanes of a warp split each "
       "output's reduction (coalesced), 128-bit loads along it, warp shuffles combine"},
      {AK::Memory, PC::Gemv, RC::MatrixAlongOutput, 0, "split_reduction", kStreaming,
       {{"LANES_OUT", {32}}, {"VEC", {1}}, {"OUTS", {4, 2, 1}}},
       0.9,
       "the matrix is contiguous along the outputs: lanes take consecutive outputs "
       "(coalesced), OUTS of them per thread as one vector load"},
      {AK::Memory, PC::Rows, RC::RowsContiguous, 0, "row_reduction", kRows,
       {{"T", {32, 128, 256}}, {"R", {8, 1}}, {"V", {4, 1}}, {"C", {8, 16, 32, 4, 0}}},
       0.9,
       "a row over a warp or a block (T threads), consecutive lanes on consecutive elements "
       "(coalesced; 128-bit loads and stores with V = 4), the loops' reductions combined by "
       "shuffles; rows of up to T*V*C elements kept in registers and read once"},
      {AK::Memory, PC::Rows, RC::RowsWithLateReads, 0, "row_reduction", {},
       {{"P", {1, 0}}},
       0.9,
       "a later loop reads a buffer the kernel does not write (a scale, a bias) only after the "
       "row's reduction, one more wait on memory per row: with the row in registers, issue "
       "those loads with the row's own (V*C more registers per buffer; rows of up to 1024 "
       "elements, where the registers it takes cost less than the wait)",
       {{ShapeQuantity::RowLength, -kInf, 1024}}},
      {AK::Memory, PC::Rows, RC::RowsLong, 0, "row_reduction", {},
       {{"T", {512}}},
       0.9,
       "a row of more than 4096 elements: 512 threads per row keep 16384 elements in "
       "registers at 8 turns of 4 (two blocks per SM), where 256 threads need twice the "
       "registers and 1024 leave one block per SM",
       {{ShapeQuantity::RowLength, 4096, kInf}}},
      {AK::Memory, PC::Rows, RC::RowsWithOnlinePair, 0, "row_reduction", {},
       {{"O", {1, 0}}},
       0.9,
       "the row's maximum and then the sum of exp(x - max) take two reads of a row too long "
       "to keep in registers: one loop carrying the running maximum and the sum rescaled to "
       "it (online softmax) reads it once for both",
       {{ShapeQuantity::RowLength, 16384, kInf}}},
      {AK::Memory, PC::Rows, RC::RowsAdjacent, 0, "row_reduction", kRows,
       {{"IL", {1}}, {"T", {32, 16}}, {"R", {32, 16}}, {"V", {1}}, {"C", {0}}},
       0.9,
       "the loops walk each row across its contiguous dimension, and neighbouring points' "
       "rows lie side by side (a column sum): a row's T lanes interleaved R threads apart, "
       "so a warp reads one element of 32 adjacent rows per turn (coalesced); partials "
       "combined through shared memory"},
      {AK::Memory, PC::Transpose, RC::Always, 0, "transpose_tile", kTranspose,
       {{"TI", {32, 64}}, {"TJ", {32, 64}}, {"BX", {32}}, {"BY", {8, 16}}, {"PAD", {1}}},
       0.9,
       "the loads are contiguous along one dimension and the store along the other: each "
       "block reads a tile with the threads along the loads' dimension into shared memory "
       "(rows padded by one element against the column reads' bank conflicts) and writes it "
       "with the threads along the store's"},
      {AK::Memory, PC::Stencil, RC::Stencil2D, 0, "register_window", kStencil,
       {{"DIMS", {2}}, {"BX", {128, 256, 32}}, {"BY", {2, 4, 8}}},
       0.9,
       "each thread keeps a column of its input in registers (the points above and below "
       "its own, loaded once, all in flight together), the row's neighbours from the L1; "
       "threads along the contiguous rows (coalesced)"},
      {AK::Memory, PC::Stencil, RC::Stencil3D, 0, "register_window", kStencil,
       {{"DIMS", {3}}, {"BX", {64, 32, 128}}, {"BY", {4, 8, 2}}},
       0.9,
       "each thread keeps a column of planes of its input in registers (the planes below "
       "and above its own, loaded once, all in flight together), the plane's neighbours "
       "from the L1; threads along the contiguous rows (coalesced)"},
      // --- compute agent: the arithmetic per byte moved ---
      {AK::Compute, PC::Gemm, RC::Always, 0, "outer_product",
       {FK::compute_bound, FK::no_reuse, FK::memory_bound, FK::latency_bound},
       {{"TM", {4, 8}}, {"TN", {4, 8}}, {"LM", {4, 8}}},
       0.8,
       "register tiles: each value read from shared memory feeds TN (or TM) multiply-adds "
       "held in registers"},
      {AK::Compute, PC::Gemm, RC::Always, 0, "outer_product", {},
       {{"BK", {16}}},
       0.8,
       "a longer reduction tile: twice the multiply-adds between two barriers (the memory "
       "agent stages 8 first, half the shared memory; the arbiter weighs)"},
      {AK::Compute, PC::Gemv, RC::Always, 0, "split_reduction", kStreaming,
       {{"UNROLL", {8, 4}}},
       0.8, "UNROLL independent loads in flight per thread to cover the memory latency"},
      {AK::Compute, PC::Rows, RC::RowsContiguous, 0, "row_reduction", kRows,
       {{"U", {4, 8}}},
       0.8, "U turns of a long row's loads issued before their arithmetic (loads in flight)"},
      {AK::Compute, PC::Rows, RC::RowsAdjacent, 0, "row_reduction", kRows,
       {{"U", {16, 8, 4}}},
       0.8,
       "U turns of a row's loads issued before their arithmetic: one element per lane and "
       "turn (4 bytes), so more turns in flight than along a contiguous row"},
      {AK::Compute, PC::Stencil, RC::Always, 0, "register_window", kStencil,
       {{"K", {4, 8, 2}}},
       0.8,
       "K consecutive points per thread along the outermost dimension: their column's K + "
       "halo loads in flight at once, each neighbour along it loaded once instead of by "
       "three threads"},
      // --- resource agent: the block shape against the SMs and budgets ---
      {AK::Resource, PC::Gemm, RC::Always, 0, "outer_product",
       {FK::compute_bound, FK::no_reuse, FK::memory_bound, FK::low_occupancy, FK::tail_effect,
        FK::latency_bound},
       {{"BM", {128, 64}}, {"BN", {128, 64}}, {"WM", {2, 4}}, {"WN", {4, 2}}},
       0.8,
       "block tiles of 128 x 128 (fewest loads per FMA) or 64 x 64 where the larger tiles "
       "leave SMs idle; 8 or 4 warps per block"},
      {AK::Resource, PC::Gemm, RC::FewOutputTiles, 0, "outer_product",
       {FK::compute_bound, FK::no_reuse, FK::latency_bound, FK::low_occupancy,
        FK::tail_effect, FK::memory_bound},
       {{"SPLIT_K", {1, 4, 8, 16, 32}}},
       0.8,
       "the output has too few tiles to occupy every SM and the reduction is long: split it "
       "across blocks (atomic adds after an initializing launch)",
       {{ShapeQuantity::IdleSmsAt64Tiles, 0, kInf}, {ShapeQuantity::ReductionOverOutput, 1, kInf}}},
      {AK::Resource, PC::Rows, RC::RowsContiguous, 0, "row_reduction", kRows,
       {{"C", {4, 8}}},
       0.8,
       "occupancy: fewer turns of a row kept in registers (V*C registers a thread) leave "
       "room for more blocks per SM; the memory agent wants the whole row kept (the arbiter "
       "weighs)"},
      {AK::Resource, PC::Stencil, RC::Always, 0, "register_window", kStencil,
       {{"K", {2, 4}}},
       0.8,
       "occupancy and waves: fewer points per thread (4 + K registers of window each) give "
       "more threads to the SMs; the compute agent wants more in flight per thread (the "
       "arbiter weighs)"},
      {AK::Resource, PC::Gemv, RC::Always, 0, "split_reduction", kStreaming,
       {{"WARPS_OUT", {8, 4, 1}}, {"WARPS_RED", {1, 4, 16}}},
       0.8,
       "warps along the outputs, or splitting the reduction (through shared memory) when "
       "the outputs alone give too few warps to fill the GPU"},
  };
  return rules;
}

const char *mlir::ks::toString(AgentKind agent) {
  switch (agent) {
  case AgentKind::Memory:
    return "memory";
  case AgentKind::Compute:
    return "compute";
  case AgentKind::Resource:
    break;
  }
  return "resource";
}

int mlir::ks::smVersion(StringRef chip) {
  int version = 0;
  if (!chip.consume_front("sm_"))
    return 0;
  chip = chip.take_while([](char c) { return c >= '0' && c <= '9'; });
  return chip.getAsInteger(10, version) ? 0 : version;
}

bool mlir::ks::holds(RuleCondition condition, const KernelShape &s) {
  OperandLayout matrix = s.problem && s.problem->m.empty() ? s.rhs : s.lhs;
  bool rows = s.cls == ProblemClass::Rows && s.rows.contiguous;
  switch (condition) {
  case RC::Always:
  case RC::FewOutputTiles: // its rules' bounds
    return true;
  case RC::LhsAlongReduction:
    return s.lhs == OperandLayout::AlongReduction;
  case RC::LhsAlongOutput:
    return s.lhs == OperandLayout::AlongOutput;
  case RC::LhsNoContiguous:
    return s.lhs == OperandLayout::None;
  case RC::RhsAlongReduction:
    return s.rhs == OperandLayout::AlongReduction;
  case RC::RhsAlongOutput:
    return s.rhs == OperandLayout::AlongOutput;
  case RC::RhsNoContiguous:
    return s.rhs == OperandLayout::None;
  case RC::MatrixAlongReduction:
    return matrix == OperandLayout::AlongReduction;
  case RC::MatrixAlongOutput:
    return matrix != OperandLayout::AlongReduction;
  case RC::RowsContiguous:
  case RC::RowsLong:
    return rows;
  case RC::RowsWithLateReads:
    return rows && s.rows.prefetchable > 0;
  case RC::RowsAdjacent:
    return s.cls == ProblemClass::Rows && !s.rows.contiguous && s.rows.adjacent;
  case RC::RowsWithOnlinePair:
    return rows && s.rows.onlinePairs > 0;
  case RC::Stencil2D:
    return s.cls == ProblemClass::Stencil && s.stencil.extents.size() == 2;
  case RC::Stencil3D:
    return s.cls == ProblemClass::Stencil && s.stencil.extents.size() == 3;
  }
  return false;
}

const char *mlir::ks::toString(ShapeQuantity quantity) {
  switch (quantity) {
  case ShapeQuantity::RowLength:
    return "row_length";
  case ShapeQuantity::IdleSmsAt64Tiles:
    return "idle_sms_at_64x64_tiles";
  case ShapeQuantity::ReductionOverOutput:
    break;
  }
  return "reduction_over_output";
}

double mlir::ks::quantityOf(ShapeQuantity quantity, const KernelShape &s, int64_t smCount) {
  switch (quantity) {
  case ShapeQuantity::RowLength:
    return double(s.rows.length);
  case ShapeQuantity::IdleSmsAt64Tiles: {
    int64_t tiles = ((s.sizes.m + 63) / 64) * ((s.sizes.n + 63) / 64) * s.sizes.batch;
    return double(smCount - tiles);
  }
  case ShapeQuantity::ReductionOverOutput:
    break;
  }
  return double(s.sizes.k) / double(std::max<int64_t>({s.sizes.m, s.sizes.n, 1}));
}

bool mlir::ks::applies(const Rule &rule, const KernelShape &shape, int64_t smCount) {
  if (!holds(rule.condition, shape))
    return false;
  return llvm::all_of(rule.bounds, [&](const ShapeBound &b) {
    double q = quantityOf(b.quantity, shape, smCount);
    return b.above < q && q <= b.atMost;
  });
}

SmallVector<ProposalAttr> mlir::ks::proposeFor(AgentKind agent, const KernelShape &shape,
                                               StringRef chip, int64_t smCount,
                                               MLIRContext *ctx) {
  SmallVector<ProposalAttr> proposals;
  if (!isSearchable(shape))
    return proposals;
  int sm = smVersion(chip);
  for (const ScheduleFamily *family : allScheduleFamilies()) {
    // Rules of this agent and family that apply to the kernel.
    std::vector<const Rule *> fired;
    bool answered = false;
    double gain = 0;
    std::set<FindingKind> answers;
    for (const Rule &r : agentRules()) {
      if (r.agent != agent || r.cls != shape.cls || family->name != r.family ||
          sm < r.minSm || !applies(r, shape, smCount))
        continue;
      for (FindingKind kind : r.answers)
        if (auto it = shape.findings.find(kind); it != shape.findings.end()) {
          answered = true;
          answers.insert(kind);
          gain = std::max(gain, r.gainFactor * it->second);
        }
      fired.push_back(&r);
    }
    if (!answered)
      continue;
    // The union of the fired rules' knob values, in the order they appear.
    std::vector<std::pair<std::string, std::vector<int64_t>>> knobs;
    std::string rationale;
    for (const Rule *r : fired) {
      bool refinement = r->answers.empty();
      bool answers = refinement || llvm::any_of(r->answers, [&](FindingKind k) {
                       return shape.findings.count(k);
                     });
      if (!answers)
        continue;
      for (auto &[name, values] : r->knobs) {
        auto it = llvm::find_if(knobs, [&](auto &k) { return k.first == name; });
        if (it == knobs.end()) {
          knobs.emplace_back(name, values);
          continue;
        }
        for (int64_t v : values)
          if (!llvm::is_contained(it->second, v))
            it->second.push_back(v);
      }
      rationale += (rationale.empty() ? "" : "; ") + std::string(r->rationale);
    }
    Builder b(ctx);
    SmallVector<NamedAttribute> knobAttrs, claimAttrs;
    for (auto &[name, values] : knobs)
      knobAttrs.push_back(b.getNamedAttr(name, b.getDenseI64ArrayAttr(values)));
    claimAttrs.push_back(b.getNamedAttr("shared_bytes", b.getStringAttr(family->sharedBytes)));
    claimAttrs.push_back(b.getNamedAttr("threads", b.getStringAttr(family->threads)));
    claimAttrs.push_back(b.getNamedAttr("registers", b.getStringAttr(family->registers)));
    SmallVector<Attribute> answerAttrs;
    for (FindingKind k : answers)
      answerAttrs.push_back(b.getStringAttr(stringifyFindingKind(k)));
    proposals.push_back(ProposalAttr::get(
        ctx, toString(agent), family->name, b.getArrayAttr(answerAttrs),
        b.getDictionaryAttr(knobAttrs), b.getDictionaryAttr(claimAttrs),
        llvm::APFloat(std::min(1.0, gain)), rationale));
  }
  return proposals;
}
