//===- KSTransformOps.td - KernelSkill transform ops -------*- tablegen -*-===//
//
// The schedules of the transform library (docs/Transforms.md): ops of the
// transform dialect that a script, and later the agents, apply with chosen
// knobs. They make no choices of their own; each refuses with a diagnostic
// naming the knob that cannot apply.
//
//===----------------------------------------------------------------------===//
#ifndef KS_TRANSFORMOPS_TD
#define KS_TRANSFORMOPS_TD

include "mlir/Dialect/Transform/IR/TransformDialect.td"
include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/OpBase.td"

def KS_SIMTOuterProductOp : Op<Transform_Dialect, "ks.simt_outer_product",
    [FunctionalStyleTransformOpTrait, MemoryEffectsOpInterface, TransformEachOpTrait,
     TransformOpInterface]> {
  let summary = "Generate a register-tiled SIMT kernel for a raised contraction (the GEMM family)";
  let description = [{
    The target is a linalg contraction in a raised kernel (`ks-raise`), with
    its init fill, optional elementwise epilogue and materialization, or the
    raised kernel (`gpu.func`) itself when it holds exactly one contraction
    (how the agent driver's schedules name their targets). The op replaces
    the group with SIMT code and rewrites the kernel's launch:

    - **Block tiling and grid mapping.** Each block computes a
      `block_tile = [BM, BN]` tile of the output (the m and n dimensions,
      linearized when there are several); blocks run in rows of tiles, or,
      with `group_m = G`, in groups of G tile rows column by column (L2
      reuse). Batch dimensions go to blockIdx.z. The launch becomes
      ceil(M / BM) * ceil(N / BN) x 1 x batch blocks of 32 * warps[0] *
      warps[1] threads.
    - **Reduction tiling with shared-memory staging.** The reduction runs
      in steps of `reduction_tile = BK`; each step's A tile [BM x BK] and B
      tile [BK x BN] are loaded by all threads, coalesced, `load_vector`
      elements at a time (128-bit loads with 4; the buffer's alignment is
      checked once per block, unaligned or partial vectors are loaded by
      element), and stored in shared memory k-outer (`lhs_layout = "km"`,
      `rhs_layout = "kn"`: [BK][BM]) or k-inner (`"mk"`, `"nk"`: [BM][BK]);
      a layout other than the global one is a transposed staging.
    - **Padding or XOR swizzle** of each shared tile (`padding`, in
      elements per row; `swizzle`, 16-byte chunks XOR-ed with the row).
    - **Warp and register tiling.** `warps = [WM, WN]` warps per block,
      `lanes = [LM, LN]` lanes per warp (LM * LN = 32), each lane computing
      `thread_tile = [TM, TN]` micro-tiles repeated BM / (WM * LM * TM) x
      BN / (WN * LN * TN) times; operands are read from shared memory with
      128-bit loads; the accumulators live in registers.
    - **Pipelining.** `stages = 2` without `async_copy`: register double
      buffering (the next step's global loads are in flight during this
      step's arithmetic). With `async_copy` (cp.async, sm_80 and later):
      `stages` (1 to 4) buffers in flight; edges are zero-filled by the
      copy itself.
    - **Split-K.** `split_k = S` splits each tile's reduction across S
      blocks (blockIdx.y) for outputs too small to fill the GPU (a
      tall-skinny GEMM): each block adds alpha times its partial sum to the
      output with an atomic add, after a first kernel (`<name>_split_init`,
      launched before each launch of this one with the same arguments) set
      the output to the epilogue's offset (beta * C, a bias, or 0). The
      epilogue must be `alpha * acc + offset` and the reduction must start
      from 0; the order of the sum changes.
    - **Edges.** Every global load and store is predicated: sizes need not
      be multiples of any tile.

    The multiply-adds keep the source's FMA contraction (`ks.contract`).
    The loops over the register tiles are marked `ks.unroll`: the lowering
    unrolls them and the CUDA exporter writes `#pragma unroll`.
    Returns the kernel.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
      DefaultValuedAttr<DenseI64ArrayAttr, "{128, 128}">:$block_tile,
      DefaultValuedAttr<I64Attr, "8">:$reduction_tile,
      DefaultValuedAttr<DenseI64ArrayAttr, "{2, 4}">:$warps,
      DefaultValuedAttr<DenseI64ArrayAttr, "{4, 8}">:$lanes,
      DefaultValuedAttr<DenseI64ArrayAttr, "{4, 4}">:$thread_tile,
      DefaultValuedAttr<StrAttr, "\"km\"">:$lhs_layout,
      DefaultValuedAttr<StrAttr, "\"kn\"">:$rhs_layout,
      DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0}">:$padding,
      DefaultValuedAttr<DenseBoolArrayAttr, "{false, false}">:$swizzle,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$load_vector,
      DefaultValuedAttr<I64Attr, "1">:$stages,
      UnitAttr:$async_copy,
      DefaultValuedAttr<I64Attr, "1">:$group_m,
      DefaultValuedAttr<I64Attr, "1">:$split_k);
  let results = (outs TransformHandleTypeInterface:$kernel);
  let assemblyFormat = "$target attr-dict `:` functional-type(operands, results)";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure applyToOne(
        ::mlir::transform::TransformRewriter &rewriter, ::mlir::Operation *target,
        ::mlir::transform::ApplyToEachResultList &results,
        ::mlir::transform::TransformState &state);
  }];
}

