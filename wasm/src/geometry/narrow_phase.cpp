#include "oblique/geometry/narrow_phase.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "math/checks.hpp"
#include "math/thread_local_storage.hpp"
#include "model/rigid_points.hpp"

namespace oblique {

using detail::fail;
using detail::rotate;

namespace {

/// Relative tolerances of the feature choice, as fractions of the two shapes' sizes: a foot within 1e-9 of
/// a face's end is at the end; a candidate within 1e-9 of the cores' distance measures that distance.
constexpr double kFootTolerance = 1e-9;
constexpr double kDistanceTolerance = 1e-9;

using Core = ShapeCore;

/// Fills `core` with the core of a shape (not a wheel) at a placed pose; `circles` lists which of its
/// circles from `first_circle`, for a wheel's single tip.
void make_core(int body, const Shape& shape, const PlacedPose& pose, int first_circle, int circles, Core& core) {
  core.body = body;
  core.pose = pose;
  core.count = circles;
  core.faces = circles >= 2 ? face_count(shape) : 0;
  core.radius = rounding_radius(shape);
  const CosSin& rotation = pose.rotation;
  double extent = 0.0;
  for (int k = 0; k < circles; ++k) {
    core.circle[k] = circle_feature(shape, first_circle + k);
    core.vertex[k] = pose.pose.position + rotate(rotation, core.circle[k].point);
    extent = std::max(extent, core.circle[k].point.norm());
  }
  core.size = extent + core.radius;
  for (int k = 0; k < core.faces; ++k) {
    const Feature& f = core.face[k] = face_feature(shape, k);
    core.normal[k] = rotate(rotation, f.normal);
    core.tangent[k] = detail::perp(core.normal[k]);
    core.origin[k] = pose.pose.position + rotate(rotation, Vec2(f.point - f.radius * f.normal));
    core.lower[k] = f.lower;
    core.upper[k] = f.upper;
    // Box face k and rod sides 0 and 1 run from circle k to the next; a thin rod's ends are faces 2 and 3.
    const bool end = shape.type == Shape::Type::Rod && k >= 2;
    core.from[k] = end ? 3 - k : k;
    core.to[k] = end ? 3 - k : (k + 1) % circles;
  }
}

/// The contact points of one call before the margin: feature pairs in the order of the bodies given.
struct PairBuilder {
  const Core& a;
  const Core& b;
  const std::vector<ContactKey>* previous;  ///< the keys of the last call, sorted (may be null)
  std::vector<FeaturePair>& pairs;          ///< the call's pairs; this builder's from `first` on
  std::size_t first;

  /// Whether a key of the last call pairs face k of `core` with a feature of the other body.
  bool found_before(const Core& core, int k) const {
    if (previous == nullptr) return false;
    const int id = kFaceFeatureId + k;
    const auto first = std::lower_bound(previous->begin(), previous->end(), ContactKey{a.body, b.body, -1, -1});
    for (auto key = first; key != previous->end() && key->body_a == a.body && key->body_b == b.body; ++key) {
      if ((&core == &a ? key->feature_a : key->feature_b) == id) return true;
    }
    return false;
  }

