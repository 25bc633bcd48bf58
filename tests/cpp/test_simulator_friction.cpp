// Coulomb friction in simulation runs (docs/friction.md): the closed forms of issue #10 — a block on an
// incline (accelerating at g(sin θ − μ cos θ) below the friction angle, staying put above it), a block
// sliding to rest on the flat (after v₀²/(2μg), at t = v₀/(μg)), a solid disk thrown without spin (rolling
// after t = v₀/(3μg) at 2v₀/3), a disk spinning backwards (it comes back when the closed form says) — the
// energy of every smooth phase never increasing, a frictional impact of a run against the hand-derived
// stick and slip impulses of a rod end on both sides of its critical μ, Painlevé's paradox detected and left
// through a tangential impact, and μ = 0 giving today's frictionless run bit for bit.
//
// The disk's closed form: a round body of mass m, radius r and inertia I = k m r² (a solid disk: k = ½; a
// ring: k = 1; a solid sphere would be k = 2/5) on a floor with friction μ. While it slips with the speed
// v_t = v + ωr of its lowest point (ω counter-clockwise), the friction −μ m g sign(v_t) gives
//   v̇ = −μ g s,   ω̇ = −μ g s / (k r),   v̇_t = −μ g s (1 + 1/k)   (s = sign v_t),
// so the slip stops at t₁ = |v_t(0)| / (μ g (1 + 1/k)) and the body then rolls at v₁ = v₀ − μ g s t₁.
// Thrown without spin: t₁ = k v₀ / ((1 + k) μ g) and v₁ = v₀ / (1 + k) (solid disk: v₀/(3μg) and 2v₀/3;
// ring: v₀/(2μg) and v₀/2). With backspin ω₀ > 0 it comes back, v₁ < 0, when ω₀ r > v₀/k (solid disk:
// ω₀ r > 2v₀).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "oblique/frictional_impact.hpp"
#include "oblique/simulation_json.hpp"
#include "oblique/simulation_state.hpp"
#include "oblique/simulator.hpp"
#include "scenario_builders.hpp"

