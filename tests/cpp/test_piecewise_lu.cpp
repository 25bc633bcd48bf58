// The LU of the frictional impact's Schur system, one column panel a piece (math/piecewise_lu.hpp): a
// work gate stops it between two panels and the next call goes on. However it is split, it must solve the
// system, and give Eigen's PartialPivLU's solution bit for bit (the frictional impact's results do not
// depend on where the page's calls returned).
#include <gtest/gtest.h>

#include <Eigen/LU>
#include <random>
#include <vector>

#include "comparisons.hpp"
#include "math/piecewise_lu.hpp"

namespace oblique {
namespace {

using detail::PiecewiseLu;
using testing::same_bits;

struct Stop {};

/// A random n×n matrix whose pivots need row swaps: I + V F⁺U of a Schur system is dominated by no
/// particular row, so its entries are drawn alike, with a zero leading entry.
Eigen::MatrixXd random_square(Eigen::Index n, unsigned seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> entry(-1.0, 1.0);
  Eigen::MatrixXd a(n, n);
  for (Eigen::Index j = 0; j < n; ++j) {
    for (Eigen::Index i = 0; i < n; ++i) a(i, j) = entry(random);
  }
  if (n > 1) a(0, 0) = 0.0;
  return a;
}

Eigen::VectorXd random_vector(Eigen::Index n, unsigned seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> entry(-1.0, 1.0);
  Eigen::VectorXd b(n);
  for (Eigen::Index i = 0; i < n; ++i) b(i) = entry(random);
  return b;
}

TEST(PiecewiseLu, SolvesAsEigensPartialPivLuBitForBitAtEverySize) {
  for (Eigen::Index n : {1, 2, 7, 16, 17, 40, 131, 350}) {
    const Eigen::MatrixXd a = random_square(n, static_cast<unsigned>(n));
    const Eigen::VectorXd b = random_vector(n, static_cast<unsigned>(n + 1));
    PiecewiseLu lu;
    lu.start(a);
    lu.factorize();
    ASSERT_TRUE(lu.done());
    const Eigen::VectorXd x = lu.solve(b);
    // The system solved, and Eigen's solution bit for bit.
    EXPECT_LE((a * x - b).norm(), 1e-9 * (a.norm() * x.norm() + b.norm())) << n;
    EXPECT_TRUE(same_bits(x, Eigen::VectorXd(Eigen::PartialPivLU<Eigen::MatrixXd>(a).solve(b)))) << n;
  }
}

TEST(PiecewiseLu, StoppedBeforeAnyPanelAndTakenUpGivesTheUninterruptedBits) {
  const Eigen::Index n = 350;
  const Eigen::MatrixXd a = random_square(n, 3);
  const Eigen::VectorXd b = random_vector(n, 4);
  PiecewiseLu whole;
  whole.start(a);
  std::vector<double> pieces;
  whole.factorize([&](double flops) { pieces.push_back(flops); });
  const Eigen::VectorXd expected = whole.solve(b);
  // Panels of 32 columns: 11 pieces, each announced with its flops (the first, with the largest update, a
  // quarter of the whole), together the LU's (2/3)n³.
  ASSERT_EQ(PiecewiseLu::panel_width(n), 32);
  ASSERT_EQ(pieces.size(), 11u);
  double total = 0.0;
  for (double flops : pieces) {
    EXPECT_GT(flops, 0.0);
    EXPECT_LE(flops, 0.3 * 2.0 / 3.0 * n * n * n);
    total += flops;
  }
  EXPECT_NEAR(total, 2.0 / 3.0 * n * n * n, 0.1 * 2.0 / 3.0 * n * n * n);

  // Stopped before piece `stop` (once, or before every piece from there on), then taken up.
  for (std::size_t stop = 0; stop < pieces.size(); ++stop) {
    for (bool every : {false, true}) {
      PiecewiseLu lu;
      lu.start(a);
      std::size_t asked = 0;
      bool stopped = false;
      int calls = 0;
      while (!lu.done()) {
        ASSERT_LT(++calls, 30);
        try {
          bool first = true;
          lu.factorize([&](double) {
            const std::size_t piece = asked++;
            if (first) { first = false; return; }  // each call makes progress
            if (piece == stop || (every && piece > stop)) { stopped = true; throw Stop{}; }
          });
        } catch (const Stop&) {
          --asked;
        }
      }
      EXPECT_TRUE(stopped || stop == 0) << stop;
      EXPECT_TRUE(same_bits(lu.solve(b), expected)) << "stopped before piece " << stop << (every ? " and after" : "");
    }
  }
}

TEST(PiecewiseLu, ASmallSystemIsOnePieceAndAWrongSizeIsNamed) {
  PiecewiseLu lu;
  lu.start(random_square(12, 5));
  int pieces = 0;
  lu.factorize([&](double flops) {
    ++pieces;
    EXPECT_DOUBLE_EQ(flops, 2.0 / 3.0 * 12 * 12 * 12);
  });
  EXPECT_EQ(pieces, 1);
  EXPECT_THROW(lu.solve(Eigen::VectorXd::Ones(11)), std::invalid_argument);
  PiecewiseLu unfinished;
  EXPECT_THROW(unfinished.factorize(), std::logic_error);
  EXPECT_THROW(unfinished.start(Eigen::MatrixXd::Ones(3, 4)), std::invalid_argument);
}

}  // namespace
}  // namespace oblique
