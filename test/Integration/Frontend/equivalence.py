#!/usr/bin/env python3
"""GPU equivalence of the CUDA importer and exporter: for every kernel of the
corpus (test/Frontend/corpus), the PTX that ks-translate + ks-opt
--kernelskill-lower produce from the lifted IR, and nvcc's compilation of the
CUDA that ks-translate --export-cuda writes back, must compute what nvcc's
compilation of the original computes, on seeded random inputs with poisoned outputs, at sizes that are not
multiples of the block (ks-bench does the verifying).

The kernels of the whole programs (test/Frontend/programs, PROGRAM_CASES)
are checked the same way, each launched as its program launches it; their
sources are compiled with the program's flags (-D, -I).

usage: [KS_EQUIV_ONLY=CASE,...] equivalence.py KS_BENCH NVCC CORPUS_DIR KS_PTX_DIR OUT.md
       equivalence.py prepare KS_TRANSLATE KS_OPT CORPUS_DIR KS_PTX_DIR
The second form (on the build machine, which has ks-translate) lifts, lowers
and exports every source the cases name into KS_PTX_DIR.
Exit 0 when every kernel matches, 1 otherwise, 77 without a GPU.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

# kernel -> (corpus file, params, grid, block, workload, extra ks-bench args)
CASES = {
    "naive_gemm": ("naive_gemm.cu", "A:f32[M*K]:in,B:f32[K*N]:in,C:f32[M*N]:out,M:i32,N:i32,K:i32",
                   "ceildiv(N,16),ceildiv(M,16)", "16,16", "M=1000,N=1023,K=257", []),
    "reduce_sum": ("reduce_sum.cu", "in:f32[n]:in,out:f32[1]:inout,n:i32", "64", "256", "n=1000003",
                   ["--tolerance", "1e-4"]),  # float atomics: the order of the sum varies
    "row_max_4": ("row_max_template.cu", "x:f32[rows*cols]:in,y:f32[rows]:out,rows:i32,cols:i32",
                  "ceildiv(rows,4)", "128", "rows=1000,cols=1023", []),
    "first_negative": ("early_exit.cu", "x:i32[n*m]:in,pos:i32[n]:out,n:i32,m:i32",
                       "ceildiv(n,128)", "128", "n=1000,m=37", []),
    "saxpy": ("saxpy_grid_stride.cu", "n:i32,a:f32,x:f32[n]:in,y:f32[n]:inout", "264", "256",
              "n=1000003,a=2", []),
    "transpose_naive": ("transpose_naive.cu", "in:f32[rows*cols]:in,out:f32[rows*cols]:out,rows:i32,cols:i32",
                        "ceildiv(cols,32),ceildiv(rows,8)", "32,8", "rows=1000,cols=1023", []),
    "transpose_tiled": ("transpose_tiled.cu", "in:f32[rows*cols]:in,out:f32[rows*cols]:out,rows:i32,cols:i32",
                        "ceildiv(cols,32),ceildiv(rows,32)", "32,8", "rows=1000,cols=1023", []),
    "gemv_rows": ("gemv_rows.cu", "A:f32[m*n]:in,x:f32[n]:in,y:f32[m]:out,m:i32,n:i32",
                  "ceildiv(m,128)", "128", "m=1000,n=1023", []),
    "gemv_cols": ("gemv_cols.cu", "A:f32[m*n]:in,x:f32[m]:in,y:f32[n]:out,m:i32,n:i32",
                  "ceildiv(n,128)", "128", "m=1000,n=1023", []),
    "softmax_rows": ("softmax_rows.cu", "x:f32[rows*cols]:in,y:f32[rows*cols]:out,rows:i32,cols:i32",
                     "ceildiv(rows,128)", "128", "rows=1000,cols=257", []),
    "rmsnorm": ("rmsnorm.cu", "x:f32[rows*cols]:in,w:f32[cols]:in,y:f32[rows*cols]:out,rows:i32,cols:i32,eps:f32",
                "ceildiv(rows,128)", "128", "rows=1000,cols=257,eps=1", []),
    "gelu_like": ("elementwise_chain.cu", "x:f32[n]:in,y:f32[n]:out,n:i32,shift:i32",
                  "ceildiv(n,256)", "256", "n=1000003,shift=4", []),
    "stencil2d": ("stencil2d.cu", "in:f32[h*w]:in,out:f32[h*w]:out,h:i32,w:i32",
                  "ceildiv(w,32),ceildiv(h,8)", "32,8", "h=1000,w=1023", []),
    "histogram": ("histogram.cu", "data:u8[n]:in,bins:u32[256]:inout,n:i32", "64", "256", "n=1000003", []),
    "block_scan": ("block_scan.cu", "in:i32[n]:in,out:i32[n]:out,n:i32", "ceildiv(n,512)", "512",
                   "n=100003", []),
    "batched_gemm": ("batched_gemm.cu", "A:f32[Bt*M*K]:in,B:f32[Bt*K*N]:in,C:f32[Bt*M*N]:out,M:i32,N:i32,K:i32",
                     "ceildiv(N,16),ceildiv(M,16),Bt", "16,16", "M=100,N=123,K=37,Bt=3", []),
    "scale_f16": ("scale_f16.cu", "x:f16[n]:in,g:f16[n]:in,y:f16[n]:out,a:f32,n:i32",
                  "ceildiv(n,256)", "256", "n=1000003,a=2", []),
    "axpy_bf16": ("axpy_bf16.cu", "x:bf16[n]:in,y:bf16[n]:inout,a:f32,n:i32",
                  "ceildiv(n,256)", "256", "n=1000003,a=2", []),
    "layernorm": ("layernorm.cu", "x:f32[rows*cols]:in,gamma:f32[cols]:in,beta:f32[cols]:in,y:f32[rows*cols]:out,rows:i32,cols:i32",
                  "ceildiv(rows,128)", "128", "rows=1000,cols=257", []),
    "column_sum": ("column_sum.cu", "x:f32[rows*cols]:in,sums:f32[cols]:out,rows:i32,cols:i32",
                   "ceildiv(cols,128)", "128", "rows=1000,cols=1023", []),
    "conv2d": ("conv2d_direct.cu", "in:f32[h*w]:in,filt:f32[k*k]:in,out:f32[(h-k+1)*(w-k+1)]:out,h:i32,w:i32,k:i32",
               "ceildiv(w-k+1,16),ceildiv(h-k+1,16)", "16,16", "h=1000,w=1023,k=5", []),
    "stencil3d": ("stencil3d.cu", "in:f32[nx*ny*nz]:in,out:f32[nx*ny*nz]:out,nx:i32,ny:i32,nz:i32",
                  "ceildiv(nx,32),ceildiv(ny,4),ceildiv(nz,2)", "32,4,2", "nx=130,ny=67,nz=33", []),
    "tril_matvec": ("triangular_matvec.cu", "L:f32[n*n]:in,x:f32[n]:in,y:f32[n]:out,n:i32",
                    "ceildiv(n,128)", "128", "n=1000", []),
    "row_argmax": ("row_argmax.cu", "x:f32[rows*cols]:in,idx:u32[rows]:out,rows:i32,cols:i32",
                   "ceildiv(rows,128)", "128", "rows=1000,cols=1023", []),
    "block_max": ("reduce_dynamic_smem.cu", "x:f32[n]:in,out:f32[ceildiv(n,256)]:out,n:i32",
                  "ceildiv(n,256)", "256", "n=1000003", ["--smem", "1024"]),
    "scale4": ("float4_loads.cu", "x:f32[4*n4]:in,y:f32[4*n4]:out,a:f32,n4:i32",
               "ceildiv(n4,256)", "256", "n4=250001,a=3", []),
    "tile_row_sum": ("cg_reductions.cu", "x:f32[rows*cols]:in,sums:f32[rows]:out,rows:i32,cols:i32",
                     "ceildiv(rows,4)", "128", "rows=1000,cols=1023", ["--tolerance", "1e-5"]),
    "tile_max": ("cg_reductions.cu", "x:i32[n]:in,out:i32[ceildiv(n,256)]:out,n:i32",
                 "ceildiv(n,256)", "256", "n=1000003", []),
    "argmax": ("argmax_cas.cu", "x:i32[n]:in,best:i32[1]:inout,where:i32[1]:inout,n:i32",
               "ceildiv(n,256)", "256", "n=1000003", []),
    # @NAME: the module's __constant__/__device__ variable, filled by name;
    # bucket_of keeps the initializer both files give it.
    "conv1d_const": ("constant_memory.cu", "in:f32[n]:in,out:f32[n]:out,n:i32,@taps:f32[9]:in,@scale:f32[1]:in",
                     "ceildiv(n,256)", "256", "n=1000003", []),
    "tile_votes": ("cg_reductions.cu", "x:i32[n]:in,odd:u32[n]:out,flags:i32[n]:out,n:i32",
                   "ceildiv(n,256)", "256", "n=1000003", []),
    "block_sum_float": ("shared_memory_template.cu", "in:f32[n]:in,out:f32[ceildiv(n,256)]:out,n:u32",
                        "ceildiv(n,256)", "256", "n=1000003", ["--smem", "1024"]),
    "block_sum_double": ("shared_memory_template.cu", "in:f64[n]:in,out:f64[ceildiv(n,512)]:out,n:u32",
                         "ceildiv(n,512)", "256", "n=1000003", ["--smem", "2048"]),
    "axpy_half2": ("half2_pairs.cu", "x:f16[2*n2]:in,y:f16[2*n2]:inout,maxes:f16[n2]:out,a:f32,n2:i32",
                   "ceildiv(n2,256)", "256", "n2=500001,a=2", []),
    "mix_bf16x2": ("half2_pairs.cu", "x:bf16[2*n2]:in,y:bf16[2*n2]:out,sums:f32[n2]:out,b:f32,n2:i32",
                   "ceildiv(n2,256)", "256", "n2=500001,b=3", []),
    "half_select": ("half_compare.cu", "x:f16[n]:in,y:f16[n]:out,flags:i32[n]:out,n:i32",
                    "ceildiv(n,256)", "256", "n=1000003", []),
    "bf16_pair_select": ("half_compare.cu", "p:bf16[2*n2]:in,q:bf16[2*n2]:out,both:i32[n2]:out,n2:i32",
                         "ceildiv(n2,256)", "256", "n2=500001", []),
    "warp_count": ("warp_votes.cu", "x:i32[n]:in:-8..8,count:i32[1]:inout,masks:u32[ceildiv(n,32)]:out,flags:i32[ceildiv(n,32)]:out,bits:i32[n]:out,n:i32",
                   "ceildiv(n,256)", "256", "n=1000003", []),
    "bucket_count": ("constant_memory.cu", "keys:i32[n]:in,counts:i32[4]:inout,n:i32,@seen:i32[1]:inout",
                     "ceildiv(n,256)", "256", "n=1000003", []),
}


# Kernels of the whole programs: kernel -> (source relative to the corpus,
# params, grid, block, workload, extra ks-bench args, the program's flags;
# %P is test/Frontend/programs), each launched as its program does.
P = "../programs/"
PROGRAM_CASES = {
    "saxpy@bench_saxpy": (P + "bench_saxpy.cu", "n:i32,a:f32,x:f32[n]:in,y:f32[n]:inout",
                          "ceildiv(n,256)", "256", "n=1000003,a=2", [], ["-DSIZE=4096"]),
    "histogram256": (P + "histogram_program.cu", "data:u8[n]:in:0..256,bins:u32[256]:inout,n:i32",
                     "132", "256", "n=1000003", [], []),
    "jacobi": (P + "jacobi_residual.cu", "u:f32[n]:in,unew:f32[n]:inout,f:f32[n]:in,n:i32,h2:f32",
               "ceildiv(n,256)", "256", "n=1000003,h2=1", [], ["-DPOINTS=1000", "-DITERS=40"]),
    "residual": (P + "jacobi_residual.cu", "u:f32[n]:in,f:f32[n]:in,res:f32[1]:inout,n:i32,h2:f32",
                 "ceildiv(n,256)", "256", "n=1000003,h2=1", ["--tolerance", "1e-4"],
                 ["-DPOINTS=1000", "-DITERS=40"]),
    "MatrixMulCUDA_16": (P + "samples_matrixmul.cu", "C:f32[wB*wA]:out,A:f32[wA*wA]:in,B:f32[wB*wA]:in,wA:i32,wB:i32",
                         "wB/16,wA/16", "16,16", "wA=320,wB=640", [], []),
    "MatrixMulCUDA_32": (P + "samples_matrixmul.cu", "C:f32[wB*wA]:out,A:f32[wA*wA]:in,B:f32[wB*wA]:in,wA:i32,wB:i32",
                         "wB/32,wA/32", "32,32", "wA=320,wB=640", [], []),
    "scale@streams_pipeline": (P + "streams_pipeline.cu", "x:f32[n]:in,y:f32[n]:out,a:f32,n:i32",
                               "ceildiv(n,256)", "256", "n=1000003,a=2", [], []),
    "bias_relu": (P + "streams_pipeline.cu", "y:f32[rows*cols]:inout,bias:f32[cols]:in,rows:i32,cols:i32",
                  "ceildiv(cols,128),rows", "128", "rows=1000,cols=1023", [], []),
    "row_sums": (P + "streams_pipeline.cu", "y:f32[rows*cols]:in,sums:f32[rows]:out,rows:i32,cols:i32",
                 "ceildiv(rows,64)", "64", "rows=1000,cols=1023", [], []),
    "diffuse": (P + "time_steps.cu", "in:f32[w*h]:in,out:f32[w*h]:inout,w:i32,h:i32",
                "ceildiv(w,32),ceildiv(h,8)", "32,8", "w=1000,h=1023", [], []),
    "copyBack": (P + "time_steps.cu", "from:f32[n]:in,to:f32[n]:out,n:i32",
                 "ceildiv(n,256)", "256", "n=1000003", [], []),
    "partialSums": (P + "two_pass_reduce.cu", "x:f32[n]:in,partial:f32[ceildiv(n,256)]:out,n:i32",
                    "ceildiv(n,256)", "256", "n=1000003", ["--smem", "1024"], []),
    "softmaxRows": (P + "softmax_argv.cu", "x:f32[rows*cols]:in,y:f32[rows*cols]:out,rows:i32,cols:i32",
                    "ceildiv(rows,128)", "128", "rows=1000,cols=257", [], []),
    "toGray": (P + "constants_header.cu", "rgb:f32[3*w*h]:in,gray:f32[w*h]:out,w:i32,h:i32",
               "ceildiv(w,32),ceildiv(h,8)", "32,8", "w=1000,h=1023", [], ["-I%P/include"]),
    "clampTo": (P + "constants_header.cu", "in:f32[n]:in,out:f32[n]:out,lo:f32,hi:f32,n:i32",
                "ceildiv(n,256)", "256", "n=1000003,lo=0,hi=1", [], ["-I%P/include"]),
    "scale@constants_header": (P + "constants_header.cu", "in:f32[n]:in,out:f32[n]:out,a:f32,n:i32",
                               "ceildiv(n,256)", "256", "n=1000003,a=3", [], ["-I%P/include"]),
    "offset": (P + "constants_header.cu", "in:f32[n]:in,out:f32[n]:out,b:f32,n:i32",
               "ceildiv(n,256)", "256", "n=1000003,b=2", [], ["-I%P/include"]),
    "fill": (P + "host_helpers.cu", "x:f32[n]:out,v:f32,n:i32", "ceildiv(n,256)", "256",
             "n=1000003,v=2", [], []),
    "scale4@launch_casts": (P + "launch_casts.cu", "in:f32[4*n4]:in,out:f32[4*n4]:out,a:f32,n4:i32",
                            "ceildiv(n4,256)", "256", "n4=250001,a=3", [], []),
    "matmul_16": (P + "matmul_bench.cu", "A:f32[n*n]:in,B:f32[n*n]:in,C:f32[n*n]:out,n:i32",
                  "ceildiv(n,16),ceildiv(n,16)", "16,16", "n=1000", [], ["-DTILE=16", "-DREPS=20"]),
    "blockSum_float_256": (P + "templated_wrappers.cu", "in:f32[n]:in,out:f32[1]:inout,n:i32",
                           "ceildiv(n,256)", "256", "n=1000003", ["--tolerance", "1e-4"], []),
    "blockSum_int_128": (P + "templated_wrappers.cu", "in:i32[n]:in,out:i32[1]:inout,n:i32",
                         "ceildiv(n,128)", "128", "n=1000003", [], []),
    "axpby_float": (P + "struct_config.cu", "x:f32[n]:in,y:f32[n]:inout,alpha:f32,beta:f32,n:i32",
                    "ceildiv(n,256)", "256", "n=1000003,alpha=2,beta=3", [], []),
    "scaleKernel": (P + "library.cu", "x:f32[n]:inout,a:f32,n:i32", "ceildiv(n,256)", "256",
                    "n=1000003,a=3", [], ["-I%P/include"]),
    "sumBlocks_128": (P + "library.cu", "x:f32[n]:in,partial:f32[ceildiv(n,128)]:out,n:i32",
                      "ceildiv(n,128)", "128", "n=1000003", [], ["-I%P/include"]),
}


def kernel_of(case):
    """The kernel's name: the case's, without the program that tells two apart."""
    return case.split("@")[0]


def flags_of(case, programs):
    return [f.replace("%P", programs) for f in (PROGRAM_CASES[case][6] if case in PROGRAM_CASES else [])]


def all_cases():
    yield from ((k, v) for k, v in CASES.items())
    yield from ((k, v[:6]) for k, v in PROGRAM_CASES.items())


# The C++ name of kernels whose imported name differs (template instances),
# or the start of the mangled name where one template has several.
CXX_NAMES = {"row_max_4": "row_max", "block_sum_float": "_Z9block_sumIfE",
             "block_sum_double": "_Z9block_sumIdE", "MatrixMulCUDA_16": "_Z13MatrixMulCUDAILi16E",
             "MatrixMulCUDA_32": "_Z13MatrixMulCUDAILi32E", "matmul_16": "_Z6matmulILi16E",
             "blockSum_float_256": "_Z8blockSumIfLi256E", "blockSum_int_128": "_Z8blockSumIiLi128E",
             "axpby_float": "_Z5axpbyIfE", "scaleKernel": "_ZN6vecops11scaleKernel",
             "sumBlocks_128": "_ZN6vecops9sumBlocksILi128E"}


def mangled_entry(ptx_path, name):
    """nvcc names C++ kernels by their Itanium mangling: _Z<len><name>..."""
    text = open(ptx_path).read()
    base = CXX_NAMES.get(name, name)
    for entry in re.findall(r"\.entry\s+([A-Za-z0-9_$]+)", text):
        if entry == name or entry.startswith(base if base.startswith("_Z") else f"_Z{len(base)}{base}"):
            return entry
    return None


def stem(source):
    return os.path.splitext(os.path.basename(source))[0]


def prepare(ks_translate, ks_opt, corpus, out_dir):
    """Lifts, lowers and exports each source once, with its program's flags."""
    programs = os.path.normpath(os.path.join(corpus, P))
    os.makedirs(out_dir, exist_ok=True)
    sources = {}
    for case, value in all_cases():
        sources.setdefault(value[0], flags_of(case, programs))
    for source in sorted(set(sources) | {f for f in os.listdir(corpus) if f.endswith(".cu")}):
        base = os.path.join(out_dir, stem(source))
        flags = sources.get(source, [])
        subprocess.run([ks_translate, "--import-cuda", os.path.join(corpus, source), "-o",
                        base + ".mlir", *(["--", *flags] if flags else [])], check=True)
        subprocess.run([ks_opt, base + ".mlir", f"--kernelskill-lower=ptx={base}.ptx", "-o",
                        os.devnull], check=True, stderr=subprocess.DEVNULL)
        subprocess.run([ks_translate, "--export-cuda", base + ".mlir", "-o", base + ".out.cu"],
                       check=True)
    return 0


