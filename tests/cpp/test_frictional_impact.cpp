// Frictional impacts (frictional_impact.hpp): hand-derived stick and slip solutions on both sides of μ_crit,
// μ = 0 and μ = +∞ against solve_impact bit for bit, momentum balance in every mode, the oblique slip
// projector, the discriminator as a quadratic form, slip reversal, several contacts, and bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <vector>

#include <Eigen/LU>

#include "oblique/friction/frictional_impact.hpp"
#include "error_message.hpp"
#include "friction_systems.hpp"
#include "random_systems.hpp"

namespace oblique {
namespace {

using testing::FrictionSystem;
using testing::RandomSystems;
using testing::vec;

/// Each entry of `actual` within `relative` times the largest entry of `expected` (1 at least) of its own.
void expect_vector_near_relative(const Vector& actual, const Vector& expected, double relative) {
  ASSERT_EQ(actual.size(), expected.size());
  const double scale = std::max(1.0, expected.cwiseAbs().maxCoeff());
  for (Eigen::Index i = 0; i < actual.size(); ++i) {
    EXPECT_NEAR(actual(i), expected(i), relative * scale) << "entry " << i;
  }
}

/// Bit for bit: every entry the same double.
void expect_identical(const Vector& actual, const Vector& expected, const char* what) {
  ASSERT_EQ(actual.size(), expected.size()) << what;
  for (Eigen::Index i = 0; i < actual.size(); ++i) EXPECT_EQ(actual(i), expected(i)) << what << "[" << i << "]";
}

FrictionalImpactResult solve(const FrictionSystem& s, double e) {
  return solve_frictional_impact(Projection(s.inertia, s.jacobian), s.qd_minus, Restitution::uniform(e), s.pairs);
}

// ---- a rod end striking the floor --------------------------------------------------------------------------

// The rod end striking the floor, its hand-derived stick and slip solutions: testing::RodCase
// (friction_systems.hpp).
using testing::RodCase;

TEST(FrictionalImpact, RodEndOnTheFloorMatchesTheHandDerivedStickAndSlipOnBothSidesOfTheCriticalMu) {
  RodCase rod;
  rod.qd = vec({-1.5, -2.0, 1.0});  // v_t = −1.25: sliding left; the sticking friction pushes right
  const double mu_crit = std::abs(rod.stick_t()) / rod.stick_n();
  ASSERT_GT(rod.stick_t(), 0.0);
  ASSERT_NEAR(mu_crit, 1.0810, 1e-4);  // the numbers of this case, for the reader

  // Above μ_crit: the point sticks, q̇⁺ as derived, φ̇⁺ = −eφ̇⁻ and v_t⁺ = 0.
  for (double mu : {1.0000001 * mu_crit, 1.5 * mu_crit, 10.0}) {
    const FrictionSystem system = testing::rod_on_floor(rod.m, rod.h, rod.tilt, rod.qd, mu);
    const FrictionalImpactResult r = solve(system, rod.e);
    const FrictionPairResult& pair = r.pairs[0];
    EXPECT_EQ(pair.mode, FrictionMode::Stick) << "mu = " << mu;
    expect_vector_near_relative(r.qd_plus, rod.stick_velocity(), 1e-12);
    EXPECT_NEAR(pair.normal_impulse, rod.stick_n(), 1e-12 * rod.stick_n());
    EXPECT_NEAR(pair.tangential_impulse, rod.stick_t(), 1e-12 * rod.stick_n());
    EXPECT_NEAR(pair.critical_mu, mu_crit, 1e-12);
    EXPECT_NEAR(pair.approach_plus, rod.e * rod.u(), 1e-12);
    EXPECT_NEAR(pair.slip_plus, 0.0, 1e-12);
    EXPECT_TRUE(pair.slip_stopped);
    EXPECT_GE(pair.discriminator, 0.0);
    EXPECT_LT(pair.sticking_cone_angle, 0.0);
    EXPECT_TRUE(r.modes_consistent);
  }
  // Below μ_crit: the point slips on (s = sign v_t⁻ = −1), q̇⁺ as derived, friction −μs i_n.
  for (double mu : {0.9999999 * mu_crit, 0.5 * mu_crit, 0.1}) {
    const FrictionSystem system = testing::rod_on_floor(rod.m, rod.h, rod.tilt, rod.qd, mu);
    const FrictionalImpactResult r = solve(system, rod.e);
    const FrictionPairResult& pair = r.pairs[0];
    EXPECT_EQ(pair.mode, FrictionMode::Slip) << "mu = " << mu;
    EXPECT_EQ(pair.direction, -1);
    expect_vector_near_relative(r.qd_plus, rod.slip_velocity(mu, -1), 1e-12);
    EXPECT_NEAR(pair.normal_impulse, rod.slip_n(mu, -1), 1e-12 * rod.slip_n(mu, -1));
    EXPECT_NEAR(pair.tangential_impulse, mu * rod.slip_n(mu, -1), 1e-12 * rod.slip_n(mu, -1));
    EXPECT_NEAR(pair.approach_plus, rod.e * rod.u(), 1e-12);
    EXPECT_LE(pair.slip_plus, 1e-12);  // still sliding left, or just stopped at μ_crit
    EXPECT_FALSE(pair.slip_reversed);
    EXPECT_LT(pair.discriminator, 0.0);
    EXPECT_GT(pair.sticking_cone_angle, 0.0);
    EXPECT_NEAR(pair.cone_angle, 0.0, 1e-12);
    EXPECT_TRUE(r.modes_consistent);
  }
  // At μ_crit the two solutions meet: the slipping impulse is the sticking one.
  expect_vector_near_relative(rod.slip_velocity(mu_crit, -1), rod.stick_velocity(), 1e-12);
}

TEST(FrictionalImpact, AStickingImpulseThatPushesAlongTheSlipReversesIt) {
  // The same rod sliding right (v_t⁻ = 1.175): the strong coupling b = −3cs/m makes the sticking impulse's
  // friction point right too (i_t^st > 0). Below μ_crit Whittaker's impulse (s = sign v_t⁻ = +1) would
  // leave the end sliding left while its friction still opposed sliding right: Coulomb's law fails after
  // the impact. The model slips on the other edge (s = −1): the slip reversed during the impact, and the
  // friction opposes the slip that remains.
  RodCase rod;
  rod.qd = vec({0.8, -2.0, 1.5});
  ASSERT_GT(rod.slip(), 0.0);
  ASSERT_GT(rod.stick_t(), 0.0);
  const double mu_crit = rod.stick_t() / rod.stick_n();
  const double mu = 0.5 * mu_crit;
  const FrictionSystem system = testing::rod_on_floor(rod.m, rod.h, rod.tilt, rod.qd, mu);
  const Projection proj(system.inertia, system.jacobian);
  const Restitution e = Restitution::uniform(rod.e);

  const FrictionalImpactResult whittaker =
      solve_impact_in_modes(proj, system.qd_minus, e, system.pairs, {{FrictionMode::Slip, 1}});
  EXPECT_LT(whittaker.pairs[0].slip_plus, 0.0);
  EXPECT_TRUE(whittaker.pairs[0].slip_reversed);
  EXPECT_FALSE(whittaker.modes_consistent);

  const FrictionalImpactResult r = solve_frictional_impact(proj, system.qd_minus, e, system.pairs);
  EXPECT_EQ(r.pairs[0].mode, FrictionMode::Slip);
  EXPECT_EQ(r.pairs[0].direction, -1);
  EXPECT_TRUE(r.pairs[0].slip_reversed);
  EXPECT_LT(r.pairs[0].slip_plus, 0.0);
  EXPECT_TRUE(r.modes_consistent);
  expect_vector_near_relative(r.qd_plus, rod.slip_velocity(mu, -1), 1e-12);
}

// ---- a disk striking a wall with spin ----------------------------------------------------------------------

TEST(FrictionalImpact, SpinningDiskStrikingAWallObliquelyMatchesTheClosedForm) {
  // Disk (m, r, I = mr²/2) hitting the wall x = 0 with q̇⁻ = (ẋ, ẏ, ω): the contact point slips at
  // v_t = ẏ − rω; W = diag(1/m, 1/m + r²/I) = diag(1, 3)/m: no coupling. Sticking: ẋ⁺ = −eẋ⁻,
  // i_t = −m v_t/3, so ẏ⁺ = ẏ − v_t/3 and ω⁺ = ω − r i_t/I = ω + 2v_t/(3r); μ_crit = |v_t|/(3(1 + e)u).
  // Slipping (s = sign v_t): i_n = m(1 + e)u, ẏ⁺ = ẏ − μs(1 + e)u, ω⁺ = ω + 2μs(1 + e)u/r.
  const double m = 1.5, r = 0.2, e = 0.7;
  const Vector qd = vec({-3.0, 1.0, 20.0});
  const double u = 3.0, v_t = 1.0 - r * 20.0;  // −3: the rim runs down the wall
  const double mu_crit = std::abs(v_t) / (3 * (1 + e) * u);
  EXPECT_NEAR(mu_crit, 1.0 / 5.1, 1e-15);

  const FrictionalImpactResult stuck = solve(testing::disk_at_wall(m, r, qd, 0.4), e);
  EXPECT_EQ(stuck.pairs[0].mode, FrictionMode::Stick);
  expect_vector_near_relative(stuck.qd_plus, vec({e * 3.0, 1.0 - v_t / 3, 20.0 + 2 * v_t / (3 * r)}), 1e-13);
  expect_vector_near_relative(stuck.qd_plus, vec({2.1, 2.0, 10.0}), 1e-13);
  EXPECT_NEAR(stuck.pairs[0].critical_mu, mu_crit, 1e-14);

  const double mu = 0.1;
  const FrictionalImpactResult slid = solve(testing::disk_at_wall(m, r, qd, mu), e);
  EXPECT_EQ(slid.pairs[0].mode, FrictionMode::Slip);
  EXPECT_EQ(slid.pairs[0].direction, -1);
  expect_vector_near_relative(slid.qd_plus, vec({e * 3.0, 1.0 + mu * (1 + e) * u, 20.0 - 2 * mu * (1 + e) * u / r}), 1e-13);
  expect_vector_near_relative(slid.qd_plus, vec({2.1, 1.51, 14.9}), 1e-13);
  EXPECT_NEAR(slid.pairs[0].normal_impulse, m * (1 + e) * u, 1e-13);
  EXPECT_NEAR(slid.pairs[0].tangential_impulse, mu * m * (1 + e) * u, 1e-13);
  // Friction dissipates: K⁺ − K⁻ = normal work + friction work, both ≤ 0.
  EXPECT_LT(slid.pairs[0].tangential_work, 0.0);
  EXPECT_NEAR(slid.kinetic_energy_change, slid.pairs[0].normal_work + slid.pairs[0].tangential_work,
              1e-12 * slid.kinetic_minus);
}

// ---- the limits μ = 0 and μ = +∞ -----------------------------------------------------------------------------

TEST(FrictionalImpact, FrictionlessPairsReproduceSolveImpactWithoutTheirTangentialRowsBitForBit) {
  RandomSystems rng(1010);
  for (int trial = 0; trial < 40; ++trial) {
    const int joints = rng.integer(0, 2);
    const int pair_count = rng.integer(1, 3);
    FrictionSystem s = testing::random_friction_system(rng, joints, pair_count, 0.0);
    const int m = static_cast<int>(s.jacobian.rows());
    const int n = static_cast<int>(s.jacobian.cols());
    std::vector<int> tangents;
    for (const FrictionPair& pair : s.pairs) tangents.push_back(pair.tangent_row);
    // Global or per-row e, with or without i_u, a unilateral mask and a chosen ν.
    const bool global = trial % 2 == 0;
    Vector e_rows = Vector::Zero(m);
    std::vector<bool> mask(static_cast<std::size_t>(m), true);
    for (int i = 0; i < m; ++i) {
      bool tangent = false;
      for (int t : tangents) tangent = tangent || t == i;
      if (!tangent) e_rows(i) = rng.uniform(0.0, 1.0);
      if (i < joints) mask[static_cast<std::size_t>(i)] = false;
    }
    const double e = rng.uniform(0.0, 1.0);
    const Vector iu = trial % 3 == 0 ? rng.vector(n) : Vector();
    const std::optional<double> nu = trial % 4 == 1 ? std::optional<double>(2.5) : std::nullopt;
    const Restitution restitution = global ? Restitution::uniform(e) : Restitution::rows(e_rows);
    const FrictionalImpactResult r = solve_frictional_impact(Projection(s.inertia, s.jacobian, nu), s.qd_minus,
                                                             restitution, s.pairs, iu, trial % 5 == 0 ? mask : std::vector<bool>{});
    // The same impact without the tangential rows, solved by solve_impact.
    const Matrix normals = testing::rows_without(s.jacobian, tangents);
    Vector e_normals(normals.rows());
    std::vector<bool> mask_normals;
    for (int i = 0, j = 0; i < m; ++i) {
      bool tangent = false;
      for (int t : tangents) tangent = tangent || t == i;
      if (tangent) continue;
      e_normals(j++) = e_rows(i);
      mask_normals.push_back(mask[static_cast<std::size_t>(i)]);
    }
    const ImpactResult expected =
        solve_impact(Projection(s.inertia, normals, nu), s.qd_minus, global ? Restitution::uniform(e) : Restitution::rows(e_normals),
                     iu, trial % 5 == 0 ? mask_normals : std::vector<bool>{});
    expect_identical(r.qd_plus, expected.qd_plus, "qd_plus");
    expect_identical(r.impulse, expected.impulse, "i_f");
    EXPECT_EQ(r.kinetic_minus, expected.kinetic_minus);
    EXPECT_EQ(r.kinetic_plus, expected.kinetic_plus);
    EXPECT_EQ(r.kinetic_energy_change, expected.kinetic_energy_change);
    EXPECT_EQ(r.energy_ratio, expected.energy_ratio);
    EXPECT_EQ(r.constraint_work, expected.constraint_work);
    EXPECT_EQ(r.newton_residual, expected.newton_residual);
    EXPECT_EQ(r.flags.energy_gain, expected.flags.energy_gain);
    // The multipliers: the normal rows' as solve_impact's, 0 on the tangential rows.
    for (int i = 0, j = 0; i < m; ++i) {
      bool tangent = false;
      for (int t : tangents) tangent = tangent || t == i;
      EXPECT_EQ(r.impulse_multipliers(i), tangent ? 0.0 : expected.impulse_multipliers(j++)) << "row " << i;
    }
    for (const FrictionPairResult& pair : r.pairs) {
      EXPECT_EQ(pair.mode, FrictionMode::Slip);
      EXPECT_EQ(pair.direction, 0);
    }
    EXPECT_EQ(r.combinations_tried, 1);
  }
}

TEST(FrictionalImpact, PairsThatNeverSlipReproduceTodaysStickRowsBitForBit) {
  // Today's `stick`: the tangential rows in A, plastic (E = 0 there) and never unilateral. Mixed with
  // frictionless pairs, whose tangential rows leave A.
  RandomSystems rng(2020);
  for (int trial = 0; trial < 40; ++trial) {
    const int joints = rng.integer(0, 2);
    FrictionSystem s = testing::random_friction_system(rng, joints, rng.integer(1, 3), kNoSlip);
    if (trial % 3 == 2) s.pairs.front().mu = 0.0;
    const int m = static_cast<int>(s.jacobian.rows());
    const Vector iu = trial % 2 == 0 ? rng.vector(static_cast<int>(s.jacobian.cols())) : Vector();
    const double e = rng.uniform(0.0, 1.0);
    const FrictionalImpactResult r =
        solve_frictional_impact(Projection(s.inertia, s.jacobian), s.qd_minus, Restitution::uniform(e), s.pairs, iu);
    // Expected: rows of A minus the frictionless tangents, e on every row but tangential ones.
    std::vector<int> dropped;
    std::vector<int> tangents;
    for (const FrictionPair& pair : s.pairs) {
      tangents.push_back(pair.tangent_row);
      if (pair.mu == 0.0) dropped.push_back(pair.tangent_row);
    }
    const Matrix rows = testing::rows_without(s.jacobian, dropped);
    Vector e_rows(rows.rows());
    std::vector<bool> mask;
    for (int i = 0, j = 0; i < m; ++i) {
      bool drop = false, tangent = false;
      for (int t : dropped) drop = drop || t == i;
      for (int t : tangents) tangent = tangent || t == i;
      if (drop) continue;
      e_rows(j++) = tangent ? 0.0 : e;
      mask.push_back(!tangent);
    }
    // With no tangential row left, e is global again (solve_impact's global form).
    const bool no_tangent_left = dropped.size() == tangents.size();
    const ImpactResult expected = solve_impact(Projection(s.inertia, rows), s.qd_minus,
                                               no_tangent_left ? Restitution::uniform(e) : Restitution::rows(e_rows), iu, mask);
    expect_identical(r.qd_plus, expected.qd_plus, "qd_plus");
    expect_identical(r.impulse, expected.impulse, "i_f");
    EXPECT_EQ(r.kinetic_plus, expected.kinetic_plus);
    EXPECT_EQ(r.constraint_work, expected.constraint_work);
    EXPECT_EQ(r.flags.tensile_impulse.size(), expected.flags.tensile_impulse.size());
    EXPECT_EQ(r.flags.approach_after_impact.size(), expected.flags.approach_after_impact.size());
    if (dropped.empty()) {
      // Every pair sticks: the sticking impact is the impact, and its v_t⁺ = 0.
      expect_identical(r.impulse_multipliers, expected.impulse_multipliers, "i_lambda");
      expect_identical(r.sticking.qd_plus, expected.qd_plus, "sticking qd_plus");
      for (const FrictionPairResult& pair : r.pairs) {
        EXPECT_EQ(pair.mode, FrictionMode::Stick);
        EXPECT_NEAR(pair.slip_plus, 0.0, 1e-9 * std::max(1.0, std::abs(pair.slip_minus)));
      }
    }
  }
}

// ---- every mode: momentum, Newton, Coulomb ----------------------------------------------------------------

TEST(FrictionalImpact, MomentumBalanceAndNewtonsLawHoldInEveryModeCombination) {
  RandomSystems rng(3030);
  for (int trial = 0; trial < 12; ++trial) {
    const int pair_count = rng.integer(1, 3);
    FrictionSystem s = testing::random_friction_system(rng, rng.integer(0, 2), pair_count, 0.0);
    for (FrictionPair& pair : s.pairs) pair.mu = rng.uniform(0.05, 1.5);
    const Projection proj(s.inertia, s.jacobian);
    const double e = rng.uniform(0.0, 1.0);
    const Vector iu = trial % 2 ? rng.vector(static_cast<int>(s.jacobian.cols())) : Vector();
    // Every combination of stick, slip +, slip − over the pairs.
    int combinations = 1;
    for (int k = 0; k < pair_count; ++k) combinations *= 3;
    for (int code = 0; code < combinations; ++code) {
      std::vector<PairMode> modes;
      for (int k = 0, rest = code; k < pair_count; ++k, rest /= 3) {
        const int pick = rest % 3;
        modes.push_back(pick == 0 ? PairMode{FrictionMode::Stick, 0} : PairMode{FrictionMode::Slip, pick == 1 ? 1 : -1});
      }
      const FrictionalImpactResult r = solve_impact_in_modes(proj, s.qd_minus, Restitution::uniform(e), s.pairs, modes, iu);
      for (const auto& [name, value] : frictional_impact_identities(proj, r)) {
        if (name == "coulomb_cone" || name == "coulomb_slip_sign") continue;  // the modes are forced
        EXPECT_LT(value, 1e-9) << name << " in combination " << code;
      }
      // Newton's law on every normal row, v_t⁺ = 0 when sticking, friction −μs i_n when slipping.
      for (std::size_t k = 0; k < s.pairs.size(); ++k) {
        const FrictionPairResult& pair = r.pairs[k];
        const double scale = std::max(1.0, std::abs(pair.approach_minus));
        EXPECT_NEAR(pair.approach_plus, -e * pair.approach_minus, 1e-9 * scale);
        if (modes[k].mode == FrictionMode::Stick) {
          EXPECT_NEAR(pair.slip_plus, 0.0, 1e-9 * std::max(scale, std::abs(pair.slip_minus)));
        } else {
          EXPECT_EQ(pair.tangential_impulse, -s.pairs[k].mu * modes[k].direction * pair.normal_impulse);
        }
      }
    }
  }
}

TEST(FrictionalImpact, SlipProjectorIsAnObliqueProjectorThatIsNotOrthogonalInTheEnergyMetric) {
  RandomSystems rng(4040);
  for (int trial = 0; trial < 20; ++trial) {
    const int n = rng.integer(4, 8);
    const Matrix m = rng.inertia(n);
    const Matrix a = rng.matrix(rng.integer(2, n - 1), n);
    const Inertia inertia(m);
    const Matrix identity = Matrix::Identity(n, n);
    // B = A with row 0 turned into n − μst (t: a random tangential row).
    Matrix b = a;
    const double mu = rng.uniform(0.2, 1.0);
    b.row(0) -= mu * rng.matrix(1, n);
    const Matrix s = slip_projector(inertia, a, b);
    const Matrix p = pseudo_inverse(a).null_basis * pseudo_inverse(a).null_basis.transpose();
    const Matrix r = identity - 2.0 * s;
    const double size = std::max(1.0, s.norm());
    // Shared with the paper's S: idempotent, null space N(A), I − P on N(A)⊥, and R² = I.
    EXPECT_LT((s * s - s).norm() / (size * size), 1e-10);
    EXPECT_LT((s * p).norm() / size, 1e-10);
    EXPECT_LT(((identity - p) * s - (identity - p)).norm() / size, 1e-10);
    EXPECT_LT((r * r - identity).norm() / (size * size), 1e-10);
    // Its range is M⁻¹ range(Bᵀ): the impulse directions (P_B M S = 0 with P_B onto N(B)).
    const Matrix null_b = pseudo_inverse(b).null_basis;
    EXPECT_LT((null_b.transpose() * m * s).norm() / (m.norm() * size), 1e-10);
    // Not shared: MS = SᵀM (the split of q̇⁻ into (I − S)q̇⁻ and Sq̇⁻ is not M-orthogonal), nor
    // SᵀMS = MS, nor the symmetry of (I − S)M⁻¹ = Mo⁺.
    const Matrix ms = m * s;
    EXPECT_GT((ms - s.transpose() * m).norm() / ms.norm(), 1e-3);
    EXPECT_GT((s.transpose() * ms - ms).norm() / ms.norm(), 1e-3);
    const Matrix free = (identity - s) * m.inverse();
    EXPECT_GT((free - free.transpose()).norm() / free.norm(), 1e-3);
    // With B = A it is the paper's S.
    const Projection proj(m, a);
    EXPECT_LT((slip_projector(inertia, a, a) - proj.oblique_projector()).norm() / std::max(1.0, proj.oblique_projector().norm()),
              1e-9);
  }
  EXPECT_EQ(testing::message_of([] {
              slip_projector(Inertia(Matrix::Identity(2, 2)), Matrix::Ones(1, 2), Matrix::Ones(2, 2));
            }).rfind("B: must have the size of A", 0),
            0u);
}

// ---- the discriminator ------------------------------------------------------------------------------------

TEST(FrictionalImpact, TheDiscriminatorIsAQuadraticFormInTheVelocityWhoseSignIsTheConeTest) {
  RandomSystems rng(5050);
  int sticks = 0, slips = 0;
  for (int trial = 0; trial < 200; ++trial) {
    FrictionSystem s = testing::random_friction_system(rng, rng.integer(0, 2), 1, rng.uniform(0.02, 2.0));
    const Projection proj(s.inertia, s.jacobian);
    const Restitution e = Restitution::uniform(rng.uniform(0.0, 1.0));
    const FrictionalImpactResult r = solve_frictional_impact(proj, s.qd_minus, e, s.pairs);
    const FrictionPairResult& pair = r.pairs[0];
    // D(q̇⁻) = q̇⁻ᵀΔq̇⁻ equals μ²(i_n^st)² − (i_t^st)².
    const Matrix delta = discriminator_matrix(proj, e, s.pairs, 0);
    const double mu = s.pairs[0].mu;
    const double size = mu * mu * pair.sticking_normal_impulse * pair.sticking_normal_impulse +
                        pair.sticking_tangential_impulse * pair.sticking_tangential_impulse;
    EXPECT_NEAR(s.qd_minus.dot(delta * s.qd_minus), pair.discriminator, 1e-9 * size);
    EXPECT_LT((delta - delta.transpose()).norm(), 1e-12 * delta.norm());
    // Its sign, with a pushing sticking impulse, is the cone test; the cone test is the mode. (With strong
    // coupling of normal and tangential motion the sticking impulse may pull, i_n^st < 0: then D ≥ 0 is the
    // opposite cone and the point slips.)
    const bool pushes = pair.sticking_normal_impulse >= 0.0;
    const bool in_cone = pushes && std::abs(pair.sticking_tangential_impulse) <= mu * pair.sticking_normal_impulse;
    if (pushes) {
      EXPECT_EQ(pair.discriminator >= 0.0, in_cone);
    }
    EXPECT_EQ(pair.mode == FrictionMode::Stick, in_cone);
    (in_cone ? sticks : slips)++;
    // μ_crit is its zero: D vanishes there.
    if (std::isinf(pair.critical_mu)) continue;
    std::vector<FrictionPair> at_critical = s.pairs;
    at_critical[0].mu = pair.critical_mu;
    const Matrix delta_critical = discriminator_matrix(proj, e, at_critical, 0);
    EXPECT_NEAR(s.qd_minus.dot(delta_critical * s.qd_minus), 0.0, 1e-9 * size);
  }
  EXPECT_GT(sticks, 20);
  EXPECT_GT(slips, 20);
}

TEST(FrictionalImpact, OnePairObeysCoulombsLawInExactlyOneModeTheDiscriminatorsChoice) {
  RandomSystems rng(6060);
  for (int trial = 0; trial < 100; ++trial) {
    FrictionSystem s = testing::random_friction_system(rng, rng.integer(0, 2), 1, rng.uniform(0.02, 2.0));
    const Projection proj(s.inertia, s.jacobian);
    const Restitution e = Restitution::uniform(rng.uniform(0.0, 1.0));
    const FrictionalImpactResult r = solve_frictional_impact(proj, s.qd_minus, e, s.pairs);
    EXPECT_TRUE(r.modes_consistent);
    EXPECT_EQ(r.combinations_tried, 1);
    int consistent = 0;
    for (const PairMode mode : {PairMode{FrictionMode::Stick, 0}, PairMode{FrictionMode::Slip, 1}, PairMode{FrictionMode::Slip, -1}}) {
      const FrictionalImpactResult forced = solve_impact_in_modes(proj, s.qd_minus, e, s.pairs, {mode});
      if (!forced.modes_consistent) continue;
      ++consistent;
      EXPECT_EQ(mode.mode, r.pairs[0].mode);
      EXPECT_EQ(mode.direction, r.pairs[0].direction);
    }
    EXPECT_EQ(consistent, 1) << "trial " << trial;
    for (const auto& [name, value] : frictional_impact_identities(proj, r)) EXPECT_LT(value, 1e-9) << name;
  }
}

// ---- several contacts ---------------------------------------------------------------------------------------

TEST(FrictionalImpact, BoxLandingFlatWhileSlidingMatchesTheTwoContactClosedForm) {
  // A box (half width w, half height h, mass m) lands flat on both bottom corners, q̇⁻ = (ẋ, ẏ, 0). The
  // corners (∓w, −h) move at (ẋ + hω, ẏ ∓ wω): normal rows (0, 1, ∓w), both tangential rows (1, 0, h).
  // Slipping (s = sign ẋ): Newton's law on both corners keeps ω⁺ = 0 and ẏ⁺ = −eẏ, so
  // i₁ + i₂ = m(1 + e)u and ẋ⁺ = ẋ − μs(1 + e)u; no rotation needs the moments to cancel,
  // w(i₂ − i₁) + h(f₁ + f₂) = 0 with f = −μs i: i₂ − i₁ = μsh(i₁ + i₂)/w (the front corner takes more).
  const double m = 1.0, w = 0.5, h = 0.25, e = 0.5, mu = 0.3;
  Matrix inertia = Matrix::Zero(3, 3);
  inertia.diagonal() << m, m, m * (w * w + h * h) / 3.0;
  Matrix a(4, 3);
  a << 0, 1, -w, 1, 0, h, 0, 1, w, 1, 0, h;
  const std::vector<FrictionPair> pairs = {{0, 1, mu}, {2, 3, mu}};
  const Projection proj(inertia, a);

  const Vector sliding = vec({2.0, -1.0, 0.0});
  const FrictionalImpactResult r = solve_frictional_impact(proj, sliding, Restitution::uniform(e), pairs);
  const double total = m * (1 + e) * 1.0, difference = mu * h * total / w;
  EXPECT_TRUE(r.modes_consistent);
  for (const FrictionPairResult& pair : r.pairs) {
    EXPECT_EQ(pair.mode, FrictionMode::Slip);
    EXPECT_EQ(pair.direction, 1);
  }
  EXPECT_NEAR(r.pairs[0].normal_impulse, 0.5 * (total - difference), 1e-12);
  EXPECT_NEAR(r.pairs[1].normal_impulse, 0.5 * (total + difference), 1e-12);
  expect_vector_near_relative(r.qd_plus, vec({2.0 - mu * (1 + e) * 1.0, e * 1.0, 0.0}), 1e-12);

  // Sliding slower than μ(1 + e)u: both corners stick, ẋ⁺ = 0, and the two identical tangential rows
  // (a rank-deficient A) share the impulse −mẋ⁻.
  const Vector slow = vec({0.1, -1.0, 0.0});
  const FrictionalImpactResult stuck = solve_frictional_impact(proj, slow, Restitution::uniform(e), pairs);
  EXPECT_TRUE(stuck.modes_consistent);
  EXPECT_EQ(stuck.pairs[0].mode, FrictionMode::Stick);
  EXPECT_EQ(stuck.pairs[1].mode, FrictionMode::Stick);
  expect_vector_near_relative(stuck.qd_plus, vec({0.0, e * 1.0, 0.0}), 1e-12);
  EXPECT_NEAR(stuck.pairs[0].tangential_impulse + stuck.pairs[1].tangential_impulse, -m * 0.1, 1e-12);
}

/// The discriminator's guess of a solved impact, read from its sticking impulse: a pair sticks when that
/// impulse is in its cone, else slips on the edge it lies beyond.
std::vector<PairMode> discriminator_guess(const FrictionalImpactResult& r, const std::vector<FrictionPair>& pairs) {
  std::vector<PairMode> guess;
  const double tol = 1e-9 * r.sticking.impulse_multipliers.cwiseAbs().maxCoeff();
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    const double i_n = r.pairs[k].sticking_normal_impulse, i_t = r.pairs[k].sticking_tangential_impulse;
    const bool in_cone = i_n >= -tol && std::abs(i_t) <= pairs[k].mu * i_n + tol;
    guess.push_back(in_cone ? PairMode{FrictionMode::Stick, 0} : PairMode{FrictionMode::Slip, i_t > 0 ? -1 : 1});
  }
  return guess;
}

/// The rank of a combination in the documented order: pairs that differ from the guess, then which pairs
/// (by position), then their modes (stick, slip +, slip −).
std::vector<int> order_key(const std::vector<PairMode>& modes, const std::vector<PairMode>& guess) {
  const auto index = [](const PairMode& mode) { return mode.mode == FrictionMode::Stick ? 0 : (mode.direction > 0 ? 1 : 2); };
  std::vector<int> differing, picks;
  for (std::size_t k = 0; k < modes.size(); ++k) {
    if (index(modes[k]) == index(guess[k])) continue;
    differing.push_back(static_cast<int>(k));
    picks.push_back(index(modes[k]));
  }
  std::vector<int> key = {static_cast<int>(differing.size())};
  key.insert(key.end(), differing.begin(), differing.end());
  key.insert(key.end(), picks.begin(), picks.end());
  return key;
}

TEST(FrictionalImpact, SeveralPairsTakeTheFirstCoulombConsistentCombinationInTheDocumentedOrder) {
  // Random systems of two or three frictional pairs, every normal row approaching. With Newton's law on
  // every normal row, a combination of modes that obeys Coulomb's law at every pair may not exist (a pair
  // may need to pull, a row that should separate); the brute force over all 3^p combinations says which
  // exist, and the solver must return the first of them in its order, or flag that there is none.
  RandomSystems rng(7070);
  int with_solution = 0, without = 0, searched = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const int pair_count = rng.integer(2, 3);
    FrictionSystem s = testing::random_friction_system(rng, rng.integer(0, 1), pair_count, 0.0);
    for (FrictionPair& pair : s.pairs) pair.mu = rng.uniform(0.05, 1.2);
    const Projection proj(s.inertia, s.jacobian);
    const Restitution e = Restitution::uniform(rng.uniform(0.0, 1.0));
    const FrictionalImpactResult r = solve_frictional_impact(proj, s.qd_minus, e, s.pairs);
    // The discriminator's guess, from the sticking impulse.
    const std::vector<PairMode> guess = discriminator_guess(r, s.pairs);
    // Brute force: the first consistent combination in the documented order.
    int combinations = 1;
    for (int k = 0; k < pair_count; ++k) combinations *= 3;
    std::vector<PairMode> best;
    std::vector<int> best_key;
    for (int code = 0; code < combinations; ++code) {
      std::vector<PairMode> modes;
      for (int k = 0, rest = code; k < pair_count; ++k, rest /= 3) {
        const int pick = rest % 3;
        modes.push_back(pick == 0 ? PairMode{FrictionMode::Stick, 0} : PairMode{FrictionMode::Slip, pick == 1 ? 1 : -1});
      }
      if (!solve_impact_in_modes(proj, s.qd_minus, e, s.pairs, modes).modes_consistent) continue;
      const std::vector<int> key = order_key(modes, guess);
      if (best.empty() || key < best_key) {
        best = modes;
        best_key = key;
      }
    }
    std::vector<PairMode> chosen;
    for (const FrictionPairResult& pair : r.pairs) chosen.push_back({pair.mode, pair.direction});
    if (best.empty()) {
      ++without;
      EXPECT_FALSE(r.modes_consistent);
      EXPECT_EQ(r.combinations_tried, combinations);
      EXPECT_EQ(order_key(chosen, guess), order_key(guess, guess));  // the guess is returned
    } else {
      ++with_solution;
      EXPECT_TRUE(r.modes_consistent);
      EXPECT_EQ(order_key(chosen, guess), best_key) << "trial " << trial;
      searched += r.combinations_tried > 1;
    }
    // Deterministic: the same answer to the last bit; and every law but Coulomb's holds either way.
    const FrictionalImpactResult again = solve_frictional_impact(proj, s.qd_minus, e, s.pairs);
    expect_identical(again.qd_plus, r.qd_plus, "qd_plus");
    for (const auto& [name, value] : frictional_impact_identities(proj, r)) {
      if (!r.modes_consistent && (name == "coulomb_cone" || name == "coulomb_slip_sign")) continue;
      EXPECT_LT(value, 1e-9) << name;
    }
  }
  EXPECT_GT(with_solution, 30);
  EXPECT_GT(without, 0);
  EXPECT_GT(searched, 0) << "no case needed more than the discriminator's guess";
}

