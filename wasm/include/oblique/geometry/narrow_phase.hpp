// The narrow phase: the contact points between two shapes at given poses, or between a shape and a world
// plane, as feature pairs (contact_geometry.hpp) whose rows the simulator can write.
//
// Every shape but the wheel is a convex core (a point, a segment, a rectangle) rounded by ρ, so one
// algorithm serves every pair of them; the distance between two shapes is the distance between their cores
// minus ρ_A + ρ_B.
//
//   one-point core against one-point core (disk–disk, disk–point): circle–circle.
//   one-point core against a polygon (disk–box, disk–rod, point–box, point–rod): inside a box, the face of
//     least penetration; otherwise the closest feature of the core, on a side the centre is in front of —
//     a face whose foot lies strictly inside it, or a vertex: the circle–circle pair when a radius makes
//     one (a disk sent along a rod's axis meets its end circle, not a side), and when both radii are 0 (a
//     point at a box corner or a thin rod's end) the faces at that vertex (below). One pair, or two.
//   polygon against polygon (box–box, box–rod, rod–rod): separating axes over the faces of both, a thin
//     rod's end faces included (they give the axis of the segment, which separates two rods end to end;
//     a thin rod's sides are no axis against a core lying on its line beyond its ends). The face of largest
//     separation is the reference face, the face of the other core most opposed to it the incident face;
//     the candidates are the incident face's end circles against the reference face (foot within it) and
//     the reference face's end circles against the incident face (foot strictly inside it, and no deeper
//     behind it than the cores' separation: a box pressed on a thin rod's end has its far corner behind the
//     rod's side line, which is no contact), each pair once. A corner against an edge; two flush edges give
//     the two ends of their overlap: two points; a rod lying on a rod, two points; a thin rod's end on
//     another's end, one point along the axis; a thin rod flush with a face (a rod's side, a box's face),
//     also the ends of either face beyond the other (within the margin), as an end that crosses a rod's
//     side near its end and slides past it within the step is beside the rod again at the step's end, and
//     only the end sliding onto the face behind it keeps the crossing. When the cores are apart and no candidate measures their
//     distance, the closest features are added: a vertex and a face, two circles (a radius makes their gap
//     signed), or two zero-radius vertices.
//   two zero-radius vertices (box corners meeting, a thin rod's end meeting a corner or an end off its
//     axis): a circle–circle gap of radius 0 is a distance and never turns negative, so the faces at the
//     vertex of one core (the reference's) with the other vertex in front of them stand in, each against
//     that vertex. Their gap is the distance to the face itself (feature_pair_distance): the corners'
//     distance while the other vertex is beyond the face's end, reaching zero when it meets the vertex and
//     negative when it enters through the face. The faces of one core only: three rows or more at one
//     point would be dependent but for round-off, which an impact amplifies. The same when two such
//     vertices touch (every face at the reference's vertex, for at that instant any may be the one entered).
//   ties: where separations tie to within the tolerance (a thin rod lying on a thin rod ties its two sides
//     exactly, flush faces and meeting corners tie to round-off) the face found by the last call is kept
//     (`previous`), so that a resting contact keeps its side; then a face other than a thin rod's side;
//     then the first. A vertex on a face's line is taken against that face only where the last call found
//     it: on the line it may be leaving the face sideways as well as entering it.
//   a wheel: each spoke tip is a one-point core of radius 0 (the spokes themselves are not solid: a body
//     may pass between them, as the rimless wheel's spokes pass through the ground plane between tips).
//   zero radius against zero radius (point–point, point–tip, tip–tip): no contact — two points never
//     touch in a way a gap can detect, as the gap |c_B − c_A| cannot become negative.
//   a shape against a world plane: every circle of the shape (the disk's rim, the box's corners, the rod's
//     end circles, the point's centre, the wheel's spoke tips) against the plane, a face of the world.
//
// Margin: a contact point is reported when its gap — the distance between its two features,
// feature_pair_distance — is at most `margin` (m, finite, ≥ 0), and it is reported with that gap. When the
// shapes are apart by at most the margin, the smallest reported gap is their distance and no reported gap
// is smaller (a thin rod's flat ends aside, kEndFaceHalfWidth × length wide). Penetrating shapes give the
// features of least penetration (negative gaps). The margin is what lets a simulator see a contact coming: the narrow phase is run at the
// start of a step, so the margin must exceed how far the bodies can approach during that step.
//
// Feature ids (stable from step to step): circle k is id k, face k is id kFaceFeatureId + k; a world plane
// is the face id of its index. A contact point's key is (body_a, body_b, id of a, id of b): the same
// features of the same bodies give the same key, so that the simulator can follow a contact from step to
// step. The points of one call are appended in key order. In a pair of bodies, body_a is the first given;
// against a plane, body_a is the world (kWorld) and the normal is the plane's.
#pragma once

#include <vector>

#include "oblique/geometry/contact_geometry.hpp"

namespace oblique {

/// Feature id of face k (circle k has id k). Larger than any circle index (a wheel has at most 64 spokes).
inline constexpr int kFaceFeatureId = 128;

/// The stable id of a feature: k for circle k, kFaceFeatureId + k for face k.
inline int feature_id(const Feature& f) {
  return f.kind == Feature::Kind::Face ? kFaceFeatureId + f.index : f.index;
}

/// Identifies a contact point from step to step.
struct ContactKey {
  int body_a = kWorld, body_b = kWorld;
  int feature_a = 0, feature_b = 0;  ///< feature ids

