// Contact geometry between any two bodies (either may be the world): the features of each shape, and the
// closed-form constraint rows of a contact point made of two features, with both bodies moving.
//
// Every shape is a convex *core* — one point (disk, point), a segment (rod), a rectangle (box) — rounded by
// a radius ρ (disk: its radius; rod: its radius; box and point: 0). A wheel is the exception: its contact
// features are its spoke tips only (thin spokes, no rim). The features of a shape, in its body frame:
//
//   circle k   the k-th core vertex with the shape's radius ρ ≥ 0
//                disk, point: circle 0 at the centre (ρ = r, resp. 0)
//                box:   circles 0..3 = corners (−w/2,−h/2), (w/2,−h/2), (w/2,h/2), (−w/2,h/2), ρ = 0
//                rod:   circles 0, 1 = ends (−L/2, 0), (L/2, 0), ρ = rod radius
//                wheel: circle j = spoke tip j at angle 2πj/spokes, ρ = 0
//   face k     the core edge from circle k to circle k+1 (mod count), pushed out by ρ: a point s on it, an
//              outward unit normal ν, and an extent [lower, upper] along its tangent τ = perp(ν), which is
//              the direction from circle k to circle k+1
//                box: faces 0..3 = bottom (ν = −y), right (+x), top (+y), left (−x)
//                rod: face 0 = the side at −radius (ν = −y), face 1 = the side at +radius (ν = +y);
//                     a thin rod (radius 0) also face 2 = its end at circle 1 (ν = +x) and face 3 = its end
//                     at circle 0 (ν = −x), each of half-width kEndFaceHalfWidth × length across the axis
//                disk, point, wheel: none
//   Why a thin rod has end faces: it is a segment, whose ends are points of radius 0, and a gap between two
//   circles of radius 0 is a distance, which never becomes negative — an end meeting an end (or a box
//   corner) on the axis would pass through it. An end face measures the gap along the axis, signed. A
//   rounded rod needs none: its end circles (ρ > 0) do this.
//   Its width: the end of a segment is a point, and a point passing through a point exactly is as rare as
//   its neighbours are common: rods set end to end by hand line up to round-off (a scene turned by 90° puts
//   its zeros at 1e-17) or to a slight turn (1e-7 rad), and ends of no width would let such rods slide past
//   each other instead of meeting, with a jump between the two outcomes at exactly zero offset. So an end
//   face is kEndFaceHalfWidth × length to either side of the axis (a micrometre for a metre rod): an end or
//   a corner that arrives closer to the axis than that meets it end on, along the axis; one farther off
//   passes beside it, as past the end of a segment.
//   a world plane is a face of the world with an unbounded extent (index = the plane's index).
//
// These are the numbers Model uses against planes (box corners, rod ends, spoke tips in the same order).
//
// A contact point is a pair of features on two different bodies, A and B, at least one of them a circle.
// With perp(v) = (−v_y, v_x), R(θ) the rotation, a circle of body C at local centre r with radius ρ has its
// centre at c = x_C + R_C r; a face of body F has p = x_F + R_F s and n = R_F ν. The unit normal N points
// from A to B, the tangent is T = perp(N), and
//
//   circle–circle   φ = |c_B − c_A| − ρ_A − ρ_B,   N = (c_B − c_A)/|c_B − c_A|
//   circle–face     φ = n·(c − p) − ρ,             N = n when the face is on A, −n when it is on B
//
// φ is the gap in metres (negative when penetrating). Rows over the coordinates (x, y, θ) of each body
// (the world has none), with ω the angular velocity, v the velocity of a body's centre and ċ the velocity
// of a circle's centre:
//
//   circle–circle   A q̇ = N·(ċ_B − ċ_A)
//                   Ȧq̇ = (|ḋ|² − (N·ḋ)²)/|d| + N·(c̈_B − c̈_A)|_{q̈=0},   d = c_B − c_A,  c̈|_{q̈=0} = −ω² R r
//   circle–face     A q̇ = n·(ċ − v_F) + ω_F perp(n)·(c − x_F)
//                   Ȧq̇ = 2 ω_F perp(n)·(ċ − v_F) + n·c̈|_{q̈=0} − ω_F² n·(c − x_F)
//
// (the Jacobian of the circle–face row is the velocity, along n, of the circle's centre relative to the
// point of F that coincides with it: the same for every point on the normal line). The tangential (stick)
// row is the tangential velocity, along T, of the two material points that touch: each body's own
// surface point nearest the other (the rim point c + ρN of a circle on A, c − ρN of one on B; the foot of
// the circle's centre on a face). It is a velocity-level row, the same for either order of the bodies:
//
//   circle–circle   A_t q̇ = T·(ċ_B − ċ_A) − ρ_B ω_B − ρ_A ω_A
//                   Ȧ_t q̇ = −(T·ḋ)(N·ḋ)/|d| + T·(c̈_B − c̈_A)|_{q̈=0}
//   circle–face     A_t q̇ = τ·(v_C − v_F) + ω_C (n·R_C r − ρ) − ω_F (ν·s),   τ = perp(n)
//                   Ȧ_t q̇ = −ω_F n·(v_C − v_F) + ω_C (ω_F − ω_C) τ·R_C r
//
// A body-plane contact of Model is the circle–face pair (world plane, body circle), and a disk-disk contact
// the circle–circle pair of the two centres: their rows are Model's (test_contact_geometry.cpp checks it,
// and every row against finite differences). The face's extent does not enter the rows: a circle–face pair
// measures the distance to the face's line, which is the distance to the face while the foot of the circle
// centre lies within the extent (feature_pair_foot tells); the narrow phase (narrow_phase.hpp) chooses
// pairs for which it does.
#pragma once

