// When the simulator's sparse path trusts a smooth-phase solve although its factorisation is not certified
// (sparse_path.hpp): the only doubt is a row dropped as dependent that the dense rule would keep, and the
// solution meets that row as well. Checked on a system built like boxes resting face to face — one row
// a combination of two others plus 1e-13 of its length, more than the dense rank threshold and less than
// the factorisation's own — against the dense projection of the independent rows, which a dependent row
// cannot change: the same q̈, (I − S)q̇ and minimum-norm f to round-off.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "oblique/math/dynamics.hpp"
#include "oblique/sparse/sparse_dynamics.hpp"
#include "oblique/sparse/sparse_path.hpp"
#include "random_systems.hpp"
#include "comparisons.hpp"

namespace oblique {
namespace {

using testing::RandomSystems;

using testing::rel_gap;

/// Three bodies (n = 9) and four contact-like rows: rows 0–2 independent, row 3 = 0.6 row 0 − 1.1 row 1 +
/// `offset` times a unit direction on their columns (offset 0: exactly dependent).
struct NearlyDependentRows {
  NearlyDependentRows(RandomSystems& rng, double offset) : masses(9), a(Matrix::Zero(4, 9)) {
    for (int body = 0; body < 3; ++body) {
      const double m = std::exp(rng.uniform(std::log(0.5), std::log(2.0)));
      masses.segment(3 * body, 3) << m, m, m * 0.01;
    }
    // Row 0 between bodies 0 and 1, row 1 between bodies 1 and 2, row 2 on body 2 alone (a floor).
    a.row(0).segment(0, 6) = rng.vector(6);
    a.row(1).segment(3, 6) = rng.vector(6);
    a.row(2).segment(6, 3) = rng.vector(3);
    const Vector combination = (0.6 * a.row(0) - 1.1 * a.row(1)).transpose();
    const Vector direction = rng.vector(9).normalized();
    a.row(3) = (combination + offset * combination.norm() * direction).transpose();
    delassus.factorize(to_sparse(a), masses);
  }
  Vector masses;
  Matrix a;
  DelassusFactorization delassus;
};

/// Ȧq̇ of the four rows: rows 0–2 arbitrary, row 3 the same combination of rows 0 and 1 (as the geometry
/// of a dependent contact gives it) plus `mismatch`.
Vector convective_term(RandomSystems& rng, double mismatch) {
  Vector adot_qd(4);
  adot_qd.head(3) = rng.vector(3);
  adot_qd(3) = 0.6 * adot_qd(0) - 1.1 * adot_qd(1) + mismatch;
  return adot_qd;
}

TEST(SparsePath, ADroppedRowTheDenseRuleKeepsIsTrustedWhenTheSolutionMeetsIt) {
  RandomSystems rng(1127);
  for (int trial = 0; trial < 20; ++trial) {
    const NearlyDependentRows system(rng, 1e-13);
    // The situation: row 3 dropped, farther from the span than the dense rule's threshold, kept rows sound.
    ASSERT_EQ(system.delassus.dependent_rows(), std::vector<int>{3}) << "trial " << trial;
    ASSERT_GT(system.delassus.largest_dropped_distance(), 0.25 * system.delassus.dense_rank_threshold());
    ASSERT_FALSE(sparse_solve_accurate(system.delassus));
    ASSERT_GE(system.delassus.smallest_pivot_ratio(), kSparseSolveMinPivotRatio);
    const Vector h = rng.vector(9), u = rng.vector(9), adot_qd = convective_term(rng, 0.0);
    const SparseDynamics sparse = constrained_dynamics_sparse(system.delassus, h, u, adot_qd);
    EXPECT_TRUE(sparse_solution_meets_rows(system.delassus, sparse.qdd, -adot_qd,
                                           sparse.qdd.cwiseAbs().maxCoeff() + sparse.qdd_free.cwiseAbs().maxCoeff()));
    // The motion is that of the three independent rows: a dependent row adds no constraint. The dense
    // projection of rows 0–2 gives the same q̈ and f = Aᵀλ to round-off.
    const Matrix independent = system.a.topRows(3);
    const ConstrainedDynamics dense =
        constrained_dynamics(Projection(Matrix(system.masses.asDiagonal()), independent), h, u, adot_qd.head(3));
    EXPECT_LT(rel_gap(sparse.qdd, dense.qdd, 0.0), 1e-12) << "trial " << trial;
    EXPECT_LT(rel_gap(sparse.force, dense.force, (u - h).norm()), 1e-12);
    // (I − S)q̇: onto the null space of the three, which row 3 meets too.
    const Vector qd = rng.vector(9);
    const Vector projected = project_velocity_sparse(system.delassus, qd);
    EXPECT_TRUE(sparse_solution_meets_rows(system.delassus, projected, Vector::Zero(4), qd.cwiseAbs().maxCoeff()));
    const Projection independent_projection(Matrix(system.masses.asDiagonal()), independent);
    EXPECT_LT(rel_gap(projected, qd - independent_projection.oblique_projector() * qd, 0.0), 1e-12);
  }
}

TEST(SparsePath, ADroppedRowTheSolutionMissesIsNotTrusted) {
  // Row 3's own Ȧq̇ off by 1e-3 from the combination of the others': no motion meets it and rows 0–2 (the
  // dense path keeps it and its multiplier takes the difference); the sparse solution misses it by some
  // 1e-4, far beyond 1e-10 of the row's size (|row|₁ times |q̈| + |q̈*|, up to 1e4 here: a body's
  // inertia of 0.005 turns the random forces into angular accelerations of hundreds), so the dense path
  // solves.
  RandomSystems rng(1128);
  for (int trial = 0; trial < 20; ++trial) {
    const NearlyDependentRows system(rng, 1e-13);
    ASSERT_FALSE(sparse_solve_accurate(system.delassus));
    const Vector h = rng.vector(9), u = rng.vector(9), adot_qd = convective_term(rng, 1e-3);
    const SparseDynamics sparse = constrained_dynamics_sparse(system.delassus, h, u, adot_qd);
    EXPECT_FALSE(sparse_solution_meets_rows(system.delassus, sparse.qdd, -adot_qd,
                                            sparse.qdd.cwiseAbs().maxCoeff() + sparse.qdd_free.cwiseAbs().maxCoeff()))
        << "trial " << trial;
  }
}

TEST(SparsePath, IllConditionedKeptRowsAreNeverTrusted) {
  // Row 3 1e-6 of its length from dependent: kept (more than the factorisation's 1e-10), with a pivot
  // ratio of about 1e-12, below kSparseSolveMinPivotRatio: the dense path solves, whatever the residual.
  RandomSystems rng(1129);
  const NearlyDependentRows system(rng, 1e-6);
  ASSERT_TRUE(system.delassus.dependent_rows().empty());
  ASSERT_LT(system.delassus.smallest_pivot_ratio(), kSparseSolveMinPivotRatio);
  const Vector h = rng.vector(9), u = rng.vector(9), adot_qd = convective_term(rng, 0.0);
  const SparseDynamics sparse = constrained_dynamics_sparse(system.delassus, h, u, adot_qd);
  EXPECT_FALSE(sparse_solution_meets_rows(system.delassus, sparse.qdd, -adot_qd,
                                          sparse.qdd.cwiseAbs().maxCoeff() + sparse.qdd_free.cwiseAbs().maxCoeff()));
}

TEST(SparsePath, ANonFiniteSolutionIsNotTrusted) {
  RandomSystems rng(1130);
  const NearlyDependentRows system(rng, 0.0);
  Vector x = Vector::Zero(9);
  x(4) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(sparse_solution_meets_rows(system.delassus, x, Vector::Zero(4), 1.0));
}

}  // namespace
}  // namespace oblique
