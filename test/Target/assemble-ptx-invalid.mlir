// REQUIRES: ptxas
// ptxas's own log is shown when it rejects the PTX.
// RUN: not ks-opt %s --ks-assemble-ptx 2>&1 | FileCheck %s
// CHECK: error: ks-assemble-ptx: ptxas --gpu-name=sm_90 failed:
// CHECK: ptxas {{.*}}error
module attributes {gpu.container_module} {
  gpu.binary @bad [#gpu.object<#nvvm.target<O = 3, chip = "sm_90">, assembly = ".version 8.0\0A.target sm_90\0A.address_size 64\0A.visible .entry k()\0A{\0Anot_an_instruction;\0Aret;\0A}\0A">]
}
