// Bitwise equality, the test of "the same inputs" wherever a result is kept and reused: equal bits give
// equal results, where == would call −0 and +0 equal and a NaN unequal to itself.
#pragma once

#include <cstddef>
#include <cstring>

#include "oblique/math/projection.hpp"

namespace oblique::detail {

/// Whether `count` values at `a` and `b` have the same bits (no pointer is read when there are none).
template <typename T>
bool same_bits(const T* a, const T* b, std::size_t count) {
  return count == 0 || std::memcmp(a, b, count * sizeof(T)) == 0;
}

/// Whether x and y are of one size and hold the same bits.
inline bool same_bits(const Vector& x, const Vector& y) {
  return x.size() == y.size() && same_bits(x.data(), y.data(), static_cast<std::size_t>(x.size()));
}

}  // namespace oblique::detail