#include "oblique/math/trigonometry.hpp"
#include "oblique/model/model.hpp"
#include "oblique/scenario/scenario.hpp"

namespace oblique {

/// Half-width of a thin rod's end faces, relative to the rod's length (header comment).
inline constexpr double kEndFaceHalfWidth = 1e-6;

/// A contact feature of one body, in that body's frame (the world frame for the world).
struct Feature {
  enum class Kind : int { Circle = 0, Face = 1 };
  Kind kind = Kind::Circle;
  int index = 0;                 ///< circle k or face k of the shape (plane index for a world plane)
  Vec2 point = Vec2::Zero();     ///< circle: centre r; face: a point s of the face (its middle)
  double radius = 0.0;           ///< ρ ≥ 0: a circle's; a face's shape's (the face lies ρ out from its core edge)
  Vec2 normal = Vec2::UnitY();   ///< face: outward unit normal ν
  double lower = 0.0;            ///< face: extent along τ = perp(ν), from s (−∞ for a plane)
  double upper = 0.0;            ///< face: extent along τ, from s (+∞ for a plane)
};

/// Number of circle and face features of a shape (see the header comment for their order).
int circle_count(const Shape& shape);
int face_count(const Shape& shape);
/// Circle k of a shape; throws std::invalid_argument naming "circle" when k is out of range.
Feature circle_feature(const Shape& shape, int k);
/// Face k of a shape; throws std::invalid_argument naming "face" when k is out of range.
Feature face_feature(const Shape& shape, int k);
/// The radius ρ that rounds a shape's core: disk and rod radius; 0 for box, point and wheel.
double rounding_radius(const Shape& shape);
/// A world plane as a face of the world: its point, unit normal, unbounded extent, index `plane_index`.
Feature plane_feature(const PlaneDef& plane, int plane_index);

/// A contact point: feature `a` on body_a and feature `b` on body_b (bodies may be kWorld, not both, and
/// differ). At least one feature is a circle.
struct FeaturePair {
  int body_a = kWorld;
  int body_b = kWorld;
  Feature a;
  Feature b;
};

/// Where a body is: its centre and angle (the world is at the origin with angle 0).
struct Pose {
  Vec2 position = Vec2::Zero();
  double angle = 0.0;
};

/// The pose of `body` in q (identity for kWorld).
Pose pose_of(int body, const Vector& q);

/// A pose with the cosine and sine of its angle (cos_sin, trigonometry.hpp) computed once, for the callers
/// that place many features of one body at one pose: the functions below give the same bits at a
/// PlacedPose as at its Pose.
struct PlacedPose {
  Pose pose;
  CosSin rotation;
};
inline PlacedPose placed_pose(const Pose& pose) { return PlacedPose{pose, cos_sin(pose.angle)}; }

/// Throws std::invalid_argument naming `field` ("pair", ...) unless the pair is well formed: two different
/// bodies not both the world, at least one circle, finite numbers, radii ≥ 0, unit face normals (to 1e-9),
/// lower ≤ upper.
void check_feature_pair(const FeaturePair& pair, const char* field = "pair");

/// φ, the gap (m), at the given poses of body_a and body_b.
double feature_pair_gap(const FeaturePair& pair, const Pose& pose_a, const Pose& pose_b);
/// Gap, world point, normal N (from A to B) and tangent T = perp(N) at the given poses. The point is the
/// middle of the gap: between the two surface points that touch when φ = 0.
ContactFrame feature_pair_frame(const FeaturePair& pair, const Pose& pose_a, const Pose& pose_b);
/// The same at q.
double feature_pair_gap(const FeaturePair& pair, const Vector& q);
ContactFrame feature_pair_frame(const FeaturePair& pair, const Vector& q);

/// Circle–face pairs: the coordinate, along the face tangent τ and from the face point s, of the foot of
/// the circle centre on the face line; the pair measures the distance to the face while it lies in
/// [lower, upper]. Circle–circle pairs: 0.
double feature_pair_foot(const FeaturePair& pair, const Pose& pose_a, const Pose& pose_b);

/// The gap to the feature itself rather than to its line: φ while the foot lies within the face (and for
/// circle–circle pairs and planes); beyond an end of the face, the distance from the circle's centre to
/// that end of the face's core edge, less both radii — never smaller than φ's distance, and continuous with
/// it where the circle is in front of the face. It is the distance between the two features, so a point
/// whose foot slides off a face sees no false crossing of the face's line.
double feature_pair_distance(const FeaturePair& pair, const Pose& pose_a, const Pose& pose_b);
/// The same at placed poses.
double feature_pair_gap(const FeaturePair& pair, const PlacedPose& pose_a, const PlacedPose& pose_b);
ContactFrame feature_pair_frame(const FeaturePair& pair, const PlacedPose& pose_a, const PlacedPose& pose_b);
double feature_pair_distance(const FeaturePair& pair, const PlacedPose& pose_a, const PlacedPose& pose_b);

/// Writes the normal row of the pair at `row` of `out` (φ, A over every coordinate, Ȧq̇ at (q, q̇)); the
/// columns of other bodies are zeroed.
void feature_pair_normal_row(const FeaturePair& pair, const Vector& q, const Vector& qd, int row,
                             ConstraintRows& out);
/// Writes the tangential (stick) row at `row`; φ is written as 0 (a velocity-level row).
void feature_pair_tangent_row(const FeaturePair& pair, const Vector& q, const Vector& qd, int row,
                              ConstraintRows& out);
/// φ̇ = A q̇ of the normal row.
double feature_pair_normal_velocity(const FeaturePair& pair, const Vector& q, const Vector& qd);

}  // namespace oblique
