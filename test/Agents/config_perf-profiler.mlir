// What the profiler decides, on hand-written IR: #ks.resources given by hand
// (no ptxas), the target from #ks.arch; out come #ks.access and #ks.branch on
// the ops and #ks.diagnosis on the kernel, the findings naming their subject.
// RUN: ks-opt %s --ks-arch-profiler="gpu=a100" --ks-perf-profiler="workload=arg2=4096,grid.x=1024" -split-input-file | FileCheck %s
// A second run replaces the facts (same ids, still valid):
// RUN: ks-opt %s --ks-arch-profiler="gpu=a100" --ks-perf-profiler="workload=arg2=4096,grid.x=1024" --ks-perf-profiler="workload=arg2=4096,grid.x=1024" -split-input-file | FileCheck %s

// A column walk: the strided load is the subject of the top finding; the
// loop is a branch with no divergence; resources come from #ks.resources.
// CHECK-LABEL: gpu.func @column_walk
// CHECK-SAME: ks.diagnosis = #ks.diagnosis<[{{.*}}#ks.finding<kind = uncoalesced_access, {{[^>]*}}, subject = 0, note = "load of `arg0[{{.*}}]` {{.*}} is strided by arg2 elements
// The roofline floor plus the launch (the driver's target= measures rounds
// against it), next to the model's time.
// CHECK-SAME: ks.floor_time = {{[0-9][0-9.eE+-]*}} : f64, ks.predicted_time = {{[0-9][0-9.eE+-]*}} : f64
// CHECK-SAME: ks.resources = #ks.resources<registers = 32
// CHECK: memref.load {{.*}} {ks.access = #ks.access<id = 0, kind = load, space = global, pattern = strided, sectors_per_request = 32.0, ideal_sectors_per_request = 4.0, wavefronts_per_request = 0.0, warps_per_element = 1.0, loop_invariant = false>}
// CHECK: } {ks.branch = #ks.branch<id = 2, kind = loop, executions = {{[0-9.]+}}, divergent_fraction = 0.0, lane_dependent = false>}
// CHECK: memref.store {{.*}} {ks.access = #ks.access<id = 1, kind = store, space = global, pattern = coalesced, stride = 1,
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @column_walk(%a: memref<?xf32>, %out: memref<?xf32>, %n: index) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>,
                    ks.resources = #ks.resources<registers = 32, stack = 0, spill_stores = 0, spill_loads = 0, shared = 0, chip = "sm_80", opt_level = 2>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %cst = arith.constant 0.0 : f32
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %base = arith.muli %bid, %bdim : index
      %row = arith.addi %base, %tid : index
      %sum = scf.for %j = %c0 to %c64 step %c1 iter_args(%acc = %cst) -> (f32) {
        %rowoff = arith.muli %row, %n : index
        %i = arith.addi %rowoff, %j : index
        %v = memref.load %a[%i] : memref<?xf32>
        %s = arith.addf %acc, %v : f32
        scf.yield %s : f32
      }
      memref.store %sum, %out[%row] : memref<?xf32>
      gpu.return
    }
  }
}

// -----

// 200 registers (given) limit an A100 to one block of 256 threads per SM:
// a kernel-level finding, with no subject.
// CHECK-LABEL: gpu.func @register_heavy
// CHECK-SAME: #ks.finding<kind = low_occupancy, {{[^>]*}}loc = {{[^,]*}}, note = "occupancy 12.5% (1 blocks, 8 warps per SM), limited by registers: 200 registers per thread">
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @register_heavy(%a: memref<?xf32>, %b: memref<?xf32>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>,
                    ks.resources = #ks.resources<registers = 200, stack = 0, spill_stores = 0, spill_loads = 0, shared = 0, chip = "sm_80", opt_level = 2>} {
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %v = memref.load %a[%i] : memref<?xf32>
      memref.store %v, %b[%i] : memref<?xf32>
      gpu.return
    }
  }
}
