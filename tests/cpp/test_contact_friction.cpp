// The smooth dynamics with sliding friction (contact_friction.hpp) against the paper's frictionless q̈ and
// against the closed form of a rod sliding on its end: the normal force λ_n = r / W with
// W = n M⁻¹ (n − μ s t)ᵀ, and Painlevé's paradox exactly where W changes sign.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "oblique/friction/contact_friction.hpp"
#include "oblique/math/dynamics.hpp"
#include "oblique/math/projection.hpp"
#include "oblique/math/trigonometry.hpp"

namespace oblique {
namespace {


/// The rod of docs/friction.md: m = 2, half-length h = ½, I = m h²/3, tilted φ = 30°, its lower end on the
/// floor: n = (0, 1, −h c), t = (1, 0, h s).
struct Rod {
  double m = 2.0, h = 0.5, c = std::cos(kPi / 6.0), s = std::sin(kPi / 6.0);
  Vector mass() const { return (Vector(3) << m, m, m * h * h / 3.0).finished(); }
  Matrix n() const { return (Matrix(1, 3) << 0.0, 1.0, -h * c).finished(); }
  Matrix t() const { return (Matrix(1, 3) << 1.0, 0.0, h * s).finished(); }
};

TEST(ContactFriction, WithMuZeroItIsThePapersConstrainedDynamics) {
  const Rod rod;
  const Vector mass = rod.mass();
  Matrix a(2, 3);
  a << rod.n(), (Matrix(1, 3) << 1.0, 0.3, 0.2).finished();
  const Vector adot_qd = (Vector(2) << 0.4, -0.1).finished();
  const Vector h = (Vector(3) << 0.0, 19.62, 0.0).finished(), u = (Vector(3) << 1.0, 0.0, 0.5).finished();
  const Vector free = mass.cwiseInverse().cwiseProduct(u - h);
  const Projection projection(Inertia(Matrix(mass.asDiagonal())), a);
  const ConstrainedDynamics paper = constrained_dynamics(projection, h, u, adot_qd);
  const SlidingDynamics sliding = sliding_friction_dynamics(mass, a, rod.t(), {{0, 0, 0.0, 1}}, adot_qd, free);
  EXPECT_LT((sliding.dynamics.qdd - paper.qdd).norm(), 1e-13 * paper.qdd.norm());
  EXPECT_LT((sliding.dynamics.multipliers - paper.multipliers).norm(), 1e-13 * paper.multipliers.norm());
  EXPECT_FALSE(sliding.painleve);
}

TEST(ContactFriction, RodSlidingOnItsEndHasTheClosedFormNormalForceAndPainleveWhereWChangesSign) {
  // At rest in rotation (ω = 0, so Ȧq̇ = 0) under gravity: r = −A q̈* = g, and with s = −1 (sliding toward
  // −t) W = (1 + 3c²)/m − μ (3cs/m) vanishes at μ* = (1 + 3c²)/(3cs) ≈ 2.502.
  const Rod rod;
  const double g = 9.81;
  const Vector free = (Vector(3) << 0.0, -g, 0.0).finished();
  const double mu_star = (1.0 + 3.0 * rod.c * rod.c) / (3.0 * rod.c * rod.s);
  for (double mu : {0.0, 0.5, 2.4, 2.6, 4.0}) {
    SCOPED_TRACE(mu);
    const SlidingDynamics d =
        sliding_friction_dynamics(rod.mass(), rod.n(), rod.t(), {{0, 0, mu, -1}}, Vector::Zero(1), free);
    const double w = (1.0 + 3.0 * rod.c * rod.c) / rod.m - mu * 3.0 * rod.c * rod.s / rod.m;
    EXPECT_NEAR(d.dynamics.multipliers(0), g / w, 1e-12 * std::abs(g / w));
    EXPECT_EQ(d.painleve, mu > mu_star);
    // The friction force is −μ s λ_n along t: the generalized force is (n − μ s t)ᵀ λ_n.
    const Vector force = (rod.n() + mu * rod.t()).transpose() * d.dynamics.multipliers;
    EXPECT_LT((d.dynamics.force - force).norm(), 1e-12 * force.norm());
  }
  // Sliding the other way (s = +1) the friction only adds to W: never Painlevé.
  EXPECT_FALSE(sliding_friction_dynamics(rod.mass(), rod.n(), rod.t(), {{0, 0, 10.0, 1}}, Vector::Zero(1), free).painleve);
}

TEST(ContactFriction, ManySlidingPointsOfAWellPosedProblemAreNoPainleveStateAndADependentOneIs) {
  // k + 1 unit masses on a line, k sliding points between neighbours (rows e_{j+1} − e_j, μ = 0): W is the
  // tridiagonal (2, −1) matrix, positive definite — each leading minor det W_i = i + 1 — so no Painlevé state
  // however many points, although the minors relative to the product of the diagonal, (i + 1)/2^i, fall
  // below any round-off bound (5e-11 at 40 points). Each pivot, (i + 1)/i, stands at half its diagonal or
  // more. A point whose row repeats another's makes W singular: its pivot is round-off, a Painlevé state.
  const int k = 40;
  const Vector mass = Vector::Ones(k + 1);
  Matrix a = Matrix::Zero(k, k + 1);
  std::vector<SlidingContact> sliding;
  for (int j = 0; j < k; ++j) {
    a(j, j) = -1.0;
    a(j, j + 1) = 1.0;
    sliding.push_back({j, j, 0.0, 1});
  }
  const Vector free = Vector::LinSpaced(k + 1, -1.0, 1.0);
  const SlidingDynamics d = sliding_friction_dynamics(mass, a, Matrix::Zero(k, k + 1), sliding, Vector::Zero(k), free);
  EXPECT_FALSE(d.painleve);
  EXPECT_NEAR(d.painleve_margin, 0.5 * 41.0 / 40.0, 1e-12);
  // A q̈ = 0: every gap keeps its rate.
  EXPECT_LT((a * d.dynamics.qdd).norm(), 1e-12);

  Matrix repeated(k + 1, k + 1);
  repeated << a, a.row(3);
  sliding.push_back({k, k, 0.0, 1});
  const SlidingDynamics dependent =
      sliding_friction_dynamics(mass, repeated, Matrix::Zero(k + 1, k + 1), sliding, Vector::Zero(k + 1), free);
  EXPECT_TRUE(dependent.painleve);
  EXPECT_LT(std::abs(dependent.painleve_margin), 1e-9);
}

TEST(ContactFriction, SlideCodesAreTheSignOfTheSlipBeyondItsTolerance) {
  EXPECT_EQ(slide_code(1e-6, 1e-9), kSlidesForward);
  EXPECT_EQ(slide_code(-1e-6, 1e-9), kSlidesBackward);
  EXPECT_EQ(slide_code(1e-10, 1e-9), 0);
  EXPECT_EQ(slide_direction(kSlidesForward), 1);
  EXPECT_EQ(slide_direction(kSlidesBackward), -1);
  EXPECT_EQ(slide_direction(0), 0);
}

}  // namespace
}  // namespace oblique
