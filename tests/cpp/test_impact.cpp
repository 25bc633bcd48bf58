// The impact model (§3, §4) on random systems: momentum balance, the restitution law, energy, γ, the
// independence from ν, agreement with the classical Schur-complement formula, and the QMI of §4.
#include <gtest/gtest.h>

#include <cmath>

#include <Eigen/Eigenvalues>
#include <Eigen/LU>

#include "oblique/math/impact.hpp"
#include "error_message.hpp"
#include "random_systems.hpp"
#include "comparisons.hpp"

namespace oblique {
namespace {

using testing::JacobianKind;
using testing::approaching_velocity;
using testing::RandomSystems;

using testing::rel_gap;

class ImpactKinds : public ::testing::TestWithParam<JacobianKind> {};

TEST_P(ImpactKinds, GlobalRestitutionObeysThePhysics) {
  RandomSystems rng(4321 + static_cast<int>(GetParam()));
  for (int trial = 0; trial < 30; ++trial) {
    const int n = rng.integer(4, 9);
    const Matrix m = rng.inertia(n);
    const Matrix a = rng.jacobian(GetParam(), n);
    const Vector qd = approaching_velocity(rng, a, n);
    const double e = rng.uniform(0.0, 1.0);
    const Projection proj(m, a);
    const ImpactResult r = solve_impact(proj, qd, Restitution::uniform(e));

    // Momentum balance M(q̇⁺ − q̇⁻) = i_f (i_u = 0), and i_f = Aᵀi_λ lies in range(Aᵀ).
    EXPECT_LT(rel_gap(m * (r.qd_plus - qd), r.impulse), 1e-10);
    if (a.rows() > 0) EXPECT_LT(rel_gap(a.transpose() * r.impulse_multipliers, r.impulse), 1e-10);
    // The restitution law A q̇⁺ = −e A q̇⁻ holds for a global e whatever the rank.
    if (a.rows() > 0) EXPECT_LT(rel_gap(a * r.qd_plus, -e * (a * qd)), 1e-9);
    EXPECT_LT(r.newton_residual, 1e-9);
    // Energy: W_loss = K⁺ − K⁻ = −½(1 − e²)q̇⁻ᵀSᵀMSq̇⁻ and γ ∈ [0, 1].
    const Matrix& s = proj.oblique_projector();
    const double w = -0.5 * (1 - e * e) * qd.dot(s.transpose() * m * s * qd);
    EXPECT_NEAR(r.kinetic_energy_change, w, 1e-10 * r.kinetic_minus);
    EXPECT_NEAR(r.kinetic_energy_change, 0.5 * r.qd_plus.dot(m * r.qd_plus) - 0.5 * qd.dot(m * qd), 1e-12 * r.kinetic_minus);
    EXPECT_GE(r.energy_ratio, -1e-12);
    EXPECT_LE(r.energy_ratio, 1.0 + 1e-12);
    EXPECT_FALSE(r.flags.energy_gain);
    EXPECT_TRUE(r.energy_consistent);
    // The geometric forms: q̇⁺ = (eR + (1 − e)(I − S))q̇⁻ and the reported residuals.
    const Matrix id = Matrix::Identity(n, n);
    EXPECT_LT(rel_gap(r.qd_plus, (e * proj.reflection() + (1 - e) * (id - s)) * qd), 1e-10);
    for (const auto& [name, value] : impact_identities(proj, r)) EXPECT_LT(value, 1e-9) << name;
    // Work of the impulse on the mean velocity equals the energy loss (paper §3.3).
    EXPECT_NEAR(r.impulse.dot(0.5 * (qd + r.qd_plus)), r.kinetic_energy_change, 1e-10 * r.kinetic_minus);
  }
}

TEST_P(ImpactKinds, ResultsDoNotDependOnNu) {
  RandomSystems rng(8080 + static_cast<int>(GetParam()));
  for (int trial = 0; trial < 10; ++trial) {
    const int n = rng.integer(4, 8);
    const Matrix m = rng.inertia(n);
    const Matrix a = rng.jacobian(GetParam(), n);
    const Vector qd = approaching_velocity(rng, a, n);
    const Vector iu = rng.vector(n);
    const ImpactResult reference = solve_impact(Projection(m, a), qd, Restitution::uniform(0.6), iu);
    for (double nu : {1e-2, 0.5, 3.0, 1e2}) {
      const ImpactResult other = solve_impact(Projection(m, a, nu), qd, Restitution::uniform(0.6), iu);
      EXPECT_LT(rel_gap(other.qd_plus, reference.qd_plus), 1e-8) << "nu = " << nu;
      EXPECT_NEAR(other.energy_ratio, reference.energy_ratio, 1e-8);
      EXPECT_LT(rel_gap(other.impulse, reference.impulse), 1e-8);
    }
  }
}

TEST_P(ImpactKinds, VelocityPlaneSplitsTheEnergyAndPlacesTheVelocityAfter) {
  RandomSystems rng(2468 + static_cast<int>(GetParam()));
  for (int trial = 0; trial < 20; ++trial) {
    const int n = rng.integer(4, 9);
    const Matrix m = rng.inertia(n);
    const Matrix a = rng.jacobian(GetParam(), n);
    const Projection proj(m, a);
    const Vector qd = approaching_velocity(rng, a, n);
    const double e = 0.1 + 0.2 * (trial % 5);  // 0.1, 0.3, ..., 0.9
    const ImpactResult r = solve_impact(proj, qd, Restitution::uniform(e));
    const VelocityPlane plane = velocity_plane(proj, r);
    const double scale = std::max(1.0, 2.0 * r.kinetic_minus);
    // The two parts are M-orthogonal: their squared lengths add up to 2K⁻.
    EXPECT_NEAR(plane.allowed * plane.allowed + plane.blocked * plane.blocked, 2.0 * r.kinetic_minus, 1e-10 * scale);
    // Global e, no i_u: q̇⁺ keeps the allowed part and reverses the blocked one scaled by e, in the plane.
    EXPECT_NEAR(plane.plus_allowed, plane.allowed, 1e-9 * std::sqrt(scale));
    EXPECT_NEAR(plane.plus_blocked, -e * plane.blocked, 1e-9 * std::sqrt(scale));
    EXPECT_LT(plane.outside, 1e-6 * std::sqrt(scale));
    // And |q̇⁺|² = 2K⁺.
    EXPECT_NEAR(plane.plus_allowed * plane.plus_allowed + plane.plus_blocked * plane.plus_blocked +
                    plane.outside * plane.outside, 2.0 * r.kinetic_plus, 1e-9 * scale);
  }
}

TEST_P(ImpactKinds, ExternalImpulseEntersMomentumAndEnergy) {
  RandomSystems rng(99 + static_cast<int>(GetParam()));
  const int n = 6;
  const Matrix m = rng.inertia(n);
  const Matrix a = rng.jacobian(GetParam(), n);
  const Vector qd = approaching_velocity(rng, a, n);
  const Vector iu = rng.vector(n);
  const double e = 0.35;
  const Projection proj(m, a);
  const ImpactResult r = solve_impact(proj, qd, Restitution::uniform(e), iu);
  // M(q̇⁺ − q̇⁻) = i_f + i_u, and the restitution law still holds on the constrained rows.
  EXPECT_LT(rel_gap(m * (r.qd_plus - qd), r.impulse + iu), 1e-10);
  if (a.rows() > 0) EXPECT_LT(rel_gap(a * r.qd_plus, -e * (a * qd)), 1e-9);
  // ΔK = −½(1 − e²)q̇⁻ᵀSᵀMSq̇⁻ + ½i_uᵀMo⁺i_u + q̇⁻ᵀ(I − Sᵀ)i_u (eq. (31)).
  const Matrix& s = proj.oblique_projector();
  const double dk = -0.5 * (1 - e * e) * qd.dot(s.transpose() * m * s * qd) +
                    0.5 * iu.dot(proj.projected_inertia_pinv() * iu) + qd.dot(iu - s.transpose() * iu);
  EXPECT_NEAR(r.kinetic_plus - r.kinetic_minus, dk, 1e-10 * std::max(1.0, r.kinetic_minus));
  // ΔK = (i_f + i_u)·q̄̇: the constraints' share is i_f·q̄̇ ≤ 0 for e ≤ 1, whatever i_u adds.
  const Vector mean_velocity = 0.5 * (qd + r.qd_plus);
  EXPECT_NEAR(r.kinetic_plus - r.kinetic_minus, (r.impulse + iu).dot(mean_velocity), 1e-10 * std::max(1.0, r.kinetic_minus));
  EXPECT_NEAR(r.constraint_work, r.impulse.dot(mean_velocity), 1e-12 * std::max(1.0, r.kinetic_minus));
  EXPECT_LE(r.constraint_work, 1e-10 * std::max(1.0, r.kinetic_minus));
  EXPECT_FALSE(r.flags.energy_gain);
}

TEST(Impact, AKickIsNotAnEnergyGainOfTheContacts) {
  // A free kick along an unconstrained direction raises K, but the contact does no positive work.
  const Matrix m = Matrix::Identity(2, 2);
  Matrix a(1, 2);
  a << 0, 1;
  Vector qd(2), iu(2);
  qd << 0, -1;
  iu << 5, 0;
  const ImpactResult r = solve_impact(Projection(m, a), qd, Restitution::uniform(0.5), iu);
  EXPECT_GT(r.energy_ratio, 1.0);
  EXPECT_FALSE(r.flags.energy_gain);
  EXPECT_NEAR(r.constraint_work, -0.5 * (1 - 0.25) * 1.0, 1e-12);
}

INSTANTIATE_TEST_SUITE_P(AllJacobianKinds, ImpactKinds, ::testing::ValuesIn(testing::all_jacobian_kinds()),
                         [](const auto& info) { return std::string(testing::name(info.param)); });

TEST(Impact, AgreesWithClassicalSchurComplementFormula) {
  // q̇⁺ = q̇⁻ − (1 + e)M⁻¹Aᵀ(AM⁻¹Aᵀ)⁻¹Aq̇⁻ where AM⁻¹Aᵀ is well conditioned.
  RandomSystems rng(2024);
  int compared = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const int n = rng.integer(3, 9);
    const Matrix m = rng.inertia(n);
    const Matrix a = rng.jacobian(JacobianKind::FullRowRank, n);
    const Matrix m_inv = m.inverse();
    const Matrix schur = a * m_inv * a.transpose();
    Eigen::SelfAdjointEigenSolver<Matrix> eig(schur, Eigen::EigenvaluesOnly);
    if (eig.eigenvalues().maxCoeff() / eig.eigenvalues().minCoeff() > 1e6) continue;
    const Vector qd = rng.vector(n);
    const double e = rng.uniform(0.0, 1.0);
    const Vector classical = qd - (1 + e) * m_inv * a.transpose() * schur.ldlt().solve(a * qd);
    const ImpactResult r = solve_impact(Projection(m, a), qd, Restitution::uniform(e));
    EXPECT_LT(rel_gap(r.qd_plus, classical), 1e-9);
    ++compared;
  }
  EXPECT_GT(compared, 30);
}

TEST(Impact, PerRowRestitutionObeysNewtonLawForFullRowRank) {
  RandomSystems rng(31);
  for (int trial = 0; trial < 30; ++trial) {
    const int n = rng.integer(4, 9);
    const Matrix m = rng.inertia(n);
    const Matrix a = rng.jacobian(JacobianKind::FullRowRank, n);
    Vector e(a.rows());
    for (int i = 0; i < e.size(); ++i) e(i) = rng.uniform(0.0, 1.0);
    const Vector qd = approaching_velocity(rng, a, n);
    const Projection proj(m, a);
    const ImpactResult r = solve_impact(proj, qd, Restitution::rows(e));
    // A q̇⁺ = −E A q̇⁻ row by row, momentum balance, and K⁺ − K⁻ = ½φ̇⁻ᵀ(EQE − Q)φ̇⁻ (eq. loss2).
    EXPECT_LT(rel_gap(a * r.qd_plus, -e.cwiseProduct(a * qd)), 1e-9);
    EXPECT_LT(r.newton_residual, 1e-9);
    EXPECT_LT(rel_gap(m * (r.qd_plus - qd), r.impulse), 1e-10);
    const Vector phid = a * qd;
    const Matrix qmi = e.asDiagonal() * r.consistency_matrix * e.asDiagonal() - r.consistency_matrix;
    EXPECT_NEAR(r.kinetic_energy_change, 0.5 * phid.dot(qmi * phid), 1e-9 * r.kinetic_minus);
    for (const auto& [name, value] : impact_identities(proj, r)) EXPECT_LT(value, 1e-9) << name;
    // Equal coefficients reproduce the global law.
    const ImpactResult same = solve_impact(proj, qd, Restitution::rows(Vector::Constant(a.rows(), 0.4)));
    const ImpactResult global = solve_impact(proj, qd, Restitution::uniform(0.4));
    EXPECT_LT(rel_gap(same.qd_plus, global.qd_plus), 1e-10);
  }
}

TEST(Impact, EnergeticInconsistencyIsDetectedAndFlagged) {
  // When λ_max(EQE − Q) > 0 the velocity along its eigenvector gains energy, and the flag says so.
  RandomSystems rng(555);
  int inconsistent = 0;
  for (int trial = 0; trial < 200 && inconsistent < 10; ++trial) {
    const int n = 5;
    const Matrix m = rng.inertia(n);
    const Matrix a = rng.jacobian(JacobianKind::FullRowRank, n);
    if (a.rows() < 2) continue;
    Vector e(a.rows());
    for (int i = 0; i < e.size(); ++i) e(i) = i == 0 ? 1.0 : rng.uniform(0.0, 0.2);
    const Projection proj(m, a);
    const ImpactResult probe = solve_impact(proj, Vector::Zero(n), Restitution::rows(e));
    const Matrix qmi = e.asDiagonal() * probe.consistency_matrix * e.asDiagonal() - probe.consistency_matrix;
    Eigen::SelfAdjointEigenSolver<Matrix> eig(qmi);
    EXPECT_NEAR(probe.qmi_max_eig, eig.eigenvalues().maxCoeff(), 1e-10 * std::max(1.0, probe.consistency_matrix.norm()));
    if (probe.energy_consistent) continue;
    ++inconsistent;
    // Pre-impact velocity whose normal components are the worst eigenvector.
    const Vector phid = eig.eigenvectors().col(eig.eigenvalues().size() - 1);
    const Vector qd = proj.jacobian_pinv() * phid;
    const ImpactResult r = solve_impact(proj, qd, Restitution::rows(e));
    EXPECT_GT(r.kinetic_energy_change, 0.0);
    EXPECT_GT(r.energy_ratio, 1.0);
    EXPECT_TRUE(r.flags.energy_gain);
  }
  EXPECT_GT(inconsistent, 0) << "no energetically inconsistent E found to test the flag";
}

TEST(Impact, GlobalRestitutionIsAlwaysEnergeticallyConsistent) {
  RandomSystems rng(11);
  for (JacobianKind kind : testing::all_jacobian_kinds()) {
    const Matrix m = rng.inertia(6);
    const Matrix a = rng.jacobian(kind, 6);
    for (double e : {0.0, 0.5, 1.0}) {
      const ImpactResult r = solve_impact(Projection(m, a), rng.vector(6), Restitution::uniform(e));
      EXPECT_TRUE(r.energy_consistent) << testing::name(kind) << " e=" << e;
      EXPECT_LE(r.qmi_max_eig, 1e-10 * std::max(1.0, r.consistency_matrix.norm()));
    }
  }
}

// --- entry-point checks ---------------------------------------------------------------------------------

using testing::message_of;

TEST(ImpactInput, NamesTheBadField) {
  const Projection proj(Matrix::Identity(2, 2), Matrix::Ones(1, 2));
  const Vector qd = Vector::Ones(2);
  EXPECT_EQ(message_of([&] { solve_impact(proj, Vector::Ones(3), Restitution::uniform(0.5)); }),
            "qd: must have 2 entries (the size of M), got 3");
  EXPECT_EQ(message_of([&] { solve_impact(proj, qd, Restitution::uniform(1.5)); }).rfind("e: must be in [0, 1]", 0), 0u);
  EXPECT_EQ(message_of([&] { solve_impact(proj, qd, Restitution::uniform(-0.1)); }).rfind("e: must be in [0, 1]", 0), 0u);
  EXPECT_EQ(message_of([&] { solve_impact(proj, qd, Restitution::uniform(std::nan(""))); }), "e: must be a finite number");
  EXPECT_EQ(message_of([&] { solve_impact(proj, qd, Restitution::rows(Vector::Constant(1, 2.0))); }).rfind("E[0]: must be in [0, 1]", 0), 0u);
  EXPECT_EQ(message_of([&] { solve_impact(proj, qd, Restitution::rows(Vector::Ones(2))); }).rfind("E: must have one coefficient per row", 0), 0u);
  Vector bad_qd = qd;
  bad_qd(1) = std::nan("");
  EXPECT_EQ(message_of([&] { solve_impact(proj, bad_qd, Restitution::uniform(0.5)); }), "qd[1]: must be a finite number");
  EXPECT_EQ(message_of([&] { solve_impact(proj, qd, Restitution::uniform(0.5), Vector::Ones(5)); }).rfind("iu: must have 2 entries", 0), 0u);
  EXPECT_EQ(message_of([&] { solve_impact(proj, qd, Restitution::uniform(0.5), Vector(), {true, false}); }).rfind("unilateral:", 0), 0u);
}

}  // namespace
}  // namespace oblique

