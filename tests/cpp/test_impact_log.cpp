// The bounded impact log (impact_log.hpp): records keep no n×n matrix, so thousands fit for 64 bodies; A
// survives its sparse storage bit for bit (−0.0 included); the projections and Ẽ, Q recomputed from a
// record equal those of a direct solve, and so do the analyzeImpact input and ν_optimal of its full JSON; a
// record's summary is its full JSON without the matrices and that input; the log
// drops its oldest records beyond its budget and cuts back for a restored state.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "oblique/io/impact_io.hpp"
#include "oblique/simulation/impact_log.hpp"
#include "oblique/io/json_reader.hpp"
#include "oblique/io/scenario_json.hpp"
#include "oblique/io/simulation_json.hpp"
#include "oblique/simulation/simulator.hpp"
#include "scenario_builders.hpp"
#include "comparisons.hpp"

namespace oblique {
namespace {

using testing::same_bits;

/// Disks in a row above a floor, each dropped from its own height (5 cm, 5.1 cm, ...): one impact each
/// between 0.1 s and 0.15 s, none at the same instant, the next bounce after 0.28 s.
Scenario bouncing_row(int count) {
  Scenario s;
  s.gravity = Vec2(0.0, -9.81);
  s.restitution = 0.9;
  s.planes.push_back(testing::plane(Vec2::Zero(), Vec2::UnitY()));
  for (int i = 0; i < count; ++i) {
    s.bodies.push_back(testing::disk("d" + std::to_string(i), 1.0, 0.1, Vec2(0.3 * i, 0.15 + 0.001 * i)));
    s.contacts.push_back(testing::body_plane(i, 0));
  }
  return s;
}

TEST(SparseRows, GiveBackTheMatrixBitForBit) {
  Matrix a = Matrix::Zero(3, 6);
  a(0, 1) = 1.0;
  a(0, 2) = -0.0;  // kept: it is not the default +0.0
  a(1, 0) = -0.7071067811865476;
  a(1, 5) = 1e-300;
  a(2, 3) = std::numeric_limits<double>::denorm_min();
  const SparseRows sparse(a);
  EXPECT_EQ(sparse.entries(), 5u);
  EXPECT_TRUE(same_bits(sparse.dense(), a));
  EXPECT_TRUE(std::signbit(sparse.dense()(0, 2)));
  EXPECT_TRUE(same_bits(SparseRows(Matrix(0, 6)).dense(), Matrix(0, 6)));
}

TEST(ImpactLog, RecordsOf64BodiesKeepNoMatrixAndThousandsFit) {
  Simulator sim(bouncing_row(64));
  do sim.advance_to(0.2); while (sim.work_limit_hit());
  ASSERT_EQ(sim.impacts().size(), 64u);  // the old log kept 16 records at this size
  EXPECT_EQ(sim.dropped_impacts(), 0u);
  for (const ImpactRecord& record : sim.impacts()) {
    EXPECT_EQ(record.result.restitution_transfer.size(), 0);
    EXPECT_EQ(record.result.consistency_matrix.size(), 0);
    EXPECT_EQ(record.jacobian.cols(), 192);
    EXPECT_LT(record.bytes(), 8u << 10);  // the n×n matrices alone were 17·192²·8 B ≈ 5 MB
  }
  EXPECT_EQ(sim.impact_log_bytes(), [&] {
    std::size_t total = 0;
    for (const ImpactRecord& record : sim.impacts()) total += record.bytes();
    return total;
  }());
  // The default budget holds thousands of such records; beyond it, the oldest are dropped and counted.
  ImpactLog log;
  const ImpactRecord& sample = sim.impacts().back();
  for (int k = 0; k < 6000; ++k) {
    ImpactRecord copy = sample;
    copy.time = k;
    log.push(std::move(copy));
  }
  EXPECT_GE(log.records().size(), 3000u);
  EXPECT_LE(log.bytes(), kImpactLogBytes);
  EXPECT_EQ(log.logged(), 6000u);
  EXPECT_EQ(log.records().front().time, static_cast<double>(log.dropped()));
  EXPECT_EQ(log.records().back().time, 5999.0);
}

TEST(ImpactLog, ProjectionsRecomputedFromARecordAreThoseOfADirectSolve) {
  Simulator sim(testing::pendulum_and_box(0.7));
  sim.set_nu(3.5);  // a ν asked for is kept with the record
  do sim.advance_to(2.0); while (sim.work_limit_hit());
  ASSERT_GT(sim.impacts().size(), 2u);
  for (const ImpactRecord& record : sim.impacts()) {
    const Matrix a = record.jacobian.dense();
    const Projection direct(sim.model().mass_matrix(), a, 3.5);
    const ImpactResult solved =
        solve_impact(direct, record.result.qd_minus, Restitution::rows(record.result.restitution), Vector(),
                     record.unilateral());
    const Projection again = record.projection();
    const ImpactResult full = record.full_result(again);
    EXPECT_TRUE(same_bits(again.oblique_projector(), direct.oblique_projector()));
    EXPECT_TRUE(same_bits(again.constraint_inertia(), direct.constraint_inertia()));
    EXPECT_TRUE(same_bits(full.restitution_transfer, solved.restitution_transfer));
    EXPECT_TRUE(same_bits(full.consistency_matrix, solved.consistency_matrix));
    // The run solved it in scaled coordinates (scaled_projection.hpp): the same impact to round-off.
    EXPECT_LT((full.qd_plus - solved.qd_plus).norm(), 1e-12 * std::max(1.0, solved.qd_plus.norm()));
    EXPECT_EQ(record.projection_scalars().rank, direct.rank());
    EXPECT_EQ(record.projection_scalars().nu, 3.5);
    EXPECT_NEAR(record.projection_scalars().cond, direct.cond_constraint_inertia(), 1e-12 * direct.cond_constraint_inertia());
  }
}

TEST(ImpactLog, TheFullRecordCarriesItsAnalyzeImpactInputFromTheCompactRecord) {
  // M, A, i_u and the unilateral rows of a record's JSON — with q̇⁻ and the eᵢ, the input that solves the
  // impact again — and ν_optimal are those of the impact itself, bit for bit: M the model's, A the rows it
  // was solved on, i_u the scheduled impulse (absent for the others), and ν_optimal that of a Projection of
  // (M, A), as analyzeImpact gives it for that input.
  const Scenario scenario = testing::with_kick(testing::pendulum_and_box(0.7), 0.25, 1, Vec2(0.5, 0.25), -0.125);
  Simulator sim(scenario);
  do sim.advance_to(2.0); while (sim.work_limit_hit());
  ASSERT_GT(sim.impacts().size(), 2u);
  int scheduled = 0;
  for (const ImpactRecord& record : sim.impacts()) {
    const Json full = impact_record_to_json(record);
    const Matrix a = record.jacobian.dense();
    EXPECT_TRUE(same_bits(matrix_from_json(full.at("M"), "M"), sim.model().mass_matrix()));
    EXPECT_TRUE(same_bits(matrix_from_json(full.at("A"), "A", a.cols()), a));
    std::vector<bool> unilateral(static_cast<std::size_t>(a.rows()), false);
    for (int row : record.normal_rows) unilateral[static_cast<std::size_t>(row)] = true;
    EXPECT_EQ(full.at("unilateral").get<std::vector<bool>>(), unilateral);
    EXPECT_EQ(full.contains("iu"), record.scheduled);
    if (record.scheduled) {
      ++scheduled;
      Vector impulse = Vector::Zero(sim.model().dofs());
      impulse.segment<3>(3) = Eigen::Vector3d(0.5, 0.25, -0.125);
      EXPECT_TRUE(same_bits(vector_from_json(full.at("iu"), "iu"), impulse));
    }
    // ν_optimal: that of the projections of (M, A) at the ν asked for, as analyzeImpact computes it.
    const Projection direct(sim.model().mass_matrix(), a);
    EXPECT_EQ(full.at("nu_optimal").get<double>(), direct.optimal_nu());
    Json input = {{"M", full.at("M")}, {"A", full.at("A")}, {"qd", full.at("qd_minus")}, {"E", full.at("restitution")},
                  {"unilateral", full.at("unilateral")}};
    if (full.contains("iu")) input["iu"] = full.at("iu");
    const Json again = analyze_impact_json(input);
    EXPECT_EQ(again.at("nu_optimal").get<double>(), full.at("nu_optimal").get<double>());
    EXPECT_EQ(again.at("S").dump(), full.at("S").dump());
    EXPECT_EQ(again.at("Q").dump(), full.at("Q").dump());
    // The run solved it in scaled coordinates: q̇⁺ to round-off.
    const Vector plus = vector_from_json(full.at("qd_plus"), "qd_plus");
    const Vector solved = vector_from_json(again.at("qd_plus"), "qd_plus");
    EXPECT_LT((plus - solved).norm(), 1e-12 * std::max(1.0, solved.norm()));
  }
  EXPECT_EQ(scheduled, 1);
}

TEST(ImpactLog, ASummaryIsTheFullRecordWithoutItsMatrices) {
  std::ifstream file(std::string(OBLIQUE_SOURCE_DIR) + "/web/scenarios/chamfered-corner.json");
  std::ostringstream text;
  text << file.rdbuf();
  Simulator sim(parse_scenario(parse_json(text.str(), "chamfered-corner")));
  do sim.advance_to(2.0); while (sim.work_limit_hit());
  ASSERT_GT(sim.impacts().size(), 2u);
  for (const ImpactRecord& record : sim.impacts()) {
    Json full = impact_record_to_json(record);
    for (const char* key : {"M", "A", "unilateral", "P", "Mc", "S", "R", "E_tilde", "Q", "velocity_plane", "identities"}) {
      ASSERT_TRUE(full.contains(key)) << key;
      full.erase(key);
    }
    full.erase("iu");  // there when an impulse was applied
    // The same keys in the same order, the same numbers — but the scalars of the projections, which the
    // summary has from the touched block of (M, A) and the full record from M and A whole: to round-off.
    Json summary = impact_record_summary_to_json(record);
    ASSERT_EQ(summary.size(), full.size());
    for (auto a = summary.begin(), b = full.begin(); a != summary.end(); ++a, ++b) EXPECT_EQ(a.key(), b.key());
    for (const char* key : {"nu", "nu_optimal", "cond_Mc"}) {
      EXPECT_NEAR(summary[key].get<double>(), full[key].get<double>(), 1e-12 * full[key].get<double>()) << key;
      summary.erase(key);
      full.erase(key);
    }
    for (int end = 0; end < 2; ++end) {
      EXPECT_NEAR(summary["nu_range"][end].get<double>(), full["nu_range"][end].get<double>(),
                  1e-12 * full["nu_range"][end].get<double>());
    }
    summary.erase("nu_range");
    full.erase("nu_range");
    // λ_max(EQE − Q) and its verdict are established in both, whichever path solved the impact.
    EXPECT_TRUE(summary["qmi_max_eig"].is_number());
    EXPECT_TRUE(summary["energy_consistent"].is_boolean());
    EXPECT_EQ(summary.dump(), full.dump());
  }
}

TEST(ImpactLog, AnImpactSolvedWithoutItsConsistencyVerdictGetsItFromItsRecord) {
  // Three unit disks in a row along x (rows x1 − x0 and x2 − x1) and a fourth of mass 5 that no row
  // touches: K = AM⁻¹Aᵀ = [[2, −1], [−1, 2]] and Q = K⁻¹ = [[2, 1], [1, 2]]/3 whatever the fourth body.
  Vector mass(12);
  mass << 1, 1, 0.5, 1, 1, 0.5, 1, 1, 0.5, 5, 5, 2;
  Matrix a = Matrix::Zero(2, 12);
  a(0, 0) = -1.0;
  a(0, 3) = 1.0;
  a(1, 3) = -1.0;
  a(1, 6) = 1.0;
  auto inertia = std::make_shared<const Inertia>(Matrix(mass.asDiagonal()));
  Vector qd = Vector::Zero(12);
  qd(0) = 1.0;
  const auto record_for = [&](const Vector& e) {
    // As the sparse path leaves it: λ_max(EQE − Q) not established.
    ImpactSolution solution = solve_impact_summarised(*inertia, a, std::nullopt, qd, e, Vector(), {});
    solution.result.qmi_max_eig = std::numeric_limits<double>::quiet_NaN();
    solution.result.energy_consistent = false;
    return make_impact_record(0.0, inertia, a, std::nullopt, std::move(solution));
  };
  // E = diag(1, 0): EQE − Q = [[0, −1], [−1, −2]]/3, whose largest eigenvalue is (√2 − 1)/3 > 0.
  Vector inconsistent(2);
  inconsistent << 1.0, 0.0;
  const ImpactRecord first = record_for(inconsistent);
  EXPECT_NEAR(first.energy_consistency().qmi_max_eig, (std::sqrt(2.0) - 1.0) / 3.0, 1e-14);
  EXPECT_FALSE(first.energy_consistency().consistent);
  // One e for both rows: EQE − Q = (e² − 1)Q, at most (e² − 1)·λ_min(Q) = (e² − 1)/3 ≤ 0.
  const ImpactRecord second = record_for(Vector::Constant(2, 0.5));
  EXPECT_NEAR(second.energy_consistency().qmi_max_eig, (0.25 - 1.0) / 3.0, 1e-14);
  EXPECT_TRUE(second.energy_consistency().consistent);
  // The summary with the projections' scalars, and the full record, show it; the page's live log leaves it.
  const Json summary = impact_record_summary_to_json(first);
  EXPECT_EQ(summary["qmi_max_eig"].get<double>(), first.energy_consistency().qmi_max_eig);
  EXPECT_EQ(summary["energy_consistent"], Json(false));
  EXPECT_EQ(impact_record_to_json(first)["qmi_max_eig"].get<double>(), first.energy_consistency().qmi_max_eig);
  const Json live = impact_record_summary_to_json(first, SummaryScalars::Omitted);
  EXPECT_TRUE(std::isnan(live["qmi_max_eig"].get<double>()));  // written null
  EXPECT_TRUE(live["energy_consistent"].is_null());
}

TEST(ImpactLog, CutsBackToTheImpactsBeforeAState) {
  Simulator sim(bouncing_row(3));
  do sim.advance_to(0.2); while (sim.work_limit_hit());
  ASSERT_EQ(sim.impacts().size(), 3u);
  ImpactLog log(2 * sim.impacts()[0].bytes() + 1);  // room for two
  for (const ImpactRecord& record : sim.impacts()) log.push(ImpactRecord(record));
  EXPECT_EQ(log.dropped(), 1u);
  EXPECT_EQ(log.records().size(), 2u);
  log.cut_back_to(2);  // the first two impacts: the second is kept, the third removed
  EXPECT_EQ(log.logged(), 2u);
  EXPECT_EQ(log.records().size(), 1u);
  EXPECT_EQ(log.records().back().time, sim.impacts()[1].time);
  EXPECT_EQ(log.bytes(), log.records().back().bytes());
  log.cut_back_to(7);  // beyond the end: emptied, the impacts before counted as dropped
  EXPECT_TRUE(log.records().empty());
  EXPECT_EQ(log.dropped(), 7u);
  EXPECT_EQ(log.bytes(), 0u);
}

}  // namespace
}  // namespace oblique
