// Runs of scenes with automatic contacts ("collide": "all"), watched at every sample for what no contact may
// break: linear and angular momentum (about the origin) with no external force, kinetic energy never rising,
// and penetration by the exact signed distance between the shapes (written here from the shapes'
// definitions, not from the narrow phase). The impact records are kept whole.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "oblique/scenario/scenario.hpp"
#include "oblique/simulation/simulator.hpp"

namespace oblique::testing {

/// A shape's convex core in the world (one point: disk, point; a segment: rod; four corners: box) and the
/// radius that rounds it.
struct WorldCore {
  std::vector<Vec2> vertices;
  double radius = 0.0;
};

inline WorldCore world_core(const Shape& shape, const Vec2& position, double angle) {
  const double c = std::cos(angle), s = std::sin(angle);
  auto place = [&](double x, double y) -> Vec2 { return position + Vec2(c * x - s * y, s * x + c * y); };
  WorldCore core;
  switch (shape.type) {
    case Shape::Type::Disk:
      core.vertices = {position};
      core.radius = shape.radius;
      break;
    case Shape::Type::Rod:
      core.vertices = {place(-0.5 * shape.length, 0.0), place(0.5 * shape.length, 0.0)};
      core.radius = shape.radius;
      break;
    case Shape::Type::Box: {
      const double w = 0.5 * shape.width, h = 0.5 * shape.height;
      core.vertices = {place(-w, -h), place(w, -h), place(w, h), place(-w, h)};
      break;
    }
    default:
      core.vertices = {position};  // a point touches with its centre
      break;
  }
  return core;
}

/// Distance from p to the segment [a, b].
inline double point_segment_distance(const Vec2& p, const Vec2& a, const Vec2& b) {
  const Vec2 e = b - a;
  const double t = e.squaredNorm() > 0.0 ? std::clamp((p - a).dot(e) / e.squaredNorm(), 0.0, 1.0) : 0.0;
  return (p - (a + t * e)).norm();
}

/// The edges of a core as segments (a point is a segment of length 0, a box its four sides).
inline std::vector<std::pair<Vec2, Vec2>> core_edges(const WorldCore& core) {
  const std::vector<Vec2>& v = core.vertices;
  if (v.size() < 3) return {{v.front(), v.back()}};
  std::vector<std::pair<Vec2, Vec2>> edges;
  for (std::size_t k = 0; k < v.size(); ++k) edges.push_back({v[k], v[(k + 1) % v.size()]});
  return edges;
}

/// The signed distance between two rounded convex cores: their distance less both radii when apart; minus
/// the depth of their overlap (the least overlap of their projections over the edge normals of both and
/// the directions of segments) less both radii when their cores overlap.
inline double signed_distance(const WorldCore& a, const WorldCore& b) {
  auto cross = [](const Vec2& u, const Vec2& w) { return u.x() * w.y() - u.y() * w.x(); };
  double distance = std::numeric_limits<double>::infinity();
  bool crossing = false;
  for (const auto& [p, q] : core_edges(a)) {
    for (const auto& [r, s] : core_edges(b)) {
      const double d1 = cross(q - p, r - p), d2 = cross(q - p, s - p), d3 = cross(s - r, p - r), d4 = cross(s - r, q - r);
      crossing = crossing || (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)));
      distance = std::min({distance, point_segment_distance(p, r, s), point_segment_distance(q, r, s),
                           point_segment_distance(r, p, q), point_segment_distance(s, p, q)});
    }
  }
  // Separating axes of the cores.
  std::vector<Vec2> axes;
  for (const WorldCore* core : {&a, &b}) {
    for (const auto& [p, q] : core_edges(*core)) {
      if ((q - p).norm() == 0.0) continue;
      const Vec2 along = (q - p).normalized();
      axes.push_back(Vec2(-along.y(), along.x()));
      if (core->vertices.size() == 2) axes.push_back(along);
    }
  }
  double depth = std::numeric_limits<double>::infinity();
  bool apart = axes.empty();
  for (const Vec2& axis : axes) {
    double min_a = std::numeric_limits<double>::infinity(), max_a = -min_a, min_b = min_a, max_b = -min_a;
    for (const Vec2& p : a.vertices) min_a = std::min(min_a, axis.dot(p)), max_a = std::max(max_a, axis.dot(p));
    for (const Vec2& p : b.vertices) min_b = std::min(min_b, axis.dot(p)), max_b = std::max(max_b, axis.dot(p));
    const double overlap = std::min(max_a - min_b, max_b - min_a);
    apart = apart || overlap < 0.0;
    depth = std::min(depth, overlap);
  }
  if (apart || (!crossing && distance > 0.0 && a.vertices.size() < 3 && b.vertices.size() < 3)) {
    return distance - a.radius - b.radius;
  }
  return -depth - a.radius - b.radius;
}

