//===- KSTransformOps.cpp - KernelSkill transform-dialect ops -------------===//

#include "kernelskill/Dialect/KS/TransformOps/KSTransformOps.h"
#include "kernelskill/Dialect/KS/IR/KSAttrs.h"
#include "kernelskill/Support/ArchDatabase.h"
#include "kernelskill/Transforms/Contraction.h"
#include "kernelskill/Transforms/GridMapping.h"
#include "kernelskill/Transforms/HaloTile.h"
#include "kernelskill/Transforms/KernelLaunch.h"
#include "kernelskill/Transforms/PrivatizedAtomics.h"
#include "kernelskill/Transforms/Raising.h"
#include "kernelskill/Transforms/RowReduction.h"
#include "kernelskill/Transforms/SequentialTree.h"
#include "kernelskill/Transforms/TransposeTile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::ks;

#define GET_OP_CLASSES
#include "kernelskill/Dialect/KS/TransformOps/KSTransformOps.cpp.inc"

namespace {
/// The target's limits: the module's #ks.arch, else the default GPU's.
GPUCapabilities capabilitiesFor(Operation *op) {
  if (auto module = op->getParentOfType<ModuleOp>())
    if (auto arch = module->getAttrOfType<ArchAttr>(ArchAttr::kModuleAttrName))
      return arch.getCaps();
  return getDefaultGPU().caps;
}

/// The contraction a schedule applies to: the target itself, or the one
/// contraction of a raised kernel given as the target.
FailureOr<linalg::LinalgOp> contractionOf(Operation *target, std::string &why) {
  if (auto op = dyn_cast<linalg::LinalgOp>(target))
    return op;
  if (auto kernel = dyn_cast<gpu::GPUFuncOp>(target))
    return findKernelContraction(kernel, why);
  why = "the target is neither a linalg op nor a raised kernel";
  return failure();
}

DiagnosedSilenceableFailure refuse(Operation *transformOp, Operation *target, StringRef opName,
                                   const Twine &why) {
  DiagnosedSilenceableFailure diag = emitSilenceableFailure(transformOp) << opName << ": " << why;
  diag.attachNote(target->getLoc()) << "target";
  return diag;
}
} // namespace

//===----------------------------------------------------------------------===//
// simt_outer_product
//===----------------------------------------------------------------------===//

