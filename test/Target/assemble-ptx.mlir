// REQUIRES: ptxas
// RUN: ks-opt %s -split-input-file --ks-assemble-ptx | FileCheck %s
// RUN: not ks-opt %s -split-input-file --ks-assemble-ptx="ptxas=%t.nonexistent" 2>&1 | FileCheck %s --check-prefix=MISSING

// The PTX object becomes a cubin; ptxas's resource report is kept.
// CHECK-LABEL: gpu.binary @add
// CHECK-SAME: #gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">,
// CHECK-SAME: properties = {ptxas_info = "{{.*}}Compiling entry function 'add_one' for 'sm_90'{{.*}}Used {{[0-9]+}} registers
// CHECK-SAME: bin = "
// MISSING: error: ks-assemble-ptx: ptxas not found at '{{.*}}.nonexistent'; install the CUDA toolkit or use format=ptx
module attributes {gpu.container_module} {
  gpu.binary @add [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">, assembly = ".version 8.0\0A.target sm_90\0A.address_size 64\0A.visible .entry add_one(.param .u64 p)\0A{\0A.reg .b64 %rd<3>;\0A.reg .b32 %r<3>;\0Ald.param.u64 %rd1, [p];\0Acvta.to.global.u64 %rd2, %rd1;\0Ald.global.u32 %r1, [%rd2];\0Aadd.s32 %r2, %r1, 1;\0Ast.global.u32 [%rd2], %r2;\0Aret;\0A}\0A">]
}
