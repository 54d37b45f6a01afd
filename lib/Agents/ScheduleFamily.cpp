//===- ScheduleFamily.cpp - The transform schedules agents configure ------===//
//
// The knob spaces of the two contraction schedules. Each knob is one
// integer (booleans are 0/1, a layout is "k outer" 0/1) so that proposals,
// claims formulas and the driver's search treat every knob alike; this file
// is the one place that maps them onto the transform ops' attributes.
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Agents/ScheduleFamily.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::ks;

namespace {

const Knob kOuterProductKnobs[] = {
    {"BM", 128, "output rows per block"},
    {"BN", 128, "output columns per block"},
    {"BK", 8, "reduction step staged in shared memory"},
    {"WM", 2, "warps along m"},
    {"WN", 4, "warps along n"},
    {"LM", 4, "lanes of a warp along m (32 / LM along n)"},
    {"TM", 4, "register tile rows per lane"},
    {"TN", 4, "register tile columns per lane"},
    {"KOUTER_A", 1, "A staged k outer ([BK][BM]) or k inner"},
    {"KOUTER_B", 1, "B staged k outer ([BK][BN]) or k inner"},
    {"PAD_A", 0, "elements of padding per shared row of A"},
    {"PAD_B", 0, "elements of padding per shared row of B"},
    {"SWZ_A", 0, "XOR swizzle of A's shared tile"},
    {"SWZ_B", 0, "XOR swizzle of B's shared tile"},
    {"VEC_A", 1, "elements per global load of A"},
    {"VEC_B", 1, "elements per global load of B"},
    {"STAGES", 1, "shared buffers in flight (2: register double buffering)"},
    {"ASYNC", 0, "cp.async staging (sm_80+)"},
    {"GROUP_M", 1, "tile rows per group of the block order (L2 reuse)"},
    {"SPLIT_K", 1, "blocks splitting each tile's reduction"},
};

const Knob kSplitReductionKnobs[] = {
    {"LANES_OUT", 1, "lanes of a warp along the outputs (32 / LANES_OUT share one)"},
    {"WARPS_OUT", 8, "warps along the outputs"},
    {"WARPS_RED", 1, "warps splitting the reduction (combined in shared memory)"},
    {"OUTS", 1, "consecutive outputs per thread"},
    {"VEC", 1, "consecutive reduction elements per load"},
    {"UNROLL", 1, "independent loads in flight per thread"},
};

const Knob kOnePerThreadKnobs[] = {
    {"BX", 256, "threads per block along the forall's innermost dimension"},
    {"BY", 1, "threads per block along the next"},
    {"BZ", 1, "threads per block along the outermost"},
};

const Knob kRowReductionKnobs[] = {
    {"T", 32, "threads per row (a power of two; 32 = a warp per row)"},
    {"R", 8, "rows per block (1 when T > 32)"},
    {"V", 4, "consecutive elements per thread and turn (128-bit loads with 4)"},
    {"U", 4, "turns per iteration, their loads issued first"},
    {"C", 8, "turns kept in registers (rows of up to T*V*C elements read once)"},
    {"P", 0, "with C > 0, 1: a later loop's loads of read-only buffers issued with the row's "
             "(V*C more registers each)"},
    {"O", 0, "1: a max loop and a later sum of exp(x - max) merged into one read (online)"},
    {"IL", 0, "1: a row's lanes R threads apart (interleaved), for rows lying side by side"},
};

const Knob kTransposeTileKnobs[] = {
    {"TI", 32, "rows of the space per tile"},
    {"TJ", 32, "columns of the space per tile"},
    {"BX", 32, "threads per block along x (divides TI and TJ)"},
    {"BY", 8, "threads per block along y (divides TI and TJ)"},
    {"PAD", 1, "elements of padding per shared row (bank conflicts of the column reads)"},
};

const Knob kRegisterWindowKnobs[] = {
    {"DIMS", 2, "the forall's dimensions, 2 or 3 (set by the rule that matched)"},
    {"K", 4, "consecutive points per thread along the outermost dimension"},
    {"BX", 128, "threads per block along the innermost (contiguous) dimension"},
    {"BY", 2, "threads per block along the next (2-D: each K rows)"},
};

const Knob kPrivatizedAtomicsKnobs[] = {
    {"B", 256, "counters per block in shared memory (indices past them go to the global buffer)"},
    {"T", 256, "threads per block"},
    {"I", 64, "points per thread"},
    {"U", 8, "points whose loads are issued before their updates (divides I)"},
    {"A", 0, "1: warp-aggregated updates (match.any; meant for skewed inputs, which no rule "
             "can see: a schedule sets it)"},
};

int64_t knobValue(const KnobValues &v, StringRef name) {
  auto it = v.find(name);
  return it == v.end() ? 0 : it->second;
}

/// What the contraction families check against: the kernel's contraction.
const ContractionProblem *contractionOf(const KernelShape &shape) {
  return shape.problem ? &*shape.problem : nullptr;
}

std::string verifyOuterProductKnobs(const KernelShape &shape, const KnobValues &v,
                                    int64_t maxThreads, int64_t maxShared) {
  const ContractionProblem *p = contractionOf(shape);
  if (!p)
    return "the kernel has no contraction";
  int64_t lm = knobValue(v, "LM");
  if (lm <= 0 || 32 % lm)
    return "LM = " + std::to_string(lm) + " does not divide a warp's 32 lanes";
  return verifyOuterProduct(*p, toOuterProduct(v), maxThreads, maxShared);
}

std::string verifySplitReductionKnobs(const KernelShape &shape, const KnobValues &v,
                                      int64_t maxThreads, int64_t maxShared) {
  const ContractionProblem *p = contractionOf(shape);
  if (!p)
    return "the kernel has no contraction";
  int64_t lanes = knobValue(v, "LANES_OUT");
  if (lanes <= 0 || 32 % lanes)
    return "LANES_OUT = " + std::to_string(lanes) + " does not divide a warp's 32 lanes";
  return verifySplitReduction(*p, toSplitReduction(v), maxThreads, maxShared);
}

/// The transform ops' attributes, in the order the ops declare them.
using OpAttrs = SmallVector<NamedAttribute>;

OpAttrs outerProductAttributes(Builder &b, const KnobValues &v) {
  OuterProductSchedule s = toOuterProduct(v);
  OpAttrs a{b.getNamedAttr("block_tile", b.getDenseI64ArrayAttr({s.blockM, s.blockN})),
            b.getNamedAttr("reduction_tile", b.getI64IntegerAttr(s.blockK)),
            b.getNamedAttr("warps", b.getDenseI64ArrayAttr({s.warpsM, s.warpsN})),
            b.getNamedAttr("lanes", b.getDenseI64ArrayAttr({s.lanesM, s.lanesN})),
            b.getNamedAttr("thread_tile", b.getDenseI64ArrayAttr({s.threadM, s.threadN})),
            b.getNamedAttr("lhs_layout", b.getStringAttr(s.lhsKOuter ? "km" : "mk")),
            b.getNamedAttr("rhs_layout", b.getStringAttr(s.rhsKOuter ? "kn" : "nk")),
            b.getNamedAttr("padding", b.getDenseI64ArrayAttr({s.lhsPad, s.rhsPad})),
            b.getNamedAttr("swizzle", b.getDenseBoolArrayAttr({s.lhsSwizzle, s.rhsSwizzle})),
            b.getNamedAttr("load_vector", b.getDenseI64ArrayAttr({s.lhsVector, s.rhsVector})),
            b.getNamedAttr("stages", b.getI64IntegerAttr(s.stages))};
  if (s.asyncCopy)
    a.push_back(b.getNamedAttr("async_copy", b.getUnitAttr()));
  a.push_back(b.getNamedAttr("group_m", b.getI64IntegerAttr(s.groupM)));
  a.push_back(b.getNamedAttr("split_k", b.getI64IntegerAttr(s.splitK)));
  return a;
}

OpAttrs splitReductionAttributes(Builder &b, const KnobValues &v) {
  SplitReductionSchedule s = toSplitReduction(v);
  return {b.getNamedAttr("lanes", b.getDenseI64ArrayAttr({s.lanesOut, s.lanesRed})),
          b.getNamedAttr("warps", b.getDenseI64ArrayAttr({s.warpsOut, s.warpsRed})),
          b.getNamedAttr("outputs_per_thread", b.getI64IntegerAttr(s.outputsPerThread)),
          b.getNamedAttr("vector", b.getI64IntegerAttr(s.vector)),
          b.getNamedAttr("unroll", b.getI64IntegerAttr(s.unroll))};
}

OpAttrs onePerThreadAttributes(Builder &b, const KnobValues &v) {
  return {b.getNamedAttr("block", b.getDenseI64ArrayAttr({knobValue(v, "BX"), knobValue(v, "BY"),
                                                          knobValue(v, "BZ")}))};
}

/// The op itself checks the forall when it applies.
std::string verifyOnePerThreadKnobs(const KernelShape &, const KnobValues &v,
                                    int64_t maxThreads, int64_t) {
  int64_t threads = knobValue(v, "BX") * knobValue(v, "BY") * knobValue(v, "BZ");
  if (threads <= 0 || threads > maxThreads)
    return "block of " + std::to_string(threads) + " threads";
  return "";
}

/// The knob `name` as a named integer attribute.
NamedAttribute knobAttr(Builder &b, StringRef attr, const KnobValues &v, StringRef name) {
  return b.getNamedAttr(attr, b.getI64IntegerAttr(knobValue(v, name)));
}

/// Appends `attr = true` when the knob `name` is set (the ops' optional flags).
void appendFlag(Builder &b, OpAttrs &a, StringRef attr, const KnobValues &v, StringRef name) {
  if (knobValue(v, name) > 0)
    a.push_back(b.getNamedAttr(attr, b.getBoolAttr(true)));
}

OpAttrs rowReductionAttributes(Builder &b, const KnobValues &v) {
  OpAttrs a{knobAttr(b, "threads_per_row", v, "T"), knobAttr(b, "rows_per_block", v, "R"),
            knobAttr(b, "vector", v, "V"), knobAttr(b, "unroll", v, "U"),
            knobAttr(b, "cached_turns", v, "C")};
  appendFlag(b, a, "prefetch", v, "P");
  appendFlag(b, a, "online", v, "O");
  appendFlag(b, a, "interleaved", v, "IL");
  return a;
}

/// For the families of raised kernels without a contraction: the knobs'
/// own limits, then the op's checks of the kernel's forall (`why` set on
/// failure).
template <typename Schedule>
std::string verifyForallKnobs(const KernelShape &shape, const Schedule &s, int64_t maxThreads,
                              int64_t maxShared,
                              std::string (*limits)(const Schedule &, int64_t),
                              LogicalResult (*check)(scf::ForallOp, const Schedule &, int64_t,
                                                     std::string &)) {
  std::string why = limits(s, maxThreads);
  if (why.empty() && shape.forall)
    (void)check(shape.forall, s, maxShared, why);
  return why;
}

/// checkRowReduction without its optional result (a function pointer's type).
LogicalResult checkRowReductionOnly(scf::ForallOp forall, const RowReductionSchedule &s,
                                    int64_t maxShared, std::string &why) {
  return checkRowReduction(forall, s, maxShared, why);
}

std::string verifyRowReductionKnobs(const KernelShape &shape, const KnobValues &v,
                                    int64_t maxThreads, int64_t maxShared) {
  return verifyForallKnobs(shape, toRowReduction(v), maxThreads, maxShared, verifyRowReduction,
                           checkRowReductionOnly);
}

OpAttrs transposeTileAttributes(Builder &b, const KnobValues &v) {
  return {b.getNamedAttr("tile", b.getDenseI64ArrayAttr({knobValue(v, "TI"), knobValue(v, "TJ")})),
          b.getNamedAttr("block", b.getDenseI64ArrayAttr({knobValue(v, "BX"), knobValue(v, "BY")})),
          knobAttr(b, "pad", v, "PAD")};
}

std::string verifyTransposeTileKnobs(const KernelShape &shape, const KnobValues &v,
                                     int64_t maxThreads, int64_t maxShared) {
  return verifyForallKnobs(shape, toTransposeTile(v), maxThreads, maxShared, verifyTransposeTile,
                           checkTransposeTile);
}

OpAttrs registerWindowAttributes(Builder &b, const KnobValues &v) {
  HaloTileSchedule s = toRegisterWindow(v);
  return {b.getNamedAttr("tile", b.getDenseI64ArrayAttr(s.tile)),
          b.getNamedAttr("block", b.getDenseI64ArrayAttr(s.block)),
          b.getNamedAttr("registers", b.getBoolAttr(true))};
}

/// checkHaloTile without its optional result (a function pointer's type).
LogicalResult checkRegisterWindow(scf::ForallOp forall, const HaloTileSchedule &s,
                                  int64_t maxShared, std::string &why) {
  return checkHaloTile(forall, s, maxShared, why);
}

std::string verifyRegisterWindowKnobs(const KernelShape &shape, const KnobValues &v,
                                      int64_t maxThreads, int64_t maxShared) {
  int64_t dims = knobValue(v, "DIMS");
  if (dims != 2 && dims != 3)
    return "DIMS = " + std::to_string(dims) + ": a register window is 2-D or 3-D";
  return verifyForallKnobs(shape, toRegisterWindow(v), maxThreads, maxShared, verifyHaloTile,
                           checkRegisterWindow);
}

OpAttrs privatizedAtomicsAttributes(Builder &b, const KnobValues &v) {
  OpAttrs a{knobAttr(b, "bins", v, "B"), knobAttr(b, "threads", v, "T"),
            knobAttr(b, "items_per_thread", v, "I"), knobAttr(b, "unroll", v, "U")};
  appendFlag(b, a, "aggregate", v, "A");
  return a;
}

std::string verifyPrivatizedAtomicsKnobs(const KernelShape &shape, const KnobValues &v,
                                         int64_t maxThreads, int64_t maxShared) {
  return verifyForallKnobs(shape, toPrivatizedAtomics(v), maxThreads, maxShared,
                           verifyPrivatizedAtomics, checkPrivatizedAtomics);
}

struct Family : ScheduleFamily {
  OpAttrs (*attributes)(Builder &, const KnobValues &);
  std::string (*check)(const KernelShape &, const KnobValues &, int64_t, int64_t);
  int64_t (*count)(const KnobValues &);
};

int64_t outerProductComplexity(const KnobValues &v) {
  return (knobValue(v, "PAD_A") != 0) + (knobValue(v, "PAD_B") != 0) + knobValue(v, "SWZ_A") + knobValue(v, "SWZ_B") +
         (knobValue(v, "VEC_A") > 1) + (knobValue(v, "VEC_B") > 1) + (knobValue(v, "STAGES") > 1) +
         knobValue(v, "ASYNC") + (knobValue(v, "GROUP_M") > 1) + (knobValue(v, "SPLIT_K") > 1);
}

int64_t splitReductionComplexity(const KnobValues &v) {
  return (knobValue(v, "WARPS_RED") > 1) + (knobValue(v, "OUTS") > 1) + (knobValue(v, "VEC") > 1) +
         (knobValue(v, "UNROLL") > 1);
}

// Claims: what the transform ops allocate (OuterProductSchedule::sharedBytes,
// the split reduction's partial sums) and a register estimate (accumulators,
// the fragments of both operands twice over, the staging registers of
// double buffering, 24 for addresses and indices) that ptxas's report
// replaces once a candidate is compiled. FamilyTest checks the shared-memory
// formulas against the structs.
const Family kOuterProduct{
    {"outer_product", "transform.ks.simt_outer_product", kOuterProductKnobs,
     "4*STAGES*((KOUTER_A*BK*(BM+PAD_A)+(1-KOUTER_A)*BM*(BK+PAD_A))+"
     "(KOUTER_B*BK*(BN+PAD_B)+(1-KOUTER_B)*BN*(BK+PAD_B)))",
     "32*WM*WN",
     "TM*TN*(BM/(WM*LM*TM))*(BN/(WN*(32/LM)*TN))+2*(TM*(BM/(WM*LM*TM))+TN*(BN/(WN*(32/LM)*TN)))"
     "+min(STAGES-1,1)*(BM*BK+BK*BN)/(32*WM*WN)+24"},
    outerProductAttributes, verifyOuterProductKnobs, outerProductComplexity};

const Family kSplitReduction{
    {"split_reduction", "transform.ks.simt_split_reduction", kSplitReductionKnobs,
     "min(WARPS_RED-1,1)*4*WARPS_RED*LANES_OUT*WARPS_OUT*OUTS", "32*WARPS_OUT*WARPS_RED",
     "2*OUTS*UNROLL*VEC+OUTS+24"},
    splitReductionAttributes, verifySplitReductionKnobs, splitReductionComplexity};

// Not proposed by any rule yet: the driver's schedule for a raised kernel
// without a contraction (its iteration space mapped back onto threads).
const Family kOnePerThread{
    {"one_per_thread", "transform.ks.map_forall_to_grid", kOnePerThreadKnobs, "0", "BX*BY*BZ",
     "24"},
    onePerThreadAttributes, verifyOnePerThreadKnobs, [](const KnobValues &) -> int64_t {
      return 0;
    }};

// Proposed for raised kernels whose forall walks rows in loops (softmax,
// normalizations, row reductions; Rules.cpp), searched over the threads
// per row and the vector width first (measured on the H200: the best of
// both differs by kernel and row length, bench/results/
// 2026-12-02-h200-lowering-prolog).
const Family kRowReduction{
    {"row_reduction", "transform.ks.simt_row_reduction", kRowReductionKnobs,
     "4*(T/32)*2+IL*4*T*R*2", "T*R", "V*C*(1+P)+2*U*V+24", "T,V"},
    rowReductionAttributes, verifyRowReductionKnobs, [](const KnobValues &v) -> int64_t {
      return (knobValue(v, "V") > 1) + (knobValue(v, "U") > 1) + (knobValue(v, "C") > 0) +
             (knobValue(v, "P") > 0) + (knobValue(v, "O") > 0);
    }};

// Not proposed by any rule yet either: the driver's schedule for a raised
// kernel whose forall ends in an atomic addition at a data-dependent index
// (histograms), where the op accepts it. Claims: 4-byte counters, the
// points' indices and values in registers.
const Family kPrivatizedAtomics{
    {"privatized_atomics", "transform.ks.simt_privatized_atomics", kPrivatizedAtomicsKnobs,
     "4*B", "T", "3*U+24"},
    privatizedAtomicsAttributes, verifyPrivatizedAtomicsKnobs, [](const KnobValues &v) -> int64_t {
      return knobValue(v, "U") > 1;
    }};

// Proposed for raised two-dimensional kernels that store across their
// loads (transposes; Rules.cpp). Claims: the f32 shared tile, each thread's
// points' values in registers.
const Family kTransposeTile{
    {"transpose_tile", "transform.ks.simt_transpose_tile", kTransposeTileKnobs,
     "4*TI*(TJ+PAD)", "BX*BY", "2*TI*TJ/(BX*BY)+24", "TI,TJ"},
    transposeTileAttributes, verifyTransposeTileKnobs, [](const KnobValues &v) -> int64_t {
      return knobValue(v, "PAD") > 0;
    }};

// Proposed for raised 2-D and 3-D stencils (Rules.cpp), searched over the
// points per thread and the block's width first (measured on the H200 with
// hand schedules: K 2 to 8, 32 to 256 threads wide, bench/results/
// 2026-12-03-h200-stencil-window). Claims: no shared memory; registers
// fitted on ptxas's reports of the 2-D and 3-D windows (28 at K = 2, 44 to
// 58 at K = 8).
const Family kRegisterWindow{
    {"register_window", "transform.ks.simt_halo_tile", kRegisterWindowKnobs, "0", "BX*BY",
     "4*K+24", "K,BX"},
    registerWindowAttributes, verifyRegisterWindowKnobs, [](const KnobValues &v) -> int64_t {
      return knobValue(v, "K") > 1;
    }};

// Not proposed by a rule: the driver's SIMT-level rewrite of a kernel the
// raising leaves alone (a block's interleaved tree reduction to sequential
// addressing). No knobs; the op checks the kernel when it applies.
const Family kSequentialTree{
    {"sequential_tree", "transform.ks.simt_sequential_tree", {}, "0", "0", "24"},
    [](Builder &, const KnobValues &) -> OpAttrs { return {}; },
    [](const KernelShape &, const KnobValues &, int64_t, int64_t) -> std::string { return ""; },
    [](const KnobValues &) -> int64_t { return 1; }};

const ScheduleFamily *const kFamilies[] = {&kOuterProduct,  &kSplitReduction,
                                           &kOnePerThread,  &kRowReduction,
                                           &kTransposeTile, &kPrivatizedAtomics,
                                           &kRegisterWindow, &kSequentialTree};

const Family &self(const ScheduleFamily *f) { return *static_cast<const Family *>(f); }

} // namespace