DiagnosedSilenceableFailure transform::SIMTOuterProductOp::applyToOne(
    transform::TransformRewriter &rewriter, Operation *target,
    transform::ApplyToEachResultList &results, transform::TransformState &state) {
  constexpr StringLiteral name = "ks.simt_outer_product";
  std::string found;
  FailureOr<linalg::LinalgOp> contraction = contractionOf(target, found);
  if (failed(contraction))
    return refuse(*this, target, name, found);
  linalg::LinalgOp linalgOp = *contraction;
  auto pairOf = [&](ArrayRef<int64_t> v, StringRef knob, int64_t &a, int64_t &b) {
    if (v.size() != 2)
      return false;
    a = v[0];
    b = v[1];
    (void)knob;
    return true;
  };
  OuterProductSchedule s;
  ArrayRef<bool> swizzle = getSwizzle();
  if (!pairOf(getBlockTile(), "block_tile", s.blockM, s.blockN) ||
      !pairOf(getWarps(), "warps", s.warpsM, s.warpsN) ||
      !pairOf(getLanes(), "lanes", s.lanesM, s.lanesN) ||
      !pairOf(getThreadTile(), "thread_tile", s.threadM, s.threadN) ||
      !pairOf(getPadding(), "padding", s.lhsPad, s.rhsPad) ||
      !pairOf(getLoadVector(), "load_vector", s.lhsVector, s.rhsVector) || swizzle.size() != 2)
    return refuse(*this, target, name,
                  "block_tile, warps, lanes, thread_tile, padding, swizzle and load_vector take "
                  "two values (lhs/m, rhs/n)");
  if (getLhsLayout() != "km" && getLhsLayout() != "mk")
    return refuse(*this, target, name, "lhs_layout must be \"km\" (k outer) or \"mk\" (k inner)");
  if (getRhsLayout() != "kn" && getRhsLayout() != "nk")
    return refuse(*this, target, name, "rhs_layout must be \"kn\" (k outer) or \"nk\" (k inner)");
  s.lhsKOuter = getLhsLayout() == "km";
  s.rhsKOuter = getRhsLayout() == "kn";
  s.lhsSwizzle = swizzle[0];
  s.rhsSwizzle = swizzle[1];
  s.blockK = getReductionTile();
  s.stages = getStages();
  s.asyncCopy = getAsyncCopy();
  s.groupM = getGroupM();
  s.splitK = getSplitK();

  std::string why;
  FailureOr<ContractionProblem> problem = analyzeContraction(linalgOp, why);
  if (failed(problem))
    return refuse(*this, target, name, why);
  GPUCapabilities caps = capabilitiesFor(target);
  if (s.asyncCopy && !(caps.asyncCopies & kAsyncCopyCpAsync))
    return refuse(*this, target, name, "async_copy: the target chip has no cp.async");
  std::string bad = verifyOuterProduct(*problem, s, caps.maxThreadsPerBlock, caps.smemPerBlock);
  if (!bad.empty())
    return refuse(*this, target, name, bad);
  gpu::GPUFuncOp kernel = problem->kernel;
  if (failed(generateOuterProduct(*problem, s, why)))
    return refuse(*this, kernel, name, why);
  dropKernelFacts(kernel);
  results.push_back(kernel);
  return DiagnosedSilenceableFailure::success();
}

//===----------------------------------------------------------------------===//
// simt_split_reduction
//===----------------------------------------------------------------------===//

DiagnosedSilenceableFailure transform::SIMTSplitReductionOp::applyToOne(
    transform::TransformRewriter &rewriter, Operation *target,
    transform::ApplyToEachResultList &results, transform::TransformState &state) {
  constexpr StringLiteral name = "ks.simt_split_reduction";
  std::string found;
  FailureOr<linalg::LinalgOp> contraction = contractionOf(target, found);
  if (failed(contraction))
    return refuse(*this, target, name, found);
  linalg::LinalgOp linalgOp = *contraction;
  if (getLanes().size() != 2 || getWarps().size() != 2)
    return refuse(*this, target, name, "lanes and warps take two values (outputs, reduction)");
  SplitReductionSchedule s;
  s.lanesOut = getLanes()[0];
  s.lanesRed = getLanes()[1];
  s.warpsOut = getWarps()[0];
  s.warpsRed = getWarps()[1];
  s.outputsPerThread = getOutputsPerThread();
  s.vector = getVector();
  s.unroll = getUnroll();
  std::string why;
  FailureOr<ContractionProblem> problem = analyzeContraction(linalgOp, why);
  if (failed(problem))
    return refuse(*this, target, name, why);
  GPUCapabilities caps = capabilitiesFor(target);
  std::string bad = verifySplitReduction(*problem, s, caps.maxThreadsPerBlock, caps.smemPerBlock);
  if (!bad.empty())
    return refuse(*this, target, name, bad);
  gpu::GPUFuncOp kernel = problem->kernel;
  if (failed(generateSplitReduction(*problem, s, why)))
    return refuse(*this, kernel, name, why);
  dropKernelFacts(kernel);
  results.push_back(kernel);
  return DiagnosedSilenceableFailure::success();
}

//===----------------------------------------------------------------------===//
// simt_row_reduction
//===----------------------------------------------------------------------===//