/// Systems side by side: M and A block diagonal, q̇⁻ stacked, the pairs' rows renumbered.
FrictionSystem systems_side_by_side(const std::vector<FrictionSystem>& parts) {
  Eigen::Index n = 0, m = 0;
  for (const FrictionSystem& part : parts) {
    n += part.inertia.rows();
    m += part.jacobian.rows();
  }
  FrictionSystem s;
  s.inertia = Matrix::Zero(n, n);
  s.jacobian = Matrix::Zero(m, n);
  s.qd_minus = Vector::Zero(n);
  Eigen::Index column = 0, row = 0;
  for (const FrictionSystem& part : parts) {
    const Eigen::Index pn = part.inertia.rows(), pm = part.jacobian.rows();
    s.inertia.block(column, column, pn, pn) = part.inertia;
    s.jacobian.block(row, column, pm, pn) = part.jacobian;
    s.qd_minus.segment(column, pn) = part.qd_minus;
    for (FrictionPair pair : part.pairs) {
      pair.normal_row += static_cast<int>(row);
      pair.tangent_row += static_cast<int>(row);
      s.pairs.push_back(pair);
    }
    column += pn;
    row += pm;
  }
  return s;
}

TEST(FrictionalImpact, ManyPairsTryTheGuessAndItsSingleChangesOnly) {
  // Beyond kExhaustiveFrictionPairs free pairs the search runs through the guess and the guess with one
  // pair changed, in the documented order: it returns the first of those 1 + 2k combinations that obeys
  // Coulomb's law, as a brute force over them says, or the guess flagged after trying all of them. The
  // systems: one of two or three coupled pairs (whose consistent combination may differ from the guess)
  // beside five single pairs (for one pair the guess is always consistent), which no rows couple.
  RandomSystems rng(7070);
  int with_solution = 0, changed = 0, without = 0;
  for (int trial = 0; trial < 60; ++trial) {
    std::vector<FrictionSystem> parts = {testing::random_friction_system(rng, rng.integer(0, 1), rng.integer(2, 3), 0.0)};
    for (int single = 0; single < kExhaustiveFrictionPairs - 1; ++single) {
      parts.push_back(testing::random_friction_system(rng, 0, 1, 0.0));
    }
    FrictionSystem s = systems_side_by_side(parts);
    for (FrictionPair& pair : s.pairs) pair.mu = rng.uniform(0.05, 1.2);
    const int pair_count = static_cast<int>(s.pairs.size());
    ASSERT_GT(pair_count, kExhaustiveFrictionPairs);
    const Projection proj(s.inertia, s.jacobian);
    const Restitution e = Restitution::uniform(rng.uniform(0.0, 1.0));
    const FrictionalImpactResult r = solve_frictional_impact(proj, s.qd_minus, e, s.pairs);
    const std::vector<PairMode> guess = discriminator_guess(r, s.pairs);
    // The guess and its single changes, each solved in its modes; the first consistent one in the order.
    const PairMode modes_of[3] = {{FrictionMode::Stick, 0}, {FrictionMode::Slip, 1}, {FrictionMode::Slip, -1}};
    std::vector<std::vector<PairMode>> candidates = {guess};
    for (std::size_t k = 0; k < guess.size(); ++k) {
      for (const PairMode& mode : modes_of) {
        if (mode.mode == guess[k].mode && mode.direction == guess[k].direction) continue;
        std::vector<PairMode> modes = guess;
        modes[k] = mode;
        candidates.push_back(modes);
      }
    }
    ASSERT_EQ(static_cast<int>(candidates.size()), 1 + 2 * pair_count);
    std::vector<int> best_key;
    for (const std::vector<PairMode>& modes : candidates) {
      if (!solve_impact_in_modes(proj, s.qd_minus, e, s.pairs, modes).modes_consistent) continue;
      const std::vector<int> key = order_key(modes, guess);
      if (best_key.empty() || key < best_key) best_key = key;
    }
    std::vector<PairMode> chosen;
    for (const FrictionPairResult& pair : r.pairs) chosen.push_back({pair.mode, pair.direction});
    EXPECT_LE(r.combinations_tried, 1 + 2 * pair_count);
    if (best_key.empty()) {
      ++without;
      EXPECT_FALSE(r.modes_consistent);
      EXPECT_EQ(r.combinations_tried, 1 + 2 * pair_count);
      EXPECT_EQ(order_key(chosen, guess), order_key(guess, guess));  // the guess is returned
    } else {
      ++with_solution;
      EXPECT_TRUE(r.modes_consistent);
      EXPECT_EQ(order_key(chosen, guess), best_key) << "trial " << trial;
      changed += best_key.front() == 1;
    }
    // Momentum balance, the projector and Newton's law hold whatever the modes.
    for (const auto& [name, value] : frictional_impact_identities(proj, r)) {
      if (!r.modes_consistent && (name == "coulomb_cone" || name == "coulomb_slip_sign")) continue;
      EXPECT_LT(value, 1e-9) << name;
    }
  }
  EXPECT_GT(with_solution, 30);
  EXPECT_GT(changed, 0) << "no case needed a single change of the guess";
  EXPECT_GT(without, 0) << "no case ran through the 1 + 2k combinations";
}

