#include "oblique/narrow_phase.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "checks.hpp"
#include "rigid_points.hpp"

namespace oblique {

using detail::fail;
using detail::rotate;

namespace {

/// Relative tolerances of the feature choice: a foot within 1e-9 of a face's length of its end is at the
/// end; a candidate within 1e-9 of the shapes' size of the cores' distance measures that distance.
constexpr double kFootTolerance = 1e-9;
constexpr double kDistanceTolerance = 1e-9;

/// A shape's convex core at a pose: its circles (the core's vertices, in order) and faces (the edges from
/// circle k to circle k + 1), in the body frame and placed in the world.
struct Core {
  int body = kWorld;
  Pose pose;
  int count = 0;         ///< vertices: 1 (disk, point, a wheel's tip), 2 (rod) or 4 (box); faces: 0, 2, 4
  double radius = 0.0;   ///< ρ of every circle
  double size = 0.0;     ///< half the largest extent of the core plus ρ, for relative tolerances
  Feature circle[4];
  Feature face[4];
  Vec2 vertex[4];        ///< world centres of the circles
  Vec2 normal[4];        ///< world outward normals of the faces

  int faces() const { return count >= 2 ? count : 0; }
  int next(int k) const { return (k + 1) % count; }
};

/// The core of a shape (not a wheel); `circles` lists which of its circles, for a wheel's single tip.
Core make_core(int body, const Shape& shape, const Pose& pose, int first_circle, int circles) {
  Core core;
  core.body = body;
  core.pose = pose;
  core.count = circles;
  core.radius = rounding_radius(shape);
  const CosSin rotation = cos_sin(pose.angle);
  double extent = 0.0;
  for (int k = 0; k < circles; ++k) {
    core.circle[k] = circle_feature(shape, first_circle + k);
    core.vertex[k] = pose.position + rotate(rotation, core.circle[k].point);
    extent = std::max(extent, core.circle[k].point.norm());
  }
  core.size = extent + core.radius;
  for (int k = 0; k < core.faces(); ++k) {
    core.face[k] = face_feature(shape, k);
    core.normal[k] = rotate(rotation, core.face[k].normal);
  }
  return core;
}

/// The contact points of one call before the margin: feature pairs in the order of the bodies given.
struct PairBuilder {
  const Core& a;
  const Core& b;
  std::vector<FeaturePair> pairs;