namespace {
/// The forall a forall schedule applies to: the target, or the top-level
/// forall of the raised kernel given as the target.
scf::ForallOp forallOf(Operation *target) {
  if (auto k = dyn_cast<gpu::GPUFuncOp>(target); k && k->hasAttr(kRaisedAttrName))
    for (Operation &op : k.getBody().front())
      if (auto f = dyn_cast<scf::ForallOp>(op))
        return f;
  return dyn_cast<scf::ForallOp>(target);
}

/// What every forall schedule's op does around its generator: find the
/// forall, check the knobs against the target's chip (`verify` returns why
/// not, or nothing), generate the code (the chip's shared memory per block
/// as the limit), drop the facts the new IR no longer has.
template <typename Schedule>
DiagnosedSilenceableFailure
applyForallSchedule(Operation *transformOp, Operation *target, StringRef name, const Schedule &s,
                    function_ref<std::string(const Schedule &, int64_t maxThreads)> verify,
                    function_ref<LogicalResult(scf::ForallOp, const Schedule &,
                                               int64_t maxSharedBytes, std::string &)>
                        generate,
                    transform::ApplyToEachResultList &results) {
  scf::ForallOp forall = forallOf(target);
  if (!forall)
    return refuse(transformOp, target, name,
                  "the target is neither an scf.forall nor a raised kernel");
  GPUCapabilities caps = capabilitiesFor(target);
  std::string bad = verify(s, caps.maxThreadsPerBlock);
  if (!bad.empty())
    return refuse(transformOp, target, name, bad);
  auto kernel = forall->getParentOfType<gpu::GPUFuncOp>();
  std::string why;
  if (failed(generate(forall, s, caps.smemPerBlock, why)))
    return refuse(transformOp, target, name, why);
  dropKernelFacts(kernel);
  results.push_back(kernel);
  return DiagnosedSilenceableFailure::success();
}
} // namespace

DiagnosedSilenceableFailure transform::SIMTRowReductionOp::applyToOne(
    transform::TransformRewriter &rewriter, Operation *target,
    transform::ApplyToEachResultList &results, transform::TransformState &state) {
  RowReductionSchedule s;
  s.threadsPerRow = getThreadsPerRow();
  s.rowsPerBlock = getRowsPerBlock();
  s.vector = getVector();
  s.unroll = getUnroll();
  s.cachedTurns = getCachedTurns();
  s.interleaved = getInterleaved();
  s.prefetch = getPrefetch();
  s.online = getOnline();
  return applyForallSchedule<RowReductionSchedule>(*this, target, "ks.simt_row_reduction", s,
                                                   verifyRowReduction, generateRowReduction,
                                                   results);
}

//===----------------------------------------------------------------------===//
// simt_transpose_tile
//===----------------------------------------------------------------------===//

DiagnosedSilenceableFailure transform::SIMTTransposeTileOp::applyToOne(
    transform::TransformRewriter &rewriter, Operation *target,
    transform::ApplyToEachResultList &results, transform::TransformState &state) {
  constexpr StringLiteral name = "ks.simt_transpose_tile";
  if (getTile().size() != 2 || getBlock().size() != 2)
    return refuse(*this, target, name, "tile and block take two sizes each");
  TransposeTileSchedule s;
  s.tile = {getTile()[0], getTile()[1]};
  s.block = {getBlock()[0], getBlock()[1]};
  s.pad = getPad();
  return applyForallSchedule<TransposeTileSchedule>(*this, target, name, s, verifyTransposeTile,
                                                    generateTransposeTile, results);
}

//===----------------------------------------------------------------------===//
// simt_halo_tile
//===----------------------------------------------------------------------===//

DiagnosedSilenceableFailure transform::SIMTHaloTileOp::applyToOne(
    transform::TransformRewriter &rewriter, Operation *target,
    transform::ApplyToEachResultList &results, transform::TransformState &state) {
  HaloTileSchedule s;
  s.tile.assign(getTile().begin(), getTile().end());
  s.block.assign(getBlock().begin(), getBlock().end());
  s.stream = getStream();
  s.registers = getRegisters();
  return applyForallSchedule<HaloTileSchedule>(*this, target, "ks.simt_halo_tile", s,
                                               verifyHaloTile, generateHaloTile, results);
}

