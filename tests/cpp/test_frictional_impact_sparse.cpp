// The sparse stick/slip search (FrictionalImpactSearch on a diagonal M and compressed rows,
// frictional_impact.hpp): on the impacts of a struck group of touching disks with friction — more rows than
// coordinates, so dependent rows — each mode combination and the whole search give what the dense search on
// the projections of (M, A) gives, to round-off; the result obeys the impact's laws (momentum balance, the
// velocity law of the sticking pairs, the slipping pairs' impulse on the cone's edge); and in a run the
// simulator's frictional impacts of large groups take it, each step charged before it runs, with the same
// bits whether calls stop inside the search or not.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <limits>
#include <vector>

#include "comparisons.hpp"
#include "friction/frictional_impact_internal.hpp"
#include "oblique/friction/frictional_impact.hpp"
#include "oblique/simulation/simulator.hpp"
#include "oblique/sparse/sparse_rows.hpp"
#include "scenario_builders.hpp"

namespace oblique {
namespace {

/// 3 × 3 touching disks with μ = 0.3 on a floor and a tenth disk falling onto the middle of the top row
/// (30 coordinates): its impact takes every resting point into one frictional impact.
Scenario struck_grid_of_nine() {
  Scenario s = testing::disk_rows_on_floor(3, 3, 0.0, 0.3);
  const double r = 0.05;
  s.bodies.push_back(testing::disk("striker", 1.0, r, Vec2(2 * r, 7 * r + 1e-3)));
  s.bodies.back().velocity = Vec2(0.3, -1.0);
  return s;
}

/// Advances to `t` in as many calls as the work budget takes.
void advance_fully(Simulator& sim, double t) {
  do {
    sim.advance_to(t);
  } while (sim.work_limit_hit());
}

/// The inputs of one logged frictional impact: diag M, A, q̇⁻, E, the unilateral rows and the pairs.
struct LoggedImpact {
  Vector mass;
  Matrix jacobian;
  Vector qd_minus, restitution;
  std::vector<bool> unilateral;
  std::vector<FrictionPair> pairs;
};

/// The striker's impact of struck_grid_of_nine, solved by the dense search (the record with the most
/// frictional points of its first 0.01 s).
LoggedImpact struck_impact() {
  Simulator sim(struck_grid_of_nine());
  sim.set_sparse_friction_threshold(INT_MAX);
  advance_fully(sim, 0.01);
  const ImpactRecord* most = nullptr;
  for (const ImpactRecord& record : sim.impacts()) {
    if (most == nullptr || record.friction.size() > most->friction.size()) most = &record;
  }
  LoggedImpact out;
  if (most == nullptr) return out;
  out.mass = most->inertia->diagonal();
  out.jacobian = most->jacobian.dense();
  out.qd_minus = most->result.qd_minus;
  out.restitution = most->result.restitution;
  out.unilateral = most->unilateral();
  for (const ContactFriction& c : most->friction) out.pairs.push_back({c.normal_row, c.normal_row + 1, c.mu});
  return out;
}

/// ‖a − b‖∞ relative to the larger of ‖a‖∞, ‖b‖∞ and 1e-300.
double relative_difference(const Vector& a, const Vector& b) {
  const double scale = std::max({a.cwiseAbs().maxCoeff(), b.cwiseAbs().maxCoeff(), 1e-300});
  return (a - b).cwiseAbs().maxCoeff() / scale;
}

TEST(SparseFrictionalImpact, EachModeCombinationOfADependentGroupIsTheDenseOneToRoundOff) {
  // The striker's impact: 10 disks, more rows than coordinates. Every single pair slipping either way, and
  // every pair slipping in the direction of its pre-impact slip, solved by the dense step (projections,
  // pseudo-inverse of A_v M⁻¹Bᵀ) and by the sparse one (Schur complement over the slipping pairs).
  const LoggedImpact impact = struck_impact();
  ASSERT_GT(impact.pairs.size(), 10u);
  ASSERT_GT(impact.jacobian.rows(), impact.jacobian.cols());
  const int n = static_cast<int>(impact.mass.size()), m = static_cast<int>(impact.jacobian.rows());
  const Restitution e = Restitution::rows(impact.restitution);
  detail::FrictionProblem dense = detail::make_friction_problem(Inertia::from_diagonal(impact.mass), n, m, std::nullopt,
                                                                impact.qd_minus, e, impact.pairs, Vector(), impact.unilateral);
  detail::FrictionProblem sparse = dense;
  dense.projection = std::make_shared<const Projection>(Inertia::from_diagonal(impact.mass), impact.jacobian);
  sparse.sparse = true;
  sparse.sparse_jacobian = to_sparse(impact.jacobian);
  sparse.mass = impact.mass;
  const std::vector<PairMode> sticking(impact.pairs.size(), PairMode{FrictionMode::Stick, 0});
  std::vector<std::vector<PairMode>> combinations;
  for (std::size_t k = 0; k < impact.pairs.size(); ++k) {
    for (int direction : {1, -1}) {
      combinations.push_back(sticking);
      combinations.back()[k] = {FrictionMode::Slip, direction};
    }
  }
  std::vector<PairMode> whittaker;
  for (const FrictionPair& pair : impact.pairs) {
    whittaker.push_back({FrictionMode::Slip, impact.jacobian.row(pair.tangent_row).dot(impact.qd_minus) < 0.0 ? -1 : 1});
  }
  combinations.push_back(whittaker);
  int solved_sparse = 0;
  for (const std::vector<PairMode>& modes : combinations) {
    const detail::FrictionAttempt a = detail::solve_modes_dense(dense, modes);
    detail::SparseStepProgress progress;
    const detail::FrictionAttempt b = detail::solve_modes_sparse(sparse, modes, progress);
    // The sparse step leaves the n×n projector empty; a fallback to the dense arithmetic fills it.
    solved_sparse += b.projector.size() == 0 ? 1 : 0;
    EXPECT_LT(relative_difference(a.qd_plus, b.qd_plus), 1e-9);
    EXPECT_LT(relative_difference(a.multipliers, b.multipliers), 1e-8);
    EXPECT_LT(relative_difference(a.impulse, b.impulse), 1e-8);
    EXPECT_EQ(a.velocity_rows, b.velocity_rows);
  }
  // The sparse arithmetic, not its fallback, solved most of them.
  EXPECT_GT(solved_sparse, static_cast<int>(combinations.size()) / 2);
}

TEST(SparseFrictionalImpact, TheWholeSearchTakesTheDenseSearchsPathAndObeysTheImpactLaws) {
  const LoggedImpact impact = struck_impact();
  ASSERT_GT(impact.pairs.size(), 10u);
  const Restitution e = Restitution::rows(impact.restitution);
  const Projection projection(Inertia::from_diagonal(impact.mass), impact.jacobian);
  const FrictionalImpactResult dense = solve_frictional_impact(projection, impact.qd_minus, e, impact.pairs, Vector(),
                                                               impact.unilateral);
  FrictionalImpactSearch search(impact.mass, to_sparse(impact.jacobian), impact.qd_minus, e, impact.pairs, Vector(),
                                impact.unilateral);
  while (!search.done()) search.step();
  const FrictionalImpactResult sparse = search.result();
  // The same combinations tried, the same modes found.
  EXPECT_EQ(sparse.combinations_tried, dense.combinations_tried);
  EXPECT_EQ(sparse.modes_consistent, dense.modes_consistent);
  ASSERT_EQ(sparse.pairs.size(), dense.pairs.size());
  for (std::size_t k = 0; k < sparse.pairs.size(); ++k) {
    EXPECT_EQ(sparse.pairs[k].mode, dense.pairs[k].mode) << "pair " << k;
    EXPECT_EQ(sparse.pairs[k].direction, dense.pairs[k].direction) << "pair " << k;
  }
  EXPECT_LT(relative_difference(sparse.qd_plus, dense.qd_plus), 1e-9);
  EXPECT_LT(relative_difference(sparse.impulse_multipliers, dense.impulse_multipliers), 1e-8);
  EXPECT_EQ(sparse.projector.size(), 0);
  // Momentum balance M(q̇⁺ − q̇⁻) = Aᵀi_λ.
  const Vector change = impact.mass.cwiseProduct(sparse.qd_plus - sparse.qd_minus);
  const Vector generalized = impact.jacobian.transpose() * sparse.impulse_multipliers;
  EXPECT_LT((change - generalized).cwiseAbs().maxCoeff(),
            1e-10 * impact.mass.cwiseProduct(sparse.qd_minus).cwiseAbs().maxCoeff());
  // Coulomb per mode: a sticking pair's slip stopped (v_t⁺ = 0); a slipping pair's friction impulse on
  // the cone's edge, i_t = −μ s i_n.
  const double speed = sparse.velocity_minus.cwiseAbs().maxCoeff();
  const double impulse = sparse.impulse_multipliers.cwiseAbs().maxCoeff();
  for (const FrictionPairResult& pair : sparse.pairs) {
    if (pair.mode == FrictionMode::Stick) {
      EXPECT_LT(std::abs(pair.slip_plus), 1e-9 * speed) << "row " << pair.normal_row;
    } else {
      EXPECT_NEAR(pair.tangential_impulse, -pair.mu * pair.direction * pair.normal_impulse, 1e-12 * impulse);
    }
  }
}

TEST(SparseFrictionalImpact, AStepStoppedByItsGateAndTakenUpByACopyGivesTheUninterruptedBits) {
  // The simulator stops a step of the sparse search between its pieces (the factorisations' searches and
  // null bases, each slipping pair's pseudo-solve, the dense system over the pairs), keeps a copy of the
  // search and takes the step up from that copy in its next call. Stopped before every second piece, each
  // time resumed by a fresh copy, the search must give the uninterrupted search's result bit for bit.
  const LoggedImpact impact = struck_impact();
  const Restitution e = Restitution::rows(impact.restitution);
  const SparseJacobian a = to_sparse(impact.jacobian);
  FrictionalImpactSearch whole(impact.mass, a, impact.qd_minus, e, impact.pairs, Vector(), impact.unilateral);
  int pieces = 0;
  while (!whole.done()) whole.step([&](double flops) {
    EXPECT_GT(flops, 0.0);
    ++pieces;
  });
  struct Stopped {};
  FrictionalImpactSearch cut(impact.mass, a, impact.qd_minus, e, impact.pairs, Vector(), impact.unilateral);
  int asked = 0, stops = 0;
  while (!cut.done()) {
    try {
      cut.step([&](double) {
        if (++asked % 2 == 0) {
          ++stops;
          throw Stopped{};
        }
      });
    } catch (const Stopped&) {
      cut = FrictionalImpactSearch(cut);  // taken up from a copy, as the simulator's replay does
    }
  }
  EXPECT_GT(stops, 3);
  EXPECT_EQ(asked - stops, pieces);  // every piece run once: none skipped, none twice
  EXPECT_EQ(cut.steps(), whole.steps());
  const FrictionalImpactResult x = whole.result(), y = cut.result();
  EXPECT_EQ(x.combinations_tried, y.combinations_tried);
  EXPECT_EQ(x.qd_plus, y.qd_plus);
  EXPECT_EQ(x.impulse_multipliers, y.impulse_multipliers);
  EXPECT_EQ(x.energy_ratio, y.energy_ratio);
}

TEST(SparseFrictionalImpact, ARunsLargeFrictionalImpactsTakeItWithTheDenseRunsImpacts) {
  // The struck grid of nine on the sparse search (parts of 30 coordinates and more) and on the dense one:
  // the same impacts, the same modes, q̇⁺ to round-off.
  Simulator sparse(struck_grid_of_nine()), dense(struck_grid_of_nine());
  ASSERT_GE(30, kSparseFrictionCoordinates) << "the scene's group must reach the sparse search";
  dense.set_sparse_friction_threshold(INT_MAX);
  advance_fully(sparse, 0.01);
  advance_fully(dense, 0.01);
  ASSERT_EQ(sparse.impacts().size(), dense.impacts().size());
  ASSERT_GE(sparse.impacts().size(), 1u);
  for (std::size_t i = 0; i < sparse.impacts().size(); ++i) {
    const ImpactRecord& a = sparse.impacts()[i];
    const ImpactRecord& b = dense.impacts()[i];
    EXPECT_NEAR(a.time, b.time, 1e-12);
    EXPECT_LT(relative_difference(a.result.qd_plus, b.result.qd_plus), 1e-9) << "impact " << i;
    ASSERT_EQ(a.friction.size(), b.friction.size());
    for (std::size_t k = 0; k < a.friction.size(); ++k) {
      EXPECT_EQ(a.friction[k].slipping, b.friction[k].slipping) << "impact " << i << ", point " << k;
      EXPECT_EQ(a.friction[k].direction, b.friction[k].direction) << "impact " << i << ", point " << k;
    }
    // λ_max(EQE − Q), left by the sparse search, computed by the record from the same M and A.
    EXPECT_NEAR(a.energy_consistency().qmi_max_eig, b.energy_consistency().qmi_max_eig,
                1e-9 * std::max(1.0, std::abs(b.energy_consistency().qmi_max_eig)));
  }
  EXPECT_LT((sparse.positions() - dense.positions()).cwiseAbs().maxCoeff(), 1e-12);
}

TEST(SparseFrictionalImpact, EachStepIsChargedBeforeItRunsAndACallStoppedInsideTheSearchChangesNoBit) {
  // Every call with a budget of one flop stops before its second evaluation: inside the striker's search,
  // before each of its steps. Those runs give the bits of runs whose calls never stop, and with the default
  // budget no call is charged more than its budget and one step of the search — whose estimate, known before
  // it runs, bounds it.
  const Scenario s = struck_grid_of_nine();
  Simulator cut(s), whole(s), bounded(s);
  cut.set_work_budget(1.0);
  whole.set_work_budget(std::numeric_limits<double>::max());
  whole.reset();
  const auto run = [](Simulator& sim, long& calls, double& most) {
    std::vector<double> seen;
    for (int k = 1; k <= 6; ++k) {
      do {
        sim.advance_to(k / 600.0);
        ++calls;
        most = std::max(most, sim.last_work());
      } while (sim.work_limit_hit());
      seen.push_back(sim.time());
      seen.insert(seen.end(), sim.positions().data(), sim.positions().data() + sim.positions().size());
      seen.insert(seen.end(), sim.velocities().data(), sim.velocities().data() + sim.velocities().size());
    }
    for (const ImpactRecord& record : sim.impacts()) {
      seen.insert(seen.end(), record.result.qd_plus.data(), record.result.qd_plus.data() + record.result.qd_plus.size());
    }
    return seen;
  };
  long cut_calls = 0, whole_calls = 0, bounded_calls = 0;
  double cut_most = 0.0, whole_most = 0.0, bounded_most = 0.0;
  const std::vector<double> a = run(cut, cut_calls, cut_most), b = run(whole, whole_calls, whole_most);
  run(bounded, bounded_calls, bounded_most);
  EXPECT_GT(cut_calls, whole_calls + 5);
  EXPECT_TRUE(testing::same_bits(a, b));
  ASSERT_GE(whole.impacts().size(), 1u);
  // The largest step: 10 disks, at most 17 points and the striker's, every pair slipping; and what an
  // evaluation is charged once done (at most a new pattern's analysis).
  const double step = detail::sparse_step_flops(30, 36, 18) + work::symbolic_analysis(36);
  EXPECT_LE(bounded_most, bounded.work_budget() + step);
}

}  // namespace
}  // namespace oblique