def KS_SIMTSplitReductionOp : Op<Transform_Dialect, "ks.simt_split_reduction",
    [FunctionalStyleTransformOpTrait, MemoryEffectsOpInterface, TransformEachOpTrait,
     TransformOpInterface]> {
  let summary = "Generate a SIMT kernel that splits a contraction's reduction across threads (the GEMV family)";
  let description = [{
    For contractions with few outputs per element read (matrix-vector
    products, reductions with a small operand); the target is the
    contraction or the raised kernel holding it. Each block computes
    `lanes[0] * warps[0] * outputs_per_thread` outputs; the reduction is
    split across `lanes[1]` lanes of a warp (combined with warp shuffles)
    and `warps[1]` warps (combined through shared memory). Each thread reads
    `vector` consecutive elements along the contiguous dimension of the
    large operand per load (128-bit with 4; alignment checked, scalar at the
    edges) and keeps `unroll` independent loads in flight. Outputs past the
    problem are predicated. Returns the kernel.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 32}">:$lanes,
      DefaultValuedAttr<DenseI64ArrayAttr, "{8, 1}">:$warps,
      DefaultValuedAttr<I64Attr, "1">:$outputs_per_thread,
      DefaultValuedAttr<I64Attr, "1">:$vector,
      DefaultValuedAttr<I64Attr, "1">:$unroll);
  let results = (outs TransformHandleTypeInterface:$kernel);
  let assemblyFormat = "$target attr-dict `:` functional-type(operands, results)";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure applyToOne(
        ::mlir::transform::TransformRewriter &rewriter, ::mlir::Operation *target,
        ::mlir::transform::ApplyToEachResultList &results,
        ::mlir::transform::TransformState &state);
  }];
}

