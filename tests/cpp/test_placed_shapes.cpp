// Shapes placed once for the narrow phase (PlacedShape) and the automatic contacts' cache of them: on random
// configurations of every shape, one placement used against many shapes, in any order, gives the same
// bits as a placement made afresh for each call (collide_shapes, collide_shape_plane); a placement is
// reused only at the same bits of its pose; the watched pairs' unlisted gaps do not depend on the order in
// which configurations are evaluated.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "oblique/geometry/automatic_contacts.hpp"
#include "oblique/geometry/narrow_phase.hpp"
#include "scenario_builders.hpp"
#include "shapes.hpp"

namespace oblique {
namespace {

/// Whether two doubles are the same bits (−0 and +0 differ, a NaN equals itself).
bool placed_same_bits(double x, double y) {
  std::uint64_t a = 0, b = 0;
  std::memcpy(&a, &x, sizeof a);
  std::memcpy(&b, &y, sizeof b);
  return a == b;
}

/// Every contact shape: disks, boxes, a rounded and a thin rod, a point, a wheel.
std::vector<Shape> placed_shape_kinds() {
  return {testing::disk_shape(0.1),        testing::box_shape(0.2, 0.14), testing::rod_shape(0.4, 0.03),
          testing::rod_shape(0.3, 0.0),    testing::point_shape(),        testing::wheel_shape(0.15, 6),
          testing::box_shape(0.05, 0.3),   testing::disk_shape(0.04)};
}

/// The same candidates, field by field, to the bit (the frame's point and normal only when `frames`).
void expect_same_candidates(const std::vector<ContactCandidate>& x, const std::vector<ContactCandidate>& y, bool frames,
                            const std::string& what) {
  ASSERT_EQ(x.size(), y.size()) << what;
  for (std::size_t k = 0; k < x.size(); ++k) {
    EXPECT_EQ(x[k].key, y[k].key) << what;
    EXPECT_TRUE(placed_same_bits(x[k].frame.gap, y[k].frame.gap)) << what;
    if (!frames) continue;
    for (int i = 0; i < 2; ++i) {
      EXPECT_TRUE(placed_same_bits(x[k].frame.point(i), y[k].frame.point(i))) << what;
      EXPECT_TRUE(placed_same_bits(x[k].frame.normal(i), y[k].frame.normal(i))) << what;
    }
  }
}

TEST(PlacedShapes, OnePlacementUsedAgainstManyGivesTheBitsOfFreshPlacements) {
  const std::vector<Shape> kinds = placed_shape_kinds();
  std::mt19937 random(20261202);
  std::uniform_real_distribution<double> coordinate(-0.25, 0.25), angle(-4.0, 4.0), margin(0.0, 0.2);
  PlaneDef floor;
  floor.point = Vec2(0.0, -0.2);
  floor.normal = Vec2(0.3, 1.0);
  for (int trial = 0; trial < 200; ++trial) {
    // Every kind at a random pose, placed once.
    const std::size_t n = kinds.size();
    std::vector<Pose> poses(n);
    std::vector<PlacedShape> placed(n);
    for (std::size_t i = 0; i < n; ++i) {
      poses[i] = Pose{Vec2(coordinate(random), coordinate(random)), angle(random)};
      placed[i].place(static_cast<int>(i), kinds[i], poses[i]);
    }
    const double m = margin(random);
    // Each placement against every other, interleaved, with and without frames, and against the plane.
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = 0; j < n; ++j) {
        if (i == j) continue;
        std::vector<ContactCandidate> fresh, reused, gaps_only;
        collide_shapes(static_cast<int>(i), kinds[i], poses[i], static_cast<int>(j), kinds[j], poses[j], m, fresh);
        collide_placed(placed[i], placed[j], m, reused, nullptr, true);
        collide_placed(placed[i], placed[j], m, gaps_only, nullptr, false);
        const std::string what = "trial " + std::to_string(trial) + ", shapes " + std::to_string(i) + "–" + std::to_string(j);
        expect_same_candidates(fresh, reused, true, what);
        expect_same_candidates(fresh, gaps_only, false, what);
      }
      std::vector<ContactCandidate> fresh, reused;
      collide_shape_plane(0, floor, static_cast<int>(i), kinds[i], poses[i], m, fresh);
      collide_placed_plane(0, plane_feature(floor, 0), placed[i], m, reused);
      expect_same_candidates(fresh, reused, true, "plane, trial " + std::to_string(trial));
    }
  }
}

TEST(PlacedShapes, APlacementIsReusedOnlyAtTheSameBitsOfItsPose) {
  PlacedShape placed;
  EXPECT_FALSE(placed.placed_at(0, Pose{})) << "nothing placed yet";
  const Pose pose{Vec2(0.25, -1.5), 0.0};
  placed.place(3, testing::box_shape(0.2, 0.1), pose);
  EXPECT_TRUE(placed.placed_at(3, pose));
  EXPECT_FALSE(placed.placed_at(4, pose)) << "another body";
  EXPECT_FALSE(placed.placed_at(3, Pose{pose.position, -0.0})) << "−0 is other bits than +0";
  EXPECT_FALSE(placed.placed_at(3, Pose{Vec2(std::nextafter(0.25, 1.0), -1.5), 0.0}));
  EXPECT_FALSE(placed.placed_at(3, Pose{Vec2(0.25, std::nextafter(-1.5, 0.0)), 0.0}));
  EXPECT_FALSE(placed.placed_at(3, Pose{pose.position, 1e-300}));
}

