// The kernel profile is an analysis kept between passes until the kernel
// changes. Here a pass removes a branch between two profiler runs: the
// second run must analyze the new kernel (no #ks.branch left, facts valid),
// not reuse the first profile, whose branch op no longer exists.
// RUN: ks-opt %s --ks-perf-profiler="workload=grid.x=4" --canonicalize --ks-perf-profiler="workload=grid.x=4" | FileCheck %s
// RUN: ks-opt %s --ks-perf-profiler="workload=grid.x=4" | FileCheck %s --check-prefix=FIRST

// FIRST: ks.branch = #ks.branch<id = 2, kind = branch
// CHECK-LABEL: gpu.func @k
// CHECK-NOT: ks.branch
// CHECK: ks.access = #ks.access<id = 0, kind = load
// CHECK-NOT: ks.branch
// CHECK: ks.access = #ks.access<id = 1, kind = store
// CHECK-NOT: ks.branch
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<?xf32>, %b: memref<?xf32>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %true = arith.constant true
      %tid = gpu.thread_id x
      %v = memref.load %a[%tid] : memref<?xf32>
      scf.if %true {
        memref.store %v, %b[%tid] : memref<?xf32>
      }
      gpu.return
    }
  }
}