def KS_SIMTRowReductionOp : Op<Transform_Dialect, "ks.simt_row_reduction",
    [FunctionalStyleTransformOpTrait, MemoryEffectsOpInterface, TransformEachOpTrait,
     TransformOpInterface]> {
  let summary = "Give each row of a raised row-loop kernel a group of threads";
  let description = [{
    For raised kernels whose forall iterates over rows and whose body walks
    the row in loops: row sums and maxima, softmax (max, sum, normalize),
    LayerNorm (mean, variance, normalize), RMSNorm. The target is the
    forall, or the raised kernel standing for it. Each row gets
    `threads_per_row` threads (a power of two: 32 is a warp per row, more a
    block per row with `rows_per_block` = 1), `rows_per_block` rows per
    block. Every loop over the row is split across the row's threads: each
    takes `vector` consecutive elements in turn (vector loads where the view
    is contiguous along the row and aligned, scalar at the edges), `unroll`
    turns per iteration with the loads of buffers the kernel does not write
    issued first. With `cached_turns` = C > 0, a row of up to
    `threads_per_row * vector * C` elements is read from memory once: the
    elements several loops read are kept in each thread's registers by the
    first loop (all C turns unrolled), and longer rows take the uncached
    version (the loops' bounds must be the same for every row). With
    `prefetch` (and `cached_turns`), the loads a later loop over the row
    makes from a buffer the kernel does not write, at the loop's variable
    and indices fixed before the first loop (RMSNorm's `weight[j]`), are
    issued by the first loop of the same bounds together with the row's own
    loads and kept in registers, so the later loop does not wait on memory
    after the row's reduction; a kernel without such loads is unchanged by
    it. With `online`, a loop taking the row's maximum m and a later loop
    summing exp(x - m) over the same elements (softmax's first two) become
    one loop carrying the running maximum and the sum relative to it
    (rescaled when the maximum grows), which reads the row once where two
    loops read it twice; a kernel without such a pair is unchanged by it.
    Each loop's reductions (any associative arith op with a
    neutral element: add, mul, min, max) are combined across the row's
    threads with warp shuffles, then shared memory across its warps, so that
    every thread holds the row's totals; the work between the loops runs in
    every thread and its stores in the row's first thread. Refuses kernels
    whose threads would read what others write (a written buffer accessed at
    other elements than the loop's variable), other side effects, and loops
    carrying values that are not reductions. Returns the kernel.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
      DefaultValuedAttr<I64Attr, "32">:$threads_per_row,
      DefaultValuedAttr<I64Attr, "4">:$rows_per_block,
      DefaultValuedAttr<I64Attr, "1">:$vector,
      DefaultValuedAttr<I64Attr, "1">:$unroll,
      DefaultValuedAttr<I64Attr, "0">:$cached_turns,
      DefaultValuedAttr<BoolAttr, "false">:$interleaved,
      DefaultValuedAttr<BoolAttr, "false">:$prefetch,
      DefaultValuedAttr<BoolAttr, "false">:$online);
  let results = (outs TransformHandleTypeInterface:$kernel);
  let assemblyFormat = "$target attr-dict `:` functional-type(operands, results)";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure applyToOne(
        ::mlir::transform::TransformRewriter &rewriter, ::mlir::Operation *target,
        ::mlir::transform::ApplyToEachResultList &results,
        ::mlir::transform::TransformState &state);
  }];
}

def KS_SIMTTransposeTileOp : Op<Transform_Dialect, "ks.simt_transpose_tile",
    [FunctionalStyleTransformOpTrait, MemoryEffectsOpInterface, TransformEachOpTrait,
     TransformOpInterface]> {
  let summary = "Stage the stores of a raised 2-D kernel through a shared tile, threads along the other dimension";
  let description = [{
    For raised kernels whose forall runs over (i, j) and whose body is one
    store of a value computed from loads, where the loads are contiguous
    along j and the store along i (a transpose, out[j][i] = f(in[i][j])):
    no one mapping of threads makes both coalesced. The target is the
    forall, or the raised kernel standing for it. Each block takes a
    `tile` = [TI, TJ] of the space with `block` = [X, Y] threads: first
    with x along j, each thread computing the values of its points into a
    shared tile (rows padded by `pad` elements against bank conflicts),
    then, after a barrier, with x along i, each thread storing its points
    from the tile. Points outside the space are skipped in both phases
    (sizes that are no multiple of the tile). X must divide TI and TJ, Y
    must too. The grid is ceil(J / TJ) x ceil(I / TI) (at most 65535 tiles
    along i). Refuses bodies with regions, more or less than one store,
    other side effects, a store whose indices depend on a load, and
    reads of the buffer the store writes. Returns the kernel.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
      DefaultValuedAttr<DenseI64ArrayAttr, "{32, 32}">:$tile,
      DefaultValuedAttr<DenseI64ArrayAttr, "{32, 8}">:$block,
      DefaultValuedAttr<I64Attr, "1">:$pad);
  let results = (outs TransformHandleTypeInterface:$kernel);
  let assemblyFormat = "$target attr-dict `:` functional-type(operands, results)";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure applyToOne(
        ::mlir::transform::TransformRewriter &rewriter, ::mlir::Operation *target,
        ::mlir::transform::ApplyToEachResultList &results,
        ::mlir::transform::TransformState &state);
  }];
}

def KS_SIMTHaloTileOp : Op<Transform_Dialect, "ks.simt_halo_tile",
    [FunctionalStyleTransformOpTrait, MemoryEffectsOpInterface, TransformEachOpTrait,
     TransformOpInterface]> {
  let summary = "Stage the neighbourhood reads of a raised 2-D or 3-D stencil through a shared halo tile";
  let description = [{
    For raised kernels whose forall runs over 2 or 3 dimensions and whose
    body reads a buffer at the point and at neighbouring points (a stencil:
    indices that are the iteration variables plus constants, through the
    raising's offset views `in[(i - 1) * m + j]`). The target is the forall,
    or the raised kernel standing for it. Each block takes a `tile` of the
    space (one size per dimension, outermost first) with `block` threads
    (x first, x along the innermost dimension; each size divides the tile's
    along its dimension, at most 16 points per thread and dimension, points
    `block` apart). First every thread loads its share of the tile of each
    staged buffer plus the halo the body's offsets reach (at most 8 apart
    per dimension) into shared memory, all loads unrolled; elements outside
    the buffer the views describe are not loaded, and only an access the
    original makes outside that buffer would see them. After a barrier each
    thread runs the body at its points, inside the space only, reading the
    staged buffers from the tiles; its other loads, stores and branches are
    unchanged. Staged: every buffer the kernel does not write that the body
    reads at two or more offsets. The grid is the tile count per dimension.
    With `stream = K` (K > 0), each block walks its tile's outermost
    dimension (tile[0] planes, rows of a 2-D space) K planes per step,
    keeping in shared memory only the window of planes the step and the
    offsets reach: per step it loads K new planes (with their halo, all the
    loads in flight), waits at a barrier, computes the K planes' points and
    waits again; the block has one thread along that dimension (the last
    size of `block`), K divides tile[0] (at most 16). With `registers`,
    a register window instead of shared memory: each thread takes
    tile[0] / block consecutive points along the outermost dimension (at
    most 32) and one point along the others (tile equal to block there),
    and first loads its column of each staged buffer (those points plus
    the halo along that dimension) into registers, every load in flight
    together; staged are the loads that differ from the point along the
    outermost dimension alone, the other neighbours stay global loads; no
    barrier. Refuses bodies with effects other than loads and stores,
    kernels with other work, and tiles over the shared memory per block (at
    most 48 KiB). Returns the kernel.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
      DenseI64ArrayAttr:$tile,
      DenseI64ArrayAttr:$block,
      DefaultValuedAttr<I64Attr, "0">:$stream,
      DefaultValuedAttr<BoolAttr, "false">:$registers);
  let results = (outs TransformHandleTypeInterface:$kernel);
  let assemblyFormat = "$target attr-dict `:` functional-type(operands, results)";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure applyToOne(
        ::mlir::transform::TransformRewriter &rewriter, ::mlir::Operation *target,
        ::mlir::transform::ApplyToEachResultList &results,
        ::mlir::transform::TransformState &state);
  }];
}

