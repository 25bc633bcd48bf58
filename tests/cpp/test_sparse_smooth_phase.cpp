// The simulator's smooth phase (and, with it, its impacts: test_sparse_impacts.cpp) through the sparse
// Delassus factorisation (simulator.hpp): it runs from kSparseSmoothPhaseCoordinates = 0 coordinates, for
// every scene; on large scenes it gives the run of the dense ScaledProjection (forced with the
// test-only set_sparse_smooth_phase_threshold) to round-off — same impacts and contacts, K⁻ and K⁺ of each,
// states within 1e-10 over 0.15–0.25 s — and keeps the laws of the physics (momentum, energy, constraints)
// and the simulator's determinism (restored states, budget-cut calls).
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "oblique/io/scenario_json.hpp"
#include "oblique/simulation/simulator.hpp"
#include "conservation.hpp"
#include "scenario_builders.hpp"
#include "scene_families.hpp"
#include "json_files.hpp"
#include "simulation_runs.hpp"

namespace oblique {
namespace {

using testing::read_json;

using testing::run_to;
using testing::simulator_on_path;


double max_abs_difference(const Vector& a, const Vector& b) { return (a - b).cwiseAbs().maxCoeff(); }

TEST(SparseSmoothPhase, EveryBuiltInScenarioTakesItAndTheSwitchForcesTheDensePath) {
  // kSparseSmoothPhaseCoordinates is 0: every scene, of any size, takes the sparse path (simulator.hpp);
  // the test-only switch forces the dense one, and back.
  const std::string dir = std::string(OBLIQUE_SOURCE_DIR) + "/web/scenarios/";
  int scenarios = 0;
  const Json index = read_json(dir + "index.json");
  for (const Json& entry : index.at("scenarios")) {
    const Simulator sim(parse_scenario(read_json(dir + entry.at("file").get<std::string>())));
    EXPECT_TRUE(sim.sparse_smooth_phase()) << entry.at("id").get<std::string>();
    ++scenarios;
  }
  EXPECT_GT(scenarios, 10);
  Simulator sim(testing::bouncing_ball(1.0, 0.5));
  EXPECT_TRUE(sim.sparse_smooth_phase());
  sim.set_sparse_smooth_phase_threshold(INT_MAX);
  EXPECT_FALSE(sim.sparse_smooth_phase());
  sim.set_sparse_smooth_phase_threshold(0);
  EXPECT_TRUE(sim.sparse_smooth_phase());
}

/// A large scene run on both paths for `duration`.
struct PathCase {
  const char* name;
  Scenario scenario;
  double duration;
};

std::vector<PathCase> path_cases() {
  return {{"row16", scenes::striker_row(16), 0.25},
          {"chain16", scenes::rod_chain(16), 0.15},
          {"column16", scenes::disk_column(16), 0.15}};
}

TEST(SparseSmoothPhase, LargeScenesGiveTheDenseRunToRoundOff) {
  // Both paths compute the paper's q̈, λ, (I − S)q̇ and impacts (sparse_dynamics.hpp), differing by
  // round-off (about 1e-16 relative per evaluation). Events are located to event_tolerance on both, so an
  // impact time may differ by that much, and the velocities after it by the round-off it carries; impacts
  // with e < 1 and resting contact do not amplify it over these windows. Measured: the row (one impact
  // through 16 disks, then sliding) and the column (594 impacts) differ by 4e-16 m/s, the chain (88
  // impacts, 15 redundant pins: a rank-deficient A) by 2e-14 m and 5e-13 m/s; impact times by up to 3e-11 s
  // after the column's 460th impact (1e-13 s each, carried from impact to impact). The bounds leave a
  // factor of 30 to 1000 for other compilers and are still far below any physical difference (an impact
  // missed or added changes a velocity by about 0.1 m/s and a time by about 1e-4 s).
  for (const PathCase& c : path_cases()) {
    SCOPED_TRACE(c.name);
    Simulator sparse = simulator_on_path(c.scenario, false);
    Simulator dense = simulator_on_path(c.scenario, true);
    ASSERT_TRUE(sparse.sparse_smooth_phase());
    ASSERT_FALSE(dense.sparse_smooth_phase());
    double worst_q = 0.0, worst_qd = 0.0;
    for (int k = 1; k <= 25; ++k) {
      const double t = c.duration * k / 25.0;
      run_to(sparse, t);
      run_to(dense, t);
      ASSERT_EQ(sparse.time(), dense.time());
      worst_q = std::max(worst_q, max_abs_difference(sparse.positions(), dense.positions()));
      worst_qd = std::max(worst_qd, max_abs_difference(sparse.velocities(), dense.velocities()));
      // The same contacts, in the same states.
      ASSERT_EQ(sparse.contact_point_count(), dense.contact_point_count());
      for (int p = 0; p < sparse.contact_point_count(); ++p) {
        ASSERT_EQ(sparse.contact_points()[static_cast<std::size_t>(p)].state,
                  dense.contact_points()[static_cast<std::size_t>(p)].state)
            << "point " << p << " at t = " << t;
      }
    }
    EXPECT_LT(worst_q, 1e-10);
    EXPECT_LT(worst_qd, 1e-9);
    // The same impacts: count, impact sets, times (to the event tolerance) and outcomes.
    ASSERT_EQ(sparse.dropped_impacts(), 0u);
    ASSERT_EQ(sparse.impacts().size(), dense.impacts().size());
    EXPECT_GT(sparse.impacts().size(), 0u);
    for (std::size_t k = 0; k < sparse.impacts().size(); ++k) {
      const ImpactRecord& a = sparse.impacts()[k];
      const ImpactRecord& b = dense.impacts()[k];
      EXPECT_EQ(a.points, b.points) << "impact " << k;
      EXPECT_NEAR(a.time, b.time, 1e-9) << "impact " << k;
      EXPECT_LT(max_abs_difference(a.result.qd_plus, b.result.qd_plus), 1e-9) << "impact " << k;
      const double energy = std::max({b.result.kinetic_minus, b.result.kinetic_plus, 1e-300});
      EXPECT_NEAR(a.result.kinetic_minus, b.result.kinetic_minus, 1e-9 * energy) << "impact " << k;
      EXPECT_NEAR(a.result.kinetic_plus, b.result.kinetic_plus, 1e-9 * energy) << "impact " << k;
    }
  }
}

TEST(SparseSmoothPhase, KeepsMomentumAndTheEnergyBalance) {
  // The row: frictionless contacts with a horizontal floor, so the horizontal momentum Σ m ẋ (the striker's
  // 1 kg·m/s) is kept by every smooth phase and every impact (the disk–disk impulses cancel in pairs);
  // the kinetic energy changes only at impacts (the disks stay on the floor: no potential change), by
  // K⁺ − K⁻ of each record.
  const Scenario scenario = scenes::striker_row(24);
  Simulator sim(scenario);
  ASSERT_TRUE(sim.sparse_smooth_phase());
  const double energy0 = sim.energy().total;
  const std::size_t logged0 = sim.impacts().size();
  double initial_momentum = 0.0;
  for (int b = 0; b < sim.model().body_count(); ++b) initial_momentum += sim.model().mass_diagonal()(3 * b) * sim.velocities()(3 * b);
  double change0 = 0.0;
  for (std::size_t k = 0; k < logged0; ++k) change0 += sim.impacts()[k].result.kinetic_energy_change;
  for (int k = 1; k <= 10; ++k) {
    run_to(sim, 0.03 * k);
    double momentum = 0.0;
    for (int b = 0; b < sim.model().body_count(); ++b) momentum += sim.model().mass_diagonal()(3 * b) * sim.velocities()(3 * b);
    EXPECT_NEAR(momentum, initial_momentum, 1e-12) << "t = " << sim.time();
    EXPECT_LT(sim.constraint_violation(), 1e-9) << "t = " << sim.time();
  }
  ASSERT_EQ(sim.dropped_impacts(), 0u);
  EXPECT_GT(sim.impacts().size(), logged0);
  double change = -change0;
  for (const ImpactRecord& record : sim.impacts()) change += record.result.kinetic_energy_change;
  EXPECT_LT(change, 0.0);  // e = 0.9: the impacts dissipate
  EXPECT_NEAR(sim.energy().total - energy0, change, 1e-9 * std::abs(energy0));
}

TEST(SparseSmoothPhase, ConservesTheEnergyOfAPinnedChain) {
  // 20 rods pinned end to end from a pivot (n = 60, no contact): a conservative system, whose energy RK4
  // keeps to O(h⁴) and whose joints the projections keep closed — on the sparse path as on the dense one.
  Scenario s;
  s.gravity = Vec2(0.0, -9.81);
  s.integrator.step = 1e-3;
  for (int i = 0; i < 20; ++i) {
    s.bodies.push_back(testing::rod("r" + std::to_string(i), 1.0, 0.1, Vec2(0.05 + 0.1 * i, 2.0)));
    s.joints.push_back(testing::joint(JointDef::Type::Pin, i == 0 ? kWorld : i - 1,
                                      i == 0 ? Vec2(0.0, 2.0) : Vec2(0.05, 0.0), i, Vec2(-0.05, 0.0)));
  }
  Simulator sparse = simulator_on_path(s, false);
  Simulator dense = simulator_on_path(s, true);
  ASSERT_TRUE(sparse.sparse_smooth_phase());
  const testing::ConservationReport a = testing::track_conservation(sparse, 30, 0.01);
  const testing::ConservationReport b = testing::track_conservation(dense, 30, 0.01);
  EXPECT_LT(a.energy_error, 1e-6);
  EXPECT_LT(a.violation, 1e-9);
  EXPECT_LT(std::abs(a.energy_error - b.energy_error), 1e-9);
  EXPECT_LT(max_abs_difference(sparse.positions(), dense.positions()), 1e-10);
}

TEST(SparseSmoothPhase, RestoredStatesAndBudgetCutCallsReplayTheRunBitForBit) {
  // Each evaluation factorises afresh, so the run depends on its state alone: a state restored in a new
  // simulation, and calls stopped by a tiny work budget, give the same bits as one uninterrupted run.
  const Scenario scenario = scenes::striker_row(20);
  Simulator reference(scenario);
  run_to(reference, 0.05);
  const SimulationState saved = reference.save_state();
  run_to(reference, 0.1);

  Simulator restored(scenario);
  restored.restore_state(saved);
  run_to(restored, 0.1);
  EXPECT_EQ(restored.positions(), reference.positions());
  EXPECT_EQ(restored.velocities(), reference.velocities());

  Simulator cut(scenario);
  cut.set_work_budget(1.0);  // one evaluation per call
  run_to(cut, 0.1);
  EXPECT_EQ(cut.positions(), reference.positions());
  EXPECT_EQ(cut.velocities(), reference.velocities());
  ASSERT_EQ(cut.impacts().size(), reference.impacts().size());
  for (std::size_t k = 0; k < cut.impacts().size(); ++k) {
    EXPECT_EQ(cut.impacts()[k].time, reference.impacts()[k].time);
    EXPECT_EQ(cut.impacts()[k].result.qd_plus, reference.impacts()[k].result.qd_plus);
  }
}

}  // namespace
}  // namespace oblique