  /// Adds (fa on A, fb on B) unless the same features are there already.
  void add(const Feature& fa, const Feature& fb) {
    FeaturePair p;
    p.body_a = a.body;
    p.body_b = b.body;
    p.a = fa;
    p.b = fb;
    const ContactKey key = contact_key(p);
    for (std::size_t i = first; i < pairs.size(); ++i) {
      if (contact_key(pairs[i]) == key) return;
    }
    pairs.push_back(p);
  }
  /// Adds face k of `face_core` against circle j of the other core, in the order of the bodies.
  void add_face_circle(const Core& face_core, int k, int j) {
    if (&face_core == &a) {
      add(a.face[k], b.circle[j]);
    } else {
      add(a.circle[j], b.face[k]);
    }
  }
  void add_circles(int ja, int jb) { add(a.circle[ja], b.circle[jb]); }
};

/// Separation of `other` from face k of `core`: min over its vertices of their height above the face line.
double separation(const Core& core, int k, const Core& other) {
  double separation = std::numeric_limits<double>::infinity();
  for (int j = 0; j < other.count; ++j) separation = std::min(separation, core.height(k, other.vertex[j]));
  return separation;
}

/// The two vertices at the ends of face k, once each (one for an end face).
int face_ends(const Core& core, int k, int (&ends)[2]) {
  ends[0] = core.from[k];
  ends[1] = core.to[k];
  return core.end_face(k) ? 1 : 2;
}

/// Two zero-radius vertices closest to each other, w of `x` and v of `y`: no circle–circle gap can become
/// negative, so the faces of x that end at w and have v in front of them stand in: their pairs measure the
/// distance to the face itself (feature_pair_distance), which reaches zero when v meets w and turns
/// negative when v enters through the face, whichever face it is. A vertex on a face's line (within
/// `tolerance`, as when the two touch) is taken only where the last call found that face: on the line it
/// may as well be leaving the face sideways (a rod's end sliding past another's end; a box stacked flush
/// on another, whose corner lies on the line of the lower box's side and slides along its top) as
/// entering it, and which one only the way it came tells.
/// The faces of one core only: when v goes exactly through w, every such pair reaches zero at once, and
/// three rows or more at one point (y's faces at v against w besides) are dependent but for round-off in
/// their levers, which an impact would amplify into momentum; x's two faces are independent. (The cost:
/// w striking a face of y next to v within the step is found at the next step.)
void vertex_against_vertex(const Core& x, int w, const Core& y, int v, double tolerance, PairBuilder& out) {
  for (int k = 0; k < x.faces; ++k) {
    if (x.from[k] != w && x.to[k] != w) continue;
    const double height = x.height(k, y.vertex[v]);
    if (height > tolerance || (height >= -tolerance && out.found_before(x, k))) out.add_face_circle(x, k, v);
  }
}

/// A circle (one-point core `c`) against a polygon core `poly` (box, rod). Inside a box: the face of least
/// penetration. Otherwise the closest feature of the core: a face whose foot is strictly inside it, or a
/// vertex — a circle–circle pair when a radius makes one (a disk on a rod's axis meets its end circle), the
/// faces at the vertex when both radii are zero (vertex_against_vertex).
void circle_against_polygon(const Core& c, const Core& poly, PairBuilder& out) {
  const Vec2& centre = c.vertex[0];
  const double tolerance = kFootTolerance * (c.size + poly.size);
  // Inside the box (every face's height ≤ 0): the face of largest height, the first on ties.
  if (poly.count == 4) {
    int deepest = 0;
    double highest = -std::numeric_limits<double>::infinity();
    for (int k = 0; k < poly.faces; ++k) {
      const double h = poly.height(k, centre);
      if (h > highest) {
        highest = h;
        deepest = k;
      }
    }
    if (highest <= 0.0) {
      out.add_face_circle(poly, deepest, 0);
      return;
    }
  }
  // The closest point of the core's edges (the sides, not a thin rod's ends), on a side the centre is in
  // front of: a face or one of its ends. A rod's two sides are one segment: when the centre lies on its
  // line (within the tolerance), the side found at the last call, else the upper one.
  double best = std::numeric_limits<double>::infinity();
  int best_face = -1, best_vertex = -1;
  const int on_line_side = out.found_before(poly, 1) ? 1 : out.found_before(poly, 0) ? 0 : 1;
  for (int k = 0; k < poly.faces; ++k) {
    if (poly.end_face(k)) continue;
    const double h = poly.height(k, centre);
    if (h < -tolerance || (poly.count == 2 && h <= tolerance && k != on_line_side)) continue;
    const double u = poly.foot(k, centre);
    const double clamped = std::clamp(u, poly.lower[k], poly.upper[k]);
    const double distance = (centre - (poly.origin[k] + clamped * poly.tangent[k])).norm();
    if (distance < best) {
      best = distance;
      const bool inside = u > poly.lower[k] + tolerance && u < poly.upper[k] - tolerance;
      best_face = inside ? k : -1;
      best_vertex = inside ? -1 : (u - poly.lower[k] < poly.upper[k] - u ? poly.from[k] : poly.to[k]);
    }
  }
  if (best_face >= 0) {
    out.add_face_circle(poly, best_face, 0);
  } else if (c.radius > 0.0 || poly.radius > 0.0) {
    if (&c == &out.a) {
      out.add_circles(0, best_vertex);
    } else {
      out.add_circles(best_vertex, 0);
    }
  } else {
    vertex_against_vertex(poly, best_vertex, c, 0, tolerance, out);
  }
}

/// Whether two cores are strictly apart: some axis (a face normal of either, or the direction of a segment
/// core) separates their projections.
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
    for (int k = 0; k < core->faces; ++k) {
      if (separates(core->normal[k])) return true;
      if (core->count == 2 && separates(core->tangent[k])) return true;
    }
  }
  return false;
}

