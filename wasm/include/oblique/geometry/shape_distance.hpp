// The exact signed distance between two shapes, and between a shape and a world plane, at given poses: how
// far apart their surfaces are (positive), or how far one is inside the other (negative).
//
// Every shape is a convex core rounded by ρ (contact_geometry.hpp): a point (disk, point), a segment (rod), a
// rectangle (box); a wheel is its spoke tips, each a point of radius 0 (its spokes are not solid). For two
// rounded cores A ⊕ ρ_A and B ⊕ ρ_B
//
//   d = dist(A, B) − ρ_A − ρ_B                when the cores are apart (the distance between their closest
//                                             points: an edge or vertex of each, segment against segment);
//   d = −depth(A, B) − ρ_A − ρ_B              when they meet, where depth is the least translation that takes
//                                             them apart: the smallest overlap of their projections on the
//                                             edge normals of both (in the plane the Minkowski difference of two
//                                             convex polygons has no other edge normals, so this is exact; a
//                                             segment's normals are ±its normal, a point has none).
//
// A thin rod (radius 0) is the segment with the flat ends of the narrow phase (contact_geometry.hpp, the same
// end faces): a vertex of radius 0 (a point, a box corner, a wheel's tip, another thin rod's end) in front
// of an end face, its foot strictly within its half-width w = kEndFaceHalfWidth × length, is at its height
// above that face when that is less than its distance to the segment; on the end face's line or beyond w it
// is beside it, and the segment measures it. A rounded circle meets the end point (the narrow phase takes a
// capsule's end circle against a flat end when its centre lies within w of the axis, which differs by at most
// w²/2ρ), and the end faces' edges are no vertices (nothing else meets them). A vertex behind a flat end is measured
// by the segment (at most w from it, within the initial tolerance): the flat end only ever adds a distance.
//
// Two points of radius 0 (point–point, point–wheel tip, tip–tip) never touch (narrow_phase.hpp): their
// distance is +∞. Against a half-plane {p : n·(p − p₀) ≥ 0} with unit n, d = min over the core's vertices of
// n·(v − p₀) − ρ, exact for a convex core. These are the distances the simulator's contacts keep
// non-negative; unlike the narrow phase, they do not depend on which features a contact uses, so the
// scenario check (overlaps at the start) and the property tests measure with them.
#pragma once

#include "oblique/geometry/contact_geometry.hpp"
#include "oblique/scenario/scenario.hpp"

namespace oblique {

/// The signed distance (m) between shape `a` at `pose_a` and shape `b` at `pose_b`; +∞ when both are points
/// of radius 0. The shapes must be valid (scenario_check.hpp) and the poses finite.
double shape_signed_distance(const Shape& a, const Pose& pose_a, const Shape& b, const Pose& pose_b);

/// The signed distance (m) from the half-plane of `plane` (its normal need not be unit) to `shape` at
/// `pose`: negative when the shape is inside the plane's solid side.
double shape_plane_signed_distance(const Shape& shape, const Pose& pose, const PlaneDef& plane);

/// The length (m) over which two rods of radius 0 lie on one line, within `tolerance` (m) of each other's
/// line and parallel to within it over their lengths: two such segments have no side to touch from. 0 when
/// they do not, or when either shape is not a rod of radius 0.
double thin_rods_common_length(const Shape& a, const Pose& pose_a, const Shape& b, const Pose& pose_b,
                               double tolerance);

}  // namespace oblique
