// Vectors in the tests: written from a list of entries, and compared with an expected one entry by entry.
#pragma once

#include <initializer_list>

#include <gtest/gtest.h>

#include "oblique/math/projection.hpp"

namespace oblique::testing {

/// The vector of `values`, in order.
inline Vector vec(std::initializer_list<double> values) {
  Vector v(static_cast<Eigen::Index>(values.size()));
  Eigen::Index i = 0;
  for (double x : values) v(i++) = x;
  return v;
}

/// `actual` has the size of `expected` and each entry within `tol` of its own (the entry named on failure).
inline void expect_vector_near(const Vector& actual, const Vector& expected, double tol) {
  ASSERT_EQ(actual.size(), expected.size());
  for (Eigen::Index i = 0; i < actual.size(); ++i) EXPECT_NEAR(actual(i), expected(i), tol) << "entry " << i;
}

}  // namespace oblique::testing