/// The closest features of two apart cores, by every vertex against every side of the other (a point
/// against a segment, on the side's outer side). Returns the cores' distance; `face_core` is null when the
/// closest features are two vertices (`vertex_a` of A, `vertex_b` of B), else the core whose face `face`
/// is closest to the other's vertex (`vertex_a` or `vertex_b`).
struct ClosestFeatures {
  double distance = std::numeric_limits<double>::infinity();
  const Core* face_core = nullptr;
  int face = -1, vertex_a = -1, vertex_b = -1;
};
ClosestFeatures closest_features(const Core& a, const Core& b) {
  ClosestFeatures best;
  for (const Core* faces : {&a, &b}) {
    const Core& vertices = faces == &a ? b : a;
    for (int k = 0; k < faces->faces; ++k) {
      if (faces->end_face(k)) continue;
      for (int j = 0; j < vertices.count; ++j) {
        const Vec2& p = vertices.vertex[j];
        if (faces->height(k, p) < 0.0) continue;
        const double u = faces->foot(k, p);
        const double clamped = std::clamp(u, faces->lower[k], faces->upper[k]);
        const double distance = (p - (faces->origin[k] + clamped * faces->tangent[k])).norm();
        if (distance < best.distance) {
          best.distance = distance;
          const bool inside = u > faces->lower[k] && u < faces->upper[k];
          const int end = u - faces->lower[k] < faces->upper[k] - u ? faces->from[k] : faces->to[k];
          best.face_core = inside ? faces : nullptr;
          best.face = inside ? k : -1;
          best.vertex_a = faces == &a ? (inside ? -1 : end) : j;
          best.vertex_b = faces == &a ? j : (inside ? -1 : end);
        }
      }
    }
  }
  return best;
}

