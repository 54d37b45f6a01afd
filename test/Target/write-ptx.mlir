// RUN: ks-opt %s --ks-write-ptx="path=-" -o /dev/null | FileCheck %s
// RUN: ks-opt %s --ks-write-ptx="path=%t.ptx" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s --input-file=%t.ptx

// Every PTX object is written, each after a comment naming its binary;
// cubin objects are skipped.
// CHECK: // ks: PTX of gpu.binary @first
// CHECK-NEXT: .version 8.0
// CHECK-NEXT: .target sm_90
// CHECK: // ks: PTX of gpu.binary @second
// CHECK-NEXT: .version 8.0
// CHECK-NEXT: .target sm_80
// CHECK-NOT: CUBIN
// REMARK: remark: wrote the PTX of 2 GPU modules to {{.*}}.ptx
module attributes {gpu.container_module} {
  gpu.binary @first [#gpu.object<#nvvm.target<O = 3, chip = "sm_90">, assembly = ".version 8.0\0A.target sm_90\0A">]
  gpu.binary @second [#gpu.object<#nvvm.target<O = 3, chip = "sm_80">, assembly = ".version 8.0\0A.target sm_80\0A">,
                      #gpu.object<#nvvm.target<O = 3, chip = "sm_80">, bin = "CUBIN">]
}
