#include "oblique/geometry/shape_distance.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "model/rigid_points.hpp"

namespace oblique {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

/// A convex core placed in the world: 1 vertex (a point), 2 (a segment) or 4 (a rectangle, counter-clockwise),
/// rounded by `radius`. A thin rod's core also has its flat ends (contact_geometry.hpp): the segments of its
/// end faces 2 and 3, across the axis at each end, which only vertices of radius 0 meet.
struct PlacedCore {
  int count = 0;
  Vec2 vertex[4];
  double radius = 0.0;
  int flat_ends = 0;   ///< 2 for a thin rod, else 0
  Vec2 end_point[2], end_normal[2];
  double end_half_width = 0.0;

  const Vec2& at(int k) const { return vertex[k % count]; }
  /// Edges: none for a point taken as the degenerate edge (v, v), one for a segment, four for a rectangle.
  int edges() const { return count == 4 ? 4 : 1; }
};

/// Circles `first`..`first + count − 1` of a shape as one core at a pose.
PlacedCore place_core(const Shape& shape, const Pose& pose, int first, int count) {
  PlacedCore core;
  core.count = count;
  core.radius = rounding_radius(shape);
  const CosSin rotation = cos_sin(pose.angle);
  for (int k = 0; k < count; ++k) {
    core.vertex[k] = pose.position + detail::rotate(rotation, circle_feature(shape, first + k).point);
  }
  // The end faces of the narrow phase, from the same features: a point s, the normal ν, [−w, w] along τ.
  if (count == 2 && face_count(shape) == 4) {
    core.flat_ends = 2;
    for (int e = 0; e < 2; ++e) {
      const Feature face = face_feature(shape, 2 + e);
      core.end_point[e] = pose.position + detail::rotate(rotation, face.point);
      core.end_normal[e] = detail::rotate(rotation, face.normal);
      core.end_half_width = face.upper;
    }
  }
  return core;
}

/// The cores of a shape: one, or one point per spoke tip of a wheel.
int core_count(const Shape& shape) { return shape.type == Shape::Type::Wheel ? shape.spokes : 1; }
PlacedCore core_of(const Shape& shape, const Pose& pose, int k) {
  if (shape.type == Shape::Type::Wheel) return place_core(shape, pose, k, 1);
  return place_core(shape, pose, 0, circle_count(shape));
}

double cross(const Vec2& a, const Vec2& b) { return a.x() * b.y() - a.y() * b.x(); }

/// Distance from p to the segment [a, b] (a point when a = b).
double point_segment_distance(const Vec2& p, const Vec2& a, const Vec2& b) {
  const Vec2 ab = b - a;
  const double length2 = ab.squaredNorm();
  const double t = length2 > 0.0 ? std::clamp((p - a).dot(ab) / length2, 0.0, 1.0) : 0.0;
  return (p - (a + t * ab)).norm();
}

/// Distance between the segments [a, b] and [c, d]: 0 when they cross, else the least of the four
/// end-to-segment distances.
double segment_distance(const Vec2& a, const Vec2& b, const Vec2& c, const Vec2& d) {
  const double c_side = cross(b - a, c - a), d_side = cross(b - a, d - a);
  const double a_side = cross(d - c, a - c), b_side = cross(d - c, b - c);
  if (((c_side < 0.0 && d_side > 0.0) || (c_side > 0.0 && d_side < 0.0)) &&
      ((a_side < 0.0 && b_side > 0.0) || (a_side > 0.0 && b_side < 0.0))) {
    return 0.0;
  }
  return std::min({point_segment_distance(a, c, d), point_segment_distance(b, c, d), point_segment_distance(c, a, b),
                   point_segment_distance(d, a, b)});
}

/// The least distance from a vertex of radius 0 of either core to a flat end of the other that it lies in
/// front of, its foot strictly within the end's width (+∞ when there is none): a point, a corner, a wheel's
/// tip or another thin rod's end that arrives within w of a thin rod's axis meets its end face there, as
/// in the narrow phase, not the end point. One beside the end face (on its line, or beyond its width)
/// meets the segment; a rounded circle meets the end point.
double flat_end_distance(const PlacedCore& a, const PlacedCore& b) {
  double best = kInfinity;
  for (const PlacedCore* ends : {&a, &b}) {
    const PlacedCore& vertices = ends == &a ? b : a;
    if (vertices.radius != 0.0) continue;
    for (int e = 0; e < ends->flat_ends; ++e) {
      const Vec2& normal = ends->end_normal[e];
      for (int k = 0; k < vertices.count; ++k) {
        const Vec2 offset = vertices.vertex[k] - ends->end_point[e];
        const double height = normal.dot(offset), foot = detail::perp(normal).dot(offset);
        if (height >= 0.0 && std::abs(foot) < ends->end_half_width) best = std::min(best, height);
      }
    }
  }
  return best;
}

/// Whether p lies in the closed rectangle `core` (four vertices counter-clockwise).
bool inside_rectangle(const Vec2& p, const PlacedCore& core) {
  for (int k = 0; k < 4; ++k) {
    if (cross(core.at(k + 1) - core.at(k), p - core.at(k)) < 0.0) return false;
  }
  return true;
}

/// The least distance between the boundaries of two cores (0 when they meet).
double boundary_distance(const PlacedCore& a, const PlacedCore& b) {
  double best = kInfinity;
  for (int i = 0; i < a.edges(); ++i) {
    for (int j = 0; j < b.edges(); ++j) {
      best = std::min(best, segment_distance(a.at(i), a.at(i + 1), b.at(j), b.at(j + 1)));
    }
  }
  return best;
}

/// The overlap of the projections of two cores on `axis`.
double overlap_on(const Vec2& axis, const PlacedCore& a, const PlacedCore& b) {
  double min_a = kInfinity, max_a = -kInfinity, min_b = kInfinity, max_b = -kInfinity;
  for (int k = 0; k < a.count; ++k) {
    min_a = std::min(min_a, axis.dot(a.vertex[k]));
    max_a = std::max(max_a, axis.dot(a.vertex[k]));
  }
  for (int k = 0; k < b.count; ++k) {
    min_b = std::min(min_b, axis.dot(b.vertex[k]));
    max_b = std::max(max_b, axis.dot(b.vertex[k]));
  }
  return std::min(max_a - min_b, max_b - min_a);
}

/// The least translation that takes two meeting cores apart: the smallest overlap on the edge normals of
/// both (two of a rectangle's, the one of a segment); 0 for two points.
double penetration_depth(const PlacedCore& a, const PlacedCore& b) {
  double depth = kInfinity;
  for (const PlacedCore* core : {&a, &b}) {
    const int axes = core->count == 4 ? 2 : core->count - 1;
    for (int k = 0; k < axes; ++k) {
      const Vec2 edge = core->at(k + 1) - core->at(k);
      const double length = edge.norm();
      if (!(length > 0.0)) continue;
      depth = std::min(depth, overlap_on(detail::perp(edge) / length, a, b));
    }
  }
  return depth == kInfinity ? 0.0 : std::max(depth, 0.0);
}

/// The signed distance between two rounded cores.
double core_signed_distance(const PlacedCore& a, const PlacedCore& b) {
  if (a.count == 1 && b.count == 1 && a.radius == 0.0 && b.radius == 0.0) return kInfinity;
  const double apart = std::min(boundary_distance(a, b), flat_end_distance(a, b));
  const bool contained = (a.count == 4 && inside_rectangle(b.vertex[0], a)) ||
                         (b.count == 4 && inside_rectangle(a.vertex[0], b));
  const double core_distance = apart > 0.0 && !contained ? apart : -penetration_depth(a, b);
  return core_distance - (a.radius + b.radius);  // the same bits whichever core comes first
}

}  // namespace

