// The scene families of the scaling benchmarks (bench/scenes): valid documents at every size, the first
// impact of each where its closed form puts it, and — on each family's system with every row active, at
// benchmark sizes — the sparse path in agreement with the dense projection, redundant pins included.
#include <gtest/gtest.h>

#include <cmath>

#include <Eigen/SVD>

#include "error_message.hpp"
#include "oblique/math/dynamics.hpp"
#include "oblique/io/scenario_json.hpp"
#include "oblique/simulation/simulator.hpp"
#include "oblique/sparse/sparse_dynamics.hpp"
#include "scene_families.hpp"
#include "scene_system.hpp"

namespace oblique {
namespace {

using scenes::Family;

class SceneFamilies : public ::testing::TestWithParam<Family> {};

/// Contacts of each family: row 2n − 1, chain n, column n, channel 3n (scene_families.hpp).
std::size_t expected_contacts(Family family, int n) {
  switch (family) {
    case Family::Row: return static_cast<std::size_t>(2 * n - 1);
    case Family::Chain: return static_cast<std::size_t>(n);
    case Family::Column: return static_cast<std::size_t>(n);
    case Family::Channel: return static_cast<std::size_t>(3 * n);
    default: return 0;
  }
}

TEST_P(SceneFamilies, AreValidDocumentsAtEverySize) {
  for (int n : {2, 3, 8, 33, scenes::kMaxSceneBodies}) {
    const Scenario s = scenes::make_scene(GetParam(), n);
    EXPECT_EQ(static_cast<int>(s.bodies.size()), n);
    EXPECT_EQ(s.contacts.size(), expected_contacts(GetParam(), n));
    EXPECT_EQ(s.joints.size(), GetParam() == Family::Chain ? static_cast<std::size_t>(n - 1) : 0u);
    // Every document passes the checks of `oblique check` and reads back to itself.
    const Json document = scenario_to_json(s);
    EXPECT_TRUE(check_scenario(document).empty()) << scenes::name(GetParam()) << " " << n << ": "
                                                  << check_scenario(document).front().message;
    EXPECT_EQ(scenario_to_json(parse_scenario(document)), document);
  }
}

TEST_P(SceneFamilies, StartWithoutPenetrationAndSolveTheirFirstImpactOnTime) {
  // Each family starts one short free flight before its first impact: the row's striker 1 mm from the row at
  // 1 m/s (horizontal: t = 1 ms); the others fall at 1 m/s with the lowest gap g (1 cm; the chain's rod end
  // 5 mm), so y = g − t − ½gt² reaches 0 at t = (√(1 + 2·9.81·g) − 1)/9.81.
  const Simulator probe(scenes::make_scene(GetParam(), 8));
  EXPECT_LT(probe.constraint_violation(), 1e-12);
  Simulator sim(scenes::make_scene(GetParam(), 8));
  ASSERT_TRUE(sim.advance_to_next_impact(0.1));
  const double gap = GetParam() == Family::Chain ? 0.005 : 0.01;
  const double expected = GetParam() == Family::Row ? 0.001 : (std::sqrt(1.0 + 2.0 * 9.81 * gap) - 1.0) / 9.81;
  EXPECT_NEAR(sim.impacts().front().time, expected, 1e-9);
  // No contact is left penetrating.
  EXPECT_LT(sim.constraint_violation(), 1e-9);
}

TEST_P(SceneFamilies, SparsePathAgreesWithTheDenseProjectionAtScale) {
  // Every row active at the initial state, for 24 bodies: the dense Projection and the Delassus
  // factorisation give the same acceleration, forces and impact.
  const scenes::ConstraintSystem sys = scenes::every_row_active(scenes::make_scene(GetParam(), 24));
  const int m = static_cast<int>(sys.jacobian.rows());
  const Projection dense(Matrix(sys.masses.asDiagonal()), sys.jacobian);
  DelassusFactorization sparse;
  sparse.factorize(sys.sparse, sys.masses);
  EXPECT_EQ(sparse.rank(), dense.rank());
  // Redundant rows: at each of the chain's 23 pins the two rod ends touch the floor at one point; in the
  // channel the two walls act on each disk along one line (a run never has both active, this system does).
  const int redundant = GetParam() == Family::Chain ? 23 : (GetParam() == Family::Channel ? 24 : 0);
  EXPECT_EQ(m - sparse.rank(), redundant);

  // Round-off relative to the problem: 100 ε κ², κ the condition of M^(−1/2)-scaled A (a stack of 24
  // disks has κ² of order 24²), and the accelerations and forces at play.
  const Eigen::VectorXd sv =
      Eigen::JacobiSVD<Matrix>(sys.jacobian * sys.masses.cwiseSqrt().cwiseInverse().asDiagonal()).singularValues();
  const double kappa = sv(0) / sv(sparse.rank() - 1);
  const double tol = 100 * 2.220446049250313e-16 * kappa * kappa;
  const ConstrainedDynamics d = constrained_dynamics(dense, sys.bias, sys.applied, sys.adot_qd);
  const SparseDynamics s = constrained_dynamics_sparse(sparse, sys.bias, sys.applied, sys.adot_qd);
  const double force_scale = std::max(sys.bias.norm(), d.force.norm());
  EXPECT_LT((s.qdd - d.qdd).norm(), tol * std::max(d.qdd_free.norm(), d.qdd.norm())) << "κ = " << kappa;
  EXPECT_LT((s.force - d.force).norm(), tol * force_scale);
  EXPECT_LT((s.multipliers - d.multipliers).norm(), tol * force_scale);

  // An impact with every row approaching at 1 m/s and unequal eᵢ.
  Vector e(m);
  for (int i = 0; i < m; ++i) e(i) = 0.2 + 0.6 * ((i * 7) % 11) / 10.0;
  const Vector approach = dense.jacobian_pinv() * Vector::Constant(m, -1.0);
  const ImpactResult di = solve_impact(dense, approach, Restitution::rows(e));
  const ImpactResult si = solve_impact_sparse(sparse, approach, Restitution::rows(e));
  const double momentum = sys.masses.cwiseProduct(approach).norm();
  EXPECT_LT((si.qd_plus - di.qd_plus).norm(), tol * approach.norm());
  EXPECT_LT((si.impulse_multipliers - di.impulse_multipliers).norm(), tol * momentum);
  EXPECT_NEAR(si.energy_ratio, di.energy_ratio, tol);
  EXPECT_EQ(si.flags.tensile_impulse, di.flags.tensile_impulse);
}

INSTANTIATE_TEST_SUITE_P(AllFamilies, SceneFamilies, ::testing::ValuesIn(scenes::all_families()),
                         [](const auto& info) { return std::string(scenes::name(info.param)); });

TEST(SceneFamiliesInput, BadSizeOrNameIsNamed) {
  using testing::message_of;
  EXPECT_EQ(message_of([] { scenes::make_scene(Family::Row, 1); }), "bodies: must be in 2..64, got 1");
  EXPECT_EQ(message_of([] { scenes::make_scene(Family::Channel, 65); }), "bodies: must be in 2..64, got 65");
  EXPECT_EQ(message_of([] { scenes::make_scene(Family::Pile, 257); }), "bodies: must be in 2..256, got 257");
  EXPECT_EQ(message_of([] { scenes::make_scene(Family::Ball, 2); }), "bodies: must be in 1..1, got 2");
  EXPECT_EQ(message_of([] { scenes::family_from_name("rows"); }),
            "family: unknown scene family \"rows\" (row, chain, column, channel, pile, pile_mu or ball)");
  EXPECT_EQ(scenes::family_from_name("channel"), Family::Channel);
  for (Family family : scenes::every_scene()) EXPECT_EQ(scenes::family_from_name(scenes::name(family)), family);
}

// ---- the whole-run scenes: the piles and the dropped ball ----------------------------------------------

TEST(ScenePiles, AreValidDocumentsWithEveryDiskInsideTheBinAndNoneTouching) {
  for (Family family : {Family::Pile, Family::PileMu}) {
    for (int n : {2, 7, 64, 200, kMaxBodies}) {
      const Scenario s = scenes::make_scene(family, n);
      ASSERT_EQ(static_cast<int>(s.bodies.size()), n);
      EXPECT_TRUE(s.collide_all);
      EXPECT_TRUE(s.contacts.empty());
      EXPECT_EQ(s.restitution, scenes::kPileRestitution);
      EXPECT_EQ(s.mu, family == Family::PileMu ? scenes::kPileFriction : 0.0);
      const Json document = scenario_to_json(s);
      ASSERT_TRUE(check_scenario(document).empty()) << n << ": " << check_scenario(document).front().message;
      EXPECT_EQ(scenario_to_json(parse_scenario(document)), document);
      // Inside the bin with a gap, and no two disks touching: nothing happens before the lowest row lands.
      const double half_width = scenes::pile_half_width(n);
      double lowest = 1e9;
      for (std::size_t i = 0; i < s.bodies.size(); ++i) {
        const BodyDef& a = s.bodies[i];
        const double r = a.shape.radius;
        EXPECT_GE(a.position.x() - r, -half_width + 0.004) << i;
        EXPECT_LE(a.position.x() + r, half_width - 0.004) << i;
        lowest = std::min(lowest, a.position.y() - r);
        for (std::size_t j = i + 1; j < s.bodies.size(); ++j) {
          EXPECT_GT((a.position - s.bodies[j].position).norm(), 2.0 * r + 0.009) << i << ", " << j;
        }
      }
      EXPECT_NEAR(lowest, 0.01, 1e-12);
    }
  }
  // 10 disks a row for the pour of 200 (20 rows), 6 for a pile of 64.
  EXPECT_EQ(scenes::pile_row_length(200), 10);
  EXPECT_EQ(scenes::pile_row_length(64), 6);
}

TEST(ScenePiles, TheLowestRowLandsAtTheFreeFallTime) {
  // y = 0.01 − t − ½gt² reaches 0 at t = (√(1 + 2·9.81·0.01) − 1)/9.81; the whole lowest row at once.
  Simulator sim(scenes::make_scene(Family::Pile, 12));
  ASSERT_TRUE(sim.advance_to_next_impact(0.1));
  EXPECT_NEAR(sim.impacts().front().time, (std::sqrt(1.0 + 2.0 * 9.81 * 0.01) - 1.0) / 9.81, 1e-9);
  sim.advance_to(0.3);
  EXPECT_LT(sim.constraint_violation(), 1e-9);
}

TEST(SceneBall, BouncesToTheClosedFormApexHeights) {
  // Dropped from h = 1 m with e = 0.8: it lands at √(2h/g), leaves at e√(2gh) and rises to h e².
  const Scenario s = scenes::make_scene(Family::Ball, 1);
  EXPECT_TRUE(check_scenario(scenario_to_json(s)).empty());
  Simulator sim(s);
  const double g = 9.81, h = scenes::kBallHeight, e = scenes::kBallRestitution;
  ASSERT_TRUE(sim.advance_to_next_impact(1.0));
  EXPECT_NEAR(sim.impacts().front().time, std::sqrt(2.0 * h / g), 1e-9);
  const double up = sim.velocities()(1);
  EXPECT_NEAR(up, e * std::sqrt(2.0 * g * h), 1e-9);
  sim.advance_to(sim.time() + up / g);  // the apex
  EXPECT_NEAR(sim.positions()(1) - 0.1, h * e * e, 1e-9);
}

}  // namespace
}  // namespace oblique