namespace oblique {
namespace {

using testing::kPi;

constexpr double kG = 9.81;

/// Relative closeness to 1e-9 (absolute against 1 for values near zero).
::testing::AssertionResult close(double got, double expected, double tolerance = 1e-9) {
  if (std::abs(got - expected) <= tolerance * std::max(1.0, std::abs(expected))) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "got " << got << ", expected " << expected << " (difference "
                                       << got - expected << ")";
}

/// A thin box (w = 0.2 m, h = 0.02 m, m = 1) resting on a plane through the origin inclined by θ, at rest
/// or with speed v along the plane (downhill positive), and μ on its contact.
Scenario box_on_incline(double theta, double mu, double speed = 0.0) {
  Scenario s;
  s.gravity = Vec2(0.0, -kG);
  const Vec2 down(std::cos(theta), -std::sin(theta));  // along the incline, downhill (to the right)
  const Vec2 normal(std::sin(theta), std::cos(theta));
  s.planes.push_back(testing::plane(Vec2::Zero(), normal));
  BodyDef box = testing::make_body("block", Shape::Type::Box, 1.0, 0.01 * s.planes[0].normal, -theta, speed * down);
  box.shape.width = 0.2;
  box.shape.height = 0.02;
  s.bodies.push_back(box);
  ContactDef contact = testing::body_plane(0, 0, 0.0);
  contact.mu = mu;
  s.contacts.push_back(contact);
  s.duration = 2.0;
  return s;
}

/// A solid disk (m = 1, r = 0.1) on the floor y = 0 with velocity v₀ and angular velocity ω₀, μ on its contact.
Scenario disk_on_floor(double v0, double omega0, double mu) {
  Scenario s;
  s.gravity = Vec2(0.0, -kG);
  s.planes.push_back(testing::plane(Vec2::Zero(), Vec2(0.0, 1.0)));
  BodyDef disk = testing::disk("disk", 1.0, 0.1, Vec2(0.0, 0.1), Vec2(v0, 0.0));
  disk.angular_velocity = omega0;
  s.bodies.push_back(disk);
  ContactDef contact = testing::body_plane(0, 0, 0.0);
  contact.mu = mu;
  s.contacts.push_back(contact);
  return s;
}

/// Advances in steps of `dt` to `t`, checking that the total energy never increases (beyond round-off).
void advance_without_energy_gain(Simulator& sim, double t, double dt = 0.01) {
  double previous = sim.energy().total;
  while (sim.time() < t - 1e-12) {
    sim.advance_to(std::min(t, sim.time() + dt));
    const double now = sim.energy().total;
    EXPECT_LE(now, previous + 1e-12 * std::max(1.0, std::abs(previous))) << "energy gained at t = " << sim.time();
    previous = now;
  }
}

// ---- frictional impacts of a run ------------------------------------------------------------------------

/// The rod of docs/friction.md (m = 2, length 1, tilted 30°, its lower end on the floor) with
/// q̇⁻ = (−1.5, −2, 1), e = 0.6 and μ on its contact; no gravity.
Scenario rod_end_striking(double mu) {
  Scenario s;
  s.gravity = Vec2::Zero();
  s.planes.push_back(testing::plane(Vec2::Zero(), Vec2(0.0, 1.0)));
  BodyDef rod = testing::rod("rod", 2.0, 1.0, Vec2(0.0, 0.25), kPi / 6.0);
  rod.velocity = Vec2(-1.5, -2.0);
  rod.angular_velocity = 1.0;
  s.bodies.push_back(rod);
  ContactDef contact = testing::body_plane(0, 0, 0.6);
  contact.mu = mu;
  s.contacts.push_back(contact);
  s.duration = 0.1;
  return s;
}

TEST(SimulatorFriction, RodEndImpactOfARunMatchesTheHandDerivedStickAndSlipImpulses) {
  const double m = 2.0, e = 0.6, c = std::cos(kPi / 6.0), sn = std::sin(kPi / 6.0), h = 0.5;
  const double u = 2.0 + h * c * 1.0;  // −φ̇⁻ = −(ẏ − h c ω)
  const double v_t = -1.5 + h * sn * 1.0;
  for (double mu : {0.5, 1.5}) {
    SCOPED_TRACE(mu);
    Simulator sim(rod_end_striking(mu));
    ASSERT_EQ(sim.impacts().size(), 1u);
    const ImpactRecord& record = sim.impacts()[0];
    ASSERT_EQ(record.friction.size(), 1u);
    const ContactFriction& f = record.friction[0];
    const int row = f.normal_row;
    // The model's tangent is perp(n) = (−1, 0) on the floor, the opposite of the t of docs/friction.md: σ
    // turns the hand-derived tangential quantities into the model's.
    const Matrix a = record.jacobian.dense();
    const double sigma = a(row + 1, 0) < 0.0 ? -1.0 : 1.0;
    EXPECT_EQ(f.mu, mu);
    EXPECT_TRUE(close(f.critical_mu, 1.0809826761287624));
    const double i_n = record.result.impulse_multipliers(row), i_t = record.result.impulse_multipliers(row + 1);
    if (mu < f.critical_mu) {
      // Slip, s' = −1: i_n = m(1 + e)u / (1 + 3c² + 3μ s' c s), i_t = −μ s' i_n.
      EXPECT_TRUE(f.slipping);
      EXPECT_EQ(f.direction, -1.0 * sigma);
      EXPECT_TRUE(close(i_n, m * (1.0 + e) * u / (1.0 + 3.0 * c * c - 3.0 * mu * c * sn)));
      EXPECT_TRUE(close(i_t, sigma * mu * i_n));
      EXPECT_LT(f.discriminator, 0.0);
      EXPECT_GT(f.sticking_cone_angle, 0.0);
      EXPECT_TRUE(close(f.cone_angle, 0.0, 1e-12));
    } else {
      // Stick: i_n = (m/4)((1 + 3s²)(1 + e)u − 3cs v_t), i_t = (m/4)(3cs(1 + e)u − (1 + 3c²) v_t).
      EXPECT_FALSE(f.slipping);
      EXPECT_TRUE(close(i_n, m / 4.0 * ((1.0 + 3.0 * sn * sn) * (1.0 + e) * u - 3.0 * c * sn * v_t)));
      EXPECT_TRUE(close(i_t, sigma * m / 4.0 * (3.0 * c * sn * (1.0 + e) * u - (1.0 + 3.0 * c * c) * v_t)));
      EXPECT_GE(f.discriminator, 0.0);
      EXPECT_LT(f.cone_angle, 0.0);
    }
    // What the CLI's simulate and the JS API show of it: mode, μ_crit, discriminator, cone angle per point.
    const Json summary = impact_record_summary_to_json(record);
    EXPECT_EQ(summary.at("friction")[0].at("mode"), f.slipping ? "slip" : "stick");
    EXPECT_EQ(summary.at("friction")[0].at("mu_critical"), f.critical_mu);
    EXPECT_EQ(summary.at("friction")[0].at("discriminator"), f.discriminator);
    EXPECT_EQ(summary.at("friction")[0].at("contact"), 0);
    EXPECT_FALSE(summary.contains("painleve"));
    const Json full = impact_record_to_json(record);
    EXPECT_EQ(full.at("mu")[0], mu);
    EXPECT_EQ(full.at("pairs")[0][0], row);
    // The record is the frictional impact unit's, to the last bit, on the record's own M and A.
    const Projection projection = record.projection();
    const FrictionalImpactResult direct = solve_frictional_impact(
        projection, record.result.qd_minus, Restitution::rows(record.result.restitution),
        {FrictionPair{row, row + 1, mu}}, Vector(), record.unilateral());
    EXPECT_EQ(direct.qd_plus, record.result.qd_plus);
    EXPECT_EQ(direct.pairs[0].discriminator, f.discriminator);
  }
}

TEST(SimulatorFriction, MuZeroIsTodaysFrictionlessRunAndStickTodaysStickRunBitForBit) {
  // A box dropped at an angle onto the floor: it strikes with a corner, slides and settles.
  Scenario base;
  base.gravity = Vec2(0.0, -kG);
  base.planes.push_back(testing::plane(Vec2::Zero(), Vec2(0.0, 1.0)));
  BodyDef box = testing::make_body("box", Shape::Type::Box, 1.0, Vec2(0.0, 0.3), 0.4, Vec2(1.0, 0.0), 2.0);
  base.bodies.push_back(box);
  base.contacts.push_back(testing::body_plane(0, 0, 0.5));
  for (bool stick : {false, true}) {
    SCOPED_TRACE(stick);
    Scenario today = base, with_mu = base;
    today.contacts[0].stick = stick;
    with_mu.contacts[0].stick = stick;
    if (!stick) with_mu.contacts[0].mu = 0.0;
    with_mu.mu = 0.0;
    Simulator a(today), b(with_mu);
    a.advance_to(1.5);
    b.advance_to(1.5);
    EXPECT_EQ(a.positions(), b.positions());
    EXPECT_EQ(a.velocities(), b.velocities());
    ASSERT_EQ(a.impacts().size(), b.impacts().size());
    ASSERT_GT(a.impacts().size(), 0u);
    for (std::size_t i = 0; i < a.impacts().size(); ++i) {
      EXPECT_EQ(a.impacts()[i].result.qd_plus, b.impacts()[i].result.qd_plus);
      EXPECT_TRUE(b.impacts()[i].friction.empty());
    }
  }
}

}  // namespace
}  // namespace oblique