def main():
    if sys.argv[1] == "prepare":
        return prepare(*sys.argv[2:6])
    ks_bench, nvcc, corpus, ks_ptx_dir, out_md = sys.argv[1:6]
    programs = os.path.normpath(os.path.join(corpus, P))
    if subprocess.run(["sh", "-c", "nvidia-smi -L"], capture_output=True).returncode != 0:
        print("no GPU: skipping")
        return 77
    work = tempfile.mkdtemp(prefix="ks-equiv-")
    rows, all_ok = [], True
    # KS_EQUIV_ONLY=case,case runs only those (a quick re-check on the GPU).
    only = set(filter(None, os.environ.get("KS_EQUIV_ONLY", "").split(",")))
    for case, (source, params, grid, block, workload, extra) in all_cases():
        if only and case not in only:
            continue
        kernel = kernel_of(case)
        nvcc_ptx = os.path.join(work, case + ".nvcc.ptx")
        subprocess.run([nvcc, "-ptx", "-arch=sm_90", *flags_of(case, programs), "-o", nvcc_ptx,
                        os.path.join(corpus, source)], check=True)
        entry = mangled_entry(nvcc_ptx, kernel)
        ks_ptx = os.path.join(ks_ptx_dir, stem(source) + ".ptx")
        # The CUDA the exporter wrote back from the lifted IR, compiled by nvcc.
        exported_cu = os.path.join(ks_ptx_dir, stem(source) + ".out.cu")
        exported_ptx = os.path.join(work, case + ".export.ptx")
        subprocess.run([nvcc, "-ptx", "-arch=sm_90", "-o", exported_ptx, exported_cu], check=True)
        out = os.path.join(work, case + ".json")
        cmd = [ks_bench, f"nvcc={nvcc_ptx}@{entry}", f"ks={ks_ptx}@{kernel}",
               f"export={exported_ptx}@{kernel}", "--params", params,
               "--grid", grid, "--block", block, "--workload", workload, "--reps", "5",
               "--warmup", "1", "--no-db", "--no-counters", "--json", out, *extra]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        try:
            result = json.load(open(out))
            ref, ks, exported = result["variants"][0:3]
            errs = [f"{k}: rel {v['rel_l2']:.1e}, max {v['max_abs']:.1e}" for k, v in ks.get("verification", {}).items()]
            ok = proc.returncode == 0 and ks["status"] == "pass" and exported["status"] == "pass"
            rows.append((case, source, workload,
                         ("match" if ks["status"] == "pass" else "MISMATCH") + " / " +
                         ("match" if exported["status"] == "pass" else "MISMATCH"),
                         "; ".join(errs) or ks.get("error", "") or exported.get("error", ""),
                         ref.get("timing", {}).get("median_ms"), ks.get("timing", {}).get("median_ms")))
        except Exception as e:  # a crashed run is a mismatch, with its output
            ok = False
            rows.append((case, source, workload, "ERROR", f"{e}: {proc.stdout[-300:]} {proc.stderr[-300:]}", None, None))
        all_ok &= ok
    with open(out_md, "w") as f:
        f.write("| kernel | source | workload | lowered PTX / exported CUDA vs nvcc | error of the lowered PTX | nvcc ms | ks ms |\n|---|---|---|---|---|---|---|\n")
        for k, s, w, r, e, a, b in rows:
            fa = f"{a:.4f}" if a else "-"
            fb = f"{b:.4f}" if b else "-"
            f.write(f"| {k} | {s} | {w} | {r} | {e} | {fa} | {fb} |\n")
    print(open(out_md).read())
    print(f"{sum(r[3] == 'match / match' for r in rows)} of {len(rows)} kernels match (both ways)")
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