KnobValues ScheduleFamily::complete(const KnobValues &values) const {
  KnobValues all;
  for (const Knob &k : knobs)
    all[std::string(k.name)] = k.defaultValue;
  for (auto &[name, value] : values)
    all[name] = value;
  return all;
}

SmallVector<NamedAttribute> ScheduleFamily::opAttributeList(Builder &b,
                                                            const KnobValues &values) const {
  return self(this).attributes(b, complete(values));
}

std::string ScheduleFamily::opAttributes(MLIRContext *context, const KnobValues &values) const {
  Builder b(context);
  std::string text = "{";
  llvm::raw_string_ostream os(text);
  for (auto [i, a] : llvm::enumerate(opAttributeList(b, values))) {
    os << (i ? ", " : "") << a.getName().getValue();
    if (!isa<UnitAttr>(a.getValue())) {
      os << " = ";
      a.getValue().print(os, /*elideType=*/true);
    }
  }
  return text + "}";
}

std::string ScheduleFamily::verify(const KernelShape &shape, const KnobValues &values,
                                   int64_t maxThreads, int64_t maxSharedBytes) const {
  KnobValues all = complete(values);
  for (auto &[name, value] : values)
    if (llvm::none_of(knobs, [&](const Knob &k) { return k.name == name; }))
      return "'" + name + "' is not a knob of " + std::string(this->name);
  return self(this).check(shape, all, maxThreads, maxSharedBytes);
}

