// Energetic consistency with friction (friction_consistency.hpp): the closed form of one contact against the
// solver, the admissible (μ, e) region on a grid against its closed-form boundary, the property that every
// impact inside it loses energy and the flag fires outside, the QMI bound of sticking, and Kane and
// Levinson's double pendulum, where Newton's law with Coulomb friction creates energy.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include <Eigen/Eigenvalues>
#include <Eigen/LU>

#include "oblique/friction/friction_consistency.hpp"
#include "error_message.hpp"
#include "friction_systems.hpp"
#include "random_systems.hpp"

namespace oblique {
namespace {

using testing::FrictionSystem;
using testing::RandomSystems;
using testing::vec;

/// A random system with one frictional pair behind 0–2 joints at rest.
FrictionSystem one_pair(RandomSystems& rng, double mu = 0.5) {
  return testing::random_friction_system(rng, rng.integer(0, 2), 1, mu);
}

FrictionalImpactResult solve_at(const FrictionSystem& s, double mu, double e) {
  std::vector<FrictionPair> pairs = s.pairs;
  pairs[0].mu = mu;
  return solve_frictional_impact(Projection(s.inertia, s.jacobian), s.qd_minus, Restitution::uniform(e), pairs);
}

TEST(FrictionConsistency, OneContactsClosedFormIsTheSolversImpact) {
  RandomSystems rng(11);
  for (int trial = 0; trial < 40; ++trial) {
    const FrictionSystem s = one_pair(rng);
    const SingleContactFriction contact = SingleContactFriction::of(Projection(s.inertia, s.jacobian), s.qd_minus, s.pairs[0]);
    EXPECT_GT(contact.a * contact.c - contact.b * contact.b, 0.0);
    for (double mu : {0.0, 0.1, 0.4, 1.0, 3.0}) {
      for (double e : {0.0, 0.3, 0.8, 1.0}) {
        const FrictionalImpactResult r = solve_at(s, mu, e);
        const FrictionPairResult& pair = r.pairs[0];
        const double k = r.kinetic_minus;
        // The mode, the impulses and K⁺ − K⁻.
        const bool sticks = mu > 0.0 && contact.sticks(mu, e);
        EXPECT_EQ(pair.mode == FrictionMode::Stick, sticks) << "mu " << mu << " e " << e;
        const Eigen::Vector2d expected =
            sticks ? contact.sticking_impulse(e) : contact.slipping_impulse(mu, e, contact.slip_direction(e));
        const double size = std::max(1.0, expected.norm());
        EXPECT_NEAR(pair.normal_impulse, expected(0), 1e-9 * size);
        EXPECT_NEAR(pair.tangential_impulse, expected(1), 1e-9 * size);
        EXPECT_NEAR(r.kinetic_energy_change, contact.energy_change(mu, e), 1e-9 * k);
        if (std::isinf(contact.critical_mu(e))) {
          EXPECT_TRUE(std::isinf(pair.critical_mu));
        } else {
          EXPECT_NEAR(pair.critical_mu, contact.critical_mu(e), 1e-9 * std::max(1.0, pair.critical_mu));
        }
        if (!sticks) {
          EXPECT_NEAR(pair.slip_plus, contact.slipping_slip_after(mu, e, contact.slip_direction(e)), 1e-9 * size);
        }
      }
    }
  }
}

TEST(FrictionConsistency, TheMapsRegionBoundaryIsTheClosedForm) {
  // A tilted rod whose end slides into the floor (the sticking friction works along the slip for large e:
  // the stick mode's bound e_stick < 1 cuts the region), and random contacts.
  std::vector<FrictionSystem> systems = {testing::rod_on_floor(2.0, 0.5, M_PI / 6, vec({0.8, -2.0, 1.5}), 0.5)};
  RandomSystems rng(12);
  for (int i = 0; i < 6; ++i) systems.push_back(one_pair(rng));
  int outside = 0, stick_boundaries = 0, slip_boundaries = 0;
  for (const FrictionSystem& s : systems) {
    const Projection proj(s.inertia, s.jacobian);
    const SingleContactFriction contact = SingleContactFriction::of(proj, s.qd_minus, s.pairs[0]);
    const int resolution = 41;
    const double mu_max = 2.0;
    const FrictionEnergyMap map = friction_energy_map(proj, s.qd_minus, Restitution::uniform(0.5), s.pairs, 0, mu_max, resolution);
    ASSERT_EQ(map.energy_change.size(), static_cast<std::size_t>(resolution * resolution));
    for (int row = 0; row < resolution; ++row) {
      for (int col = 0; col < resolution; ++col) {
        const double mu = mu_max * col / (resolution - 1), e = static_cast<double>(row) / (resolution - 1);
        const std::size_t at = static_cast<std::size_t>(row * resolution + col);
        const double closed = contact.energy_change(mu, e) / (0.5 * s.qd_minus.dot(s.inertia * s.qd_minus));
        EXPECT_NEAR(map.energy_change[at], closed, 1e-9);
        EXPECT_EQ(map.mode[at] == 0, mu > 0.0 && contact.sticks(mu, e));
        // The sign of K⁺ − K⁻ is the closed-form region, away from its boundary.
        if (std::abs(closed) > 1e-9) {
          EXPECT_EQ(map.energy_change[at] <= 0.0, contact.admissible(mu, e)) << mu << " " << e;
        }
        outside += !contact.admissible(mu, e);
      }
    }
    // On the boundary itself the energy is conserved: at e_stick in the sticking region, at e_slip(μ) in
    // the slipping one (where it lies in [0, 1] and in that mode), and the mode changes at μ_crit(e).
    const double e_stick = contact.sticking_restitution_bound();
    if (e_stick <= 1.0) {
      const double mu = contact.critical_mu(e_stick) + 1.0;
      const FrictionalImpactResult r = solve_frictional_impact(proj, s.qd_minus, Restitution::uniform(e_stick),
                                                               {{s.pairs[0].normal_row, s.pairs[0].tangent_row, mu}});
      EXPECT_EQ(r.pairs[0].mode, FrictionMode::Stick);
      EXPECT_NEAR(r.kinetic_energy_change, 0.0, 1e-9 * r.kinetic_minus);
      ++stick_boundaries;
    }
    for (double mu : {0.05, 0.2, 0.6}) {
      for (int s_dir : {-1, 1}) {
        const double bound = contact.slipping_restitution_bound(mu, s_dir);
        if (!(bound >= 0.0 && bound <= 1.0) || contact.sticks(mu, bound) || contact.slip_direction(bound) != s_dir) continue;
        const FrictionalImpactResult r = solve_at(s, mu, bound);
        EXPECT_NEAR(r.kinetic_energy_change, 0.0, 1e-9 * r.kinetic_minus) << "mu " << mu;
        ++slip_boundaries;
      }
    }
    for (double e : {0.0, 0.5, 1.0}) {
      const double mu_crit = contact.critical_mu(e);
      EXPECT_EQ(solve_at(s, mu_crit * (1 + 1e-6), e).pairs[0].mode, FrictionMode::Stick);
      EXPECT_EQ(solve_at(s, mu_crit * (1 - 1e-6), e).pairs[0].mode, FrictionMode::Slip);
    }
  }
  EXPECT_GT(outside, 0) << "no inadmissible (mu, e) in the maps";
  EXPECT_GT(stick_boundaries, 0);
  EXPECT_GT(slip_boundaries, 0);
}

TEST(FrictionConsistency, EveryImpactInsideTheRegionLosesEnergyAndTheFlagFiresOutside) {
  RandomSystems rng(13);
  int inside = 0, outside = 0;
  for (int trial = 0; trial < 400; ++trial) {
    FrictionSystem s = one_pair(rng);
    // Strong normal–tangential coupling and slips of either sign make both sides of the boundary common.
    const double mu = rng.uniform(0.0, 2.0), e = rng.uniform(0.0, 1.0);
    const SingleContactFriction contact = SingleContactFriction::of(Projection(s.inertia, s.jacobian), s.qd_minus, s.pairs[0]);
    const FrictionalImpactResult r = solve_at(s, mu, e);
    const double k = r.kinetic_minus;
    const double closed = contact.energy_change(mu, e);
    if (std::abs(closed) < 1e-6 * k) continue;  // too near the boundary to call
    if (contact.admissible(mu, e)) {
      ++inside;
      EXPECT_LE(r.kinetic_energy_change, 1e-12 * k);
      EXPECT_LE(r.energy_ratio, 1.0 + 1e-12);
      EXPECT_FALSE(r.flags.energy_gain);
    } else {
      ++outside;
      EXPECT_GT(r.kinetic_energy_change, 0.0);
      EXPECT_GT(r.energy_ratio, 1.0);
      EXPECT_TRUE(r.flags.energy_gain);
      // The energy comes from the tangential impulse working along the slip: only friction does positive work.
      EXPECT_GT(r.pairs[0].tangential_work, 0.0);
      EXPECT_LE(r.pairs[0].normal_work, 0.0);
    }
  }
  EXPECT_GT(inside, 100);
  EXPECT_GT(outside, 10);
}

TEST(FrictionConsistency, SticksConsistentlyForEveryVelocityIffEIsWithinTheQmiBound) {
  // One contact without joints: the sticking impact is the paper's §4 with E = diag(e, 0), energetically
  // consistent for every q̇⁻ iff λ_max(EQE − Q) ≤ 0, i.e. e² ≤ 1 − b²/(ac).
  RandomSystems rng(14);
  for (int trial = 0; trial < 20; ++trial) {
    const FrictionSystem s = testing::random_friction_system(rng, 0, 1, kNoSlip);
    const Projection proj(s.inertia, s.jacobian);
    const SingleContactFriction contact = SingleContactFriction::of(proj, s.qd_minus, s.pairs[0]);
    const double bound = contact.sticking_restitution_bound_for_every_velocity();
    ASSERT_GT(bound, 0.0);
    ASSERT_LT(bound, 1.0);
    for (double e : {0.5 * bound, bound * (1 - 1e-6), bound * (1 + 1e-6), 0.5 * (bound + 1.0)}) {
      const FrictionalImpactResult r = solve_frictional_impact(proj, s.qd_minus, Restitution::uniform(e), s.pairs);
      EXPECT_EQ(r.sticking.energy_consistent, e <= bound) << "e " << e << " bound " << bound;
      // The worst velocity: the eigenvector of EQE − Q, as φ̇⁻ = A q̇⁻.
      const Matrix& q = r.sticking.consistency_matrix;
      const Matrix qmi = vec({e, 0.0}).asDiagonal() * q * vec({e, 0.0}).asDiagonal() - q;
      Eigen::SelfAdjointEigenSolver<Matrix> eig(qmi);
      const Vector worst = proj.jacobian_pinv() * eig.eigenvectors().col(1);
      const FrictionalImpactResult w = solve_frictional_impact(proj, worst, Restitution::uniform(e), s.pairs);
      EXPECT_EQ(w.kinetic_energy_change > 0.0, e > bound) << "e " << e;
    }
  }
}

// ---- Kane and Levinson's double pendulum ---------------------------------------------------------------------

// Kane and Levinson (Dynamics: Theory and Applications, 1985) let a double pendulum of two equal uniform bars
// strike a rough floor and found that Newton's restitution with Coulomb's friction along the pre-impact slip
// (Whittaker's rule) gives more kinetic energy after the impact than before; Keller (1986) showed that the
// slip stops and reverses during the impact. We use μ = e = 0.5, the pair usually quoted for the example,
// and a configuration of our own (the book's figures could not be consulted here): bars of 1 kg and 1 m, the
// upper one at θ1 = 60° from the downward vertical turning at ω1 = −1 rad/s, the lower one hanging straight
// down (θ2 = 0) without turning (ω2 = 0), its end striking the floor at (ẋ, ẏ) = (−0.5, −0.866) m/s.
//
// The check, in joint coordinates (θ1, θ2), independently of the absolute coordinates the solver uses:
//   M_q = mL²[4/3, ½cos(θ1 − θ2); ½cos(θ1 − θ2), 1/3],   B = L(sin θ1 + sin θ2, −cos θ1 − cos θ2),
//   J = ∂(ẏ_B, ẋ_B)/∂θ̇ = L[sin θ1, sin θ2; cos θ1, cos θ2],   W = J M_q⁻¹ Jᵀ = [a b; b c],
//   (φ̇⁻, v_t⁻) = Jω,  K⁻ = ½ωᵀM_qω.
// Whittaker's impulse (s = sign v_t⁻): i_n = (1 + e)u/(a − μsb), v_t⁺ = v_t⁻ + i_n(b − μsc),
//   K⁺ − K⁻ = ½ i_n[−(1 − e)u − μs(v_t⁻ + v_t⁺)]  (the impulse's work on the mean velocity).
TEST(FrictionConsistency, KanesDoublePendulumGainsEnergyUnderWhittakersRuleAndTheModelSticks) {
  const double m = 1.0, length = 1.0, theta1 = M_PI / 3, theta2 = 0.0, mu = 0.5, e = 0.5;
  const Eigen::Vector2d omega(-1.0, 0.0);
  // Joint coordinates.
  Eigen::Matrix2d mq, j;
  mq << 4.0 / 3, 0.5 * std::cos(theta1 - theta2), 0.5 * std::cos(theta1 - theta2), 1.0 / 3;
  mq *= m * length * length;
  j << std::sin(theta1), std::sin(theta2), std::cos(theta1), std::cos(theta2);
  j *= length;
  const Eigen::Matrix2d w = j * mq.inverse() * j.transpose();
  const Eigen::Vector2d v = j * omega;
  const double a = w(0, 0), b = w(0, 1), c = w(1, 1), u = -v(0);
  const double k_minus = 0.5 * omega.dot(mq * omega);
  const int s = v(1) > 0 ? 1 : -1;
  const double i_n = (1 + e) * u / (a - mu * s * b);
  const double slip_after = v(1) + i_n * (b - mu * s * c);
  const double gain = 0.5 * i_n * (-(1 - e) * u - mu * s * (v(1) + slip_after));
  ASSERT_GT(u, 0.0);
  ASSERT_LT(slip_after * v(1), 0.0);          // the slip reverses
  EXPECT_NEAR(gain / k_minus, 1.0769, 5e-4);  // K⁺ = 2.08 K⁻: twice the kinetic energy of before the impact

  // The same pendulum in absolute coordinates with pin joints: the contact sees the same W and speeds.
  const FrictionSystem pendulum = testing::kane_double_pendulum(m, length, theta1, theta2, omega(0), omega(1), mu);
  const Projection proj(pendulum.inertia, pendulum.jacobian);
  const SingleContactFriction contact = SingleContactFriction::of(proj, pendulum.qd_minus, pendulum.pairs[0]);
  EXPECT_NEAR(contact.a, a, 1e-12);
  EXPECT_NEAR(contact.b, b, 1e-12);
  EXPECT_NEAR(contact.c, c, 1e-12);
  EXPECT_NEAR(contact.approach, v(0), 1e-12);
  EXPECT_NEAR(contact.slip, v(1), 1e-12);

  // Whittaker's rule in the solver: the same gain, flagged, the slip reversed, Coulomb's law broken.
  const Restitution restitution = Restitution::uniform(e);
  const FrictionalImpactResult whittaker =
      solve_impact_in_modes(proj, pendulum.qd_minus, restitution, pendulum.pairs, {{FrictionMode::Slip, s}});
  EXPECT_NEAR(whittaker.kinetic_minus, k_minus, 1e-12);
  EXPECT_NEAR(whittaker.kinetic_energy_change, gain, 1e-9 * k_minus);
  EXPECT_TRUE(whittaker.flags.energy_gain);
  EXPECT_TRUE(whittaker.pairs[0].slip_reversed);
  EXPECT_FALSE(whittaker.modes_consistent);
  EXPECT_GT(whittaker.pairs[0].tangential_work, 0.0);  // the friction impulse did positive work

  // The model: μ = 0.5 is above μ_crit, so the tip sticks (the slip stopped during the impact) and the
  // impact loses energy, as the closed form of the stick mode says.
  const FrictionalImpactResult model = solve_frictional_impact(proj, pendulum.qd_minus, restitution, pendulum.pairs);
  EXPECT_NEAR(model.pairs[0].critical_mu, contact.critical_mu(e), 1e-12);
  EXPECT_NEAR(model.pairs[0].critical_mu, 0.141, 1e-3);
  EXPECT_EQ(model.pairs[0].mode, FrictionMode::Stick);
  EXPECT_TRUE(model.pairs[0].slip_stopped);
  EXPECT_TRUE(model.modes_consistent);
  EXPECT_NEAR(model.kinetic_energy_change, contact.sticking_energy_change(e), 1e-9 * k_minus);
  EXPECT_LT(model.kinetic_energy_change, 0.0);
  EXPECT_FALSE(model.flags.energy_gain);
  EXPECT_TRUE(contact.admissible(mu, e));
  // Below μ_crit the two rules agree: Whittaker's paradox is his rule used beyond the critical μ.
  const double below = 0.5 * contact.critical_mu(e);
  std::vector<FrictionPair> slippery = pendulum.pairs;
  slippery[0].mu = below;
  const FrictionalImpactResult slipping = solve_frictional_impact(proj, pendulum.qd_minus, restitution, slippery);
  const FrictionalImpactResult whittaker_below =
      solve_impact_in_modes(proj, pendulum.qd_minus, restitution, slippery, {{FrictionMode::Slip, s}});
  EXPECT_EQ(slipping.pairs[0].mode, FrictionMode::Slip);
  EXPECT_LT((slipping.qd_plus - whittaker_below.qd_plus).norm(), 1e-12 * slipping.qd_plus.norm());
  EXPECT_LE(slipping.kinetic_energy_change, 0.0);
}

// ---- bounds and bad input -------------------------------------------------------------------------------------

TEST(FrictionConsistency, TheMapsWorkIsBoundedAndItsInputNamed) {
  const FrictionSystem s = testing::rod_on_floor(1.0, 0.5, 0.3, vec({0.1, -1.0, 0.0}), 0.5);
  const Projection proj(s.inertia, s.jacobian);
  const Restitution e = Restitution::uniform(0.5);
  const auto message = [&](int pair, double mu_max, int resolution) {
    return testing::message_of([&] { friction_energy_map(proj, s.qd_minus, e, s.pairs, pair, mu_max, resolution); });
  };
  EXPECT_EQ(message(1, 1.0, 10), "pair: must be one of the pairs (0..0)");
  EXPECT_EQ(message(0, 0.0, 10), "mu_max: must be a finite number > 0, got 0");
  EXPECT_EQ(message(0, std::nan(""), 10), "mu_max: must be a finite number > 0, got nan");
  EXPECT_EQ(message(0, 1.0, 1), "resolution: must be an integer in [2, 256]");
  EXPECT_EQ(message(0, 1.0, 257), "resolution: must be an integer in [2, 256]");
  EXPECT_EQ(friction_energy_map(proj, s.qd_minus, e, s.pairs, 0, 1.0, 256).energy_change.size(), 256u * 256u);
  // A large system: resolution² · (n + m)³ ≤ 2e8.
  RandomSystems rng(15);
  const FrictionSystem big = testing::random_friction_system(rng, 30, 10, 0.5);
  const Projection big_proj(big.inertia, big.jacobian);
  const int size = static_cast<int>(big.jacobian.rows() + big.jacobian.cols());
  const int finest = static_cast<int>(std::floor(std::sqrt(2e8 / (static_cast<double>(size) * size * size))));
  EXPECT_EQ(testing::message_of([&] { friction_energy_map(big_proj, big.qd_minus, e, big.pairs, 0, 1.0, finest + 1); }),
            "resolution: " + std::to_string(finest + 1) + " is too fine for an impact of " + std::to_string(big.jacobian.cols()) +
                " coordinates and " + std::to_string(big.jacobian.rows()) +
                " rows: a map costs resolution² × (n + m)³, at most 2e+08 (resolution at most " + std::to_string(finest) + ")");
  EXPECT_EQ(testing::message_of([&] {
              SingleContactFriction::of(proj, vec({1.0, 0.0, 0.0}), FrictionPair{0, 0, 0.5});
            }),
            "pair: must be two different rows of A (0..1)");
}

}  // namespace
}  // namespace oblique