/// The smallest signed distance between two bodies of a simulator now (+∞ with fewer than two bodies).
inline double smallest_signed_distance(const Simulator& sim) {
  const Scenario& s = sim.scenario();
  const Vector& q = sim.positions();
  double smallest = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < s.bodies.size(); ++i) {
    for (std::size_t j = i + 1; j < s.bodies.size(); ++j) {
      const int a = 3 * static_cast<int>(i), b = 3 * static_cast<int>(j);
      smallest = std::min(smallest, signed_distance(world_core(s.bodies[i].shape, Vec2(q(a), q(a + 1)), q(a + 2)),
                                                    world_core(s.bodies[j].shape, Vec2(q(b), q(b + 1)), q(b + 2))));
    }
  }
  return smallest;
}

/// No gravity, automatic contacts, one e: bodies that meet only each other.
inline Scenario free_scene(double e) {
  Scenario s;
  s.gravity = Vec2::Zero();
  s.restitution = e;
  s.collide_all = true;
  return s;
}

/// Σ m v and Σ (m x × v + I ω), about the origin.
struct Momenta {
  Vec2 linear = Vec2::Zero();
  double angular = 0.0;
};

inline Momenta momenta_of(const Simulator& sim) {
  Momenta p;
  const Vector& m = sim.model().mass_diagonal();
  const Vector& q = sim.positions();
  const Vector& v = sim.velocities();
  for (int b = 0; b < sim.model().body_count(); ++b) {
    const int i = 3 * b;
    p.linear += m(i) * Vec2(v(i), v(i + 1));
    p.angular += m(i) * (q(i) * v(i + 1) - q(i + 1) * v(i)) + m(i + 2) * v(i + 2);
  }
  return p;
}

/// What a run kept and broke, and where it ended.
struct ContactRun {
  std::vector<ImpactRecord> impacts;
  double momentum_change = 0.0;          ///< max |Σ m v − its start| over the samples
  double angular_momentum_change = 0.0;  ///< max |L − L(0)| about the origin
  double kinetic_rise = 0.0;             ///< max of K(t) − K(earlier max), never negative
  double kinetic_start = 0.0;
  double deepest = std::numeric_limits<double>::infinity();  ///< smallest signed distance of two bodies
  Vector q, qd;                          ///< at the end
};

/// Runs `scenario` (no external force expected) to `t_end`, sampling every `dt` (and calling again while
/// the work budget stops a call).
inline ContactRun run_watched(const Scenario& scenario, double t_end, double dt = 1e-4) {
  Simulator sim(scenario);
  ContactRun run;
  const Momenta start = momenta_of(sim);
  run.kinetic_start = sim.energy().kinetic;
  double kinetic_max = run.kinetic_start;
  const int samples = static_cast<int>(std::ceil(t_end / dt - 1e-9));
  for (int k = 1; k <= samples; ++k) {
    const double t = std::min(t_end, k * dt);
    do {
      sim.advance_to(t);
    } while (sim.work_limit_hit());
    const Momenta now = momenta_of(sim);
    run.momentum_change = std::max(run.momentum_change, (now.linear - start.linear).norm());
    run.angular_momentum_change = std::max(run.angular_momentum_change, std::abs(now.angular - start.angular));
    run.kinetic_rise = std::max(run.kinetic_rise, sim.energy().kinetic - kinetic_max);
    kinetic_max = std::max(kinetic_max, sim.energy().kinetic);
    run.deepest = std::min(run.deepest, smallest_signed_distance(sim));
  }
  run.impacts.assign(sim.impacts().begin(), sim.impacts().end());
  run.q = sim.positions();
  run.qd = sim.velocities();
  return run;
}

/// The largest difference of two runs' velocities, angular ones weighted by `size` (m): point speeds.
inline double velocity_difference(const ContactRun& a, const ContactRun& b, double size) {
  double worst = 0.0;
  for (int i = 0; i < a.qd.size(); ++i) worst = std::max(worst, std::abs(a.qd(i) - b.qd(i)) * (i % 3 == 2 ? size : 1.0));
  return worst;
}

/// What no run may break: momentum and angular momentum kept to round-off of `momentum` (a scale of the
/// scene's), kinetic energy never rising beyond round-off, no penetration beyond 1e-10 m, and at every
/// impact no energy gain and no constraint work beyond round-off.
inline void expect_laws_kept(const ContactRun& run, double momentum, const std::string& where) {
  EXPECT_LE(run.momentum_change, 1e-14 * momentum) << where;
  EXPECT_LE(run.angular_momentum_change, 1e-14 * momentum) << where;
  EXPECT_LE(run.kinetic_rise, 1e-14 * run.kinetic_start) << where;
  EXPECT_GE(run.deepest, -1e-10) << where;
  for (const ImpactRecord& impact : run.impacts) {
    EXPECT_FALSE(impact.result.flags.energy_gain) << where << " t = " << impact.time;
    EXPECT_LE(impact.result.constraint_work, 1e-12 * std::max(impact.result.kinetic_minus, 1e-300)) << where;
  }
}

}  // namespace oblique::testing
