// Entry-point input checks shared by the math layer, the scenario loader and the CLI: each throws
// std::invalid_argument with a message that starts with the name of the offending field.
#pragma once

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include <Eigen/Core>

namespace oblique::detail {

/// Throws "<field>: <what>".
[[noreturn]] inline void fail(const std::string& field, const std::string& what) {
  throw std::invalid_argument(field + ": " + what);
}

/// The shortest decimal form of `x` that reads back to the same double ("1.8", not "1.800000").
inline std::string format_number(double x) {
  char buffer[32];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(buffer, sizeof buffer, "%.*g", digits, x);
    if (std::strtod(buffer, nullptr) == x) break;
  }
  return buffer;
}

/// Whether every entry of `x` is finite: x − x is +0 for a finite entry and NaN for any other, so their sum
/// is 0 exactly when all are — one vectorised pass (Eigen's allFinite tests one entry at a time).
template <typename Derived>
bool all_finite(const Eigen::MatrixBase<Derived>& x) {
  return (x.array() - x.array()).sum() == 0.0;
}

/// Every entry of `x` must be finite; names the first offending entry.
template <typename Derived>
void check_finite(const Eigen::MatrixBase<Derived>& x, const std::string& field) {
  // Every entry finite (the case of every evaluation): one pass; else the loop names the first other.
  if (all_finite(x)) return;
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    for (Eigen::Index j = 0; j < x.cols(); ++j) {
      if (!std::isfinite(x(i, j))) {
        const std::string where = x.cols() == 1 ? "[" + std::to_string(i) + "]"
                                                : "[" + std::to_string(i) + "][" + std::to_string(j) + "]";
        fail(field + where, "must be a finite number");
      }
    }
  }
}

/// A restitution coefficient must lie in [0, 1].
inline void check_restitution(double e, const std::string& field) {
  if (!std::isfinite(e)) fail(field, "must be a finite number");
  if (e < 0.0 || e > 1.0) fail(field, "must be in [0, 1], got " + format_number(e));
}

/// Coulomb's μ of a run's contact must lie in [0, max], or be +∞ (`stick`).
inline void check_friction(double mu, double max, const std::string& field) {
  char bound[32];
  std::snprintf(bound, sizeof bound, "%g", max);  // 1000, not 1e+03
  if (std::isnan(mu)) fail(field, "must be a number in [0, " + std::string(bound) + "] or +Infinity (stick), got NaN");
  if (mu < 0.0 || (mu > max && !std::isinf(mu))) {
    fail(field, "must be in [0, " + std::string(bound) + "] or +Infinity (stick), got " + format_number(mu));
  }
}

/// An invariant of the core that does not hold (a defect, never bad input): the message on standard error,
/// then abort. Called only from checks compiled in debug builds (the sanitizer build the tests run).
[[noreturn]] inline void invariant_failed(const std::string& message) {
  std::fprintf(stderr, "oblique: invariant violated: %s\n", message.c_str());
  std::abort();
}

}  // namespace oblique::detail
