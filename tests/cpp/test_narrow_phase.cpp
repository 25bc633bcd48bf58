// The narrow phase: on random poses of every pair of shapes, the smallest reported gap is the distance
// between the shapes (found by brute force: dense sampling of both boundaries, then local refinement), no
// gap is smaller, nothing is reported beyond the margin, and the normal points from A to B; then the
// classic configurations by hand (two flush boxes, a tilted corner, parallel rods, rods end to end, two
// corners, a disk at a rod's side and end, every shape on a plane), stable keys, and bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <Eigen/Geometry>

#include "error_message.hpp"
#include "oblique/geometry/narrow_phase.hpp"
#include "shapes.hpp"

namespace oblique {
namespace {

using testing::box_shape;
using testing::disk_shape;
using testing::kTwoPi;
using testing::message_of;
using testing::point_shape;
using testing::rod_shape;
using testing::wheel_shape;

// --- brute force -----------------------------------------------------------------------------------------

/// A shape's boundary at a pose, written from its definition (Eigen's rotation, its own parametrisation):
/// a closed curve p(s), s ∈ [0, 1), or a finite set of points (a point, a wheel's spoke tips).
struct Boundary {
  Shape shape;
  Pose pose;

  bool discrete() const { return shape.type == Shape::Type::Point || shape.type == Shape::Type::Wheel; }
  int point_count() const { return shape.type == Shape::Type::Wheel ? shape.spokes : 1; }

  Vec2 world(const Vec2& local) const { return pose.position + Eigen::Rotation2Dd(pose.angle) * local; }

  Vec2 point(int k) const {
    if (shape.type == Shape::Type::Point) return pose.position;
    const double a = kTwoPi * k / shape.spokes;
    return world(shape.radius * Vec2(std::cos(a), std::sin(a)));
  }

  /// The closed curve by arc length, s ∈ [0, 1).
  Vec2 at(double s) const {
    s -= std::floor(s);
    switch (shape.type) {
      case Shape::Type::Disk:
        return world(shape.radius * Vec2(std::cos(kTwoPi * s), std::sin(kTwoPi * s)));
      case Shape::Type::Box: {
        const double w = shape.width, h = shape.height;
        double t = s * 2 * (w + h);
        const Vec2 corner(-w / 2, -h / 2);
        if (t < w) return world(corner + Vec2(t, 0));
        t -= w;
        if (t < h) return world(corner + Vec2(w, t));
        t -= h;
        if (t < w) return world(corner + Vec2(w - t, h));
        return world(corner + Vec2(0, h - (t - w)));
      }
      case Shape::Type::Rod: {
        // Lower side, right cap, upper side, left cap (a zero radius leaves the segment both ways).
        const double l = shape.length, r = shape.radius, cap = 0.5 * kTwoPi * r;
        double t = s * 2 * (l + cap);
        if (t < l) return world(Vec2(-l / 2 + t, -r));
        t -= l;
        if (t < cap) {
          const double a = -0.25 * kTwoPi + t / std::max(r, 1e-300);
          return world(Vec2(l / 2, 0) + r * Vec2(std::cos(a), std::sin(a)));
        }
        t -= cap;
        if (t < l) return world(Vec2(l / 2 - t, r));
        t -= l;
        const double a = 0.25 * kTwoPi + t / std::max(r, 1e-300);
        return world(Vec2(-l / 2, 0) + r * Vec2(std::cos(a), std::sin(a)));
      }
      default:
        return pose.position;
    }
  }

