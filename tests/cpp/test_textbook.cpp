// Closed-form textbook impacts, each solved by hand in the comments and by the projection method.
#include <gtest/gtest.h>

#include <cmath>

#include <Eigen/LU>

#include "oblique/math/impact.hpp"
#include "vectors.hpp"

namespace oblique {
namespace {

using testing::expect_vector_near;
using testing::vec;

TEST(Textbook, TwoParticlesOnALine) {
  // Masses m1 = 1, m2 = 2, velocities 3 and −1, e = 0.8. With the reduced mass μ = m1m2/(m1 + m2) the
  // impulse is j = (1 + e)μ(v1 − v2) and v1⁺ = v1 − j/m1, v2⁺ = v2 + j/m2.
  const double m1 = 1, m2 = 2, v1 = 3, v2 = -1, e = 0.8;
  const double mu = m1 * m2 / (m1 + m2);
  const double j = (1 + e) * mu * (v1 - v2);
  Matrix m(2, 2);
  m << m1, 0, 0, m2;
  Matrix a(1, 2);
  a << -1, 1;
  const ImpactResult r = solve_impact(Projection(m, a), vec({v1, v2}), Restitution::uniform(e));
  expect_vector_near(r.qd_plus, vec({v1 - j / m1, v2 + j / m2}), 1e-12);
  expect_vector_near(r.qd_plus, vec({-1.8, 1.4}), 1e-12);
  expect_vector_near(r.impulse, vec({-j, j}), 1e-12);
  expect_vector_near(r.impulse, vec({-4.8, 4.8}), 1e-12);
  // γ = 1 − (1 − e²)·½μ(v1 − v2)² / K⁻.
  const double k_minus = 0.5 * (m1 * v1 * v1 + m2 * v2 * v2);
  EXPECT_NEAR(r.energy_ratio, 1 - (1 - e * e) * 0.5 * mu * (v1 - v2) * (v1 - v2) / k_minus, 1e-12);
  EXPECT_NEAR(r.energy_ratio, 0.650909, 1e-6);
}

/// Three equal unit balls touching in a row; contacts (1,2) and (2,3) impact simultaneously.
ImpactResult three_ball_chain(double e) {
  const Matrix m = Matrix::Identity(3, 3);
  Matrix a(2, 3);
  a << -1, 1, 0, 0, -1, 1;
  return solve_impact(Projection(m, a), vec({1, 0, 0}), Restitution::uniform(e));
}

TEST(Textbook, ThreeBallChainSimultaneousImpact) {
  // A q̇⁺ = −e A q̇⁻ gives v2 − v1 = e, v3 − v2 = 0; with momentum v1 + v2 + v3 = 1:
  // v1 = (1 − 2e)/3, v2 = v3 = (1 + e)/3; i_λ = (v2 + v3, v3) = (2(1 + e)/3, (1 + e)/3).
  for (double e : {0.0, 0.5, 0.9, 1.0}) {
    const ImpactResult r = three_ball_chain(e);
    expect_vector_near(r.qd_plus, vec({(1 - 2 * e) / 3, (1 + e) / 3, (1 + e) / 3}), 1e-12);
    expect_vector_near(r.impulse_multipliers, vec({2 * (1 + e) / 3, (1 + e) / 3}), 1e-12);
    const Vector v = r.qd_plus;
    EXPECT_NEAR(r.energy_ratio, v.squaredNorm(), 1e-12);
  }
  const ImpactResult r = three_ball_chain(0.9);
  expect_vector_near(r.qd_plus, vec({-0.266667, 0.633333, 0.633333}), 1e-6);
  expect_vector_near(r.impulse_multipliers, vec({1.26667, 0.633333}), 1e-5);
  EXPECT_NEAR(r.energy_ratio, 0.873333, 1e-6);
  // e = 1 conserves energy but shares it out, unlike a real Newton's cradle.
  const ImpactResult elastic = three_ball_chain(1.0);
  expect_vector_near(elastic.qd_plus, vec({-1.0 / 3, 2.0 / 3, 2.0 / 3}), 1e-12);
  EXPECT_NEAR(elastic.energy_ratio, 1.0, 1e-12);
}

TEST(Textbook, FiveBallCradleTouchingElastic) {
  // Same law for 5 balls: v1 = (1 − 4e)/5, the others (1 + e)/5; e = 1 gives (−0.6, 0.4, 0.4, 0.4, 0.4).
  const Matrix m = Matrix::Identity(5, 5);
  Matrix a = Matrix::Zero(4, 5);
  for (int i = 0; i < 4; ++i) {
    a(i, i) = -1;
    a(i, i + 1) = 1;
  }
  const ImpactResult r = solve_impact(Projection(m, a), vec({1, 0, 0, 0, 0}), Restitution::uniform(1.0));
  expect_vector_near(r.qd_plus, vec({-0.6, 0.4, 0.4, 0.4, 0.4}), 1e-12);
  EXPECT_NEAR(r.energy_ratio, 1.0, 1e-12);
}

/// Uniform rod (mass 1, length L = 1, I = 1/12) with q = (x, y, φ), tilted by `tilt`.
Matrix rod_inertia() {
  Matrix m = Matrix::Identity(3, 3);
  m(2, 2) = 1.0 / 12.0;
  return m;
}

TEST(Textbook, TiltedRodHitsGroundOnOneEnd) {
  // Lower end at (x − ½cos φ, y − ½sin φ): φ̇ = ẏ − ½cos φ·φ̇. Effective mass 1/m_eff = 1/m + d²/I with
  // d = ½cos 30°; impulse j = (1 + e)·m_eff·1 upward, ẏ⁺ = −1 + j/m, φ̇⁺ = −d·j/I.
  const double tilt = M_PI / 6, e = 0.5, d = 0.5 * std::cos(tilt), inertia = 1.0 / 12.0;
  Matrix a(1, 3);
  a << 0, 1, -d;
  const ImpactResult r = solve_impact(Projection(rod_inertia(), a), vec({0, -1, 0}), Restitution::uniform(e));
  const double j = (1 + e) / (1.0 + d * d / inertia);
  expect_vector_near(r.qd_plus, vec({0, -1 + j, -d * j / inertia}), 1e-12);
  expect_vector_near(r.qd_plus, vec({0, -0.538462, -2.39822}), 1e-5);
  EXPECT_NEAR(r.energy_ratio, 0.769231, 1e-6);
  EXPECT_NEAR(r.impulse_multipliers(0), j, 1e-12);
}

TEST(Textbook, FlatRodOnThreeContactsIsRankDeficientButSolved) {
  // Flat rod touching at s = −½, 0, ½: rows (0, 1, s). A has rank 2 and AM⁻¹Aᵀ is singular.
  Matrix a(3, 3);
  a << 0, 1, -0.5, 0, 1, 0, 0, 1, 0.5;
  const Matrix m = rod_inertia();
  const Vector qd = vec({0.2, -1, 0.5});
  const double e = 0.5;
  // The classical formula needs (AM⁻¹Aᵀ)⁻¹, which does not exist.
  const Matrix schur = a * m.inverse() * a.transpose();
  Eigen::FullPivLU<Matrix> lu(schur);
  EXPECT_EQ(lu.rank(), 2);
  EXPECT_FALSE(lu.isInvertible());
  // The projection answer exists; ẏ and φ̇ are fully constrained: ẏ⁺ = −eẏ⁻, φ̇⁺ = −eφ̇⁻, ẋ unchanged.
  const Projection proj(m, a);
  EXPECT_EQ(proj.rank(), 2);
  const ImpactResult r = solve_impact(proj, qd, Restitution::uniform(e));
  expect_vector_near(r.qd_plus, vec({0.2, 0.5, -0.25}), 1e-12);
  // Unique: the same as with the two end contacts only (same null space), and for every ν.
  Matrix ends(2, 3);
  ends << 0, 1, -0.5, 0, 1, 0.5;
  expect_vector_near(solve_impact(Projection(m, ends), qd, Restitution::uniform(e)).qd_plus, r.qd_plus, 1e-12);
  for (double nu : {0.01, 1.0, 100.0}) {
    expect_vector_near(solve_impact(Projection(m, a, nu), qd, Restitution::uniform(e)).qd_plus, r.qd_plus, 1e-10);
  }
  // The minimum-norm multipliers reproduce the impulse.
  expect_vector_near(a.transpose() * r.impulse_multipliers, r.impulse, 1e-12);
}

TEST(Textbook, SeparatingRowInTheImpactSetIsFlagged) {
  // Three balls with the third moving away: including its contact in the impact is not physical. With a
  // global e the law forces A q̇⁺ = −eAq̇⁻, so the separating row is pulled back: approach and tension.
  const Matrix m = Matrix::Identity(3, 3);
  Matrix a(2, 3);
  a << -1, 1, 0, 0, -1, 1;
  const ImpactResult r = solve_impact(Projection(m, a), vec({1, 0, 1}), Restitution::uniform(0.5));
  EXPECT_EQ(r.flags.approach_after_impact, std::vector<int>{1});
  EXPECT_EQ(r.flags.tensile_impulse, std::vector<int>{1});
  EXPECT_FALSE(r.flags.energy_gain);
  // Marked bilateral, the same row raises no flag.
  const ImpactResult bilateral =
      solve_impact(Projection(m, a), vec({1, 0, 1}), Restitution::uniform(0.5), Vector(), {true, false});
  EXPECT_TRUE(bilateral.flags.approach_after_impact.empty());
  EXPECT_TRUE(bilateral.flags.tensile_impulse.empty());
}

TEST(Textbook, RankDeficientUnequalCoefficientsReportNewtonResidual) {
  // Flat rod on three contacts with e = (1, 0, 1): the middle row is a combination of the other two, so
  // the law can hold only in the least-squares sense; the residual says by how much.
  Matrix a(3, 3);
  a << 0, 1, -0.5, 0, 1, 0, 0, 1, 0.5;
  const Projection proj(rod_inertia(), a);
  const ImpactResult r = solve_impact(proj, vec({0, -1, 0}), Restitution::rows(vec({1, 0, 1})));
  EXPECT_GT(r.newton_residual, 0.1);
  // The least-squares form A q̇⁺ = −AA⁺EAq̇⁻ holds exactly.
  const Vector lsq = -(a * proj.jacobian_pinv()) * vec({1, 0, 1}).cwiseProduct(a * vec({0, -1, 0}));
  expect_vector_near(a * r.qd_plus, lsq, 1e-12);
}

}  // namespace
}  // namespace oblique
