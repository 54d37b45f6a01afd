// RUN: not ks-opt %s --ks-write-ptx="path=-" 2>&1 | FileCheck %s --check-prefix=NOPTX
// RUN: not ks-opt %s --ks-write-ptx 2>&1 | FileCheck %s --check-prefix=NOPATH

// NOPTX: error: ks-write-ptx: the module holds no PTX; run gpu-module-to-binary with format=isa first (format=bin holds cubin)
// NOPATH: error: ks-write-ptx needs path=FILE (or path=- for stdout)
module attributes {gpu.container_module} {
  gpu.binary @only_cubin [#gpu.object<#nvvm.target<O = 3, chip = "sm_80">, bin = "CUBIN">]
}
