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

#include "oblique/friction/frictional_impact.hpp"
#include "oblique/io/simulation_json.hpp"
#include "oblique/simulation/simulation_state.hpp"
#include "oblique/simulation/simulator.hpp"
#include "comparisons.hpp"
#include "scenario_builders.hpp"

namespace oblique {
namespace {

using testing::close;
using testing::kG;
using testing::kPi;

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

// ---- the incline -----------------------------------------------------------------------------------------

TEST(SimulatorFriction, BlockOnAnInclineAcceleratesAtGTimesSinMinusMuCosBelowTheFrictionAngle) {
  const double theta = kPi / 6.0, mu = 0.3;
  Simulator sim(box_on_incline(theta, mu));
  advance_without_energy_gain(sim, 1.0);
  const Vec2 down(std::cos(theta), -std::sin(theta));
  const double a = kG * (std::sin(theta) - mu * std::cos(theta));
  const Vec2 v = sim.velocities().segment<2>(0);
  EXPECT_TRUE(close(v.dot(down), a * 1.0));
  EXPECT_TRUE(close((sim.positions().segment<2>(0) - 0.01 * Vec2(std::sin(theta), std::cos(theta))).dot(down), 0.5 * a));
  EXPECT_TRUE(close(sim.velocities()(2), 0.0, 1e-12));  // it slides flat, no tipping
  // What the scene draws: both corners slide downhill, and their friction forces add up to μ m g cos θ
  // against the slip (t = perp(n) points uphill here, so the slip is toward −t and the force along +t).
  // Each corner's slip speed is the block's speed along t: −a t, the block not turning.
  double friction = 0.0;
  for (const ContactPoint& p : sim.contact_points()) {
    if (p.state != ContactState::Active) continue;
    EXPECT_EQ(p.slip, -1);
    EXPECT_TRUE(close(p.slip_speed, -a * 1.0));
    friction += p.friction;
  }
  EXPECT_TRUE(close(friction, mu * kG * std::cos(theta)));
  // The work of friction is the energy lost: μ m g cos θ · distance.
  const Scenario s = box_on_incline(theta, mu);
  EXPECT_TRUE(close(Simulator(s).energy().total - sim.energy().total, mu * kG * std::cos(theta) * 0.5 * a));
}

TEST(SimulatorFriction, BlockOnAnInclineStaysPutAtOrAboveTheFrictionAngle) {
  const double theta = kPi / 6.0;  // tan θ ≈ 0.577
  for (double mu : {0.7, 1.5}) {
    SCOPED_TRACE(mu);
    Simulator sim(box_on_incline(theta, mu));
    const Vector q0 = sim.positions();
    sim.advance_to(1.0);
    EXPECT_LT((sim.positions() - q0).norm(), 1e-12);
    EXPECT_LT(sim.velocities().norm(), 1e-12);
    // The contact holds the block with its friction inside the cone: both corners rest.
    int resting = 0;
    double friction = 0.0;
    for (const ContactPoint& p : sim.contact_points()) {
      resting += p.state == ContactState::Active ? 1 : 0;
      if (p.state == ContactState::Active) EXPECT_EQ(p.slip, 0);
      EXPECT_EQ(p.slip_speed, 0.0);
      friction += p.friction;
    }
    EXPECT_EQ(resting, 2);
    // The sticking friction holds the block: m g sin θ up the slope.
    EXPECT_TRUE(close(friction, kG * std::sin(theta)));
  }
}

// ---- sliding to rest on the flat ------------------------------------------------------------------------

TEST(SimulatorFriction, BlockSlidingOnTheFlatStopsAfterVSquaredOverTwoMuGAtVOverMuG) {
  const double v0 = 2.0, mu = 0.5;
  Simulator sim(box_on_incline(0.0, mu, v0));
  const double t_stop = v0 / (mu * kG), distance = v0 * v0 / (2.0 * mu * kG);
  advance_without_energy_gain(sim, t_stop - 0.01);
  EXPECT_TRUE(close(sim.velocities()(0), v0 - mu * kG * sim.time()));
  advance_without_energy_gain(sim, 1.0);
  // At rest where the closed form says, and still there.
  EXPECT_TRUE(close(sim.positions()(0), distance));
  EXPECT_LT(sim.velocities().norm(), 1e-9);
  // The stop is an event located in time: just before it the block still slides at μ g (t_stop − t).
  Simulator before(box_on_incline(0.0, mu, v0));
  do before.advance_to(t_stop - 1e-6); while (before.work_limit_hit());
  EXPECT_TRUE(close(before.velocities()(0), mu * kG * 1e-6, 1e-6));
}

// ---- a disk thrown on the floor -------------------------------------------------------------------------

TEST(SimulatorFriction, RingThrownWithoutSpinRollsAfterVOverTwoMuGAtHalfOfV) {
  const double v0 = 3.0, mu = 0.2, r = 0.1;
  Scenario s = disk_on_floor(v0, 0.0, mu);
  s.bodies[0].inertia = 1.0 * r * r;  // k = 1
  Simulator sim(s);
  const double t_roll = v0 / (2.0 * mu * kG);
  advance_without_energy_gain(sim, t_roll + 0.2);
  EXPECT_TRUE(close(sim.velocities()(0), v0 / 2.0));
  EXPECT_TRUE(close(sim.velocities()(2), -v0 / (2.0 * r)));
}

TEST(SimulatorFriction, SolidDiskThrownWithoutSpinRollsAfterVOverThreeMuGAtTwoThirdsOfV) {
  const double v0 = 3.0, mu = 0.2, r = 0.1;
  Simulator sim(disk_on_floor(v0, 0.0, mu));
  const double t_roll = v0 / (3.0 * mu * kG);
  // While it skids: v = v₀ − μ g t, ω = −2μ g t / r.
  advance_without_energy_gain(sim, 0.5 * t_roll);
  EXPECT_TRUE(close(sim.velocities()(0), v0 - mu * kG * sim.time()));
  EXPECT_TRUE(close(sim.velocities()(2), -2.0 * mu * kG * sim.time() / r));
  // Rolling from t_roll on, at 2v₀/3, with no further loss.
  advance_without_energy_gain(sim, t_roll + 0.3);
  EXPECT_TRUE(close(sim.velocities()(0), 2.0 * v0 / 3.0));
  EXPECT_TRUE(close(sim.velocities()(2), -2.0 * v0 / (3.0 * r)));
  const double x_roll = v0 * t_roll - 0.5 * mu * kG * t_roll * t_roll;
  EXPECT_TRUE(close(sim.positions()(0), x_roll + 2.0 * v0 / 3.0 * (sim.time() - t_roll)));
}

TEST(SimulatorFriction, DiskSpinningBackwardsComesBackWhenTheClosedFormSays) {
  // v₀ = 2, ω₀ r = 6 > 2v₀: the slip v_t = v + ωr = 8 stops at t₁ = 8/(3μg); then it rolls back at
  // v₀ − μ g t₁ = −2/3 m/s. Its forward speed crosses zero at v₀/(μg) < t₁, while it still slips.
  const double v0 = 2.0, r = 0.1, omega0 = 60.0, mu = 0.4;
  Simulator sim(disk_on_floor(v0, omega0, mu));
  const double t1 = (v0 + omega0 * r) / (3.0 * mu * kG), v1 = v0 - mu * kG * t1;
  ASSERT_LT(v1, 0.0);
  advance_without_energy_gain(sim, v0 / (mu * kG) + 0.01);
  EXPECT_TRUE(close(sim.velocities()(0), v0 - mu * kG * sim.time()));
  EXPECT_LT(sim.velocities()(0), 0.0);  // already coming back while it skids
  advance_without_energy_gain(sim, t1 + 0.2);
  EXPECT_TRUE(close(sim.velocities()(0), v1));
  EXPECT_TRUE(close(sim.velocities()(2), -v1 / r));
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

// ---- Painlevé ---------------------------------------------------------------------------------------------

TEST(SimulatorFriction, PainleveStateIsDetectedAndLeftThroughALoggedTangentialImpact) {
  // The rod of docs/friction.md resting on its lower end, sliding left (v_t < 0) with μ = 3: the sliding
  // normal force solves (1 + 3c² + 3μ s c s_φ) λ_n / m = r with s = −1, and 1 + 3c² − 3μ c s_φ =
  // 3.25 − 3.897 < 0: no solution or two (Painlevé). The way out is a tangential impact: it sticks.
  Scenario s = rod_end_striking(3.0);
  s.gravity = Vec2(0.0, -kG);
  s.contacts[0].restitution = 0.0;
  s.bodies[0].velocity = Vec2(-1.0, 0.0);
  s.bodies[0].angular_velocity = 0.0;
  Simulator sim(s);
  // Put it sliding (the initial impact would already have stuck it): active, sliding left, which is toward
  // +t for the model's tangent perp(n) = (−1, 0).
  SimulationState state = sim.save_state();
  state.qd = Vector::Zero(3);
  state.qd(0) = -1.0;
  state.active.assign(state.active.size(), 0);
  state.sliding.assign(state.sliding.size(), 0);
  const int lower = sim.contact_points()[0].gap < sim.contact_points()[1].gap ? 0 : 1;
  state.active[static_cast<std::size_t>(lower)] = 1;
  state.sliding[static_cast<std::size_t>(lower)] = kSlidesForward;
  state.impact_count = sim.impacts().size() + sim.dropped_impacts();
  sim.restore_state(state);
  const double energy = sim.energy().total;
  sim.advance_to(0.01);
  bool painleve = false;
  for (const ImpactRecord& record : sim.impacts()) painleve = painleve || record.painleve;
  EXPECT_TRUE(painleve);
  // The tangential impact stopped the slip: the end sticks (the model's stick mode), with energy lost.
  for (const ImpactRecord& record : sim.impacts()) {
    if (!record.painleve) continue;
    ASSERT_EQ(record.friction.size(), 1u);
    EXPECT_FALSE(record.friction[0].slipping);
    EXPECT_LT(record.result.kinetic_energy_change, 0.0);
  }
  EXPECT_LE(sim.energy().total, energy);
}

}  // namespace
}  // namespace oblique
