//===- ks_cuda_half.h - cuda_fp16.h and cuda_bf16.h on the host -*- C++ -*-===//
//
// __half and __nv_bfloat16 as 16-bit values that convert to and from float
// (round to nearest even), with the operators and functions of cuda_fp16.h
// and cuda_bf16.h that the importer lifts and the exporter writes: each
// operation computes in float (double for fma) and rounds to the type, as
// the GPU's native half arithmetic rounds its exact result (add, sub and mul
// of halves are exact in float; a division may round twice, in rare cases).
// Both sides of a comparison run through this same code, so it checks that
// the exporter keeps the operations, types and order, not the GPU's bits.
// Overloads mirror CUDA's: an implicit conversion to float and from float,
// operators on two halves; mixing a half and a float is as ambiguous here
// as with nvcc.
//
//===----------------------------------------------------------------------===//
#ifndef KS_CUDA_HALF_H
#define KS_CUDA_HALF_H

#include <cmath>
#include <cstdint>
#include <cstring>

namespace ks_emu {
/// IEEE binary16 bits of `d`, rounded to nearest even.
inline uint16_t toF16Bits(double d) {
  float f = float(d);
  uint32_t u;
  std::memcpy(&u, &f, 4);
  uint16_t sign = (u >> 16) & 0x8000;
  if (std::isnan(f))
    return sign | 0x7e00;
  double a = std::fabs(d);
  if (a >= 65520.0) // rounds to infinity
    return sign | 0x7c00;
  if (a < 6.103515625e-05) { // subnormal: multiples of 2^-24
    double q = std::nearbyint(a * 16777216.0);
    return sign | uint16_t(q);
  }
  int e;
  double m = std::frexp(a, &e); // a = m * 2^e, m in [0.5, 1)
  double q = std::nearbyint(m * 2048.0); // 11 significant bits
  if (q == 2048.0) {
    q = 1024.0;
    ++e;
  }
  return sign | uint16_t((e + 14) << 10) | uint16_t(uint32_t(q) - 1024);
}
inline float fromF16Bits(uint16_t h) {
  int e = (h >> 10) & 0x1f, m = h & 0x3ff;
  float v = e == 0 ? std::ldexp(float(m), -24)
            : e == 31 ? (m ? NAN : INFINITY)
                      : std::ldexp(float(m | 0x400), e - 25);
  return (h & 0x8000) ? -v : v;
}
/// bfloat16 bits of `d`: the top half of the float, rounded to nearest even.
inline uint16_t toBF16Bits(double d) {
  float f = float(d);
  uint32_t u;
  std::memcpy(&u, &f, 4);
  if (std::isnan(f))
    return uint16_t((u >> 16) | 0x40);
  return uint16_t((u + 0x7fff + ((u >> 16) & 1)) >> 16);
}
inline float fromBF16Bits(uint16_t b) {
  uint32_t u = uint32_t(b) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

template <bool Brain> struct Half16 {
  uint16_t bits;
  Half16() = default;
  Half16(float f) : bits(Brain ? toBF16Bits(f) : toF16Bits(f)) {}
  Half16(double d) : bits(Brain ? toBF16Bits(d) : toF16Bits(d)) {}
  Half16(int i) : Half16(double(i)) {}
  operator float() const { return Brain ? fromBF16Bits(bits) : fromF16Bits(bits); }
  Half16 &operator+=(Half16 o) { return *this = Half16(float(*this) + float(o)); }
  Half16 &operator-=(Half16 o) { return *this = Half16(float(*this) - float(o)); }
  Half16 &operator*=(Half16 o) { return *this = Half16(float(*this) * float(o)); }
  Half16 &operator/=(Half16 o) { return *this = Half16(float(*this) / float(o)); }
};
template <bool B> Half16<B> operator+(Half16<B> a, Half16<B> b) { return float(a) + float(b); }
template <bool B> Half16<B> operator-(Half16<B> a, Half16<B> b) { return float(a) - float(b); }
template <bool B> Half16<B> operator*(Half16<B> a, Half16<B> b) { return float(a) * float(b); }
template <bool B> Half16<B> operator/(Half16<B> a, Half16<B> b) { return float(a) / float(b); }
template <bool B> Half16<B> operator-(Half16<B> a) {
  a.bits ^= 0x8000;
  return a;
}
template <bool B> bool operator<(Half16<B> a, Half16<B> b) { return float(a) < float(b); }
template <bool B> bool operator<=(Half16<B> a, Half16<B> b) { return float(a) <= float(b); }
template <bool B> bool operator>(Half16<B> a, Half16<B> b) { return float(a) > float(b); }
template <bool B> bool operator>=(Half16<B> a, Half16<B> b) { return float(a) >= float(b); }
template <bool B> bool operator==(Half16<B> a, Half16<B> b) { return float(a) == float(b); }
template <bool B> bool operator!=(Half16<B> a, Half16<B> b) { return float(a) != float(b); }

template <bool Brain> struct Half16x2 {
  Half16<Brain> x, y;
};
template <bool B> Half16x2<B> operator+(Half16x2<B> a, Half16x2<B> b) { return {a.x + b.x, a.y + b.y}; }
template <bool B> Half16x2<B> operator-(Half16x2<B> a, Half16x2<B> b) { return {a.x - b.x, a.y - b.y}; }
template <bool B> Half16x2<B> operator*(Half16x2<B> a, Half16x2<B> b) { return {a.x * b.x, a.y * b.y}; }
template <bool B> Half16x2<B> operator/(Half16x2<B> a, Half16x2<B> b) { return {a.x / b.x, a.y / b.y}; }
template <bool B> Half16x2<B> operator-(Half16x2<B> a) { return {-a.x, -a.y}; }
} // namespace ks_emu

using __half = ks_emu::Half16<false>;
using __nv_bfloat16 = ks_emu::Half16<true>;
using __half2 = ks_emu::Half16x2<false>;
using __nv_bfloat162 = ks_emu::Half16x2<true>;

// Conversions.
inline __half __float2half(float f) { return f; }
inline __half __float2half_rn(float f) { return f; }
inline float __half2float(__half h) { return h; }
inline __nv_bfloat16 __float2bfloat16(float f) { return f; }
inline __nv_bfloat16 __float2bfloat16_rn(float f) { return f; }
inline float __bfloat162float(__nv_bfloat16 h) { return h; }

// Arithmetic, comparisons and math of one half (both types: the same names).
template <bool B> ks_emu::Half16<B> __hadd(ks_emu::Half16<B> a, ks_emu::Half16<B> b) { return a + b; }
template <bool B> ks_emu::Half16<B> __hsub(ks_emu::Half16<B> a, ks_emu::Half16<B> b) { return a - b; }
template <bool B> ks_emu::Half16<B> __hmul(ks_emu::Half16<B> a, ks_emu::Half16<B> b) { return a * b; }
template <bool B> ks_emu::Half16<B> __hdiv(ks_emu::Half16<B> a, ks_emu::Half16<B> b) { return a / b; }
template <bool B> ks_emu::Half16<B> __hneg(ks_emu::Half16<B> a) { return -a; }
template <bool B> ks_emu::Half16<B> __habs(ks_emu::Half16<B> a) {
  a.bits &= 0x7fff;
  return a;
}
template <bool B>
ks_emu::Half16<B> __hfma(ks_emu::Half16<B> a, ks_emu::Half16<B> b, ks_emu::Half16<B> c) {
  return std::fma(double(float(a)), double(float(b)), double(float(c)));
}
// fmax's NaN rule: the other operand.
template <bool B> ks_emu::Half16<B> __hmax(ks_emu::Half16<B> a, ks_emu::Half16<B> b) {
  return std::fmax(float(a), float(b));
}
template <bool B> ks_emu::Half16<B> __hmin(ks_emu::Half16<B> a, ks_emu::Half16<B> b) {
  return std::fmin(float(a), float(b));
}
template <bool B> bool __hisnan(ks_emu::Half16<B> a) { return std::isnan(float(a)); }
#define KS_HALF_COMPARE(NAME, EXPR)                                                                 \
  template <bool B> bool NAME(ks_emu::Half16<B> a, ks_emu::Half16<B> b) {                          \
    float x = a, y = b;                                                                            \
    return EXPR;                                                                                   \
  }
KS_HALF_COMPARE(__heq, x == y)
KS_HALF_COMPARE(__hne, x < y || x > y)
KS_HALF_COMPARE(__hlt, x < y)
KS_HALF_COMPARE(__hle, x <= y)
KS_HALF_COMPARE(__hgt, x > y)
KS_HALF_COMPARE(__hge, x >= y)
KS_HALF_COMPARE(__hequ, !(x < y || x > y))
KS_HALF_COMPARE(__hneu, x != y)
KS_HALF_COMPARE(__hltu, !(x >= y))
KS_HALF_COMPARE(__hleu, !(x > y))
KS_HALF_COMPARE(__hgtu, !(x <= y))
KS_HALF_COMPARE(__hgeu, !(x < y))
#undef KS_HALF_COMPARE
#define KS_HALF_MATH(NAME, NAME2, FN)                                                               \
  template <bool B> ks_emu::Half16<B> NAME(ks_emu::Half16<B> a) { return FN(float(a)); }           \
  template <bool B> ks_emu::Half16x2<B> NAME2(ks_emu::Half16x2<B> a) {                             \
    return {NAME(a.x), NAME(a.y)};                                                                 \
  }
KS_HALF_MATH(hsqrt, h2sqrt, std::sqrt)
KS_HALF_MATH(hrsqrt, h2rsqrt, 1.0f / std::sqrt)
KS_HALF_MATH(hexp, h2exp, std::exp)
KS_HALF_MATH(hexp2, h2exp2, std::exp2)
KS_HALF_MATH(hlog, h2log, std::log)
KS_HALF_MATH(hlog2, h2log2, std::log2)
KS_HALF_MATH(hsin, h2sin, std::sin)
KS_HALF_MATH(hcos, h2cos, std::cos)
KS_HALF_MATH(hfloor, h2floor, std::floor)
KS_HALF_MATH(hceil, h2ceil, std::ceil)
#undef KS_HALF_MATH

// Pairs.
inline __half2 make_half2(__half x, __half y) { return {x, y}; }
inline __nv_bfloat162 make_bfloat162(__nv_bfloat16 x, __nv_bfloat16 y) { return {x, y}; }
inline __half2 __halves2half2(__half x, __half y) { return {x, y}; }
inline __nv_bfloat162 __halves2bfloat162(__nv_bfloat16 x, __nv_bfloat16 y) { return {x, y}; }
inline __half2 __floats2half2_rn(float x, float y) { return {x, y}; }
inline __nv_bfloat162 __floats2bfloat162_rn(float x, float y) { return {x, y}; }
inline __half2 __float2half2_rn(float x) { return {x, x}; }
inline __nv_bfloat162 __float2bfloat162_rn(float x) { return {x, x}; }
inline __half2 __float22half2_rn(float2 f) { return {f.x, f.y}; }
inline __nv_bfloat162 __float22bfloat162_rn(float2 f) { return {f.x, f.y}; }
inline float2 __half22float2(__half2 h) { return {float(h.x), float(h.y)}; }
inline float2 __bfloat1622float2(__nv_bfloat162 h) { return {float(h.x), float(h.y)}; }
inline __half __low2half(__half2 h) { return h.x; }
inline __half __high2half(__half2 h) { return h.y; }
inline __nv_bfloat16 __low2bfloat16(__nv_bfloat162 h) { return h.x; }
inline __nv_bfloat16 __high2bfloat16(__nv_bfloat162 h) { return h.y; }
template <bool B> float __low2float(ks_emu::Half16x2<B> h) { return h.x; }
template <bool B> float __high2float(ks_emu::Half16x2<B> h) { return h.y; }
#define KS_PAIR_OP(NAME, FN)                                                                        \
  template <bool B> ks_emu::Half16x2<B> NAME(ks_emu::Half16x2<B> a, ks_emu::Half16x2<B> b) {       \
    return {FN(a.x, b.x), FN(a.y, b.y)};                                                           \
  }
KS_PAIR_OP(__hadd2, __hadd)
KS_PAIR_OP(__hsub2, __hsub)
KS_PAIR_OP(__hmul2, __hmul)
KS_PAIR_OP(__h2div, __hdiv)
KS_PAIR_OP(__hmax2, __hmax)
KS_PAIR_OP(__hmin2, __hmin)
#undef KS_PAIR_OP
template <bool B>
ks_emu::Half16x2<B> __hfma2(ks_emu::Half16x2<B> a, ks_emu::Half16x2<B> b, ks_emu::Half16x2<B> c) {
  return {__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y)};
}
template <bool B> ks_emu::Half16x2<B> __hneg2(ks_emu::Half16x2<B> a) { return -a; }
template <bool B> ks_emu::Half16x2<B> __habs2(ks_emu::Half16x2<B> a) {
  return {__habs(a.x), __habs(a.y)};
}
#define KS_PAIR_COMPARE(NAME, FN)                                                                   \
  template <bool B> bool NAME(ks_emu::Half16x2<B> a, ks_emu::Half16x2<B> b) {                      \
    return FN(a.x, b.x) && FN(a.y, b.y);                                                           \
  }
KS_PAIR_COMPARE(__hbeq2, __heq)
KS_PAIR_COMPARE(__hbne2, __hne)
KS_PAIR_COMPARE(__hblt2, __hlt)
KS_PAIR_COMPARE(__hble2, __hle)
KS_PAIR_COMPARE(__hbgt2, __hgt)
KS_PAIR_COMPARE(__hbge2, __hge)
KS_PAIR_COMPARE(__hbequ2, __hequ)
KS_PAIR_COMPARE(__hbneu2, __hneu)
KS_PAIR_COMPARE(__hbltu2, __hltu)
KS_PAIR_COMPARE(__hbleu2, __hleu)
KS_PAIR_COMPARE(__hbgtu2, __hgtu)
KS_PAIR_COMPARE(__hbgeu2, __hgeu)
#undef KS_PAIR_COMPARE

#endif // KS_CUDA_HALF_H
