"""Idiom cases of the `contract` group: triangular iteration spaces, kernels that already tile
through (bank-conflicted) shared memory, polyhedral-benchmark contractions accumulating straight
into the output, direct convolutions, and small-batch GEMV."""

GEMM = "A:f32[M*K]:in,B:f32[K*N]:in,C:f32[M*N]:out,M:i32,N:i32,K:i32"

CASES = [
    # ---------------------------------------------------------------- triangular
    # static: unchanged: the kernel holds no contraction ; one_per_thread predicted no faster
    dict(name="syrk_lower", idiom="triangular", source="triangular/syrk_lower.cu",
         kernel="syrk_lower",
         params="A:f32[N*K]:in,C:f32[N*N]:inout,N:i32,K:i32,alpha:f32,beta:f32",
         grid="ceildiv(N,16),ceildiv(N,16)", block="16,16", smem="0",
         check="N=1000,K=1023,alpha=2,beta=3", time="N=2048,K=2048,alpha=2,beta=3",
         torch="torch.tril(torch.addmm(C.view(N,N), A.view(N,K), A.view(N,K).T, beta=beta, alpha=alpha))"
               " + torch.triu(C.view(N,N), 1)",
         extra=[], note="if (col <= row) guard, 16x16, int indices"),
    # static: unchanged: no agent proposed anything (raised as rows=1023000, row length=1024); one_per_thread predicted no faster
    dict(name="trmm_lower", idiom="triangular", source="triangular/trmm_lower.cu",
         kernel="trmm_lower",  # C++: trmm_lower<float> (lifted as trmm_lower_float)
         params="L:f32[M*M]:in,B:f32[M*N]:in,out:f32[M*N]:out,M:i32,N:i32,alpha:f32",
         grid="ceildiv(N,32),ceildiv(M,8)", block="32,8", smem="0",
         check="M=1000,N=1023,alpha=2", time="M=2048,N=2048,alpha=2",
         torch="alpha * (torch.tril(L.view(M,M)) @ B.view(M,N))",
         extra=[], note="template<typename T>, loop bound k <= row, __restrict__"),
    # static: unchanged: the kernel holds no contraction; one_per_thread predicted no faster
    dict(name="trmv_lower", idiom="triangular", source="triangular/trmv_lower.cu",
         kernel="trmv_lower", params="A:f32[n*n]:in,x:f32[n]:in,y:f32[n]:out,n:i32",
         grid="ceildiv(n,128)", block="128", smem="0",
         check="n=1023", time="n=4096",
         torch="torch.tril(A.view(n,n)) @ x",
         extra=[], note="if (col <= row) inside the k loop, one thread per row"),
    # static: unchanged: the kernel holds no contraction; one_per_thread does not apply (blockIdx is read)
    dict(name="causal_scores", idiom="triangular", source="triangular/causal_scores.cu",
         kernel="causal_scores",
         params="Q:f32[H*T*D]:in,K:f32[H*T*D]:in,S:f32[H*T*T]:out,H:i32,T:i32,D:i32,scale:f32",
         grid="ceildiv(T,16),ceildiv(T,16),H", block="16,16", smem="0",
         check="H=3,T=1000,D=67,scale=2", time="H=8,T=2048,D=128,scale=2",
         torch="torch.tril(Q.view(H,T,D) @ K.view(H,T,D).transpose(1,2)) * scale",
         extra=[], note="causal mask (j <= i, 0 above), heads on grid.z, __ldg, size_t offsets"),
    # static: unchanged: not raised: no bounds check on the global index along x (the j > i early return)
    dict(name="syr2k_lower", idiom="triangular", source="triangular/syr2k_lower.cu",
         kernel="syr2k_lower",
         params="N:i32,K:i32,alpha:f32,beta:f32,A:f32[N*K]:in,B:f32[N*K]:in,C:f32[N*N]:inout",
         grid="ceildiv(N,32),ceildiv(N,8)", block="32,8", smem="0",
         check="N=1023,K=1000,alpha=2,beta=3", time="N=2048,K=1024,alpha=2,beta=3",
         torch="torch.tril(alpha * (A.view(N,K) @ B.view(N,K).T + B.view(N,K) @ A.view(N,K).T)"
               " + beta * C.view(N,N)) + torch.triu(C.view(N,N), 1)",
         extra=[], note="size_t indices, index macros, early return j > i"),
    # ---------------------------------------------------------------- shared_tiled
    # static: unchanged: not raised: the kernel synchronizes or communicates between threads
    dict(name="transpose_smem", idiom="shared_tiled", source="shared_tiled/transpose_smem.cu",
         kernel="transpose_smem",
         params="src:f32[rows*cols]:in,out:f32[rows*cols]:out,rows:i32,cols:i32",
         grid="ceildiv(cols,32),ceildiv(rows,32)", block="32,8", smem="0",
         check="rows=1000,cols=1023", time="rows=4096,cols=8192",
         torch="src.view(rows,cols).t().contiguous()",
         extra=[], note="tile[32][32] unpadded, read column-wise, TILE_DIM/BLOCK_ROWS macros"),
    # static: unchanged: not raised: the kernel synchronizes or communicates between threads
    dict(name="matmul_tiled16", idiom="shared_tiled", source="shared_tiled/matmul_tiled16.cu",
         kernel="matmul_tiled16", params=GEMM,
         grid="ceildiv(N,16),ceildiv(M,16)", block="16,16", smem="0",
         check="M=1000,N=1023,K=1001", time="M=2048,N=2048,K=2048",
         torch="A.view(M,K) @ B.view(K,N)",
         extra=[], note="programming-guide As/Bs[16][16], zero-filled guards"),
    # static: unchanged: not raised: the kernel synchronizes or communicates between threads
    dict(name="blur_smem_halo", idiom="shared_tiled", source="shared_tiled/blur_smem_halo.cu",
         kernel="blur_smem_halo",
         params="img:f32[width*height]:in,out:f32[width*height]:out,width:i32,height:i32",
         grid="ceildiv(width,16),ceildiv(height,16)", block="16,16", smem="0",
         check="width=1023,height=1000", time="width=8192,height=8192",
         torch="F.conv2d(img.view(1,1,height,width), torch.full((1,1,5,5), 1.0/25, device=img.device),"
               " padding=2)",
         extra=[], note="5x5 box blur, shared tile with halo loaded in a strided loop, zero padding"),
    # static: unchanged: not raised: the kernel synchronizes or communicates between threads
    dict(name="gemv_smem_tile", idiom="shared_tiled", source="shared_tiled/gemv_smem_tile.cu",
         kernel="gemv_smem_tile",
         params="A:f32[rows*cols]:in,x:f32[cols]:in,y:f32[rows]:out,rows:i32,cols:i32",
         grid="ceildiv(rows,128)", block="128", smem="0",
         check="rows=1000,cols=1023", time="rows=8192,cols=8192",
         torch="A.view(rows,cols) @ x",
         extra=[], note="As[128][32] staged coalesced, read along rows (32-way conflicts)"),
    # static: unchanged: not raised: the kernel synchronizes or communicates between threads
    dict(name="colsum_smem", idiom="shared_tiled", source="shared_tiled/colsum_smem.cu",
         kernel="colsum_smem", params="A:f32[rows*cols]:in,out:f32[cols]:out,rows:i32,cols:i32",
         grid="ceildiv(cols,32)", block="32,8", smem="0",
         check="rows=1000,cols=1023", time="rows=4096,cols=8192",
         torch="A.view(rows,cols).sum(0)",
         extra=[], note="partials through part[32][8] ([col][row], conflicted), size_t offsets"),
    # ---------------------------------------------------------------- accumulate_into_output
    # static: unchanged: the kernel holds no contraction; one_per_thread predicted no faster
    dict(name="pb_gemm", idiom="accumulate_into_output", source="accumulate_into_output/pb_gemm.cu",
         kernel="pb_gemm",
         params="ni:i32,nj:i32,nk:i32,alpha:f32,beta:f32,c:f32[ni*nj]:inout,a:f32[ni*nk]:in,"
                "b:f32[nk*nj]:in",
         grid="ceildiv(nj,32),ceildiv(ni,8)", block="32,8", smem="0",
         check="ni=1000,nj=1023,nk=1001,alpha=2,beta=3",
         time="ni=2048,nj=2048,nk=2048,alpha=2,beta=3",
         torch="beta*c + alpha*(a.view(ni,nk) @ b.view(nk,nj)).view(-1)",
         extra=[], note="PolyBench GEMM: c *= beta; c += alpha*a*b in global memory"),
    # static: unchanged: the kernel holds no contraction; one_per_thread predicted no faster
    dict(name="pb_2mm_first", idiom="accumulate_into_output",
         source="accumulate_into_output/pb_2mm_first.cu", kernel="pb_2mm_first",
         params="NI:i32,NJ:i32,NK:i32,alpha:f32,tmp:f32[NI*NJ]:out,A:f32[NI*NK]:in,B:f32[NK*NJ]:in",
         grid="ceildiv(NJ,16),ceildiv(NI,16)", block="16,16", smem="0",
         check="NI=1000,NJ=1023,NK=1001,alpha=2", time="NI=2048,NJ=2048,NK=2048,alpha=2",
         torch="alpha*(A.view(NI,NK) @ B.view(NK,NJ))",
         extra=[], note="PolyBench 2MM first product, tmp = 0 then +=, IDX(i,j,ld) macro"),
    # static: unchanged: the kernel holds no contraction; one_per_thread predicted no faster
    dict(name="pb_bicg", idiom="accumulate_into_output", source="accumulate_into_output/pb_bicg.cu",
         kernel="pb_bicg",
         params="n:i32,A:f32[n*n]:in,r:f32[n]:in,p:f32[n]:in,s:f32[n]:out,q:f32[n]:out",
         grid="ceildiv(n,256)", block="256", smem="0",
         check="n=1023", time="n=8192",
         torch="(A.view(n,n).T @ r, A.view(n,n) @ p)",
         extra=[], note="PolyBench BiCG s and q (s is ATAX's y += A[i][j]*tmp[i]), two outputs"),
    # static: unchanged: the kernel holds no contraction; one_per_thread predicted no faster
    dict(name="pb_mvt", idiom="accumulate_into_output", source="accumulate_into_output/pb_mvt.cu",
         kernel="pb_mvt",
         params="n:i32,x1:f32[n]:inout,x2:f32[n]:inout,y1:f32[n]:in,y2:f32[n]:in,A:f32[n*n]:in",
         grid="ceildiv(n,128)", block="128", smem="0",
         check="n=1023", time="n=8192",
         torch="(x1 + A.view(n,n) @ y1, x2 + A.view(n,n).T @ y2)",
         extra=[], note="PolyBench MVT, x1/x2 inout, __restrict__, size_t row offsets"),
    # static: unchanged: the kernel holds no contraction; one_per_thread predicted no faster
    dict(name="pb_gemver_x", idiom="accumulate_into_output",
         source="accumulate_into_output/pb_gemver_x.cu", kernel="pb_gemver_x",
         params="n:i32,beta:f32,A:f32[n*n]:in,x:f32[n]:inout,y:f32[n]:in,z:f32[n]:in",
         grid="ceildiv(n,256)", block="256", smem="0",
         check="n=1023,beta=3", time="n=8192,beta=3",
         torch="x + beta * (A.view(n,n).T @ y) + z",
         extra=[], note="PolyBench GEMVER x += beta*A[j][i]*y[j]; x += z, A_AT macro"),
    # ---------------------------------------------------------------- conv
    # static: unchanged: the kernel holds no contraction; one_per_thread does not apply (blockIdx is read)
    dict(name="conv3x3_nchw_pad", idiom="conv", source="conv/conv3x3_nchw_pad.cu",
         kernel="conv3x3_nchw_pad",
         params="x:f32[N*C*H*W]:in,w:f32[K*C*9]:in,y:f32[N*K*H*W]:out,N:i32,C:i32,H:i32,W:i32,K:i32",
         grid="ceildiv(W,16),ceildiv(H,16),N*K", block="16,16", smem="0",
         check="N=2,C=7,H=100,W=103,K=9", time="N=4,C=64,H=128,W=128,K=64",
         torch="F.conv2d(x.view(N,C,H,W), w.view(K,C,3,3), padding=1)",
         extra=[], note="NCHW, zero padding 1 with continue guards, (n,k) on grid.z"),
    # static: unchanged: raised (m=1014924, n=1, k=25); best candidate predicted no faster by more than 5%
    dict(name="conv5x5_single", idiom="conv", source="conv/conv5x5_single.cu",
         kernel="conv5x5_single",
         params="src:f32[H*W]:in,filt:f32[25]:in,out:f32[(H-4)*(W-4)]:out,H:i32,W:i32",
         grid="ceildiv(W-4,32),ceildiv(H-4,8)", block="32,8", smem="0",
         check="H=1000,W=1023", time="H=8192,W=8192",
         torch="F.conv2d(src.view(1,1,H,W), filt.view(1,1,5,5))",
         extra=[], note="valid, single channel, __ldg, #pragma unroll, __restrict__"),
    # static: unchanged: the kernel holds no contraction; one_per_thread predicted no faster
    dict(name="dwconv3x3", idiom="conv", source="conv/dwconv3x3.cu",
         kernel="dwconv",  # C++: dwconv<3> (lifted as dwconv_3)
         params="src:f32[N*C*H*W]:in,w:f32[C*9]:in,out:f32[N*C*H*W]:out,N:i32,C:i32,H:i32,W:i32",
         grid="ceildiv(N*C*H*W,256)", block="256", smem="0",
         check="N=2,C=5,H=100,W=103", time="N=8,C=64,H=256,W=256",
         torch="F.conv2d(src.view(N,C,H,W), w.view(C,1,3,3), padding=1, groups=C)",
         extra=[], note="depthwise, template<int KS>, zero padding with guards, 1-D grid"),
    # static: unchanged: the kernel holds no contraction; one_per_thread does not apply (blockIdx is read)
    dict(name="conv3x3_bias_relu", idiom="conv", source="conv/conv3x3_bias_relu.cu",
         kernel="conv3x3_bias_relu",
         params="img:f32[N*C*H*W]:in,w:f32[K*C*9]:in,bias:f32[K]:in,out:f32[N*K*(H-2)*(W-2)]:out,"
                "N:i32,C:i32,H:i32,W:i32,K:i32",
         grid="ceildiv(W-2,32),ceildiv(H-2,4),N*K", block="32,4", smem="0",
         check="N=2,C=5,H=37,W=101,K=7", time="N=4,C=64,H=130,W=130,K=64",
         torch="F.relu(F.conv2d(img.view(N,C,H,W), w.view(K,C,3,3), bias))",
         extra=[], note="valid NCHW + bias + ReLU helper, size_t indices, pointer offsets"),
    # static: unchanged: the kernel holds no contraction; one_per_thread predicted no faster
    dict(name="conv3x3_nhwc", idiom="conv", source="conv/conv3x3_nhwc.cu",
         kernel="conv3x3_nhwc",
         params="src:f32[N*H*W*C]:in,wt:f32[K*9*C]:in,out:f32[N*H*W*K]:out,"
                "N:i32,H:i32,W:i32,C:i32,K:i32",
         grid="ceildiv(N*H*W*K,256)", block="256", smem="0",
         check="N=2,H=37,W=45,C=19,K=13", time="N=4,H=128,W=128,C=64,K=64",
         torch="F.conv2d(src.view(N,H,W,C).permute(0,3,1,2), wt.view(K,3,3,C).permute(0,3,1,2),"
               " padding=1).permute(0,2,3,1)",
         extra=[], note="NHWC/OHWI, zero padding 1, index macros, __restrict__, 1-D grid"),
    # ---------------------------------------------------------------- small_gemv
    # static: unchanged: the kernel holds no contraction; one_per_thread does not apply (blockIdx is read)
    dict(name="bgemv_rowmajor", idiom="small_gemv", source="small_gemv/bgemv_rowmajor.cu",
         kernel="bgemv_rowmajor",
         params="W:f32[M*K]:in,x:f32[B*K]:in,y:f32[B*M]:out,B:i32,M:i32,K:i32",
         grid="ceildiv(M,256),B", block="256", smem="0",
         check="B=3,M=1000,K=1023", time="B=4,M=8192,K=8192",
         torch="x.view(B,K) @ W.view(M,K).T",
         extra=[], note="row-major W, one thread per output, batch on grid.y"),
    # static: changed split_reduction (LANES_OUT=32,WARPS_OUT=1,WARPS_RED=16,OUTS=4,UNROLL=8)
    dict(name="bgemv_colmajor", idiom="small_gemv", source="small_gemv/bgemv_colmajor.cu",
         kernel="bgemv_colmajor",
         params="W:f32[K*M]:in,x:f32[B*K]:in,y:f32[B*M]:out,B:i32,M:i32,K:i32",
         grid="ceildiv(M,64),B", block="64", smem="0",
         check="B=5,M=1023,K=1000", time="B=8,M=8192,K=8192",
         torch="x.view(B,K) @ W.view(K,M)",
         extra=[], note="column-major W (coalesced), 64-thread blocks, __ldg, __restrict__"),
    # static: unchanged: not raised: more than one statement with side effects at the kernel's top level
    dict(name="bgemv_batchloop", idiom="small_gemv", source="small_gemv/bgemv_batchloop.cu",
         kernel="bgemv_batchloop",
         params="W:f32[M*K]:in,x:f32[batch*K]:in,y:f32[batch*M]:out,batch:i32,M:i32,K:i32",
         grid="ceildiv(M,128)", block="128", smem="0",
         check="batch=5,M=1000,K=1023", time="batch=8,M=8192,K=4096",
         torch="x.view(batch,K) @ W.view(M,K).T",
         extra=[], note="batch loop inside the thread, acc[8] local array, size_t, __restrict__"),
    # The launcher dispatches B in {1,2,4,8} through a switch; the case pins B=4 (both workloads),
    # so the kernel is the instance bgemv_tmpl<4> (imported name bgemv_tmpl_4).
    # static: error: lift failed (below)
    # lift: bgemv_tmpl.cu:27:3: error: launches inside a 'SwitchStmt' are outside the launch slice
    dict(name="bgemv_tmpl", idiom="small_gemv", source="small_gemv/bgemv_tmpl.cu",
         kernel="bgemv_tmpl",  # C++: bgemv_tmpl<4> (lifted as bgemv_tmpl_4)
         params="W:f32[M*K]:in,x:f32[4*K]:in,y:f32[4*M]:out,M:i32,K:i32",
         grid="ceildiv(M,256)", block="256", smem="0",
         check="M=1000,K=1023", time="M=8192,K=8192",
         torch="x.view(4,K) @ W.view(M,K).T",
         extra=[], note="template<int BATCH> dispatched by switch, unrolled accumulators"),
    # static: changed split_reduction (WARPS_OUT=1,WARPS_RED=4,VEC=4,UNROLL=8)
    dict(name="gemv_rows", idiom="small_gemv", source="small_gemv/gemv_rows.cu",
         kernel="gemv_rows", params="A:f32[M*N]:in,x:f32[N]:in,y:f32[M]:out,M:i32,N:i32",
         grid="ceildiv(M,512)", block="512", smem="0",
         check="M=1000,N=1023", time="M=8192,N=8192",
         torch="A.view(M,N) @ x",
         extra=[], note="plain GEMV, one thread per row, ROW_MAJOR macro, 512-thread blocks"),
]
