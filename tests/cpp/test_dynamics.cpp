// The acceleration model (§2): constraint satisfaction, force balance, Udwadia–Kalaba, and a particle on a
// circle whose acceleration must point to the centre.
#include <gtest/gtest.h>

#include <cmath>

#include <Eigen/Eigenvalues>

#include "oblique/math/dynamics.hpp"
#include "random_systems.hpp"
#include "comparisons.hpp"

namespace oblique {
namespace {

using testing::JacobianKind;
using testing::RandomSystems;

using testing::rel_gap;

/// Udwadia–Kalaba: q̈ = a + M^{-1/2}(AM^{-1/2})⁺(b − Aa), a = M⁻¹(u − h), b = −Ȧq̇.
Vector udwadia_kalaba(const Matrix& m, const Matrix& a, const Vector& h, const Vector& u, const Vector& adot_qd) {
  Eigen::SelfAdjointEigenSolver<Matrix> eig(m);
  const Matrix m_inv_sqrt = eig.operatorInverseSqrt();
  const Vector free = m.ldlt().solve(u - h);
  if (a.rows() == 0) return free;
  return free + m_inv_sqrt * pseudo_inverse(a * m_inv_sqrt).pinv * (-adot_qd - a * free);
}

class DynamicsKinds : public ::testing::TestWithParam<JacobianKind> {};

TEST_P(DynamicsKinds, AccelerationSatisfiesConstraintsAndForceBalance) {
  RandomSystems rng(606 + static_cast<int>(GetParam()));
  for (int trial = 0; trial < 30; ++trial) {
    const int n = rng.integer(4, 9);
    const Matrix m = rng.inertia(n);
    const Matrix a = rng.jacobian(GetParam(), n);
    const Vector h = rng.vector(n), u = rng.vector(n);
    // A consistent convective term lies in range(A).
    const Vector adot_qd = a * rng.vector(n);
    const Projection proj(m, a);
    const ConstrainedDynamics d = constrained_dynamics(proj, h, u, adot_qd);
    // A q̈ + Ȧq̇ = 0.
    if (a.rows() > 0) EXPECT_LT(rel_gap(a * d.qdd, -adot_qd), 1e-9);
    // M q̈ + h = u + f and f = Aᵀλ.
    EXPECT_LT(rel_gap(m * d.qdd + h, u + d.force), 1e-10);
    if (a.rows() > 0) EXPECT_LT(rel_gap(a.transpose() * d.multipliers, d.force), 1e-9);
    // The constraint force does no work on admissible velocities: P f = 0.
    EXPECT_LT(rel_gap(proj.null_projector() * d.force, Vector::Zero(n)), 1e-10);
    // Udwadia–Kalaba gives the same acceleration.
    EXPECT_LT(rel_gap(d.qdd, udwadia_kalaba(m, a, h, u, adot_qd)), 1e-9);
    // The split q̈ = (I − S)q̈* + Sq̈⊥ with (I − P)q̈ = q̈⊥.
    EXPECT_LT(rel_gap((Matrix::Identity(n, n) - proj.null_projector()) * d.qdd, d.qdd_normal), 1e-9);
  }
}

INSTANTIATE_TEST_SUITE_P(AllJacobianKinds, DynamicsKinds, ::testing::ValuesIn(testing::all_jacobian_kinds()),
                         [](const auto& info) { return std::string(testing::name(info.param)); });

TEST(Dynamics, ParticleOnACircleAcceleratesTowardTheCentre) {
  // φ = ½(x² + y² − r²): A = (x, y), Ȧq̇ = ẋ² + ẏ². No force: |q̈| = v²/r toward the centre.
  const double r = 2.0, angle = 0.7, speed = 3.0;
  const Vector q = Eigen::Vector2d(r * std::cos(angle), r * std::sin(angle));
  const Vector qd = Eigen::Vector2d(-speed * std::sin(angle), speed * std::cos(angle));
  Matrix a(1, 2);
  a << q(0), q(1);
  const Vector adot_qd = Vector::Constant(1, qd.squaredNorm());
  const Matrix m = 1.5 * Matrix::Identity(2, 2);
  const ConstrainedDynamics d = constrained_dynamics(Projection(m, a), Vector::Zero(2), Vector::Zero(2), adot_qd);
  const Vector expected = -(speed * speed / r) * q / r;
  EXPECT_NEAR(d.qdd(0), expected(0), 1e-12);
  EXPECT_NEAR(d.qdd(1), expected(1), 1e-12);
  // The force is the centripetal one, m v²/r inward: λ = −m v²/r² with these units.
  EXPECT_NEAR(d.force.norm(), 1.5 * speed * speed / r, 1e-12);
}

TEST(Dynamics, PendulumTensionBalancesGravityAndCentripetalForce) {
  // Point mass hanging at angle θ from the vertical on a rod of length l, speed v, gravity g:
  // tension T = m(g cos θ + v²/l); tangential acceleration −g sin θ.
  const double mass = 2.0, l = 1.5, g = 9.81, theta = 0.4, v = 1.2;
  const Vector q = Eigen::Vector2d(l * std::sin(theta), -l * std::cos(theta));
  const Vector qd = Eigen::Vector2d(v * std::cos(theta), v * std::sin(theta));
  Matrix a(1, 2);
  a << q(0), q(1);
  const Vector h = Eigen::Vector2d(0, mass * g);  // gravity in h (M q̈ + h = u + f)
  const ConstrainedDynamics d = constrained_dynamics(Projection(mass * Matrix::Identity(2, 2), a), h,
                                                     Vector::Zero(2), Vector::Constant(1, qd.squaredNorm()));
  EXPECT_NEAR(d.force.norm(), mass * (g * std::cos(theta) + v * v / l), 1e-12);
  const Vector tangent = qd / v;
  EXPECT_NEAR(d.qdd.dot(tangent), -g * std::sin(theta), 1e-12);
}

TEST(DynamicsInput, NamesTheBadField) {
  const Projection proj(Matrix::Identity(2, 2), Matrix::Ones(1, 2));
  auto message = [&](const Vector& h, const Vector& u, const Vector& c) {
    try {
      constrained_dynamics(proj, h, u, c);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(message(Vector::Zero(3), Vector::Zero(2), Vector::Zero(1)), "h: must have 2 entries (the size of M), got 3");
  EXPECT_EQ(message(Vector::Zero(2), Vector::Zero(2), Vector::Zero(2)), "adot_qd: must have 1 entries (the rows of A), got 2");
  Vector bad = Vector::Zero(2);
  bad(0) = NAN;
  EXPECT_EQ(message(Vector::Zero(2), bad, Vector::Zero(1)), "u[0]: must be a finite number");
}

}  // namespace
}  // namespace oblique
