// The work budget of an advance call (work_budget.hpp): it changes where a call returns, never the
// results — runs whose every call stops after one evaluation (a step taken again and again, its evaluations
// replayed), calling again while work_limit_hit(), give bit-identical trajectories, contact states and logs
// to runs with the default budget —
// and one call of the heaviest legal scenarios (64 rods pinned in a chain, at a step of 1 µs) stays within
// its budget plus one evaluation, then resumes, as does every call of a cart bouncing thousands of times a
// second under the largest legal force. Work is counted in estimated flops, so nothing here is timed.
#include <gtest/gtest.h>

#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "json_files.hpp"
#include "oblique/io/scenario_json.hpp"
#include "oblique/io/simulation_state_json.hpp"
#include "oblique/simulation/simulator.hpp"
#include "scenario_builders.hpp"
#include "comparisons.hpp"

namespace oblique {
namespace {

using testing::append;

/// Everything the run shows after reaching t, as doubles (compared bit for bit).
void observe_frame(const Simulator& sim, std::vector<double>& out) {
  out.push_back(sim.time());
  append(out, sim.positions());
  append(out, sim.velocities());
  out.push_back(sim.energy().total);
  for (const ContactPoint& p : sim.contact_points()) {
    out.insert(out.end(), {p.gap, p.normal_velocity, p.multiplier, static_cast<double>(p.state)});
  }
  out.push_back(static_cast<double>(sim.dropped_impacts() + sim.impacts().size()));
}

struct Outcome {
  std::vector<double> frames, log;
  long calls = 0, stalled_calls = 0;  // calls, and calls after which time had not moved
};

/// Advances `sim` with `budget` to each of `targets`, calling again whenever the budget stops a call.
Outcome run_to(Simulator& sim, double budget, const std::vector<double>& targets) {
  sim.set_work_budget(budget);
  Outcome out;
  for (double target : targets) {
    do {
      const double before = sim.time();
      sim.advance_to(target);
      ++out.calls;
      out.stalled_calls += sim.time() == before;
    } while (sim.work_limit_hit() && out.calls < 200000);  // a replay that never ends fails, not hangs
    observe_frame(sim, out.frames);
  }
  for (const ImpactRecord& record : sim.impacts()) {
    out.log.push_back(record.time);
    append(out.log, record.result.qd_plus);
    append(out.log, record.result.impulse_multipliers);
    out.log.push_back(record.iterations);
  }
  return out;
}

/// A new run of `scenario` advanced to k/60 s for k = 1 … frames (run_to).
Outcome run(const Scenario& scenario, double budget, int frames) {
  Simulator sim(scenario);
  std::vector<double> targets;
  for (int k = 1; k <= frames; ++k) targets.push_back(k / 60.0);
  return run_to(sim, budget, targets);
}

/// A run of `scenario` restored to `start`, advanced to each of `targets` (run_to).
Outcome run_from(const Scenario& scenario, const SimulationState& start, double budget,
                 const std::vector<double>& targets) {
  Simulator sim(scenario);
  sim.restore_state(start);
  return run_to(sim, budget, targets);
}

using testing::same_bits;

/// The built-in scenario `id` (web/scenarios/<id>.json).
Scenario built_in(const std::string& id) {
  return parse_scenario(testing::read_json(std::string(OBLIQUE_SOURCE_DIR) + "/web/scenarios/" + id + ".json"));
}

TEST(WorkBudget, ChangesWhereCallsReturnNeverTheResults) {
  const Scenario kicked = testing::with_kick(testing::pendulum_and_box(0.6), 0.7, 1, Vec2(0.5, 2.0));
  const std::vector<std::pair<const char*, Scenario>> cases = {
      {"pile (redundant contacts, the Γ rule's splits)", testing::pile(0.3)},
      {"rimless wheel (sticking feet released)", testing::rimless_wheel(8, 0.1, 1.5)},
      {"billiards", testing::billiards(0.9)},
      {"kicked pendulum and box (a scheduled impulse)", kicked},
      {"chamfered corner (plastic follow-ups)", built_in("chamfered-corner")},
  };
  long stalled = 0;
  for (const auto& [name, scenario] : cases) {
    const Outcome whole = run(scenario, kWorkBudgetFlops, 90);
    const Outcome sliced = run(scenario, 1.0, 90);  // every call stops after one evaluation
    ASSERT_FALSE(whole.log.empty()) << name;
    EXPECT_TRUE(same_bits(sliced.frames, whole.frames)) << name;
    EXPECT_TRUE(same_bits(sliced.log, whole.log)) << name;
    EXPECT_GT(sliced.calls, whole.calls) << name;
    stalled += sliced.stalled_calls;
  }
  // The sliced runs did stop inside steps (time had not moved), and took those steps again.
  EXPECT_GT(stalled, 100);
}

TEST(WorkBudget, TheLargestEvaluationsOfThePileOfThirtyStopBetweenTheirPartsNeverChangingTheResults) {
  // The built-in pile of 30 (n = 90) from t = 0.558 s to 0.5625 s: Γ-rule splits of some 80 rows with a
  // dozen passive solves and more, and a dense impact fallback at t = 0.561 s (its kept rows
  // nearly dependent), each larger than the default budget. With a budget of one flop every call stops at
  // the first point it can after one piece of work — between two passive solves, between the fallback's
  // projections and its impact solve —, and the next call takes the step again, the pieces done replayed:
  // the frames and the log are those of calls that never stop, bit for bit.
  const std::string source = OBLIQUE_SOURCE_DIR;
  const Scenario pile = built_in("pile-of-30");
  Simulator lead(pile);
  lead.restore_state(state_from_json(testing::read_json(source + "/tests/cpp/fixtures/pile-of-30-state-0.49.json")));
  do {
    lead.advance_to(0.558);
  } while (lead.work_limit_hit());
  const SimulationState start = lead.save_state();
  const std::vector<double> targets = {0.56, 0.5625};
  // Compared with calls that never stop (the default budget stops this window inside the fallback too).
  const Outcome whole = run_from(pile, start, std::numeric_limits<double>::max(), targets);
  const Outcome sliced = run_from(pile, start, 1.0, targets);
  ASSERT_FALSE(whole.log.empty());
  EXPECT_TRUE(same_bits(sliced.frames, whole.frames));
  EXPECT_TRUE(same_bits(sliced.log, whole.log));
  EXPECT_GT(sliced.calls, 10 * whole.calls);
}

/// n rods of 0.1 m pinned end to end from a pivot, horizontal at first: 2n joint rows on 3n coordinates.
Scenario rod_chain(int count, double step) {
  Scenario s;
  s.gravity = Vec2(0.0, -9.81);
  s.integrator.step = step;
  for (int i = 0; i < count; ++i) {
    s.bodies.push_back(testing::rod("r" + std::to_string(i), 1.0, 0.1, Vec2(0.05 + 0.1 * i, 2.0)));
    s.joints.push_back(testing::joint(JointDef::Type::Pin, i == 0 ? kWorld : i - 1, i == 0 ? Vec2(0.0, 2.0) : Vec2(0.05, 0.0),
                                      i, Vec2(-0.05, 0.0)));
  }
  return s;
}

TEST(WorkBudget, OneCallOfTheHeaviestChainStaysWithinItsBudgetAndResumes) {
  // Issue 13.3: one advance(1/60) of 64 pinned rods at a step of 1 µs once took 720 s in wasm (16 667 steps,
  // each four projections at n = 192). The dense smooth phase (forced: at this size the sparse one runs,
  // below) has the heaviest evaluations.
  Simulator sim(rod_chain(64, 1e-6));
  sim.set_sparse_smooth_phase_threshold(INT_MAX);
  sim.reset();
  const double one_projection = work::projection(192, 128) + work::dynamics(192, 128);
  double most = 0.0;
  for (int k = 0; k < 6; ++k) {
    sim.advance(1.0 / 60.0);
    EXPECT_TRUE(sim.work_limit_hit());
    most = std::max(most, sim.last_work());
  }
  EXPECT_LE(most, std::max(sim.work_budget(), 1.5 * one_projection));
  // It goes on: each call did one evaluation at least, and the steps complete.
  for (int k = 0; k < 20; ++k) sim.advance(1.0 / 60.0);
  EXPECT_GT(sim.time(), 0.0);
  EXPECT_LT(sim.time(), 1e-4);
  EXPECT_LT(sim.constraint_violation(), 1e-12);
}

TEST(WorkBudget, ThousandsOfImpactsASecondUnderTheLargestForceStayWithinEachCallsBudget) {
  // Found by fuzzing (fuzz/corpus/scenario/elastic-cart-driven-into-a-wall-by-1e9-N.json): an elastic cart
  // on a slider pushed into a wall by the largest legal force, 10⁹ N, bounces like a ball under an
  // acceleration of 5·10⁸ m/s², every 2v/a ≈ 170 µs, legally (with 10¹² N, before forces were bounded, it
  // logged 36 762 impacts in 0.2 s). No bound on forces bounds the impacts per second — a lighter body
  // nearer the wall bounces faster —, the work budget bounds each call instead: every call returns within
  // its budget plus one evaluation, and the run goes on. Its first 0.2 s: on the sparse path 0.05 s (some
  // 300 impacts) fit in one call.
  Simulator sim(parse_scenario(testing::read_json(std::string(OBLIQUE_SOURCE_DIR) +
                                                 "/fuzz/corpus/scenario/elastic-cart-driven-into-a-wall-by-1e9-N.json")));
  const Eigen::Index n = sim.positions().size();
  const double one_evaluation = work::projection(static_cast<double>(n), 4) + work::dynamics(static_cast<double>(n), 4);
  double most = 0.0;
  long calls = 0;
  do {
    sim.advance_to(0.2);
    most = std::max(most, sim.last_work());
    ++calls;
  } while (sim.work_limit_hit() && calls < 100000);
  EXPECT_DOUBLE_EQ(sim.time(), 0.2);
  EXPECT_GT(calls, 1);  // the budget did stop calls
  EXPECT_LE(most, sim.work_budget() + 1.5 * one_evaluation);
  // About a thousand elastic impacts, each restoring the cart's speed: the kinetic energy stays that of the first.
  const std::size_t impacts = sim.dropped_impacts() + sim.impacts().size();
  EXPECT_GT(impacts, 800u);
  EXPECT_LT(impacts, 1600u);
}

TEST(WorkBudget, TheSparseSmoothPhaseOfTheHeaviestChainStaysWithinItsBudget) {
  // The 64-rod chain of OneCallOfTheHeaviestChain…, on its default path (the sparse smooth phase, n = 192 ≥
  // kSparseSmoothPhaseCoordinates): each evaluation is charged work::sparse_dynamics, so a call takes many
  // more steps, and still returns within its budget.
  Simulator sim(rod_chain(64, 1e-6));
  ASSERT_TRUE(sim.sparse_smooth_phase());
  double most = 0.0;
  for (int k = 0; k < 6; ++k) {
    sim.advance(1.0 / 60.0);
    EXPECT_TRUE(sim.work_limit_hit());
    most = std::max(most, sim.last_work());
  }
  EXPECT_LE(most, sim.work_budget());
  EXPECT_GT(sim.time(), 6 * 10 * 1e-6);  // at least 10 steps a call
  EXPECT_LT(sim.constraint_violation(), 1e-12);
}

TEST(WorkBudget, ABudgetIsAPositiveNumberOfFlops) {
  Simulator sim(testing::bouncing_ball(1.0, 0.5));
  EXPECT_EQ(sim.work_budget(), kWorkBudgetFlops);
  EXPECT_THROW(sim.set_work_budget(0.0), std::invalid_argument);
  EXPECT_THROW(sim.set_work_budget(std::nan("")), std::invalid_argument);
  EXPECT_EQ(sim.work_budget(), kWorkBudgetFlops);
  // A whole bounce costs little: one call gets there.
  sim.advance(0.5);
  EXPECT_FALSE(sim.work_limit_hit());
  EXPECT_GT(sim.last_work(), 0.0);
  EXPECT_LT(sim.last_work(), 0.1 * sim.work_budget());
}

TEST(WorkBudget, EstimatesGrowWithTheSizes) {
  EXPECT_GT(work::projection(192, 128), 50 * work::projection(48, 32));
  EXPECT_GT(work::projection(192, 1), work::projection(192, 128) * 0.5);  // n³ terms dominate
  EXPECT_GT(work::impact_solve(60, 300), work::impact_solve(60, 30));
  EXPECT_GT(work::projection(3, 1), 0.0);
}

TEST(WorkBudget, ReplayKeysTellApartInputsThatDifferInOneWord) {
  // A replayed evaluation is taken for one whose inputs have its key (evaluation_replay.hpp): the keys of
  // vectors of every length (whole groups of four lanes and remainders) are the same for the same bits,
  // and differ when any one entry, the length, a sign of zero or a flag differs.
  using detail::InputKey;
  for (int size = 0; size < 11; ++size) {
    Vector v(size);
    for (int i = 0; i < size; ++i) v(i) = 0.25 * i - 1.0;
    const std::uint64_t key = InputKey(detail::kDynamicsEvaluation).add(v).value();
    EXPECT_EQ(InputKey(detail::kDynamicsEvaluation).add(Vector(v)).value(), key);
    EXPECT_NE(InputKey(detail::kRefreshEvaluation).add(v).value(), key);
    Vector longer(size + 1);
    longer << v, 0.0;
    EXPECT_NE(InputKey(detail::kDynamicsEvaluation).add(longer).value(), key) << size;
    for (int i = 0; i < size; ++i) {
      Vector changed = v;
      changed(i) = std::nextafter(v(i), 10.0);
      EXPECT_NE(InputKey(detail::kDynamicsEvaluation).add(changed).value(), key) << size << " " << i;
      changed(i) = v(i) == 0.0 ? -0.0 : -v(i);
      EXPECT_NE(InputKey(detail::kDynamicsEvaluation).add(changed).value(), key) << size << " " << i;
    }
    std::vector<bool> flags(static_cast<std::size_t>(size), false);
    const std::uint64_t flags_key = InputKey(detail::kDynamicsEvaluation).add(flags).value();
    for (std::size_t i = 0; i < flags.size(); ++i) {
      std::vector<bool> changed = flags;
      changed[i] = true;
      EXPECT_NE(InputKey(detail::kDynamicsEvaluation).add(changed).value(), flags_key) << size << " " << i;
    }
  }
}

}  // namespace
}  // namespace oblique