  void add(const Feature& fa, const Feature& fb) {
    FeaturePair p;
    p.body_a = a.body;
    p.body_b = b.body;
    p.a = fa;
    p.b = fb;
    pairs.push_back(p);
  }
};

/// Largest separation of `other`'s vertices from the faces of `core`: max over faces k of
/// min over vertices j of n_k·(v_j − vertex k); the face is returned in `face` (the first on ties).
double max_separation(const Core& core, const Core& other, int& face) {
  double best = -std::numeric_limits<double>::infinity();
  face = 0;
  for (int k = 0; k < core.faces(); ++k) {
    double separation = std::numeric_limits<double>::infinity();
    for (int j = 0; j < other.count; ++j) {
      separation = std::min(separation, core.normal[k].dot(other.vertex[j] - core.vertex[k]));
    }
    if (separation > best) {
      best = separation;
      face = k;
    }
  }
  return best;
}

/// Coordinate of the foot of `p` on face k of `core`, as a fraction of the edge from vertex k (0) to vertex
/// k + 1 (1).
double edge_fraction(const Core& core, int k, const Vec2& p) {
  const Vec2 edge = core.vertex[core.next(k)] - core.vertex[k];
  return (p - core.vertex[k]).dot(edge) / edge.squaredNorm();
}

/// A circle (one-point core `c`) against a polygon core `poly`: one feature pair. The face of largest
/// separation if the centre is inside the core or its foot lies within that face; else the end circle of
/// that face next to the foot (the closest point of a convex polygon to a point outside it).
void circle_against_polygon(const Core& c, const Core& poly, bool circle_is_a, PairBuilder& out) {
  int k = 0;
  const double separation = max_separation(poly, c, k);
  const Feature* feature = &poly.face[k];
  if (separation > 0.0) {
    const double u = edge_fraction(poly, k, c.vertex[0]);
    if (u < 0.0) feature = &poly.circle[k];
    if (u > 1.0) feature = &poly.circle[poly.next(k)];
  }
  if (circle_is_a) {
    out.add(c.circle[0], *feature);
  } else {
    out.add(*feature, c.circle[0]);
  }
}

/// Whether two cores are strictly apart: some axis (a face normal of either, or the direction of a segment
/// core, whose end faces have no length) separates their projections.
bool cores_apart(const Core& a, const Core& b) {
  auto separates = [&](const Vec2& axis) {
    double min_a = std::numeric_limits<double>::infinity(), max_a = -min_a;
    double min_b = min_a, max_b = -min_a;
    for (int j = 0; j < a.count; ++j) {
      min_a = std::min(min_a, axis.dot(a.vertex[j]));
      max_a = std::max(max_a, axis.dot(a.vertex[j]));
    }
    for (int j = 0; j < b.count; ++j) {
      min_b = std::min(min_b, axis.dot(b.vertex[j]));
      max_b = std::max(max_b, axis.dot(b.vertex[j]));
    }
    return max_a < min_b || max_b < min_a;
  };
  for (const Core* core : {&a, &b}) {
    for (int k = 0; k < core->faces(); ++k) {
      if (separates(core->normal[k])) return true;
      if (core->count == 2 && separates(detail::perp(core->normal[k]))) return true;
    }
  }
  return false;
}

/// The closest features of two apart polygon cores, by every vertex against every face of the other (a
/// point against a segment, on the face's outer side): a circle–face pair when the foot lies inside the
/// face, else the two circles. Returns the cores' distance.
double closest_core_pair(const Core& a, const Core& b, PairBuilder& out) {
  double best = std::numeric_limits<double>::infinity();
  const Core* vertex_core = nullptr;
  int best_vertex = 0, best_face = 0;
  double best_fraction = 0.0;
  for (const Core* faces : {&a, &b}) {
    const Core* vertices = faces == &a ? &b : &a;
    for (int k = 0; k < faces->faces(); ++k) {
      for (int j = 0; j < vertices->count; ++j) {
        const Vec2& p = vertices->vertex[j];
        if (faces->normal[k].dot(p - faces->vertex[k]) < 0.0) continue;
        const double u = std::clamp(edge_fraction(*faces, k, p), 0.0, 1.0);
        const Vec2 foot = faces->vertex[k] + u * (faces->vertex[faces->next(k)] - faces->vertex[k]);
        const double distance = (p - foot).norm();
        if (distance < best) {
          best = distance;
          vertex_core = vertices;
          best_vertex = j;
          best_face = k;
          best_fraction = u;
        }
      }
    }
  }
  if (vertex_core == nullptr) return best;
  const Core& faces = vertex_core == &a ? b : a;
  const Feature& circle = vertex_core->circle[best_vertex];
  const Feature& other = best_fraction > 0.0 && best_fraction < 1.0
                             ? faces.face[best_face]
                             : faces.circle[best_fraction <= 0.0 ? best_face : faces.next(best_face)];
  if (vertex_core == &a) {
    out.add(circle, other);
  } else {
    out.add(other, circle);
  }
  return best;
}

/// Two polygon cores (box–box, box–rod, rod–rod): reference and incident faces by separating axes, their
/// end circles against each other's face when the foot lies within it, and the closest pair of apart cores
/// when no candidate measures their distance.
void polygon_against_polygon(const Core& a, const Core& b, double margin, PairBuilder& out) {
  int face_a = 0, face_b = 0;
  const double separation_a = max_separation(a, b, face_a);
  const double separation_b = max_separation(b, a, face_b);
  if (std::max(separation_a, separation_b) - a.radius - b.radius > margin) return;

  // The reference face has the larger separation (A's on ties); the incident face is the other shape's face
  // most opposed to it. The candidates below depend only on this pair of faces, not on which is which.
  const bool reference_on_a = separation_a >= separation_b;
  const Core& reference = reference_on_a ? a : b;
  const Core& incident = reference_on_a ? b : a;
  const Vec2& reference_normal = reference.normal[reference_on_a ? face_a : face_b];
  int incident_face = 0;
  double most_opposed = std::numeric_limits<double>::infinity();
  for (int k = 0; k < incident.faces(); ++k) {
    const double alignment = incident.normal[k].dot(reference_normal);
    if (alignment < most_opposed) {
      most_opposed = alignment;
      incident_face = k;
    }
  }
  if (reference_on_a) {
    face_b = incident_face;
  } else {
    face_a = incident_face;
  }

  // B's end circles against A's face (foot within the closed face), A's end circles against B's face
  // (foot strictly inside, so that coincident corners of flush faces count once).
  const std::size_t first = out.pairs.size();
  for (int end = 0; end < 2; ++end) {
    const int j = end == 0 ? face_b : b.next(face_b);
    const double u = edge_fraction(a, face_a, b.vertex[j]);
    if (u >= -kFootTolerance && u <= 1.0 + kFootTolerance) out.add(a.face[face_a], b.circle[j]);
  }
  for (int end = 0; end < 2; ++end) {
    const int j = end == 0 ? face_a : a.next(face_a);
    const double u = edge_fraction(b, face_b, a.vertex[j]);
    if (u > kFootTolerance && u < 1.0 - kFootTolerance) out.add(a.circle[j], b.face[face_b]);
  }

  // Apart cores whose closest features are not among the candidates (two corners, two rod ends end to
  // end): add the closest pair.
  if (!cores_apart(a, b)) return;
  PairBuilder closest{a, b, {}};
  const double distance = closest_core_pair(a, b, closest);
  if (closest.pairs.empty()) return;
  const double tolerance = kDistanceTolerance * (a.size + b.size);
  for (std::size_t i = first; i < out.pairs.size(); ++i) {
    const double gap = feature_pair_gap(out.pairs[i], a.pose, b.pose);
    if (gap <= distance - a.radius - b.radius + tolerance) return;
  }
  const ContactKey key = contact_key(closest.pairs[0]);
  for (std::size_t i = first; i < out.pairs.size(); ++i) {
    if (contact_key(out.pairs[i]) == key) return;
  }
  out.pairs.push_back(closest.pairs[0]);
}

/// The contact pairs of two cores, by their kinds.
void collide_cores(const Core& a, const Core& b, double margin, PairBuilder& out) {
  if (a.count == 1 && b.count == 1) {
    // Two zero-radius points never touch detectably; otherwise circle–circle.
    if (a.radius > 0.0 || b.radius > 0.0) out.add(a.circle[0], b.circle[0]);
  } else if (a.count == 1) {
    circle_against_polygon(a, b, true, out);
  } else if (b.count == 1) {
    circle_against_polygon(b, a, false, out);
  } else {
    polygon_against_polygon(a, b, margin, out);
  }
}

/// The cores of a shape: one, or one per spoke tip of a wheel.
std::vector<Core> cores_of(int body, const Shape& shape, const Pose& pose) {
  if (shape.type != Shape::Type::Wheel) return {make_core(body, shape, pose, 0, circle_count(shape))};
  std::vector<Core> tips;
  for (int k = 0; k < shape.spokes; ++k) tips.push_back(make_core(body, shape, pose, k, 1));
  return tips;
}

/// Frames of the pairs, those within the margin appended to `out` in key order.
void emit(const std::vector<FeaturePair>& pairs, const Pose& pose_a, const Pose& pose_b, double margin,
          std::vector<ContactCandidate>& out) {
  const std::size_t first = out.size();
  for (const FeaturePair& pair : pairs) {
    const ContactFrame frame = feature_pair_frame(pair, pose_a, pose_b);
    if (frame.gap <= margin) out.push_back(ContactCandidate{pair, contact_key(pair), frame});
  }
  std::sort(out.begin() + static_cast<std::ptrdiff_t>(first), out.end(),
            [](const ContactCandidate& x, const ContactCandidate& y) { return x.key < y.key; });
}

// --- input checks ---------------------------------------------------------------------------------------

void check_positive(double x, const std::string& field) {
  if (!std::isfinite(x)) fail(field, "must be a finite number");
  if (!(x > 0.0)) fail(field, "must be positive, got " + detail::format_number(x));
}

void check_contact_shape(const Shape& shape, const std::string& field) {
  switch (shape.type) {
    case Shape::Type::Disk:
      check_positive(shape.radius, field + ".radius");
      break;
    case Shape::Type::Point:
      break;  // its radius is drawn only: it touches with its centre
    case Shape::Type::Box:
      check_positive(shape.width, field + ".width");
      check_positive(shape.height, field + ".height");
      break;
    case Shape::Type::Rod:
      check_positive(shape.length, field + ".length");
      if (!std::isfinite(shape.radius) || shape.radius < 0.0) fail(field + ".radius", "must be a finite number ≥ 0");
      break;
    case Shape::Type::Wheel:
      check_positive(shape.radius, field + ".radius");
      if (shape.spokes < kMinSpokes || shape.spokes > kMaxSpokes) {
        fail(field + ".spokes", "must be in " + std::to_string(kMinSpokes) + ".." + std::to_string(kMaxSpokes) +
                                    ", got " + std::to_string(shape.spokes));
      }
      break;
  }
}

void check_pose(const Pose& pose, const char* field) {
  if (!pose.position.allFinite() || !std::isfinite(pose.angle)) fail(field, "must be finite numbers");
}

void check_margin(double margin) {
  if (!std::isfinite(margin) || margin < 0.0) fail("margin", "must be a finite number ≥ 0, got " + detail::format_number(margin));
}

}  // namespace

void collide_shapes(int body_a, const Shape& shape_a, const Pose& pose_a, int body_b, const Shape& shape_b,
                    const Pose& pose_b, double margin, std::vector<ContactCandidate>& out) {
  check_margin(margin);
  if (body_a < 0) fail("body_a", "must be a body index, got " + std::to_string(body_a));
  if (body_b < 0) fail("body_b", "must be a body index, got " + std::to_string(body_b));
  if (body_a == body_b) fail("body_b", "must differ from body_a");
  check_pose(pose_a, "pose_a");
  check_pose(pose_b, "pose_b");
  check_contact_shape(shape_a, "shape_a");
  check_contact_shape(shape_b, "shape_b");

  // Every core of A (one, or a wheel's tips) against every core of B.
  const std::vector<Core> cores_a = cores_of(body_a, shape_a, pose_a);
  const std::vector<Core> cores_b = cores_of(body_b, shape_b, pose_b);
  std::vector<FeaturePair> pairs;
  for (const Core& a : cores_a) {
    for (const Core& b : cores_b) {
      PairBuilder builder{a, b, {}};
      collide_cores(a, b, margin, builder);
      pairs.insert(pairs.end(), builder.pairs.begin(), builder.pairs.end());
    }
  }
  emit(pairs, pose_a, pose_b, margin, out);
}

void collide_shape_plane(int plane_index, const PlaneDef& plane, int body, const Shape& shape, const Pose& pose,
                         double margin, std::vector<ContactCandidate>& out) {
  check_margin(margin);
  if (body < 0) fail("body", "must be a body index, got " + std::to_string(body));
  check_pose(pose, "pose");
  if (!plane.point.allFinite()) fail("plane.point", "must be finite numbers");
  if (!plane.normal.allFinite() || !(plane.normal.norm() > 1e-12)) fail("plane.normal", "must be a non-zero vector");
  check_contact_shape(shape, "shape");

  // Every circle of the shape against the plane, a face of the world.
  const Feature face = plane_feature(plane, plane_index);
  std::vector<FeaturePair> pairs;
  for (int k = 0; k < circle_count(shape); ++k) {
    FeaturePair pair;
    pair.body_a = kWorld;
    pair.a = face;
    pair.body_b = body;
    pair.b = circle_feature(shape, k);
    pairs.push_back(pair);
  }
  emit(pairs, Pose{}, pose, margin, out);
}

}  // namespace oblique