/// A heap of 16 bodies of every kind of shape, touching or nearly, and its configuration q0.
struct Heap {
  Scenario scenario;
  Vector q0;
};
Heap heap_of_every_shape(std::mt19937& random) {
  Heap heap;
  Scenario& scenario = heap.scenario;
  scenario.collide_all = true;
  std::uniform_real_distribution<double> coordinate(-0.3, 0.3), angle(-3.0, 3.0);
  const std::vector<Shape> kinds = placed_shape_kinds();
  for (int i = 0; i < 16; ++i) {
    BodyDef body = testing::make_body("b" + std::to_string(i), Shape::Type::Disk, 1.0,
                                      Vec2(coordinate(random), coordinate(random)), angle(random));
    body.shape = kinds[static_cast<std::size_t>(i) % kinds.size()];
    scenario.bodies.push_back(body);
  }
  heap.q0.resize(3 * static_cast<int>(scenario.bodies.size()));
  for (std::size_t i = 0; i < scenario.bodies.size(); ++i) {
    heap.q0.segment<2>(3 * static_cast<int>(i)) = scenario.bodies[i].position;
    heap.q0(3 * static_cast<int>(i) + 2) = scenario.bodies[i].angle;
  }
  return heap;
}

TEST(PlacedShapes, UnlistedGapsDoNotDependOnTheOrderOfTheConfigurations) {
  // A heap of every kind of shape, touching or nearly: the watched pairs' unlisted gaps at several
  // configurations, evaluated interleaved on one object, are the bits of those of a fresh object that
  // evaluates one configuration only.
  std::mt19937 random(31);
  const Heap heap = heap_of_every_shape(random);
  const Scenario& scenario = heap.scenario;
  const Vector& q0 = heap.q0;
  std::uniform_real_distribution<double> shift(-0.01, 0.01);
  const int coordinates = static_cast<int>(q0.size());
  const Vector qd = Vector::Zero(coordinates);
  std::vector<Vector> configurations = {q0};
  for (int c = 0; c < 4; ++c) {
    Vector q = q0;
    for (int k = 0; k < coordinates; ++k) {
      if (k % 5 != c) q(k) += shift(random);  // some bodies keep their pose between configurations
    }
    configurations.push_back(q);
  }
  const double step = 0.05;
  std::vector<FeaturePair> listed;
  AutomaticContacts shared(scenario);
  shared.find(q0, qd, step, {}, listed);
  ASSERT_GE(shared.watched().size(), 5u) << "a heap has touching pairs";
  for (int round = 0; round < 2; ++round) {
    for (std::size_t c = 0; c < configurations.size(); ++c) {
      AutomaticContacts fresh(scenario);
      std::vector<FeaturePair> fresh_listed;
      fresh.find(q0, qd, step, {}, fresh_listed);
      for (std::size_t j = 0; j < shared.watched().size(); ++j) {
        const double value = shared.unlisted_gap(shared.watched()[j], configurations[c], listed);
        const double expected = fresh.unlisted_gap(fresh.watched()[j], configurations[c], fresh_listed);
        EXPECT_TRUE(placed_same_bits(value, expected)) << "configuration " << c << ", pair " << j;
        EXPECT_LE(value, shared.watched()[j].margin);
      }
    }
  }
}

TEST(PlacedShapes, AFindOfTheLastFindsInputsGivesItsPointsAgainWithoutTheSearch) {
  // A step taken again after the work budget stopped a call finds the contacts at the same state: the same
  // inputs, bit for bit, give the last find's points and watched pairs for the comparison's work only; a
  // change of one bit of q, of the step or of the previous points is a find of its own, a fresh object's.
  std::mt19937 random(47);
  const Heap heap = heap_of_every_shape(random);
  const Vector qd = Vector::Constant(heap.q0.size(), 0.1);
  const double step = 0.01;
  AutomaticContacts kept(heap.scenario);
  std::vector<FeaturePair> first, again;
  const double searched = kept.find(heap.q0, qd, step, {}, first);
  const std::vector<WatchedPair> watched = kept.watched();
  ASSERT_FALSE(first.empty());
  const double compared = kept.find(heap.q0, qd, step, {}, again);
  EXPECT_LT(compared, 0.1 * searched);
  ASSERT_EQ(again.size(), first.size());
  for (std::size_t i = 0; i < first.size(); ++i) EXPECT_TRUE(contact_key(again[i]) == contact_key(first[i]));
  ASSERT_EQ(kept.watched().size(), watched.size());
  for (std::size_t j = 0; j < watched.size(); ++j) {
    EXPECT_EQ(kept.watched()[j].body_a, watched[j].body_a);
    EXPECT_TRUE(placed_same_bits(kept.watched()[j].margin, watched[j].margin));
  }
  // Other inputs: the fresh object's points.
  Vector moved = heap.q0;
  moved(4) = std::nextafter(moved(4), 1.0);
  struct Inputs {
    const Vector* q;
    double step;
    const std::vector<FeaturePair>* previous;
  };
  for (const Inputs& inputs : {Inputs{&moved, step, &first}, Inputs{&heap.q0, 2 * step, &first}, Inputs{&heap.q0, step, &first}}) {
    AutomaticContacts fresh(heap.scenario);
    std::vector<FeaturePair> expected, found;
    fresh.find(*inputs.q, qd, inputs.step, *inputs.previous, expected);
    EXPECT_GT(kept.find(*inputs.q, qd, inputs.step, *inputs.previous, found), compared);
    ASSERT_EQ(found.size(), expected.size());
    for (std::size_t i = 0; i < found.size(); ++i) EXPECT_TRUE(contact_key(found[i]) == contact_key(expected[i]));
  }
}

}  // namespace
}  // namespace oblique
