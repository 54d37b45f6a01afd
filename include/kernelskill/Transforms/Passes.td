//===- Passes.td - KernelSkill transforms ------------------*- tablegen -*-===//
#ifndef KS_TRANSFORMS_PASSES_TD
#define KS_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def KSBarePointerABI : Pass<"ks-bare-pointer-abi", "::mlir::ModuleOp"> {
  let summary = "Pass kernel buffers as bare CUDA pointers";
  let description = [{
    A lowering step. A lifted kernel takes each CUDA pointer argument as a
    dynamically sized 1-D memref (`memref<?xf32>`). Upstream's bare-pointer
    calling convention only accepts statically shaped memrefs, and the default
    convention passes five values per memref, which no CUDA launcher, nvcc
    kernel or our runtime would match. This pass rewrites each such argument of
    each `gpu.func` kernel to an `!llvm.ptr` (the address space kept) and
    rebuilds the memref descriptor inside the kernel (offset 0, stride 1), and
    rewrites every `gpu.launch_func` of that kernel to pass the buffer's
    aligned pointer. After it, with `kernel-bare-ptr-calling-convention`, the
    PTX entry takes exactly the parameters the CUDA source declared:
    `(float *A, ..., int M, ...)` becomes `.param .u64 .ptr ..., .param .u32`.

    Memrefs with static shapes are left to upstream's bare-pointer
    convention. A dynamic memref of rank > 1 or with a non-identity layout
    cannot be rebuilt from a pointer and is an error naming the argument.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect", "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect"];
}

def KSLiftKernelCFG : Pass<"ks-lift-kernel-cfg", "::mlir::ModuleOp"> {
  let summary = "Lift the control-flow graphs of gpu.func kernels to scf";
  let description = [{
    The CUDA importer emits each kernel as an unstructured CFG (cf.br,
    cf.cond_br), which makes break, continue, early return and
    short-circuit operators easy to import. This pass recovers structure:
    upstream's CFG-to-SCF lifting (`transformCFGToSCF`, what
    `lift-cf-to-scf` runs on func.func only) applied to every kernel, with
    `gpu.return` where an exit is unreachable, then upstream's uplifting of
    canonical `scf.while` loops to `scf.for`. Kernels that are already
    structured are left alone.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::ub::UBDialect",
                           "::mlir::arith::ArithDialect"];
}

def KSDropProfileFacts : Pass<"ks-drop-profile-facts", "::mlir::ModuleOp"> {
  let summary = "Remove the performance profiler's facts from every kernel";
  let description = [{
    The profiler's `#ks.diagnosis` (on a kernel) and `#ks.access` /
    `#ks.branch` (on the ops inside) describe the IR it analyzed. A
    transform that rewrites a kernel must keep them valid or drop them; this
    pass drops them from every `gpu.func` kernel (`dropProfileAttributes`),
    for pipelines that rewrite kernels wholesale. The lowering runs it first:
    after it, loads and branches no longer exist as the facts name them.
    `#ks.resources` and `#ks.arch` stay.
  }];
}

def KSSinkBranchStores : Pass<"ks-sink-branch-stores"> {
  let summary = "Store once after an scf.if whose two branches end storing to the same element";
  let description = [{
    A step of the lowering (`--kernelskill-lower`), before the offsets are
    narrowed. A kernel that writes the same element either way
    (`if (border) out[p] = in[p]; else out[p] = f(...);`, the stencils'
    border copy) keeps one store per branch, each with its own address
    arithmetic once lowered: LLVM then merges the two stores behind a phi of
    the two addresses, and ptxas keeps the branch as a divergent region
    instead of predicating it. When the last op before the terminator of
    both branches of an `scf.if` is a `memref.store` to the same memref at
    the same index values (all defined outside the `scf.if`, same
    `nontemporal` and alignment), the pass yields the two stored values from the `scf.if`
    and stores the result once after it: the same element receives the same
    value, with nothing between the stores' old and new places. Nested ifs
    sink from the innermost out. Measured on the H200
    (bench/results/2026-12-04-h200-prefetch, call 4): the 3-D stencil's
    register window from 0.77 to 0.80 of the copy bandwidth (nvcc's compile
    of the same window: 0.80), its branch predicated.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::memref::MemRefDialect"];
}

def KSMarkInt32Offsets : Pass<"ks-mark-int32-offsets", "::mlir::ModuleOp"> {
  let summary = "Mark the kernel buffers the source indexes only with 32-bit ints";
  let description = [{
    An analysis of lifted kernels, run before raising rewrites their
    subscripts. It sets `ks.int32_offsets` on a buffer argument of a
    `gpu.func` kernel when every use of the buffer is a `memref.load` or
    `memref.store` whose subscript is a signed `arith.index_cast` of an `i32`
    value (or a constant that fits in one): the CUDA source indexed it with C
    `int` arithmetic, whose overflow is undefined, so every element the
    kernel reads or writes lies at an offset in [-2^31, 2^31). Pointer
    arithmetic (`x + r * cols`, added in 64 bits), 64-bit subscripts
    (`size_t`, `long`) or any other use leave the buffer unmarked.
    `ks-narrow-offsets` relies on the mark. The first step of `--ks-raise`.
  }];
}

def KSNarrowOffsets : Pass<"ks-narrow-offsets", "::mlir::ModuleOp"> {
  let summary = "Compute the addresses of ks.int32_offsets buffers in 32 bits";
  let description = [{
    A step of the lowering (`--kernelskill-lower`), before the marked loops
    are unrolled. MLIR's index type is 64 bits wide on the GPU, so every
    address computation of a lifted kernel is 64-bit integer arithmetic,
    which the GPU does in two or more instructions per operation where nvcc,
    compiling the `int` arithmetic of the source, needs one. Measured on the
    H200 (bench/results/2026-12-03-h200-bench-reuse): the 3-D register
    window at 0.64 of the copy bandwidth with 64-bit offsets, 0.78 with the
    same code's offsets in `int` compiled by nvcc, 0.67 through this pass.

    For every `memref.load`, `memref.store`, `vector.load` and `vector.store`
    of a buffer marked `ks.int32_offsets` (directly, or through a
    `memref.reinterpret_cast` of it), the pass computes the element offset
    (the view's offset plus each subscript times its stride) in `i32`, and
    rewrites the access to the 1-D buffer at the sign-extended offset. The
    chain of `arith.addi`, `subi`, `muli` and `shli` behind each subscript is
    rebuilt in `i32` without overflow flags (wrapping); any other value is
    truncated. Because those operations commute with reduction modulo 2^32,
    the 32-bit result equals the true offset modulo 2^32, and so equals it
    exactly whenever the true offset lies in [-2^31, 2^31): the mark says
    every element the source touches does, and the transforms only access
    elements the source touches or, behind a guard, elements within the
    bounds of those. Guards themselves are left in 64 bits.

    Accesses of unmarked buffers, of views other than a reinterpret_cast of
    the buffer, and vector accesses whose innermost stride is not 1 stay as
    they are. So do accesses whose subscripts vary with an enclosing loop
    (computed from a loop's induction variable or iteration arguments),
    unless `loop-offsets=true`: there LLVM's loop strength reduction turns
    the 64-bit offset into a pointer increment, and the steps of an unrolled
    loop become the loads' immediate displacements, both of which a
    sign-extended wrapping i32 defeats (measured on the H200: softmax
    row_warp 0.96 -> 0.65 of the copy with the unrolled turns narrowed,
    bench/results/2026-12-04-h200-loop-offsets). An access marked
    `ks.int32_loop_offsets` is narrowed in loops too: the interleaved row
    reduction (a column sum) walks its rows `cols` elements apart, a
    runtime stride that no displacement folds, and each unrolled turn kept a
    64-bit pointer of its own; under a 1024-thread block's 64-register cap
    ptxas then issued fewer loads before their first use (column sum
    16384x4096 on the H200: 0.080 -> 0.073 ms, 0.80 -> 0.87 of the copy
    with 16 turns; 8 turns lost, 0.092 -> 0.106 ms; on an H100 the three
    column-sum hand schedules 5-17% faster). Not the rule
    for every runtime stride: the NN and column-major GEMMs' B loads
    (2-4%) and the column GEMV (11%) measured slower narrowed (H100,
    bench/results/2026-12-05-colsum-offsets). The subscripts' terms are
    summed first and the view's offset added last, so that views differing
    only in their offset (a stencil's neighbours) share the sum.
  }];
  let options = [
    Option<"narrowLoopOffsets", "loop-offsets", "bool", /*default=*/"false",
           "Also narrow the offsets that vary with an enclosing loop">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::memref::MemRefDialect",
                           "::mlir::vector::VectorDialect"];
}

def KSUnrollMarkedLoops : Pass<"ks-unroll-marked-loops"> {
  let summary = "Unroll the scf.for loops a schedule marked with ks.unroll";
  let description = [{
    The contraction schedules keep the loops over register tiles as loops
    (readable IR and exported CUDA, where they become `#pragma unroll`) and
    mark them `ks.unroll` (a unit attribute: unroll fully; an integer: by
    that factor). This lowering step unrolls them, innermost first, with
    upstream's `loopUnrollFull` / `loopUnrollByFactor`, so that the private
    arrays they index become registers. A marked loop whose trip count is
    not constant is an error.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::arith::ArithDialect"];
}

//===----------------------------------------------------------------------===//
// Raising (docs/Raising.md): from lifted SIMT kernels to structured IR.
//===----------------------------------------------------------------------===//

def KSRaiseCountedLoops : Pass<"ks-raise-counted-loops"> {
  let summary = "Raise counted scf.while loops to scf.for over index";
  let description = [{
    The CUDA importer lifts each C `for` loop to an `scf.while` over the
    loop's integer type. A while loop whose condition region computes only
    `counter < bound` (signed or unsigned, `<` or `<=`) with an invariant
    bound, whose body advances the counter by one invariant step, and whose
    results are its carried values, becomes an `scf.for` over `index` from
    the extended initial value to the extended bound (plus one for `<=`);
    the body reads the counter through an `index_cast` to its old type. A
    step other than 1, or an inclusive bound, needs the increment to be
    `nsw` (signed) or `nuw` (unsigned), which the importer writes for C's
    signed `int` arithmetic: otherwise the narrow counter could wrap where
    the index counter would not. A non-constant step is assumed positive (a
    step of zero or less makes the original loop run until it overflows or
    forever). The counter's value after the loop, where it is used, is
    `lb + max(0, ceildiv(ub - lb, step)) * step`.

    Then, in every `scf.for` with a constant positive step, a carried
    integer that advances by one invariant amount per iteration (`p += c`,
    a pointer `++p` walked beside the counter) and whose final value is
    unused is replaced by `init + ((iv - lb) / step) * c`, in its own type
    (exact: repeated addition wraps as the product does), so accesses
    through it become affine in the loop variable.

    Upstream's `upliftWhileToForLoop` is not used: it takes only `slt`,
    keeps the narrow type and gets the final counter wrong for loops that
    run zero times. Each loop left alone gets a remark saying why.
  }];
  let options = [
    Option<"remarks", "remarks", "bool", /*default=*/"true",
           "Emit a remark for each loop that is not raised, with the reason">,
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::arith::ArithDialect"];
}

def KSRaiseUnrolledGuards : Pass<"ks-raise-unrolled-guards", "::mlir::ModuleOp"> {
  let summary = "Rewrite per-thread unrolled loops with a bounds check inside to one element per thread";
  let description = [{
    A kernel whose threads each take U consecutive elements, `c0 =
    (blockIdx.x * blockDim.x + threadIdx.x) * U; for (u = 0; u < U; u++)
    if (c0 + u < n) work(c0 + u);` (U a constant, 2 to 64; `gid << log2 U`
    too), launched on a grid that covers n with block * U elements per
    block, computes work(e) once for each e < n. It becomes `e = blockIdx.x
    * blockDim.x + threadIdx.x; if (e < n) work(e)` on ceil(n / block)
    blocks, the form ks-raise-iteration-space raises; where the work reads
    c0 or u apart from their sum they are `e - e % U` and `e % U`. The loop
    may sit in the one non-empty branch of a top-level `scf.if` (an early
    return on another dimension, `if (row >= rows) return;`), which
    ks-merge-nested-guards then merges with the new check.

    Refused, with a remark, when the check is not `index < bound`
    (signed or unsigned) over a bound computed from scalar arguments, the
    checked index is not `c0 + u`, c0 is not the linear x thread index times
    U, threadIdx.x or blockIdx.x is read elsewhere, the kernel communicates
    between threads (barriers, shuffles), or the launch's grid does not
    cover the bound. Only x is rewritten; a row per block along y or z
    stays (docs/Raising.md, "Unrolled guards").
  }];
  let options = [
    Option<"remarks", "remarks", "bool", /*default=*/"true",
           "Emit a remark for each kernel of this form that is not rewritten, with the reason">,
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::arith::ArithDialect"];
}

def KSFuseLaunches : Pass<"ks-fuse-launches", "::mlir::ModuleOp"> {
  let summary = "Fuse back-to-back launches of raised kernels over the same iteration space, each point reading only its own elements, into one kernel";
  let description = [{
    Kernels launched one after the other by a launcher, where each consumes
    the previous one's output elementwise (`t1[i] = f(x[i])`, then
    `t2[i] = g(t1[i])`, ...), read and write each intermediate through DRAM
    once per launch. When both kernels are raised (`ks-raise-iteration-
    space`: one `scf.forall`, launched as one thread) over the same
    iteration space, and every load and store of both bodies is at the
    iteration point itself (indices = the forall's variables) through views
    of the same layout, the two launches become one launch of a new raised
    kernel whose body runs the first body, then the second, at each point:
    a load of what the first body stored at that point takes the stored
    value instead (no re-read). The intermediate is still written (below:
    unless only the launcher's kernels see it). Repeats until no pair is
    left (three launches become one). When the first kernel has one
    dimension more (an elementwise kernel over (r, c) before a row sum over
    r that walks c in a loop), its body moves into the start of each
    iteration of the second kernel's one loop that reads its output (from 0
    by 1 over the first kernel's last size), at the point (r, c).

    Legality: the iteration spaces are equal (the same computation of the
    same launcher values); a buffer that one kernel writes and another
    reads or writes is the same launcher value in both, through equal
    views, or both buffers are `__restrict__` parameters of the launcher
    (`ks.restrict`), or one of them is a device allocation of the host
    function's own (`ks.allocated`); otherwise they may overlap at an
    offset, and a point would read another point's element. Pairs that do
    not qualify are left alone with a remark saying why.

    An intermediate the importer marks `ks.scratch` (the host function
    allocated it, handed it to kernels and freed it, nothing else) is no
    longer written once the fused kernel reads it nowhere and no other
    launch uses it, with a remark; every other intermediate stays written.
  }];
  let options = [
    Option<"remarks", "remarks", "bool", /*default=*/"true",
           "Emit a remark for each adjacent launch pair that is not fused, with the reason">,
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect", "::mlir::scf::SCFDialect"];
}

def KSSynthesizeLaunchers : Pass<"ks-synthesize-launchers", "::mlir::ModuleOp"> {
  let summary = "Give each kernel that no launcher launches a host launcher covering its iteration space";
  let description = [{
    A file of kernels alone (no host code) says nothing of how they are
    launched, so the raising cannot prove one thread per point and the
    optimizer leaves them as they are. Almost every such kernel is written
    for one launch: one thread per index below the bound its guard `if (i <
    n)` (or its grid-stride loop `i < n`) tests, `ceil(n / block)` blocks.
    This pass assumes that launch and writes it down: for each kernel with
    no `gpu.launch_func` in the module it adds `func.func @launch_<kernel>`
    with the kernel's parameters (and their `ks.name` and `ks.const`), launching
    `(bound + block - 1) / block` blocks of `block` threads along each
    dimension the kernel indexes, one along the others. The block is the one
    the kernel fixes (`gpu.known_block_size`, or `blockIdx.x * 128 +
    threadIdx.x`), else 256 threads for one dimension, 16 x 16 for two (x,
    y), 8 x 8 x 4 for three, halved to stay within CUDA's limits (1024
    threads, 64 along z). The launcher carries `ks.synthesized` (the
    kernel's name); the exported
    CUDA calls it out. The kernel is not changed: the assumption is the
    caller's to honour (call the launcher, or launch as it does), and
    `ks optimize` says so.

    Kernels whose launch cannot be inferred are left without one, with a
    remark: threads that communicate (barriers, shuffles, shared memory,
    whose result depends on the block size), a block index used alone (the
    number of blocks is not bounded by the kernel), work outside one bounds
    check, a bound that is not computed from the scalar arguments. The
    analysis is the raising's (`ks-raise-iteration-space`), on a copy of the
    kernel with its counted loops raised; the launch it writes is one the
    raising accepts.
  }];
  let options = [
    Option<"remarks", "remarks", "bool", /*default=*/"true",
           "Emit a remark for each launcher written and each kernel left without one">,
    ListOption<"kernels", "kernels", "std::string",
               "Only these kernels get a launcher (default: every kernel without one; "
               "--kernelskill-pipeline passes its own kernels=)">,
  ];
  let dependentDialects = ["::mlir::func::FuncDialect", "::mlir::arith::ArithDialect"];
}

def KSMergeNestedGuards : Pass<"ks-merge-nested-guards", "::mlir::ModuleOp"> {
  let summary = "Merge a kernel's nested bounds checks into one conjunction";
  let description = [{
    A step of `ks-raise`, before `ks-raise-iteration-space` (which reads one
    guard, a conjunction of `index < bound` tests). At a kernel's top level,
    an `scf.if` whose one non-empty branch holds, besides pure ops (no
    memory access, nothing that may trap: they are hoisted above the check),
    exactly one `scf.if` with one non-empty branch becomes one `scf.if` on
    the conjunction of the two branches' conditions (a condition whose work
    is in the else-branch negated with `xori true`), holding the inner
    work; repeated while the result nests another. `if (row >= rows)
    return; for u < U: if (c0 + u < cols) ...` (an early return, then the
    unrolled guard ks-raise-unrolled-guards rewrites) and `if (row < M) {
    if (col < N) ... }` thus raise like `if (row < M && col < N)`.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect"];
}

def KSRaiseIterationSpace : Pass<"ks-raise-iteration-space", "::mlir::ModuleOp"> {
  let summary = "Raise one-thread-per-output kernels and grid-stride loops to scf.forall";
  let description = [{
    A kernel whose threads each compute the output at their global index
    `blockIdx.d * blockDim.d + threadIdx.d`, behind a bounds check `if (row
    < M && col < N)` or an early return, and whose launcher derives the grid
    from those bounds (`ceil(M / block)` blocks), computes the same as an
    `scf.forall` over [0, M) x [0, N) run by one thread. This pass rewrites
    the kernel to that forall (outermost dimension z, innermost x),
    independent of the source's block shape, and the launch to one block of
    one thread; a schedule maps the iteration space onto a grid again.
    Grid-stride loops `for (i = gid; i < n; i += blockDim.x * gridDim.x)`
    become an `scf.forall` over [0, n). A dimension indexed by
    `blockIdx.d` alone with one thread per block and no bounds check (a
    batch index) stays mapped to the grid. Conjuncts of the bounds check
    that are not bounds stay as an `scf.if` inside the loop. Raised kernels
    carry the unit attribute `ks.raised`.

    Kernels that use barriers, shared memory or warp operations, read a
    launch index outside a global index, have no launcher in the module
    (the covering grid is unknown), or whose launch grid is not derived from
    the bound, are left alone with a remark.
  }];
  let options = [
    Option<"remarks", "remarks", "bool", /*default=*/"true",
           "Emit a remark for each kernel that is not raised, with the reason">,
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::arith::ArithDialect"];
}

def KSRaiseStridedViews : Pass<"ks-raise-strided-views", "::mlir::ModuleOp"> {
  let summary = "Raise flat buffer accesses of raised kernels to strided views";
  let description = [{
    In a raised kernel (`ks.raised`), an access `A[row * K + p]` to a
    1-D buffer argument, where the index is a sum of loop variables times
    invariant strides, becomes an access `A_v[row, p]` of a view
    `memref.reinterpret_cast %A to offset: [off], sizes: [M, K], strides:
    [K, 1]`, one dimension per loop variable (in loop-nest order, the
    unit-stride dimension last), the size of each dimension the variable's
    loop bound. Narrow (i32) index arithmetic is read as 64-bit only where
    it cannot wrap: `nsw` for sign-extended and `nuw` for zero-extended
    values (C's signed int arithmetic, as the importer writes it); 64-bit
    arithmetic always. Strides and offsets may be any invariant expression
    of the kernel's scalar arguments and of the block indices left on the
    grid. Accesses left flat get a remark saying why.
  }];
  let options = [
    Option<"remarks", "remarks", "bool", /*default=*/"true",
           "Emit a remark for each access left flat, with the reason">,
  ];
  let dependentDialects = ["::mlir::memref::MemRefDialect", "::mlir::arith::ArithDialect"];
}

def KSPromoteAccumulators : Pass<"ks-promote-accumulators", "::mlir::ModuleOp"> {
  let summary = "Carry an element a loop accumulates in memory as the loop's iter_arg";
  let description = [{
    A step of `ks-raise`, after the strided views and before
    `ks-raise-contractions`. In a raised kernel (`ks.raised`), an `scf.for`
    whose body loads an element (the same view at the same index values,
    defined outside the loop) and later stores to it, with no other access
    to that buffer in the loop and nothing with unknown memory effects,
    carries the element instead: loaded once before the loop, the stored
    value yielded, written back once after it. The polyhedral suites'
    `c[i][j] *= beta; for k: c[i][j] += alpha * a[i][k] * b[k][j]` becomes
    a reduction with an init that ks-raise-contractions raises, and a
    kernel left SIMT stops reading and writing the element every iteration.
    Nested loops are carried from the innermost out.

    In the loop's block, a load of an element stored earlier with nothing
    between that may touch its buffer takes the stored value, and a store
    overwritten later with nothing between that may read the buffer is
    dropped (`tmp[i][j] = 0` before the carried loop becomes its init).

    The write-back is unconditional when the loop runs at least once
    (constant bounds, or `0 to N` inside a forall over `0 to N`) or when the
    block stores to the element anyway; otherwise it is guarded by the
    loop's `lb < ub`, so a loop that runs zero times still writes nothing.
    Distinct buffers are assumed not to alias, as throughout the raising.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect"];
}

def KSRaiseContractions : Pass<"ks-raise-contractions", "::mlir::ModuleOp"> {
  let summary = "Raise reductions over views in raised kernels to linalg";
  let description = [{
    In a raised kernel, an `scf.forall` over the output whose body is a
    nest of reduction loops (from 0, step 1, invariant bounds) carrying one
    accumulator over loads of views indexed by the loop variables, followed
    by elementwise work and one store of the result at the forall's
    indices, becomes linalg on tensors: the init (a `linalg.fill`, or an
    elementwise `linalg.generic` over loads), the reduction as a
    `linalg.generic` (specialized to `linalg.matmul`, `linalg.batch_matmul`,
    `linalg.matvec`, ... where one fits), the epilogue as an elementwise
    `linalg.generic` consumer (alpha/beta scaling, bias, activation), and
    `bufferization.materialize_in_destination` into the stored view. The
    reduction's order is linalg's (any): the verification tolerance covers
    the reordering (docs/Raising.md). Loops whose bounds depend on the output
    index (triangular updates) stay SIMT, with a remark. A forall without a
    reduction loop (elementwise work) is raised only with `elementwise=true`.
  }];
  let options = [
    Option<"remarks", "remarks", "bool", /*default=*/"true",
           "Emit a remark for each forall that is not raised, with the reason">,
    Option<"elementwise", "elementwise", "bool", /*default=*/"false",
           "Also raise loop-free (elementwise) foralls to linalg.generic; off by default "
           "because no schedule consumes them yet: they stay foralls, which "
           "ks.map_forall_to_grid maps back onto threads">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect", "::mlir::tensor::TensorDialect",
                           "::mlir::bufferization::BufferizationDialect"];
}

#endif // KS_TRANSFORMS_PASSES_TD
