#include "oblique/geometry/contact_geometry.hpp"

#include <cmath>
#include <limits>
#include <string>

#include "math/checks.hpp"
#include "model/rigid_points.hpp"

namespace oblique {

using detail::add_point_row;
using detail::fail;
using detail::perp;
using detail::point_state;
using detail::PointState;
using detail::rotate;
using detail::unit_and_length;
using detail::unit_rate_term;

namespace {

/// A point fixed in a body, placed at a pose.
inline Vec2 place(const PlacedPose& pose, const Vec2& local) {
  return pose.pose.position + rotate(pose.rotation, local);
}

/// The two sides of a circle–face pair, whichever body holds the face.
struct CircleFace {
  int face_body, circle_body;
  const Feature* face;
  const Feature* circle;
  bool face_on_a;  ///< N = n when the face is on A, −n when on B
};

inline bool is_circle_circle(const FeaturePair& pair) {
  return pair.a.kind == Feature::Kind::Circle && pair.b.kind == Feature::Kind::Circle;
}

inline CircleFace circle_face(const FeaturePair& pair) {
  if (pair.a.kind == Feature::Kind::Face) return {pair.body_a, pair.body_b, &pair.a, &pair.b, true};
  return {pair.body_b, pair.body_a, &pair.b, &pair.a, false};
}

/// Face normal n = R_F ν, centre of the circle c and face point p, at the poses.
struct PlacedCircleFace {
  Vec2 normal, centre, face_point;
};

inline PlacedCircleFace placed(const CircleFace& cf, const PlacedPose& face_pose, const PlacedPose& circle_pose) {
  return {rotate(face_pose.rotation, cf.face->normal), place(circle_pose, cf.circle->point),
          place(face_pose, cf.face->point)};
}

void check_number(double x, const std::string& field) {
  if (!std::isfinite(x)) fail(field, "must be a finite number");
}

void check_feature(const Feature& f, const std::string& field) {
  if (!f.point.allFinite()) fail(field + ".point", "must be finite numbers");
  if (f.kind == Feature::Kind::Circle) {
    check_number(f.radius, field + ".radius");
    if (f.radius < 0.0) fail(field + ".radius", "must not be negative, got " + detail::format_number(f.radius));
    return;
  }
  if (!f.normal.allFinite() || std::abs(f.normal.norm() - 1.0) > 1e-9) {
    fail(field + ".normal", "must be a unit vector");
  }
  if (std::isnan(f.lower) || std::isnan(f.upper) || !(f.lower <= f.upper)) {
    fail(field + ".lower", "the extent [lower, upper] must be ordered numbers");
  }
}

}  // namespace

// --- the features of a shape -------------------------------------------------------------------------------

int circle_count(const Shape& shape) {
  switch (shape.type) {
    case Shape::Type::Disk:
    case Shape::Type::Point: return 1;
    case Shape::Type::Box: return 4;
    case Shape::Type::Rod: return 2;
    case Shape::Type::Wheel: return shape.spokes;
  }
  return 0;
}

int face_count(const Shape& shape) {
  switch (shape.type) {
    case Shape::Type::Box: return 4;
    case Shape::Type::Rod: return shape.radius > 0.0 ? 2 : 4;  // a thin rod has its two end faces too
    default: return 0;
  }
}

double rounding_radius(const Shape& shape) {
  return shape.type == Shape::Type::Disk || shape.type == Shape::Type::Rod ? shape.radius : 0.0;
}

Feature circle_feature(const Shape& shape, int k) {
  if (k < 0 || k >= circle_count(shape)) {
    fail("circle", "must be in 0.." + std::to_string(circle_count(shape) - 1) + ", got " + std::to_string(k));
  }
  Feature f;
  f.kind = Feature::Kind::Circle;
  f.index = k;
  f.radius = rounding_radius(shape);
  switch (shape.type) {
    case Shape::Type::Disk:
    case Shape::Type::Point:
      break;
    case Shape::Type::Box: {
      // Counter-clockwise from the lower left corner, as Model's corners against a plane.
      const double w = 0.5 * shape.width, h = 0.5 * shape.height;
      const double x[4] = {-w, w, w, -w}, y[4] = {-h, -h, h, h};
      f.point = Vec2(x[k], y[k]);
      break;
    }
    case Shape::Type::Rod:
      f.point = Vec2(k == 0 ? -0.5 * shape.length : 0.5 * shape.length, 0.0);
      break;
    case Shape::Type::Wheel: {
      // The same expression as Model's spoke tips, so that both give the same bits.
      const CosSin spoke = cos_sin(2.0 * kPi * k / shape.spokes);
      f.point = Vec2(shape.radius * spoke.cos, shape.radius * spoke.sin);
      break;
    }
  }
  return f;
}

Feature face_feature(const Shape& shape, int k) {
  const int faces = face_count(shape);
  if (k < 0 || k >= faces) {
    fail("face", faces == 0 ? std::string("this shape has no face")
                            : "must be in 0.." + std::to_string(faces - 1) + ", got " + std::to_string(k));
  }
  // A thin rod's end faces: at end circle 1 (face 2, ν = +x) and end circle 0 (face 3, ν = −x), the
  // segment's direction, with the half-width kEndFaceHalfWidth × length across it.
  if (shape.type == Shape::Type::Rod && k >= 2) {
    Feature f;
    f.kind = Feature::Kind::Face;
    f.index = k;
    f.normal = Vec2(k == 2 ? 1.0 : -1.0, 0.0);
    f.point = Vec2(0.5 * shape.length * f.normal.x(), 0.0);
    f.upper = kEndFaceHalfWidth * shape.length;
    f.lower = -f.upper;
    return f;
  }
  // Face k runs from circle k to circle k + 1 (a rod's two faces are its segment both ways); its outward
  // normal is ν = −perp(τ) for the direction τ of the edge, and it lies ρ out from the core edge.
  const int count = circle_count(shape);
  const Vec2 from = circle_feature(shape, k).point, to = circle_feature(shape, (k + 1) % count).point;
  const Vec2 edge = to - from;
  const double length = edge.norm();
  const Vec2 tangent = edge / length;
  Feature f;
  f.kind = Feature::Kind::Face;
  f.index = k;
  f.normal = Vec2(tangent.y(), -tangent.x());
  f.radius = rounding_radius(shape);
  f.point = 0.5 * (from + to) + f.radius * f.normal;
  f.lower = -0.5 * length;
  f.upper = 0.5 * length;
  return f;
}

Feature plane_feature(const PlaneDef& plane, int plane_index) {
  Feature f;
  f.kind = Feature::Kind::Face;
  f.index = plane_index;
  f.point = plane.point;
  f.normal = plane.normal.normalized();
  f.lower = -std::numeric_limits<double>::infinity();
  f.upper = std::numeric_limits<double>::infinity();
  return f;
}

Pose pose_of(int body, const Vector& q) {
  if (body == kWorld) return Pose{};
  const int i = 3 * body;
  return Pose{Vec2(q(i), q(i + 1)), q(i + 2)};
}

void check_feature_pair(const FeaturePair& pair, const char* field) {
  const std::string name(field);
  if (pair.body_a < kWorld) fail(name + ".body_a", "must be a body index or -1 (the world)");
  if (pair.body_b < kWorld) fail(name + ".body_b", "must be a body index or -1 (the world)");
  if (pair.body_a == pair.body_b) {
    fail(name + ".body_b", pair.body_a == kWorld ? "a contact needs at least one body (both are the world)"
                                                 : "must differ from body_a");
  }
  if (pair.a.kind == Feature::Kind::Face && pair.b.kind == Feature::Kind::Face) {
    fail(name, "a contact point pairs a circle with a circle or a face (both features are faces)");
  }
  check_feature(pair.a, name + ".a");
  check_feature(pair.b, name + ".b");
}

// --- gap and frame at two poses -----------------------------------------------------------------------------

double feature_pair_gap(const FeaturePair& pair, const PlacedPose& pose_a, const PlacedPose& pose_b) {
  // circle–circle: φ = |c_B − c_A| − ρ_A − ρ_B.
  if (is_circle_circle(pair)) {
    return (place(pose_b, pair.b.point) - place(pose_a, pair.a.point)).norm() - pair.a.radius - pair.b.radius;
  }
  // circle–face: φ = n·(c − p) − ρ.
  const CircleFace cf = circle_face(pair);
  const PlacedCircleFace x = cf.face_on_a ? placed(cf, pose_a, pose_b) : placed(cf, pose_b, pose_a);
  return x.normal.dot(x.centre - x.face_point) - cf.circle->radius;
}

double feature_pair_gap(const FeaturePair& pair, const Pose& pose_a, const Pose& pose_b) {
  return feature_pair_gap(pair, placed_pose(pose_a), placed_pose(pose_b));
}

ContactFrame feature_pair_frame(const FeaturePair& pair, const PlacedPose& pose_a, const PlacedPose& pose_b) {
  ContactFrame frame;
  if (is_circle_circle(pair)) {
    // N along the line of centres, the point in the middle of the gap.
    const Vec2 ca = place(pose_a, pair.a.point), cb = place(pose_b, pair.b.point);
    const double length = unit_and_length(cb - ca, frame.normal);
    frame.gap = length - pair.a.radius - pair.b.radius;
    frame.point = ca + (pair.a.radius + 0.5 * frame.gap) * frame.normal;
  } else {
    // N = ±n, the point in the middle between the circle's rim and the face.
    const CircleFace cf = circle_face(pair);
    const PlacedCircleFace x = cf.face_on_a ? placed(cf, pose_a, pose_b) : placed(cf, pose_b, pose_a);
    frame.gap = x.normal.dot(x.centre - x.face_point) - cf.circle->radius;
    frame.point = x.centre - (cf.circle->radius + 0.5 * frame.gap) * x.normal;
    frame.normal = cf.face_on_a ? x.normal : Vec2(-x.normal);
  }
  frame.tangent = perp(frame.normal);
  return frame;
}

ContactFrame feature_pair_frame(const FeaturePair& pair, const Pose& pose_a, const Pose& pose_b) {
  return feature_pair_frame(pair, placed_pose(pose_a), placed_pose(pose_b));
}

double feature_pair_gap(const FeaturePair& pair, const Vector& q) {
  return feature_pair_gap(pair, pose_of(pair.body_a, q), pose_of(pair.body_b, q));
}

ContactFrame feature_pair_frame(const FeaturePair& pair, const Vector& q) {
  return feature_pair_frame(pair, pose_of(pair.body_a, q), pose_of(pair.body_b, q));
}

double feature_pair_foot(const FeaturePair& pair, const Pose& pose_a, const Pose& pose_b) {
  if (is_circle_circle(pair)) return 0.0;
  // τ·(c − p) with τ = perp(n).
  const CircleFace cf = circle_face(pair);
  const PlacedPose placed_a = placed_pose(pose_a), placed_b = placed_pose(pose_b);
  const PlacedCircleFace x = cf.face_on_a ? placed(cf, placed_a, placed_b) : placed(cf, placed_b, placed_a);
  return perp(x.normal).dot(x.centre - x.face_point);
}

double feature_pair_distance(const FeaturePair& pair, const PlacedPose& pose_a, const PlacedPose& pose_b) {
  // circle–circle: φ.
  if (is_circle_circle(pair)) {
    return (place(pose_b, pair.b.point) - place(pose_a, pair.a.point)).norm() - pair.a.radius - pair.b.radius;
  }
  // circle–face: φ = n·(c − p) − ρ while the foot τ·(c − p) lies within the face (always, for a plane).
  const CircleFace cf = circle_face(pair);
  const PlacedCircleFace x = cf.face_on_a ? placed(cf, pose_a, pose_b) : placed(cf, pose_b, pose_a);
  const double line_gap = x.normal.dot(x.centre - x.face_point) - cf.circle->radius;
  const double foot = perp(x.normal).dot(x.centre - x.face_point);
  if (foot >= cf.face->lower && foot <= cf.face->upper) return line_gap;
  // Beyond an end of the face: the distance to that end of its core edge, less both radii.
  const PlacedPose& face_pose = cf.face_on_a ? pose_a : pose_b;
  const Feature& face = *cf.face;
  const Vec2 end = face.point - face.radius * face.normal + (foot > face.upper ? face.upper : face.lower) * perp(face.normal);
  return (x.centre - place(face_pose, end)).norm() - face.radius - cf.circle->radius;
}

double feature_pair_distance(const FeaturePair& pair, const Pose& pose_a, const Pose& pose_b) {
  return feature_pair_distance(pair, placed_pose(pose_a), placed_pose(pose_b));
}

// --- rows -------------------------------------------------------------------------------------------------

void feature_pair_normal_row(const FeaturePair& pair, const Vector& q, const Vector& qd, int row,
                             ConstraintRows& out) {
  out.start_row(row);
  if (is_circle_circle(pair)) {
    // φ = |d| − ρ_A − ρ_B, d = c_B − c_A: A = N·∂d/∂q, Ȧq̇ = (|ḋ|² − (N·ḋ)²)/|d| + N·d̈|_{q̈=0}.
    const PointState a = point_state(pair.body_a, pair.a.point, q, qd);
    const PointState b = point_state(pair.body_b, pair.b.point, q, qd);
    Vec2 unit;
    const double length = unit_and_length(b.position - a.position, unit);
    out.phi(row) = length - pair.a.radius - pair.b.radius;
    add_point_row(out, row, pair.body_b, unit, b.offset, 1.0);
    add_point_row(out, row, pair.body_a, unit, a.offset, -1.0);
    out.adot_qd(row) = unit_rate_term(unit, length, b.velocity - a.velocity) + unit.dot(b.convective - a.convective);
    return;
  }
  // φ = n·(c − p) − ρ with n = R_F ν turning with the face's body F.
  const CircleFace cf = circle_face(pair);
  const PointState c = point_state(cf.circle_body, cf.circle->point, q, qd);
  const PointState p = point_state(cf.face_body, cf.face->point, q, qd);
  const Vec2 normal = rotate(p.angle, cf.face->normal);
  const double w = p.angular_velocity;
  out.phi(row) = normal.dot(c.position - p.position) - cf.circle->radius;
  // A: the circle centre against the point of F that coincides with it, both along n.
  const Vec2 lever = c.position - (p.position - p.offset);  // c − x_F
  add_point_row(out, row, cf.circle_body, normal, c.offset, 1.0);
  add_point_row(out, row, cf.face_body, normal, lever, -1.0);
  // Ȧq̇ = 2ω_F perp(n)·(ċ − v_F) + n·c̈|_{q̈=0} − ω_F² n·(c − x_F).
  out.adot_qd(row) = 2.0 * w * perp(normal).dot(c.velocity - p.centre_velocity) + normal.dot(c.convective) -
                     w * w * normal.dot(lever);
}

void feature_pair_tangent_row(const FeaturePair& pair, const Vector& q, const Vector& qd, int row,
                              ConstraintRows& out) {
  out.start_row(row);
  out.phi(row) = 0.0;
  if (is_circle_circle(pair)) {
    // T·(ċ_B − ċ_A) − ρ_B ω_B − ρ_A ω_A; T turns with the line of centres (Ṫ = −(T·ḋ)/|d| N), so
    // Ȧ_t q̇ = −(T·ḋ)(N·ḋ)/|d| + T·(c̈_B − c̈_A)|_{q̈=0}.
    const PointState a = point_state(pair.body_a, pair.a.point, q, qd);
    const PointState b = point_state(pair.body_b, pair.b.point, q, qd);
    Vec2 unit;
    const double length = unit_and_length(b.position - a.position, unit);
    const Vec2 tangent = perp(unit);
    add_point_row(out, row, pair.body_b, tangent, b.offset, 1.0);
    add_point_row(out, row, pair.body_a, tangent, a.offset, -1.0);
    if (pair.body_b != kWorld) out.add(row, 3 * pair.body_b + 2, -pair.b.radius);
    if (pair.body_a != kWorld) out.add(row, 3 * pair.body_a + 2, -pair.a.radius);
    const Vec2 d_rate = b.velocity - a.velocity;
    const double turning = length > 1e-300 ? -tangent.dot(d_rate) * unit.dot(d_rate) / length : 0.0;
    out.adot_qd(row) = turning + tangent.dot(b.convective - a.convective);
    return;
  }
  // τ·(v_C − v_F) + ω_C (n·R_C r − ρ) − ω_F (ν·s): the circle's rim point c − ρn against the foot of c on
  // the face, whose lever n·(foot − x_F) = ν·s is constant.
  const CircleFace cf = circle_face(pair);
  const PointState c = point_state(cf.circle_body, cf.circle->point, q, qd);
  const PointState p = point_state(cf.face_body, cf.face->point, q, qd);
  const Vec2 normal = rotate(p.angle, cf.face->normal);
  const Vec2 tangent = perp(normal);
  add_point_row(out, row, cf.circle_body, tangent, c.offset, 1.0);
  if (cf.circle_body != kWorld) out.add(row, 3 * cf.circle_body + 2, -cf.circle->radius);
  if (cf.face_body != kWorld) {
    const int i = 3 * cf.face_body;
    out.add(row, i, -tangent.x());
    out.add(row, i + 1, -tangent.y());
    out.add(row, i + 2, -cf.face->normal.dot(cf.face->point));
  }
  // τ̇ = −ω_F n and d/dt (n·R_C r) = (ω_F − ω_C) τ·R_C r.
  const double wf = p.angular_velocity, wc = c.angular_velocity;
  out.adot_qd(row) = -wf * normal.dot(c.centre_velocity - p.centre_velocity) + wc * (wf - wc) * tangent.dot(c.offset);
}

double feature_pair_normal_velocity(const FeaturePair& pair, const Vector& q, const Vector& qd) {
  if (is_circle_circle(pair)) {
    const PointState a = point_state(pair.body_a, pair.a.point, q, qd);
    const PointState b = point_state(pair.body_b, pair.b.point, q, qd);
    Vec2 unit;
    unit_and_length(b.position - a.position, unit);
    return unit.dot(b.velocity - a.velocity);
  }
  // n·(ċ − v_F) + ω_F perp(n)·(c − x_F).
  const CircleFace cf = circle_face(pair);
  const PointState c = point_state(cf.circle_body, cf.circle->point, q, qd);
  const PointState p = point_state(cf.face_body, cf.face->point, q, qd);
  const Vec2 normal = rotate(p.angle, cf.face->normal);
  return normal.dot(c.velocity - p.centre_velocity) +
         p.angular_velocity * perp(normal).dot(c.position - (p.position - p.offset));
}

}  // namespace oblique
