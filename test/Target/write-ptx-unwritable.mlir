// RUN: not ks-opt %s --ks-write-ptx="path=%t.missing/dir/x.ptx" 2>&1 | FileCheck %s
// CHECK: error: ks-write-ptx: cannot write '{{.*}}.missing/dir/x.ptx':
module attributes {gpu.container_module} {
  gpu.binary @k [#gpu.object<#nvvm.target<O = 3, chip = "sm_90">, assembly = ".version 8.0\0A">]
}
