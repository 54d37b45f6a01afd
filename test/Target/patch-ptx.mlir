// RUN: ks-opt %s --split-input-file --ks-patch-ptx 2>&1 | FileCheck %s

// bf16 negations, guarded or not, scalar or pair, become sign-bit xors with
// the same registers; other negations and cubin objects are left alone.
// CHECK: remark: ks-patch-ptx: replaced 3 bf16 negations (neg.bf16) with a sign-bit xor
// CHECK-LABEL: gpu.binary @bf16
// CHECK-SAME: \09xor.b16 \09%rs4, %rs3, 0x8000;  // ks: was neg.bf16\0A
// CHECK-SAME: \09@!%p1 xor.b32 \09%r9, %r8, 0x80008000;  // ks: was neg.bf16x2\0A
// CHECK-SAME: \09xor.b16 \09%rs6, %rs5, 0x8000;  // ks: was neg.bf16\0A
// CHECK-SAME: \09neg.f16 \09%rs7, %rs6;\0A
// CHECK-SAME: \09neg.f32 \09%r1, %r2;\0A
// CHECK-SAME: bin = "neg.bf16 \09%rs4, %rs3;"
module attributes {gpu.container_module} {
  gpu.binary @bf16 [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = ".target sm_90\0A\09neg.bf16 \09%rs4, %rs3;\0A\09@!%p1 neg.bf16x2 \09%r9, %r8;\0A\09neg.ftz.bf16 \09%rs6, %rs5;\0A\09neg.f16 \09%rs7, %rs6;\0A\09neg.f32 \09%r1, %r2;\0A">,
                    #gpu.object<#nvvm.target<chip = "sm_90">, bin = "neg.bf16 \09%rs4, %rs3;">]
}

// -----

// Nothing to patch: no remark, the object unchanged.
// CHECK-NOT: remark
// CHECK-LABEL: gpu.binary @plain
// CHECK-SAME: assembly = ".target sm_90\0A\09add.f32 \09%r1, %r2, %r3;\0A"
module attributes {gpu.container_module} {
  gpu.binary @plain [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = ".target sm_90\0A\09add.f32 \09%r1, %r2, %r3;\0A">]
}
