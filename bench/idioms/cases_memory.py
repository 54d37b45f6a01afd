"""bench/idioms cases of the `memory` group: elementwise, elementwise_chain,
gather_scatter, stencil and prefix_sum (5 each), naive kernels in the styles
people write, each with its host launcher.

Beside each case: `# lift:` (ks-translate --import-cuda) and `# static:` (ks
optimize --measure static --db none at the check workload), one line each.
"""

F32_TOL = ["--tolerance", "1e-4"]  # float atomics, long running sums

CASES = [
    # ---------------------------------------------------------------- elementwise
    # lift: ok
    # static: unchanged: no contraction; one_per_thread predicted no faster
    dict(name="vec_add", idiom="elementwise", source="elementwise/vec_add.cu", kernel="vec_add",
         params="a:f32[n]:in,b:f32[n]:in,c:f32[n]:out,n:i32",
         grid="ceildiv(n,256)", block="256", smem="0",
         check="n=100003", time="n=33554432",
         torch="a + b", extra=[], note="textbook int index, 256 threads"),
    # lift: ok
    # static: unchanged: not raised: the launch grid along x is not derived from the bound (size_t n, (unsigned)((n+511)/512))
    dict(name="saxpy_alpha", idiom="elementwise", source="elementwise/saxpy_alpha.cu",
         kernel="saxpy_alpha",
         params="n:u64,alpha:f32,x:f32[n]:in,y:f32[n]:inout",
         grid="ceildiv(n,512)", block="512", smem="0",
         check="n=100003,alpha=3", time="n=33554432,alpha=3",
         torch="alpha * x + y", extra=[], note="size_t n and index, __restrict__, in place, 512 threads"),
    # lift: ok
    # static: unchanged: no contraction; one_per_thread predicted no faster
    dict(name="gelu_tanh", idiom="elementwise", source="elementwise/gelu_tanh.cu",
         kernel="gelu_tanh",
         params="x:f32[rows*cols]:in,y:f32[rows*cols]:out,rows:i32,cols:i32",
         grid="ceildiv(cols,32),ceildiv(rows,8)", block="32,8", smem="0",
         check="rows=1000,cols=1023", time="rows=8192,cols=4096",
         torch="F.gelu(x, approximate='tanh')", extra=[],
         note="__device__ helper with tanhf, 2-D grid over a matrix"),
    # lift: ok
    # static: unchanged: no contraction; one_per_thread predicted no faster
    dict(name="half_scale", idiom="elementwise", source="elementwise/half_scale.cu",
         kernel="half_scale",
         params="x:f16[n]:in,y:f16[n]:out,scale:f32,bias:f32,n:i32",
         grid="ceildiv(n,128)", block="128", smem="0",
         check="n=100003,scale=3,bias=-1", time="n=67108864,scale=3,bias=-1",
         torch="x * scale + bias", extra=[], note="__half with __hmul/__hadd, early return, 128 threads"),
    # lift: ok
    # static: unchanged: no contraction; one_per_thread predicted no faster (no launch manifest: extent of 'q' unknown)
    dict(name="dequant_int8", idiom="elementwise", source="elementwise/dequant_int8.cu",
         kernel="dequant_int8",
         params="q:i8[rows*cols]:in:-128..128,scale:f32[rows]:in,out:f32[rows*cols]:out,rows:i32,cols:i32",
         grid="ceildiv(rows*cols,256)", block="256", smem="0",
         check="rows=1000,cols=1023", time="rows=8192,cols=4096",
         torch="q.view(rows, cols).float() * scale.view(rows, 1)", extra=[],
         note="template on the output type, 1-D grid, row = i / cols"),

    # ---------------------------------------------------------- elementwise_chain
    # lift: ok
    # static: add_bias unchanged: no contraction; relu unchanged: no contraction (relu 'not in the workload: n'); no fusion
    dict(name="bias_relu_scratch", idiom="elementwise_chain",
         source="elementwise_chain/bias_relu_scratch.cu", kernel="add_bias",
         params="x:f32[rows*cols]:in,bias:f32[cols]:in,y:f32[rows*cols]:out,rows:i32,cols:i32",
         grid="ceildiv(rows*cols,256)", block="256", smem="0",
         launches=[
             {"kernel": "add_bias", "params": ["x", "bias", "t", "rows", "cols"],
              "grid": "ceildiv(rows*cols,256)", "block": "256"},
             {"kernel": "relu", "params": ["t", "y", "rows*cols"],
              "grid": "ceildiv(rows*cols,256)", "block": "256"},
         ],
         check="rows=1000,cols=1023", time="rows=8192,cols=4096",
         torch="F.relu(x.view(rows, cols) + bias)", extra=[],
         note="2 launches, scratch t cudaMalloc'ed by the launcher, bias by i % cols"),
    # lift: ok
    # static: all 3 kernels unchanged: no contraction, one_per_thread predicted no faster; no fusion
    dict(name="gelu_residual_scratch", idiom="elementwise_chain",
         source="elementwise_chain/gelu_residual_scratch.cu", kernel="mul_kernel",
         params="a:f32[n]:in,b:f32[n]:in,r:f32[n]:in,y:f32[n]:out,alpha:f32,n:i32",
         grid="ceildiv(n,128)", block="128", smem="0",
         launches=[
             {"kernel": "mul_kernel", "params": ["a", "b", "t1", "n"],
              "grid": "ceildiv(n,128)", "block": "128"},
             {"kernel": "gelu_kernel", "params": ["t1", "t2", "n"],
              "grid": "ceildiv(n,128)", "block": "128"},
             {"kernel": "scale_residual_kernel", "params": ["t2", "r", "y", "alpha", "n"],
              "grid": "ceildiv(n,128)", "block": "128"},
         ],
         check="n=100003,alpha=2", time="n=33554432,alpha=2",
         torch="alpha * F.gelu(a * b, approximate='tanh') + r", extra=[],
         note="3 launches, 2 scratch buffers, dim3 grid from block.x"),
    # lift: ok
    # static: all 4 kernels unchanged: not raised: the launch grid along x is not derived from the bound (size_t n)
    dict(name="silu4_scratch", idiom="elementwise_chain",
         source="elementwise_chain/silu4_scratch.cu", kernel="negate",
         params="x:f32[n]:in,y:f32[n]:out,n:u64",
         grid="ceildiv(n,256)", block="256", smem="0",
         launches=[
             {"kernel": "negate", "params": ["x", "t1", "n"], "grid": "ceildiv(n,256)", "block": "256"},
             {"kernel": "exp_kernel", "params": ["t1", "t2", "n"], "grid": "ceildiv(n,256)", "block": "256"},
             {"kernel": "add_one", "params": ["t2", "t3", "n"], "grid": "ceildiv(n,256)", "block": "256"},
             {"kernel": "divide", "params": ["x", "t3", "y", "n"], "grid": "ceildiv(n,256)", "block": "256"},
         ],
         check="n=100003", time="n=33554432",
         torch="F.silu(x)", extra=[],
         note="4 launches, 3 scratch buffers, size_t n and indices, x read twice"),
    # lift: ok
    # static: axpy, mul unchanged: no contraction, one_per_thread predicted no faster
    dict(name="axpy_mul_out", idiom="elementwise_chain",
         source="elementwise_chain/axpy_mul_out.cu", kernel="axpy",
         params="x:f32[n]:in,y:f32[n]:in,z:f32[n]:in,u:f32[n]:out,v:f32[n]:out,alpha:f32,n:i32",
         grid="ceildiv(n,64)", block="64", smem="0",
         launches=[
             {"kernel": "axpy", "params": ["x", "y", "u", "alpha", "n"], "grid": "ceildiv(n,64)", "block": "64"},
             {"kernel": "mul", "params": ["u", "z", "v", "n"], "grid": "ceildiv(n,64)", "block": "64"},
         ],
         check="n=100003,alpha=2", time="n=33554432,alpha=2",
         torch="(alpha * x + y) * z", extra=[],
         note="2 launches, intermediate u an output the caller passes, 64 threads"),
    # lift: fake_quant_out.cu:22:12: error: call to 'rintf' is outside the supported subset
    # static: error: (the same lift error)
    dict(name="fake_quant_out", idiom="elementwise_chain",
         source="elementwise_chain/fake_quant_out.cu", kernel="fq_scale",
         params="x:f32[n]:in,s:f32[n]:out,c:f32[n]:out,q:f32[n]:out,scale:f32,lo:f32,hi:f32,n:i32",
         grid="ceildiv(n,256)", block="256", smem="0",
         launches=[
             {"kernel": "fq_scale", "params": ["x", "s", "scale", "n"], "grid": "ceildiv(n,256)", "block": "256"},
             {"kernel": "fq_clamp", "params": ["s", "c", "lo", "hi", "n"], "grid": "ceildiv(n,256)", "block": "256"},
             {"kernel": "fq_round", "params": ["c", "q", "n"], "grid": "ceildiv(n,256)", "block": "256"},
         ],
         check="n=100003,scale=4,lo=-3,hi=3", time="n=33554432,scale=4,lo=-3,hi=3",
         torch="torch.round(torch.clamp(x * scale, lo, hi))", extra=[],
         note="3 launches, intermediates s and c outputs the caller passes, template<int BLOCK>"),

    # ------------------------------------------------------------- gather_scatter
    # lift: ok
    # static: unchanged: no contraction; one_per_thread predicted no faster
    dict(name="gather_1d", idiom="gather_scatter", source="gather_scatter/gather_1d.cu",
         kernel="gather_1d",
         params="x:f32[nsrc]:in,idx:i32[m]:in:0..1000000,y:f32[m]:out,m:i32,nsrc:i32",
         grid="ceildiv(m,256)", block="256", smem="0",
         check="m=100003,nsrc=1000000", time="m=33554432,nsrc=1000000",
         torch="torch.index_select(x, 0, idx)", extra=[],
         note="bounds-checked index (out of range -> 0), int indices"),
    # lift: ok
    # static: unchanged: no contraction; one_per_thread predicted no faster (no launch manifest: extent of 'table' unknown)
    dict(name="embedding_lookup", idiom="gather_scatter",
         source="gather_scatter/embedding_lookup.cu", kernel="embedding_lookup",
         params="table:f32[V*D]:in,tok:i32[ntok]:in:0..32000,out:f32[ntok*D]:out,ntok:i32,D:i32,V:i32",
         grid="ceildiv(D,64),ceildiv(ntok,4)", block="64,4", smem="0",
         check="ntok=1000,D=1023,V=32000", time="ntok=32768,D=1024,V=32000",
         torch="F.embedding(tok, table.view(V, D))", extra=[],
         note="template<typename scalar_t>, 2-D grid (dim x tokens), V unused"),
    # lift: ok
    # static: unchanged: privatized_atomics predicted no faster (5.0e-06 s vs 3.5e-06 s)
    dict(name="scatter_add", idiom="gather_scatter", source="gather_scatter/scatter_add.cu",
         kernel="scatter_add",
         params="x:f32[n]:in,idx:i32[n]:in:0..65536,y:f32[ny]:inout,n:i32,ny:i32",
         grid="ceildiv(n,512)", block="512", smem="0",
         check="n=100003,ny=65536", time="n=33554432,ny=65536",
         torch="y.index_add_(0, idx, x)", extra=F32_TOL,
         note="atomicAdd scatter into an accumulating y, 512 threads"),
    # lift: ok
    # static: unchanged: not raised: the launch grid along x is not derived from the bound (size_t total)
    dict(name="index_select_rows", idiom="gather_scatter",
         source="gather_scatter/index_select_rows.cu", kernel="index_select_rows",
         params="src:f32[nsrc*cols]:in,idx:i32[nout]:in:0..4096,out:f32[nout*cols]:out,nout:i32,cols:i32,nsrc:i32",
         grid="ceildiv(nout*cols,256)", block="256", smem="0",
         check="nout=1000,cols=1023,nsrc=4096", time="nout=16384,cols=2048,nsrc=4096",
         torch="torch.index_select(src.view(nsrc, cols), 0, idx)", extra=[],
         note="size_t indices, __restrict__, __ldg, 1-D grid with / and %"),
    # lift: ok
    # static: unchanged: no contraction; one_per_thread predicted no faster (no launch manifest: extent of 'src' unknown)
    dict(name="permute_cols", idiom="gather_scatter", source="gather_scatter/permute_cols.cu",
         kernel="permute_cols",
         params="src:f32[rows*cols]:in,perm:i32[cols]:in:0..1000,out:f32[rows*cols]:out,rows:i32,cols:i32",
         grid="ceildiv(cols,32),ceildiv(rows,8)", block="32,8", smem="0",
         check="rows=1000,cols=1023", time="rows=8192,cols=4096",
         torch="torch.index_select(src.view(rows, cols), 1, perm)", extra=[],
         note="template<typename T>, AT() index macro, 2-D grid"),

    # -------------------------------------------------------------------- stencil
    # lift: ok
    # static: unchanged: not raised: the launch grid along y is not derived from the bound (guard i < n-1)
    dict(name="jacobi5_2d", idiom="stencil", source="stencil/jacobi5_2d.cu", kernel="jacobi5_2d",
         params="u:f32[n*m]:in,unew:f32[n*m]:out,n:i32,m:i32",
         grid="ceildiv(m,32),ceildiv(n,8)", block="32,8", smem="0",
         check="n=1000,m=1023", time="n=8192,m=8192",
         torch="(lambda g: 0.25 * (g[:-2, 1:-1] + g[2:, 1:-1] + g[1:-1, :-2] + g[1:-1, 2:]))(u.view(n, m))",
         extra=[], note="interior-only if (i>0 && i<n-1 && j>0 && j<m-1), 2-D grid"),
    # lift: ok
    # static: unchanged: no contraction; one_per_thread predicted no faster
    dict(name="box_blur9", idiom="stencil", source="stencil/box_blur9.cu", kernel="box_blur9",
         params="img:f32[H*W]:in,out:f32[H*W]:out,H:i32,W:i32",
         grid="ceildiv(W,16),ceildiv(H,16)", block="16,16", smem="0",
         check="H=1000,W=1023", time="H=8192,W=8192",
         torch="F.avg_pool2d(F.pad(img.view(1, 1, H, W), (1, 1, 1, 1), mode='replicate'), 3, 1)",
         extra=[], note="clamp-to-edge via __device__ helper, loops, __restrict__ + __ldg, 16x16"),
    # lift: ok
    # static: unchanged: not raised: the launch grid along z is not derived from the bound (guard z >= nz-1 -> return)
    dict(name="heat3d_7pt", idiom="stencil", source="stencil/heat3d_7pt.cu", kernel="heat3d_7pt",
         params="u:f32[nx*ny*nz]:in,unew:f32[nx*ny*nz]:out,alpha:f32,nx:i32,ny:i32,nz:i32",
         grid="ceildiv(nx,32),ceildiv(ny,4),ceildiv(nz,4)", block="32,4,4", smem="0",
         check="alpha=1,nx=67,ny=45,nz=33", time="alpha=1,nx=512,ny=512,nz=256",
         torch="(lambda g: g[1:-1, 1:-1, 1:-1] + alpha * (g[:-2, 1:-1, 1:-1] + g[2:, 1:-1, 1:-1]"
               " + g[1:-1, :-2, 1:-1] + g[1:-1, 2:, 1:-1] + g[1:-1, 1:-1, :-2] + g[1:-1, 1:-1, 2:]"
               " - 6 * g[1:-1, 1:-1, 1:-1]))(u.view(nz, ny, nx))",
         extra=[], note="3-D grid 32x4x4, interior only via early return, flat offsets"),
    # lift: ok
    # static: unchanged: not raised: the launch grid along y is not derived from the bound (guard r < n-1)
    dict(name="laplacian2d_sizet", idiom="stencil", source="stencil/laplacian2d_sizet.cu",
         kernel="laplacian2d",
         params="f:f32[n*m]:in,lap:f32[n*m]:out,n:i32,m:i32,inv_h2:f32",
         grid="ceildiv(m,64),ceildiv(n,4)", block="64,4", smem="0",
         check="n=1000,m=1023,inv_h2=4", time="n=8192,m=8192,inv_h2=4",
         torch="(lambda g: (g[:-2, 1:-1] + g[2:, 1:-1] + g[1:-1, :-2] + g[1:-1, 2:]"
               " - 4 * g[1:-1, 1:-1]) * inv_h2)(f.view(n, m))",
         extra=[], note="size_t offsets via IDX macro, interior only, 64x4 blocks"),
    # lift: ok
    # static: unchanged: not raised: the launch grid along x is not derived from the bound (guard i >= n - RADIUS -> return)
    dict(name="stencil1d_radius", idiom="stencil", source="stencil/stencil1d_radius.cu",
         kernel="stencil1d",
         params="x:f32[n]:in,y:f32[n]:out,n:i32",
         grid="ceildiv(n,128)", block="128", smem="0",
         check="n=100003", time="n=33554432",
         torch="F.avg_pool1d(x.view(1, 1, n), 3, 1)",
         extra=[], note="RADIUS and BLOCK_SIZE macros, loop over taps, ends not written"),

    # ----------------------------------------------------------------- prefix_sum
    # lift: ok
    # static: unchanged: no contraction; one_per_thread predicted no faster
    dict(name="row_scan_seq", idiom="prefix_sum", source="prefix_sum/row_scan_seq.cu",
         kernel="row_scan_seq",
         params="x:f32[rows*cols]:in,y:f32[rows*cols]:out,rows:i32,cols:i32",
         grid="ceildiv(rows,128)", block="128", smem="0",
         check="rows=1000,cols=1023", time="rows=32768,cols=1024",
         torch="torch.cumsum(x.view(rows, cols), 1)", extra=F32_TOL,
         note="one thread per row, sequential loop, row pointers"),
    # lift: ok
    # static: unchanged: not raised: synchronizes/communicates between threads (barrier, shared memory); sequential_tree does not apply
    dict(name="row_scan_hillis_steele", idiom="prefix_sum",
         source="prefix_sum/row_scan_hillis_steele.cu", kernel="row_scan_hs",
         params="x:f32[rows*cols]:in,y:f32[rows*cols]:out,rows:i32,cols:i32",
         grid="rows", block="1024", smem="cols*4",
         check="rows=1000,cols=1000", time="rows=65536,cols=1024",
         torch="torch.cumsum(x.view(rows, cols), 1)", extra=F32_TOL,
         note="block per row, Hillis-Steele in dynamic smem, cols <= 1024, __restrict__"),
    # lift: ok
    # static: unchanged: no contraction; one_per_thread predicted no faster
    dict(name="row_exclusive_scan", idiom="prefix_sum", source="prefix_sum/row_exclusive_scan.cu",
         kernel="row_exclusive_scan",
         params="counts:i32[rows*cols]:in,offsets:i32[rows*cols]:out,rows:i32,cols:i32",
         grid="ceildiv(rows,256)", block="256", smem="0",
         check="rows=1000,cols=1023", time="rows=32768,cols=1024",
         torch="torch.cumsum(counts.view(rows, cols), 1) - counts.view(rows, cols)", extra=[],
         note="int exclusive scan (counts -> offsets), one thread per row, size_t offsets"),
    # lift: ok
    # static: unchanged: no contraction; one_per_thread predicted no faster
    dict(name="row_cummax", idiom="prefix_sum", source="prefix_sum/row_cummax.cu",
         kernel="row_cummax",
         params="x:f32[rows*cols]:in,y:f32[rows*cols]:out,rows:i32,cols:i32",
         grid="ceildiv(rows,64)", block="64", smem="0",
         check="rows=1000,cols=1023", time="rows=32768,cols=1024",
         torch="torch.cummax(x.view(rows, cols), 1)[0]", extra=[],
         note="template<typename T> + __device__ max helper, one thread per row, 64 threads"),
    # lift: ok
    # static: unchanged: no contraction; one_per_thread predicted no faster
    dict(name="col_cumsum", idiom="prefix_sum", source="prefix_sum/col_cumsum.cu",
         kernel="col_cumsum",
         params="x:f32[rows*cols]:in,y:f32[rows*cols]:out,rows:i32,cols:i32",
         grid="ceildiv(cols,128)", block="128", smem="0",
         check="rows=1000,cols=1023", time="rows=2048,cols=32768",
         torch="torch.cumsum(x.view(rows, cols), 0)", extra=F32_TOL,
         note="one thread per column walking down rows, THREADS macro"),
]
