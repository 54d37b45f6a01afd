// A kernel with the profiler's and ptxas's facts that the iteration-space
// raising refuses (it synchronizes), with a counted loop that
// ks-raise-counted-loops does raise. Used by raise-drops-facts.test.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @synchronizes(%out: memref<?xf32>, %n: index, %k: i32) kernel attributes {
        ks.resources = #ks.resources<registers = 12, stack = 0, spill_stores = 0, spill_loads = 0, shared = 0, chip = "sm_90", opt_level = 3>,
        ks.diagnosis = #ks.diagnosis<[#ks.finding<kind = memory_bound, severity = info, metric = "time_over_floor", value = 1.0, evidence = predicted, headroom = 0.0, loc = loc(unknown), subject = 0, note = "at the floor">]>} {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %zero = arith.constant 0.0 : f32
      %bx = gpu.block_id x
      %dx = gpu.block_dim x
      %tx = gpu.thread_id x
      %0 = arith.muli %bx, %dx : index
      %i = arith.addi %0, %tx : index
      gpu.barrier
      %r:2 = scf.while (%p = %c0, %acc = %zero) : (i32, f32) -> (i32, f32) {
        %c = arith.cmpi slt, %p, %k : i32
        scf.condition(%c) %p, %acc : i32, f32
      } do {
      ^bb0(%p: i32, %acc: f32):
        %f = arith.sitofp %p : i32 to f32
        %s = arith.addf %acc, %f : f32
        %next = arith.addi %p, %c1 overflow<nsw> : i32
        scf.yield %next, %s : i32, f32
      } attributes {ks.branch = #ks.branch<id = 1, kind = loop, executions = 1.0, divergent_fraction = 0.0, lane_dependent = false>}
      %in = arith.cmpi slt, %i, %n : index
      scf.if %in {
        memref.store %r#1, %out[%i] {ks.access = #ks.access<id = 0, kind = store, space = global, pattern = coalesced, stride = 1, sectors_per_request = 4.0, ideal_sectors_per_request = 4.0, wavefronts_per_request = 0.0, warps_per_element = 1.0, loop_invariant = false>} : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @launch(%out: memref<?xf32>, %n: index, %k: i32) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %g = arith.ceildivui %n, %c128 : index
    gpu.launch_func @kernels::@synchronizes blocks in (%g, %c1, %c1) threads in (%c128, %c1, %c1)
        args(%out : memref<?xf32>, %n : index, %k : i32)
    return
  }
}
