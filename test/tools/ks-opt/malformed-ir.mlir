// Malformed IR: a located parse error and a non-zero exit, no crash.
// RUN: not ks-opt %s --kernelskill-pipeline 2>&1 | FileCheck %s
// CHECK: malformed-ir.mlir:[[@LINE+2]]:{{[0-9]+}}: error:
func.func @broken(%a: memref<?xf32>) {
  %0 = memref.load %a[] : memref<?xf32>
  return
}
