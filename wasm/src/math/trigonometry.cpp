#include "oblique/math/trigonometry.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>

#include "math/thread_local_storage.hpp"

namespace oblique {

namespace {

// π/2 = kHalfPi1 + kHalfPi2 + kHalfPi3: the first two have 33 significant bits, so k·kHalfPi1 and
// k·kHalfPi2 are exact for |k| < 2²⁰.
constexpr double kHalfPi1 = 1.57079632673412561417e+00;
constexpr double kHalfPi2 = 6.07710050650619224932e-11;
constexpr double kHalfPi3 = 2.02226624879595063154e-21;
constexpr double kTwoOverPi = 6.36619772367581382433e-01;
constexpr double kLargestReduced = 8.0e5;

/// sin r on |r| ≤ π/4: r − r³/3! + r⁵/5! − … − r¹⁷/17! (Horner in r²).
double sin_kernel(double r) {
  const double z = r * r;
  double p = -1.0 / 355687428096000.0;  // −1/17!
  p = p * z + 1.0 / 1307674368000.0;    // 1/15!
  p = p * z - 1.0 / 6227020800.0;       // −1/13!
  p = p * z + 1.0 / 39916800.0;         // 1/11!
  p = p * z - 1.0 / 362880.0;           // −1/9!
  p = p * z + 1.0 / 5040.0;             // 1/7!
  p = p * z - 1.0 / 120.0;              // −1/5!
  p = p * z + 1.0 / 6.0;                // 1/3!
  return r - r * z * p;
}

/// cos r on |r| ≤ π/4: 1 − r²/2! + r⁴/4! − … + r¹⁸/18! (Horner in r²).
double cos_kernel(double r) {
  const double z = r * r;
  double p = 1.0 / 6402373705728000.0;  // 1/18!
  p = p * z - 1.0 / 20922789888000.0;   // −1/16!
  p = p * z + 1.0 / 87178291200.0;      // 1/14!
  p = p * z - 1.0 / 479001600.0;        // −1/12!
  p = p * z + 1.0 / 3628800.0;          // 1/10!
  p = p * z - 1.0 / 40320.0;            // −1/8!
  p = p * z + 1.0 / 720.0;              // 1/6!
  p = p * z - 1.0 / 24.0;               // −1/4!
  p = p * z + 0.5;                      // 1/2!
  return 1.0 - z * p;
}

/// cos x and sin x by the reduction and the kernels above.
CosSin compute_cos_sin(double x) {
  // Beyond the exact reduction (or not finite): the C library.
  if (!(std::abs(x) < kLargestReduced)) return {std::cos(x), std::sin(x)};
  // Reduce: x = k·π/2 + r with |r| ≤ π/4 (to rounding).
  const double k = std::nearbyint(x * kTwoOverPi);
  const double r = ((x - k * kHalfPi1) - k * kHalfPi2) - k * kHalfPi3;
  const double s = sin_kernel(r);
  const double c = cos_kernel(r);
  // The quadrant picks the signs and the order.
  switch (static_cast<long>(k) & 3) {
    case 0: return {c, s};
    case 1: return {-s, c};
    case 2: return {-c, -s};
    default: return {s, -c};
  }
}

/// The last results by the bits of x. A body's angle is turned several times per evaluation (by each of
/// its joints and contacts, and by the contact geometry) and a replayed step turns the same angles again.
/// cos_sin is a pure function, so what the memo holds changes only how soon the same bits come back.
/// One per thread; +0, which cos_sin answers first, marks an empty slot.
constexpr int kMemoSlots = 128;
struct CosSinMemo {
  std::uint64_t bits[kMemoSlots] = {};
  CosSin value[kMemoSlots];
};
OBLIQUE_THREAD_LOCAL CosSinMemo memo;

/// The slot of x's bits: Fibonacci hashing, so that angles differing in their last bits spread.
std::size_t memo_slot(std::uint64_t bits) {
  return static_cast<std::size_t>((bits * 0x9E3779B97F4A7C15ull) >> 57);
}

}  // namespace

CosSin cos_sin(double x) {
  // A body that never turned (every frictionless disk): cos ±0 = 1 and sin ±0 = +0, the bits the
  // reduction and the kernels give (r = (±0 − k·π/2) is +0).
  if (x == 0.0) return {1.0, 0.0};
  // The same angle as a recent call: its result.
  std::uint64_t bits = 0;
  std::memcpy(&bits, &x, sizeof bits);
  const std::size_t slot = memo_slot(bits);
  if (memo.bits[slot] == bits) return memo.value[slot];
  const CosSin value = compute_cos_sin(x);
  memo.bits[slot] = bits;
  memo.value[slot] = value;
  return value;
}

}  // namespace oblique