namespace oblique {
namespace {

TEST(EnergyConsistencyMap, MatchesTheQmiOfEachPointAndTheDiagonalIsConsistent) {
  // Two contacts of a random system: the map is the margin at each grid point; on the diagonal
  // e₁ = e₂ = e the margin is (e² − 1)λ_min... ≤ 0 (global e is always consistent).
  testing::RandomSystems rng(3);
  const Matrix m = rng.inertia(5);
  const Matrix a = rng.matrix(2, 5);
  const ImpactResult r = solve_impact(Projection(m, a), rng.vector(5), Restitution::uniform(0.5));
  const int resolution = 21;
  const std::vector<double> map = energy_consistency_map(r.consistency_matrix, Vector::Zero(2), 0, 1, resolution);
  ASSERT_EQ(map.size(), 21u * 21u);
  for (int row = 0; row < resolution; ++row) {
    for (int col = 0; col < resolution; ++col) {
      Vector e(2);
      e << col / 20.0, row / 20.0;
      const Matrix qmi = e.asDiagonal() * r.consistency_matrix * e.asDiagonal() - r.consistency_matrix;
      Eigen::SelfAdjointEigenSolver<Matrix> eig(qmi);
      EXPECT_NEAR(map[row * resolution + col], eig.eigenvalues().maxCoeff(), 1e-12);
      if (row == col) EXPECT_LE(map[row * resolution + col], 1e-12);
    }
  }
  EXPECT_EQ(testing::message_of([&] { energy_consistency_map(r.consistency_matrix, Vector::Zero(2), 0, 1, 1); }),
            "resolution: must be an integer in [2, 512]");
  EXPECT_EQ(testing::message_of([&] { energy_consistency_map(r.consistency_matrix, Vector::Zero(2), 1, 1, 10); }).rfind("rows: ", 0), 0u);
  EXPECT_EQ(testing::message_of([&] { energy_consistency_map(r.consistency_matrix, Vector::Zero(3), 0, 1, 10); }).rfind("E: ", 0), 0u);
}

TEST(EnergyConsistencyMap, ItsWorkIsBoundedNamingTheFinestResolutionTheQAllows) {
  // Issue #13.5: a 300×300 Q at resolution 512 did not finish in 5 minutes (resolution² eigenvalue
  // problems of size m). The cost resolution² · m³ is bounded; the message says how fine a map can be.
  const auto spd = [](int m) {
    Matrix b = Matrix::Identity(m, m);
    b(0, 1) = b(1, 0) = 0.5;
    return b;
  };
  EXPECT_EQ(testing::message_of([&] { energy_consistency_map(spd(16), Vector::Zero(16), 0, 1, 512); }),
            "resolution: 512 is too fine for a Q of 16 rows: a map costs resolution² × rows³, at most 5e+07 "
            "(resolution at most 110 for 16 rows)");
  EXPECT_EQ(energy_consistency_map(spd(16), Vector::Zero(16), 0, 1, 110).size(), 110u * 110u);
  EXPECT_EQ(testing::message_of([&] { energy_consistency_map(spd(300), Vector::Zero(300), 0, 1, 2); }),
            "Q: has 300 rows: a map costs resolution² × rows³, at most 5e+07, which even resolution 2 exceeds (at "
            "most 232 rows)");
  // Two rows, the page's case, at the finest grid.
  EXPECT_EQ(energy_consistency_map(spd(2), Vector::Zero(2), 0, 1, kMaxConsistencyMapResolution).size(),
            static_cast<std::size_t>(kMaxConsistencyMapResolution) * kMaxConsistencyMapResolution);
}

TEST(EnergyConsistencyMap, VariesTwoRowsOfALargerQWithTheOthersHeld) {
  // A joint row (e = 0) and two contact rows: the square is over the contacts, the joint stays at 0.
  testing::RandomSystems rng(8);
  const Matrix m = rng.inertia(6);
  const Matrix a = rng.matrix(3, 6);
  const ImpactResult r = solve_impact(Projection(m, a), rng.vector(6), Restitution::uniform(0.5));
  Vector held(3);
  held << 0.0, 0.3, 0.9;
  const std::vector<double> map = energy_consistency_map(r.consistency_matrix, held, 2, 1, 5);
  for (int row = 0; row < 5; ++row) {
    for (int col = 0; col < 5; ++col) {
      Vector e = held;
      e(2) = col / 4.0;
      e(1) = row / 4.0;
      EXPECT_DOUBLE_EQ(map[row * 5 + col], energy_consistency_margin(r.consistency_matrix, e));
    }
  }
}

}  // namespace
}  // namespace oblique
