// The atomic family, lifted by the table the exporter shares
// (kernelskill/Support/CUDABuiltins.h): each kind and its spelling back.
// RUN: ks-translate --import-cuda %s --no-pch -o %t.mlir
// RUN: FileCheck %s --check-prefix=LIFT < %t.mlir
// RUN: ks-translate --export-cuda %t.mlir | FileCheck %s --check-prefix=CUDA
// RUN: ks-translate --export-cuda %t.mlir -o %t.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -c %t.cu -o %t.o %}

__global__ void atomics(int *i, unsigned *u, float *f) {
  atomicAdd(&i[0], 1);
  atomicSub(&i[1], 2);
  atomicMax(&i[2], 3);
  atomicMin(&u[0], 4u);
  atomicMax(&u[1], 5u);
  atomicAnd(&i[3], 6);
  atomicOr(&i[4], 7);
  atomicXor(&i[5], 8);
  atomicExch(&f[0], 9.0f);
  atomicAdd(&f[1], 10.0f);
  atomicCAS(&i[6], 11, 12);
  atomicInc(&u[2], 13u);
  atomicDec(&u[3], 14u);
}

// LIFT-LABEL: gpu.func @atomics
// LIFT: memref.atomic_rmw addi
// atomicSub(p, v) is atomicAdd(p, 0 - v), folded here.
// LIFT: memref.atomic_rmw addi %c-2_i32
// LIFT: memref.atomic_rmw maxs
// LIFT: memref.atomic_rmw minu
// LIFT: memref.atomic_rmw maxu
// LIFT: memref.atomic_rmw andi
// LIFT: memref.atomic_rmw ori
// LIFT: memref.atomic_rmw xori
// LIFT: memref.atomic_rmw assign
// LIFT: memref.atomic_rmw addf
// LIFT: memref.generic_atomic_rmw
// atomicInc: old >= 13 ? 0 : old + 1.
// LIFT: memref.generic_atomic_rmw %arg1
// LIFT: arith.cmpi uge, %{{.*}}, %c13_i32
// LIFT: arith.select
// atomicDec: old == 0 || old > 14 ? 14 : old - 1.
// LIFT: memref.generic_atomic_rmw %arg1
// LIFT-DAG: arith.cmpi eq
// LIFT-DAG: arith.cmpi ugt, %{{.*}}, %c14_i32
// LIFT: arith.select

// CUDA-LABEL: __global__ void atomics(
// CUDA: atomicAdd(&i[
// CUDA: atomicAdd(&i[
// CUDA: atomicMax(&i[
// CUDA: atomicMin(&u[
// CUDA: atomicMax(&u[
// CUDA: atomicAnd(&i[
// CUDA: atomicOr(&i[
// CUDA: atomicXor(&i[
// CUDA: atomicExch(&f[
// CUDA: atomicAdd(&f[
// CUDA: atomicCAS(
// The wrapping counters export as compare-and-swap loops.
// CUDA: atomicCAS(
// CUDA: atomicCAS(
