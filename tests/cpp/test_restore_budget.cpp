// A restore within the work budget (simulator.hpp, "Bounded work"; simulation_state.hpp): restore_state
// puts the state back and shows it as it was shown — the positions and velocities of the partial step at
// shown_time, the contact forces — with no solve, at most work::restore's flops, and the next call computes
// the state's q̈ and λ within its budget. What a restored run shows and does is the saved run's, bit for bit,
// also when every call after the restore stops after one evaluation. Work is counted in estimated flops, so
// nothing here is timed (wall clock: `npm run bench`, "The worst single call").
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "oblique/geometry/automatic_contacts.hpp"
#include "oblique/io/simulation_state_json.hpp"
#include "oblique/simulation/simulator.hpp"
#include "comparisons.hpp"
#include "scenario_builders.hpp"

namespace oblique {
namespace {

/// Everything a simulator shows now, as doubles (compared bit for bit).
std::vector<double> restore_views(const Simulator& sim) {
  std::vector<double> out = {sim.time(), sim.energy().kinetic, sim.energy().potential, sim.constraint_violation()};
  out.insert(out.end(), sim.positions().data(), sim.positions().data() + sim.positions().size());
  out.insert(out.end(), sim.velocities().data(), sim.velocities().data() + sim.velocities().size());
  for (const ContactPoint& p : sim.contact_points()) {
    out.insert(out.end(), {static_cast<double>(p.body_a), static_cast<double>(p.body_b), p.point.x(), p.point.y(),
                           p.normal.x(), p.normal.y(), p.gap, p.normal_velocity, p.multiplier,
                           static_cast<double>(p.state), static_cast<double>(p.slip), p.friction, p.slip_speed});
  }
  out.push_back(static_cast<double>(sim.dropped_impacts() + sim.impacts().size()));
  return out;
}

/// Advances to k·dt for k up to `frames` with `budget`, calling again while a call stops at it; what it
/// shows after each frame and the impacts it logged, as doubles.
std::vector<double> restore_run(Simulator& sim, double budget, double from, double dt, int frames) {
  sim.set_work_budget(budget);
  std::vector<double> out;
  long calls = 0;
  for (int k = 1; k <= frames; ++k) {
    do sim.advance_to(from + k * dt); while (sim.work_limit_hit() && ++calls < 2000000);
    const std::vector<double> views = restore_views(sim);
    out.insert(out.end(), views.begin(), views.end());
  }
  // The impacts logged after the start (a restored simulator's log holds no earlier ones).
  for (std::size_t i = 0; i < sim.impacts().size(); ++i) {
    const ImpactRecord& record = sim.impacts()[i];
    if (!(record.time > from)) continue;
    out.push_back(record.time);
    out.insert(out.end(), record.result.qd_plus.data(), record.result.qd_plus.data() + record.result.qd_plus.size());
    out.insert(out.end(), record.result.impulse_multipliers.data(),
               record.result.impulse_multipliers.data() + record.result.impulse_multipliers.size());
  }
  return out;
}

/// A run of `scenario` advanced with the default budget to `t` (a time between grid points: the partial
/// step shown), its state saved there.
SimulationState restore_saved_at(const Scenario& scenario, double t) {
  Simulator lead(scenario);
  do lead.advance_to(t); while (lead.work_limit_hit());
  return lead.save_state();
}

struct RestoreCase {
  const char* name;
  Scenario scenario;
  double saved_at;
};

std::vector<RestoreCase> restore_cases() {
  return {{"touching frictional grid at rest (4 × 6, μ = 0.3)", testing::disk_rows_on_floor(4, 6, 0.0, 0.3), 0.0504},
          {"touching frictionless grid (4 × 6)", testing::disk_rows_on_floor(4, 6, 0.0, 0.0), 0.0504},
          {"rows landing on one another (3 × 5, 1 mm gaps, μ = 0.3)", testing::disk_rows_on_floor(3, 5, 1e-3, 0.3), 0.0171},
          {"pendulum and box (declared contacts, a joint)", testing::pendulum_and_box(0.5), 0.3337}};
}

TEST(RestoreBudget, ARestoreShowsTheSavedViewsAtOnceWithoutASolve) {
  for (const RestoreCase& c : restore_cases()) {
    SCOPED_TRACE(c.name);
    Simulator lead(c.scenario);
    do lead.advance_to(c.saved_at); while (lead.work_limit_hit());
    const SimulationState saved = lead.save_state();
    ASSERT_GT(saved.shown_time, saved.time);  // a partial step is shown
    ASSERT_TRUE(saved.shown.has_value());
    const std::vector<double> shown = restore_views(lead);
    // Restored into a simulator that ran elsewhere, from the state and from its JSON.
    for (const SimulationState& state : {saved, state_from_json(Json::parse(state_to_json(saved).dump()))}) {
      Simulator other(c.scenario);
      other.advance(0.2);
      other.restore_state(state);
      EXPECT_TRUE(testing::same_bits(restore_views(other), shown));
      // No solve: the checks, the copies and one contact frame per point, within work::restore.
      const double n = static_cast<double>(other.positions().size());
      const double points = static_cast<double>(other.contact_point_count());
      EXPECT_LE(other.last_work(), work::restore(n, points));
    }
    // The same state without its views is shown as before, its dynamics and partial step computed whole:
    // more work than a restore is charged (so last_work measures what a restore does), the same views.
    SimulationState bare = saved;
    bare.shown.reset();
    Simulator computed(c.scenario);
    computed.restore_state(bare);
    EXPECT_TRUE(testing::same_bits(restore_views(computed), shown));
    if (!saved.active.empty() && std::find(saved.active.begin(), saved.active.end(), 1) != saved.active.end()) {
      EXPECT_GT(computed.last_work(), work::restore(static_cast<double>(computed.positions().size()),
                                                    static_cast<double>(computed.contact_point_count())));
    }
  }
}

TEST(RestoreBudget, TheWorkOfARestoreHasABoundBelowOneCallsBudgetAtTheLargestScene) {
  // The largest legal scene: 256 bodies (3 coordinates each) and the most contact points a step may hold.
  EXPECT_LT(work::restore(3.0 * 256, static_cast<double>(kMaxContactPoints)), kWorkBudgetFlops / 4);
}

TEST(RestoreBudget, ARestoreFollowedByCallsCutAfterEveryEvaluationGivesTheBitsOfTheUncutRun) {
  for (const RestoreCase& c : restore_cases()) {
    SCOPED_TRACE(c.name);
    const SimulationState saved = restore_saved_at(c.scenario, c.saved_at);
    // The run that never stopped, and never restored: on from the saved moment.
    Simulator straight(c.scenario);
    do straight.advance_to(c.saved_at); while (straight.work_limit_hit());
    const std::vector<double> reference = restore_run(straight, std::numeric_limits<double>::max(), c.saved_at, 1.0 / 240, 8);
    // Restored, then every call stops after one evaluation (the restored state's q̈ and λ among them).
    Simulator cut(c.scenario);
    cut.restore_state(saved);
    EXPECT_TRUE(testing::same_bits(restore_run(cut, 1.0, c.saved_at, 1.0 / 240, 8), reference));
    // Restored, and calls of the default budget.
    Simulator whole(c.scenario);
    whole.restore_state(saved);
    EXPECT_TRUE(testing::same_bits(restore_run(whole, kWorkBudgetFlops, c.saved_at, 1.0 / 240, 8), reference));
  }
}

TEST(RestoreBudget, TheFirstCallAfterARestoreComputesItsDynamicsAndShowsWhatWasShown) {
  // A call to the time shown after a restore takes the state's q̈ and λ (in calls of one evaluation here,
  // each an absolute target: a call the budget stops shows the committed time) and shows the same moment: the same bits as the restore showed, and μ set right after a restore acts on the
  // state's dynamics as it would on the saved run's.
  const Scenario grid = testing::disk_rows_on_floor(4, 6, 0.0, 0.3);
  Simulator lead(grid);
  do lead.advance_to(0.0504); while (lead.work_limit_hit());
  const SimulationState saved = lead.save_state();
  const std::vector<double> shown = restore_views(lead);
  Simulator sim(grid);
  sim.restore_state(saved);
  sim.set_work_budget(1.0);
  long calls = 0;
  do {
    sim.advance_to(saved.shown_time);
    ++calls;
  } while (sim.work_limit_hit() && calls < 100000);
  EXPECT_GT(calls, 1);
  const std::vector<double> again = restore_views(sim);
  EXPECT_TRUE(testing::same_bits(again, shown));

  // μ changed right after a restore, and right after the saved run's moment: the same state after it.
  Simulator changed(grid);
  changed.restore_state(saved);
  changed.set_friction(0.05);
  lead.set_friction(0.05);
  EXPECT_TRUE(testing::same_bits(restore_views(changed), restore_views(lead)));
  const SimulationState after = changed.save_state(), expected = lead.save_state();
  EXPECT_TRUE(testing::same_bits(after.q, expected.q));
  EXPECT_EQ(after.sliding, expected.sliding);
}

TEST(RestoreBudget, ViewsThatDoNotFitTheStateAreRefusedNamingTheField) {
  const Scenario grid = testing::disk_rows_on_floor(2, 3, 0.0, 0.3);
  const SimulationState good = restore_saved_at(grid, 0.0504);
  ASSERT_TRUE(good.shown.has_value());
  Simulator sim(grid);
  const std::vector<double> before = restore_views(sim);
  const std::vector<std::pair<void (*)(SimulationState&), std::string>> bad = {
      {[](SimulationState& s) { s.shown->q.resize(2); }, "state.shown.q: must have 18 entries"},
      {[](SimulationState& s) { s.shown->multiplier.pop_back(); }, "state.shown.multiplier: must have"},
      {[](SimulationState& s) { s.shown->friction[0] = std::numeric_limits<double>::infinity(); },
       "state.shown.friction[0]: must be a finite number"},
  };
  for (const auto& [spoil, message] : bad) {
    SimulationState state = good;
    spoil(state);
    try {
      sim.restore_state(state);
      ADD_FAILURE() << "accepted: " << message;
    } catch (const std::invalid_argument& error) {
      EXPECT_EQ(std::string(error.what()).rfind(message, 0), 0u) << error.what();
    }
    EXPECT_TRUE(testing::same_bits(restore_views(sim), before)) << message;  // nothing changed
  }
}

}  // namespace
}  // namespace oblique