def KS_SIMTPrivatizedAtomicsOp : Op<Transform_Dialect, "ks.simt_privatized_atomics",
    [FunctionalStyleTransformOpTrait, MemoryEffectsOpInterface, TransformEachOpTrait,
     TransformOpInterface]> {
  let summary = "Give each block private counters in shared memory for a raised kernel's scattered atomic additions (histograms)";
  let description = [{
    For raised kernels whose forall body ends in one `memref.atomic_rmw`
    (addi or addf, result unused) into a one-dimensional view at a
    data-dependent index (a histogram, `atomicAdd(&bins[in[i]], 1)`): every
    thread of the GPU then contends for the same global counters. The
    target is the forall, or the raised kernel standing for it. Each block
    of `threads` threads zeroes `bins` counters in shared memory, takes
    `items_per_thread` points per thread (thread t of block b the points
    b * threads * items + t + k * threads: coalesced), adds into the
    shared counters, and after a barrier adds each non-zero shared counter
    into the global one (one atomic per bin and block). `unroll` points'
    loads are issued before their updates. With `copies` = W > 1 each
    block holds W copies of the counters, warp w adding into copy w % W
    (fewer warps contend for a counter where a few bins take most updates),
    and the merge adds the W copies of a counter before its global update.
    With `aggregate` the lanes of a warp that update the same counter
    together are found first (`nvvm.match.sync any`, CUDA's
    `__match_any_sync`), and the lowest of them adds the value times their
    count, once: a skewed input, where most lanes hit a few bins, then
    costs one shared atomic per bin and warp instead of one per lane. It
    needs the added value to be the same at every point (a constant or a
    value defined outside the forall). An update at an index of
    `bins` or more goes to the global buffer directly, so any index is
    exact; the test is omitted where the index is provably below `bins`
    (the extension of a byte, a mask or remainder by a constant). Float
    additions are reordered (the verification tolerance covers it, as for
    any atomic float sum). The grid is ceil(points / (threads *
    items_per_thread)) blocks. Refuses other side effects in the body, an
    atomic that is not the body's last effect, a view defined inside the
    forall, other accesses to the counters' buffer, and counters beyond the
    chip's shared memory. Returns the kernel.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
      DefaultValuedAttr<I64Attr, "256">:$bins,
      DefaultValuedAttr<I64Attr, "256">:$threads,
      DefaultValuedAttr<I64Attr, "16">:$items_per_thread,
      DefaultValuedAttr<I64Attr, "4">:$unroll,
      DefaultValuedAttr<I64Attr, "1">:$copies,
      DefaultValuedAttr<BoolAttr, "false">:$aggregate);
  let results = (outs TransformHandleTypeInterface:$kernel);
  let assemblyFormat = "$target attr-dict `:` functional-type(operands, results)";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure applyToOne(
        ::mlir::transform::TransformRewriter &rewriter, ::mlir::Operation *target,
        ::mlir::transform::ApplyToEachResultList &results,
        ::mlir::transform::TransformState &state);
  }];
}

