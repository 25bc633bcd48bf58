// The work budget with friction and automatic contacts (work_budget.hpp, simulator.hpp "Bounded work"):
// grids of disks under gravity with "collide": "all" and μ = 0.3 — exactly touching, whose initial settle
// is the first transaction and resumes across calls, and with 1 mm gaps, whose rows land on each other in
// frictional impacts solved part by part, each part charged before it is solved. A call that stops at its
// budget changes nothing: runs whose every call stops after one evaluation give the same bits as runs that
// never stop. Work is counted in estimated flops, so nothing here is timed (wall clock: `npm run bench`).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "friction/frictional_impact_internal.hpp"
#include "oblique/friction/frictional_impact.hpp"
#include "oblique/simulation/simulator.hpp"
#include "scenario_builders.hpp"
#include "comparisons.hpp"

namespace oblique {
namespace {

/// Everything a run shows after each call to k·dt, and its log, as doubles (compared bit for bit); the most
/// work one call was charged.
struct Observed {
  std::vector<double> seen;
  double most_work = 0.0;
  long calls = 0;
};
void observe_contacts(const Simulator& sim, std::vector<double>& out) {
  out.push_back(sim.time());
  out.insert(out.end(), sim.positions().data(), sim.positions().data() + sim.positions().size());
  out.insert(out.end(), sim.velocities().data(), sim.velocities().data() + sim.velocities().size());
  for (const ContactPoint& p : sim.contact_points()) out.insert(out.end(), {p.gap, p.multiplier, static_cast<double>(p.state)});
}
Observed run_in_steps(Simulator& sim, double until, double dt) {
  Observed out;
  out.most_work = sim.last_work();
  for (int k = 1; k * dt <= until + 1e-12; ++k) {
    do {
      sim.advance_to(k * dt);
      out.most_work = std::max(out.most_work, sim.last_work());
      ++out.calls;
    } while (sim.work_limit_hit());
    observe_contacts(sim, out.seen);
  }
  for (const ImpactRecord& record : sim.impacts()) {
    out.seen.push_back(record.time);
    out.seen.insert(out.seen.end(), record.result.qd_plus.data(), record.result.qd_plus.data() + record.result.qd_plus.size());
  }
  return out;
}

using testing::same_bits;

TEST(WorkBudgetContacts, TheInitialSettleOfATouchingFrictionalGridResumesAcrossCalls) {
  // 8 × 8 touching disks: every disk touches the floor or the disk below and its neighbours, each point
  // with friction. The settle of the initial state is the first transaction of the first calls: the
  // constructor returns within its budget (plus the one evaluation every call makes), and the rest follows
  // in the next calls, with the same bits as a simulator whose settle ran whole.
  const Scenario s = testing::disk_rows_on_floor(8, 8, 0.0, 0.3);
  Simulator cut(s);
  cut.set_work_budget(1.0);  // every call stops after its first evaluation
  Simulator whole(s);
  whole.set_work_budget(std::numeric_limits<double>::max());
  whole.reset();
  EXPECT_FALSE(whole.work_limit_hit());
  const Observed a = run_in_steps(cut, 0.02, 1.0 / 600), b = run_in_steps(whole, 0.02, 1.0 / 600);
  EXPECT_GT(a.calls, b.calls);  // the budget did stop calls
  EXPECT_TRUE(same_bits(a.seen, b.seen));
  // Settled: the grid rests, every disk's speed within round-off of zero, and the points hold it up.
  EXPECT_LT(whole.velocities().cwiseAbs().maxCoeff(), 1e-9);
  int active = 0;
  for (const ContactPoint& p : whole.contact_points()) active += p.state == ContactState::Active ? 1 : 0;
  EXPECT_GE(active, 8 * 8);
}

TEST(WorkBudgetContacts, ASettleStoppedByTheBudgetGoesOnFromItsLastPassWithTheSameBits) {
  // 3 × 4 touching disks with μ = 0.3 and a 13th falling onto the top row: the settle after its impact
  // takes several passes (points released, sticking points leaving their cone). A call stopped inside a
  // settle keeps the state at the top of the pass it reached, and the next call goes on from there instead
  // of from the settle's first pass, skipping the evaluations between on the replay: calls of a budget that
  // stops them a few evaluations in give the bits of a run that never stopped.
  Scenario s = testing::disk_rows_on_floor(3, 4, 0.0, 0.3);
  BodyDef striker = s.bodies.back();
  striker.name = "striker";
  striker.position = Vec2(0.2, 0.05 + 3 * 0.1 + 1e-3);
  striker.velocity = Vec2(0.3, -1.0);
  s.bodies.push_back(striker);
  Simulator cut(s);
  cut.set_work_budget(1e5);
  Simulator whole(s);
  whole.set_work_budget(std::numeric_limits<double>::max());
  whole.reset();
  const Observed a = run_in_steps(cut, 0.001, 1.0 / 2000), b = run_in_steps(whole, 0.001, 1.0 / 2000);
  EXPECT_GT(a.calls, 100 * b.calls);  // the budget did stop calls, inside the settles
  ASSERT_EQ(whole.impacts().size(), 1u);
  EXPECT_TRUE(same_bits(a.seen, b.seen));
}

TEST(WorkBudgetContacts, ACallStoppedByTheBudgetDoesNotPayAgainForPainlevesCheck) {
  // 4 × 8 touching disks sliding at 1 m/s on their floor: every settle ends with Painlevé's check (a
  // factorisation of the held rows and a solve per sliding point, painleve_check.hpp). Calls stopped by a
  // tenth of the default budget take the step again from its start; the check's verdict comes from memory,
  // so their work summed is the uninterrupted run's and a little bookkeeping (1.2 times as much when the
  // check runs again in every call), with the same bits.
  Scenario s = testing::disk_rows_on_floor(4, 8, 0.0, 0.3);
  for (BodyDef& body : s.bodies) body.velocity = Vec2(1.0, 0.0);
  const auto total_work = [&](Simulator& sim, Observed& seen) {
    double work = sim.last_work();
    for (int k = 1; k <= 2; ++k) {
      do {
        sim.advance_to(0.001 * k);
        work += sim.last_work();
        ++seen.calls;
      } while (sim.work_limit_hit());
      observe_contacts(sim, seen.seen);
    }
    return work;
  };
  Simulator cut(s), whole(s);
  cut.set_work_budget(0.1 * kWorkBudgetFlops);
  cut.reset();
  whole.set_work_budget(std::numeric_limits<double>::max());
  whole.reset();
  Observed a, b;
  const double cut_work = total_work(cut, a), whole_work = total_work(whole, b);
  EXPECT_GT(a.calls, 2 * b.calls);  // the budget did stop calls
  EXPECT_LE(cut_work, 1.1 * whole_work);
  EXPECT_TRUE(same_bits(a.seen, b.seen));
}

TEST(WorkBudgetContacts, TheSplitsOfAWallOfTouchingBoxesStopInsideTheirFactorisationsWithTheSameBits) {
  // 10 × 10 touching boxes on a floor: 380 contact rows on 300 coordinates, so the minimum-norm λ of the
  // smooth phase pulls on some rows and each evaluation splits the load anew (nonnegative_split.hpp), on
  // compressed rows alone at this size (kDenseSplitEntries), through factorisations with a dependent row's
  // search per redundant contact. Calls stopped by the budget between those searches take the split up
  // where it stopped, with the bits of the run that never stops.
  const Scenario s = testing::box_wall_on_floor(10, 10, 0.0);
  Simulator cut(s), whole(s);
  whole.set_work_budget(std::numeric_limits<double>::max());
  whole.reset();
  const Observed a = run_in_steps(cut, 0.002, 0.001), b = run_in_steps(whole, 0.002, 0.001);
  EXPECT_GT(a.calls, 50 * b.calls);  // the budget did stop calls, most of them inside a split
  EXPECT_TRUE(same_bits(a.seen, b.seen));
  // The wall stands: no body moved by more than round-off's creep, none penetrates.
  for (const ContactPoint& p : cut.contact_points()) EXPECT_GT(p.gap, -1e-9);
}

TEST(WorkBudgetContacts, FrictionalImpactsOfManyLandingDisksAreSolvedPartByPartWithinTheBudget) {
  // 7 rows of 16 disks 1 mm apart, the lowest row on the floor: the rows land on one another in impacts of
  // many disks at once, each column that a row of impacts links a part of its own (no row of A couples two
  // columns), solved alone, its stick/slip search step by step, each step charged before it runs. A call
  // then stops between parts or between steps, so no call is charged more than its budget, one step of the
  // largest part — a column of 7 disks with 7 frictional points: its projections or one mode combination —
  // and what an evaluation is charged once done (work_budget.hpp): at most the analysis of a new pattern of
  // A, here at most 2 rows for each of 16 + 6 · 16 + 7 · 15 points (the floor, the columns, the rows).
  const Scenario s = testing::disk_rows_on_floor(7, 16, 1e-3, 0.3);
  Simulator sim(s);
  const double column =
      std::max(work::projection(21, 14), work::impact_solve(21, 14)) + work::symbolic_analysis(2.0 * (16 + 6 * 16 + 7 * 15));
  const Observed cut_run = [&] {
    Simulator cut(s);
    cut.set_work_budget(1.0);
    return run_in_steps(cut, 0.06, 1.0 / 60);
  }();
  const Observed default_run = run_in_steps(sim, 0.06, 1.0 / 60);
  EXPECT_LE(default_run.most_work, sim.work_budget() + column);
  EXPECT_TRUE(same_bits(cut_run.seen, default_run.seen));
  ASSERT_GE(sim.impacts().size(), 2u);
  // No external force but gravity and the floor: along x, momentum stays zero, and every impact keeps the
  // x-momentum its bodies had (the floor pushes along y only) and creates no energy.
  double px = 0.0;
  for (int b = 0; b < 7 * 16; ++b) px += sim.velocities()(3 * b);
  EXPECT_NEAR(px, 0.0, 1e-12);
  for (const ImpactRecord& record : sim.impacts()) {
    double before = 0.0, after = 0.0;
    for (int b = 0; b < 7 * 16; ++b) {
      before += record.result.qd_minus(3 * b);
      after += record.result.qd_plus(3 * b);
    }
    EXPECT_NEAR(after, before, 1e-12) << "t = " << record.time;
    EXPECT_LE(record.result.kinetic_plus, record.result.kinetic_minus * (1.0 + 1e-12)) << "t = " << record.time;
  }
}

TEST(WorkBudgetContacts, TheStickSlipSearchOfOneStruckGroupOfTouchingDisksResumesAcrossCallsStepByStep) {
  // 3 × 3 touching disks with μ = 0.3 and a tenth disk falling onto the middle of the top row: its impact
  // takes every resting point into one frictional impact of all ten disks, one group whose stick/slip search
  // is the largest evaluation of the run. Each of its steps (the projections, the sticking impact, one mode
  // combination) is charged before it runs: no call is charged more than its budget and the largest step,
  // a call stopped inside the search keeps it where it stands, and runs whose every call stops after one
  // evaluation give the bits of runs that never stop.
  Scenario s = testing::disk_rows_on_floor(3, 3, 0.0, 0.3);
  const double r = 0.05;
  s.bodies.push_back(testing::disk("striker", 1.0, r, Vec2(2 * r, 7 * r + 1e-3)));
  s.bodies.back().velocity = Vec2(0.3, -1.0);
  // Ten disks: 30 coordinates; 16 touching points at most, and the striker's: 34 rows with their tangents;
  // the group's search dense or sparse (kSparseFrictionCoordinates), every pair slipping at most. And what
  // an evaluation is charged once done, at most the analysis of a new pattern of those rows.
  const double group_step = std::max({work::projection(30, 34), work::impact_solve(30, 34),
                                      detail::sparse_step_flops(30, 34, 17)}) +
                            work::symbolic_analysis(34);
  Simulator sim(s);
  const Observed cut_run = [&] {
    Simulator cut(s);
    cut.set_work_budget(1.0);
    return run_in_steps(cut, 0.01, 1.0 / 600);
  }();
  const Observed default_run = run_in_steps(sim, 0.01, 1.0 / 600);
  EXPECT_GT(cut_run.calls, default_run.calls);
  EXPECT_TRUE(same_bits(cut_run.seen, default_run.seen));
  EXPECT_LE(default_run.most_work, sim.work_budget() + group_step);
  // The striker's impact was frictional and took in the grid's resting points: more than ten frictional
  // points in one record.
  std::size_t most_points = 0;
  for (const ImpactRecord& record : sim.impacts()) most_points = std::max(most_points, record.friction.size());
  EXPECT_GT(most_points, 10u);
}

TEST(WorkBudgetContacts, TheFactorisationsOfATouchingFrictionalGridAtRestStopBetweenTheirPieces) {
  // 12 × 12 touching disks with μ = 0.3, settled: every point sticks, 552 rows on 432 coordinates, so each
  // evaluation factorises K with more than a hundred dependent rows, each a search of its own — a step
  // costs many budgets, and one factorisation more than the budget. The factorisation stops between its
  // searches (WorkGate) and the next call takes it up: no call is charged more than its budget and one
  // piece (a search, or the null basis), and the trajectory is that of calls that never stop.
  const Scenario s = testing::disk_rows_on_floor(12, 12, 0.0, 0.3);
  const double step = s.integrator.step;
  Simulator cut(s), whole(s);
  whole.set_work_budget(std::numeric_limits<double>::max());
  whole.reset();
  const Observed a = run_in_steps(cut, 0.004, step), b = run_in_steps(whole, 0.004, step);
  EXPECT_TRUE(same_bits(a.seen, b.seen));
  // At rest (the settle's impact done): the work of one step, whole, and the most a call of the cut run
  // is charged over the next steps.
  whole.advance_to(0.004 + step);
  const double step_work = whole.last_work();
  double most = 0.0;
  for (int k = 1; k <= 3; ++k) {
    do {
      cut.advance_to(0.004 + k * step);
      most = std::max(most, cut.last_work());
    } while (cut.work_limit_hit());
  }
  whole.advance_to(0.004 + 3 * step);
  EXPECT_EQ(cut.positions(), whole.positions());
  EXPECT_GT(step_work, 5.0 * cut.work_budget());
  EXPECT_LE(most, 1.5 * cut.work_budget());
}

}  // namespace
}  // namespace oblique
