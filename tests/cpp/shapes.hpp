// The five shapes as the scenario format defines them, for the geometry tests (narrow phase, contact
// geometry, signed distance, contact impacts).
#pragma once

#include "oblique/math/trigonometry.hpp"
#include "oblique/scenario/scenario.hpp"

namespace oblique::testing {

/// 2π, a full turn.
inline constexpr double kTwoPi = 2.0 * kPi;

inline Shape disk_shape(double radius) {
  Shape s;
  s.type = Shape::Type::Disk;
  s.radius = radius;
  return s;
}

inline Shape box_shape(double width, double height) {
  Shape s;
  s.type = Shape::Type::Box;
  s.width = width;
  s.height = height;
  return s;
}

/// A capsule of `radius` around its axis of `length`; of radius 0, a thin rod.
inline Shape rod_shape(double length, double radius) {
  Shape s;
  s.type = Shape::Type::Rod;
  s.length = length;
  s.radius = radius;
  return s;
}

/// A point mass; its radius is drawn only.
inline Shape point_shape() {
  Shape s;
  s.type = Shape::Type::Point;
  s.radius = 0.05;
  return s;
}

inline Shape wheel_shape(double radius, int spokes) {
  Shape s;
  s.type = Shape::Type::Wheel;
  s.radius = radius;
  s.spokes = spokes;
  return s;
}

}  // namespace oblique::testing