double shape_signed_distance(const Shape& a, const Pose& pose_a, const Shape& b, const Pose& pose_b) {
  double best = kInfinity;
  for (int i = 0; i < core_count(a); ++i) {
    const PlacedCore core_a = core_of(a, pose_a, i);
    for (int j = 0; j < core_count(b); ++j) best = std::min(best, core_signed_distance(core_a, core_of(b, pose_b, j)));
  }
  return best;
}

double shape_plane_signed_distance(const Shape& shape, const Pose& pose, const PlaneDef& plane) {
  const Vec2 normal = plane.normal / plane.normal.norm();
  const CosSin rotation = cos_sin(pose.angle);
  double best = kInfinity;
  for (int k = 0; k < circle_count(shape); ++k) {
    const Feature circle = circle_feature(shape, k);
    const Vec2 centre = pose.position + detail::rotate(rotation, circle.point);
    best = std::min(best, normal.dot(centre - plane.point) - circle.radius);
  }
  return best;
}

double thin_rods_common_length(const Shape& a, const Pose& pose_a, const Shape& b, const Pose& pose_b,
                               double tolerance) {
  const auto thin_rod = [](const Shape& s) { return s.type == Shape::Type::Rod && s.radius == 0.0; };
  if (!thin_rod(a) || !thin_rod(b)) return 0.0;
  const PlacedCore rod_a = place_core(a, pose_a, 0, 2), rod_b = place_core(b, pose_b, 0, 2);
  // Each end of either rod within the tolerance of the other's line.
  const auto near_line = [tolerance](const PlacedCore& line, const PlacedCore& ends) {
    const Vec2 along = (line.vertex[1] - line.vertex[0]).normalized();
    return std::abs(cross(along, ends.vertex[0] - line.vertex[0])) <= tolerance &&
           std::abs(cross(along, ends.vertex[1] - line.vertex[0])) <= tolerance;
  };
  if (!near_line(rod_a, rod_b) || !near_line(rod_b, rod_a)) return 0.0;
  // The common part of the two intervals along A's line.
  const Vec2 along = (rod_a.vertex[1] - rod_a.vertex[0]).normalized();
  const double a_end = along.dot(rod_a.vertex[1] - rod_a.vertex[0]);
  const double b0 = along.dot(rod_b.vertex[0] - rod_a.vertex[0]), b1 = along.dot(rod_b.vertex[1] - rod_a.vertex[0]);
  const double common = std::min(a_end, std::max(b0, b1)) - std::max(0.0, std::min(b0, b1));
  return common > tolerance ? common : 0.0;
}

}  // namespace oblique