int64_t ScheduleFamily::complexity(const KnobValues &values) const {
  return self(this).count(complete(values));
}

const ScheduleFamily *mlir::ks::lookupScheduleFamily(StringRef name) {
  for (const ScheduleFamily *f : kFamilies)
    if (f->name == name)
      return f;
  return nullptr;
}

ArrayRef<const ScheduleFamily *> mlir::ks::allScheduleFamilies() { return kFamilies; }

OuterProductSchedule mlir::ks::toOuterProduct(const KnobValues &v) {
  OuterProductSchedule s;
  s.blockM = knobValue(v, "BM");
  s.blockN = knobValue(v, "BN");
  s.blockK = knobValue(v, "BK");
  s.warpsM = knobValue(v, "WM");
  s.warpsN = knobValue(v, "WN");
  s.lanesM = knobValue(v, "LM");
  s.lanesN = s.lanesM > 0 ? 32 / s.lanesM : 0;
  s.threadM = knobValue(v, "TM");
  s.threadN = knobValue(v, "TN");
  s.lhsKOuter = knobValue(v, "KOUTER_A") != 0;
  s.rhsKOuter = knobValue(v, "KOUTER_B") != 0;
  s.lhsPad = knobValue(v, "PAD_A");
  s.rhsPad = knobValue(v, "PAD_B");
  s.lhsSwizzle = knobValue(v, "SWZ_A") != 0;
  s.rhsSwizzle = knobValue(v, "SWZ_B") != 0;
  s.lhsVector = knobValue(v, "VEC_A");
  s.rhsVector = knobValue(v, "VEC_B");
  s.stages = knobValue(v, "STAGES");
  s.asyncCopy = knobValue(v, "ASYNC") != 0;
  s.groupM = knobValue(v, "GROUP_M");
  s.splitK = knobValue(v, "SPLIT_K");
  return s;
}