  friend bool operator==(const ContactKey& x, const ContactKey& y) {
    return x.body_a == y.body_a && x.body_b == y.body_b && x.feature_a == y.feature_a && x.feature_b == y.feature_b;
  }
  friend bool operator!=(const ContactKey& x, const ContactKey& y) { return !(x == y); }
  friend bool operator<(const ContactKey& x, const ContactKey& y) {
    if (x.body_a != y.body_a) return x.body_a < y.body_a;
    if (x.body_b != y.body_b) return x.body_b < y.body_b;
    if (x.feature_a != y.feature_a) return x.feature_a < y.feature_a;
    return x.feature_b < y.feature_b;
  }
};

/// The key of a feature pair.
inline ContactKey contact_key(const FeaturePair& pair) {
  return ContactKey{pair.body_a, pair.body_b, feature_id(pair.a), feature_id(pair.b)};
}

/// One contact point found by the narrow phase: its features, key, and frame (gap, point, normal from A to
/// B) at the poses given.
struct ContactCandidate {
  FeaturePair pair;
  ContactKey key;
  ContactFrame frame;
};

/// A shape's convex core at a pose: its circles (the core's vertices) and faces, in the body frame and
/// placed in the world. A face is given by its line (a point `origin` on the core edge, the outward normal,
/// the tangent τ = perp(normal)), its extent [lower, upper] along τ from the origin, and the vertices at
/// its two ends (the same vertex for a thin rod's end face, whose extent is only its tolerance width).
struct ShapeCore {
  int body = kWorld;
  PlacedPose pose;
  int count = 0;         ///< vertices: 1 (disk, point, a wheel's tip), 2 (rod) or 4 (box)
  int faces = 0;         ///< 0 (one vertex), 2 (rounded rod), 4 (box, thin rod)
  double radius = 0.0;   ///< ρ of every circle
  double size = 0.0;     ///< half the largest extent of the core plus ρ, for relative tolerances
  Feature circle[4];
  Feature face[4];
  Vec2 vertex[4];        ///< world centres of the circles
  Vec2 normal[4], tangent[4], origin[4];
  double lower[4] = {}, upper[4] = {};
  int from[4] = {}, to[4] = {};

  /// A face with no length: a thin rod's end.
  bool end_face(int k) const { return from[k] == to[k]; }
  /// A thin rod: a segment with end faces (2 and 3) besides its sides (0 and 1).
  bool thin() const { return faces == 4 && end_face(2); }
  /// Signed distance of p from the line of face k (positive in front).
  double height(int k, const Vec2& p) const { return normal[k].dot(p - origin[k]); }
  /// Coordinate of the foot of p on face k, along τ from its origin.
  double foot(int k, const Vec2& p) const { return tangent[k].dot(p - origin[k]); }
};

/// A body's shape placed at a pose for the narrow phase: its cores (one, or one per spoke tip of a wheel)
/// in the world, built once and used against every shape it meets at that pose. Keeps its buffer, so
/// that placing it again does not allocate.
class PlacedShape {
 public:
  /// Places `shape` (a valid contact shape) of `body` at `pose` (finite); no input check.
  void place(int body, const Shape& shape, const Pose& pose);
  /// Whether the last place() was of `body` at the same bits of `pose` (its cores then are those of now).
  bool placed_at(int body, const Pose& pose) const;
  int body() const { return body_; }
  const PlacedPose& pose() const { return pose_; }
  const std::vector<ShapeCore>& cores() const { return cores_; }

 private:
  int body_ = kWorld;
  PlacedPose pose_;
  std::vector<ShapeCore> cores_;
};

/// collide_shapes on two placed shapes of different bodies, with no input check (a valid margin). When
/// `frames` is false, only each point's frame.gap is written (the rest of its frame is left default).
void collide_placed(const PlacedShape& a, const PlacedShape& b, double margin, std::vector<ContactCandidate>& out,
                    const std::vector<ContactKey>* previous, bool frames);

/// collide_shape_plane on a placed shape against the face of a world plane (plane_feature), no input check.
void collide_placed_plane(int plane_index, const Feature& plane_face, const PlacedShape& shape, double margin,
                          std::vector<ContactCandidate>& out);

/// Appends to `out` the contact points between body_a (shape_a at pose_a) and body_b (shape_b at pose_b)
/// whose gap is at most `margin`, in key order. `previous`, when given, holds the keys found by the last
/// call (sorted; any body pairs): where the choice of features ties to round-off, the faces it names are
/// kept (header comment). Throws std::invalid_argument naming "margin", "body_b", "pose_a", "pose_b",
/// "shape_a.<key>" or "shape_b.<key>" on bad input (equal or negative body indices, a non-finite pose, a
/// shape with a non-positive size).
void collide_shapes(int body_a, const Shape& shape_a, const Pose& pose_a, int body_b, const Shape& shape_b,
                    const Pose& pose_b, double margin, std::vector<ContactCandidate>& out,
                    const std::vector<ContactKey>* previous = nullptr);

/// Appends to `out` the contact points between world plane `plane_index` and `body` (shape at pose) whose
/// gap is at most `margin`: one per circle of the shape, body_a = kWorld with the plane's face, in key
/// order. Throws std::invalid_argument naming "margin", "body", "pose", "plane.normal" or "shape.<key>".
void collide_shape_plane(int plane_index, const PlaneDef& plane, int body, const Shape& shape, const Pose& pose,
                         double margin, std::vector<ContactCandidate>& out);

}  // namespace oblique
