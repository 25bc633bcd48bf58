// How the tests compare numbers: bit for bit (determinism: replays, restores, budget-cut calls, native and
// wasm) and by relative gap (two computations of one quantity that agree to round-off).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include <Eigen/Core>
#include <gtest/gtest.h>

namespace oblique::testing {

/// The same `count` doubles, bit for bit.
inline bool same_bits(const double* a, const double* b, Eigen::Index count) {
  // (memcmp of an empty array's null data is undefined behaviour, which UBSan reports.)
  return count == 0 || std::memcmp(a, b, static_cast<std::size_t>(count) * sizeof(double)) == 0;
}

/// The same values, bit for bit.
inline bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && same_bits(a.data(), b.data(), static_cast<Eigen::Index>(a.size()));
}

/// The same shape and values, bit for bit.
template <typename A, typename B>
bool same_bits(const Eigen::PlainObjectBase<A>& a, const Eigen::PlainObjectBase<B>& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() && same_bits(a.data(), b.data(), a.size());
}

/// The values of `v` appended to `out` (what a run shows, gathered for a bit-for-bit comparison).
template <typename V>
void append(std::vector<double>& out, const Eigen::PlainObjectBase<V>& v) {
  out.insert(out.end(), v.data(), v.data() + v.size());
}

/// ‖a − b‖ relative to the larger of ‖a‖, ‖b‖ and `scale`, the natural size of the quantity (1 by default;
/// 0 for a gap relative to the values alone).
template <typename A, typename B>
double rel_gap(const Eigen::MatrixBase<A>& a, const Eigen::MatrixBase<B>& b, double scale = 1.0) {
  return (a - b).norm() / std::max({scale, a.norm(), b.norm(), 1e-300});
}

/// `got` within `tolerance` of `expected`, relative to |expected| (absolute against 1 near zero), with both
/// values and their difference in the message.
inline ::testing::AssertionResult close(double got, double expected, double tolerance = 1e-9) {
  if (std::abs(got - expected) <= tolerance * std::max(1.0, std::abs(expected))) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "got " << got << ", expected " << expected << " (difference "
                                       << got - expected << ")";
}

}  // namespace oblique::testing
