// The portable cos_sin against the C library: within a few ulps everywhere it reduces exactly, exact at
// the quarter turns, and the identity cos² + sin² = 1.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "oblique/trigonometry.hpp"

namespace oblique {
namespace {

/// |a − b| in units of the last place of b (at least the ulp of 1e-300 to avoid dividing by zero).
double ulps(double a, double b) {
  const double ulp = std::nextafter(std::abs(b), INFINITY) - std::abs(b);
  return std::abs(a - b) / std::max(ulp, std::numeric_limits<double>::denorm_min());
}

TEST(Trigonometry, AgreesWithTheCLibraryToAFewUlps) {
  // Within 2 ulps for the angles bodies reach; near the end of the exact reduction (7·10⁵ rad, where the
  // angle itself is only known to 10⁻¹⁰ rad) the rounding of x − kπ/2 allows a few more.
  std::mt19937 engine(42);
  for (const auto [range, allowed] : {std::pair{1.0, 2.0}, std::pair{10.0, 2.0}, std::pair{1e3, 2.0}, std::pair{7e5, 6.0}}) {
    std::uniform_real_distribution<double> angle(-range, range);
    double worst = 0.0;
    for (int i = 0; i < 200000; ++i) {
      const double x = angle(engine);
      const CosSin cs = cos_sin(x);
      // Near a zero of cos or sin an absolute error of an ulp of 1 is the honest measure.
      const double abs_c = std::abs(cs.cos - std::cos(x)) / std::numeric_limits<double>::epsilon();
      const double abs_s = std::abs(cs.sin - std::sin(x)) / std::numeric_limits<double>::epsilon();
      worst = std::max({worst, std::min(ulps(cs.cos, std::cos(x)), abs_c), std::min(ulps(cs.sin, std::sin(x)), abs_s)});
    }
    EXPECT_LE(worst, allowed) << "range ±" << range;
  }
}

TEST(Trigonometry, QuarterTurnsAndIdentity) {
  EXPECT_EQ(cos_sin(0.0).cos, 1.0);
  EXPECT_EQ(cos_sin(0.0).sin, 0.0);
  EXPECT_NEAR(cos_sin(kPi / 2).cos, 0.0, 1e-16);
  EXPECT_EQ(cos_sin(kPi / 2).sin, 1.0);
  EXPECT_EQ(cos_sin(kPi).cos, -1.0);
  EXPECT_NEAR(cos_sin(kPi).sin, 0.0, 2e-16);
  EXPECT_EQ(cos_sin(-kPi / 2).sin, -1.0);
  EXPECT_NEAR(cos_sin(kPi / 6).sin, 0.5, 1e-16);
  std::mt19937 engine(7);
  std::uniform_real_distribution<double> angle(-100.0, 100.0);
  for (int i = 0; i < 10000; ++i) {
    const CosSin cs = cos_sin(angle(engine));
    EXPECT_NEAR(cs.cos * cs.cos + cs.sin * cs.sin, 1.0, 4e-16);
  }
}

TEST(Trigonometry, FallsBackBeyondTheExactReduction) {
  for (double x : {1e6, -3.5e7, 1e300}) {
    EXPECT_EQ(cos_sin(x).cos, std::cos(x));
    EXPECT_EQ(cos_sin(x).sin, std::sin(x));
  }
  EXPECT_TRUE(std::isnan(cos_sin(NAN).cos));
}

}  // namespace
}  // namespace oblique
