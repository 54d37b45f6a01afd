//===- HostData.cpp - Typed host buffers: fill, poison, compare -----------===//

#include "kernelskill/Runtime/HostData.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>
#include <thread>

using namespace mlir::ks::runtime;

float mlir::ks::runtime::halfToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000) << 16, exp = (h >> 10) & 0x1F, mant = h & 0x3FF, bits;
  if (exp == 0) {
    if (mant == 0) {
      bits = sign;
    } else { // subnormal: normalize
      exp = 127 - 15 + 1;
      while (!(mant & 0x400)) {
        mant <<= 1;
        --exp;
      }
      bits = sign | (exp << 23) | ((mant & 0x3FF) << 13);
    }
  } else if (exp == 31) {
    bits = sign | 0x7F800000 | (mant << 13);
  } else {
    bits = sign | ((exp + 127 - 15) << 23) | (mant << 13);
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

uint16_t mlir::ks::runtime::floatToHalf(float value) {
  uint32_t x;
  std::memcpy(&x, &value, 4);
  uint32_t sign = (x >> 16) & 0x8000;
  int32_t exp = int32_t((x >> 23) & 0xFF) - 127 + 15;
  uint32_t mant = x & 0x7FFFFF;
  if (((x >> 23) & 0xFF) == 0xFF) // Inf/NaN
    return uint16_t(sign | 0x7C00 | (mant ? 0x200 : 0));
  if (exp >= 31)
    return uint16_t(sign | 0x7C00);
  if (exp <= 0) {
    if (exp < -10)
      return uint16_t(sign);
    mant |= 0x800000;
    uint32_t shift = uint32_t(14 - exp);
    uint32_t half = mant >> shift, rest = mant & ((1u << shift) - 1), mid = 1u << (shift - 1);
    if (rest > mid || (rest == mid && (half & 1)))
      ++half;
    return uint16_t(sign | half);
  }
  uint32_t half = sign | (uint32_t(exp) << 10) | (mant >> 13), rest = mant & 0x1FFF;
  if (rest > 0x1000 || (rest == 0x1000 && (half & 1)))
    ++half; // may carry into the exponent, which is the right rounding
  return uint16_t(half);
}

float mlir::ks::runtime::bf16ToFloat(uint16_t bits) {
  uint32_t x = uint32_t(bits) << 16;
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

uint16_t mlir::ks::runtime::floatToBF16(float value) {
  uint32_t x;
  std::memcpy(&x, &value, 4);
  if ((x & 0x7F800000) == 0x7F800000 && (x & 0x7FFFFF))
    return uint16_t((x >> 16) | 0x40);
  x += 0x7FFF + ((x >> 16) & 1);
  return uint16_t(x >> 16);
}

double mlir::ks::runtime::loadAsDouble(const void *data, ElemType type, size_t i) {
  auto at = [&](auto *typed) { return typed[i]; };
  switch (type) {
  case ElemType::F16:
    return halfToFloat(at(static_cast<const uint16_t *>(data)));
  case ElemType::BF16:
    return bf16ToFloat(at(static_cast<const uint16_t *>(data)));
  case ElemType::F32:
    return at(static_cast<const float *>(data));
  case ElemType::F64:
    return at(static_cast<const double *>(data));
  case ElemType::I8:
    return at(static_cast<const int8_t *>(data));
  case ElemType::U8:
    return at(static_cast<const uint8_t *>(data));
  case ElemType::I32:
    return at(static_cast<const int32_t *>(data));
  case ElemType::U32:
    return at(static_cast<const uint32_t *>(data));
  case ElemType::I64:
    return double(at(static_cast<const int64_t *>(data)));
  case ElemType::U64:
    return double(at(static_cast<const uint64_t *>(data)));
  }
  return 0;
}

namespace {
/// splitmix64: small, fast and good enough for test data.
struct Rng {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double uniform() { return double(next() >> 11) * 0x1.0p-53; }
};
template <typename T>
void store(std::vector<uint8_t> &bytes, size_t i, T value) {
  std::memcpy(bytes.data() + i * sizeof(T), &value, sizeof(T));
}
} // namespace

uint64_t mlir::ks::runtime::seedFor(uint64_t runSeed, const std::string &name) {
  uint64_t h = 0xcbf29ce484222325ull ^ runSeed;
  for (char c : name)
    h = (h ^ uint8_t(c)) * 0x100000001b3ull;
  return h;
}

void mlir::ks::runtime::fillRandom(std::vector<uint8_t> &bytes, ElemType type, size_t count,
                                   double lo, double hi, uint64_t seed) {
  bytes.assign(count * sizeOf(type), 0);
  Rng rng{seed};
  for (size_t i = 0; i < count; ++i) {
    double u = lo + (hi - lo) * rng.uniform();
    if (isFloat(type) && std::fabs(u) < 1e-3)
      u = u < 0 ? -1e-3 : 1e-3; // never zero, even after rounding to f16
    switch (type) {
    case ElemType::F16:
      store(bytes, i, floatToHalf(float(u)));
      break;
    case ElemType::BF16:
      store(bytes, i, floatToBF16(float(u)));
      break;
    case ElemType::F32:
      store(bytes, i, float(u));
      break;
    case ElemType::F64:
      store(bytes, i, u);
      break;
    case ElemType::I8:
      store(bytes, i, int8_t(std::floor(u)));
      break;
    case ElemType::U8:
      store(bytes, i, uint8_t(std::floor(u)));
      break;
    case ElemType::I32:
      store(bytes, i, int32_t(std::floor(u)));
      break;
    case ElemType::U32:
      store(bytes, i, uint32_t(std::floor(u)));
      break;
    case ElemType::I64:
      store(bytes, i, int64_t(std::floor(u)));
      break;
    case ElemType::U64:
      store(bytes, i, uint64_t(std::floor(u)));
      break;
    }
  }
}

double mlir::ks::runtime::defaultTolerance(ElemType type, bool tf32) {
  switch (type) {
  case ElemType::F64:
    return tf32 ? 5e-3 : 1e-12;
  case ElemType::F32:
    return tf32 ? 5e-3 : 1e-5;
  case ElemType::F16:
  case ElemType::BF16:
    return 1e-2;
  default:
    return 0;
  }
}

void mlir::ks::runtime::forEachChunk(size_t count,
                                     const std::function<void(size_t, size_t, size_t)> &body) {
  size_t chunks = (count + kChunkElements - 1) / kChunkElements;
  unsigned cores = std::max(1u, std::min(16u, std::thread::hardware_concurrency()));
  size_t workers = std::min<size_t>(chunks, cores);
  auto work = [&](size_t first) {
    for (size_t k = first; k < chunks; k += workers)
      body(k, k * kChunkElements, std::min(count, (k + 1) * kChunkElements));
  };
  if (workers <= 1) {
    work(0);
    return;
  }
  std::vector<std::thread> threads;
  for (size_t w = 1; w < workers; ++w)
    threads.emplace_back(work, w);
  work(0);
  for (std::thread &t : threads)
    t.join();
}

Comparison mlir::ks::runtime::compare(std::span<const uint8_t> out, std::span<const uint8_t> ref,
                                      const std::vector<uint8_t> &unwritten, ElemType type,
                                      size_t count, double tolerance) {
  Comparison c;
  c.count = count;
  auto isUnwritten = [&](size_t i) { return !unwritten.empty() && unwritten[i]; };
  // Each pass runs over fixed chunks in parallel and merges the chunks' sums
  // in chunk order, so the result does not depend on the number of threads.
  size_t chunks = (count + kChunkElements - 1) / kChunkElements;
  // The reference's scale (RMS), for the per-element check below.
  struct Scale {
    double ref2 = 0;
    size_t finite = 0;
  };
  std::vector<Scale> scales(chunks);
  forEachChunk(count, [&](size_t k, size_t begin, size_t end) {
    Scale &s = scales[k];
    for (size_t i = begin; i < end; ++i) {
      double r = loadAsDouble(ref.data(), type, i);
      if (!isUnwritten(i) && std::isfinite(r)) {
        s.ref2 += r * r;
        ++s.finite;
      }
    }
  });
  double ref2 = 0;
  size_t finite = 0;
  for (const Scale &s : scales) {
    ref2 += s.ref2;
    finite += s.finite;
  }
  double rms = finite ? std::sqrt(ref2 / double(finite)) : 0;
  struct Errors {
    size_t unwritten = 0, firstUnwritten = SIZE_MAX, nan = 0, firstNaN = SIZE_MAX;
    size_t outliers = 0, firstOutlier = SIZE_MAX, worstAt = SIZE_MAX;
    double diff2 = 0, worst = -1;
  };
  std::vector<Errors> errors(chunks);
  forEachChunk(count, [&](size_t k, size_t begin, size_t end) {
    Errors &e = errors[k];
    for (size_t i = begin; i < end; ++i) {
      if (isUnwritten(i)) {
        if (e.unwritten++ == 0)
          e.firstUnwritten = i;
        continue;
      }
      double o = loadAsDouble(out.data(), type, i), r = loadAsDouble(ref.data(), type, i);
      if (!std::isfinite(r) || !std::isfinite(o)) {
        // Non-finite values must match exactly: NaN for NaN, the same infinity.
        bool same = (std::isnan(o) && std::isnan(r)) || o == r;
        if (!same && e.nan++ == 0)
          e.firstNaN = i;
        continue;
      }
      double d = std::fabs(o - r);
      e.diff2 += d * d;
      if (d > e.worst) {
        e.worst = d;
        e.worstAt = i;
      }
      // A few wrong elements hide in a norm over millions: each element must
      // also be within 10x the tolerance of its own magnitude plus the RMS.
      if (d > 10 * tolerance * (std::fabs(r) + rms) && e.outliers++ == 0)
        e.firstOutlier = i;
    }
  });
  double diff2 = 0, worst = -1;
  size_t worstAt = SIZE_MAX, firstOutlier = SIZE_MAX, outliers = 0;
  for (const Errors &e : errors) {
    c.unwrittenCount += e.unwritten;
    c.nanCount += e.nan;
    c.firstBad = std::min({c.firstBad, e.firstUnwritten, e.firstNaN});
    diff2 += e.diff2;
    if (e.worst > worst) { // the first of equal worst errors, as in one pass
      worst = e.worst;
      worstAt = e.worstAt;
    }
    if (e.outliers && outliers == 0)
      firstOutlier = e.firstOutlier;
    outliers += e.outliers;
  }
  c.maxAbs = worst < 0 ? 0 : worst;
  c.relativeL2 = ref2 > 0 ? std::sqrt(diff2 / ref2) : std::sqrt(diff2);
  c.outlierCount = outliers;
  std::ostringstream why;
  if (c.unwrittenCount)
    why << c.unwrittenCount << " of " << count << " elements never written (first at index "
        << c.firstBad << ")";
  else if (c.nanCount)
    why << c.nanCount << " NaN/Inf elements differ from the reference (first at index "
        << c.firstBad << ")";
  else if (!(c.relativeL2 <= tolerance)) {
    c.firstBad = worstAt;
    why << "relative L2 error " << c.relativeL2 << " exceeds tolerance " << tolerance
        << " (max abs error " << c.maxAbs << " at index " << worstAt << ")";
  } else if (outliers) {
    c.firstBad = firstOutlier;
    why << outliers << " elements differ by more than 10x the tolerance of their scale (first at "
        << "index " << firstOutlier << ": " << loadAsDouble(out.data(), type, firstOutlier)
        << " vs " << loadAsDouble(ref.data(), type, firstOutlier) << ")";
  }
  c.reason = why.str();
  c.pass = c.reason.empty();
  return c;
}
