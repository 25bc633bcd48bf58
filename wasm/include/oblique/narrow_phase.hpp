// The narrow phase: the contact points between two shapes at given poses, or between a shape and a world
// plane, as feature pairs (contact_geometry.hpp) whose rows the simulator can write.
//
// Every shape but the wheel is a convex core (a point, a segment, a rectangle) rounded by ρ, so one
// algorithm serves every pair of them; the distance between two shapes is the distance between their cores
// minus ρ_A + ρ_B.
//
//   one-point core against one-point core (disk–disk, disk–point): circle–circle.
//   one-point core against a polygon (disk–box, disk–rod, point–box, point–rod): the circle against the
//     face of the polygon with the largest separation when the centre's foot lies within that face, else
//     against the nearer end circle of that face (a box corner, a rod end); one point.
//   polygon against polygon (box–box, box–rod, rod–rod): separating axes over the face normals of both;
//     the face of largest separation is the reference face, the face of the other shape most opposed to it
//     is the incident face; the candidates are the incident face's two end circles against the reference
//     face and the reference face's two end circles against the incident face, each kept when the circle's
//     foot lies within the face (a corner against an edge; two flush edges give the two ends of their
//     overlap: two points; a rod lying on a rod, two points). The kept set does not depend on which face is
//     the reference. When the cores are apart and no candidate measures their distance (the closest
//     features are two corners, or two rod ends end to end), the closest circle–circle pair is added.
//   a wheel: each spoke tip is a one-point core of radius 0 (the spokes themselves are not solid: a body
//     may pass between them, as the rimless wheel's spokes pass through the ground plane between tips).
//   zero radius against zero radius (point–point, point–tip, tip–tip): no contact — two points never
//     touch in a way a gap can detect, as the gap |c_B − c_A| cannot become negative.
//   a shape against a world plane: every circle of the shape (the disk's rim, the box's corners, the rod's
//     end circles, the point's centre, the wheel's spoke tips) against the plane, a face of the world.
//
// Margin: a contact point is reported when its gap φ is at most `margin` (m, finite, ≥ 0). When the shapes
// are apart by at most the margin, the smallest reported gap is their distance and no reported gap is
// smaller (each is the distance between its two features: a circle–face pair is kept only when the foot of
// the circle's centre lies within the face). Penetrating shapes give the features of least penetration
// (negative gaps). The margin is what lets a simulator see a contact coming: the narrow phase is run at the
// start of a step, so the margin must exceed how far the bodies can approach during that step.
//
// Feature ids (stable from step to step): circle k is id k, face k is id kFaceFeatureId + k; a world plane
// is the face id of its index. A contact point's key is (body_a, body_b, id of a, id of b): the same
// features of the same bodies give the same key, so that the simulator can follow a contact from step to
// step. The points of one call are appended in key order. In a pair of bodies, body_a is the first given;
// against a plane, body_a is the world (kWorld) and the normal is the plane's.
#pragma once

#include <vector>

#include "oblique/contact_geometry.hpp"

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

/// Appends to `out` the contact points between body_a (shape_a at pose_a) and body_b (shape_b at pose_b)
/// whose gap is at most `margin`, in key order. Throws std::invalid_argument naming "margin", "body_b",
/// "pose_a", "pose_b", "shape_a.<key>" or "shape_b.<key>" on bad input (equal or negative body indices,
/// a non-finite pose, a shape with a non-positive size).
void collide_shapes(int body_a, const Shape& shape_a, const Pose& pose_a, int body_b, const Shape& shape_b,
                    const Pose& pose_b, double margin, std::vector<ContactCandidate>& out);

/// Appends to `out` the contact points between world plane `plane_index` and `body` (shape at pose) whose
/// gap is at most `margin`: one per circle of the shape, body_a = kWorld with the plane's face, in key
/// order. Throws std::invalid_argument naming "margin", "body", "pose", "plane.normal" or "shape.<key>".
void collide_shape_plane(int plane_index, const PlaneDef& plane, int body, const Shape& shape, const Pose& pose,
                         double margin, std::vector<ContactCandidate>& out);

}  // namespace oblique