/// Two polygon cores (box–box, box–rod, rod–rod). Separating axes over the faces of both (a thin rod's end
/// faces give the axis of the segment, which separates two rods end to end): the face of largest
/// separation is the reference face (A's on ties), the other core's face most opposed to it the incident
/// face. The candidates:
///   - the incident face's end vertices against the reference face, when their foot lies within it (a
///     corner on a face; a thin rod's end on a face or on an end face);
///   - the reference face's end vertices against the incident face, when their foot lies strictly inside
///     it and they are no deeper behind it than the cores' separation: the other end of the overlap of two
///     flush faces. (Without that bound, a box pressed on a thin rod's end would give its far corner,
///     behind the rod's side line, as a contact 5 cm deep.)
/// When the cores are apart and no candidate measures their distance, their closest features are added:
/// a vertex against a face, two circles (a radius makes their gap signed), or two zero-radius vertices
/// (vertex_against_vertex: box corners meeting, a thin rod's end meeting a corner off its axis).
void polygon_against_polygon(const Core& a, const Core& b, double margin, PairBuilder& out) {
  // The separation of every face that is an axis (−∞ for one that is not).
  double separations[2][4];
  double best = -std::numeric_limits<double>::infinity();
  bool reference_on_a = true;
  int reference_face = 0;
  for (int side = 0; side < 2; ++side) {
    const Core& core = side == 0 ? a : b;
    const Core& other = side == 0 ? b : a;
    for (int k = 0; k < core.faces; ++k) separations[side][k] = separation(core, k, other);
    // A thin rod's sides say nothing of a core that lies on its line beyond its ends (another rod end to
    // end): both are at separation 0 whatever the ends do, so only its end faces are axes then.
    const double width = core.thin() ? core.upper[2] : 0.0;
    if (core.thin() && std::min(separations[side][0], separations[side][1]) >= -width &&
        std::max(separations[side][2], separations[side][3]) >= -width) {
      separations[side][0] = separations[side][1] = -std::numeric_limits<double>::infinity();
    }
    for (int k = 0; k < core.faces; ++k) {
      if (separations[side][k] > best) {
        best = separations[side][k];
        reference_on_a = side == 0;
        reference_face = k;
      }
    }
  }
  if (best - a.radius - b.radius > margin) return;
  const double tolerance = kFootTolerance * (a.size + b.size);
  // Separations that tie to within the tolerance (a thin rod lying on a thin rod ties its two sides
  // exactly; flush faces and corners meeting tie to round-off): the reference face found at the last
  // call, so that a resting contact keeps its side; else a face other than a thin rod's side, whose
  // separation 0 may only mean that a vertex lies on its line beyond its end; else the largest.
  int rank = 3;
  for (int side = 0; side < 2; ++side) {
    const Core& core = side == 0 ? a : b;
    for (int k = 0; k < core.faces; ++k) {
      if (!(separations[side][k] >= best - tolerance)) continue;
      const bool thin_side = core.thin() && k < 2;
      const int r = out.found_before(core, k) ? 0 : !thin_side ? 1 : 2;
      if (r < rank) {
        rank = r;
        reference_on_a = side == 0;
        reference_face = k;
      }
    }
  }
  const Core& reference = reference_on_a ? a : b;
  const Core& incident = reference_on_a ? b : a;
  const Vec2& reference_normal = reference.normal[reference_face];
  int incident_face = 0;
  double most_opposed = std::numeric_limits<double>::infinity();
  for (int k = 0; k < incident.faces; ++k) {
    const double alignment = incident.normal[k].dot(reference_normal);
    if (alignment < most_opposed) {
      most_opposed = alignment;
      incident_face = k;
    }
  }

  // The incident face's ends against the reference face: the foot within the closed face (an end face's
  // width is its own tolerance).
  int ends[2];
  const double slack = reference.end_face(reference_face) ? 0.0 : tolerance;
  for (int e = 0, n = face_ends(incident, incident_face, ends); e < n; ++e) {
    const double u = reference.foot(reference_face, incident.vertex[ends[e]]);
    if (u >= reference.lower[reference_face] - slack && u <= reference.upper[reference_face] + slack) {
      out.add_face_circle(reference, reference_face, ends[e]);
    }
  }
  // The reference face's ends against the incident face: the foot strictly inside (so that coincident
  // corners of flush faces count once), no deeper than the separation. Not against an end face: two ends
  // meeting are one contact, found above.
  const int reference_ends = incident.end_face(incident_face) ? 0 : face_ends(reference, reference_face, ends);
  for (int e = 0; e < reference_ends; ++e) {
    const Vec2& p = reference.vertex[ends[e]];
    const double u = incident.foot(incident_face, p);
    if (u > incident.lower[incident_face] + tolerance && u < incident.upper[incident_face] - tolerance &&
        incident.height(incident_face, p) >= best - tolerance) {
      out.add_face_circle(incident, incident_face, ends[e]);
    }
  }
  // A thin rod flush with a face (another thin rod's side, a box's face): the ends of either face beyond
  // the other too (emit keeps those within the margin; one at the face's end is an end of the other,
  // counted once above). A rod's side has no inside: an end that crosses it near its end and slides past
  // that end within the step is beside the rod again at the step's end, its pair's distance positive, and
  // the crossing is seen only by the end that slid onto the face behind it. Faces that slide along each
  // other as they meet need all four ends (rods on the diagonal, coincident when they meet; a box sliding
  // onto a rod's end; every scene near them).
  if ((a.thin() || b.thin()) && !reference.end_face(reference_face) && !incident.end_face(incident_face) &&
      1.0 + incident.normal[incident_face].dot(reference_normal) <= kFootTolerance) {
    const auto beyond = [tolerance](const Core& core, int k, const Vec2& p) {
      const double u = core.foot(k, p);
      return u < core.lower[k] - tolerance || u > core.upper[k] + tolerance;
    };
    for (int e = 0, n = face_ends(incident, incident_face, ends); e < n; ++e) {
      if (beyond(reference, reference_face, incident.vertex[ends[e]])) out.add_face_circle(reference, reference_face, ends[e]);
    }
    for (int e = 0, n = face_ends(reference, reference_face, ends); e < n; ++e) {
      if (beyond(incident, incident_face, reference.vertex[ends[e]])) out.add_face_circle(incident, incident_face, ends[e]);
    }
  }

  // Two zero-radius vertices that touch: at that instant every face ending at the reference core's one
  // may be the face the other goes through (the separations tie to round-off): all of them.
  if (a.radius == 0.0 && b.radius == 0.0) {
    for (int i = 0; i < a.count; ++i) {
      for (int j = 0; j < b.count; ++j) {
        if ((a.vertex[i] - b.vertex[j]).norm() > tolerance) continue;
        if (reference_on_a) {
          vertex_against_vertex(a, i, b, j, tolerance, out);
        } else {
          vertex_against_vertex(b, j, a, i, tolerance, out);
        }
      }
    }
  }
  // Apart cores whose closest features are not among the candidates: add them.
  if (!cores_apart(a, b)) return;
  const ClosestFeatures closest = closest_features(a, b);
  if (!std::isfinite(closest.distance)) return;
  const double measured = closest.distance - a.radius - b.radius + kDistanceTolerance * (a.size + b.size);
  for (std::size_t i = out.first; i < out.pairs.size(); ++i) {
    if (feature_pair_distance(out.pairs[i], a.pose, b.pose) <= measured) return;
  }
  if (closest.face_core != nullptr) {
    out.add_face_circle(*closest.face_core, closest.face, closest.face_core == &a ? closest.vertex_b : closest.vertex_a);
  } else if (a.radius > 0.0 || b.radius > 0.0) {
    out.add_circles(closest.vertex_a, closest.vertex_b);
  } else {
    if (reference_on_a) {
      vertex_against_vertex(a, closest.vertex_a, b, closest.vertex_b, tolerance, out);
    } else {
      vertex_against_vertex(b, closest.vertex_b, a, closest.vertex_a, tolerance, out);
    }
  }
}

