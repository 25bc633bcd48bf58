// The sparse path (sparse_dynamics.hpp) against the dense projections it replaces in the simulator: the
// same q̈, f, λ, (I − S)q̇ and impact, to round-off, on random systems of every Jacobian kind and on the
// textbook cases; and the paper's identities for the S it implies (S = M⁻¹AᵀK⁺A, Q = K⁺).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include <Eigen/SVD>

#include "error_message.hpp"
#include "oblique/math/dynamics.hpp"
#include "oblique/sparse/sparse_dynamics.hpp"
#include "random_systems.hpp"
#include "comparisons.hpp"
#include "vectors.hpp"

namespace oblique {
namespace {

using testing::JacobianKind;
using testing::approaching_velocity;
using testing::RandomSystems;
using testing::random_masses;

using testing::rel_gap;

/// σ_max/σ_min≠0 of M^(−1/2)-scaled A: the condition of the problem (1 without rows). Round-off is
/// measured against ε times it.
double scaled_condition(const Vector& masses, const Matrix& a) {
  if (a.rows() == 0) return 1.0;
  const Vector s = Eigen::JacobiSVD<Matrix>(a * masses.cwiseSqrt().cwiseInverse().asDiagonal()).singularValues();
  double smallest = s(0);
  for (Eigen::Index i = 0; i < s.size(); ++i) {
    if (s(i) > 1e-12 * s(0)) smallest = s(i);
  }
  return s(0) > 0.0 ? s(0) / smallest : 1.0;
}

/// Round-off for a solve through K (condition κ²): 100 ε κ², and never below 1e-13.
double round_off(double kappa) { return std::max(1e-13, 100 * 2.220446049250313e-16 * kappa * kappa); }

/// The dense projection and the sparse factorisation of one (diag(masses), A).
struct Pair {
  Pair(const Vector& masses, const Matrix& a) : dense(Matrix(masses.asDiagonal()), a) { sparse.factorize(to_sparse(a), masses); }
  Projection dense;
  DelassusFactorization sparse;
};

/// The n×n oblique projector the sparse path implies, one column per basis vector: S e_j = M⁻¹AᵀK⁺Ae_j.
Matrix implied_oblique_projector(const DelassusFactorization& k) {
  const int n = k.cols();
  Matrix s(n, n);
  for (int j = 0; j < n; ++j) {
    const Vector unit = Vector::Unit(n, j);
    s.col(j) = unit - project_velocity_sparse(k, unit);
  }
  return s;
}

class SparseKinds : public ::testing::TestWithParam<JacobianKind> {};

TEST_P(SparseKinds, DynamicsAgreeWithTheDenseProjection) {
  RandomSystems rng(2600 + static_cast<int>(GetParam()));
  for (int trial = 0; trial < 30; ++trial) {
    const int n = rng.integer(4, 12);
    const Vector masses = random_masses(rng, n);
    const Matrix a = rng.jacobian(GetParam(), n);
    const Pair p(masses, a);
    const Vector h = rng.vector(n), u = rng.vector(n);
    // A consistent convective term (in range(A)), and on odd trials an arbitrary one (the dense path then
    // uses its projection AA⁺Ȧq̇, and so must the sparse one).
    const Vector adot_qd = trial % 2 == 0 ? Vector(a * rng.vector(n)) : rng.vector(static_cast<int>(a.rows()));
    const ConstrainedDynamics dense = constrained_dynamics(p.dense, h, u, adot_qd);
    const SparseDynamics sparse = constrained_dynamics_sparse(p.sparse, h, u, adot_qd);
    const double kappa = scaled_condition(masses, a), tol = round_off(kappa);
    // Round-off relative to the forces at play: |u − h| and |M q̈|.
    const double force_scale = std::max((u - h).norm(), Matrix(masses.asDiagonal() * dense.qdd).norm());
    EXPECT_LT(rel_gap(sparse.qdd, dense.qdd), tol) << "trial " << trial << ", κ = " << kappa;
    EXPECT_LT(rel_gap(sparse.force, dense.force, force_scale), tol);
    // The multipliers of redundant rows are the minimum-norm ones, through K⁺ of a singular K, whose
    // round-off also carries the rank decision: 10·tol (the wasm build's libc++ draws other systems, and
    // one reached 1.02·tol).
    EXPECT_LT(rel_gap(sparse.multipliers, dense.multipliers, force_scale), 10 * tol);
    EXPECT_LT(rel_gap(sparse.qdd_free, dense.qdd_free), 1e-15);
    // The law: M q̈ + h = u + f, A q̈ = −AA⁺Ȧq̇, f = Aᵀλ.
    EXPECT_LT(rel_gap(Vector(masses.cwiseProduct(sparse.qdd) + h), u + sparse.force, force_scale), 1e-14);
    if (a.rows() > 0) {
      EXPECT_LT(rel_gap(a * sparse.qdd, -(a * (p.dense.jacobian_pinv() * adot_qd)), a.norm() * sparse.qdd.norm()), tol);
      EXPECT_LT(rel_gap(Vector(a.transpose() * sparse.multipliers), sparse.force, force_scale), tol);
    }
    // Without multipliers the acceleration is the same to the bit.
    const SparseDynamics quick = constrained_dynamics_sparse(p.sparse, h, u, adot_qd, false);
    EXPECT_EQ(quick.qdd, sparse.qdd);
    EXPECT_EQ(quick.multipliers.size(), 0);
    // The velocity projection (I − S)q̇.
    const Vector qd = rng.vector(n);
    EXPECT_LT(rel_gap(project_velocity_sparse(p.sparse, qd), qd - p.dense.oblique_projector() * qd), tol);
  }
}

TEST_P(SparseKinds, ImpactsAgreeWithTheDenseProjection) {
  RandomSystems rng(3600 + static_cast<int>(GetParam()));
  for (int trial = 0; trial < 30; ++trial) {
    const int n = rng.integer(4, 12);
    const Vector masses = random_masses(rng, n);
    const Matrix a = rng.jacobian(GetParam(), n);
    const int m = static_cast<int>(a.rows());
    const Pair p(masses, a);
    const Vector qd = approaching_velocity(rng, a, n);
    const Vector iu = trial % 3 == 0 ? Vector(rng.vector(n)) : Vector();
    const double kappa = scaled_condition(masses, a), tol = round_off(kappa);
    // Global e, then unequal eᵢ (for a rank-deficient A: the paper's least-squares law, exactly).
    Vector per_row(m);
    for (int i = 0; i < m; ++i) per_row(i) = rng.uniform(0.0, 1.0);
    for (const Restitution& restitution : {Restitution::uniform(rng.uniform(0.0, 1.0)), Restitution::rows(per_row)}) {
      const ImpactResult dense = solve_impact(p.dense, qd, restitution, iu);
      const ImpactResult sparse = solve_impact_sparse(p.sparse, qd, restitution, iu);
      const double momentum = std::max(Vector(masses.cwiseProduct(qd)).norm(), iu.norm());
      EXPECT_LT(rel_gap(sparse.qd_plus, dense.qd_plus), tol) << "trial " << trial << ", κ = " << kappa;
      EXPECT_LT(rel_gap(sparse.impulse, dense.impulse, momentum), tol);
      EXPECT_LT(rel_gap(sparse.impulse_multipliers, dense.impulse_multipliers, momentum), 10 * tol);  // as λ above
      EXPECT_LT(rel_gap(sparse.normal_velocity_plus, dense.normal_velocity_plus, a.norm() * qd.norm()), tol);
      EXPECT_NEAR(sparse.kinetic_plus, dense.kinetic_plus, tol * dense.kinetic_minus);
      EXPECT_NEAR(sparse.kinetic_energy_change, dense.kinetic_energy_change, tol * dense.kinetic_minus);
      EXPECT_NEAR(sparse.constraint_work, dense.constraint_work, tol * dense.kinetic_minus);
      EXPECT_NEAR(sparse.energy_ratio, dense.energy_ratio, tol);
      EXPECT_NEAR(sparse.newton_residual, dense.newton_residual, tol);
      EXPECT_EQ(sparse.flags.tensile_impulse, dense.flags.tensile_impulse);
      EXPECT_EQ(sparse.flags.approach_after_impact, dense.flags.approach_after_impact);
      EXPECT_EQ(sparse.flags.energy_gain, dense.flags.energy_gain);
      // The law it obeys: momentum balance, and A q̇⁺ = −AA⁺EAq̇⁻ whatever the rank.
      EXPECT_LT(rel_gap(Vector(masses.cwiseProduct(sparse.qd_plus - qd)), sparse.impulse + dense.external_impulse,
                        momentum),
                1e-14);
      if (m > 0) {
        const Vector law = -(a * (p.dense.jacobian_pinv() * dense.restitution.cwiseProduct(a * qd)));
        EXPECT_LT(rel_gap(a * sparse.qd_plus, law, a.norm() * qd.norm()), tol);
      }
      // The dense-only outputs are left to the dense solve.
      EXPECT_EQ(sparse.consistency_matrix.size(), 0);
      EXPECT_TRUE(std::isnan(sparse.qmi_max_eig));
      EXPECT_FALSE(sparse.energy_consistent);
    }
  }
}

TEST_P(SparseKinds, ImpliedOperatorsSatisfyThePaperIdentities) {
  RandomSystems rng(4600 + static_cast<int>(GetParam()));
  for (int trial = 0; trial < 15; ++trial) {
    const int n = rng.integer(4, 10);
    const Vector masses = random_masses(rng, n);
    const Matrix a = rng.jacobian(GetParam(), n);
    const int m = static_cast<int>(a.rows());
    const Pair p(masses, a);
    const Matrix mass = masses.asDiagonal();
    const Matrix id = Matrix::Identity(n, n);
    // S = M⁻¹AᵀK⁺A is the paper's S (eq. 10), and obeys eqs. (11): S² = S, SP = 0, (I − P)S = I − P,
    // MS = SᵀM = SᵀMS, R² = I.
    const Matrix s = implied_oblique_projector(p.sparse);
    const Matrix& proj = p.dense.null_projector();
    const double kappa = scaled_condition(masses, a), tol = round_off(kappa);
    EXPECT_LT(rel_gap(s, p.dense.oblique_projector()), tol) << "κ = " << kappa;
    EXPECT_LT(rel_gap(s * s, s), tol);
    EXPECT_LT((s * proj).norm(), tol * std::max(1.0, s.norm()));
    EXPECT_LT(rel_gap((id - proj) * s, id - proj), tol);
    EXPECT_LT(rel_gap(mass * s, s.transpose() * mass, mass.norm()), tol);
    EXPECT_LT(rel_gap(s.transpose() * mass * s, mass * s, mass.norm()), tol);
    EXPECT_LT(rel_gap((id - 2 * s) * (id - 2 * s), id), 10 * tol);
    // Q = GᵀMG (G = SA⁺, eq. 54) is K⁺, column by column.
    if (m > 0) {
      const ImpactResult dense = solve_impact(p.dense, rng.vector(n), Restitution::uniform(0.5));
      Matrix k_pinv(m, m);
      for (int j = 0; j < m; ++j) k_pinv.col(j) = p.sparse.pseudo_solve(Vector::Unit(m, j));
      EXPECT_LT(rel_gap(k_pinv, dense.consistency_matrix, dense.consistency_matrix.norm()), tol);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllJacobianKinds, SparseKinds, ::testing::ValuesIn(testing::all_jacobian_kinds()),
                         [](const auto& info) { return std::string(testing::name(info.param)); });

using testing::expect_vector_near;
using testing::vec;

DelassusFactorization factorized(const Matrix& a, const Vector& masses) {
  DelassusFactorization k;
  k.factorize(to_sparse(a), masses);
  return k;
}

TEST(SparseTextbook, TwoParticlesOnALine) {
  // Masses 1 and 2 at 3 and −1 m/s, e = 0.8: j = (1 + e)μ(v1 − v2) = 4.8, q̇⁺ = (−1.8, 1.4).
  const ImpactResult r =
      solve_impact_sparse(factorized((Matrix(1, 2) << -1, 1).finished(), vec({1, 2})), vec({3, -1}), Restitution::uniform(0.8));
  expect_vector_near(r.qd_plus, vec({-1.8, 1.4}), 1e-14);
  expect_vector_near(r.impulse, vec({-4.8, 4.8}), 1e-14);
  expect_vector_near(r.impulse_multipliers, vec({4.8}), 1e-14);
  EXPECT_NEAR(r.energy_ratio, 1 - (1 - 0.64) * 0.5 * (2.0 / 3.0) * 16 / 5.5, 1e-14);
  EXPECT_NEAR(r.energy_ratio, 0.650909, 1e-6);
}

TEST(SparseTextbook, ThreeBallChainSimultaneousImpact) {
  // v1 = (1 − 2e)/3, v2 = v3 = (1 + e)/3, i_λ = (2(1 + e)/3, (1 + e)/3).
  const Matrix a = (Matrix(2, 3) << -1, 1, 0, 0, -1, 1).finished();
  const DelassusFactorization k = factorized(a, vec({1, 1, 1}));
  for (double e : {0.0, 0.5, 0.9, 1.0}) {
    const ImpactResult r = solve_impact_sparse(k, vec({1, 0, 0}), Restitution::uniform(e));
    expect_vector_near(r.qd_plus, vec({(1 - 2 * e) / 3, (1 + e) / 3, (1 + e) / 3}), 1e-15);
    expect_vector_near(r.impulse_multipliers, vec({2 * (1 + e) / 3, (1 + e) / 3}), 1e-15);
  }
}

TEST(SparseTextbook, FlatRodOnThreeContacts) {
  // A flat rod (m = 1, I = 1/12) on three contacts s = −½, 0, ½ (rank 2): ẏ⁺ = −eẏ⁻, φ̇⁺ = −eφ̇⁻, ẋ unchanged.
  const Matrix a = (Matrix(3, 3) << 0, 1, -0.5, 0, 1, 0, 0, 1, 0.5).finished();
  const Vector masses = vec({1, 1, 1.0 / 12});
  const Pair p(masses, a);
  EXPECT_EQ(p.sparse.rank(), 2);
  const ImpactResult r = solve_impact_sparse(p.sparse, vec({0.2, -1, 0.5}), Restitution::uniform(0.5));
  expect_vector_near(r.qd_plus, vec({0.2, 0.5, -0.25}), 1e-15);
  // The impulses are the minimum-norm split of i_f over the three contacts, as the dense A⁺ gives.
  const ImpactResult dense = solve_impact(p.dense, vec({0.2, -1, 0.5}), Restitution::uniform(0.5));
  expect_vector_near(r.impulse_multipliers, dense.impulse_multipliers, 1e-14);
  // Unequal e = (1, 0, 1): the law holds in the least-squares sense A q̇⁺ = −AA⁺EAq̇⁻, exactly as dense.
  const ImpactResult lsq = solve_impact_sparse(p.sparse, vec({0, -1, 0}), Restitution::rows(vec({1, 0, 1})));
  const ImpactResult lsq_dense = solve_impact(p.dense, vec({0, -1, 0}), Restitution::rows(vec({1, 0, 1})));
  expect_vector_near(lsq.qd_plus, lsq_dense.qd_plus, 1e-14);
  EXPECT_GT(lsq.newton_residual, 0.1);
  EXPECT_NEAR(lsq.newton_residual, lsq_dense.newton_residual, 1e-14);
  expect_vector_near(a * lsq.qd_plus, -(a * p.dense.jacobian_pinv()) * vec({1, 0, 1}).cwiseProduct(a * vec({0, -1, 0})),
                     1e-14);
}

TEST(SparseTextbook, PendulumTensionBalancesGravityAndCentripetalForce) {
  // A point mass on a rod of length l at angle θ with speed v: T = m(g cos θ + v²/l), q̈_t = −g sin θ.
  const double mass = 2.0, l = 1.5, g = 9.81, theta = 0.4, v = 1.2;
  const Vector q = vec({l * std::sin(theta), -l * std::cos(theta)});
  const Vector qd = v * vec({std::cos(theta), std::sin(theta)});
  // φ = ½(x² + y² − l²): A = (x, y), Ȧq̇ = |q̇|².
  const Matrix a = (Matrix(1, 2) << q(0), q(1)).finished();
  const DelassusFactorization k = factorized(a, vec({mass, mass}));
  const SparseDynamics d =
      constrained_dynamics_sparse(k, vec({0, mass * g}), Vector::Zero(2), Vector::Constant(1, qd.squaredNorm()));
  EXPECT_NEAR(d.force.norm(), mass * (g * std::cos(theta) + v * v / l), 1e-12);
  EXPECT_NEAR(d.qdd.dot(qd / v), -g * std::sin(theta), 1e-12);
  // λ = −T/l with φ in these units (the force pulls toward the pivot).
  EXPECT_NEAR(d.multipliers(0), -mass * (g * std::cos(theta) + v * v / l) / l, 1e-12);
}

TEST(SparseDynamicsInput, BadInputNamesTheField) {
  using testing::message_of;
  const DelassusFactorization k = factorized((Matrix(1, 2) << 1, 1).finished(), vec({1, 1}));
  EXPECT_EQ(message_of([&] { constrained_dynamics_sparse(k, vec({0}), vec({0, 0}), vec({0})); }),
            "h: must have 2 entries (the size of M), got 1");
  EXPECT_EQ(message_of([&] { constrained_dynamics_sparse(k, vec({0, 0}), vec({0, 0}), vec({0, 0})); }),
            "adot_qd: must have 1 entries (the rows of A), got 2");
  EXPECT_EQ(message_of([&] { project_velocity_sparse(k, vec({0, std::nan("")})); }), "qd[1]: must be a finite number");
  // Every kind of non-finite entry, wherever it stands, is named (the first of them).
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(message_of([&] { constrained_dynamics_sparse(k, vec({-inf, 0}), vec({0, 0}), vec({0})); }),
            "h[0]: must be a finite number");
  EXPECT_EQ(message_of([&] { constrained_dynamics_sparse(k, vec({0, 0}), vec({0, inf}), vec({0})); }),
            "u[1]: must be a finite number");
  EXPECT_EQ(message_of([&] { constrained_dynamics_sparse(k, vec({0, 0}), vec({0, 0}), vec({std::nan("")})); }),
            "adot_qd[0]: must be a finite number");
  EXPECT_EQ(message_of([&] { project_velocity_sparse(k, vec({inf, std::nan("")})); }), "qd[0]: must be a finite number");
  EXPECT_EQ(message_of([&] { solve_impact_sparse(k, vec({1, 0}), Restitution::uniform(1.5)); }),
            "e: must be in [0, 1], got 1.5");
  EXPECT_EQ(message_of([&] { solve_impact_sparse(k, vec({1, 0}), Restitution::rows(vec({0.5, 0.5}))); }),
            "E: must have one coefficient per row of A (1), got 2");
  EXPECT_EQ(message_of([&] { solve_impact_sparse(k, vec({1, 0}), Restitution::uniform(0.5), vec({1})); }),
            "iu: must have 2 entries (the size of M), got 1");
}

}  // namespace
}  // namespace oblique