  /// Strictly inside the shape (zero-area shapes contain nothing).
  bool contains(const Vec2& p) const {
    const Vec2 local = Eigen::Rotation2Dd(-pose.angle) * (p - pose.position);
    switch (shape.type) {
      case Shape::Type::Disk:
        return local.norm() < shape.radius;
      case Shape::Type::Box:
        return std::abs(local.x()) < shape.width / 2 && std::abs(local.y()) < shape.height / 2;
      case Shape::Type::Rod: {
        const double x = std::clamp(local.x(), -shape.length / 2, shape.length / 2);
        return (local - Vec2(x, 0)).norm() < shape.radius;
      }
      default:
        return false;
    }
  }
};

struct BruteDistance {
  double distance = 0.0;
  Vec2 on_a, on_b;
  bool overlap = false;
};

/// The distance between two shapes by sampling both boundaries (kSamples points on a curve), then a pattern
/// search from the best pair of samples (from each point of a wheel); overlap when a sample or centre of
/// one lies inside the other.
BruteDistance brute_distance(const Boundary& a, const Boundary& b) {
  constexpr int kSamples = 128;
  auto samples = [&](const Boundary& x) {
    std::vector<std::pair<double, Vec2>> out;
    if (x.discrete()) {
      for (int k = 0; k < x.point_count(); ++k) out.push_back({static_cast<double>(k), x.point(k)});
    } else {
      for (int k = 0; k < kSamples; ++k) out.push_back({(k + 0.5) / kSamples, x.at((k + 0.5) / kSamples)});
    }
    return out;
  };
  const auto sa = samples(a), sb = samples(b);
  BruteDistance result;
  for (const auto& [s, p] : sa) result.overlap = result.overlap || b.contains(p);
  for (const auto& [s, p] : sb) result.overlap = result.overlap || a.contains(p);
  // A centre counts for solid shapes (a wheel's hub is not: it touches with its tips only).
  if (!a.discrete()) result.overlap = result.overlap || b.contains(a.pose.position);
  if (!b.discrete()) result.overlap = result.overlap || a.contains(b.pose.position);
  // Starting pairs: the best pair of samples; for a set of points (a wheel's tips), the best sample
  // against each point, since the search below cannot move from one point to another.
  std::vector<std::array<double, 3>> starts;  // (s, t, distance)
  auto best_against = [&](const std::vector<std::pair<double, Vec2>>& xs, const std::vector<std::pair<double, Vec2>>& ys) {
    for (const auto& [s, p] : xs) {
      std::array<double, 3> start{s, 0.0, std::numeric_limits<double>::infinity()};
      for (const auto& [t, r] : ys) {
        if ((p - r).norm() < start[2]) start = {s, t, (p - r).norm()};
      }
      starts.push_back(start);
    }
  };
  if (a.discrete()) {
    best_against(sa, sb);
  } else if (b.discrete()) {
    best_against(sb, sa);
    for (auto& start : starts) std::swap(start[0], start[1]);
  } else {
    best_against(sa, sb);
    std::sort(starts.begin(), starts.end(), [](const auto& x, const auto& y) { return x[2] < y[2]; });
    starts.resize(1);
  }
  // Pattern search from each start: a 5 × 5 grid of ± step around it; move while it improves, halve the
  // step when it does not.
  auto place = [](const Boundary& x, double s, double fixed) { return x.discrete() ? x.point(static_cast<int>(fixed)) : x.at(s); };
  double best = std::numeric_limits<double>::infinity(), best_a = 0, best_b = 0;
  for (const auto& start : starts) {
    double here_a = start[0], here_b = start[1], here = start[2];
    for (double step = 1.0 / kSamples; step > 1e-13;) {
      double next_a = here_a, next_b = here_b;
      for (int i = -2; i <= 2; ++i) {
        for (int j = -2; j <= 2; ++j) {
          const double s = a.discrete() ? here_a : here_a + i * step / 2;
          const double t = b.discrete() ? here_b : here_b + j * step / 2;
          const double d = (place(a, s, here_a) - place(b, t, here_b)).norm();
          if (d < here) {
            here = d;
            next_a = s;
            next_b = t;
          }
        }
      }
      if (next_a == here_a && next_b == here_b) step /= 2;
      here_a = next_a;
      here_b = next_b;
    }
    if (here < best) {
      best = here;
      best_a = here_a;
      best_b = here_b;
    }
  }
  result.distance = best;
  result.on_a = place(a, best_a, best_a);
  result.on_b = place(b, best_b, best_b);
  // Crossing boundaries are an overlap too.
  result.overlap = result.overlap || best < 1e-7;
  return result;
}

/// Every shape the narrow phase knows (rods with and without a radius).
std::vector<std::pair<std::string, Shape>> shape_zoo() {
  return {{"disk", disk_shape(0.15)},         {"box", box_shape(0.5, 0.2)},   {"rod", rod_shape(0.6, 0.06)},
          {"thin rod", rod_shape(0.4, 0.0)},  {"point", point_shape()},       {"wheel", wheel_shape(0.25, 5)}};
}

double bounding_radius(const Shape& s) {
  switch (s.type) {
    case Shape::Type::Box: return 0.5 * std::hypot(s.width, s.height);
    case Shape::Type::Rod: return 0.5 * s.length + s.radius;
    case Shape::Type::Point: return 0.0;
    default: return s.radius;
  }
}

bool zero_area(const Shape& s) {
  return s.type == Shape::Type::Point || s.type == Shape::Type::Wheel;
}

TEST(NarrowPhase, GapIsTheDistanceBetweenTheShapesOnRandomPoses) {
  const double margin = 0.05;
  std::mt19937 engine(2025);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const auto zoo = shape_zoo();
  for (const auto& [name_a, shape_a] : zoo) {
    for (const auto& [name_b, shape_b] : zoo) {
      if (zero_area(shape_a) && zero_area(shape_b)) continue;  // never in contact (tested below)
      const std::string name = name_a + " against " + name_b;
      int near = 0, far = 0, overlapping = 0, corner_pairs = 0;
      for (int trial = 0; trial < 300; ++trial) {
        // B at a random direction and a centre distance between 0.4 and 1 times the sum of the bounding
        // radii + 2 margins (deep overlaps are rarer, near misses more common).
        const double reach = bounding_radius(shape_a) + bounding_radius(shape_b) + 2 * margin;
        const double direction = kTwoPi * unit(engine);
        const Pose pa{Vec2(unit(engine) - 0.5, unit(engine) - 0.5), kTwoPi * unit(engine)};
        const Pose pb{pa.position + reach * (0.4 + 0.6 * unit(engine)) * Vec2(std::cos(direction), std::sin(direction)),
                      kTwoPi * unit(engine)};
        std::vector<ContactCandidate> contacts;
        collide_shapes(3, shape_a, pa, 7, shape_b, pb, margin, contacts);
        const BruteDistance brute = brute_distance(Boundary{shape_a, pa}, Boundary{shape_b, pb});
        const std::string where = name + " trial " + std::to_string(trial) + " distance " + std::to_string(brute.distance);

        // A thin rod's ends are flat, kEndFaceHalfWidth × length to each side of its axis: its distance to
        // anything is the segment's to within that.
        const double flat_ends = kEndFaceHalfWidth * std::max(shape_a.type == Shape::Type::Rod && shape_a.radius == 0.0 ? shape_a.length : 0.0,
                                                              shape_b.type == Shape::Type::Rod && shape_b.radius == 0.0 ? shape_b.length : 0.0);
        const double exact = std::max(1e-8, flat_ends);
        // Every point: keys and frames consistent, bodies in the order given, gap (the distance between its
        // two features) within the margin.
        for (std::size_t i = 0; i < contacts.size(); ++i) {
          const ContactCandidate& c = contacts[i];
          EXPECT_EQ(c.pair.body_a, 3);
          EXPECT_EQ(c.pair.body_b, 7);
          EXPECT_EQ(c.key, contact_key(c.pair));
          EXPECT_LE(c.frame.gap, margin);
          EXPECT_EQ(c.frame.gap, feature_pair_distance(c.pair, pa, pb));
          EXPECT_NEAR(c.frame.normal.norm(), 1.0, 1e-14);
          if (i > 0) EXPECT_TRUE(contacts[i - 1].key < c.key) << where;
        }
        if (brute.overlap) {
          // Overlapping shapes are never reported apart: some point touches or penetrates.
          ++overlapping;
          ASSERT_FALSE(contacts.empty()) << where;
          double deepest = std::numeric_limits<double>::infinity();
          for (const ContactCandidate& c : contacts) deepest = std::min(deepest, c.frame.gap);
          EXPECT_LE(deepest, 1e-7) << where;
          continue;
        }
        if (brute.distance > margin + 1e-7) {
          ++far;
          EXPECT_TRUE(contacts.empty()) << where;
          continue;
        }
        if (brute.distance > margin - 1e-7) continue;  // too close to the margin to say
        // Apart within the margin: the smallest gap is the distance, none is smaller.
        ++near;
        ASSERT_FALSE(contacts.empty()) << where;
        const ContactCandidate* closest = &contacts[0];
        for (const ContactCandidate& c : contacts) {
          EXPECT_GE(c.frame.gap, brute.distance - exact) << where;
          if (c.frame.gap < closest->frame.gap) closest = &c;
        }
        EXPECT_NEAR(closest->frame.gap, brute.distance, exact) << where;
        // Two corners of radius 0 closest to each other stand for each other by the faces at one of them,
        // whose frames are the faces' (the gap is the distance to the corner): nothing more to compare.
        if (closest->frame.gap != feature_pair_gap(closest->pair, pa, pb)) {
          ++corner_pairs;
          continue;
        }
        // Its normal points from A to B, along the line between the closest points.
        const Vec2 across = brute.on_b - brute.on_a;
        EXPECT_GT(closest->frame.normal.dot(across), 0.0) << where;
        if (brute.distance > 1e-3) {
          EXPECT_NEAR((closest->frame.normal - across.normalized()).norm(), 0.0, 1e-5) << where;
        }
        // Its point is in the middle of the gap, between the closest points.
        EXPECT_NEAR((closest->frame.point - 0.5 * (brute.on_a + brute.on_b)).norm(), 0.0,
                    brute.distance > 1e-3 ? 1e-5 : 1e-3) << where;
      }
      // Each kind of pose occurs often enough to mean something (corners closest to corners only where
      // both have radius 0).
      EXPECT_GE(near, 15) << name;
      if (rounding_radius(shape_a) > 0.0 || rounding_radius(shape_b) > 0.0) EXPECT_EQ(corner_pairs, 0) << name;
      EXPECT_GE(far, 10) << name;
      // (A thin rod has no area either: against a point or a wheel's tips it never overlaps.)
      const bool thin_a = shape_a.type == Shape::Type::Rod && shape_a.radius == 0.0;
      const bool thin_b = shape_b.type == Shape::Type::Rod && shape_b.radius == 0.0;
      if (!((zero_area(shape_a) && thin_b) || (thin_a && zero_area(shape_b)))) EXPECT_GE(overlapping, 8) << name;
    }
  }
}

TEST(NarrowPhase, SwappingTheBodiesSwapsTheFeaturesAndFlipsTheNormal) {
  std::mt19937 engine(8);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const auto zoo = shape_zoo();
  int compared = 0;
  for (const auto& [name_a, shape_a] : zoo) {
    for (const auto& [name_b, shape_b] : zoo) {
      for (int trial = 0; trial < 40; ++trial) {
        const Pose pa{Vec2(0, 0), kTwoPi * unit(engine)};
        const double d = kTwoPi * unit(engine);
        const Pose pb{(0.2 + 0.4 * unit(engine)) * Vec2(std::cos(d), std::sin(d)), kTwoPi * unit(engine)};
        std::vector<ContactCandidate> forward, backward;
        collide_shapes(0, shape_a, pa, 1, shape_b, pb, 0.1, forward);
        collide_shapes(1, shape_b, pb, 0, shape_a, pa, 0.1, backward);
        const std::string name = name_a + " / " + name_b + " trial " + std::to_string(trial);
        // The same points (keys swapped), the same gaps, opposite normals. Ties between equally deep
        // reference faces may choose other features when penetrating, so compare apart poses only.
        double min_forward = std::numeric_limits<double>::infinity();
        for (const auto& c : forward) min_forward = std::min(min_forward, c.frame.gap);
        if (!(min_forward > 1e-9)) continue;
        ASSERT_EQ(forward.size(), backward.size()) << name;
        compared += static_cast<int>(forward.size());
        for (const ContactCandidate& f : forward) {
          const auto match = std::find_if(backward.begin(), backward.end(), [&](const ContactCandidate& b) {
            return b.key.feature_a == f.key.feature_b && b.key.feature_b == f.key.feature_a;
          });
          ASSERT_NE(match, backward.end()) << name;
          EXPECT_NEAR(match->frame.gap, f.frame.gap, 1e-15) << name;
          EXPECT_NEAR((match->frame.normal + f.frame.normal).norm(), 0.0, 1e-15) << name;
        }
      }
    }
  }
  EXPECT_GE(compared, 200);
}

// --- the classic configurations --------------------------------------------------------------------------

/// The points of A (body 0) against B (body 1), as (feature id of A, feature id of B, gap).
std::vector<std::array<double, 3>> points(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb,
                                          double margin = 0.01) {
  std::vector<ContactCandidate> contacts;
  collide_shapes(0, a, pa, 1, b, pb, margin, contacts);
  std::vector<std::array<double, 3>> out;
  for (const ContactCandidate& c : contacts) {
    out.push_back({static_cast<double>(c.key.feature_a), static_cast<double>(c.key.feature_b), c.frame.gap});
  }
  return out;
}

constexpr double kFace = kFaceFeatureId;

TEST(NarrowPhase, FlushBoxesGiveTheTwoEndsOfTheirOverlap) {
  // B (0.4 × 0.2) lies 1 mm above A's top face (A 0.6 × 0.2), shifted right by 0.3: the overlap runs from
  // B's lower left corner (circle 0) to A's upper right corner (circle 2).
  const Shape a = box_shape(0.6, 0.2), b = box_shape(0.4, 0.2);
  const auto flush = points(a, Pose{Vec2(0, 0), 0}, b, Pose{Vec2(0.3, 0.201), 0});
  ASSERT_EQ(flush.size(), 2u);
  EXPECT_EQ(flush[0][0], 2);              // A's corner 2 against
  EXPECT_EQ(flush[0][1], kFace + 0);      //   B's bottom face
  EXPECT_NEAR(flush[0][2], 0.001, 1e-15);
  EXPECT_EQ(flush[1][0], kFace + 2);      // A's top face against
  EXPECT_EQ(flush[1][1], 0);              //   B's corner 0
  EXPECT_NEAR(flush[1][2], 0.001, 1e-15);
  // Centred: B's two bottom corners on A's top face.
  const auto centred = points(a, Pose{Vec2(0, 0), 0}, b, Pose{Vec2(0, 0.2), 0});
  ASSERT_EQ(centred.size(), 2u);
  EXPECT_EQ(centred[0][0], kFace + 2);
  EXPECT_EQ(centred[0][1], 0);
  EXPECT_EQ(centred[1][1], 1);
  EXPECT_NEAR(centred[1][2], 0.0, 1e-15);
  // Equal boxes stacked exactly: two points, not four (coincident corners count once).
  const auto stacked = points(b, Pose{Vec2(0, 0), 0}, b, Pose{Vec2(0, 0.2), 0});
  ASSERT_EQ(stacked.size(), 2u);
  EXPECT_EQ(stacked[0][0], kFace + 2);
  EXPECT_EQ(stacked[1][0], kFace + 2);
  // B turned by θ = 0.01 rad with its lower corner (circle 0, at height −0.2 sin θ − 0.1 cos θ from its
  // centre) 0.1 mm above A: its other bottom corner is 0.4 sin θ higher.
  const double theta = 0.01;
  const Pose tilted_pose{Vec2(0, 0.1 + 1e-4 + 0.2 * std::sin(theta) + 0.1 * std::cos(theta)), theta};
  const auto tilted = points(a, Pose{}, b, tilted_pose);
  ASSERT_EQ(tilted.size(), 2u);
  EXPECT_EQ(tilted[0][1], 0);
  EXPECT_NEAR(tilted[0][2], 1e-4, 1e-15);
  EXPECT_EQ(tilted[1][1], 1);
  EXPECT_NEAR(tilted[1][2], 1e-4 + 0.4 * std::sin(theta), 1e-15);
}

TEST(NarrowPhase, ATiltedCornerStrikesAFace) {
  // B turned by 0.3 rad; its lowest corner (circle 0) 2 mm above A's top face: one point.
  const Shape a = box_shape(0.6, 0.2), b = box_shape(0.2, 0.4);
  const Vec2 corner = Eigen::Rotation2Dd(0.3) * Vec2(-0.1, -0.2);
  const Pose pb{Vec2(0.05, 0.1 + 0.002) - corner, 0.3};
  const auto hit = points(a, Pose{}, b, pb);
  ASSERT_EQ(hit.size(), 1u);
  EXPECT_EQ(hit[0][0], kFace + 2);
  EXPECT_EQ(hit[0][1], 0);
  EXPECT_NEAR(hit[0][2], 0.002, 1e-15);
}

TEST(NarrowPhase, CornerAgainstCornerIsTheFacesAtOneCornerAgainstTheOther) {
  // B's lower left corner 3 mm from A's upper right corner, along the diagonal (1, 2)/√5 which lies inside
  // both corners' normal cones: the closest features are the two corners, whose circle–circle gap (radius
  // 0) could never turn negative. A's top face is the reference (its separation 0.003 · 2/√5 is the
  // largest): its corner's two faces stand in, each against B's corner, at the corners' distance.
  const Shape a = box_shape(0.4, 0.2), b = box_shape(0.2, 0.2);
  const Vec2 direction = Vec2(1, 2).normalized();
  const Vec2 corner_b = Vec2(0.2, 0.1) + 0.003 * direction;
  const Pose pb{corner_b + Vec2(0.1, 0.1), 0};
  const auto corners = points(a, Pose{}, b, pb);
  ASSERT_EQ(corners.size(), 2u);
  EXPECT_EQ(corners[0][0], kFace + 1);  // A's right face
  EXPECT_EQ(corners[0][1], 0);
  EXPECT_EQ(corners[1][0], kFace + 2);  // A's top face
  EXPECT_EQ(corners[1][1], 0);
  EXPECT_NEAR(corners[0][2], 0.003, 1e-15);
  EXPECT_NEAR(corners[1][2], 0.003, 1e-15);
  // Moved toward each other along the diagonal, B's corner enters A through its corner: both gaps pass
  // through zero together, continuously, and are negative inside (the distance to the face once the foot
  // is on it).
  for (double d : {1e-6, 1e-12, 0.0, -1e-12, -1e-6}) {
    const Pose moved{Vec2(0.2, 0.1) + d * direction + Vec2(0.1, 0.1), 0};
    std::vector<ContactCandidate> contacts;
    collide_shapes(0, a, Pose{}, 1, b, moved, 0.01, contacts);
    for (const ContactCandidate& c : contacts) {
      if (c.key.feature_b != 0) continue;
      if (d >= 0.0) EXPECT_NEAR(c.frame.gap, d, 1e-15) << d;
      if (d < 0.0) EXPECT_LT(c.frame.gap, 0.0) << d;
    }
  }
}

TEST(NarrowPhase, RodsSideBySideGiveTwoPointsAndEndToEndOne) {
  const Shape rod = rod_shape(0.6, 0.05);
  // B parallel above A, overlapping by 0.2, 1 mm apart: A's right end under B's lower side, B's left end on
  // A's upper side.
  const auto parallel = points(rod, Pose{}, rod, Pose{Vec2(0.4, 0.101), 0});
  ASSERT_EQ(parallel.size(), 2u);
  EXPECT_EQ(parallel[0][0], 1);
  EXPECT_EQ(parallel[0][1], kFace + 0);
  EXPECT_EQ(parallel[1][0], kFace + 1);
  EXPECT_EQ(parallel[1][1], 0);
  EXPECT_NEAR(parallel[0][2], 0.001, 1e-15);
  EXPECT_NEAR(parallel[1][2], 0.001, 1e-15);
  // End to end on one line, 4 mm between the caps: A's right end circle against B's left one.
  const auto end_to_end = points(rod, Pose{}, rod, Pose{Vec2(0.704, 0.0), 0});
  ASSERT_EQ(end_to_end.size(), 1u);
  EXPECT_EQ(end_to_end[0][0], 1);
  EXPECT_EQ(end_to_end[0][1], 0);
  EXPECT_NEAR(end_to_end[0][2], 0.004, 1e-15);
  // A T: B upright, its lower end 2 mm above the middle of A.
  const auto tee = points(rod, Pose{}, rod, Pose{Vec2(0.1, 0.05 + 0.002 + 0.05 + 0.3), 0.5 * std::acos(-1.0)});
  ASSERT_EQ(tee.size(), 1u);
  EXPECT_EQ(tee[0][0], kFace + 1);
  EXPECT_EQ(tee[0][1], 0);
  EXPECT_NEAR(tee[0][2], 0.002, 1e-15);
}

TEST(NarrowPhase, ADiskMeetsARodAtItsSideOrItsEnd) {
  const Shape rod = rod_shape(1.0, 0.05), disk = disk_shape(0.1);
  // Above the side at x = 0.3, 1 mm apart: the rod's upper face.
  const auto side = points(rod, Pose{}, disk, Pose{Vec2(0.3, 0.151), 0});
  ASSERT_EQ(side.size(), 1u);
  EXPECT_EQ(side[0][0], kFace + 1);
  EXPECT_EQ(side[0][1], 0);
  EXPECT_NEAR(side[0][2], 0.001, 1e-15);
  // Beyond the right end, obliquely: the end circle, and the gap is the distance of the centres − r − ρ.
  const Vec2 centre = Vec2(0.5, 0) + 0.152 * Vec2(std::cos(0.7), std::sin(0.7));
  const auto end = points(disk, Pose{centre, 0}, rod, Pose{});
  ASSERT_EQ(end.size(), 1u);
  EXPECT_EQ(end[0][0], 0);
  EXPECT_EQ(end[0][1], 1);
  EXPECT_NEAR(end[0][2], 0.002, 1e-15);
  // A box's side, and a box's corner.
  const Shape box = box_shape(0.4, 0.2);
  const auto box_side = points(disk, Pose{Vec2(0.305, 0.05), 0}, box, Pose{});
  ASSERT_EQ(box_side.size(), 1u);
  EXPECT_EQ(box_side[0][1], kFace + 1);
  EXPECT_NEAR(box_side[0][2], 0.005, 1e-15);
  const auto box_corner = points(disk, Pose{Vec2(0.2, 0.1) + 0.103 * Vec2(1, 1).normalized(), 0}, box, Pose{});
  ASSERT_EQ(box_corner.size(), 1u);
  EXPECT_EQ(box_corner[0][1], 2);
  EXPECT_NEAR(box_corner[0][2], 0.003, 1e-15);
}

TEST(NarrowPhase, AWheelTouchesWithItsSpokeTips) {
  // Spokes at 0°, 90°, 180°, 270°; a box below: only the lowest tip (spoke 3) is within the margin.
  const auto below = points(wheel_shape(0.3, 4), Pose{Vec2(0, 0.402), 0}, box_shape(1.0, 0.2), Pose{});
  ASSERT_EQ(below.size(), 1u);
  EXPECT_EQ(below[0][0], 3);
  EXPECT_EQ(below[0][1], kFace + 2);
  EXPECT_NEAR(below[0][2], 0.002, 1e-15);
  // A disk between two tips, nearer the hub than the tips' circle, touches nothing: spokes are not solid.
  EXPECT_TRUE(points(wheel_shape(0.3, 4), Pose{}, disk_shape(0.05), Pose{Vec2(0.1, 0.1), 0}).empty());
  // Two wheels, a wheel and a point, two points: zero radius against zero radius never touches.
  EXPECT_TRUE(points(wheel_shape(0.3, 4), Pose{}, wheel_shape(0.3, 4), Pose{Vec2(0.6, 0), 0}, 1.0).empty());
  EXPECT_TRUE(points(point_shape(), Pose{}, wheel_shape(0.3, 4), Pose{Vec2(0.3, 0), 0}, 1.0).empty());
  EXPECT_TRUE(points(point_shape(), Pose{}, point_shape(), Pose{}, 1.0).empty());
}

TEST(NarrowPhase, EveryShapeAgainstAPlane) {
  // The floor y = 0.1, tilted by a normal (0.1, 1): each circle of the shape within the margin.
  PlaneDef floor;
  floor.point = Vec2(0, 0.1);
  floor.normal = Vec2(0.1, 1.0);
  const Vec2 n = floor.normal.normalized();
  const double margin = 0.05;
  const auto zoo = shape_zoo();
  std::mt19937 engine(4);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (const auto& [name, shape] : zoo) {
    for (int trial = 0; trial < 50; ++trial) {
      const Pose pose{Vec2(unit(engine) - 0.5, 0.1 + bounding_radius(shape) * 1.5 * unit(engine)), kTwoPi * unit(engine)};
      std::vector<ContactCandidate> contacts;
      collide_shape_plane(2, floor, 4, shape, pose, margin, contacts);
      // Expected: every circle k of the shape with n·(c − p₀) − ρ ≤ margin, in order.
      std::vector<int> expected;
      for (int k = 0; k < circle_count(shape); ++k) {
        const Feature c = circle_feature(shape, k);
        const Vec2 centre = pose.position + Eigen::Rotation2Dd(pose.angle) * c.point;
        if (n.dot(centre - floor.point) - c.radius <= margin) expected.push_back(k);
      }
      ASSERT_EQ(contacts.size(), expected.size()) << name << " trial " << trial;
      for (std::size_t i = 0; i < contacts.size(); ++i) {
        const ContactCandidate& c = contacts[i];
        EXPECT_EQ(c.key, (ContactKey{kWorld, 4, kFaceFeatureId + 2, expected[i]})) << name;
        EXPECT_NEAR((c.frame.normal - n).norm(), 0.0, 1e-15) << name;  // from the world into the body
        const Feature circle = circle_feature(shape, expected[i]);
        const Vec2 centre = pose.position + Eigen::Rotation2Dd(pose.angle) * circle.point;
        EXPECT_NEAR(c.frame.gap, n.dot(centre - floor.point) - circle.radius, 1e-14) << name;
      }
      // The smallest gap is the shape's distance to the plane when within the margin (brute force: the
      // lowest boundary sample, refined).
      if (!contacts.empty() && shape.type != Shape::Type::Point && shape.type != Shape::Type::Wheel) {
        const Boundary boundary{shape, pose};
        double lowest = std::numeric_limits<double>::infinity(), best = 0;
        for (int k = 0; k < 4096; ++k) {
          const double h = n.dot(boundary.at(k / 4096.0) - floor.point);
          if (h < lowest) {
            lowest = h;
            best = k / 4096.0;
          }
        }
        for (double window = 1.0 / 4096; window > 1e-12; window /= 4) {
          double next = best;
          for (int i = -5; i <= 5; ++i) {
            const double h = n.dot(boundary.at(best + i * window / 5) - floor.point);
            if (h < lowest) {
              lowest = h;
              next = best + i * window / 5;
            }
          }
          best = next;
        }
        double smallest = std::numeric_limits<double>::infinity();
        for (const auto& c : contacts) smallest = std::min(smallest, c.frame.gap);
        EXPECT_NEAR(smallest, lowest, 1e-9) << name << " trial " << trial;
      }
    }
  }
}

TEST(NarrowPhase, RoundingACornerTheFeaturesChangeButTheGapAndItsRowDoNot) {
  // A disk (r = 0.1) slides along the offset curve of a turned box (0.4 × 0.2), 1 cm from it: over the top
  // face, around corner 2, down the right face. Its contact point goes face 2 → corner 2 → face 1, the gap
  // stays 0.01 and the normal turns continuously. At each switch both pairs give the same φ and the same
  // Jacobian row (normal and tangential): the distance to a convex shape is C¹, so a simulator can swap
  // one pair for the other between steps without an event (Ȧq̇ jumps, as the curvature does).
  const Shape box = box_shape(0.4, 0.2), disk = disk_shape(0.1);
  const Pose pb{Vec2(0.3, -0.1), 0.5};
  const Eigen::Rotation2Dd turn(0.5);
  const Vec2 corner = pb.position + turn * Vec2(0.2, 0.1);
  const Vec2 up = turn * Vec2(0, 1), right = turn * Vec2(1, 0);
  const double reach = 0.11;
  std::vector<int> features;
  Vec2 last_normal = up;
  for (int i = 0; i <= 300; ++i) {
    // 0..100 along the top, 100..200 around the corner, 200..300 down the side.
    Vec2 centre;
    if (i <= 100) centre = corner + reach * up - right * (0.1 * (100 - i) / 100.0);
    else if (i <= 200) {
      const double a = 0.25 * kTwoPi * (i - 100) / 100.0;
      centre = corner + reach * (std::cos(a) * up + std::sin(a) * right);
    } else {
      centre = corner + reach * right + up * (-0.1 * (i - 200) / 100.0);
    }
    std::vector<ContactCandidate> contacts;
    collide_shapes(0, box, pb, 1, disk, Pose{centre, 0.0}, 0.05, contacts);
    ASSERT_EQ(contacts.size(), 1u) << i;
    EXPECT_NEAR(contacts[0].frame.gap, 0.01, 1e-15) << i;
    EXPECT_LT((contacts[0].frame.normal - last_normal).norm(), 0.025) << i;  // ≤ the arc step π/200
    last_normal = contacts[0].frame.normal;
    if (features.empty() || features.back() != contacts[0].key.feature_a) features.push_back(contacts[0].key.feature_a);
  }
  EXPECT_EQ(features, (std::vector<int>{kFaceFeatureId + 2, 2, kFaceFeatureId + 1}));

  // At the switch from the top face to the corner, both pairs' rows agree.
  Vector q(6), qd(6);
  const Vec2 centre = corner + reach * up;
  q << pb.position, pb.angle, centre, 0.3;
  qd << 0.4, -1.1, 0.7, -0.2, 0.9, -1.3;
  FeaturePair face_pair, corner_pair;
  face_pair.body_a = corner_pair.body_a = 0;
  face_pair.body_b = corner_pair.body_b = 1;
  face_pair.a = face_feature(box, 2);
  corner_pair.a = circle_feature(box, 2);
  face_pair.b = corner_pair.b = circle_feature(disk, 0);
  ConstraintRows rows_face, rows_corner;
  rows_face.resize(2, 6);
  rows_corner.resize(2, 6);
  feature_pair_normal_row(face_pair, q, qd, 0, rows_face);
  feature_pair_tangent_row(face_pair, q, qd, 1, rows_face);
  feature_pair_normal_row(corner_pair, q, qd, 0, rows_corner);
  feature_pair_tangent_row(corner_pair, q, qd, 1, rows_corner);
  EXPECT_NEAR(rows_face.phi(0), rows_corner.phi(0), 1e-15);
  EXPECT_LT((rows_face.jacobian - rows_corner.jacobian).cwiseAbs().maxCoeff(), 1e-14);
  EXPECT_GT(std::abs(rows_face.adot_qd(0) - rows_corner.adot_qd(0)), 1e-3);
}

TEST(NarrowPhase, KeysPersistUnderSmallMotion) {
  // A box resting tilted on another and a disk against a rod: moving everything by a few micrometres and
  // microradians keeps every key.
  const Shape a = box_shape(0.6, 0.2), b = box_shape(0.3, 0.3), rod = rod_shape(0.8, 0.04), disk = disk_shape(0.1);
  auto keys = [&](double s) {
    std::vector<ContactCandidate> c;
    collide_shapes(0, a, Pose{Vec2(0, 0), 0.0}, 1, b, Pose{Vec2(0.1 + s, 0.26 + s), 0.02 - s}, 0.02, c);
    collide_shapes(1, rod, Pose{Vec2(1, 0), 0.1 + s}, 2, disk, Pose{Vec2(1.2, 0.17 + s), s}, 0.02, c);
    std::vector<ContactKey> out;
    for (const auto& x : c) out.push_back(x.key);
    return out;
  };
  const std::vector<ContactKey> reference = keys(0.0);
  ASSERT_EQ(reference.size(), 3u);
  for (double s : {1e-6, -2e-6, 5e-6}) EXPECT_EQ(keys(s), reference) << s;
}

TEST(NarrowPhase, BadInputIsNamed) {
  std::vector<ContactCandidate> out;
  const Shape disk = disk_shape(0.1);
  EXPECT_EQ(message_of([&] { collide_shapes(0, disk, Pose{}, 1, disk, Pose{}, -1.0, out); }),
            "margin: must be a finite number ≥ 0, got -1");
  EXPECT_EQ(message_of([&] { collide_shapes(0, disk, Pose{}, 0, disk, Pose{}, 0.1, out); }), "body_b: must differ from body_a");
  EXPECT_EQ(message_of([&] { collide_shapes(-1, disk, Pose{}, 0, disk, Pose{}, 0.1, out); }),
            "body_a: must be a body index, got -1");
  EXPECT_EQ(message_of([&] { collide_shapes(0, disk, Pose{Vec2(0, std::nan("")), 0}, 1, disk, Pose{}, 0.1, out); }),
            "pose_a: must be finite numbers");
  EXPECT_EQ(message_of([&] { collide_shapes(0, disk, Pose{}, 1, box_shape(0.0, 0.1), Pose{}, 0.1, out); }),
            "shape_b.width: must be positive, got 0");
  PlaneDef plane;
  plane.normal = Vec2::Zero();
  EXPECT_EQ(message_of([&] { collide_shape_plane(0, plane, 0, disk, Pose{}, 0.1, out); }),
            "plane.normal: must be a non-zero vector");
  EXPECT_TRUE(out.empty());
}

}  // namespace
}  // namespace oblique
