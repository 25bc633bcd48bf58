// The portable cos_sin against the C library: within a few ulps everywhere it reduces exactly, exact at
// the quarter turns, and the identity cos² + sin² = 1; the same bits for an angle whatever was asked
// before it (cos_sin keeps its recent results).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "oblique/math/trigonometry.hpp"

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

TEST(Trigonometry, TheSameBitsWhateverWasAskedBefore) {
  // Angles asked once, then again in another order among others, neighbours one ulp apart included (each
  // an angle a body could have at the next step): every answer bit for bit the first.
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> angle(-10.0, 10.0);
  std::vector<double> angles;
  for (int i = 0; i < 2000; ++i) {
    const double x = angle(random);
    angles.push_back(x);
    angles.push_back(std::nextafter(x, INFINITY));
    angles.push_back(-x);
  }
  std::vector<CosSin> first;
  for (double x : angles) first.push_back(cos_sin(x));
  std::vector<std::size_t> order(angles.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), random);
  int different = 0;
  for (std::size_t i : order) {
    cos_sin(angle(random));  // another angle in between
    const CosSin again = cos_sin(angles[i]);
    different += std::memcmp(&again.cos, &first[i].cos, sizeof(double)) != 0 ||
                 std::memcmp(&again.sin, &first[i].sin, sizeof(double)) != 0;
  }
  EXPECT_EQ(different, 0);
  // And each the value the C library gives, to 2 ulps (an ulp of 1 near a zero, as above): no answer is
  // another angle's.
  const auto error = [](double a, double b) {
    return std::min(ulps(a, b), std::abs(a - b) / std::numeric_limits<double>::epsilon());
  };
  for (std::size_t i = 0; i < angles.size(); ++i) {
    EXPECT_LE(error(first[i].cos, std::cos(angles[i])), 2.0) << angles[i];
    EXPECT_LE(error(first[i].sin, std::sin(angles[i])), 2.0) << angles[i];
  }
}

}  // namespace
}  // namespace oblique
