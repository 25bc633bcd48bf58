// The exact signed distance of shape_distance.hpp against closed forms: apart (vertex to vertex, vertex to
// edge, segment to segment), touching, overlapping (the least translation apart, on a face normal of
// either shape), one inside the other, two points, wheels by their tips, planes; and its symmetries.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "oblique/shape_distance.hpp"
#include "oblique/trigonometry.hpp"

namespace oblique {
namespace {

Shape disk(double r) {
  Shape s;
  s.type = Shape::Type::Disk;
  s.radius = r;
  return s;
}
Shape box(double w, double h) {
  Shape s;
  s.type = Shape::Type::Box;
  s.width = w;
  s.height = h;
  return s;
}
Shape rod(double length, double r) {
  Shape s;
  s.type = Shape::Type::Rod;
  s.length = length;
  s.radius = r;
  return s;
}
Shape point() {
  Shape s;
  s.type = Shape::Type::Point;
  s.radius = 0.05;  // drawn only
  return s;
}
Shape wheel(double r, int spokes) {
  Shape s;
  s.type = Shape::Type::Wheel;
  s.radius = r;
  s.spokes = spokes;
  return s;
}
Pose at(double x, double y, double angle = 0.0) { return Pose{Vec2(x, y), angle}; }

constexpr double kTight = 1e-14;

TEST(ShapeDistance, ApartTheDistanceBetweenTheClosestFeatures) {
  EXPECT_NEAR(shape_signed_distance(disk(0.1), at(0, 0), disk(0.2), at(1, 0)), 0.7, kTight);
  // Box faces, box corners (the diagonal), a rod's end against a face.
  EXPECT_NEAR(shape_signed_distance(box(1, 1), at(0, 0), box(1, 1), at(1.5, 0.3)), 0.5, kTight);
  EXPECT_NEAR(shape_signed_distance(box(1, 1), at(0, 0), box(1, 1), at(2, 2)), std::sqrt(2.0), kTight);
  EXPECT_NEAR(shape_signed_distance(rod(1, 0.1), at(0, 0), box(1, 1), at(1.5, 0)), 0.4, kTight);
  // A rod along its axis toward a disk: end circle to centre (not the distance to the rod's line).
  EXPECT_NEAR(shape_signed_distance(rod(1, 0.05), at(0, 0), disk(0.1), at(1, 0)), 0.35, kTight);
  // Parallel thin rods side by side, and end to end on one line.
  EXPECT_NEAR(shape_signed_distance(rod(1, 0), at(0, 0), rod(1, 0), at(0.3, 0.2)), 0.2, kTight);
  EXPECT_NEAR(shape_signed_distance(rod(1, 0), at(0, 0), rod(1, 0), at(1.25, 0)), 0.25, kTight);
  // A point against a square turned by 45°: to its corner.
  const double half_diagonal = std::sqrt(0.5);
  EXPECT_NEAR(shape_signed_distance(point(), at(2, 0), box(1, 1), at(0, 0, kPi / 4)), 2 - half_diagonal, 1e-12);
}

TEST(ShapeDistance, TouchingIsZero) {
  EXPECT_EQ(shape_signed_distance(box(0.25, 0.25), at(-0.125, 0), box(0.25, 0.25), at(0.125, 0)), 0.0);
  EXPECT_EQ(shape_signed_distance(rod(0.5, 0), at(-0.25, 0), rod(0.5, 0), at(0.25, 0)), 0.0);  // end on end
  // A T: the upright's end at x = 0.5 cos(π/2) of round-off.
  EXPECT_NEAR(shape_signed_distance(rod(1, 0), at(0, 0), rod(1, 0), at(0, 0.5, kPi / 2)), 0.0, 1e-16);
  EXPECT_EQ(shape_signed_distance(disk(0.125), at(0, 0), rod(0.5, 0), at(0.375, 0)), 0.0);
}

TEST(ShapeDistance, OverlappingTheLeastTranslationApart) {
  // Squares: 0.2 along x, not 0.7 along y.
  EXPECT_NEAR(shape_signed_distance(box(1, 1), at(0, 0), box(1, 1), at(0.8, 0.3)), -0.2, kTight);
  // A square turned by 45° with its corner 0.1 into a face.
  EXPECT_NEAR(shape_signed_distance(box(1, 1), at(0, 0), box(1, 1), at(0.4 + std::sqrt(0.5), 0, kPi / 4)), -0.1, 1e-12);
  // Crossing thin rods: the shorter arm of the cross.
  EXPECT_NEAR(shape_signed_distance(rod(1, 0), at(0, 0), rod(1, 0), at(0, 0.1, kPi / 2)), -0.4, 1e-12);
  // Disks, capsules on one line (their radii), a disk through a thin rod.
  EXPECT_NEAR(shape_signed_distance(disk(0.5), at(0, 0), disk(0.5), at(0.6, 0)), -0.4, kTight);
  EXPECT_NEAR(shape_signed_distance(rod(1, 0.05), at(0, 0), rod(1, 0.05), at(0.5, 0)), -0.1, kTight);
  EXPECT_NEAR(shape_signed_distance(disk(0.1), at(0.2, 0.05), rod(1, 0), at(0, 0)), -0.05, kTight);
}

TEST(ShapeDistance, InsideAnotherIsOverlapToo) {
  // A point inside a box: to the nearest face; a small box inside a large one; a thin rod inside a box.
  EXPECT_NEAR(shape_signed_distance(point(), at(0.3, 0.1), box(1, 1), at(0, 0)), -0.2, kTight);
  EXPECT_NEAR(shape_signed_distance(box(0.2, 0.2), at(0.1, 0), box(1, 1), at(0, 0)), -0.5, kTight);
  EXPECT_NEAR(shape_signed_distance(rod(0.4, 0), at(0, 0.2), box(1, 1), at(0, 0)), -0.3, kTight);
}

TEST(ShapeDistance, TwoPointsNeverTouchAndAWheelTouchesWithItsTips) {
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(shape_signed_distance(point(), at(0, 0), point(), at(0, 0)), inf);
  EXPECT_EQ(shape_signed_distance(point(), at(0, 0), wheel(1, 4), at(1, 0)), inf);
  EXPECT_NEAR(shape_signed_distance(point(), at(0, 0), disk(0.25), at(1, 0)), 0.75, kTight);
  // Four spokes of 1 m: the tip at (1, 0) is 0.4 from a disk of radius 0.1 at (1.5, 0); a disk between two
  // spokes is not inside the wheel.
  EXPECT_NEAR(shape_signed_distance(wheel(1, 4), at(0, 0), disk(0.1), at(1.5, 0)), 0.4, 1e-12);
  EXPECT_GT(shape_signed_distance(wheel(1, 4), at(0, 0), disk(0.2), at(0.5, 0.5)), 0.0);
}

TEST(ShapeDistance, AgainstAPlaneTheDeepestVertex) {
  PlaneDef floor;  // y = 0, normal +y
  EXPECT_NEAR(shape_plane_signed_distance(box(1, 1), at(0, 1, kPi / 4), floor), 1 - std::sqrt(0.5), 1e-12);
  EXPECT_NEAR(shape_plane_signed_distance(disk(0.5), at(3, 0.45), floor), -0.05, kTight);
  EXPECT_NEAR(shape_plane_signed_distance(rod(1, 0.1), at(0, 0.2, kPi / 2), floor), -0.4, 1e-12);
  PlaneDef wall;  // x = 1 facing −x, its normal not unit
  wall.point = Vec2(1, 0);
  wall.normal = Vec2(-2, 0);
  EXPECT_NEAR(shape_plane_signed_distance(disk(0.5), at(0.95, 1), wall), -0.45, kTight);
}

TEST(ShapeDistance, SymmetricAndInvariantUnderRigidMotions) {
  const Shape shapes[] = {disk(0.1), box(0.3, 0.1), rod(0.4, 0.05), rod(0.5, 0), point()};
  std::uint64_t state = 7;
  const auto next = [&state] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<double>(state >> 11) * (1.0 / 9007199254740992.0);
  };
  for (int trial = 0; trial < 500; ++trial) {
    const Shape& a = shapes[trial % 5];
    const Shape& b = shapes[(trial / 5) % 5];
    const Pose pa = at(next() - 0.5, next() - 0.5, 6 * next()), pb = at(next() - 0.5, next() - 0.5, 6 * next());
    const double d = shape_signed_distance(a, pa, b, pb);
    EXPECT_EQ(d, shape_signed_distance(b, pb, a, pa)) << trial;
    if (std::isinf(d)) continue;
    // Both moved by the same rotation about the origin and translation: the same distance.
    const double turn = 6 * next();
    const CosSin r = cos_sin(turn);
    const auto move = [&](const Pose& p) {
      return Pose{Vec2(r.cos * p.position.x() - r.sin * p.position.y() + 0.3,
                       r.sin * p.position.x() + r.cos * p.position.y() - 0.2),
                  p.angle + turn};
    };
    EXPECT_NEAR(shape_signed_distance(a, move(pa), b, move(pb)), d, 1e-12) << trial;
  }
}

TEST(ShapeDistance, ThinRodsOnOneLineShareALength) {
  EXPECT_NEAR(thin_rods_common_length(rod(1, 0), at(0, 0), rod(1, 0), at(0.5, 0), 1e-6), 0.5, kTight);
  EXPECT_NEAR(thin_rods_common_length(rod(1, 0), at(0, 0), rod(0.2, 0), at(0.1, 0, kPi), 1e-6), 0.2, 1e-12);
  EXPECT_EQ(thin_rods_common_length(rod(1, 0), at(0, 0), rod(1, 0), at(1, 0), 1e-6), 0.0);       // end on end
  EXPECT_EQ(thin_rods_common_length(rod(1, 0), at(0, 0), rod(1, 0), at(0.5, 1e-3), 1e-6), 0.0);  // side by side
  EXPECT_EQ(thin_rods_common_length(rod(1, 0), at(0, 0), rod(1, 0), at(0, 0, 1e-3), 1e-6), 0.0);  // crossing
  EXPECT_EQ(thin_rods_common_length(rod(1, 0.01), at(0, 0), rod(1, 0), at(0.5, 0), 1e-6), 0.0);  // a capsule
}

}  // namespace
}  // namespace oblique
