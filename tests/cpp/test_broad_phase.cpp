// The broad phase: the boxes of every shape, and exactly the pairs a brute force finds (every pair of
// proxies, filters, overlap) on random scenes of 1 to 300 bodies of mixed shapes, with bodies left out,
// collision bits, oversize walls, degenerate boxes; the same answer on every call; and no pair the narrow
// phase would report is missed.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <Eigen/Geometry>

#include "error_message.hpp"
#include "oblique/geometry/broad_phase.hpp"
#include "oblique/geometry/narrow_phase.hpp"
#include "shapes.hpp"

namespace oblique {
namespace {

using testing::kTwoPi;
using testing::message_of;

/// Every pair a, b (a < b) of proxies that may touch and overlap, by testing them all.
std::vector<BodyPair> brute_force_pairs(const std::vector<BroadPhaseProxy>& proxies) {
  std::vector<BodyPair> pairs;
  for (int a = 0; a < static_cast<int>(proxies.size()); ++a) {
    for (int b = a + 1; b < static_cast<int>(proxies.size()); ++b) {
      const BroadPhaseProxy& p = proxies[static_cast<std::size_t>(a)];
      const BroadPhaseProxy& q = proxies[static_cast<std::size_t>(b)];
      if (proxies_may_touch(p, q) && aabbs_overlap(p.box, q.box)) pairs.push_back(BodyPair{a, b});
    }
  }
  return pairs;
}

/// A random shape of any type, sizes from a few centimetres to tens of centimetres.
Shape random_shape(std::mt19937& engine) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  Shape s;
  switch (engine() % 5) {
    case 0:
      s.type = Shape::Type::Disk;
      s.radius = 0.03 + 0.17 * unit(engine);
      break;
    case 1:
      s.type = Shape::Type::Box;
      s.width = 0.05 + 0.35 * unit(engine);
      s.height = 0.05 + 0.35 * unit(engine);
      break;
    case 2:
      s.type = Shape::Type::Rod;
      s.length = 0.1 + 0.7 * unit(engine);
      s.radius = unit(engine) < 0.3 ? 0.0 : 0.05 * unit(engine);
      break;
    case 3:
      s.type = Shape::Type::Point;
      break;
    default:
      s.type = Shape::Type::Wheel;
      s.radius = 0.1 + 0.2 * unit(engine);
      s.spokes = 3 + static_cast<int>(engine() % 6);
      break;
  }
  return s;
}

struct ProxyScene {
  std::vector<Shape> shapes;
  std::vector<Pose> poses;
  std::vector<BroadPhaseProxy> proxies;
};

/// n bodies at a constant density (side √n · 0.5 m), some left out, some with collision bits.
ProxyScene random_proxy_scene(int n, std::mt19937& engine, double inflation) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const double side = 0.5 * std::sqrt(static_cast<double>(n));
  ProxyScene scene;
  for (int i = 0; i < n; ++i) {
    scene.shapes.push_back(random_shape(engine));
    scene.poses.push_back(Pose{Vec2(side * unit(engine) - 3.0, side * unit(engine) + 1.0), kTwoPi * unit(engine)});
    BroadPhaseProxy proxy;
    proxy.box = shape_aabb(scene.shapes.back(), scene.poses.back(), inflation);
    proxy.collides = unit(engine) > 0.1;
    if (unit(engine) < 0.3) {
      proxy.category = 1u << (engine() % 3);
      proxy.mask = static_cast<std::uint32_t>(engine() % 8);
    }
    scene.proxies.push_back(proxy);
  }
  return scene;
}

