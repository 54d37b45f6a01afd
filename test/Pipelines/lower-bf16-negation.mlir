// A negation rounded to bf16 (`__float2bfloat16(-b)`): LLVM moves the
// negation past the truncation and selects `neg.bf16`, which computed +b on
// the H200; the lowering replaces it with a sign-bit xor (ks-patch-ptx).
// RUN: ks-opt %s --kernelskill-lower="ptx=%t.ptx" 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s --input-file=%t.ptx

// REMARK: remark: ks-patch-ptx: replaced 1 bf16 negation (neg.bf16) with a sign-bit xor
// CHECK-LABEL: .entry negate_bf16(
// CHECK: cvt.rn.bf16.f32 {{.*}}%[[B:rs[0-9]+]], %r{{[0-9]+}};
// CHECK-NEXT: xor.b16 {{.*}}%rs{{[0-9]+}}, %[[B]], 0x8000;  // ks: was neg.bf16
// CHECK-NOT: neg.bf16
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @negate_bf16(%y: memref<?xbf16>, %b: f32) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %n = arith.negf %b : f32
      %t = arith.truncf %n : f32 to bf16
      %p = arith.truncf %b : f32 to bf16
      memref.store %p, %y[%c0] : memref<?xbf16>
      memref.store %t, %y[%c1] : memref<?xbf16>
      gpu.return
    }
  }
}
