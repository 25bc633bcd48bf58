// The misprints of the paper that Oblique corrects (docs/paper-notes.md lists them by printed equation
// number). Each test shows, on random systems, that the printed formula fails and that the corrected one,
// which the code uses, holds — so a reader can check every deviation from the printed text.
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>

#include "oblique/math/impact.hpp"
#include "oblique/math/projection.hpp"
#include "random_systems.hpp"

namespace oblique {
namespace {

using testing::RandomSystems;

double relative(const Matrix& x, const Matrix& reference) {
  return (x - reference).norm() / std::max(1.0, reference.norm());
}

/// A random system: M (SPD), A of full row rank with 1 ≤ m < n, its projections.
struct System {
  Matrix inertia, jacobian;
  Projection projection;
  Matrix constraint_inertia_inverse;  // Mc⁻¹
};

System random_system(RandomSystems& rng) {
  const int n = rng.integer(4, 8);
  Matrix m = rng.inertia(n);
  Matrix a = rng.matrix(rng.integer(1, n - 1), n);
  Projection proj(m, a);
  const int size = proj.n();
  Matrix mc_inverse = proj.constraint_inertia().llt().solve(Matrix::Identity(size, size));
  return System{std::move(m), std::move(a), std::move(proj), std::move(mc_inverse)};
}

// Eq. (6) and Appendix A: q̈⊥ = Ωq̇ with Ω = Λᵀ − Λ, Λ = −A⁺ȦP. Differentiating Aq̇ = 0 gives
// (I − P)q̈ = −A⁺Ȧq̇ = Λq̇ on the manifold; the printed Ω gives the opposite sign.
TEST(PaperErrata, Eq6_OmegaHasTheWrongSign_NormalAccelerationIsLambdaQd) {
  RandomSystems rng(9001);
  for (int trial = 0; trial < 20; ++trial) {
    const System s = random_system(rng);
    const int n = s.projection.n();
    const Matrix& pinv = s.projection.jacobian_pinv();
    const Matrix& p = s.projection.null_projector();
    const Matrix adot = rng.matrix(static_cast<int>(s.jacobian.rows()), n);
    const Vector qd = p * rng.vector(n);  // admissible: Aq̇ = 0
    // Any q̈ with Aq̈ + Ȧq̇ = 0 has the same N⊥ part: take the minimum-norm one.
    const Vector qdd = -pinv * (adot * qd);
    const Vector normal_part = (Matrix::Identity(n, n) - p) * qdd;
    const Matrix lambda = -pinv * adot * p;
    const Matrix printed_omega = lambda.transpose() - lambda;
    EXPECT_LT(relative(lambda * qd, normal_part), 1e-10);
    EXPECT_LT(relative(printed_omega * qd, -normal_part), 1e-10);
    EXPECT_GT((printed_omega * qd - normal_part).norm(), 0.5 * normal_part.norm());
  }
}

// Eq. (12), first line: q̈ = −Mc⁻¹P(u − h) + …; the second line, Mc⁻¹P(u − h) + …, is right. At q̇ = 0 the
// constrained acceleration must satisfy the projected dynamics PMq̈ = P(u − h).
TEST(PaperErrata, Eq12_FirstLineHasTheWrongSignOfTheForceTerm) {
  RandomSystems rng(9002);
  for (int trial = 0; trial < 20; ++trial) {
    const System s = random_system(rng);
    const int n = s.projection.n();
    const Matrix& p = s.projection.null_projector();
    const Vector force = rng.vector(n);  // u − h
    const Vector printed = -s.constraint_inertia_inverse * p * force;
    const Vector corrected = s.constraint_inertia_inverse * p * force;
    EXPECT_LT(relative(p * s.inertia * corrected, p * force), 1e-10);
    EXPECT_GT((p * s.inertia * printed - p * force).norm(), 0.5 * (p * force).norm());
    // The corrected line is (I − S)q̈* (eq. 13).
    const Vector free = s.projection.solve_inertia(force);
    const Matrix identity = Matrix::Identity(n, n);
    EXPECT_LT(relative(corrected, (identity - s.projection.oblique_projector()) * free), 1e-10);
  }
}

// Eq. (9d) and Appendix B: "MMc⁻¹ = P", derived from "McP = M". In fact McP = PMP (eq. 9b), and
// MMc⁻¹ ≠ P in general; what the derivation of S² = S needs is PMMc⁻¹P = P, which holds.
TEST(PaperErrata, Eq9d_MMcInverseIsNotP_ButPMMcInverseP_Is) {
  RandomSystems rng(9003);
  for (int trial = 0; trial < 20; ++trial) {
    const System s = random_system(rng);
    const Matrix& p = s.projection.null_projector();
    const Matrix& mc = s.projection.constraint_inertia();
    EXPECT_GT(relative(s.inertia * s.constraint_inertia_inverse, p), 1e-3);
    EXPECT_GT(relative(mc * p, s.inertia), 1e-3);
    EXPECT_LT(relative(mc * p, p * s.inertia * p), 1e-10);
    EXPECT_LT(relative(p * s.inertia * s.constraint_inertia_inverse * p, p), 1e-10);
  }
}

// The line before eq. (27): Mcq̇⁺ = (e + 1)PMq̇⁻ − eMcq̇⁻ + Mc⁻¹P i_u. Adding ν times eq. (24) to eq. (25)
// gives P i_u as the last term, not Mc⁻¹P i_u; only P i_u leads to eq. (27), which the code implements.
TEST(PaperErrata, LineBeforeEq27_ExternalImpulseEntersAsP_iu) {
  RandomSystems rng(9004);
  for (int trial = 0; trial < 20; ++trial) {
    const System s = random_system(rng);
    const int n = s.projection.n();
    const Matrix& p = s.projection.null_projector();
    const Matrix& mc = s.projection.constraint_inertia();
    const double e = rng.uniform(0.0, 1.0);
    const Vector qd = rng.vector(n), impulse = rng.vector(n);
    const ImpactResult result = solve_impact(s.projection, qd, Restitution::uniform(e), impulse);
    const Vector common = (e + 1.0) * p * s.inertia * qd - e * mc * qd;
    const Vector corrected = s.constraint_inertia_inverse * (common + p * impulse);
    const Vector printed = s.constraint_inertia_inverse * (common + s.constraint_inertia_inverse * p * impulse);
    EXPECT_LT(relative(corrected, result.qd_plus), 1e-10);
    EXPECT_GT((printed - result.qd_plus).norm(), 1e-3 * result.qd_plus.norm());
  }
}

// After eq. (34): M − SᵀMS = MPMc⁻¹PM is printed "⪯ 0"; it is positive semi-definite (the text says so, and
// eq. 33b needs it): γ ≤ 1 rests on it.
TEST(PaperErrata, AfterEq34_MMinusSMSIsPositiveSemidefinite) {
  RandomSystems rng(9005);
  for (int trial = 0; trial < 20; ++trial) {
    const System s = random_system(rng);
    const Matrix& p = s.projection.null_projector();
    const Matrix& sm = s.projection.oblique_projector();
    const Matrix difference = s.inertia - sm.transpose() * s.inertia * sm;
    EXPECT_LT(relative(difference, s.inertia * p * s.constraint_inertia_inverse * p * s.inertia), 1e-10);
    const Eigen::SelfAdjointEigenSolver<Matrix> eig(symmetric_part(difference));
    EXPECT_GT(eig.eigenvalues().minCoeff(), -1e-10 * s.inertia.norm());
    EXPECT_GT(eig.eigenvalues().maxCoeff(), 1e-6 * s.inertia.norm());  // not ⪯ 0
  }
}

}  // namespace
}  // namespace oblique