//===----------------------------------------------------------------------===//
// simt_privatized_atomics
//===----------------------------------------------------------------------===//

DiagnosedSilenceableFailure transform::SIMTPrivatizedAtomicsOp::applyToOne(
    transform::TransformRewriter &rewriter, Operation *target,
    transform::ApplyToEachResultList &results, transform::TransformState &state) {
  PrivatizedAtomicsSchedule s;
  s.bins = getBins();
  s.threads = getThreads();
  s.itemsPerThread = getItemsPerThread();
  s.unroll = getUnroll();
  s.copies = getCopies();
  s.aggregate = getAggregate();
  return applyForallSchedule<PrivatizedAtomicsSchedule>(*this, target, "ks.simt_privatized_atomics",
                                                        s, verifyPrivatizedAtomics,
                                                        generatePrivatizedAtomics, results);
}

//===----------------------------------------------------------------------===//
// simt_sequential_tree
//===----------------------------------------------------------------------===//

DiagnosedSilenceableFailure transform::SIMTSequentialTreeOp::applyToOne(
    transform::TransformRewriter &rewriter, Operation *target,
    transform::ApplyToEachResultList &results, transform::TransformState &state) {
  constexpr StringLiteral name = "ks.simt_sequential_tree";
  auto kernel = dyn_cast<gpu::GPUFuncOp>(target);
  if (!kernel || !kernel.isKernel())
    return refuse(*this, target, name, "the target is not a kernel (gpu.func)");
  std::string why;
  if (rewriteInterleavedTrees(kernel, why) == 0)
    return refuse(*this, target, name, "no interleaved or strided tree reduction to rewrite: " + why);
  results.push_back(kernel);
  return DiagnosedSilenceableFailure::success();
}

//===----------------------------------------------------------------------===//
// map_forall_to_grid
//===----------------------------------------------------------------------===//

DiagnosedSilenceableFailure transform::MapForallToGridOp::applyToOne(
    transform::TransformRewriter &rewriter, Operation *target,
    transform::ApplyToEachResultList &results, transform::TransformState &state) {
  constexpr StringLiteral name = "ks.map_forall_to_grid";
  if (getBlock().size() != 3 || getCoarsen().size() != 3)
    return refuse(*this, target, name, "block and coarsen take three sizes each (x, y, z)");
  GridMappingSchedule s;
  s.block = {getBlock()[0], getBlock()[1], getBlock()[2]};
  s.coarsen = {getCoarsen()[0], getCoarsen()[1], getCoarsen()[2]};
  // (The mapping needs no shared memory.)
  auto generate = [](scf::ForallOp forall, const GridMappingSchedule &s, int64_t,
                     std::string &why) { return generateGridMapping(forall, s, why); };
  return applyForallSchedule<GridMappingSchedule>(*this, target, name, s, verifyGridMapping,
                                                  generate, results);
}

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

namespace {
class KSTransformDialectExtension
    : public transform::TransformDialectExtension<KSTransformDialectExtension> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(KSTransformDialectExtension)
  using Base::Base;
  void init() {
    declareGeneratedDialect<gpu::GPUDialect>();
    declareGeneratedDialect<nvgpu::NVGPUDialect>();
    declareGeneratedDialect<NVVM::NVVMDialect>();
    declareGeneratedDialect<scf::SCFDialect>();
    declareGeneratedDialect<arith::ArithDialect>();
    declareGeneratedDialect<math::MathDialect>();
    declareGeneratedDialect<memref::MemRefDialect>();
    declareGeneratedDialect<vector::VectorDialect>();
    registerTransformOps<
#define GET_OP_LIST
#include "kernelskill/Dialect/KS/TransformOps/KSTransformOps.cpp.inc"
        >();
  }
};
} // namespace

void mlir::ks::registerKSTransformOps(DialectRegistry &registry) {
  registry.addExtensions<KSTransformDialectExtension>();
}
