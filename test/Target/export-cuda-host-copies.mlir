// RUN: ks-translate --export-cuda %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: FileCheck %s < %t.cu
// A launcher whose source also ran cudaMemcpyToSymbol (named by the importer
// in ks.host_symbol_copies, test/Frontend/host-symbol-copies.cu): the
// exported launcher does not run it, and says so above itself and on stderr.
// WARN: warning: export-cuda: the launcher @run does not run the source's cudaMemcpyToSymbol(taps, h_taps, sizeof(taps)): call it around the launcher, as the source does
// WARN: warning: export-cuda: the launcher @two_lines does not run the source's cudaMemcpyToSymbol(taps,
// WARN-NOT: warning
// CHECK:      // The source's host code also ran, outside the launches this function holds
// CHECK-NEXT: // (call them around it as the source does: copies to a symbol before, copies
// CHECK-NEXT: // from one after):
// CHECK-NEXT: //   cudaMemcpyToSymbol(taps, h_taps, sizeof(taps));
// CHECK-NEXT: void run(
// CHECK-NOT:  // The source's host code
// CHECK:      void plain(
// Hand-written text over two lines stays a comment; a non-string entry is
// skipped.
// CHECK:      //   cudaMemcpyToSymbol(taps,
// CHECK-NEXT: //     h_taps, 12);
// CHECK-NEXT: void two_lines(
module attributes {gpu.container_module} {
  gpu.module @kernels {
    memref.global "public" @taps : memref<3xf32, 4>
    gpu.func @k(%out: memref<?xf32> {ks.name = "out"}) kernel {
      %c0 = arith.constant 0 : index
      %t = memref.get_global @taps : memref<3xf32, 4>
      %v = memref.load %t[%c0] : memref<3xf32, 4>
      memref.store %v, %out[%c0] : memref<?xf32>
      gpu.return
    }
  }
  func.func @run(%out: memref<?xf32> {ks.name = "out"})
      attributes {ks.host_symbol_copies = ["cudaMemcpyToSymbol(taps, h_taps, sizeof(taps))"]} {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%out : memref<?xf32>)
    return
  }
  func.func @plain(%out: memref<?xf32> {ks.name = "out"}) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%out : memref<?xf32>)
    return
  }
  func.func @two_lines(%out: memref<?xf32> {ks.name = "out"})
      attributes {ks.host_symbol_copies = [1, "cudaMemcpyToSymbol(taps,\n  h_taps, 12)"]} {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%out : memref<?xf32>)
    return
  }
}
