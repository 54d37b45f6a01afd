"""Idiom cases of group `reduce` (bench/idioms): tree_reduction, grid_stride, guarded_unrolled,
scalar_reduction and argmax, five each.

`# lift:` is ks-translate --import-cuda (ok, or its error); `# static:` is the decision of
`ks optimize FILE --measure static --db none --workload <check>` (float scalars left out of
the workload there: ks optimize --workload takes integers only).
"""

CASES = [
    # ---------------------------------------- tree_reduction
    # lift: ok
    # static: unchanged: not raised (barrier/shuffle/shared memory); sequential_tree n/a: dynamic shared memory may alias the update's array
    dict(
        name='tr_sum_atomic_f32',
        idiom='tree_reduction',
        source='tree_reduction/tr_sum_atomic_f32.cu',
        kernel='block_sum_atomic',
        params='x:f32[n]:in,out:f32[1]:inout,n:i32',
        grid='ceildiv(n,256)',
        block='256',
        smem='1024',
        check='n=100003',
        time='n=33554432',
        torch='x.sum()',
        extra=['--tolerance', '1e-3'],
        note='interleaved tid%(2*s) tree, extern smem, atomicAdd',
    ),
    # lift: ok
    # static: unchanged: not raised (barrier/shuffle/shared memory); sequential_tree n/a: the loop does not carry one counter starting at 1
    dict(
        name='tr_sumsq_partial_f32',
        idiom='tree_reduction',
        source='tree_reduction/tr_sumsq_partial_f32.cu',
        kernel='sumsq_partial',
        params='x:f32[n]:in,partial:f32[ceildiv(n,256)]:out,n:u64',
        grid='ceildiv(n,256)',
        block='256',
        smem='1024',
        check='n=100003',
        time='n=33554432',
        torch='F.pad(x * x, (0, (-n) % 256)).view(-1, 256).sum(1)',
        extra=[],
        note='sequential s>>=1 tree, size_t index, __restrict__, per-block partials',
    ),
    # lift: ok
    # static: unchanged: not raised (barrier/shuffle/shared memory); sequential_tree n/a: the loop does not run while the counter is below blockDim.x
    dict(
        name='tr_max_int_atomic',
        idiom='tree_reduction',
        source='tree_reduction/tr_max_int_atomic.cu',
        kernel='block_max_int',
        params='x:i32[n]:in:-1000000..1000000,out:i32[1]:inout,n:i32',
        grid='ceildiv(n,128)',
        block='128',
        smem='512',
        check='n=100003',
        time='n=33554432',
        torch='x.max()',
        extra=[],
        note='template<int BLOCK>, interleaved tree, int atomicMax',
    ),
    # lift: ok
    # static: unchanged: not raised (barrier/shuffle/shared memory); sequential_tree n/a: the loop does not carry one counter starting at 1
    dict(
        name='tr_sum_f64_template',
        idiom='tree_reduction',
        source='tree_reduction/tr_sum_f64_template.cu',
        kernel='reduce_sum',
        params='x:f64[n]:in,out:f64[1]:inout,n:i32',
        grid='ceildiv(n,512)',
        block='512',
        smem='4096',
        check='n=100003',
        time='n=16777216',
        torch='x.sum()',
        extra=['--tolerance', '1e-9'],
        note='template<T,BLOCK>, extern uchar smem cast to T*, double atomicAdd',
    ),
    # lift: ok
    # static: unchanged: not raised (barrier/shuffle/shared memory); sequential_tree n/a: the loop does not carry one counter starting at 1
    dict(
        name='tr_sum_int_twoload',
        idiom='tree_reduction',
        source='tree_reduction/tr_sum_int_twoload.cu',
        kernel='reduce_add_first',
        params='x:i32[n]:in,partial:i32[ceildiv(n,512)]:out,n:i32',
        grid='ceildiv(n,512)',
        block='256',
        smem='1024',
        check='n=100003',
        time='n=33554432',
        torch='F.pad(x, (0, (-n) % 512)).view(-1, 512).sum(1)',
        extra=[],
        note='first add during load (2 per thread), macros, int partials',
    ),
    # ---------------------------------------- grid_stride
    # lift: ok
    # static: unchanged: not raised: blockDim.x is used outside blockIdx.x * blockDim.x + threadIdx.x
    dict(
        name='gs_saxpy',
        idiom='grid_stride',
        source='grid_stride/gs_saxpy.cu',
        kernel='saxpy_gs',
        params='n:i32,a:f32,x:f32[n]:in,y:f32[n]:inout',
        grid='1024',
        block='256',
        smem='0',
        check='n=100003,a=2',
        time='n=33554432,a=2',
        torch='a * x + y',
        extra=[],
        note='inline stride product, fixed 1024 blocks',
    ),
    # lift: ok
    # static: unchanged: not raised: blockDim.x is used outside blockIdx.x * blockDim.x + threadIdx.x
    dict(
        name='gs_scale_offset_sizet',
        idiom='grid_stride',
        source='grid_stride/gs_scale_offset_sizet.cu',
        kernel='scale_offset',
        params='src:f32[n]:in,dst:f32[n]:out,scale:f32,offset:f32,n:u64',
        grid='min(ceildiv(n,256),4096)',
        block='256',
        smem='0',
        check='n=100003,scale=3,offset=-1',
        time='n=33554432,scale=3,offset=-1',
        torch='src * scale + offset',
        extra=[],
        note='size_t indices, stride variable, clamped grid',
    ),
    # lift: ok
    # static: unchanged (the lifted original): one_per_thread predicted no faster than the input
    dict(
        name='gs_relu_while',
        idiom='grid_stride',
        source='grid_stride/gs_relu_while.cu',
        kernel='relu_kernel',
        params='x:f32[n]:in,y:f32[n]:out,n:i32',
        grid='min(ceildiv(n,128),2048)',
        block='128',
        smem='0',
        check='n=100003',
        time='n=33554432',
        torch='torch.relu(x)',
        extra=[],
        note='while loop, const stride, 128 threads',
    ),
    # lift: ok
    # static: unchanged: not raised: blockDim.x is used outside blockIdx.x * blockDim.x + threadIdx.x
    dict(
        name='gs_clamp_macro',
        idiom='grid_stride',
        source='grid_stride/gs_clamp_macro.cu',
        kernel='clamp_kernel',
        params='x:f32[n]:in,y:f32[n]:out,lo:f32,hi:f32,n:i32',
        grid='1024',
        block='512',
        smem='0',
        check='n=100003,lo=-1,hi=0',
        time='n=33554432,lo=-1,hi=0',
        torch='torch.clamp(x, lo, hi)',
        extra=[],
        note='CUDA_KERNEL_LOOP macro, __restrict__, 1024x512',
    ),
    # lift: ok
    # static: unchanged: not raised: blockDim.x is used outside blockIdx.x * blockDim.x + threadIdx.x
    dict(
        name='gs_fma3_template',
        idiom='grid_stride',
        source='grid_stride/gs_fma3_template.cu',
        kernel='fma3_kernel',
        params='x:f64[n]:in,y:f64[n]:in,z:f64[n]:in,out:f64[n]:out,n:i32',
        grid='2048',
        block='256',
        smem='0',
        check='n=100003',
        time='n=16777216',
        torch='torch.addcmul(z, x, y)',
        extra=[],
        note='template<T> (double), __ldg, __restrict__',
    ),
    # ---------------------------------------- guarded_unrolled
    # lift: ok
    # static: unchanged: not raised: the kernel's work is not inside a bounds check or a grid-stride loop
    dict(
        name='gu_scale4',
        idiom='guarded_unrolled',
        source='guarded_unrolled/gu_scale4.cu',
        kernel='scale4',
        params='x:f32[n]:in,y:f32[n]:out,alpha:f32,n:i32',
        grid='ceildiv(n,1024)',
        block='256',
        smem='0',
        check='n=100003,alpha=2',
        time='n=33554432,alpha=2',
        torch='alpha * x',
        extra=[],
        note='4 per thread, #pragma unroll, guard inside',
    ),
    # lift: ok
    # static: unchanged: not raised: the kernel's work is not inside a bounds check or a grid-stride loop
    dict(
        name='gu_bias_rows_2d',
        idiom='guarded_unrolled',
        source='guarded_unrolled/gu_bias_rows_2d.cu',
        kernel='add_bias_rows',
        params='x:f32[rows*cols]:in,bias:f32[cols]:in,out:f32[rows*cols]:out,rows:i32,cols:i32',
        grid='ceildiv(cols,512),rows',
        block='128',
        smem='0',
        check='rows=37,cols=1001',
        time='rows=4096,cols=4096',
        torch='x.view(rows, cols) + bias',
        extra=[],
        note='2-D: blockIdx.y row, 4 cols per thread, c0+u<cols',
    ),
    # lift: ok
    # static: unchanged: not raised: the kernel's work is not inside a bounds check or a grid-stride loop
    dict(
        name='gu_silu8_ldg',
        idiom='guarded_unrolled',
        source='guarded_unrolled/gu_silu8_ldg.cu',
        kernel='silu8',
        params='x:f32[n]:in,y:f32[n]:out,n:i32',
        grid='ceildiv(n,1024)',
        block='128',
        smem='0',
        check='n=100003',
        time='n=33554432',
        torch='F.silu(x)',
        extra=[],
        note='8 per thread, __device__ helper, __ldg, __restrict__',
    ),
    # lift: ok
    # static: unchanged: not raised: the kernel's work is not inside a bounds check or a grid-stride loop
    dict(
        name='gu_sqdiff_macro_sizet',
        idiom='guarded_unrolled',
        source='guarded_unrolled/gu_sqdiff_macro_sizet.cu',
        kernel='sqdiff4',
        params='a:f32[n]:in,b:f32[n]:in,out:f32[n]:out,n:u64',
        grid='ceildiv(n,1024)',
        block='256',
        smem='0',
        check='n=100003',
        time='n=33554432',
        torch='(a - b) ** 2',
        extra=[],
        note='TPB/ELEMS macros, size_t indices',
    ),
    # lift: ok
    # static: unchanged: not raised: no bounds check on the global index along x
    dict(
        name='gu_leaky_2d_template',
        idiom='guarded_unrolled',
        source='guarded_unrolled/gu_leaky_2d_template.cu',
        kernel='leaky_relu_2d',
        params='src:f32[rows*cols]:in,dst:f32[rows*cols]:out,rows:i32,cols:i32,slope:f32',
        grid='ceildiv(cols,512),ceildiv(rows,4)',
        block='64,4',
        smem='0',
        check='rows=37,cols=1001,slope=2',
        time='rows=4096,cols=4096,slope=2',
        torch='F.leaky_relu(src.view(rows, cols), slope)',
        extra=[],
        note='template<int UNROLL>=8, 2-D 64x4 blocks',
    ),
    # ---------------------------------------- scalar_reduction
    # lift: ok
    # static: unchanged: not raised (barrier/shuffle/shared memory); sequential_tree n/a: the loop does not carry one counter starting at 1
    dict(
        name='sr_warp_shuffle_sum',
        idiom='scalar_reduction',
        source='scalar_reduction/sr_warp_shuffle_sum.cu',
        kernel='sum_warp_atomic',
        params='x:f32[n]:in,out:f32[1]:inout,n:i32',
        grid='ceildiv(n,256)',
        block='256',
        smem='0',
        check='n=100003',
        time='n=33554432',
        torch='x.sum()',
        extra=['--tolerance', '1e-3'],
        note='__shfl_down_sync helper, atomicAdd per warp',
    ),
    # lift: ok
    # static: unchanged: not raised (barrier/shuffle/shared memory); sequential_tree n/a: the loop does not carry one counter starting at 1
    dict(
        name='sr_abs_sum_static_smem',
        idiom='scalar_reduction',
        source='scalar_reduction/sr_abs_sum_static_smem.cu',
        kernel='abs_sum',
        params='x:f32[n]:in,result:f32[1]:inout,n:i32',
        grid='ceildiv(n,256)',
        block='256',
        smem='0',
        check='n=100003',
        time='n=33554432',
        torch='x.abs().sum()',
        extra=['--tolerance', '1e-3'],
        note='static __shared__ float s[256] tree, fabsf',
    ),
    # lift: ok
    # static: unchanged: not raised (barrier/shuffle/shared memory); sequential_tree n/a: the loop does not carry one counter starting at 1
    dict(
        name='sr_dot_two_level',
        idiom='scalar_reduction',
        source='scalar_reduction/sr_dot_two_level.cu',
        kernel='dot_kernel',
        params='a:f32[n]:in,b:f32[n]:in,result:f32[1]:inout,n:i32',
        grid='ceildiv(n,512)',
        block='512',
        smem='0',
        check='n=100003',
        time='n=33554432',
        torch='torch.dot(a, b)',
        extra=['--tolerance', '1e-3'],
        note='shuffle + per-warp smem sums, __restrict__, 512 threads',
    ),
    # lift: ok
    # static: unchanged: not raised (barrier/shuffle/shared memory); sequential_tree n/a: the loop does not carry one counter starting at 1
    dict(
        name='sr_l2sq_gridstride_macro',
        idiom='scalar_reduction',
        source='scalar_reduction/sr_l2sq_gridstride_macro.cu',
        kernel='l2_norm_sq',
        params='x:f32[n]:in,out:f32[1]:inout,n:i32',
        grid='min(ceildiv(n,256),1024)',
        block='256',
        smem='0',
        check='n=100003',
        time='n=33554432',
        torch='(x * x).sum()',
        extra=['--tolerance', '1e-3'],
        note='grid-stride accumulate, static cache[THREADS], macros',
    ),
    # lift: scalar_reduction/sr_count_above.cu:7:20: error: only __shared__ arrays are supported (make it a 1-element array)
    # static: error: lift failed (see lift)
    dict(
        name='sr_count_above',
        idiom='scalar_reduction',
        source='scalar_reduction/sr_count_above.cu',
        kernel='count_above',
        params='x:f32[n]:in,count:i32[1]:inout,thresh:f32,n:i32',
        grid='ceildiv(n,256)',
        block='256',
        smem='0',
        check='n=100003,thresh=0',
        time='n=33554432,thresh=0',
        torch='(x > thresh).sum()',
        extra=[],
        note='shared block counter, int atomics',
    ),
    # ---------------------------------------- argmax
    # lift: ok
    # static: changed row_reduction (T=128,R=1,V=1, predicted fastest of 4 compiled; emulated match)
    dict(
        name='am_row_thread',
        idiom='argmax',
        source='argmax/am_row_thread.cu',
        kernel='row_argmax',
        params='x:f32[rows*cols]:in,idx:i32[rows]:out,rows:i32,cols:i32',
        grid='ceildiv(rows,128)',
        block='128',
        smem='0',
        check='rows=1000,cols=333',
        time='rows=16384,cols=1024',
        torch='x.view(rows, cols).argmax(1)',
        extra=[],
        note='one thread per row, IDX macro',
    ),
    # lift: argmax/am_row_block_argmin.cu:8:17: error: reinterpreting a pointer as another type is outside the supported subset (except T* as T4*)
    # static: error: lift failed (see lift)
    dict(
        name='am_row_block_argmin',
        idiom='argmax',
        source='argmax/am_row_block_argmin.cu',
        kernel='row_argmin_block',
        params='x:f32[rows*cols]:in,out:i32[rows]:out,rows:i32,cols:i32',
        grid='rows',
        block='256',
        smem='2048',
        check='rows=257,cols=1000',
        time='rows=4096,cols=4096',
        torch='x.view(rows, cols).argmin(1)',
        extra=[],
        note='block per row, (val,idx) tree in dynamic smem',
    ),
    # lift: argmax/am_packed_atomic.cu:8:22: error: call to '__float_as_uint' is outside the supported subset
    # static: error: lift failed (see lift)
    dict(
        name='am_packed_atomic',
        idiom='argmax',
        source='argmax/am_packed_atomic.cu',
        kernel='argmax_packed',
        params='x:f32[n]:in,best:u64[1]:inout,n:i32',
        grid='min(ceildiv(n,256),1024)',
        block='256',
        smem='0',
        check='n=100003',
        time='n=33554432',
        torch='x.argmax()',
        extra=[],
        note='packed 64-bit atomicMax (ordered float | ~idx), warp shuffle',
    ),
    # lift: ok
    # static: argmax_partial unchanged: not raised (barrier/shuffle/shared memory); argmax_final unchanged: same; (no launch manifest: found 2 gpu.launch_func)
    dict(
        name='am_two_pass',
        idiom='argmax',
        source='argmax/am_two_pass.cu',
        kernel='argmax_partial',
        params='x:f32[n]:in,pval:f32[ceildiv(n,256)]:out,pidx:i32[ceildiv(n,256)]:out,idx:i32[1]:out,n:i32',
        grid='ceildiv(n,256)',
        block='256',
        smem='0',
        check='n=100003',
        time='n=33554432',
        torch='x.argmax()',
        extra=[],
        note='two-pass partials (chain of 2), static smem trees',
        launches=[
            {'kernel': 'argmax_partial', 'params': ['x', 'pval', 'pidx', 'n'], 'grid': 'ceildiv(n,256)', 'block': '256'},
            {'kernel': 'argmax_final', 'params': ['pval', 'pidx', 'idx', 'n'], 'grid': '1', 'block': '1024'},
        ],
    ),
    # lift: ok
    # static: unchanged: not raised (barrier/shuffle/shared memory); sequential_tree n/a: block not a constant power of two along x with one thread along y, z
    dict(
        name='am_row_warp_i64',
        idiom='argmax',
        source='argmax/am_row_warp_i64.cu',
        kernel='row_argmax_warp',
        params='x:f32[rows*cols]:in,idx:i64[rows]:out,rows:i32,cols:i32',
        grid='ceildiv(rows,8)',
        block='32,8',
        smem='0',
        check='rows=1001,cols=777',
        time='rows=8192,cols=4096',
        torch='x.view(rows, cols).argmax(1)',
        extra=[],
        note='warp per row, shuffle (val,idx), i64 out, __restrict__',
    ),
]
