// The exact signed distance of shape_distance.hpp against closed forms: apart (vertex to vertex, vertex to
// edge, segment to segment), touching, overlapping (the least translation apart, on a face normal of
// either shape), one inside the other, two points, wheels by their tips, planes; and its symmetries.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "oblique/geometry/shape_distance.hpp"
#include "oblique/math/trigonometry.hpp"
#include "shapes.hpp"

namespace oblique {
namespace {

using testing::box_shape;
using testing::disk_shape;
using testing::point_shape;
using testing::rod_shape;
using testing::wheel_shape;

Pose at(double x, double y, double angle = 0.0) { return Pose{Vec2(x, y), angle}; }

constexpr double kTight = 1e-14;

TEST(ShapeDistance, ApartTheDistanceBetweenTheClosestFeatures) {
  EXPECT_NEAR(shape_signed_distance(disk_shape(0.1), at(0, 0), disk_shape(0.2), at(1, 0)), 0.7, kTight);
  // Box faces, box corners (the diagonal), a rod's end against a face.
  EXPECT_NEAR(shape_signed_distance(box_shape(1, 1), at(0, 0), box_shape(1, 1), at(1.5, 0.3)), 0.5, kTight);
  EXPECT_NEAR(shape_signed_distance(box_shape(1, 1), at(0, 0), box_shape(1, 1), at(2, 2)), std::sqrt(2.0), kTight);
  EXPECT_NEAR(shape_signed_distance(rod_shape(1, 0.1), at(0, 0), box_shape(1, 1), at(1.5, 0)), 0.4, kTight);
  // A rod along its axis toward a disk: end circle to centre (not the distance to the rod's line).
  EXPECT_NEAR(shape_signed_distance(rod_shape(1, 0.05), at(0, 0), disk_shape(0.1), at(1, 0)), 0.35, kTight);
  // Parallel thin rods side by side, and end to end on one line.
  EXPECT_NEAR(shape_signed_distance(rod_shape(1, 0), at(0, 0), rod_shape(1, 0), at(0.3, 0.2)), 0.2, kTight);
  EXPECT_NEAR(shape_signed_distance(rod_shape(1, 0), at(0, 0), rod_shape(1, 0), at(1.25, 0)), 0.25, kTight);
  // A point against a square turned by 45°: to its corner.
  const double half_diagonal = std::sqrt(0.5);
  EXPECT_NEAR(shape_signed_distance(point_shape(), at(2, 0), box_shape(1, 1), at(0, 0, kPi / 4)), 2 - half_diagonal, 1e-12);
}

TEST(ShapeDistance, TouchingIsZero) {
  EXPECT_EQ(shape_signed_distance(box_shape(0.25, 0.25), at(-0.125, 0), box_shape(0.25, 0.25), at(0.125, 0)), 0.0);
  EXPECT_EQ(shape_signed_distance(rod_shape(0.5, 0), at(-0.25, 0), rod_shape(0.5, 0), at(0.25, 0)), 0.0);  // end on end
  // A T: the upright's end at x = 0.5 cos(π/2) of round-off.
  EXPECT_NEAR(shape_signed_distance(rod_shape(1, 0), at(0, 0), rod_shape(1, 0), at(0, 0.5, kPi / 2)), 0.0, 1e-16);
  EXPECT_EQ(shape_signed_distance(disk_shape(0.125), at(0, 0), rod_shape(0.5, 0), at(0.375, 0)), 0.0);
}

TEST(ShapeDistance, OverlappingTheLeastTranslationApart) {
  // Squares: 0.2 along x, not 0.7 along y.
  EXPECT_NEAR(shape_signed_distance(box_shape(1, 1), at(0, 0), box_shape(1, 1), at(0.8, 0.3)), -0.2, kTight);
  // A square turned by 45° with its corner 0.1 into a face.
  EXPECT_NEAR(shape_signed_distance(box_shape(1, 1), at(0, 0), box_shape(1, 1), at(0.4 + std::sqrt(0.5), 0, kPi / 4)), -0.1, 1e-12);
  // Crossing thin rods: the shorter arm of the cross.
  EXPECT_NEAR(shape_signed_distance(rod_shape(1, 0), at(0, 0), rod_shape(1, 0), at(0, 0.1, kPi / 2)), -0.4, 1e-12);
  // Disks, capsules on one line (their radii), a disk through a thin rod.
  EXPECT_NEAR(shape_signed_distance(disk_shape(0.5), at(0, 0), disk_shape(0.5), at(0.6, 0)), -0.4, kTight);
  EXPECT_NEAR(shape_signed_distance(rod_shape(1, 0.05), at(0, 0), rod_shape(1, 0.05), at(0.5, 0)), -0.1, kTight);
  EXPECT_NEAR(shape_signed_distance(disk_shape(0.1), at(0.2, 0.05), rod_shape(1, 0), at(0, 0)), -0.05, kTight);
}

TEST(ShapeDistance, InsideAnotherIsOverlapToo) {
  // A point inside a box: to the nearest face; a small box inside a large one; a thin rod inside a box.
  EXPECT_NEAR(shape_signed_distance(point_shape(), at(0.3, 0.1), box_shape(1, 1), at(0, 0)), -0.2, kTight);
  EXPECT_NEAR(shape_signed_distance(box_shape(0.2, 0.2), at(0.1, 0), box_shape(1, 1), at(0, 0)), -0.5, kTight);
  EXPECT_NEAR(shape_signed_distance(rod_shape(0.4, 0), at(0, 0.2), box_shape(1, 1), at(0, 0)), -0.3, kTight);
}

TEST(ShapeDistance, TwoPointsNeverTouchAndAWheelTouchesWithItsTips) {
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(shape_signed_distance(point_shape(), at(0, 0), point_shape(), at(0, 0)), inf);
  EXPECT_EQ(shape_signed_distance(point_shape(), at(0, 0), wheel_shape(1, 4), at(1, 0)), inf);
  EXPECT_NEAR(shape_signed_distance(point_shape(), at(0, 0), disk_shape(0.25), at(1, 0)), 0.75, kTight);
  // Four spokes of 1 m: the tip at (1, 0) is 0.4 from a disk of radius 0.1 at (1.5, 0); a disk between two
  // spokes is not inside the wheel.
  EXPECT_NEAR(shape_signed_distance(wheel_shape(1, 4), at(0, 0), disk_shape(0.1), at(1.5, 0)), 0.4, 1e-12);
  EXPECT_GT(shape_signed_distance(wheel_shape(1, 4), at(0, 0), disk_shape(0.2), at(0.5, 0.5)), 0.0);
}

TEST(ShapeDistance, AgainstAPlaneTheDeepestVertex) {
  PlaneDef floor;  // y = 0, normal +y
  EXPECT_NEAR(shape_plane_signed_distance(box_shape(1, 1), at(0, 1, kPi / 4), floor), 1 - std::sqrt(0.5), 1e-12);
  EXPECT_NEAR(shape_plane_signed_distance(disk_shape(0.5), at(3, 0.45), floor), -0.05, kTight);
  EXPECT_NEAR(shape_plane_signed_distance(rod_shape(1, 0.1), at(0, 0.2, kPi / 2), floor), -0.4, 1e-12);
  PlaneDef wall;  // x = 1 facing −x, its normal not unit
  wall.point = Vec2(1, 0);
  wall.normal = Vec2(-2, 0);
  EXPECT_NEAR(shape_plane_signed_distance(disk_shape(0.5), at(0.95, 1), wall), -0.45, kTight);
}

TEST(ShapeDistance, SymmetricAndInvariantUnderRigidMotions) {
  const Shape shapes[] = {disk_shape(0.1), box_shape(0.3, 0.1), rod_shape(0.4, 0.05), rod_shape(0.5, 0), point_shape()};
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

TEST(ShapeDistance, AThinRodsFlatEndsMeetVerticesAsTheNarrowPhaseDoes) {
  // A rod of 1 m has flat ends kEndFaceHalfWidth = 1e-6 m to each side of its axis (contact_geometry.hpp):
  // a point, a corner or another thin rod's end 1e-9 off the axis is at its axial gap from the end, not at
  // the distance to the end point; 2e-6 off the axis, beside the flat end, it is at its distance to the end.
  EXPECT_EQ(shape_signed_distance(point_shape(), at(0.5 + 0.25, 1e-9), rod_shape(1, 0), at(0, 0)), 0.25);
  EXPECT_EQ(shape_signed_distance(rod_shape(1, 0), at(0, 0), rod_shape(1, 0), at(1.25, 1e-9)), 0.25);
  EXPECT_NEAR(shape_signed_distance(point_shape(), at(0.5 + 1e-7, 2e-6), rod_shape(1, 0), at(0, 0)), std::hypot(1e-7, 2e-6), 1e-17);
  // On the flat end's line a vertex is beside it, at its distance to the segment (a corner sliding along
  // the end meets the axis, not the flat end's edge).
  EXPECT_EQ(shape_signed_distance(point_shape(), at(0.5, -0.25), rod_shape(1, 0), at(0, 0)), 0.25);
  // A disk meets the end point with its rim (1e-9 off the axis: to round-off the same).
  EXPECT_NEAR(shape_signed_distance(disk_shape(0.1), at(0.5 + 0.35, 1e-9), rod_shape(1, 0), at(0, 0)), 0.25, kTight);
  // The flat end's edges are no vertices: a rod's end turned against a box face is at the end point's
  // distance, not nearer by w sin θ.
  const double turn = kPi / 4, end = 0.5 * std::cos(turn);
  EXPECT_NEAR(shape_signed_distance(rod_shape(1, 0), at(0, 0, turn), box_shape(1, 1), at(end + 0.5 + 0.01, 0)), 0.01, 1e-15);
}

TEST(ShapeDistance, ThinRodsOnOneLineShareALength) {
  EXPECT_NEAR(thin_rods_common_length(rod_shape(1, 0), at(0, 0), rod_shape(1, 0), at(0.5, 0), 1e-6), 0.5, kTight);
  EXPECT_NEAR(thin_rods_common_length(rod_shape(1, 0), at(0, 0), rod_shape(0.2, 0), at(0.1, 0, kPi), 1e-6), 0.2, 1e-12);
  EXPECT_EQ(thin_rods_common_length(rod_shape(1, 0), at(0, 0), rod_shape(1, 0), at(1, 0), 1e-6), 0.0);       // end on end
  EXPECT_EQ(thin_rods_common_length(rod_shape(1, 0), at(0, 0), rod_shape(1, 0), at(0.5, 1e-3), 1e-6), 0.0);  // side by side
  EXPECT_EQ(thin_rods_common_length(rod_shape(1, 0), at(0, 0), rod_shape(1, 0), at(0, 0, 1e-3), 1e-6), 0.0);  // crossing
  EXPECT_EQ(thin_rods_common_length(rod_shape(1, 0.01), at(0, 0), rod_shape(1, 0), at(0.5, 0), 1e-6), 0.0);  // a capsule
}

}  // namespace
}  // namespace oblique
