// The simulator's impacts through the sparse Delassus factorisation (simulator.hpp): in every scene
// (kSparseSmoothPhaseCoordinates = 0) every frictionless impact solve — each pass of the Γ rule, the plastic
// follow-up, the sequential sub-impacts — is solve_impact_sparse (sparse_dynamics.hpp) instead of the dense
// ScaledProjection. On a large pile of automatic contacts the run is the dense one (forced with the
// test-only set_sparse_smooth_phase_threshold) to round-off: the same impacts with the same impact sets,
// ranks, K⁻, K⁺ and W_loss; and the record stays the compact one, whose panels recompute the projections,
// and λ_max(EQE − Q), as before.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "oblique/math/impact.hpp"
#include "oblique/math/scaled_projection.hpp"
#include "oblique/io/simulation_json.hpp"
#include "oblique/simulation/simulator.hpp"
#include "scenario_builders.hpp"
#include "scene_families.hpp"
#include "simulation_runs.hpp"

namespace oblique {
namespace {

using testing::run_to;
using testing::simulator_on_path;


/// `count` disks (r = 0.05 m) and boxes in a bin of three planes, every pair colliding ("collide": "all"),
/// dropped in rows from just above the floor with a sideways spread of velocities: many impacts of several
/// rows at once, resting contacts between boxes face to face, sticking contacts.
Scenario automatic_pile(int count) {
  Scenario s;
  s.gravity = Vec2(0.0, -9.81);
  s.restitution = 0.3;
  s.integrator.step = 1e-3;
  s.collide_all = true;
  s.planes.push_back(testing::plane(Vec2(0.0, 0.0), Vec2(0.0, 1.0)));
  s.planes.push_back(testing::plane(Vec2(-0.45, 0.0), Vec2(1.0, 0.0)));
  s.planes.push_back(testing::plane(Vec2(0.45, 0.0), Vec2(-1.0, 0.0)));
  for (int i = 0; i < count; ++i) {
    const int row = i / 8, column = i % 8;
    const Vec2 position(-0.35 + 0.1 * column + 0.02 * (row % 2), 0.06 + 0.12 * row);
    BodyDef body = testing::disk("d" + std::to_string(i), 0.3, 0.05, position);
    if (i % 3 == 2) {
      body = testing::make_body("b" + std::to_string(i), Shape::Type::Box, 0.5, position);
      body.shape.width = 0.08;
      body.shape.height = 0.07;
    }
    body.velocity = Vec2(0.2 * std::sin(1.7 * i), -0.3 - 0.1 * (i % 4));
    body.stick = i % 2 == 0;
    s.bodies.push_back(body);
  }
  return s;
}

struct ImpactCase {
  const char* name;
  Scenario scenario;
  double duration;
  std::size_t min_impacts;
};

std::vector<ImpactCase> impact_cases() {
  // The row: one impact through 16 touching disks (m = 16 rows at once); the column: hundreds of impacts
  // as the disks land on each other; the pile: automatic contacts, boxes and sticking contacts.
  return {{"pile16", automatic_pile(16), 0.1, 100}};
}

TEST(SparseImpacts, LargeScenesGiveTheDenseImpactsToRoundOff) {
  // Both paths solve each impact by the paper's q̇⁺ = (I − S)q̇⁻ − S E q̇⁻ (in the sparse form
  // q̇⁺ = q̇⁻ − M⁻¹Aᵀμ, Kμ = (I + ΠE)Aq̇⁻), so they differ by round-off, and take the same rows of A as
  // dependent (delassus.hpp: the dense rank rule). The Γ rule sees the same signs, so the impact sets and
  // the energies agree. Event times are located to event_tolerance (1e-13 s) on both, from states that
  // differ by round-off, and drift apart from impact to impact (3e-11 s after the 460 impacts of the
  // 16-disk column, test_sparse_smooth_phase.cpp); a missed or added impact would move one by about 1e-4 s.
  // (The row, the column and the chain of the scene families are compared there, impacts included.)
  for (const ImpactCase& c : impact_cases()) {
    SCOPED_TRACE(c.name);
    Simulator sparse = simulator_on_path(c.scenario, false);
    Simulator dense = simulator_on_path(c.scenario, true);
    ASSERT_TRUE(sparse.sparse_smooth_phase());
    ASSERT_FALSE(dense.sparse_smooth_phase());
    run_to(sparse, c.duration);
    run_to(dense, c.duration);
    ASSERT_EQ(sparse.dropped_impacts(), 0u);
    ASSERT_EQ(sparse.impacts().size(), dense.impacts().size());
    EXPECT_GE(sparse.impacts().size(), c.min_impacts);
    for (std::size_t k = 0; k < sparse.impacts().size(); ++k) {
      const ImpactRecord& a = sparse.impacts()[k];
      const ImpactRecord& b = dense.impacts()[k];
      ASSERT_EQ(a.points, b.points) << "impact " << k << " at t = " << b.time;
      EXPECT_NEAR(a.time, b.time, 1e-9) << "impact " << k;
      const double energy = std::max({b.result.kinetic_minus, b.result.kinetic_plus, 1e-300});
      EXPECT_NEAR(a.result.kinetic_minus, b.result.kinetic_minus, 1e-9 * energy) << "impact " << k;
      EXPECT_NEAR(a.result.kinetic_plus, b.result.kinetic_plus, 1e-9 * energy) << "impact " << k;
      EXPECT_NEAR(a.result.kinetic_energy_change, b.result.kinetic_energy_change, 1e-9 * energy) << "impact " << k;
      EXPECT_EQ(a.result.flags.energy_gain, b.result.flags.energy_gain) << "impact " << k;
      EXPECT_EQ(a.projection_scalars().rank, b.projection_scalars().rank) << "impact " << k;
    }
    EXPECT_LT((sparse.positions() - dense.positions()).cwiseAbs().maxCoeff(), 1e-9);
    EXPECT_LT((sparse.velocities() - dense.velocities()).cwiseAbs().maxCoeff(), 1e-8);
    EXPECT_NEAR(sparse.energy().total, dense.energy().total, 1e-9 * std::abs(dense.energy().total) + 1e-12);
  }
}

TEST(SparseImpacts, TheRecordOfASparseImpactShowsTheDenseProjections) {
  // A sparse impact does not establish λ_max(EQE − Q) (an m×m eigenproblem): its record computes it on the
  // coordinates A touches, which the summary and the record shown in the panels give, as the dense path's
  // record gives it; the panels recompute S, R and Q from M and A.
  const Scenario scenario = scenes::disk_column(16);
  Simulator sparse = simulator_on_path(scenario, false);
  Simulator dense = simulator_on_path(scenario, true);
  run_to(sparse, 0.1);
  run_to(dense, 0.1);
  ASSERT_FALSE(sparse.impacts().empty());
  ASSERT_EQ(sparse.impacts().size(), dense.impacts().size());
  const ImpactRecord& a = sparse.impacts().back();
  const ImpactRecord& b = dense.impacts().back();
  EXPECT_TRUE(std::isnan(a.result.qmi_max_eig));
  EXPECT_FALSE(std::isnan(b.result.qmi_max_eig));
  const Json shown_a = impact_record_to_json(a);
  const Json shown_b = impact_record_to_json(b);
  EXPECT_NEAR(shown_a.at("qmi_max_eig").get<double>(), shown_b.at("qmi_max_eig").get<double>(), 1e-9);
  EXPECT_EQ(impact_record_summary_to_json(a).at("qmi_max_eig"), shown_a.at("qmi_max_eig"));
  EXPECT_EQ(impact_record_summary_to_json(a).at("energy_consistent"), shown_a.at("energy_consistent"));
  EXPECT_EQ(shown_a.at("energy_consistent"), shown_b.at("energy_consistent"));
  EXPECT_NEAR(shown_a.at("gamma").get<double>(), shown_b.at("gamma").get<double>(), 1e-12);
  EXPECT_EQ(shown_a.at("S").size(), 48u);
}

TEST(SparseImpacts, ARecordsScalarsAndVerdictComeFromOneProjectionInEitherOrder) {
  // A record computes ν, its interval, cond(Mc) and λ_max(EQE − Q) from one projection of the touched
  // block, whichever is asked for first: the same bits both ways, and those of the block's projections
  // built separately (as each was computed before they shared one); λ_max(EQE − Q) is that of the whole
  // (M, A) to round-off, since G = SA⁺ vanishes in the rows of the untouched coordinates.
  // Masses from 1 to 2.5 kg, so that the block's M is not the identity.
  Scenario column = scenes::disk_column(16);
  for (std::size_t i = 0; i < column.bodies.size(); ++i) column.bodies[i].mass = 1.0 + 0.1 * static_cast<double>(i);
  Simulator sim = simulator_on_path(column, false);
  run_to(sim, 0.1);
  ASSERT_GE(sim.impacts().size(), 10u);
  const Vector mass = sim.model().mass_matrix().diagonal();
  for (std::size_t k = 0; k < sim.impacts().size(); ++k) {
    const ImpactRecord& logged = sim.impacts()[k];
    ASSERT_TRUE(std::isnan(logged.result.qmi_max_eig)) << "impact " << k;
    ImpactRecord scalars_first = logged, verdict_first = logged;
    const ProjectionScalars a = scalars_first.projection_scalars();
    const EnergyConsistency b = verdict_first.energy_consistency();
    const EnergyConsistency a_verdict = scalars_first.energy_consistency();
    const ProjectionScalars b_scalars = verdict_first.projection_scalars();
    // Separately: the scalars' own projection of the block, and Q from another.
    const Matrix jacobian = logged.jacobian.dense();
    const ProjectionScalars separate = unscaled_projection_scalars(mass, jacobian, std::nullopt);
    const TouchedBlock block = touched_block(mass, jacobian);
    const Projection block_projection(Matrix(block.mass.asDiagonal()), block.jacobian);
    const EnergyConsistency separate_verdict =
        energy_consistency(consistency_matrix(block_projection), logged.result.restitution);
    for (const ProjectionScalars& p : {a, b_scalars}) {
      EXPECT_EQ(p.rank, separate.rank) << "impact " << k;
      EXPECT_EQ(std::memcmp(&p.nu, &separate.nu, sizeof(double)), 0) << "impact " << k;
      EXPECT_EQ(std::memcmp(&p.nu_lower, &separate.nu_lower, sizeof(double)), 0) << "impact " << k;
      EXPECT_EQ(std::memcmp(&p.nu_upper, &separate.nu_upper, sizeof(double)), 0) << "impact " << k;
      EXPECT_EQ(std::memcmp(&p.cond, &separate.cond, sizeof(double)), 0) << "impact " << k;
    }
    for (const EnergyConsistency& v : {b, a_verdict}) {
      EXPECT_EQ(std::memcmp(&v.qmi_max_eig, &separate_verdict.qmi_max_eig, sizeof(double)), 0) << "impact " << k;
      EXPECT_EQ(v.consistent, separate_verdict.consistent) << "impact " << k;
    }
    // The whole (M, A): the same λ_max(EQE − Q) to round-off.
    const Projection whole(sim.model().mass_matrix(), jacobian);
    const EnergyConsistency whole_verdict = energy_consistency(consistency_matrix(whole), logged.result.restitution);
    const double scale = std::max(1.0, consistency_matrix(whole).norm());
    EXPECT_NEAR(b.qmi_max_eig, whole_verdict.qmi_max_eig, 1e-9 * scale) << "impact " << k;
    EXPECT_EQ(b.consistent, whole_verdict.consistent) << "impact " << k;
  }
}

TEST(SparseImpacts, EventsAreLocatedToTheEventToleranceFromTheDenseOutput) {
  // 16 disks resting on the floor (their rows active: the sparse path, n = 51) and a 17th dropped from
  // y₀ = 1 m. RK4 is exact for free fall, so its gap y₀ − r − g t²/2 crosses the event level −1e-12 m at
  // t* = √(2(y₀ − r + 1e-12)/g): the impact is logged at the last real sub-step before it, within the
  // event tolerance (1e-13 s) — located from the step's Hermite dense output on the sparse path
  // (simulator_sparse_path.cpp), by the regula falsi on the dense one.
  Scenario s;
  s.gravity = Vec2(0.0, -9.81);
  s.integrator.step = 1e-3;
  s.planes.push_back(testing::plane(Vec2(0.0, 0.0), Vec2(0.0, 1.0)));
  for (int i = 0; i < 17; ++i) {
    const Vec2 position = i < 16 ? Vec2(0.2 * i, 0.05) : Vec2(-1.0, 1.0);
    s.bodies.push_back(testing::disk("d" + std::to_string(i), 1.0, 0.05, position));
    s.contacts.push_back(testing::body_plane(i, 0));
  }
  for (const bool force_dense : {false, true}) {
    Simulator sim = simulator_on_path(s, force_dense);
    // The dropped disk's gap crosses its event slack (simulator.hpp) at √(2 (1 − r + slack) / g).
    const double crossing = std::sqrt(2.0 * (1.0 - 0.05 + sim.event_slack(16)) / 9.81);
    ASSERT_EQ(sim.sparse_smooth_phase(), !force_dense);
    run_to(sim, 0.5);
    ASSERT_FALSE(sim.impacts().empty());
    const ImpactRecord& first = sim.impacts().front();
    // The dropped disk's point, with the resting ones (their rows stay in A).
    ASSERT_FALSE(first.points.empty());
    EXPECT_EQ(first.points.back(), 16);
    EXPECT_LE(first.time, crossing + 1e-15) << (force_dense ? "dense" : "sparse");
    EXPECT_GE(first.time, crossing - s.integrator.event_tolerance - 1e-15) << (force_dense ? "dense" : "sparse");
  }
}

}  // namespace
}  // namespace oblique
