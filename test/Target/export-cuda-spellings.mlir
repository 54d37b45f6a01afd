// Every op the exporter maps, with its C++ spelling: a comparison written
// with the wrong operator or signedness (`<` for sle, a signed `<` for ult),
// an unordered float comparison written ordered, or a math function under
// the wrong name fails here, on the CPU (the GPU equivalence runs would be
// the only other place to notice). The spellings were checked by hand
// against C's semantics: cmpf u* is true for NaN, hence the negations.
// RUN: ks-translate --export-cuda %s | FileCheck %s
// RUN: ks-translate --export-cuda %s | FileCheck %s --check-prefix=BUILTIN
// RUN: ks-translate --export-cuda %s -o %t.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -c %t.cu -o %t.o %}
// RUN: ks-translate --export-cuda %s | FileCheck %s --check-prefix=PREC
// PREC-LABEL: void precedence(
// PREC-NEXT: o[0] = (a + b) * c;
// PREC-NEXT: o[1] = a - (b - c);
// PREC-NEXT: o[2] = a - b - c;
// PREC-NEXT: o[3] = (int)((a & b) == c);
// PREC-NEXT: o[4] = (int)((unsigned)(a + b) << (unsigned)c);
// PREC-NEXT: o[5] = (a + b) * c < a + b * c ? a : b;
// PREC-NEXT: f[6] = -(-2.0f);
// PREC-NEXT: f[7] = -(x + y);
// PREC-NEXT: o[8] = (int)(x + y);
// PREC-NEXT: o[9] = (int)((a < b) == (b < c));
// A load is written into its user only when no write comes between them.
// PREC-NEXT: const int v0 = o[a];
// PREC-NEXT: o[b] = 1;
// PREC-NEXT: o[c] = v0 + o[a];
// PREC-NEXT: }
// Casts C makes itself are left out, on one side of an operator only; a
// zero extension stays (the operand is written as an int); an scf.if of
// one value whose branches are expressions is `?:`, a load in a branch
// staying guarded by it.
// PREC-LABEL: void conversions(
// PREC-NEXT: o[0] = b * a;
// PREC-NEXT: o[1] = (long long)a * a;
// PREC-NEXT: f[0] = d + x;
// PREC-NEXT: o[2] = b + (long long)(unsigned)a;
// PREC-NEXT: p[1] = c ? p[0] : a;
// PREC-NEXT: }
// BUILTIN-LABEL: void builtins(
// BUILTIN-NEXT: o[0] = (int)threadIdx.x;
// BUILTIN-NEXT: p[0] = (long long)blockIdx.y;
// Warp votes and bit counts (cttz is the leading zeros of the reversed bits).
// BUILTIN-LABEL: void votes(
// BUILTIN-NEXT: const int v0 = __ballot_sync(0xffffffffu, c);
// BUILTIN-NEXT: const bool v1 = __any_sync(m, c);
// BUILTIN-NEXT: const bool v2 = __all_sync(0x0000ff00u, c);
// BUILTIN-NEXT: o[0] = __popc(v0);
// BUILTIN-NEXT: o[1] = __clz(m);
// BUILTIN-NEXT: o[2] = __clz(__brev(m));
// BUILTIN-NEXT: p[0] = __popcll(w);
// BUILTIN-NEXT: p[1] = __clzll(w);
// BUILTIN-NEXT: p[2] = __clzll(__brevll(w));
// BUILTIN-NEXT: o[3] = (int)v1 + (int)v2;
// The lanes with the same value (match.any), of 32 and of 64 bits:
// BUILTIN-NEXT: const int v3 = __match_any_sync(0xffffffffu, m);
// BUILTIN-NEXT: const int v4 = __match_any_sync(m, w);
// BUILTIN-NEXT: o[4] = v3;
// BUILTIN-NEXT: o[5] = v4;
// CHECK-LABEL: void spellings(
// CHECK-NEXT: o[0] = a == b ? 1 : 0;
// CHECK-NEXT: o[1] = a != b ? 1 : 0;
// CHECK-NEXT: o[2] = a < b ? 1 : 0;
// CHECK-NEXT: o[3] = a <= b ? 1 : 0;
// CHECK-NEXT: o[4] = a > b ? 1 : 0;
// CHECK-NEXT: o[5] = a >= b ? 1 : 0;
// CHECK-NEXT: o[6] = (unsigned)a < (unsigned)b ? 1 : 0;
// CHECK-NEXT: o[7] = (unsigned)a <= (unsigned)b ? 1 : 0;
// CHECK-NEXT: o[8] = (unsigned)a > (unsigned)b ? 1 : 0;
// CHECK-NEXT: o[9] = (unsigned)a >= (unsigned)b ? 1 : 0;
// CHECK-NEXT: o[10] = x == y ? 1 : 0;
// CHECK-NEXT: o[11] = x < y ? 1 : 0;
// CHECK-NEXT: o[12] = x <= y ? 1 : 0;
// CHECK-NEXT: o[13] = x > y ? 1 : 0;
// CHECK-NEXT: o[14] = x >= y ? 1 : 0;
// CHECK-NEXT: o[15] = x != y ? 1 : 0;
// CHECK-NEXT: o[16] = !(x >= y) ? 1 : 0;
// CHECK-NEXT: o[17] = !(x > y) ? 1 : 0;
// CHECK-NEXT: o[18] = !(x <= y) ? 1 : 0;
// CHECK-NEXT: o[19] = !(x < y) ? 1 : 0;
// CHECK-NEXT: o[20] = !(x < y || x > y) ? 1 : 0;
// CHECK-NEXT: o[21] = x < y || x > y ? 1 : 0;
// CHECK-NEXT: o[22] = a + b;
// CHECK-NEXT: o[23] = a - b;
// CHECK-NEXT: o[24] = a * b;
// CHECK-NEXT: o[25] = a / b;
// CHECK-NEXT: o[26] = (unsigned)a / (unsigned)b;
// CHECK-NEXT: o[27] = a % b;
// CHECK-NEXT: o[28] = (unsigned)a % (unsigned)b;
// CHECK-NEXT: o[29] = a & b;
// CHECK-NEXT: o[30] = a | b;
// CHECK-NEXT: o[31] = a ^ b;
// CHECK-NEXT: o[32] = (int)((unsigned)a << (unsigned)b);
// CHECK-NEXT: o[33] = a >> b;
// CHECK-NEXT: o[34] = (unsigned)a >> (unsigned)b;
// CHECK-NEXT: o[35] = min(a, b);
// CHECK-NEXT: o[36] = max(a, b);
// CHECK-NEXT: o[37] = min((unsigned)a, (unsigned)b);
// CHECK-NEXT: o[38] = max((unsigned)a, (unsigned)b);
// CHECK-NEXT: o[39] = ((unsigned)a + (unsigned)b - 1) / (unsigned)b;
// CHECK-NEXT: f[40] = x + y;
// CHECK-NEXT: f[41] = x - y;
// CHECK-NEXT: f[42] = x * y;
// CHECK-NEXT: f[43] = x / y;
// CHECK-NEXT: f[44] = fmodf(x, y);
// CHECK-NEXT: f[45] = fmaxf(x, y);
// CHECK-NEXT: f[46] = fminf(x, y);
// CHECK-NEXT: f[47] = sqrtf(x);
// CHECK-NEXT: f[48] = rsqrtf(x);
// CHECK-NEXT: f[49] = expf(x);
// CHECK-NEXT: f[50] = exp2f(x);
// CHECK-NEXT: f[51] = logf(x);
// CHECK-NEXT: f[52] = log2f(x);
// CHECK-NEXT: f[53] = sinf(x);
// CHECK-NEXT: f[54] = cosf(x);
// CHECK-NEXT: f[55] = tanhf(x);
// CHECK-NEXT: f[56] = erff(x);
// CHECK-NEXT: f[57] = fabsf(x);
// CHECK-NEXT: f[58] = floorf(x);
// CHECK-NEXT: f[59] = ceilf(x);
// CHECK-NEXT: f[60] = powf(x, y);
// CHECK-NEXT: f[61] = fmaf(x, y, x);
// CHECK-NEXT: g[62] = sqrt(d);
// CHECK-NEXT: g[63] = exp(d);
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @spellings(%o: memref<?xi32> {ks.name = "o"}, %f: memref<?xf32> {ks.name = "f"}, %g: memref<?xf64> {ks.name = "g"},
                        %a: i32 {ks.name = "a"}, %b: i32 {ks.name = "b"}, %x: f32 {ks.name = "x"}, %y: f32 {ks.name = "y"}, %d: f64 {ks.name = "d"}) kernel {
      %one = arith.constant 1 : i32
      %zero = arith.constant 0 : i32
      %ci0 = arith.cmpi eq, %a, %b : i32
      %si0 = arith.select %ci0, %one, %zero : i32
      %c0 = arith.constant 0 : index
      memref.store %si0, %o[%c0] : memref<?xi32>
      %ci1 = arith.cmpi ne, %a, %b : i32
      %si1 = arith.select %ci1, %one, %zero : i32
      %c1 = arith.constant 1 : index
      memref.store %si1, %o[%c1] : memref<?xi32>
      %ci2 = arith.cmpi slt, %a, %b : i32
      %si2 = arith.select %ci2, %one, %zero : i32
      %c2 = arith.constant 2 : index
      memref.store %si2, %o[%c2] : memref<?xi32>
      %ci3 = arith.cmpi sle, %a, %b : i32
      %si3 = arith.select %ci3, %one, %zero : i32
      %c3 = arith.constant 3 : index
      memref.store %si3, %o[%c3] : memref<?xi32>
      %ci4 = arith.cmpi sgt, %a, %b : i32
      %si4 = arith.select %ci4, %one, %zero : i32
      %c4 = arith.constant 4 : index
      memref.store %si4, %o[%c4] : memref<?xi32>
      %ci5 = arith.cmpi sge, %a, %b : i32
      %si5 = arith.select %ci5, %one, %zero : i32
      %c5 = arith.constant 5 : index
      memref.store %si5, %o[%c5] : memref<?xi32>
      %ci6 = arith.cmpi ult, %a, %b : i32
      %si6 = arith.select %ci6, %one, %zero : i32
      %c6 = arith.constant 6 : index
      memref.store %si6, %o[%c6] : memref<?xi32>
      %ci7 = arith.cmpi ule, %a, %b : i32
      %si7 = arith.select %ci7, %one, %zero : i32
      %c7 = arith.constant 7 : index
      memref.store %si7, %o[%c7] : memref<?xi32>
      %ci8 = arith.cmpi ugt, %a, %b : i32
      %si8 = arith.select %ci8, %one, %zero : i32
      %c8 = arith.constant 8 : index
      memref.store %si8, %o[%c8] : memref<?xi32>
      %ci9 = arith.cmpi uge, %a, %b : i32
      %si9 = arith.select %ci9, %one, %zero : i32
      %c9 = arith.constant 9 : index
      memref.store %si9, %o[%c9] : memref<?xi32>
      %cf10 = arith.cmpf oeq, %x, %y : f32
      %sf10 = arith.select %cf10, %one, %zero : i32
      %c10 = arith.constant 10 : index
      memref.store %sf10, %o[%c10] : memref<?xi32>
      %cf11 = arith.cmpf olt, %x, %y : f32
      %sf11 = arith.select %cf11, %one, %zero : i32
      %c11 = arith.constant 11 : index
      memref.store %sf11, %o[%c11] : memref<?xi32>
      %cf12 = arith.cmpf ole, %x, %y : f32
      %sf12 = arith.select %cf12, %one, %zero : i32
      %c12 = arith.constant 12 : index
      memref.store %sf12, %o[%c12] : memref<?xi32>
      %cf13 = arith.cmpf ogt, %x, %y : f32
      %sf13 = arith.select %cf13, %one, %zero : i32
      %c13 = arith.constant 13 : index
      memref.store %sf13, %o[%c13] : memref<?xi32>
      %cf14 = arith.cmpf oge, %x, %y : f32
      %sf14 = arith.select %cf14, %one, %zero : i32
      %c14 = arith.constant 14 : index
      memref.store %sf14, %o[%c14] : memref<?xi32>
      %cf15 = arith.cmpf une, %x, %y : f32
      %sf15 = arith.select %cf15, %one, %zero : i32
      %c15 = arith.constant 15 : index
      memref.store %sf15, %o[%c15] : memref<?xi32>
      %cf16 = arith.cmpf ult, %x, %y : f32
      %sf16 = arith.select %cf16, %one, %zero : i32
      %c16 = arith.constant 16 : index
      memref.store %sf16, %o[%c16] : memref<?xi32>
      %cf17 = arith.cmpf ule, %x, %y : f32
      %sf17 = arith.select %cf17, %one, %zero : i32
      %c17 = arith.constant 17 : index
      memref.store %sf17, %o[%c17] : memref<?xi32>
      %cf18 = arith.cmpf ugt, %x, %y : f32
      %sf18 = arith.select %cf18, %one, %zero : i32
      %c18 = arith.constant 18 : index
      memref.store %sf18, %o[%c18] : memref<?xi32>
      %cf19 = arith.cmpf uge, %x, %y : f32
      %sf19 = arith.select %cf19, %one, %zero : i32
      %c19 = arith.constant 19 : index
      memref.store %sf19, %o[%c19] : memref<?xi32>
      %cf20 = arith.cmpf ueq, %x, %y : f32
      %sf20 = arith.select %cf20, %one, %zero : i32
      %c20 = arith.constant 20 : index
      memref.store %sf20, %o[%c20] : memref<?xi32>
      %cf21 = arith.cmpf one, %x, %y : f32
      %sf21 = arith.select %cf21, %one, %zero : i32
      %c21 = arith.constant 21 : index
      memref.store %sf21, %o[%c21] : memref<?xi32>
      %bi22 = arith.addi %a, %b : i32
      %c22 = arith.constant 22 : index
      memref.store %bi22, %o[%c22] : memref<?xi32>
      %bi23 = arith.subi %a, %b : i32
      %c23 = arith.constant 23 : index
      memref.store %bi23, %o[%c23] : memref<?xi32>
      %bi24 = arith.muli %a, %b : i32
      %c24 = arith.constant 24 : index
      memref.store %bi24, %o[%c24] : memref<?xi32>
      %bi25 = arith.divsi %a, %b : i32
      %c25 = arith.constant 25 : index
      memref.store %bi25, %o[%c25] : memref<?xi32>
      %bi26 = arith.divui %a, %b : i32
      %c26 = arith.constant 26 : index
      memref.store %bi26, %o[%c26] : memref<?xi32>
      %bi27 = arith.remsi %a, %b : i32
      %c27 = arith.constant 27 : index
      memref.store %bi27, %o[%c27] : memref<?xi32>
      %bi28 = arith.remui %a, %b : i32
      %c28 = arith.constant 28 : index
      memref.store %bi28, %o[%c28] : memref<?xi32>
      %bi29 = arith.andi %a, %b : i32
      %c29 = arith.constant 29 : index
      memref.store %bi29, %o[%c29] : memref<?xi32>
      %bi30 = arith.ori %a, %b : i32
      %c30 = arith.constant 30 : index
      memref.store %bi30, %o[%c30] : memref<?xi32>
      %bi31 = arith.xori %a, %b : i32
      %c31 = arith.constant 31 : index
      memref.store %bi31, %o[%c31] : memref<?xi32>
      %bi32 = arith.shli %a, %b : i32
      %c32 = arith.constant 32 : index
      memref.store %bi32, %o[%c32] : memref<?xi32>
      %bi33 = arith.shrsi %a, %b : i32
      %c33 = arith.constant 33 : index
      memref.store %bi33, %o[%c33] : memref<?xi32>
      %bi34 = arith.shrui %a, %b : i32
      %c34 = arith.constant 34 : index
      memref.store %bi34, %o[%c34] : memref<?xi32>
      %bi35 = arith.minsi %a, %b : i32
      %c35 = arith.constant 35 : index
      memref.store %bi35, %o[%c35] : memref<?xi32>
      %bi36 = arith.maxsi %a, %b : i32
      %c36 = arith.constant 36 : index
      memref.store %bi36, %o[%c36] : memref<?xi32>
      %bi37 = arith.minui %a, %b : i32
      %c37 = arith.constant 37 : index
      memref.store %bi37, %o[%c37] : memref<?xi32>
      %bi38 = arith.maxui %a, %b : i32
      %c38 = arith.constant 38 : index
      memref.store %bi38, %o[%c38] : memref<?xi32>
      %bi39 = arith.ceildivui %a, %b : i32
      %c39 = arith.constant 39 : index
      memref.store %bi39, %o[%c39] : memref<?xi32>
      %bf40 = arith.addf %x, %y : f32
      %c40 = arith.constant 40 : index
      memref.store %bf40, %f[%c40] : memref<?xf32>
      %bf41 = arith.subf %x, %y : f32
      %c41 = arith.constant 41 : index
      memref.store %bf41, %f[%c41] : memref<?xf32>
      %bf42 = arith.mulf %x, %y : f32
      %c42 = arith.constant 42 : index
      memref.store %bf42, %f[%c42] : memref<?xf32>
      %bf43 = arith.divf %x, %y : f32
      %c43 = arith.constant 43 : index
      memref.store %bf43, %f[%c43] : memref<?xf32>
      %bf44 = arith.remf %x, %y : f32
      %c44 = arith.constant 44 : index
      memref.store %bf44, %f[%c44] : memref<?xf32>
      %bf45 = arith.maxnumf %x, %y : f32
      %c45 = arith.constant 45 : index
      memref.store %bf45, %f[%c45] : memref<?xf32>
      %bf46 = arith.minnumf %x, %y : f32
      %c46 = arith.constant 46 : index
      memref.store %bf46, %f[%c46] : memref<?xf32>
      %m47 = math.sqrt %x : f32
      %c47 = arith.constant 47 : index
      memref.store %m47, %f[%c47] : memref<?xf32>
      %m48 = math.rsqrt %x : f32
      %c48 = arith.constant 48 : index
      memref.store %m48, %f[%c48] : memref<?xf32>
      %m49 = math.exp %x : f32
      %c49 = arith.constant 49 : index
      memref.store %m49, %f[%c49] : memref<?xf32>
      %m50 = math.exp2 %x : f32
      %c50 = arith.constant 50 : index
      memref.store %m50, %f[%c50] : memref<?xf32>
      %m51 = math.log %x : f32
      %c51 = arith.constant 51 : index
      memref.store %m51, %f[%c51] : memref<?xf32>
      %m52 = math.log2 %x : f32
      %c52 = arith.constant 52 : index
      memref.store %m52, %f[%c52] : memref<?xf32>
      %m53 = math.sin %x : f32
      %c53 = arith.constant 53 : index
      memref.store %m53, %f[%c53] : memref<?xf32>
      %m54 = math.cos %x : f32
      %c54 = arith.constant 54 : index
      memref.store %m54, %f[%c54] : memref<?xf32>
      %m55 = math.tanh %x : f32
      %c55 = arith.constant 55 : index
      memref.store %m55, %f[%c55] : memref<?xf32>
      %m56 = math.erf %x : f32
      %c56 = arith.constant 56 : index
      memref.store %m56, %f[%c56] : memref<?xf32>
      %m57 = math.absf %x : f32
      %c57 = arith.constant 57 : index
      memref.store %m57, %f[%c57] : memref<?xf32>
      %m58 = math.floor %x : f32
      %c58 = arith.constant 58 : index
      memref.store %m58, %f[%c58] : memref<?xf32>
      %m59 = math.ceil %x : f32
      %c59 = arith.constant 59 : index
      memref.store %m59, %f[%c59] : memref<?xf32>
      %m60 = math.powf %x, %y : f32
      %c60 = arith.constant 60 : index
      memref.store %m60, %f[%c60] : memref<?xf32>
      %m61 = math.fma %x, %y, %x : f32
      %c61 = arith.constant 61 : index
      memref.store %m61, %f[%c61] : memref<?xf32>
      %m62 = math.sqrt %d : f64
      %c62 = arith.constant 62 : index
      memref.store %m62, %g[%c62] : memref<?xf64>
      %m63 = math.exp %d : f64
      %c63 = arith.constant 63 : index
      memref.store %m63, %g[%c63] : memref<?xf64>
      gpu.return
    }
    // Parentheses where C's precedence needs them (and around bitwise
    // operators, as readers expect), none elsewhere.
    gpu.func @precedence(%o: memref<?xi32> {ks.name = "o"}, %f: memref<?xf32> {ks.name = "f"},
                         %a: i32 {ks.name = "a"}, %b: i32 {ks.name = "b"}, %c: i32 {ks.name = "c"},
                         %x: f32 {ks.name = "x"}, %y: f32 {ks.name = "y"}) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c5 = arith.constant 5 : index
      %c6 = arith.constant 6 : index
      %c7 = arith.constant 7 : index
      %c8 = arith.constant 8 : index
      %c9 = arith.constant 9 : index
      %s0 = arith.addi %a, %b : i32
      %p0 = arith.muli %s0, %c : i32
      memref.store %p0, %o[%c0] : memref<?xi32>
      %d1 = arith.subi %b, %c : i32
      %p1 = arith.subi %a, %d1 : i32
      memref.store %p1, %o[%c1] : memref<?xi32>
      %d2 = arith.subi %a, %b : i32
      %p2 = arith.subi %d2, %c : i32
      memref.store %p2, %o[%c2] : memref<?xi32>
      %n3 = arith.andi %a, %b : i32
      %e3 = arith.cmpi eq, %n3, %c : i32
      %p3 = arith.extui %e3 : i1 to i32
      memref.store %p3, %o[%c3] : memref<?xi32>
      %s4 = arith.addi %a, %b : i32
      %p4 = arith.shli %s4, %c : i32
      memref.store %p4, %o[%c4] : memref<?xi32>
      %s5 = arith.addi %a, %b : i32
      %m5 = arith.muli %s5, %c : i32
      %t5 = arith.muli %b, %c : i32
      %r5 = arith.addi %a, %t5 : i32
      %l5 = arith.cmpi slt, %m5, %r5 : i32
      %p5 = arith.select %l5, %a, %b : i32
      memref.store %p5, %o[%c5] : memref<?xi32>
      %m2 = arith.constant -2.0 : f32
      %p6 = arith.negf %m2 : f32
      memref.store %p6, %f[%c6] : memref<?xf32>
      %s7 = arith.addf %x, %y : f32
      %p7 = arith.negf %s7 : f32
      memref.store %p7, %f[%c7] : memref<?xf32>
      %s8 = arith.addf %x, %y : f32
      %p8 = arith.fptosi %s8 : f32 to i32
      memref.store %p8, %o[%c8] : memref<?xi32>
      %q9 = arith.cmpi slt, %a, %b : i32
      %r9 = arith.cmpi slt, %b, %c : i32
      %e9 = arith.cmpi eq, %q9, %r9 : i1
      %p9 = arith.extui %e9 : i1 to i32
      memref.store %p9, %o[%c9] : memref<?xi32>
      %ia = arith.index_cast %a : i32 to index
      %ib = arith.index_cast %b : i32 to index
      %ic = arith.index_cast %c : i32 to index
      %ia2 = arith.index_cast %a : i32 to index
      %v = memref.load %o[%ia] : memref<?xi32>
      %one = arith.constant 1 : i32
      memref.store %one, %o[%ib] : memref<?xi32>
      %w = memref.load %o[%ia2] : memref<?xi32>
      %sum = arith.addi %v, %w : i32
      memref.store %sum, %o[%ic] : memref<?xi32>
      gpu.return
    }
    // The builtins converted to integers: one cast, as a source writes it
    // (they are unsigned ints under 2^31), not a chain through long long.
    gpu.func @conversions(%o: memref<?xi64> {ks.name = "o"}, %f: memref<?xf64> {ks.name = "f"},
                          %p: memref<?xi32> {ks.name = "p"}, %a: i32 {ks.name = "a"},
                          %b: i64 {ks.name = "b"}, %x: f32 {ks.name = "x"}, %d: f64 {ks.name = "d"},
                          %c: i1 {ks.name = "c"}) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %0 = arith.extsi %a : i32 to i64
      %1 = arith.muli %b, %0 : i64
      memref.store %1, %o[%c0] : memref<?xi64>
      %2 = arith.extsi %a : i32 to i64
      %3 = arith.extsi %a : i32 to i64
      %4 = arith.muli %2, %3 : i64
      memref.store %4, %o[%c1] : memref<?xi64>
      %5 = arith.extf %x : f32 to f64
      %6 = arith.addf %d, %5 : f64
      memref.store %6, %f[%c0] : memref<?xf64>
      %7 = arith.extui %a : i32 to i64
      %8 = arith.addi %b, %7 : i64
      memref.store %8, %o[%c2] : memref<?xi64>
      %9 = scf.if %c -> i32 {
        %l = memref.load %p[%c0] : memref<?xi32>
        scf.yield %l : i32
      } else {
        scf.yield %a : i32
      }
      memref.store %9, %p[%c1] : memref<?xi32>
      gpu.return
    }
    gpu.func @builtins(%o: memref<?xi32> {ks.name = "o"}, %p: memref<?xi64> {ks.name = "p"}) kernel {
      %c0 = arith.constant 0 : index
      %tid = gpu.thread_id x
      %bid = gpu.block_id y
      %0 = arith.index_castui %tid : index to i32
      %1 = arith.index_cast %bid : index to i64
      memref.store %0, %o[%c0] : memref<?xi32>
      memref.store %1, %p[%c0] : memref<?xi64>
      gpu.return
    }
    gpu.func @votes(%o: memref<?xi32> {ks.name = "o"}, %p: memref<?xi64> {ks.name = "p"},
                    %m: i32 {ks.name = "m"}, %c: i1 {ks.name = "c"}, %w: i64 {ks.name = "w"}) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %full = arith.constant -1 : i32
      %byte1 = arith.constant 65280 : i32
      %b = nvvm.vote.sync ballot %full, %c -> i32
      %any = nvvm.vote.sync any %m, %c -> i1
      %all = nvvm.vote.sync all %byte1, %c -> i1
      %pop = math.ctpop %b : i32
      %lz = math.ctlz %m : i32
      %tz = math.cttz %m : i32
      memref.store %pop, %o[%c0] : memref<?xi32>
      memref.store %lz, %o[%c1] : memref<?xi32>
      memref.store %tz, %o[%c2] : memref<?xi32>
      %wpop = math.ctpop %w : i64
      %wlz = math.ctlz %w : i64
      %wtz = math.cttz %w : i64
      memref.store %wpop, %p[%c0] : memref<?xi64>
      memref.store %wlz, %p[%c1] : memref<?xi64>
      memref.store %wtz, %p[%c2] : memref<?xi64>
      %ai = arith.extui %any : i1 to i32
      %li = arith.extui %all : i1 to i32
      %sum = arith.addi %ai, %li : i32
      memref.store %sum, %o[%c3] : memref<?xi32>
      %c4 = arith.constant 4 : index
      %c5 = arith.constant 5 : index
      %same = nvvm.match.sync any %full, %m : i32 -> i32
      %same64 = nvvm.match.sync any %m, %w : i64 -> i32
      memref.store %same, %o[%c4] : memref<?xi32>
      memref.store %same64, %o[%c5] : memref<?xi32>
      gpu.return
    }
  }
}
