#!/usr/bin/env python3
"""The memory-bound benchmarks: naive one-thread-per-row kernels (bench/memory/
*.cu), the hand-written schedules that make them fast (schedules/*.mlir),
compared in the same run with the device-to-device copy bandwidth (ks-bench's
copy baseline, for the bytes each kernel must move: read once, write once)
and with PyTorch's op (torch_ops.py).

  cases.py prepare KS_TRANSLATE KS_OPT OUT_DIR   here: lift, raise, schedule, lower, CPU equivalence
                                                 (ONLY=name,... in the environment: those cases)
  cases.py measure KS_BENCH OUT_DIR RESULTS_DIR [ONLY]
                                                 on the GPU machine: ks-bench, naive vs ours vs copy
                                                 (ONLY: comma-separated case names)
  cases.py report RESULTS_DIR [TORCH_JSON]       the table (markdown), torch's times beside
  cases.py prepare-measured KS_TRANSLATE OUT_DIR here: lift the row kernels (softmax, the
                                                 normalizations, row and column sums), the
                                                 stencils, the histogram and the transpose
                                                 for the driver to
                                                 schedule and measure on the GPU machine
                                                 (bench/contraction/cases.py measured, which
                                                 runs the pipeline with measure=cuda there)

The machinery is bench/contraction/cases.py's; each schedule applies to any
raised kernel of the same form (a forall over rows walking each row in
loops), none names a kernel.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "contraction"))
import cases as contraction  # noqa: E402

ROWS = "x:f32[rows*cols]:in,y:f32[rows]:out,rows:i32,cols:i32"
NORM = "x:f32[rows*cols]:in,y:f32[rows*cols]:out,rows:i32,cols:i32"
LAYERNORM = ("x:f32[rows*cols]:in,gamma:f32[cols]:in,beta:f32[cols]:in,y:f32[rows*cols]:out,"
             "rows:i32,cols:i32,eps:f32")
RMSNORM = "x:f32[rows*cols]:in,weight:f32[cols]:in,y:f32[rows*cols]:out,rows:i32,cols:i32,eps:f32"
SIZES = ["rows=16384,cols=4096", "rows=65536,cols=1024"]
ODD = ["rows=37,cols=1000", "rows=1,cols=4097", "rows=5,cols=1"]
GPU_ODD = ["rows=1000,cols=1023", "rows=4097,cols=1", "rows=1,cols=4097"]


def rows_case(kernel, params, bytes_, schedule, eps=False, sizes=SIZES, tag=""):
    # ks-bench's workload values are integers: eps = 1 there (the time does
    # not depend on it), 1e-5 in the CPU emulation.
    cpu, gpu = (",eps=0.00001", ",eps=1") if eps else ("", "")
    return dict(name=f"{kernel}_{schedule.split('.')[0]}{tag}", source=f"{kernel}.cu",
                schedule=schedule, params=params, launcher=params,
                odd=[w + cpu for w in ODD], gpu_odd=[w + gpu for w in GPU_ODD],
                bench=[w + gpu for w in sizes], bytes=bytes_, baseline=["copy"],
                tolerance="1e-5")


def norm_cases(schedule):
    return [rows_case("softmax", NORM, "8*rows*cols", schedule),
            rows_case("layernorm", LAYERNORM, "8*rows*cols+8*cols", schedule, eps=True),
            rows_case("rmsnorm", RMSNORM, "8*rows*cols+4*cols", schedule, eps=True)]


CASES = []
for schedule in ("row_warp.mlir", "row_block.mlir"):
    CASES += [
        rows_case("row_sum", ROWS, "4*(rows*cols+rows)", schedule),
        rows_case("row_max", ROWS, "4*(rows*cols+rows)", schedule, sizes=SIZES[:1]),
    ] + norm_cases(schedule)
# Larger and smaller blocks per row, for the kernels that read each row in
# several loops.
for schedule in ("row_block128.mlir", "row_block1024.mlir"):
    CASES += norm_cases(schedule)
# RMSNorm on rows of 1024: the driver's choice by hand, and a warp per row in
# blocks of 4 warps (more blocks per SM than row_warp's 8 at the same
# registers per thread).
for schedule in ("row_block128_v1.mlir", "row_warp_r4.mlir"):
    CASES += [c for c in norm_cases(schedule) if c["name"].startswith("rmsnorm")]
# With prefetch: the normalization's scale (and bias) loaded with the row.
for schedule in ("row_block128_v1_p.mlir", "row_warp_p.mlir", "row_block_v1_p.mlir"):
    CASES += [c for c in norm_cases(schedule) if not c["name"].startswith("softmax")]
# Lanes one element apart (vector = 1): whole sectors per warp-wide access.
# Not RMSNorm: half the speed of its 128-bit schedules (H200, 2026-12-02),
# and its 256-thread version spills.
for schedule in ("row_warp_v1.mlir", "row_block_v1.mlir"):
    CASES += [c for c in norm_cases(schedule) if not c["name"].startswith("rmsnorm")]

# Softmax on rows too long to keep in registers (256 MiB each): the two-pass
# loops read a row three times (row_block takes its uncached version there),
# online merges the first two (include/kernelskill/Transforms/OnlineSoftmax.h).
# The causal softmax masks the elements past the diagonal with -inf, which
# the online form must add as zeros.
LONG = ["rows=1024,cols=65536", "rows=4096,cols=16384"]
# row_block1024_c4, row_block512_c8 and row_block256_c16 keep rows of up to
# 16384 in registers (read once).
for kernel, schedules in (("softmax", ("row_block.mlir", "row_block_online.mlir",
                                       "row_block1024_online.mlir", "row_block_online_u4.mlir",
                                       "row_block1024_c4.mlir", "row_block512_c8.mlir",
                                       "row_block256_c16.mlir")),
                          ("causal_softmax", ("row_block.mlir", "row_block_online.mlir"))):
    for schedule in schedules:
        CASES.append(rows_case(kernel, NORM, "8*rows*cols", schedule, sizes=LONG,
                               tag="_long" if schedule == "row_block.mlir" else ""))

# Transposes, column sums and stencils: their own shapes and bytes.
def case(kernel, schedule, params, bytes_, bench, odd, gpu_odd, launcher=None):
    return dict(name=f"{kernel}_{schedule.split('.')[0]}", source=f"{kernel}.cu",
                schedule=schedule, params=params, launcher=launcher or params, odd=odd,
                gpu_odd=gpu_odd,
                bench=bench, bytes=bytes_, baseline=["copy"], tolerance="1e-5")


MATRIX = "in:f32[rows*cols]:in,out:f32[rows*cols]:out,rows:i32,cols:i32"
CASES += [
    case("transpose", "transpose_tile.mlir", MATRIX, "8*rows*cols", ["rows=16384,cols=16384"],
         ["rows=37,cols=1000", "rows=1,cols=4097", "rows=1023,cols=5"],
         ["rows=1000,cols=1023", "rows=4097,cols=1", "rows=1,cols=4097"]),
]
for schedule in ("col_interleaved.mlir", "col_interleaved64.mlir", "col_interleaved_u16.mlir"):
    CASES.append(case("col_sum", schedule, "x:f32[rows*cols]:in,y:f32[cols]:out,rows:i32,cols:i32",
                      "4*(rows*cols+cols)", ["rows=16384,cols=4096"],
                      ["rows=37,cols=1000", "rows=4097,cols=1", "rows=1,cols=4097"],
                      ["rows=1000,cols=1023", "rows=4097,cols=1", "rows=1,cols=4097"]))
for schedule in ("grid_32x8.mlir", "grid_128x4.mlir", "grid_32x8_c4.mlir", "grid_32x8_c8.mlir"):
    CASES += [
        case("stencil2d", schedule, "in:f32[n*m]:in,out:f32[n*m]:out,n:i32,m:i32", "8*n*m",
             ["n=16384,m=16384"], ["n=37,m=1000", "n=1,m=4097", "n=3,m=3"],
             ["n=1000,m=1023", "n=4097,m=1", "n=1,m=4097"]),
        case("stencil3d", schedule, "in:f32[n*n*n]:in,out:f32[n*n*n]:out,n:i32", "8*n*n*n",
             ["n=512"], ["n=37", "n=1", "n=3"], ["n=301", "n=1", "n=3"]),
    ]

# Stencils through a shared halo tile (transform.ks.simt_halo_tile).
CASES += [
    case("stencil2d", "halo_16x64.mlir", "in:f32[n*m]:in,out:f32[n*m]:out,n:i32,m:i32", "8*n*m",
         ["n=16384,m=16384"], ["n=37,m=1000", "n=1,m=4097", "n=3,m=3"],
         ["n=1000,m=1023", "n=4097,m=1", "n=1,m=4097"]),
    case("stencil3d", "halo_4x8x32.mlir", "in:f32[n*n*n]:in,out:f32[n*n*n]:out,n:i32", "8*n*n*n",
         ["n=512"], ["n=37", "n=1", "n=3"], ["n=301", "n=1", "n=3"]),
    # Streamed: a block walks its tile's outermost dimension plane by plane.
    case("stencil2d", "halo_stream_64x256.mlir", "in:f32[n*m]:in,out:f32[n*m]:out,n:i32,m:i32",
         "8*n*m", ["n=16384,m=16384"], ["n=37,m=1000", "n=1,m=4097", "n=3,m=3"],
         ["n=1000,m=1023", "n=4097,m=1", "n=1,m=4097"]),
    case("stencil3d", "halo3d_stream_32x8x32.mlir", "in:f32[n*n*n]:in,out:f32[n*n*n]:out,n:i32",
         "8*n*n*n", ["n=512"], ["n=37", "n=1", "n=3"], ["n=301", "n=1", "n=3"]),
    case("stencil3d", "halo3d_stream8_32x8x32.mlir", "in:f32[n*n*n]:in,out:f32[n*n*n]:out,n:i32",
         "8*n*n*n", ["n=512"], ["n=37", "n=1", "n=3"], ["n=301", "n=1", "n=3"]),
]
# Register windows (simt_halo_tile registers = true): each thread a column of
# consecutive rows (planes), its column of the input loaded once.
for schedule in ("window_4x128x2.mlir", "window_2x128x2.mlir"):
    CASES.append(case("stencil2d", schedule, "in:f32[n*m]:in,out:f32[n*m]:out,n:i32,m:i32",
                      "8*n*m", ["n=16384,m=16384"], ["n=37,m=1000", "n=1,m=4097", "n=3,m=3"],
                      ["n=1000,m=1023", "n=4097,m=1", "n=1,m=4097"]))
for schedule in ("window3d_8x32x8.mlir", "window3d_4x64x4.mlir", "window3d_16x32x8.mlir",
                 "window3d_16x64x4.mlir", "window3d_8x64x4.mlir"):
    CASES.append(case("stencil3d", schedule, "in:f32[n*n*n]:in,out:f32[n*n*n]:out,n:i32",
                      "8*n*n*n", ["n=512"], ["n=37", "n=1", "n=3"], ["n=301", "n=1", "n=3"]))

# A 256-bin histogram of bytes (every value 0..255): the bytes read are what
# must move (the 1 KiB of counters aside). The exported launcher's types are
# signless MLIR's: signed char and int (the same bytes).
# Skewed: every byte 0 or 1 (two bins take every update). histogram_warps
# keeps a copy of the counters per warp; the _aggregated ones match the
# lanes of a warp with the same counter and add once per match.
for schedule in ("histogram_shared.mlir", "histogram_warps.mlir", "histogram_aggregated.mlir",
                 "histogram_warps_aggregated.mlir"):
    for values, tag in (("0..256", ""), ("0..2", "_skewed")):
        c = case("histogram", schedule, f"in:u8[n]:in:{values},bins:u32[256]:inout,n:i32",
                 "n", ["n=268435456"], ["n=1000", "n=1", "n=4097", "n=100000"],
                 ["n=1000", "n=1023", "n=1"],
                 launcher=f"in:i8[n]:in:{values},bins:i32[256]:inout,n:i32")
        c["name"] += tag
        CASES.append(c)

# Per-block sums through the textbook interleaved tree (tid % (2*s)) and its
# strided form (2*s*tid), the SIMT form the raising leaves alone, rewritten
# to sequential addressing: it reads x once and writes one sum per 256
# elements.
for kernel in ("tree_sum", "tree_strided"):
    CASES.append(case(kernel, "tree_sequential.mlir", "in:f32[n]:in,out:f32[ceildiv(n,256)]:out,n:i32",
                      "4*n+4*ceildiv(n,256)", ["n=67108864"], ["n=1000", "n=1", "n=4097"],
                      ["n=1000", "n=1023", "n=1"]))

# Three elementwise kernels launched back to back (y = (2x + 1)^2 through t1,
# t2), fused into one: it must read x and write t1, t2, y (the naive three
# launches move 24 bytes per element, the fused kernel 16).
CHAIN = "x:f32[n]:in,t1:f32[n]:out,t2:f32[n]:out,y:f32[n]:out,n:i32"
CASES.append(case("chain3", "fuse_grid_c4.mlir", CHAIN, "16*n", ["n=67108864"],
                  ["n=1000", "n=1", "n=4097"], ["n=1000", "n=1023", "n=1"]))

# The same chain with the intermediates the launcher's own (allocated and
# freed there: ks.scratch): fused, they are no longer written, so the fused
# kernel moves 8 bytes per element against the naive launches' 24. ks-bench
# poisons the scratch buffers and compares only y.
CASES.append(case("chain3_scratch", "fuse_grid_c4.mlir",
                  "x:f32[n]:in,y:f32[n]:out,n:i32,t1:f32[n]:scratch,t2:f32[n]:scratch", "8*n",
                  ["n=67108864"], ["n=1000", "n=1", "n=4097"], ["n=1000", "n=1023", "n=1"]))

# An elementwise kernel into a row sum (t = 2x + 1, y = row sums of t), fused:
# read x, write t and y.
CASES.append(rows_case("scale_rowsum", "x:f32[rows*cols]:in,t:f32[rows*cols]:out,y:f32[rows]:out,"
                       "rows:i32,cols:i32", "8*rows*cols+4*rows", "fuse_row_warp.mlir"))


def report(results, torch_json=None):
    contraction.report(results)
    if torch_json and os.path.exists(torch_json):
        import json
        rows = ["", "| torch op | workload | ms | GB/s |", "|---|---|---|---|"]
        for r in json.load(open(torch_json)):
            rows.append(f"| {r['op']} | {r['workload']} | {r['median_ms']:.3f} | {r['gbps']:.0f} |")
        print("\n".join(rows))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    mode = sys.argv[1]
    if mode == "prepare":
        contraction.prepare(*sys.argv[2:5], cases=CASES, here=HERE)
    elif mode == "measure":
        sys.exit(contraction.measure(*sys.argv[2:6]))
    elif mode == "prepare-measured":
        # The row kernels, the transpose and the stencils, one case per
        # source and size (no hand schedule: the agents' families).
        # (row_block_online: softmax on the long rows; col_interleaved_u16:
        # the column sum; histogram_shared: the histogram of every byte value.)
        rows = [c for c in CASES if c["schedule"] in ("row_warp.mlir", "transpose_tile.mlir",
                                                      "window_4x128x2.mlir",
                                                      "window3d_8x32x8.mlir",
                                                      "row_block_online.mlir",
                                                      "col_interleaved_u16.mlir",
                                                      "histogram_shared.mlir")
                and not c["name"].endswith("_skewed")]
        contraction.prepare_measured(*sys.argv[2:4], cases=rows, here=HERE)
    elif mode == "report":
        report(*sys.argv[2:4])
    else:
        raise SystemExit(__doc__)
