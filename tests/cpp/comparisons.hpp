// How the tests compare numbers: bit for bit (determinism: replays, restores, budget-cut calls, native and
// wasm) and by relative gap (two computations of one quantity that agree to round-off).
#pragma once

#include <algorithm>
#include <cstring>
#include <vector>

#include <Eigen/Core>

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

/// ‖a − b‖ relative to the larger of ‖a‖, ‖b‖ and `scale`, the natural size of the quantity (1 by default;
/// 0 for a gap relative to the values alone).
template <typename A, typename B>
double rel_gap(const Eigen::MatrixBase<A>& a, const Eigen::MatrixBase<B>& b, double scale = 1.0) {
  return (a - b).norm() / std::max({scale, a.norm(), b.norm(), 1e-300});
}

}  // namespace oblique::testing