SplitReductionSchedule mlir::ks::toSplitReduction(const KnobValues &v) {
  SplitReductionSchedule s;
  s.lanesOut = knobValue(v, "LANES_OUT");
  s.lanesRed = s.lanesOut > 0 ? 32 / s.lanesOut : 0;
  s.warpsOut = knobValue(v, "WARPS_OUT");
  s.warpsRed = knobValue(v, "WARPS_RED");
  s.outputsPerThread = knobValue(v, "OUTS");
  s.vector = knobValue(v, "VEC");
  s.unroll = knobValue(v, "UNROLL");
  return s;
}

RowReductionSchedule mlir::ks::toRowReduction(const KnobValues &v) {
  RowReductionSchedule s;
  s.threadsPerRow = knobValue(v, "T");
  s.rowsPerBlock = knobValue(v, "R");
  s.vector = knobValue(v, "V");
  s.unroll = knobValue(v, "U");
  s.cachedTurns = knobValue(v, "C");
  s.prefetch = knobValue(v, "P") != 0;
  s.online = knobValue(v, "O") != 0;
  s.interleaved = knobValue(v, "IL") != 0;
  return s;
}

TransposeTileSchedule mlir::ks::toTransposeTile(const KnobValues &v) {
  TransposeTileSchedule s;
  s.tile = {knobValue(v, "TI"), knobValue(v, "TJ")};
  s.block = {knobValue(v, "BX"), knobValue(v, "BY")};
  s.pad = knobValue(v, "PAD");
  return s;
}

HaloTileSchedule mlir::ks::toRegisterWindow(const KnobValues &v) {
  HaloTileSchedule s;
  int64_t k = knobValue(v, "K"), bx = knobValue(v, "BX"), by = knobValue(v, "BY");
  if (knobValue(v, "DIMS") == 3) {
    s.tile = {k, by, bx}; // K planes per thread, one thread along them
    s.block = {bx, by, 1};
  } else {
    s.tile = {k * by, bx}; // BY threads of K rows each
    s.block = {bx, by};
  }
  s.registers = true;
  return s;
}

PrivatizedAtomicsSchedule mlir::ks::toPrivatizedAtomics(const KnobValues &v) {
  PrivatizedAtomicsSchedule s;
  s.bins = knobValue(v, "B");
  s.threads = knobValue(v, "T");
  s.itemsPerThread = knobValue(v, "I");
  s.unroll = knobValue(v, "U");
  s.aggregate = knobValue(v, "A") > 0;
  return s;
}

std::optional<int64_t> mlir::ks::evaluateClaim(StringRef formula, const KnobValues &values) {
  auto result = evaluateFormula(formula.str(), values);
  if (auto *v = std::get_if<int64_t>(&result))
    return *v;
  return std::nullopt;
}