TEST(BroadPhase, BoxesHoldEveryContactFeature) {
  const Pose pose{Vec2(1.0, -2.0), 0.4};
  const double c = std::cos(0.4), s = std::sin(0.4);
  Shape box;
  box.type = Shape::Type::Box;
  box.width = 0.6;
  box.height = 0.2;
  // A rotated box: half extents |cos| w/2 + |sin| h/2 and |sin| w/2 + |cos| h/2, then the inflation.
  Aabb b = shape_aabb(box, pose, 0.01);
  EXPECT_NEAR(b.upper.x() - pose.position.x(), c * 0.3 + s * 0.1 + 0.01, 1e-15);
  EXPECT_NEAR(pose.position.y() - b.lower.y(), s * 0.3 + c * 0.1 + 0.01, 1e-15);
  // A rod: its end circles.
  Shape rod;
  rod.type = Shape::Type::Rod;
  rod.length = 1.0;
  rod.radius = 0.05;
  b = shape_aabb(rod, pose, 0.0);
  EXPECT_NEAR(b.upper.x() - pose.position.x(), 0.5 * c + 0.05, 1e-15);
  EXPECT_NEAR(b.upper.y() - pose.position.y(), 0.5 * s + 0.05, 1e-15);
  // A disk, a point (its centre only), a wheel (its spoke tips).
  Shape disk;
  disk.radius = 0.2;
  b = shape_aabb(disk, pose, 0.0);
  EXPECT_NEAR((b.upper - pose.position - Vec2(0.2, 0.2)).norm(), 0.0, 1e-15);
  Shape point;
  point.type = Shape::Type::Point;
  b = shape_aabb(point, pose, 0.0);
  EXPECT_EQ(b.lower, pose.position);
  EXPECT_EQ(b.upper, pose.position);
  Shape wheel;
  wheel.type = Shape::Type::Wheel;
  wheel.radius = 0.3;
  wheel.spokes = 4;
  b = shape_aabb(wheel, Pose{Vec2::Zero(), kTwoPi / 8}, 0.0);  // tips at 45°, 135°, ...
  EXPECT_NEAR(b.upper.x(), 0.3 * std::sqrt(0.5), 1e-15);
  EXPECT_NEAR(b.lower.y(), -0.3 * std::sqrt(0.5), 1e-15);
  EXPECT_EQ(message_of([&] { shape_aabb(disk, pose, -0.1); }), "inflation: must be a finite number ≥ 0, got -0.1");
}

TEST(BroadPhase, FindsExactlyTheBruteForcePairsOnRandomScenes) {
  std::mt19937 engine(42);
  BroadPhase broad;
  std::vector<BodyPair> pairs;
  int total = 0;
  for (int n : {1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 300}) {
    for (int seed = 0; seed < 4; ++seed) {
      const ProxyScene scene = random_proxy_scene(n, engine, 0.01);
      broad.find_pairs(scene.proxies, pairs);
      const std::vector<BodyPair> expected = brute_force_pairs(scene.proxies);
      EXPECT_EQ(pairs, expected) << n << " bodies, seed " << seed;
      total += static_cast<int>(pairs.size());
    }
  }
  EXPECT_GT(total, 1000);  // the scenes are dense enough for the comparison to mean something
}

TEST(BroadPhase, LongWallsAndPilesAgreeWithBruteForce) {
  std::mt19937 engine(7);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  BroadPhase broad;
  std::vector<BodyPair> pairs;
  // 200 pebbles with two long walls and a floor across the scene: the walls are tested against everything.
  ProxyScene scene = random_proxy_scene(200, engine, 0.0);
  for (int k = 0; k < 3; ++k) {
    Shape wall;
    wall.type = Shape::Type::Rod;
    wall.length = 30.0;  // over 64 cells of the pebbles' size
    wall.radius = 0.05;
    BroadPhaseProxy proxy;
    proxy.box = shape_aabb(wall, Pose{Vec2(-1.0 + k, 4.0), k == 2 ? 0.0 : 0.25 * kTwoPi}, 0.0);
    scene.proxies.push_back(proxy);
  }
  broad.find_pairs(scene.proxies, pairs);
  EXPECT_EQ(pairs, brute_force_pairs(scene.proxies));
  EXPECT_EQ(broad.oversize_count(), 3);
  // A pile: 120 bodies within 0.3 m, every box in a handful of cells.
  std::vector<BroadPhaseProxy> pile;
  for (int i = 0; i < 120; ++i) {
    BroadPhaseProxy proxy;
    proxy.box.lower = Vec2(0.3 * unit(engine), 0.3 * unit(engine));
    proxy.box.upper = proxy.box.lower + Vec2(0.1 * unit(engine), 0.1 * unit(engine));
    pile.push_back(proxy);
  }
  broad.find_pairs(pile, pairs);
  EXPECT_EQ(pairs, brute_force_pairs(pile));
  EXPECT_GT(pairs.size(), 500u);
}

