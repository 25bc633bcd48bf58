// A Delassus factorisation stopped by its gate and taken up again (delassus.hpp: factorize_as_new with a
// WorkGate): the simulator's work budget stops a long factorisation — a touching grid of disks, hundreds
// of dependent rows — between its pieces, and the next call goes on from there. Wherever it stops, the
// result must be an uninterrupted factorisation's bit for bit, and every piece is announced before it runs.
#include <gtest/gtest.h>

#include <vector>

#include "oblique/sparse/delassus.hpp"

namespace oblique {
namespace {

/// The rows of a `side` × `side` grid of touching disks of radius r (unit mass, I = m r²/2) resting on a
/// floor, every contact sticking: for each contact a normal and a tangential row on (x, y, θ) of its disks.
/// Each 3 × 4 block of disks carries a self-stress, so many rows depend on the others.
struct GridSystem {
  SparseJacobian jacobian;
  Vector masses;
};
GridSystem sticking_grid(int side) {
  const double r = 0.05;
  const int n = 3 * side * side;
  std::vector<Eigen::Triplet<double>> entries;
  int row = 0;
  const auto body = [side](int i, int j) { return 3 * (i * side + j); };
  // Contact of disk a with disk b (b above or to the right of a, along unit direction (dx, dy)), or with the
  // floor (a = −1): normal n = (dx, dy), tangent t = (−dy, dx); the contact point r from each centre.
  const auto contact = [&](int a, int b, double dx, double dy) {
    const double tx = -dy, ty = dx;
    entries.emplace_back(row, b, dx);
    entries.emplace_back(row, b + 1, dy);
    if (a >= 0) {
      entries.emplace_back(row, a, -dx);
      entries.emplace_back(row, a + 1, -dy);
    }
    ++row;
    entries.emplace_back(row, b, tx);
    entries.emplace_back(row, b + 1, ty);
    entries.emplace_back(row, b + 2, r);
    if (a >= 0) {
      entries.emplace_back(row, a, -tx);
      entries.emplace_back(row, a + 1, -ty);
      entries.emplace_back(row, a + 2, r);
    }
    ++row;
  };
  for (int i = 0; i < side; ++i) {
    for (int j = 0; j < side; ++j) {
      if (i == 0) contact(-1, body(i, j), 0.0, 1.0);
      if (i > 0) contact(body(i - 1, j), body(i, j), 0.0, 1.0);
      if (j > 0) contact(body(i, j - 1), body(i, j), 1.0, 0.0);
    }
  }
  GridSystem out;
  out.jacobian.resize(row, n);
  out.jacobian.setFromTriplets(entries.begin(), entries.end());
  out.jacobian.makeCompressed();
  out.masses.resize(n);
  for (int b = 0; b < side * side; ++b) out.masses.segment<3>(3 * b) << 1.0, 1.0, 0.5 * r * r;
  return out;
}

/// Thrown by the test's gate where it stops a factorisation.
struct Stopped {};

/// Every result of a factorisation a caller may read, compared bit for bit.
void expect_same_factorisation(const DelassusFactorization& a, const DelassusFactorization& b,
                               const SparseJacobian& jacobian) {
  ASSERT_EQ(a.rank(), b.rank());
  EXPECT_EQ(a.dependent_rows(), b.dependent_rows());
  EXPECT_EQ(a.smallest_pivot_ratio(), b.smallest_pivot_ratio());
  EXPECT_EQ(a.largest_dropped_distance(), b.largest_dropped_distance());
  EXPECT_EQ(Matrix(a.null_basis()), Matrix(b.null_basis()));
  const Vector v = Vector::LinSpaced(jacobian.cols(), -1.0, 2.0);
  const Vector c = jacobian * v;
  const Vector y = Vector::LinSpaced(jacobian.rows(), 0.5, -1.5);
  EXPECT_EQ(a.solve(c), b.solve(c));
  EXPECT_EQ(a.pseudo_solve(y), b.pseudo_solve(y));
  EXPECT_EQ(a.least_squares(y), b.least_squares(y));
}

TEST(DelassusGate, AFactorisationStoppedAtAnyPieceAndTakenUpGivesTheUninterruptedBits) {
  // A 6 × 6 sticking grid: 108 coordinates, 132 rows, at least 24 of them dependent. The gate counts the
  // pieces of an uninterrupted factorisation (one per doubtful row's search, and the null basis), then each
  // run stops at piece j — once, or at every piece from j on — and is taken up until it is done.
  const GridSystem grid = sticking_grid(6);
  DelassusFactorization whole;
  int pieces = 0;
  whole.factorize_as_new(grid.jacobian, grid.masses, [&](double flops) {
    EXPECT_GT(flops, 0.0);
    ++pieces;
  });
  ASSERT_GE(static_cast<int>(whole.dependent_rows().size()), 132 - 108);
  ASSERT_GT(pieces, static_cast<int>(whole.dependent_rows().size()));
  DelassusFactorization fresh;
  fresh.factorize(grid.jacobian, grid.masses);
  expect_same_factorisation(whole, fresh, grid.jacobian);
  for (int stop = 0; stop < pieces; ++stop) {
    for (const bool every : {false, true}) {
      DelassusFactorization cut;
      int asked = 0, calls = 0;
      bool stopped_once = false;
      bool done = false;
      while (!done) {
        ++calls;
        ASSERT_LE(calls, pieces + 2) << "stopped at " << stop;
        int asked_this_call = 0;
        try {
          cut.factorize_as_new(grid.jacobian, grid.masses, [&](double) {
            // Once: before piece `stop`. Every: from piece `stop` on, before every piece but a call's first.
            if (asked >= stop && (every ? asked_this_call > 0 : !stopped_once)) {
              stopped_once = true;
              throw Stopped{};
            }
            ++asked;
            ++asked_this_call;
          });
          done = true;
        } catch (const Stopped&) {
        }
      }
      EXPECT_EQ(asked, pieces) << "stopped at " << stop;  // no piece run twice, none skipped
      expect_same_factorisation(cut, whole, grid.jacobian);
    }
  }
}

TEST(DelassusGate, OtherInputsDropAFactorisationInProgress) {
  // Stopped half-way, then an estimate and a factorisation of other values on the same pattern, then the
  // first inputs again: each result is a fresh factorisation's (the progress of other inputs never leaks).
  const GridSystem grid = sticking_grid(5);
  SparseJacobian other = grid.jacobian;
  for (int p = 0; p < other.nonZeros(); ++p) other.valuePtr()[p] *= 1.0 + 1e-3 * (p % 7);
  DelassusFactorization fresh, fresh_other;
  fresh.factorize(grid.jacobian, grid.masses);
  fresh_other.factorize(other, grid.masses);
  DelassusFactorization kept;
  int asked = 0;
  EXPECT_THROW(kept.factorize_as_new(grid.jacobian, grid.masses, [&](double) {
    if (++asked > 5) throw Stopped{};
  }),
               Stopped);
  EXPECT_GT(kept.factorization_estimate(other, grid.masses, true), 0.0);
  kept.factorize_as_new(other, grid.masses);
  expect_same_factorisation(kept, fresh_other, other);
  kept.factorize_as_new(grid.jacobian, grid.masses);
  expect_same_factorisation(kept, fresh, grid.jacobian);
}

TEST(DelassusGate, TheGatedEstimateLeavesOutThePiecesAndShrinksAsTheFactorisationGoesOn) {
  // The estimate of what a gate cannot stop is below the whole factorisation's, and for a factorisation in
  // progress it is what is left: never more than at its start.
  const GridSystem grid = sticking_grid(6);
  DelassusFactorization delassus;
  const double whole = delassus.factorization_estimate(grid.jacobian, grid.masses);
  const double unsplit = delassus.factorization_estimate(grid.jacobian, grid.masses, true);
  EXPECT_GT(unsplit, 0.0);
  EXPECT_LT(unsplit, whole);
  double pieces = 0.0;
  int asked = 0;
  EXPECT_THROW(delassus.factorize_as_new(grid.jacobian, grid.masses, [&](double flops) {
    if (++asked > 10) throw Stopped{};
    pieces += flops;
  }),
               Stopped);
  EXPECT_LE(delassus.factorization_estimate(grid.jacobian, grid.masses, true), unsplit);
  // The pieces and the rest add up to the work the ungated estimate foretells, within a factor of two.
  delassus.factorize_as_new(grid.jacobian, grid.masses, [&](double flops) { pieces += flops; });
  EXPECT_GT(unsplit + pieces, 0.5 * whole);
  EXPECT_LT(unsplit + pieces, 2.0 * whole);
}

}  // namespace
}  // namespace oblique