def KS_SIMTSequentialTreeOp : Op<Transform_Dialect, "ks.simt_sequential_tree",
    [FunctionalStyleTransformOpTrait, MemoryEffectsOpInterface, TransformEachOpTrait,
     TransformOpInterface]> {
  let summary = "Rewrite a block's interleaved or strided tree reduction to sequential addressing";
  let description = [{
    For kernels the raising leaves alone (threads, shared memory and
    barriers explicit): the loop
    `for (s = 1; s < blockDim.x; s *= 2) { if (tid % (2*s) == 0)
    a[tid] = a[tid] OP a[tid + s]; __syncthreads(); }` diverges in every
    warp and strides its shared-memory accesses by 2s (bank conflicts);
    its strided form, `i = 2*s*tid; if (i < blockDim.x) a[i] = a[i] OP
    a[i + s]`, keeps the bank conflicts. Either becomes `for (s = blockDim.x / 2; s > 0; s >>= 1) { if (tid < s) ...;
    __syncthreads(); }`: the active threads stay contiguous, whole warps
    retire, a warp reads consecutive words. The target is the kernel
    (gpu.func); every such loop in it is rewritten. `a` is one-dimensional
    shared memory, tid the thread index along x, OP commutative and
    associative (float or integer add and mul, min, max, and, or, xor;
    float sums round differently, as any reassociation). Refuses (with the
    reason) unless every launch of the kernel in the module has a constant
    power-of-two block along x and one thread along y and z, no loop
    encloses the reduction and the control flow around it is structured,
    its final counter is unused and at least 16 bits wide, the array is a
    `__shared__` attribution of the kernel accessed only by loads and
    stores (dynamic shared memory's views alias it), both operands are
    loaded within the update, and after the loop the array is only read at
    element 0 (the one element both orders agree on); the strided form's
    `2*s*tid` must be at least 32 bits wide and used only by the guard and
    the update. Integer combinations lose `nsw`. Returns the kernel.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target);
  let results = (outs TransformHandleTypeInterface:$kernel);
  let assemblyFormat = "$target attr-dict `:` functional-type(operands, results)";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure applyToOne(
        ::mlir::transform::TransformRewriter &rewriter, ::mlir::Operation *target,
        ::mlir::transform::ApplyToEachResultList &results,
        ::mlir::transform::TransformState &state);
  }];
}

def KS_MapForallToGridOp : Op<Transform_Dialect, "ks.map_forall_to_grid",
    [FunctionalStyleTransformOpTrait, MemoryEffectsOpInterface, TransformEachOpTrait,
     TransformOpInterface]> {
  let summary = "Map the scf.forall of a raised kernel back onto threads, one iteration each";
  let description = [{
    The inverse of `ks-raise-iteration-space`, with a block shape of the
    schedule's choosing (the target is the forall, or the raised kernel
    standing for it): the forall's innermost dimension goes to x (then
    y, z), `block = [X, Y, Z]` threads per block, ceil(extent / block)
    blocks per dimension, and a bounds check around the body. The launcher
    is rewritten to that grid. For raised kernels that are not contractions
    (or as the plain one-thread-per-output schedule).

    `coarsen = [CX, CY, CZ]` gives each thread CX x CY x CZ points, `block`
    apart along each dimension (ceil(extent / (block x coarsen)) blocks),
    so a thread has several points' loads in flight (at most 64 points).
    A body that ends in its stores then runs in two phases: every point's
    values, then every point's stores (store indices recomputed; stores in
    both branches of an scf.if to the same element are moved after it
    first). Other bodies run point by point. Returns the kernel.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
      DefaultValuedAttr<DenseI64ArrayAttr, "{256, 1, 1}">:$block,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1, 1}">:$coarsen);
  let results = (outs TransformHandleTypeInterface:$kernel);
  let assemblyFormat = "$target attr-dict `:` functional-type(operands, results)";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure applyToOne(
        ::mlir::transform::TransformRewriter &rewriter, ::mlir::Operation *target,
        ::mlir::transform::ApplyToEachResultList &results,
        ::mlir::transform::TransformState &state);
  }];
}

#endif // KS_TRANSFORMOPS_TD
