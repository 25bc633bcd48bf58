// Changing Coulomb's μ during a run (Simulator::set_friction, set_contact_friction; docs/friction.md,
// "Changing μ during a run"): the change takes effect at the committed state, so after it the closed forms
// of a block on an incline hold from that moment — it accelerates at g(sin θ − μ cos θ) for μ < tan θ, and
// for μ > tan θ a sliding block decelerates at g(μ cos θ − sin θ) until it stops, at v/(g(μ cos θ − sin θ)),
// then stays put —; a block made `stick` while it slides takes the sticking impact (logged, its kinetic
// energy lost); setting the μ a run already has changes nothing, bit for bit; bad values are refused
// naming the field, changing nothing. A solid disk sliding without spin and made `stick` rolls on at 2v₀/3.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "oblique/io/json_io.hpp"
#include "oblique/io/scenario_json.hpp"
#include "oblique/simulation/simulator.hpp"
#include "comparisons.hpp"
#include "error_message.hpp"
#include "scenario_builders.hpp"

namespace oblique {
namespace {

using testing::close;
using testing::kG;
using testing::kPi;
using testing::message_of;

const double kTheta = kPi / 6.0;  // tan θ ≈ 0.577

/// Advances to t, calling again while a call stops at its work budget.
void reach(Simulator& sim, double t) {
  do sim.advance_to(t); while (sim.work_limit_hit());
}

/// A thin box (0.2 × 0.02 m, m = 1) at rest on a plane inclined by θ, μ on its contact (frictionless: 0).
Scenario block_on_incline(double mu) {
  Scenario s;
  s.gravity = Vec2(0.0, -kG);
  const Vec2 normal(std::sin(kTheta), std::cos(kTheta));
  s.planes.push_back(testing::plane(Vec2::Zero(), normal));
  BodyDef box = testing::make_body("block", Shape::Type::Box, 1.0, 0.01 * normal, -kTheta, Vec2::Zero());
  box.shape.width = 0.2;
  box.shape.height = 0.02;
  s.bodies.push_back(box);
  ContactDef contact = testing::body_plane(0, 0, 0.0);
  if (mu > 0.0) contact.mu = mu;
  s.contacts.push_back(contact);
  return s;
}

/// The block's speed down the slope.
double downhill_speed(const Simulator& sim) {
  return sim.velocities().segment<2>(0).dot(Vec2(std::cos(kTheta), -std::sin(kTheta)));
}

TEST(SimulatorFrictionChanges, AStuckBlockLetGoSlidesAtGTimesSinMinusMuCosFromTheChange) {
  // μ = 0.7 holds the block; at t = 0.5 s μ = 0.3 lets it slide.
  Simulator sim(block_on_incline(0.7));
  reach(sim, 0.5);
  EXPECT_LT(std::abs(downhill_speed(sim)), 1e-12);
  sim.set_friction(0.3);
  reach(sim, 1.5);
  EXPECT_TRUE(close(downhill_speed(sim), kG * (std::sin(kTheta) - 0.3 * std::cos(kTheta)) * 1.0));
  // Both lower corners slide downhill (toward −t).
  int sliding = 0;
  for (const ContactPoint& p : sim.contact_points()) sliding += p.state == ContactState::Active && p.slip == -1 ? 1 : 0;
  EXPECT_EQ(sliding, 2);
}

TEST(SimulatorFrictionChanges, AFrictionlessBlockGivenFrictionBelowTheAngleSlowsItsAcceleration) {
  // Frictionless, it slides at g sin θ; from t = 0.5 s with μ = 0.3 at g(sin θ − μ cos θ).
  Simulator sim(block_on_incline(0.0));
  reach(sim, 0.5);
  const double v_half = kG * std::sin(kTheta) * 0.5;
  EXPECT_TRUE(close(downhill_speed(sim), v_half));
  sim.set_contact_friction(0, 0.3);
  reach(sim, 1.0);
  EXPECT_TRUE(close(downhill_speed(sim), v_half + kG * (std::sin(kTheta) - 0.3 * std::cos(kTheta)) * 0.5));
}

TEST(SimulatorFrictionChanges, ASlidingBlockGivenFrictionAboveTheAngleStopsWhenTheClosedFormSays) {
  // Frictionless to t = 0.5 s, then μ = 1: it decelerates at g(μ cos θ − sin θ) and stops at
  // t = 0.5 + v/(g(μ cos θ − sin θ)), where it stays.
  const double mu = 1.0;
  Simulator sim(block_on_incline(0.0));
  reach(sim, 0.5);
  const double v = downhill_speed(sim);
  sim.set_friction(mu);
  const double deceleration = kG * (mu * std::cos(kTheta) - std::sin(kTheta));
  const double t_stop = 0.5 + v / deceleration;
  reach(sim, 0.5 + 0.5 * (t_stop - 0.5));
  EXPECT_TRUE(close(downhill_speed(sim), 0.5 * v));
  reach(sim, t_stop - 0.01);
  EXPECT_TRUE(close(downhill_speed(sim), 0.01 * deceleration));
  reach(sim, t_stop + 0.5);
  EXPECT_LT(sim.velocities().norm(), 1e-12);
  int resting = 0;
  for (const ContactPoint& p : sim.contact_points()) resting += p.state == ContactState::Active && p.slip == 0 ? 1 : 0;
  EXPECT_EQ(resting, 2);
}

TEST(SimulatorFrictionChanges, ADiskMadeStickWhileSlidingTakesTheLoggedStickingImpactAndRolls) {
  // A solid disk (k = ½) sliding without spin at v₀ on a frictionless floor, made `stick`: the sticking
  // impact keeps its angular momentum about the contact point, m v₀ r = (1 + k) m v r, so it rolls on at
  // v = v₀/(1 + k) = 2v₀/3 (ω = −v/r) and keeps K⁺/K⁻ = 1/(1 + k) = 2/3 of its kinetic energy.
  const double v0 = 2.0, r = 0.1;
  Scenario s;
  s.gravity = Vec2(0.0, -kG);
  s.planes.push_back(testing::plane(Vec2::Zero(), Vec2(0.0, 1.0)));
  s.bodies.push_back(testing::disk("disk", 1.0, r, Vec2(0.0, r), Vec2(v0, 0.0)));
  s.contacts.push_back(testing::body_plane(0, 0, 0.0));
  Simulator sim(s);
  reach(sim, 0.25);
  const std::size_t impacts = sim.impacts().size();
  sim.set_friction(std::numeric_limits<double>::infinity());
  ASSERT_EQ(sim.impacts().size(), impacts + 1);
  const ImpactRecord& record = sim.impacts().back();
  EXPECT_TRUE(close(record.result.kinetic_plus / record.result.kinetic_minus, 2.0 / 3.0));
  EXPECT_TRUE(sim.scenario().contacts[0].stick);
  reach(sim, 0.5);
  EXPECT_TRUE(close(sim.velocities()(0), 2.0 * v0 / 3.0));
  EXPECT_TRUE(close(sim.velocities()(2), -2.0 * v0 / 3.0 / r));
}

TEST(SimulatorFrictionChanges, SettingTheMuARunHasChangesNothingBitForBit) {
  for (double mu : {0.0, 0.3}) {
    SCOPED_TRACE(mu);
    Simulator straight(block_on_incline(mu)), set(block_on_incline(mu));
    reach(straight, 1.0);
    reach(set, 0.5);
    set.set_friction(mu);
    set.set_contact_friction(0, mu);
    reach(set, 1.0);
    for (int i = 0; i < 3; ++i) {
      EXPECT_EQ(set.positions()(i), straight.positions()(i));
      EXPECT_EQ(set.velocities()(i), straight.velocities()(i));
    }
  }
}

TEST(SimulatorFrictionChanges, BadValuesAreRefusedNamingTheFieldAndChangeNothing) {
  Simulator sim(block_on_incline(0.3));
  reach(sim, 0.2);
  const Vector qd = sim.velocities();
  EXPECT_EQ(message_of([&] { sim.set_friction(-1.0); }).rfind("mu: must be in [0, 1000] or +Infinity (stick), got -1", 0), 0u);
  EXPECT_EQ(message_of([&] { sim.set_friction(std::nan("")); }).rfind("mu: ", 0), 0u);
  EXPECT_EQ(message_of([&] { sim.set_friction(1001.0); }).rfind("mu: ", 0), 0u);
  EXPECT_EQ(message_of([&] { sim.set_contact_friction(0, -0.5); }).rfind("contacts[0].mu: ", 0), 0u);
  EXPECT_EQ(message_of([&] { sim.set_contact_friction(2, 0.5); }).rfind("contact: ", 0), 0u);
  EXPECT_EQ(*sim.scenario().contacts[0].mu, 0.3);
  reach(sim, 1.0);
  EXPECT_TRUE(close(downhill_speed(sim), qd.segment<2>(0).dot(Vec2(std::cos(kTheta), -std::sin(kTheta))) +
                                              kG * (std::sin(kTheta) - 0.3 * std::cos(kTheta)) * 0.8));
}

TEST(SimulatorFrictionChanges, AChangeAtTheStartIsTheScenariosMuBitForBit) {
  Simulator with_mu(block_on_incline(0.3)), set_at_start(block_on_incline(0.0));
  set_at_start.set_friction(0.3);
  reach(with_mu, 1.0);
  reach(set_at_start, 1.0);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(set_at_start.positions()(i), with_mu.positions()(i));
    EXPECT_EQ(set_at_start.velocities()(i), with_mu.velocities()(i));
  }
}

TEST(SimulatorFrictionChanges, ResetFrictionPutsBackTheScenariosMu) {
  // μ = 0.7 holds the block; μ = 0.3 lets it go, and reset_friction (the scenario's 0.7) stops it again.
  Simulator sim(block_on_incline(0.7));
  sim.set_friction(0.3);
  reach(sim, 0.5);
  EXPECT_GT(downhill_speed(sim), 0.1);
  sim.reset_friction();
  EXPECT_EQ(*sim.scenario().contacts[0].mu, 0.7);
  reach(sim, 2.0);
  EXPECT_LT(sim.velocities().norm(), 1e-12);
}

TEST(SimulatorFrictionChanges, BodiesOfCollideAllTakeTheGlobalMuAndGetTheirOwnBack) {
  // A solid disk (μ_body = 0.2) thrown without spin on the floor of a "collide": "all" scene rolls after
  // t = v₀/(3μg): with the global μ = 0.5 set at the start, and with its own 0.2 again after reset_friction.
  const double v0 = 1.5;
  const Scenario s = parse_scenario(parse_json(R"({"collide":"all","mu":0.9,"gravity":[0,-9.81],
      "planes":[{"name":"floor","point":[0,0],"normal":[0,1]}],
      "bodies":[{"name":"disk","shape":{"type":"disk","radius":0.1},"mass":1,"position":[0,0.1],"velocity":[1.5,0],"mu":0.2},
                {"name":"glued","shape":{"type":"disk","radius":0.1},"mass":1,"position":[5,0.1],"stick":true}]})",
                                               "test"));
  for (const double mu : {0.5, 0.2}) {
    SCOPED_TRACE(mu);
    Simulator sim(s);
    sim.set_friction(0.5);
    EXPECT_EQ(*sim.scenario().bodies[0].mu, 0.5);
    EXPECT_FALSE(sim.scenario().bodies[1].stick);
    if (mu == 0.2) {
      sim.reset_friction();
      EXPECT_EQ(*sim.scenario().bodies[0].mu, 0.2);
      EXPECT_TRUE(sim.scenario().bodies[1].stick);
      EXPECT_EQ(sim.scenario().mu, 0.9);
    }
    const double t_roll = v0 / (3.0 * mu * kG);
    reach(sim, t_roll - 0.01);
    EXPECT_TRUE(close(sim.velocities()(0), v0 - mu * kG * (t_roll - 0.01)));
    reach(sim, t_roll + 0.05);
    EXPECT_TRUE(close(sim.velocities()(0), 2.0 * v0 / 3.0));
  }
}

}  // namespace
}  // namespace oblique
