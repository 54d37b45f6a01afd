"""What call 3 ran (in .deps/colsum, then nvcc -O3 -arch=sm_90 -ptx -o variants.ptx variants.cu):
bench/memory/colsum_probe.cu's kernels as extern "C" entries, one ks-bench manifest each
(a zeroing launch first where the variant adds into y atomically)."""
import json
src = open('bench/memory/colsum_probe.cu').read()
body = src[src.index('// Ours today'):src.index('int main(')]
body = body.replace('__global__ void __launch_bounds__(T * R) interleaved', '__device__ __forceinline__ void interleaved')
body = body.replace('__global__ void __launch_bounds__(T * R4) vec4', '__device__ __forceinline__ void vec4')
V = [('i', *p) for p in [(32, 32, 16, 1), (32, 32, 8, 1), (32, 32, 8, 2), (16, 32, 8, 4), (8, 32, 8, 8), (8, 128, 8, 4), (16, 64, 8, 2)]]
V += [('v', *p) for p in [(8, 32, 4, 8), (16, 32, 4, 4), (32, 32, 4, 2), (8, 32, 8, 4), (16, 16, 4, 8)]]
out = ['#include <cuda_runtime.h>', body,
       'extern "C" __global__ void zero_y(const float *x, float *y, int rows, int cols) {',
       '  int c = blockIdx.x * blockDim.x + threadIdx.x; if (c < cols) y[c] = 0.f; }']
names = []
for kind, T, R, U, S in V:
    name = f"{kind}_T{T}_R{R}_U{U}_S{S}"
    call = f'interleaved<{T},{R},{U},{"true" if S > 1 else "false"}>' if kind == 'i' else f'vec4<{T},{R},{U}>'
    out.append(f'extern "C" __global__ void __launch_bounds__({T*R}) {name}(const float *x, float *y, int rows, int cols) {{ {call}(x, y, rows, cols); }}')
    grid = [f"ceildivu(cols, {R if kind == 'i' else 4 * R})", str(S), "1"]
    launches = []
    if kind == 'v' or S > 1:
        launches.append(dict(kernel="zero_y", grid=["ceildivu(cols, 256)", "1", "1"], block=["256", "1", "1"], smem="0"))
    launches.append(dict(kernel=name, grid=grid, block=[str(T * R), "1", "1"], smem="0"))
    json.dump(launches, open(name + ".json", "w"), indent=1)
    names.append(name)
open('variants.cu', 'w').write("\n".join(out) + "\n")
open('variants.txt', 'w').write(" ".join(names) + "\n")