/// The contact pairs of two cores, by their kinds.
void collide_cores(const Core& a, const Core& b, double margin, PairBuilder& out) {
  if (a.count == 1 && b.count == 1) {
    // Two zero-radius points never touch detectably; otherwise circle–circle.
    if (a.radius > 0.0 || b.radius > 0.0) out.add_circles(0, 0);
  } else if (a.count == 1) {
    circle_against_polygon(a, b, out);
  } else if (b.count == 1) {
    circle_against_polygon(b, a, out);
  } else {
    polygon_against_polygon(a, b, margin, out);
  }
}

/// Appends to `out` the pairs whose distance (feature_pair_distance) is within the margin, in key order,
/// each with that distance as its gap, and with its frame when `frames` (else the frame's other fields
/// are left as they are).
void emit(const std::vector<FeaturePair>& pairs, const PlacedPose& pose_a, const PlacedPose& pose_b, double margin,
          std::vector<ContactCandidate>& out, bool frames) {
  const std::size_t first = out.size();
  for (const FeaturePair& pair : pairs) {
    const double gap = feature_pair_distance(pair, pose_a, pose_b);
    if (!(gap <= margin)) continue;
    ContactCandidate candidate{pair, contact_key(pair), {}};
    if (frames) candidate.frame = feature_pair_frame(pair, pose_a, pose_b);
    candidate.frame.gap = gap;
    out.push_back(candidate);
  }
  std::sort(out.begin() + static_cast<std::ptrdiff_t>(first), out.end(),
            [](const ContactCandidate& x, const ContactCandidate& y) { return x.key < y.key; });
}

/// The feature pairs of one call, kept from call to call so that the narrow phase does not allocate.
std::vector<FeaturePair>& pair_buffer() {
  static OBLIQUE_THREAD_LOCAL std::vector<FeaturePair> pairs;
  return pairs;
}

// --- input checks ---------------------------------------------------------------------------------------

/// `field` + `key` names the number checked (built only when it fails).
void check_positive(double x, const std::string& field, const char* key) {
  if (!std::isfinite(x)) fail(field + key, "must be a finite number");
  if (!(x > 0.0)) fail(field + key, "must be positive, got " + detail::format_number(x));
}

