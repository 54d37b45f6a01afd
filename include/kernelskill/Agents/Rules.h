//===- Rules.h - What the agents know: findings to transforms ---*- C++ -*-===//
//
// The knowledge of the memory, compute and resource agents, as data: one
// table (lib/Agents/Rules.cpp, documented in docs/Agents.md) of rules, each
// "for this agent, this problem class and this condition, on chips from
// this SM version up, when the diagnosis has one of these findings, allow
// these values of these knobs of this schedule family". An agent's
// proposal for a kernel is the union of its rules that fire; the driver
// joins the agents' proposals and its arbiter weighs their conflicts
// (Driver/Arbiter.h). The agents' passes only run the table.
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_AGENTS_RULES_H
#define KERNELSKILL_AGENTS_RULES_H

#include "kernelskill/Agents/KernelShape.h"
#include "kernelskill/Dialect/KS/IR/KSAttrs.h"

#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace mlir::ks {

enum class AgentKind { Memory, Compute, Resource };

const char *toString(AgentKind agent);

/// When a rule applies beyond its problem class.
enum class RuleCondition {
  Always,
  LhsAlongReduction, ///< A (the m operand) contiguous along k
  LhsAlongOutput,    ///< A contiguous along m
  LhsNoContiguous,   ///< A has no unit-stride dimension (a gather)
  RhsAlongReduction,
  RhsAlongOutput,
  RhsNoContiguous,
  /// GEMV: the matrix is contiguous along the reduction (a row walk).
  MatrixAlongReduction,
  /// GEMV: the matrix is contiguous along the outputs (a column walk).
  MatrixAlongOutput,
  /// A contraction; the rule's bounds say when: too few 64 x 64 output
  /// tiles to give every SM one (IdleSmsAt64Tiles above 0), and a reduction
  /// longer than the output is wide (ReductionOverOutput above 1).
  FewOutputTiles,
  /// Rows: the loops walk each row along its contiguous dimension.
  RowsContiguous,
  /// Rows as above, and a later loop reads a buffer the kernel does not
  /// write at the loop's variable (RMSNorm's weight[j], LayerNorm's gamma);
  /// the rule bounds the row length (at most 1024). Measured on the H200 (2026-12-04,
  /// bench/results/2026-12-04-h200-prefetch): prefetching those loads
  /// gains at rows of 1024 and loses at 4096 (the registers).
  RowsWithLateReads,
  /// Rows as above with a max loop and a later sum of exp(x - max)
  /// (softmax's); the rule bounds the row length (more than 16384): merged into one loop (online), a row
  /// too long for the registers is read twice instead of three times.
  /// Measured on the H200 (2026-12-04, bench/results/
  /// 2026-12-04-h200-online-softmax): 0.291 -> 0.218 ms at rows of 65536;
  /// rows of up to 16384 are kept in registers (read once: 0.136 ms at
  /// 16384 with 512 threads, against 0.209 online), where the merged loop's
  /// exponentials only cost.
  RowsWithOnlinePair,
  /// Rows as above; the rule bounds the row length (more than 4096 elements):
  /// 512 threads per row too
  /// (with V = 4 and C = 8, rows of 16384 kept in registers at 64 registers
  /// a thread, two blocks per SM). Measured on the H200 (2026-12-04,
  /// bench/results/2026-12-04-h200-online-softmax call 5): softmax
  /// 4096 x 16384 0.136 ms, against 0.194 with 256 threads (C = 16, 127
  /// registers) and 0.220 with 1024 (one block per SM).
  RowsLong,
  /// Rows walked across their contiguous dimension whose neighbouring
  /// points' rows lie side by side (RowSizes::adjacent: a column sum): a
  /// row's lanes interleaved across the block, so a warp reads one element
  /// of 32 adjacent rows per turn (coalesced). Measured on the H200
  /// (bench/results run7 and 2026-12-04-h200-online-softmax call 1): the
  /// column sum 16384 x 4096 at 0.80 of the copy with T = 32, R = 32,
  /// U = 16 by hand.
  RowsAdjacent,
  /// Stencils over a 2-D or a 3-D space (the register window's tile and
  /// block have one size per dimension).
  Stencil2D,
  Stencil3D,
};

/// A number of the kernel's shape a rule's thresholds bound (the data the
/// conditions' structural tests leave out).
enum class ShapeQuantity {
  RowLength,           ///< rows: elements per row
  IdleSmsAt64Tiles,    ///< contractions: SMs left without a 64 x 64 output tile
  ReductionOverOutput, ///< contractions: k / max(m, n)
};

const char *toString(ShapeQuantity quantity);

/// `above < quantity <= atMost`.
struct ShapeBound {
  ShapeQuantity quantity;
  double above = -std::numeric_limits<double>::infinity();
  double atMost = std::numeric_limits<double>::infinity();
};

/// The value of `quantity` for `shape` on a GPU with `smCount` SMs.
double quantityOf(ShapeQuantity quantity, const KernelShape &shape, int64_t smCount);

struct Rule {
  AgentKind agent;
  ProblemClass cls;
  RuleCondition condition;
  int minSm; ///< the chip's SM version (80 for sm_80), 0 for all
  const char *family;
  /// Finding kinds the rule answers; it fires when the diagnosis has one.
  /// Empty: a refinement, which fires only together with another rule of
  /// the same agent and family.
  std::vector<FindingKind> answers;
  std::vector<std::pair<const char *, std::vector<int64_t>>> knobs;
  /// The fraction of the answered findings' headroom the rule can recover.
  double gainFactor;
  const char *rationale;
  /// Thresholds on the shape (all must hold), measured where the rule's
  /// comment says; empty: none.
  std::vector<ShapeBound> bounds = {};
};

/// The table, in the order the rules are documented.
const std::vector<Rule> &agentRules();

/// Whether `condition` (structural: the class, the layouts, what the loops
/// read) holds for `shape`.
bool holds(RuleCondition condition, const KernelShape &shape);

/// Whether `rule` applies to `shape` on a GPU with `smCount` SMs: its
/// condition holds and the shape is within its bounds.
bool applies(const Rule &rule, const KernelShape &shape, int64_t smCount);

/// The SM version of a chip name ("sm_90a" -> 90); 0 when unknown.
int smVersion(llvm::StringRef chip);

/// `agent`'s proposals for `shape`: one per schedule family with a rule
/// that fires (none when the kernel has no contraction, or nothing
/// answers its findings).
SmallVector<ProposalAttr> proposeFor(AgentKind agent, const KernelShape &shape,
                                     llvm::StringRef chip, int64_t smCount, MLIRContext *ctx);

} // namespace mlir::ks

#endif // KERNELSKILL_AGENTS_RULES_H