TEST(BroadPhase, DegenerateBoxesTouchingEdgesAndFarCoordinates) {
  BroadPhase broad;
  std::vector<BodyPair> pairs;
  // Points at one spot: every pair (cell side 0 → 1 m).
  std::vector<BroadPhaseProxy> points(5);
  for (auto& p : points) p.box.lower = p.box.upper = Vec2(3.0, -4.0);
  broad.find_pairs(points, pairs);
  EXPECT_EQ(pairs.size(), 10u);
  EXPECT_EQ(pairs, brute_force_pairs(points));
  // A row of unit boxes sharing edges, and one sharing a corner only: closed boxes touch.
  std::vector<BroadPhaseProxy> row(4);
  for (int i = 0; i < 3; ++i) {
    row[static_cast<std::size_t>(i)].box.lower = Vec2(i, 0);
    row[static_cast<std::size_t>(i)].box.upper = Vec2(i + 1, 1);
  }
  row[3].box.lower = Vec2(3, 1);
  row[3].box.upper = Vec2(4, 2);
  broad.find_pairs(row, pairs);
  EXPECT_EQ(pairs, (std::vector<BodyPair>{{0, 1}, {1, 2}, {2, 3}}));
  // Far from the origin, with one body a million metres away (the cell grows to keep indices small).
  std::mt19937 engine(1);
  ProxyScene scene = random_proxy_scene(100, engine, 0.02);
  for (auto& p : scene.proxies) {
    p.box.lower += Vec2(1e5, -1e5);
    p.box.upper += Vec2(1e5, -1e5);
  }
  BroadPhaseProxy outlier;
  outlier.box.lower = outlier.box.upper = Vec2(1e6, 1e6);
  scene.proxies.push_back(outlier);
  broad.find_pairs(scene.proxies, pairs);
  EXPECT_EQ(pairs, brute_force_pairs(scene.proxies));
  // Nobody collides: no pair, no cell.
  for (auto& p : points) p.collides = false;
  broad.find_pairs(points, pairs);
  EXPECT_TRUE(pairs.empty());
  EXPECT_EQ(broad.cell_size(), 0.0);
}

TEST(BroadPhase, CollisionBitsAndOptingOut) {
  // Three overlapping boxes: 0 opts out; 1 (category 2) touches only category 4; 2 has category 4.
  std::vector<BroadPhaseProxy> proxies(4);
  for (auto& p : proxies) p.box.upper = Vec2(1, 1);
  proxies[0].collides = false;
  proxies[1].category = 2;
  proxies[1].mask = 4;
  proxies[2].category = 4;
  proxies[3].category = 1;  // its category is not in 1's mask
  BroadPhase broad;
  std::vector<BodyPair> pairs;
  broad.find_pairs(proxies, pairs);
  EXPECT_EQ(pairs, (std::vector<BodyPair>{{1, 2}, {2, 3}}));
}

TEST(BroadPhase, TheSameAnswerOnEveryCall) {
  std::mt19937 engine(3);
  const ProxyScene first = random_proxy_scene(150, engine, 0.01), second = random_proxy_scene(80, engine, 0.01);
  BroadPhase broad, fresh;
  std::vector<BodyPair> a, b, c;
  broad.find_pairs(first.proxies, a);
  broad.find_pairs(second.proxies, b);  // reused buffers, another scene in between
  broad.find_pairs(first.proxies, b);
  fresh.find_pairs(first.proxies, c);
  EXPECT_EQ(a, b);
  EXPECT_EQ(a, c);
  EXPECT_FALSE(a.empty());
}

TEST(BroadPhase, NeverMissesAPairTheNarrowPhaseFinds) {
  // With boxes inflated by half the margin, every pair of shapes with a contact point within the margin
  // is a broad-phase pair.
  const double margin = 0.04;
  std::mt19937 engine(99);
  BroadPhase broad;
  std::vector<BodyPair> pairs;
  int touching = 0;
  for (int n : {30, 120, 300}) {
    ProxyScene scene = random_proxy_scene(n, engine, 0.5 * margin);
    for (auto& p : scene.proxies) {
      p.collides = true;
      p.category = 1;
      p.mask = 0xFFFFFFFFu;
    }
    broad.find_pairs(scene.proxies, pairs);
    std::vector<ContactCandidate> contacts;
    for (int a = 0; a < n; ++a) {
      for (int b = a + 1; b < n; ++b) {
        contacts.clear();
        collide_shapes(a, scene.shapes[static_cast<std::size_t>(a)], scene.poses[static_cast<std::size_t>(a)], b,
                       scene.shapes[static_cast<std::size_t>(b)], scene.poses[static_cast<std::size_t>(b)], margin,
                       contacts);
        if (contacts.empty()) continue;
        ++touching;
        EXPECT_TRUE(std::binary_search(pairs.begin(), pairs.end(), BodyPair{a, b})) << n << ": " << a << ", " << b;
      }
    }
  }
  EXPECT_GT(touching, 100);
}

TEST(BroadPhase, BadBoxesAreNamed) {
  std::vector<BroadPhaseProxy> proxies(3);
  proxies[2].box.upper = Vec2(std::nan(""), 0.0);
  BroadPhase broad;
  std::vector<BodyPair> pairs;
  EXPECT_EQ(message_of([&] { broad.find_pairs(proxies, pairs); }),
            "proxies[2].box: must be finite numbers with lower ≤ upper");
  proxies[2].box.upper = Vec2(-1.0, 0.0);
  EXPECT_EQ(message_of([&] { broad.find_pairs(proxies, pairs); }),
            "proxies[2].box: must be finite numbers with lower ≤ upper");
}

}  // namespace
}  // namespace oblique