// ---- bad input ----------------------------------------------------------------------------------------------

TEST(FrictionalImpact, BadInputIsNamedByField) {
  const FrictionSystem s = testing::rod_on_floor(1.0, 0.5, 0.3, vec({0.1, -1.0, 0.0}), 0.5);
  const Projection proj(s.inertia, s.jacobian);
  const auto message = [&](std::vector<FrictionPair> pairs, Restitution e = Restitution::uniform(0.5)) {
    return testing::message_of([&] { solve_frictional_impact(proj, s.qd_minus, e, pairs); });
  };
  EXPECT_EQ(message({{0, 2, 0.5}}), "pairs[0]: its tangential row 2 is not a row of A (0..1)");
  EXPECT_EQ(message({{-1, 1, 0.5}}), "pairs[0]: its normal row -1 is not a row of A (0..1)");
  EXPECT_EQ(message({{1, 1, 0.5}}), "pairs[0]: its normal and tangential rows are both row 1");
  EXPECT_EQ(message({{0, 1, 0.5}, {1, 0, 0.5}}), "pairs[1]: row 1 is already in pairs[0]");
  EXPECT_EQ(message({{0, 1, -0.5}}), "pairs[0].mu: must be ≥ 0 (+∞: never slips), got -0.5");
  EXPECT_EQ(message({{0, 1, std::nan("")}}).rfind("pairs[0].mu: must be ≥ 0", 0), 0u);
  EXPECT_EQ(message({{0, 1, 0.5}}, Restitution::rows(vec({0.5, 0.2}))),
            "E[1]: row 1 is the tangential row of pairs[0]: its restitution must be 0 (a sticking point's slip is "
            "stopped), got 0.2");
  EXPECT_EQ(message({{0, 1, 0.5}}, Restitution::uniform(1.5)).rfind("e: must be in [0, 1]", 0), 0u);
  EXPECT_EQ(testing::message_of([&] { solve_frictional_impact(proj, vec({1.0}), Restitution::uniform(0.5), s.pairs); }),
            "qd: must have 3 entries (the size of M), got 1");
  const auto modes = [&](std::vector<FrictionPair> pairs, std::vector<PairMode> given) {
    return testing::message_of([&] { solve_impact_in_modes(proj, s.qd_minus, Restitution::uniform(0.5), pairs, given); });
  };
  EXPECT_EQ(modes(s.pairs, {}), "modes: must have one mode per pair (1), got 0");
  EXPECT_EQ(modes(s.pairs, {{FrictionMode::Slip, 0}}), "modes[0]: a slipping pair needs the direction +1 or -1, got 0");
  EXPECT_EQ(modes({{0, 1, 0.0}}, {{FrictionMode::Stick, 0}}), "modes[0]: a frictionless pair (μ = 0) can only slip");
  EXPECT_EQ(modes({{0, 1, kNoSlip}}, {{FrictionMode::Slip, 1}}), "modes[0]: a pair with μ = +∞ can only stick");
  EXPECT_EQ(testing::message_of([&] { discriminator_matrix(proj, Restitution::uniform(0.5), s.pairs, 1); }),
            "pair: must be one of the pairs (0..0)");
}

}  // namespace
}  // namespace oblique
