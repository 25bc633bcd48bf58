// Contact islands (island_set.hpp): the connected components of bodies under joints, touching contact points
// and an impact's candidates, the world linking nothing; and the impacts that take only the islands of their
// candidates (simulator.hpp). Checked: the components of small graphs and their labels whatever the order of
// the edges; an impact in one group of a scene leaves every other group's velocities bit for bit and its
// contact flags as they were, equals the impact of a scene holding its group alone to round-off, and keeps
// momentum and Newton's law of restitution (the head-on closed form); a pendulum's impact takes its own joint
// rows and not another's; an impulse on a free body takes that body alone.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "comparisons.hpp"
#include "oblique/simulation/island_set.hpp"
#include "oblique/simulation/simulator.hpp"
#include "scenario_builders.hpp"

namespace oblique {
namespace {

using testing::kG;
using testing::rel_gap;
using testing::same_bits;

// ---------------------------------------------------------------------------------------------------------
// IslandSet on small graphs
// ---------------------------------------------------------------------------------------------------------

TEST(IslandSet, AJointChainIsOneIslandLabelledByItsSmallestBody) {
  // Bodies 0–1–2–3 linked in a chain, 4 alone.
  IslandSet islands(5);
  islands.join(2, 3);
  islands.join(1, 2);
  islands.join(0, 1);
  EXPECT_EQ(islands.labels(), (std::vector<int>{0, 0, 0, 0, 4}));
  EXPECT_EQ(islands.island_of(3), 0);
  EXPECT_EQ(islands.island_of(4), 4);
}

TEST(IslandSet, TheWorldLinksNothing) {
  // Two disks on one floor, a pendulum pinned to the world: three islands.
  IslandSet islands(3);
  islands.join(0, kWorld);
  islands.join(kWorld, 1);
  islands.join(2, kWorld);
  EXPECT_EQ(islands.labels(), (std::vector<int>{0, 1, 2}));
}

TEST(IslandSet, LabelsDoNotDependOnTheOrderOfTheEdges) {
  // Edges {1–4, 4–2, 3–5} (a candidate point between 4 and 2 merges two groups) in every order of three.
  const std::vector<std::pair<int, int>> edges{{1, 4}, {4, 2}, {3, 5}};
  const std::vector<std::vector<int>> orders{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  for (const std::vector<int>& order : orders) {
    IslandSet islands(6);
    for (int e : order) {
      const auto [a, b] = edges[static_cast<std::size_t>(e)];
      // Either direction of an edge.
      if (e % 2 == 0) islands.join(a, b); else islands.join(b, a);
    }
    EXPECT_EQ(islands.labels(), (std::vector<int>{0, 1, 1, 3, 1, 3}));
  }
}

TEST(IslandSet, CoveredBodiesAreThoseOfTheSeedsIslands) {
  IslandSet islands(6);
  islands.join(0, 1);
  islands.join(2, 3);
  islands.join(3, 4);
  // A seed of the world is none; seeds in one island cover it once.
  EXPECT_EQ(islands.covered_by({kWorld, 4, 2}), (std::vector<char>{0, 0, 1, 1, 1, 0}));
  EXPECT_EQ(islands.covered_by({}), (std::vector<char>(6, 0)));
  // Reset: every body alone again.
  islands.reset(3);
  EXPECT_EQ(islands.labels(), (std::vector<int>{0, 1, 2}));
}

TEST(IslandSet, ABodyPastTheCountIsRefused) {
  IslandSet islands(2);
  EXPECT_THROW(islands.join(0, 2), std::out_of_range);
  EXPECT_THROW(islands.island_of(kWorld), std::out_of_range);
  EXPECT_THROW(IslandSet(-1), std::invalid_argument);
}

// ---------------------------------------------------------------------------------------------------------
// Impacts of some islands
// ---------------------------------------------------------------------------------------------------------

constexpr double kIslandRadius = 0.1;
constexpr double kIslandE = 0.7;
constexpr double kIslandMassA = 1.0, kIslandMassB = 2.0;

/// Under gravity, disks a (1 kg) and b (2 kg) fly head on toward each other at ±1 m/s, 1 m apart, 2 m above
/// a floor they never reach (e = 0.7 between them); optionally a column of three disks resting on the floor
/// at x = 5 (its contacts declared) and a rod pinned to the world at one end, swinging from horizontal at
/// x = −5. Bodies: a, b, then the column, then the rod.
Scenario island_scene(bool with_column, bool with_pendulum) {
  Scenario s;
  s.title = "islands";
  s.gravity = Vec2(0.0, -kG);
  s.restitution = 0.5;
  s.planes.push_back(testing::plane(Vec2::Zero(), Vec2::UnitY()));
  s.bodies.push_back(testing::disk("a", kIslandMassA, kIslandRadius, Vec2(-0.5, 2.0), Vec2(1.0, 0.0)));
  s.bodies.push_back(testing::disk("b", kIslandMassB, kIslandRadius, Vec2(0.5, 2.0), Vec2(-1.0, 0.0)));
  s.contacts.push_back(testing::disk_disk(0, 1, kIslandE));
  if (with_column) {
    for (int k = 0; k < 3; ++k) {
      s.bodies.push_back(testing::disk("s" + std::to_string(k), 1.0, kIslandRadius, Vec2(5.0, kIslandRadius * (1 + 2 * k))));
    }
    s.contacts.push_back(testing::body_plane(2, 0));
    s.contacts.push_back(testing::disk_disk(2, 3));
    s.contacts.push_back(testing::disk_disk(3, 4));
  }
  if (with_pendulum) {
    const int rod = static_cast<int>(s.bodies.size());
    s.bodies.push_back(testing::rod("p", 1.0, 1.0, Vec2(-4.5, 3.0)));
    s.joints.push_back(testing::joint(JointDef::Type::Pin, kWorld, Vec2(-5.0, 3.0), rod, Vec2(-0.5, 0.0)));
  }
  return s;
}

/// The first logged impact of `sim` within its first second (advance calls resumed past the work budget).
const ImpactRecord& island_first_impact(Simulator& sim) {
  bool found = false;
  do found = sim.advance_to_next_impact_before(1.0); while (!found && sim.work_limit_hit());
  EXPECT_TRUE(found);
  if (sim.impacts().empty()) throw std::runtime_error("no impact");
  return sim.impacts().front();
}

TEST(IslandImpacts, OtherGroupsKeepTheirVelocitiesAndFlagsBitForBit) {
  Simulator sim(island_scene(true, true));
  // The column rests: its three points active.
  for (int k = 1; k <= 3; ++k) ASSERT_EQ(sim.contact_points()[static_cast<std::size_t>(k)].state, ContactState::Active);
  const ImpactRecord& impact = island_first_impact(sim);
  // The impact of a and b alone: their point, no joint row.
  EXPECT_EQ(impact.points, (std::vector<int>{0}));
  EXPECT_TRUE(impact.joints.empty());
  EXPECT_EQ(impact.normal_rows, (std::vector<int>{0}));
  EXPECT_EQ(impact.jacobian.rows(), 1);
  // The column and the pendulum (bodies 2–5): q̇⁺ = q̇⁻ bit for bit.
  const ImpactResult& r = impact.result;
  for (int body = 2; body < 6; ++body) {
    const Vector before = r.qd_minus.segment(3 * body, 3), after = r.qd_plus.segment(3 * body, 3);
    EXPECT_TRUE(same_bits(before, after)) << "body " << body;
  }
  // The column still rests after it; the pendulum's rod swings on (its velocity is not zero).
  for (int k = 1; k <= 3; ++k) EXPECT_EQ(sim.contact_points()[static_cast<std::size_t>(k)].state, ContactState::Active);
  EXPECT_GT(r.qd_minus.segment(15, 3).norm(), 0.1);
}

TEST(IslandImpacts, AnIslandImpactEqualsTheImpactOfItsGroupAlone) {
  Simulator whole(island_scene(true, true));
  Simulator alone(island_scene(false, false));
  const ImpactRecord& in_scene = island_first_impact(whole);
  const ImpactRecord& by_itself = island_first_impact(alone);
  EXPECT_NEAR(in_scene.time, by_itself.time, 1e-12);
  EXPECT_LT(rel_gap(in_scene.result.qd_minus.head(6), by_itself.result.qd_minus.head(6), 0.0), 1e-12);
  EXPECT_LT(rel_gap(in_scene.result.qd_plus.head(6), by_itself.result.qd_plus.head(6), 0.0), 1e-12);
}

TEST(IslandImpacts, AnIslandImpactKeepsMomentumAndNewtonsLaw) {
  Simulator sim(island_scene(true, true));
  const ImpactRecord& impact = island_first_impact(sim);
  const ImpactResult& r = impact.result;
  // Momentum of a and b (no other impulse acts on them at the impact).
  const double ma = kIslandMassA, mb = kIslandMassB;
  for (int axis = 0; axis < 2; ++axis) {
    const double before = ma * r.qd_minus(axis) + mb * r.qd_minus(3 + axis);
    const double after = ma * r.qd_plus(axis) + mb * r.qd_plus(3 + axis);
    EXPECT_NEAR(after, before, 1e-12 * (ma + mb)) << "axis " << axis;
  }
  // Newton's law on the normal row: φ̇⁺ = −e φ̇⁻.
  const int row = impact.normal_rows[0];
  EXPECT_LT(r.normal_velocity_minus(row), -1.0);
  EXPECT_NEAR(r.normal_velocity_plus(row), -kIslandE * r.normal_velocity_minus(row), 1e-12);
  // The head-on closed form along x: v_a⁺ = (p − m_b e Δv)/(m_a + m_b), v_b⁺ = (p + m_a e Δv)/(m_a + m_b).
  const double va = r.qd_minus(0), vb = r.qd_minus(3), p = ma * va + mb * vb;
  EXPECT_NEAR(r.qd_plus(0), (p - mb * kIslandE * (va - vb)) / (ma + mb), 1e-12);
  EXPECT_NEAR(r.qd_plus(3), (p + ma * kIslandE * (va - vb)) / (ma + mb), 1e-12);
  // Their falls go on unchanged, and neither spins.
  EXPECT_NEAR(r.qd_plus(1), r.qd_minus(1), 1e-12);
  EXPECT_NEAR(r.qd_plus(4), r.qd_minus(4), 1e-12);
  EXPECT_NEAR(r.qd_plus(2), 0.0, 1e-12);
  EXPECT_NEAR(r.qd_plus(5), 0.0, 1e-12);
}

/// No gravity: a disk hung 1 m below a pin of the world (joint 0) swings at 1 m/s into a free disk 0.35 m
/// to its right (e = 0.7); optionally a second such pendulum (joint 1) swinging at x = 10.
Scenario island_pendulums(bool with_second) {
  Scenario s;
  s.title = "pendulums";
  s.gravity = Vec2::Zero();
  s.restitution = kIslandE;
  auto hung = [&](const std::string& name, double x, double speed) {
    BodyDef bob = testing::disk(name, 1.0, kIslandRadius, Vec2(x, -1.0), Vec2(speed, 0.0));
    bob.angular_velocity = speed;  // the pin (its body point (0, 1)) at rest
    s.bodies.push_back(bob);
    s.joints.push_back(testing::joint(JointDef::Type::Pin, kWorld, Vec2(x, 0.0),
                                      static_cast<int>(s.bodies.size()) - 1, Vec2(0.0, 1.0)));
  };
  hung("bob", 0.0, 1.0);
  s.bodies.push_back(testing::disk("free", 1.0, kIslandRadius, Vec2(0.35, -1.0)));
  s.contacts.push_back(testing::disk_disk(0, 1));
  if (with_second) hung("other", 10.0, -0.5);
  return s;
}

TEST(IslandImpacts, APendulumsImpactTakesItsOwnJointRowsAlone) {
  Simulator sim(island_pendulums(true));
  const ImpactRecord& impact = island_first_impact(sim);
  // A = [the pin of the bob (x, y); the contact], and the rows say so.
  EXPECT_EQ(impact.joints, (std::vector<int>{0}));
  EXPECT_EQ(impact.normal_rows, (std::vector<int>{2}));
  ASSERT_EQ(impact.jacobian.rows(), 3);
  const std::vector<ConstraintRowInfo> rows = sim.record_rows(impact);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].kind, ConstraintRowInfo::Kind::Joint);
  EXPECT_EQ(rows[0].joint, 0);
  EXPECT_EQ(rows[1].joint, 0);
  EXPECT_EQ(rows[2].kind, ConstraintRowInfo::Kind::Normal);
  EXPECT_EQ(rows[2].point, 0);
  // The other pendulum swings on bit for bit.
  const ImpactResult& r = impact.result;
  EXPECT_TRUE(same_bits(Vector(r.qd_minus.segment(6, 3)), Vector(r.qd_plus.segment(6, 3))));
  EXPECT_GT(r.qd_minus.segment(6, 3).norm(), 0.1);
  // The pin holds (A q̇⁺ = 0 on its rows) and Newton's law holds on the contact.
  const double scale = r.qd_minus.norm();
  EXPECT_LT(r.normal_velocity_plus.head(2).norm(), 1e-12 * scale);
  EXPECT_NEAR(r.normal_velocity_plus(2), -kIslandE * r.normal_velocity_minus(2), 1e-12 * scale);
  // The same impact as the scene without the other pendulum.
  Simulator alone(island_pendulums(false));
  const ImpactRecord& by_itself = island_first_impact(alone);
  EXPECT_EQ(by_itself.joints, (std::vector<int>{0}));
  EXPECT_NEAR(impact.time, by_itself.time, 1e-12);
  EXPECT_LT(rel_gap(r.qd_plus.head(6), by_itself.result.qd_plus.head(6), 0.0), 1e-12);
}

TEST(IslandImpacts, AnImpulseOnAFreeBodyTakesThatBodyAlone) {
  // The resting column, and a disk in free flight far from it kicked at t = 0.1 s.
  Scenario s = island_scene(true, false);
  ImpulseDef kick;
  kick.time = 0.1;
  kick.body = 0;
  kick.impulse = Vec2(0.3, 0.4);
  kick.angular = 0.01;
  s.impulses.push_back(kick);
  Simulator sim(s);
  const ImpactRecord& impact = island_first_impact(sim);
  ASSERT_TRUE(impact.scheduled);
  const ImpactResult& r = impact.result;
  EXPECT_TRUE(impact.points.empty());
  EXPECT_EQ(impact.jacobian.rows(), 0);
  // q̇⁺ = q̇⁻ + M⁻¹ i_u on the kicked disk (I = ½ m r²); every other body bit for bit.
  EXPECT_NEAR(r.qd_plus(0) - r.qd_minus(0), 0.3 / kIslandMassA, 1e-12);
  EXPECT_NEAR(r.qd_plus(1) - r.qd_minus(1), 0.4 / kIslandMassA, 1e-12);
  EXPECT_NEAR(r.qd_plus(2) - r.qd_minus(2), 0.01 / (0.5 * kIslandMassA * kIslandRadius * kIslandRadius), 1e-12);
  for (int body = 1; body < 5; ++body) {
    EXPECT_TRUE(same_bits(Vector(r.qd_minus.segment(3 * body, 3)), Vector(r.qd_plus.segment(3 * body, 3)))) << "body " << body;
  }
  for (int k = 1; k <= 3; ++k) EXPECT_EQ(sim.contact_points()[static_cast<std::size_t>(k)].state, ContactState::Active);
}

}  // namespace
}  // namespace oblique
