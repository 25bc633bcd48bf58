// The event-driven simulator against closed forms: the bouncing ball (impact time and speed, heights
// shrinking by e², rest by the Zeno time), Newton's cradle (sequential and simultaneous), the rimless
// wheel, event location to 1 ns, momentum and the restitution law at every impact, a slider-crank through
// its dead centre, energy with e = 1, scheduled impulses, determinism, and the error messages.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "oblique/io/simulation_json.hpp"
#include "oblique/simulation/simulator.hpp"
#include "conservation.hpp"
#include "error_message.hpp"
#include "scenario_builders.hpp"
#include "simulation_runs.hpp"

namespace oblique {
namespace {

using testing::kPi;

using testing::kG;

using testing::run_to;

Vec2 linear_momentum(const Model& model, const Vector& qd) {
  Vec2 p = Vec2::Zero();
  for (int b = 0; b < model.body_count(); ++b) p += model.mass_diagonal()(3 * b) * qd.segment<2>(3 * b);
  return p;
}

using testing::message_of;

// --- bouncing ball ------------------------------------------------------------------------------------------

TEST(BouncingBall, FirstImpactAtTheFreeFallTimeAndSpeed) {
  Simulator sim(testing::bouncing_ball(1.0, 0.8));
  ASSERT_TRUE(sim.advance_to_next_impact(2.0));
  const ImpactRecord& impact = sim.impacts().front();
  EXPECT_NEAR(impact.time, std::sqrt(2.0 / kG), 1e-9);
  EXPECT_NEAR(impact.time, 0.451524, 1e-6);
  EXPECT_NEAR(-impact.result.qd_minus(1), std::sqrt(2.0 * kG), 1e-9);
  EXPECT_NEAR(-impact.result.qd_minus(1), 4.42945, 1e-5);
  EXPECT_NEAR(impact.result.qd_plus(1), 0.8 * std::sqrt(2.0 * kG), 1e-9);
  ASSERT_EQ(impact.contacts.size(), 1u);
  EXPECT_EQ(impact.contacts[0], 0);
  // The impact point is on the floor under the ball, the normal is the floor's.
  EXPECT_NEAR(impact.positions[0].y(), 0.0, 1e-9);
  EXPECT_NEAR(impact.normals[0].y(), 1.0, 1e-15);
  // Stopped right after it: never penetrating (beyond the picometre of the event slack).
  EXPECT_GE(sim.contact_points()[0].gap, -sim.event_slack(0));
  EXPECT_EQ(sim.contact_points()[0].state, ContactState::Impacting);
}

TEST(BouncingBall, EachBounceHeightIsESquaredTimesTheLast) {
  const double e = 0.8;
  Simulator sim(testing::bouncing_ball(1.0, e));
  run_to(sim, 4.0);
  const auto& impacts = sim.impacts();
  ASSERT_GT(impacts.size(), 10u);
  double previous_height = 1.0;
  for (std::size_t k = 0; k + 1 < impacts.size() && k < 10; ++k) {
    const double up = impacts[k].result.qd_plus(1);
    const double height = up * up / (2 * kG);
    EXPECT_NEAR(height / previous_height, e * e, 1e-9) << "bounce " << k;
    // The flight time between impacts is 2v⁺/g.
    EXPECT_NEAR(impacts[k + 1].time - impacts[k].time, 2 * up / kG, 1e-9) << "bounce " << k;
    previous_height = height;
  }
}

TEST(BouncingBall, ComesToRestInContactByTheZenoTime) {
  const double e = 0.8;
  Simulator sim(testing::bouncing_ball(1.0, e));
  run_to(sim, 5.0);
  const double t0 = std::sqrt(2.0 / kG);
  const double t_rest = t0 * (1 + e) / (1 - e);
  EXPECT_NEAR(t_rest, 4.06371, 1e-5);
  // The last impact is the plastic one (slower than rest_speed) that starts the resting contact.
  const ImpactRecord& last = sim.impacts().back();
  EXPECT_LT(-last.result.qd_minus(1), sim.scenario().integrator.rest_speed);
  EXPECT_NEAR(last.result.qd_plus(1), 0.0, 1e-12);
  EXPECT_LE(last.time, t_rest + 1e-9);
  EXPECT_LT((t_rest - last.time) / t_rest, 1e-3);
  EXPECT_LT(sim.impacts().size(), 60u);  // finitely many impacts
  // Resting contact: active, λ = mg, at rest on the floor.
  const ContactPoint& point = sim.contact_points()[0];
  EXPECT_EQ(point.state, ContactState::Active);
  EXPECT_NEAR(point.multiplier, 1.0 * kG, 1e-9 * kG);
  EXPECT_NEAR(sim.positions()(1), 0.1, 1e-12);
  EXPECT_NEAR(sim.velocities().norm(), 0.0, 1e-12);
  EXPECT_LT(sim.constraint_violation(), 1e-12);
}

// --- event location -----------------------------------------------------------------------------------------

TEST(EventLocation, ImpactTimesWithinOneNanosecondOfTheClosedForms) {
  for (double height : {0.37, 1.0, 2.5}) {
    Simulator sim(testing::bouncing_ball(height, 0.5));
    ASSERT_TRUE(sim.advance_to_next_impact(3.0));
    EXPECT_NEAR(sim.impacts()[0].time, std::sqrt(2 * height / kG), 1e-9) << "height " << height;
    // Second impact: t₀ + 2 e v₀ / g.
    ASSERT_TRUE(sim.advance_to_next_impact(3.0));
    EXPECT_NEAR(sim.impacts()[1].time, std::sqrt(2 * height / kG) * (1 + 2 * 0.5), 1e-9);
  }
  // Two balls closing a 0.8 m gap at 1.5 m/s.
  Simulator sim(testing::two_balls(1.0, -0.5, 1.0));
  ASSERT_TRUE(sim.advance_to_next_impact(2.0));
  EXPECT_NEAR(sim.impacts()[0].time, 0.8 / 1.5, 1e-9);
  // Elastic, masses 1 and 2: v_a⁺ = −1, v_b⁺ = 0.5 (centre-of-mass velocity 0).
  EXPECT_NEAR(sim.velocities()(0), -1.0, 1e-12);
  EXPECT_NEAR(sim.velocities()(3), 0.5, 1e-12);
}

// --- Newton's cradle ----------------------------------------------------------------------------------------

TEST(NewtonsCradle, WithMicrometreGapsTheLastBallLeavesWithTheStrikerSpeed) {
  Simulator sim(testing::newtons_cradle(1e-6, 1.0));
  run_to(sim, 0.5);
  EXPECT_EQ(sim.impacts().size(), 4u);
  for (int b = 0; b < 4; ++b) EXPECT_NEAR(sim.velocities()(3 * b), 0.0, 1e-12) << "ball " << b;
  EXPECT_NEAR(sim.velocities()(12), 1.0, 1e-12);
  for (const ImpactRecord& impact : sim.impacts()) EXPECT_EQ(impact.points.size(), 1u);
}

TEST(NewtonsCradle, TouchingBallsTakeTheSimultaneousLaw) {
  Simulator sim(testing::newtons_cradle(0.0, 1.0));
  run_to(sim, 0.5);
  ASSERT_EQ(sim.impacts().size(), 1u);
  EXPECT_EQ(sim.impacts()[0].points.size(), 4u);
  EXPECT_NEAR(sim.impacts()[0].time, 0.1, 1e-9);
  const double expected[] = {-0.6, 0.4, 0.4, 0.4, 0.4};
  for (int b = 0; b < 5; ++b) EXPECT_NEAR(sim.velocities()(3 * b), expected[b], 1e-12) << "ball " << b;
  // e = 1: the reflection q̇⁺ = R q̇⁻.
  const ImpactRecord& impact = sim.impacts()[0];
  EXPECT_LT((impact.result.qd_plus - impact.projection().reflection() * impact.result.qd_minus).norm(), 1e-12);
  EXPECT_NEAR(impact.result.energy_ratio, 1.0, 1e-12);
}

// --- rimless wheel ------------------------------------------------------------------------------------------

TEST(RimlessWheel, EachImpactScalesTheAngularVelocityByTheClosedForm) {
  const int spokes = 8;
  Simulator sim(testing::rimless_wheel(spokes, 0.1, 1.5));
  const double inertia = 1.0 / 3.0, ml2 = 1.0;
  const double two_alpha = 2 * kPi / spokes;
  const double ratio = (inertia + ml2 * std::cos(two_alpha)) / (inertia + ml2);
  // It starts on one foot, which is active and sticks.
  int active = 0;
  for (const ContactPoint& p : sim.contact_points()) active += p.state == ContactState::Active;
  EXPECT_EQ(active, 1);
  for (int k = 0; k < 8; ++k) {
    bool found = false;
    do found = sim.advance_to_next_impact(3.0); while (!found && sim.work_limit_hit());
    ASSERT_TRUE(found) << "impact " << k;
    const ImpactRecord& impact = sim.impacts().back();
    EXPECT_NEAR(impact.result.qd_plus(2) / impact.result.qd_minus(2), ratio, 1e-9) << "impact " << k;
    // The trailing foot left (the Γ rule took a second pass) and only the new foot is in contact.
    EXPECT_GE(impact.iterations, 2);
    EXPECT_EQ(impact.points.size(), 1u);
    active = 0;
    for (const ContactPoint& p : sim.contact_points()) active += p.state != ContactState::Inactive;
    EXPECT_EQ(active, 1);
    // Plastic, sticking: the new foot is at rest.
    const ContactPoint& foot = sim.contact_points()[static_cast<std::size_t>(impact.points[0])];
    EXPECT_NEAR(foot.normal_velocity, 0.0, 1e-12);
  }
  EXPECT_LT(sim.constraint_violation(), 1e-9);
}

// --- release -----------------------------------------------------------------------------------------------

TEST(Release, ARopeGoesSlackWhereItsTensionVanishes) {
  // A ball whirled on a 1 m rope from the bottom at v₀² = 3.5 g: the tension m(v²/l + g cos φ) vanishes at
  // cos φ = (2 − 3.5)/3, φ = 120°, where the ball leaves the circle with v² = g/2 and flies freely.
  Scenario s;
  s.gravity = Vec2(0.0, -kG);
  s.bodies.push_back(testing::disk("ball", 1.0, 0.05, Vec2(0.0, -1.0), Vec2(std::sqrt(3.5 * kG), 0.0)));
  ContactDef rope;
  rope.type = ContactDef::Type::Rope;
  rope.body_a = kWorld;
  rope.body_b = 0;
  rope.length = 1.0;
  s.contacts.push_back(rope);
  Simulator sim(s);
  ASSERT_EQ(sim.contact_points()[0].state, ContactState::Active);
  EXPECT_NEAR(sim.contact_points()[0].multiplier, 4.5 * kG, 1e-9);
  while (sim.contact_points()[0].state == ContactState::Active && sim.time() < 2.0) sim.advance(1e-3);
  ASSERT_EQ(sim.contact_points()[0].state, ContactState::Inactive);
  // Free flight since the release at φ = 120°: x fixes the time since, y must follow.
  const double phi = 2 * kPi / 3, speed = std::sqrt(kG / 2);
  const Vec2 p_release(std::sin(phi), -std::cos(phi)), v_release = speed * Vec2(std::cos(phi), std::sin(phi));
  const double since = (sim.positions()(0) - p_release.x()) / v_release.x();
  EXPECT_GE(since, 0.0);
  EXPECT_LE(since, 1e-3 + 1e-9);
  EXPECT_NEAR(sim.positions()(1), p_release.y() + v_release.y() * since - 0.5 * kG * since * since, 1e-9);
  EXPECT_NEAR(sim.velocities()(0), v_release.x(), 1e-9);
}

// --- momentum and the restitution law ----------------------------------------------------------------------

TEST(Billiards, MomentumIsConservedAndEachContactFollowsItsRestitution) {
  Scenario s = testing::billiards(0.9);
  Simulator sim(s);
  // Unequal coefficients per contact.
  for (int c = 0; c < static_cast<int>(s.contacts.size()); ++c) sim.set_contact_restitution(c, 0.3 + 0.1 * (c % 7));
  const Vec2 p0 = linear_momentum(sim.model(), sim.velocities());
  run_to(sim, 3.0);
  ASSERT_GE(sim.impacts().size(), 3u);
  for (const ImpactRecord& impact : sim.impacts()) {
    const ImpactResult& r = impact.result;
    // Internal impulses: linear momentum unchanged, no spin from frictionless contacts.
    EXPECT_LT((linear_momentum(sim.model(), r.qd_plus) - linear_momentum(sim.model(), r.qd_minus)).norm(), 1e-12);
    for (int b = 0; b < sim.model().body_count(); ++b) EXPECT_NEAR(r.qd_plus(3 * b + 2), 0.0, 1e-12);
    // Newton's law per row: φ̇⁺ = −e_i φ̇⁻ (e_i = 0 for the plastic rows at rest).
    const double speed = std::max(1.0, r.normal_velocity_minus.cwiseAbs().maxCoeff());
    for (std::size_t j = 0; j < impact.points.size(); ++j) {
      const int row = impact.normal_rows[j];
      const int contact = impact.contacts[j];
      const double e_used = r.restitution(row);
      if (r.normal_velocity_minus(row) < -sim.scenario().integrator.rest_speed) {
        EXPECT_DOUBLE_EQ(e_used, 0.3 + 0.1 * (contact % 7));
      }
      EXPECT_NEAR(r.normal_velocity_plus(row), -e_used * r.normal_velocity_minus(row), 1e-9 * speed);
      EXPECT_GE(r.normal_velocity_plus(row), -1e-9);  // nobody approaches after the impact
    }
    EXPECT_TRUE(r.flags.tensile_impulse.empty());
    EXPECT_LE(r.energy_ratio, 1.0 + 1e-12);
  }
  EXPECT_LT((linear_momentum(sim.model(), sim.velocities()) - p0).norm(), 1e-11);
  EXPECT_LT(sim.constraint_violation(), 1e-9);
}

// --- rank-deficient A ---------------------------------------------------------------------------------------

TEST(SliderCrank, RunsThroughItsDeadCentresWithoutError) {
  Simulator sim(testing::slider_crank(5.0));
  const double energy0 = sim.energy().total;
  double worst_violation = 0.0;
  for (int k = 0; k < 60; ++k) {
    ASSERT_NO_THROW(sim.advance(0.05));
    worst_violation = std::max(worst_violation, sim.constraint_violation());
    ASSERT_TRUE(sim.positions().allFinite());
  }
  // Several revolutions, so several dead centres; the constraints and the energy hold.
  EXPECT_GT(std::abs(sim.positions()(2)), 3 * kPi);
  EXPECT_LT(worst_violation, 1e-9);
  EXPECT_NEAR(sim.energy().total, energy0, 1e-6 * energy0);
  // The block stays on its axis and does not turn.
  EXPECT_NEAR(sim.positions()(7), 0.0, 1e-9);
  EXPECT_NEAR(sim.positions()(8), 0.0, 1e-9);
}

// --- energy with e = 1 --------------------------------------------------------------------------------------

struct Conservative {
  const char* name;
  Scenario scenario;
};

TEST(Energy, ElasticScenariosKeepTheirEnergyAndConstraintsOverTenSeconds) {
  const std::vector<Conservative> cases = {
      {"double pendulum", testing::double_pendulum()},
      {"pendulum and box", testing::pendulum_and_box(1.0)},
      {"cradle", testing::newtons_cradle(1e-6, 1.0)},
      {"billiards", testing::billiards(1.0)},
      {"bouncing ball", testing::bouncing_ball(1.0, 1.0)},
  };
  for (const Conservative& c : cases) {
    Simulator sim(c.scenario);
    const testing::ConservationReport report = testing::track_conservation(sim, 100, 0.1);
    EXPECT_NEAR(sim.time(), 10.0, 1e-12) << c.name;
    EXPECT_LT(report.energy_error, 1e-6) << c.name;
    EXPECT_LT(report.violation, 1e-8) << c.name;
  }
}

// --- scheduled impulses -------------------------------------------------------------------------------------

TEST(ScheduledImpulse, LiftsARestingBallAndCannotPushItThroughTheFloor) {
  Scenario s = testing::bouncing_ball(0.0, 0.5);
  ImpulseDef down;
  down.time = 0.25;
  down.body = 0;
  down.impulse = Vec2(0.5, -3.0);
  ImpulseDef up;
  up.time = 0.5;
  up.body = 0;
  up.impulse = Vec2(0.0, 2.0);
  s.impulses = {up, down};  // out of order on purpose
  Simulator sim(s);
  EXPECT_EQ(sim.contact_points()[0].state, ContactState::Active);
  // Down and sideways: the floor takes the normal part, the ball slides.
  ASSERT_TRUE(sim.advance_to_next_impact(1.0));
  EXPECT_DOUBLE_EQ(sim.time(), 0.25);
  EXPECT_TRUE(sim.impacts().back().scheduled);
  EXPECT_NEAR(sim.velocities()(0), 0.5, 1e-12);
  EXPECT_NEAR(sim.velocities()(1), 0.0, 1e-12);
  EXPECT_NEAR(sim.impacts().back().result.impulse_multipliers(0), 3.0, 1e-12);
  EXPECT_EQ(sim.contact_points()[0].state, ContactState::Impacting);
  // Up: tensile at the floor, so the contact is released and the ball leaves at 2 m/s.
  ASSERT_TRUE(sim.advance_to_next_impact(1.0));
  EXPECT_DOUBLE_EQ(sim.time(), 0.5);
  EXPECT_NEAR(sim.velocities()(1), 2.0, 1e-12);
  EXPECT_EQ(sim.impacts().back().iterations, 2);
  sim.advance(0.1);
  EXPECT_EQ(sim.contact_points()[0].state, ContactState::Inactive);
  EXPECT_NEAR(sim.positions()(1), 0.1 + 2.0 * 0.1 - 0.5 * kG * 0.01, 1e-12);
  // It comes down again at t = 0.5 + 4/g.
  ASSERT_TRUE(sim.advance_to_next_impact(1.0));
  EXPECT_NEAR(sim.time(), 0.5 + 4.0 / kG, 1e-9);
}

// --- determinism, reset, overrides -------------------------------------------------------------------------

TEST(Simulator, TwoRunsAreBitIdentical) {
  auto run = [](std::vector<double>& trajectory, std::vector<double>& log) {
    Simulator sim(testing::pendulum_and_box(0.7));
    for (int k = 0; k < 30; ++k) {
      sim.advance(0.1);
      trajectory.insert(trajectory.end(), sim.positions().data(), sim.positions().data() + sim.positions().size());
      trajectory.insert(trajectory.end(), sim.velocities().data(), sim.velocities().data() + sim.velocities().size());
    }
    for (const ImpactRecord& impact : sim.impacts()) {
      log.push_back(impact.time);
      log.insert(log.end(), impact.result.qd_plus.data(), impact.result.qd_plus.data() + impact.result.qd_plus.size());
      log.insert(log.end(), impact.result.impulse_multipliers.data(),
                 impact.result.impulse_multipliers.data() + impact.result.impulse_multipliers.size());
    }
  };
  std::vector<double> trajectory_a, trajectory_b, log_a, log_b;
  run(trajectory_a, log_a);
  run(trajectory_b, log_b);
  ASSERT_FALSE(log_a.empty());
  ASSERT_EQ(trajectory_a.size(), trajectory_b.size());
  ASSERT_EQ(log_a.size(), log_b.size());
  EXPECT_EQ(0, std::memcmp(trajectory_a.data(), trajectory_b.data(), trajectory_a.size() * sizeof(double)));
  EXPECT_EQ(0, std::memcmp(log_a.data(), log_b.data(), log_a.size() * sizeof(double)));
}

TEST(Simulator, ResetKeepsTheOverridesAndClearsTheLog) {
  Simulator sim(testing::bouncing_ball(1.0, 0.8));
  sim.set_restitution(0.5);
  sim.advance(1.0);
  ASSERT_FALSE(sim.impacts().empty());
  EXPECT_NEAR(sim.impacts()[0].result.qd_plus(1), 0.5 * std::sqrt(2 * kG), 1e-9);
  sim.reset();
  EXPECT_EQ(sim.time(), 0.0);
  EXPECT_TRUE(sim.impacts().empty());
  EXPECT_DOUBLE_EQ(sim.positions()(1), 1.1);
  ASSERT_TRUE(sim.advance_to_next_impact(1.0));
  EXPECT_NEAR(sim.impacts()[0].result.qd_plus(1), 0.5 * std::sqrt(2 * kG), 1e-9);
  // One contact's e, and ν (which changes no physical result).
  sim.set_contact_restitution(0, 0.25);
  EXPECT_DOUBLE_EQ(*sim.scenario().contacts[0].restitution, 0.25);
  sim.set_nu(42.0);
  ASSERT_TRUE(sim.advance_to_next_impact(1.0));
  EXPECT_DOUBLE_EQ(sim.impacts().back().projection_scalars().nu, 42.0);
  EXPECT_DOUBLE_EQ(sim.impacts().back().projection().nu(), 42.0);
  EXPECT_NEAR(sim.impacts().back().result.qd_plus(1), -0.25 * sim.impacts().back().result.qd_minus(1), 1e-12);
}

TEST(Simulator, BadOverridesAndImpossibleStatesNameTheField) {
  Simulator sim(testing::bouncing_ball(1.0, 0.8));
  EXPECT_EQ(message_of([&] { sim.set_restitution(1.5); }).rfind("e: must be in [0, 1]", 0), 0u);
  EXPECT_EQ(message_of([&] { sim.set_contact_restitution(3, 0.5); }).rfind("contact: ", 0), 0u);
  EXPECT_EQ(message_of([&] { sim.set_contact_restitution(0, -0.1); }).rfind("contacts[0].e: ", 0), 0u);
  EXPECT_EQ(message_of([&] { sim.set_nu(-1.0); }).rfind("nu: ", 0), 0u);
  EXPECT_EQ(message_of([&] { sim.advance(std::nan("")); }).rfind("dt: ", 0), 0u);
  // A ball 1 cm into the floor: the scenario check's overlap, by name (the plane has none: its index).
  EXPECT_EQ(message_of([] { Simulator s(testing::bouncing_ball(-0.01, 0.5)); }),
            "/bodies/0/position: disk \"ball\" starts 0.01 m inside plane 0");
  // A pendulum whose pin anchors are 0.5 m apart.
  Scenario pendulum = testing::double_pendulum();
  pendulum.joints[1].anchor_b = Vec2(0.0, 0.0);
  EXPECT_EQ(message_of([&] { Simulator s(pendulum); }).rfind("joints[1]: not satisfied", 0), 0u);
  Scenario bad_step = testing::bouncing_ball(1.0, 0.5);
  bad_step.integrator.step = 0.0;
  EXPECT_EQ(message_of([&] { Simulator s(bad_step); }).rfind("/integrator/step: ", 0), 0u);
}

TEST(Simulator, ImpactRecordJsonCarriesTheProjectionsAndWhereItHappened) {
  Simulator sim(testing::newtons_cradle(0.0, 1.0));
  ASSERT_TRUE(sim.advance_to_next_impact(1.0));
  const Json record = impact_record_to_json(sim.impacts().back());
  for (const char* key : {"t", "points", "contacts", "normal_rows", "positions", "normals", "iterations", "scheduled",
                          "n", "m", "rank", "nu", "P", "Mc", "S", "R", "E_tilde", "qd_minus", "qd_plus", "i_f",
                          "i_lambda", "gamma", "W_loss", "flags", "identities"}) {
    EXPECT_TRUE(record.contains(key)) << key;
  }
  EXPECT_EQ(record["contacts"].size(), 4u);
  EXPECT_EQ(record["positions"].size(), 4u);
  EXPECT_EQ(record["S"].size(), 15u);
  EXPECT_NEAR(record["t"].get<double>(), 0.1, 1e-9);
  // The contact between the striker and ball 1 is where the balls touch, at x = 0 (balls 0.2 m apart).
  EXPECT_NEAR(record["positions"][0][0].get<double>(), 0.0, 1e-6);
}

TEST(Simulator, SimulateDocumentChecksItsArguments) {
  const Scenario ball = testing::bouncing_ball(1.0, 0.5);
  EXPECT_EQ(message_of([&] { simulate_to_json(ball, -1.0, 0.1); }).rfind("duration: ", 0), 0u);
  EXPECT_EQ(message_of([&] { simulate_to_json(ball, 1.0, 0.0); }).rfind("sample: ", 0), 0u);
  EXPECT_EQ(message_of([&] { simulate_to_json(ball, 1000.0, 1e-6); }).rfind("sample: ", 0), 0u);
  const Json doc = simulate_to_json(ball, 0.25, 0.1);
  ASSERT_EQ(doc["t"].size(), 4u);  // 0, 0.1, 0.2 and the end, 0.25
  EXPECT_DOUBLE_EQ(doc["t"][3].get<double>(), 0.25);
  EXPECT_NEAR(doc["q"][3][1].get<double>(), 1.1 - 0.5 * kG * 0.0625, 1e-12);
}

TEST(Simulator, ContactPointViewsDescribeTheState) {
  Simulator sim(testing::pendulum_and_box(0.5));
  const auto& points = sim.contact_points();
  ASSERT_EQ(points.size(), 1u + 4u);  // the bob, the box's four corners
  EXPECT_EQ(points[0].contact, 0);
  EXPECT_EQ(points[4].contact, 1);
  // The views stay in the same storage from call to call (the JS engine's Float64Array views rely on it),
  // updated in place: a call that ends between grid points and one that ends on a committed state.
  const double* q_data = sim.positions().data();
  const double* qd_data = sim.velocities().data();
  const Vector q_before = sim.positions();
  for (double dt : {0.5, 0.0137, 0.25}) {
    sim.advance(dt);
    EXPECT_EQ(q_data, sim.positions().data()) << dt;
    EXPECT_EQ(qd_data, sim.velocities().data()) << dt;
  }
  EXPECT_GT((sim.positions() - q_before).norm(), 0.1);  // it did move
  for (const ContactPoint& p : points) {
    EXPECT_TRUE(p.point.allFinite());
    EXPECT_NEAR(p.normal.norm(), 1.0, 1e-14);
    EXPECT_GE(p.gap, -1e-9);
  }
  // The energies against their textbook forms, from the bodies' masses and shapes: K = Σ ½m|v|² + ½Iω²
  // (a disk ½mr², a box m(w² + h²)/12), V = Σ m g y.
  const Vector& q = sim.positions();
  const Vector& qd = sim.velocities();
  const double bob_inertia = 0.5 * 1.0 * 0.05 * 0.05, box_inertia = 2.0 * (0.3 * 0.3 + 0.2 * 0.2) / 12.0;
  const double kinetic = 0.5 * 1.0 * qd.segment<2>(0).squaredNorm() + 0.5 * bob_inertia * qd(2) * qd(2) +
                         0.5 * 2.0 * qd.segment<2>(3).squaredNorm() + 0.5 * box_inertia * qd(5) * qd(5);
  const double potential = kG * (1.0 * q(1) + 2.0 * q(4));
  const Energy energy = sim.energy();
  EXPECT_GT(kinetic, 0.01);
  EXPECT_NEAR(energy.kinetic, kinetic, 1e-12 * kinetic);
  EXPECT_NEAR(energy.potential, potential, 1e-12 * std::abs(potential));
  EXPECT_NEAR(energy.total, kinetic + potential, 1e-12 * (kinetic + std::abs(potential)));
}

}  // namespace
}  // namespace oblique
