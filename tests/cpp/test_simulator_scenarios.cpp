// The built-in scenarios (web/scenarios/index.json) through the simulator: each runs 10 s with no error,
// no NaN, bounded drift, no energy created and no impact whose constraints do positive work — except the
// frictional impacts of Kane's paradox (docs/friction.md), which must then say so (flags.energy_gain); the
// conservative ones (no sticking contact, no friction, no scheduled impulse) keep their energy to 1e-6 with
// e = 1 everywhere. Also: the trajectory does not depend on how
// the time is cut into advance calls.
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "oblique/io/scenario_json.hpp"
#include "oblique/simulation/simulator.hpp"
#include "conservation.hpp"
#include "scenario_builders.hpp"
#include "json_files.hpp"
#include "simulation_runs.hpp"

namespace oblique {
namespace {

using testing::kScenarioDir;
using testing::read_json;

std::vector<std::string> built_in_files() {
  std::vector<std::string> files;
  const Json index = read_json(kScenarioDir + "index.json");
  for (const Json& entry : index.at("scenarios")) files.push_back(entry.at("file").get<std::string>());
  return files;
}

bool conservative(const Scenario& s) {
  if (s.mu > 0.0) return false;  // friction dissipates
  for (const ContactDef& c : s.contacts) {
    if (c.stick || c.mu.value_or(0.0) > 0.0) return false;
  }
  for (const BodyDef& b : s.bodies) {
    if (b.stick || b.mu.value_or(0.0) > 0.0) return false;  // automatic contacts that stick or rub
  }
  return s.impulses.empty();
}

using testing::run_to;

class BuiltInScenario : public ::testing::TestWithParam<std::string> {};

TEST_P(BuiltInScenario, RunsTenSecondsWithoutErrorNaNOrEnergyCreated) {
  const Scenario scenario = parse_scenario(read_json(kScenarioDir + GetParam()));
  Simulator sim(scenario);
  const double energy0 = sim.energy().total;
  double scale = std::max({std::abs(energy0), sim.energy().kinetic, 1e-12});
  double worst_violation = 0.0, highest_energy = energy0;
  // Energy may rise only where a scheduled impulse adds it.
  double impulse_energy = 0.0;
  for (int k = 0; k < 100; ++k) {
    ASSERT_NO_THROW(run_to(sim, 0.1 * (k + 1))) << "t = " << sim.time();
    ASSERT_TRUE(sim.positions().allFinite() && sim.velocities().allFinite()) << "t = " << sim.time();
    worst_violation = std::max(worst_violation, sim.constraint_violation());
    scale = std::max(scale, sim.energy().kinetic);
    highest_energy = std::max(highest_energy, sim.energy().total);
  }
  ASSERT_EQ(sim.dropped_impacts(), 0u);
  for (const ImpactRecord& impact : sim.impacts()) {
    // Newton's law with Coulomb friction may gain energy (Kane's paradox): flagged, and counted as given.
    if (!impact.friction.empty() && impact.result.kinetic_energy_change > 0.0) {
      EXPECT_TRUE(impact.result.flags.energy_gain) << "t = " << impact.time;
      EXPECT_FALSE(impact.result.energy_consistent) << "t = " << impact.time;
      impulse_energy += impact.result.kinetic_energy_change;
      continue;
    }
    // The constraints never do positive work, W_constraint = i_f·(q̇⁻ + q̇⁺)/2 ≤ 0 to round-off: the
    // simulator's activation rule is never the cause of an energy gain.
    const double kinetic = std::max({impact.result.kinetic_minus, impact.result.kinetic_plus, 1e-300});
    EXPECT_LE(impact.result.constraint_work, 1e-12 * kinetic) << "t = " << impact.time;
    EXPECT_FALSE(impact.result.flags.energy_gain) << "t = " << impact.time;
    if (impact.scheduled) {
      impulse_energy += std::max(0.0, impact.result.kinetic_energy_change);
    } else {
      EXPECT_LE(impact.result.energy_ratio, 1.0 + 1e-9) << "t = " << impact.time;  // γ ≤ 1 (NaN passes)
    }
  }
  EXPECT_NEAR(sim.time(), 10.0, 1e-12);
  EXPECT_LT(worst_violation, 1e-8);
  EXPECT_LT(highest_energy - energy0 - impulse_energy, 1e-6 * scale);
  // Every contact point is separated or touching, never penetrating.
  for (int k = 0; k < sim.contact_point_count(); ++k) {
    EXPECT_GE(sim.contact_points()[static_cast<std::size_t>(k)].gap, -sim.event_slack(k) - 1e-15);
  }
}

TEST_P(BuiltInScenario, ElasticVersionKeepsItsEnergyWhenConservative) {
  const Scenario scenario = parse_scenario(read_json(kScenarioDir + GetParam()));
  if (!conservative(scenario)) GTEST_SKIP() << "sticking contacts or scheduled impulses";
  Simulator sim(scenario);
  sim.set_restitution(1.0);
  const testing::ConservationReport report = testing::track_conservation(sim, 100, 0.1);
  EXPECT_LT(report.energy_error, 1e-6);
  EXPECT_LT(report.violation, 1e-8);
}

INSTANTIATE_TEST_SUITE_P(WebScenarios, BuiltInScenario, ::testing::ValuesIn(built_in_files()),
                         [](const auto& info) {
                           std::string name = info.param.substr(0, info.param.find('.'));
                           for (char& c : name) c = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
                           return name;
                         });

TEST(Simulator, TrajectoryDoesNotDependOnHowTimeIsCutIntoCalls) {
  // The committed steps lie on the grid k·step whatever the call lengths, so frame rates agree: the impact
  // logs are bit-identical and the shown states agree to rounding.
  auto run = [](double frame, std::vector<double>& log) {
    Simulator sim(testing::pendulum_and_box(0.7));
    while (sim.time() < 2.0) sim.advance(std::min(frame, 2.0 - sim.time()));
    for (const ImpactRecord& impact : sim.impacts()) {
      log.push_back(impact.time);
      log.insert(log.end(), impact.result.qd_plus.data(), impact.result.qd_plus.data() + impact.result.qd_plus.size());
    }
    return Vector(sim.positions());
  };
  std::vector<double> log_a, log_b, log_c;
  const Vector a = run(1.0 / 60.0, log_a);
  const Vector b = run(0.25, log_b);
  const Vector c = run(0.0137, log_c);
  ASSERT_FALSE(log_a.empty());
  ASSERT_EQ(log_a.size(), log_b.size());
  ASSERT_EQ(log_a.size(), log_c.size());
  EXPECT_EQ(0, std::memcmp(log_a.data(), log_b.data(), log_a.size() * sizeof(double)));
  EXPECT_EQ(0, std::memcmp(log_a.data(), log_c.data(), log_a.size() * sizeof(double)));
  EXPECT_LT((a - b).norm(), 1e-12);
  EXPECT_LT((a - c).norm(), 1e-12);
}

TEST(Simulator, ImpactLogKeepsTheLatestWithinItsBound) {
  // An elastic ball bouncing from 0.2 mm impacts about 78 times a second: 200 s log some 15 000 impacts,
  // more than the log keeps: dropped + kept = all, and the newest is kept.
  Simulator sim(testing::bouncing_ball(0.0002, 1.0));
  std::size_t total = 0;
  for (int k = 0; k < 200; ++k) total += static_cast<std::size_t>(sim.advance(1.0));
  EXPECT_EQ(sim.dropped_impacts() + sim.impacts().size(), total);
  EXPECT_LE(sim.impacts().size(), kMaxLoggedImpacts);
  EXPECT_GT(total, kMaxLoggedImpacts);
  EXPECT_GT(sim.dropped_impacts(), 0u);
  EXPECT_NEAR(sim.impacts().back().time, sim.time(), 0.05);
}

TEST(Simulator, APileWithRedundantWedgedContactsSettles) {
  // Disks wedged between each other and the walls once made plastic micro-impacts alternate forever
  // between two contacts; the pile must come to rest, with bounded work and nothing penetrating.
  Simulator sim(testing::pile(0.3));
  double work = 0.0;
  do {
    sim.advance_to(3.0);
    work += sim.last_work();
  } while (sim.work_limit_hit());
  EXPECT_LT(work, 1e10);  // bounded: about 2·10⁹ estimated flops
  EXPECT_LT(sim.impacts().size() + sim.dropped_impacts(), 400u);
  EXPECT_LT(sim.energy().kinetic, 1e-9);
  EXPECT_LT(sim.constraint_violation(), 1e-11);
  int resting = 0;
  for (int k = 0; k < sim.contact_point_count(); ++k) {
    const ContactPoint& p = sim.contact_points()[static_cast<std::size_t>(k)];
    EXPECT_GE(p.gap, -sim.event_slack(k) - 1e-15);
    if (p.state == ContactState::Active) {
      ++resting;
      EXPECT_GE(p.multiplier, -1e-9);
    }
  }
  EXPECT_GE(resting, 10);
}

TEST(Simulator, AdvanceStopsAtItsWorkBudgetAndResumes) {
  // About 78 impacts a second: 100 s would be some 7800 events, beyond one call's budget.
  Simulator sim(testing::bouncing_ball(0.0002, 1.0));
  sim.advance(100.0);
  EXPECT_TRUE(sim.work_limit_hit());
  EXPECT_LT(sim.time(), 100.0);
  EXPECT_GT(sim.time(), 1.0);
  // It stopped because the next evaluation would have overrun the budget: it spent all of it but less than
  // one evaluation (the dense fallback's projection and impact solve bound any evaluation's estimate here).
  EXPECT_GT(sim.last_work(), sim.work_budget() - (work::projection(3, 1) + work::impact_solve(3, 1)));
  // The state is a consistent committed state, and the next call goes on from it.
  const double stopped = sim.time();
  EXPECT_GE(sim.contact_points()[0].gap, -sim.event_slack(0));
  sim.advance(0.1);
  EXPECT_FALSE(sim.work_limit_hit());
  EXPECT_DOUBLE_EQ(sim.time(), stopped + 0.1);
}

}  // namespace
}  // namespace oblique
