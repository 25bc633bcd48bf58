// The sparse path's impact solve replays the impact log of the dense simulator: every impact the dense
// ScaledProjection resolved in the built-in scenarios (redundant contacts, dead centres, sticking feet,
// scheduled impulses, automatic contacts with boxes resting face to face) and in the scene families, solved
// again from the record's M, A, q̇⁻ and E as the sparse path solves it (sparse_path.hpp: the Delassus
// factorisation, or the dense solve where rows are nearly dependent), gives the same rank, q̇⁺, i_λ, γ,
// W_loss, Newton residual and flags: round-off.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "oblique/math/scaled_projection.hpp"
#include "oblique/io/scenario_json.hpp"
#include "oblique/simulation/simulator.hpp"
#include "oblique/sparse/sparse_dynamics.hpp"
#include "oblique/sparse/sparse_path.hpp"
#include "scene_families.hpp"
#include "json_files.hpp"

namespace oblique {
namespace {

using testing::read_json;

std::vector<std::pair<std::string, Scenario>> replayed_scenarios() {
  std::vector<std::pair<std::string, Scenario>> out;
  const std::string dir = std::string(OBLIQUE_SOURCE_DIR) + "/web/scenarios/";
  // The index held in a variable: a range-for over a member of a temporary reads freed memory.
  const Json index = read_json(dir + "index.json");
  for (const Json& entry : index.at("scenarios")) {
    out.emplace_back(entry.at("id").get<std::string>(),
                     parse_scenario(read_json(dir + entry.at("file").get<std::string>())));
  }
  for (scenes::Family family : scenes::all_families()) out.emplace_back(scenes::name(family), scenes::make_scene(family, 8));
  return out;
}

TEST(SparseReplay, ReproducesEveryLoggedImpactToRoundOff) {
  int replayed = 0, rank_deficient = 0, dense_fallbacks = 0;
  for (const auto& [name, scenario] : replayed_scenarios()) {
    Simulator sim(scenario);
    do sim.advance_to(std::min(scenario.duration, 3.0)); while (sim.work_limit_hit());
    for (const ImpactRecord& record : sim.impacts()) {
      // A frictional impact is not the frictionless solve (docs/friction.md): it stays on the dense path.
      if (!record.friction.empty()) continue;
      const Matrix a = record.jacobian.dense();
      const Vector& mass = record.inertia->matrix().diagonal();
      const ImpactResult& expected = record.result;
      // The rank the simulator's impact used (the mass-scaled QR of ScaledProjection) and the sparse one:
      // the same wherever the sparse path trusts the factorisation (sparse_path.hpp).
      DelassusFactorization sparse;
      sparse.factorize(to_sparse(a), mass);
      const int dense_rank = ScaledProjection(mass, a).rank();
      if (sparse_solve_accurate(sparse)) EXPECT_EQ(sparse.rank(), dense_rank) << name << " at t = " << record.time;
      rank_deficient += dense_rank < a.rows() ? 1 : 0;
      // The sparse path's solve: the sparse one, or the dense one where kept rows are nearly dependent.
      bool fallback = false;
      const ImpactResult r = solve_impact_large(mass, a, expected.qd_minus, expected.restitution,
                                                expected.external_impulse, record.unilateral(), &fallback);
      dense_fallbacks += fallback ? 1 : 0;
      EXPECT_EQ(fallback, !sparse_solve_accurate(sparse));
      // Scales: an impact may start from rest (a scheduled push), so both sides of it count.
      const double speed = std::max({expected.qd_minus.norm(), expected.qd_plus.norm(), 1e-300});
      const double energy = std::max({expected.kinetic_minus, expected.kinetic_plus, 1e-300});
      const double momentum = std::max(mass.cwiseProduct(expected.qd_minus).norm(), expected.external_impulse.norm());
      EXPECT_LT((r.qd_plus - expected.qd_plus).norm(), 1e-12 * speed) << name << " at t = " << record.time;
      EXPECT_LT((r.impulse_multipliers - expected.impulse_multipliers).norm(), 1e-11 * momentum) << name;
      EXPECT_NEAR(r.kinetic_energy_change, expected.kinetic_energy_change, 1e-12 * energy) << name;
      if (expected.kinetic_minus > 0.0) EXPECT_NEAR(r.energy_ratio, expected.energy_ratio, 1e-12) << name;
      // The Newton residual is relative to ‖Aq̇⁻‖, which a slow approach makes small beside q̇ itself.
      const double approach = std::max(expected.normal_velocity_minus.norm(), 1e-300);
      EXPECT_NEAR(r.newton_residual, expected.newton_residual, 1e-10 + 1e-12 * a.norm() * speed / approach)
          << name << " at t = " << record.time;
      EXPECT_EQ(r.flags.tensile_impulse, expected.flags.tensile_impulse) << name << " at t = " << record.time;
      EXPECT_EQ(r.flags.approach_after_impact, expected.flags.approach_after_impact) << name;
      EXPECT_EQ(r.flags.energy_gain, expected.flags.energy_gain) << name;
      ++replayed;
    }
  }
  // Enough impacts, some with a rank-deficient A, to mean something.
  EXPECT_GT(replayed, 600);
  EXPECT_GT(rank_deficient, 100);
  // How often the dense solve stands in is a matter of speed, reported here and read in the bench: it
  // follows the impacts of settling piles, whose number a 1e-7 m shift of one body changes by hundreds
  // (pile-of-30 is chaotic), so no bound on it tests the solve. That it stands in exactly where the
  // factorisation cannot be trusted is checked impact by impact above.
  RecordProperty("replayed", replayed);
  RecordProperty("dense_fallbacks", dense_fallbacks);
  std::cout << "SparseReplay: " << dense_fallbacks << " of " << replayed << " impacts solved densely\n";
}

TEST(SparseReplay, RestingBoxesFaceToFaceTakeTheDenseSolve) {
  // Boxes resting face to face on the floor and against each other give rows a few hundred ε from the
  // span of the others without lying in it. Keeping such a row or dropping it changes q̇⁺ by O(1) (the row
  // adds a constraint of its own), and where one is kept K (whose condition is the square of A's) can no
  // longer be solved accurately. The sparse path solves such an impact densely (sparse_path.hpp); before,
  // every impact was solved with K, and q̇⁺ differed from the dense solve by up to 1e-2 m/s. The first
  // 3 s of domino-row (boxes falling face onto face) hold such a record. (An impact takes only the islands
  // of its candidates, island_set.hpp: boxes resting face to face away from it are not in its A.)
  const std::string dir = std::string(OBLIQUE_SOURCE_DIR) + "/web/scenarios/";
  Simulator sim(parse_scenario(read_json(dir + "domino-row.json")));
  do sim.advance_to(3.0); while (sim.work_limit_hit());
  int compared = 0, parted_before = 0, dense_fallbacks = 0;
  for (const ImpactRecord& record : sim.impacts()) {
    const Matrix a = record.jacobian.dense();
    const Vector& mass = record.inertia->matrix().diagonal();
    const ImpactResult& expected = record.result;
    bool fallback = false;
    const ImpactResult r = solve_impact_large(mass, a, expected.qd_minus, expected.restitution,
                                              expected.external_impulse, record.unilateral(), &fallback);
    const double speed = std::max({expected.qd_minus.norm(), expected.qd_plus.norm(), 1e-300});
    EXPECT_LT((r.qd_plus - expected.qd_plus).norm(), 1e-12 * speed) << "t = " << record.time;
    EXPECT_EQ(r.flags.tensile_impulse, expected.flags.tensile_impulse) << "t = " << record.time;
    dense_fallbacks += fallback ? 1 : 0;
    ++compared;
    // The sparse solve alone, as before, on the same record.
    DelassusFactorization k;
    k.factorize(to_sparse(a), mass);
    const ImpactResult before = solve_impact_sparse(k, expected.qd_minus, Restitution::rows(expected.restitution),
                                                    expected.external_impulse, record.unilateral());
    parted_before += (before.qd_plus - expected.qd_plus).norm() > 1e-6 * speed ? 1 : 0;
  }
  EXPECT_GT(compared, 20);
  // The records on which the former solve parted from the dense one are there (the test can fail), and
  // the dense fallback is taken on a few records only.
  EXPECT_GT(parted_before, 0);
  EXPECT_GT(dense_fallbacks, 0);
  EXPECT_LT(dense_fallbacks, compared / 10);
}

}  // namespace
}  // namespace oblique