void check_contact_shape(const Shape& shape, const std::string& field) {
  switch (shape.type) {
    case Shape::Type::Disk:
      check_positive(shape.radius, field, ".radius");
      break;
    case Shape::Type::Point:
      break;  // its radius is drawn only: it touches with its centre
    case Shape::Type::Box:
      check_positive(shape.width, field, ".width");
      check_positive(shape.height, field, ".height");
      break;
    case Shape::Type::Rod:
      check_positive(shape.length, field, ".length");
      if (!std::isfinite(shape.radius) || shape.radius < 0.0) fail(field + ".radius", "must be a finite number ≥ 0");
      break;
    case Shape::Type::Wheel:
      check_positive(shape.radius, field, ".radius");
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

void PlacedShape::place(int body, const Shape& shape, const Pose& pose) {
  body_ = body;
  pose_ = placed_pose(pose);
  // One core, or one per spoke tip of a wheel.
  const bool wheel = shape.type == Shape::Type::Wheel;
  cores_.resize(static_cast<std::size_t>(wheel ? shape.spokes : 1));
  if (!wheel) {
    make_core(body, shape, pose_, 0, circle_count(shape), cores_[0]);
    return;
  }
  for (int k = 0; k < shape.spokes; ++k) make_core(body, shape, pose_, k, 1, cores_[static_cast<std::size_t>(k)]);
}

bool PlacedShape::placed_at(int body, const Pose& pose) const {
  // The same bits: a placement is a function of the body and the pose's three numbers.
  return body == body_ && !cores_.empty() && std::memcmp(&pose.position.x(), &pose_.pose.position.x(), sizeof(double)) == 0 &&
         std::memcmp(&pose.position.y(), &pose_.pose.position.y(), sizeof(double)) == 0 &&
         std::memcmp(&pose.angle, &pose_.pose.angle, sizeof(double)) == 0;
}

void collide_placed(const PlacedShape& a, const PlacedShape& b, double margin, std::vector<ContactCandidate>& out,
                    const std::vector<ContactKey>* previous, bool frames) {
  // Every core of A (one, or a wheel's tips) against every core of B.
  std::vector<FeaturePair>& pairs = pair_buffer();
  pairs.clear();
  for (const Core& core_a : a.cores()) {
    for (const Core& core_b : b.cores()) {
      PairBuilder builder{core_a, core_b, previous, pairs, pairs.size()};
      collide_cores(core_a, core_b, margin, builder);
    }
  }
  emit(pairs, a.pose(), b.pose(), margin, out, frames);
}

void collide_shapes(int body_a, const Shape& shape_a, const Pose& pose_a, int body_b, const Shape& shape_b,
                    const Pose& pose_b, double margin, std::vector<ContactCandidate>& out,
                    const std::vector<ContactKey>* previous) {
  check_margin(margin);
  if (body_a < 0) fail("body_a", "must be a body index, got " + std::to_string(body_a));
  if (body_b < 0) fail("body_b", "must be a body index, got " + std::to_string(body_b));
  if (body_a == body_b) fail("body_b", "must differ from body_a");
  check_pose(pose_a, "pose_a");
  check_pose(pose_b, "pose_b");
  check_contact_shape(shape_a, "shape_a");
  check_contact_shape(shape_b, "shape_b");
  PlacedShape a, b;
  a.place(body_a, shape_a, pose_a);
  b.place(body_b, shape_b, pose_b);
  collide_placed(a, b, margin, out, previous, true);
}

void collide_placed_plane(int plane_index, const Feature& plane_face, const PlacedShape& shape, double margin,
                          std::vector<ContactCandidate>& out) {
  // Every circle of the shape (its cores' vertices, in order) against the plane, a face of the world.
  std::vector<FeaturePair>& pairs = pair_buffer();
  pairs.clear();
  for (const Core& core : shape.cores()) {
    for (int k = 0; k < core.count; ++k) {
      FeaturePair pair;
      pair.body_a = kWorld;
      pair.a = plane_face;
      pair.a.index = plane_index;
      pair.body_b = shape.body();
      pair.b = core.circle[k];
      pairs.push_back(pair);
    }
  }
  emit(pairs, placed_pose(Pose{}), shape.pose(), margin, out, true);
}

void collide_shape_plane(int plane_index, const PlaneDef& plane, int body, const Shape& shape, const Pose& pose,
                         double margin, std::vector<ContactCandidate>& out) {
  check_margin(margin);
  if (body < 0) fail("body", "must be a body index, got " + std::to_string(body));
  check_pose(pose, "pose");
  if (!plane.point.allFinite()) fail("plane.point", "must be finite numbers");
  if (!plane.normal.allFinite() || !(plane.normal.norm() > 1e-12)) fail("plane.normal", "must be a non-zero vector");
  check_contact_shape(shape, "shape");
  PlacedShape placed;
  placed.place(body, shape, pose);
  collide_placed_plane(plane_index, plane_feature(plane, plane_index), placed, margin, out);
}

}  // namespace oblique
