#include "scene_properties.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <limits>

#include "oblique/geometry/automatic_contacts.hpp"
#include "oblique/geometry/shape_distance.hpp"
#include "oblique/simulation/simulator.hpp"
#include "oblique/math/trigonometry.hpp"

namespace oblique::scenes {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

/// "1.25e-09".
std::string number(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.4g", x);
  return buffer;
}

/// A time or an energy, to the digits that tell two close ones apart ("0.180499984036").
std::string precise(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.12g", x);
  return buffer;
}

// ---- a run, sampled at every step ---------------------------------------------------------------------------

struct Sample {
  double time = 0.0;
  Vector q, qd;
  double drift = 0.0;  ///< the largest correction of the position projection in the step that ends here
};

struct Impact {
  double time = 0.0;
  Vector qd_minus, qd_plus;
  double kinetic_minus = 0.0, kinetic_plus = 0.0;
  double approach = 0.0;  ///< the fastest approach of its contact points, max −φ̇⁻ (m/s)
};

struct Trace {
  std::vector<Sample> samples;
  std::vector<Impact> impacts;
  Vector masses;  ///< diag M
  std::string error;
};

Trace run(const Scenario& scenario, double duration) {
  Trace trace;
  try {
    // The state the scenario gives, then the simulator's at t = 0 (after the impacts of bodies that start
    // touching and approaching), then one sample per step.
    Sample given{0.0, Vector(3 * scenario.bodies.size()), Vector(3 * scenario.bodies.size())};
    for (std::size_t b = 0; b < scenario.bodies.size(); ++b) {
      const BodyDef& body = scenario.bodies[b];
      given.q.segment<3>(3 * static_cast<Eigen::Index>(b)) << body.position.x(), body.position.y(), body.angle;
      given.qd.segment<3>(3 * static_cast<Eigen::Index>(b)) << body.velocity.x(), body.velocity.y(), body.angular_velocity;
    }
    trace.samples.push_back(given);
    Simulator sim(scenario);
    trace.masses = sim.model().mass_diagonal();
    trace.samples.push_back(Sample{sim.time(), sim.positions(), sim.velocities(), sim.last_drift()});
    const double step = scenario.integrator.step;
    const int steps = static_cast<int>(std::llround(duration / step));
    for (int k = 1; k <= steps; ++k) {
      double drift = 0.0;
      do {
        sim.advance_to(k * step);
        drift = std::max(drift, sim.last_drift());
      } while (sim.work_limit_hit());
      trace.samples.push_back(Sample{sim.time(), sim.positions(), sim.velocities(), drift});
    }
    if (sim.dropped_impacts() > 0) trace.error = "the impact log dropped records";
    for (const ImpactRecord& record : sim.impacts()) {
      double approach = 0.0;
      for (int row : record.normal_rows) {
        if (row >= 0 && row < record.result.normal_velocity_minus.size()) {
          approach = std::max(approach, -record.result.normal_velocity_minus(row));
        }
      }
      trace.impacts.push_back(Impact{record.time, record.result.qd_minus, record.result.qd_plus,
                                     record.result.kinetic_minus, record.result.kinetic_plus, approach});
    }
  } catch (const std::exception& error) {
    trace.error = error.what();
  }
  return trace;
}

// ---- the scene's scales ---------------------------------------------------------------------------------------

/// A body's size as the simulator's tolerances take it: centre to farthest feature, radius included.
double body_size(const BodyDef& body) { return std::max(shape_reach(body.shape), body.shape.radius); }

/// The gap tolerance of two bodies (simulator.hpp), or of a body against a plane (other < 0).
double gap_tolerance(const Scenario& s, int body, int other) {
  double size = body_size(s.bodies[static_cast<std::size_t>(body)]);
  if (other >= 0) size = std::min(size, body_size(s.bodies[static_cast<std::size_t>(other)]));
  return std::max(kRelativeGapTolerance * size, kMinGapTolerance);
}

Pose pose_at(const Vector& q, int body) { return Pose{Vec2(q(3 * body), q(3 * body + 1)), q(3 * body + 2)}; }
Vec2 velocity_at(const Vector& qd, int body) { return Vec2(qd(3 * body), qd(3 * body + 1)); }

double kinetic(const Vector& masses, const Vector& qd) {
  return 0.5 * qd.dot(masses.cwiseProduct(qd));
}

/// Whether body pair (i, j) can touch at all (two points of radius 0 never do).
bool can_touch(const Scenario& s, int i, int j) {
  const BodyDef& a = s.bodies[static_cast<std::size_t>(i)];
  const BodyDef& b = s.bodies[static_cast<std::size_t>(j)];
  return a.collides && b.collides;
}

/// Whether nothing but normal impulses can change momentum along the planes: no friction anywhere.
bool frictionless(const Scenario& s) {
  if (s.mu != 0.0) return false;
  for (const BodyDef& body : s.bodies) {
    if (body.stick || (body.mu && *body.mu != 0.0)) return false;
  }
  return true;
}

// ---- the checks -----------------------------------------------------------------------------------------------

class Checker {
 public:
  Checker(const PropertyScene& scene, const Trace& trace, PropertyReport& report)
      : scene_(scene), s_(scene.scenario), trace_(trace), report_(report), bodies_(static_cast<int>(s_.bodies.size())) {}

  void all() {
    momentum();
    penetration();
    jumps();
    energy();
    if (!scene_.two_sided) first_impact();
  }

 private:
  void fail(Property property, double time, double amount, const std::string& detail) {
    if (report_.failure(property) != nullptr) return;
    report_.failures.push_back(PropertyFailure{property, time, amount, detail});
  }
  void checked(Property property) { report_.checked.push_back(property); }
  /// Whether `measured` exceeds `allowed`, keeping the worst ratio of the property.
  bool exceeds(Property property, double measured, double allowed) {
    double& worst = report_.worst[static_cast<std::size_t>(property)];
    worst = std::max(worst, allowed > 0.0 ? measured / allowed : (measured > 0.0 ? kInfinity : 0.0));
    return measured > allowed;
  }

  void momentum() {
    const Sample& start = trace_.samples.front();
    const Vector& m = trace_.masses;
    // Scales: the momenta the bodies can have with the kinetic energy of the start.
    const double k0 = kinetic(m, start.qd);
    double mass_sum = 0.0, inertia_sum = 0.0, speed_sum = 0.0, farthest = 0.0, reach = 0.0;
    for (int b = 0; b < bodies_; ++b) {
      mass_sum += m(3 * b);
      inertia_sum += m(3 * b + 2);
      speed_sum += m(3 * b) * velocity_at(start.qd, b).norm();
      reach = std::max(reach, body_size(s_.bodies[static_cast<std::size_t>(b)]));
    }
    for (const Sample& sample : trace_.samples) {
      for (int b = 0; b < bodies_; ++b) farthest = std::max(farthest, pose_at(sample.q, b).position.norm());
    }
    const double linear_scale = std::max(speed_sum, std::sqrt(2.0 * k0 * mass_sum));
    const double angular_scale = linear_scale * (farthest + reach) + std::sqrt(2.0 * k0 * inertia_sum);
    // The position projection moves bodies by up to its correction δ (Simulator::last_drift) with no
    // velocity: the angular momentum about the origin moves by up to Σ m |v| |δ|, √2 δ per body. A correction
    // beyond the gap tolerance, a contact that went that far from touching inside a step, explains nothing.
    const double largest_tolerance = std::max(kRelativeGapTolerance * reach, kMinGapTolerance);
    const auto projection = [linear_scale, largest_tolerance](double drift) {
      return 2.0 * linear_scale * std::min(drift, largest_tolerance);
    };
    double total_drift = 0.0;

    // Against planes, linear momentum is kept only along their common tangent, and only without friction;
    // angular momentum not at all.
    bool linear = true;
    Vec2 tangent = Vec2::Zero();
    if (!s_.planes.empty()) {
      const Vec2 n0 = s_.planes.front().normal.normalized();
      for (const PlaneDef& plane : s_.planes) {
        const Vec2 n = plane.normal.normalized();
        if (std::abs(n0.x() * n.y() - n0.y() * n.x()) > 1e-12) linear = false;
      }
      linear = linear && frictionless(s_);
      tangent = Vec2(-n0.y(), n0.x());
    }
    const auto momenta = [&](const Sample& sample, Vec2& p, double& l) {
      p = Vec2::Zero();
      l = 0.0;
      for (int b = 0; b < bodies_; ++b) {
        const Vec2 x = pose_at(sample.q, b).position, v = velocity_at(sample.qd, b);
        p += m(3 * b) * v;
        l += m(3 * b) * (x.x() * v.y() - x.y() * v.x()) + m(3 * b + 2) * sample.qd(3 * b + 2);
      }
    };
    Vec2 p0;
    double l0 = 0.0;
    momenta(start, p0, l0);
    if (linear) checked(Property::LinearMomentum);
    if (s_.planes.empty()) checked(Property::AngularMomentum);
    double previous = l0;
    for (const Sample& sample : trace_.samples) {
      Vec2 p;
      double l = 0.0;
      momenta(sample, p, l);
      // In one step, round-off (impacts keep it exactly); over the run, RK4's truncation too.
      const double step_change = std::abs(l - previous);
      previous = l;
      total_drift += std::min(sample.drift, largest_tolerance);
      if (s_.planes.empty() &&
          exceeds(Property::AngularMomentum, step_change, kMomentumTolerance * angular_scale + projection(sample.drift))) {
        fail(Property::AngularMomentum, sample.time, step_change / angular_scale,
             "|ΔL| = " + number(step_change) + " kg m²/s in one step, " + number(step_change / angular_scale) +
                 " of the angular momentum scale " + number(angular_scale));
      }
      const Vec2 dp = p - p0;
      const double linear_error = s_.planes.empty() ? dp.norm() : std::abs(dp.dot(tangent));
      if (linear && exceeds(Property::LinearMomentum, linear_error, kMomentumTolerance * linear_scale)) {
        fail(Property::LinearMomentum, sample.time, linear_error / linear_scale,
             "|ΔP| = " + number(linear_error) + " kg m/s, " + number(linear_error / linear_scale) + " of the momentum scale " +
                 number(linear_scale));
      }
      if (s_.planes.empty() && exceeds(Property::AngularMomentum, std::abs(l - l0),
                                       kAngularMomentumTolerance * angular_scale + projection(total_drift))) {
        fail(Property::AngularMomentum, sample.time, std::abs(l - l0) / angular_scale,
             "|ΔL| = " + number(std::abs(l - l0)) + " kg m²/s, " + number(std::abs(l - l0) / angular_scale) +
                 " of the angular momentum scale " + number(angular_scale));
      }
    }
  }

  /// Never deeper than the gap tolerance, or than at the start (an initial state may overlap by up to
  /// kInitialPenetration) plus the tolerance.
  void penetration() {
    checked(Property::Penetration);
    // What each pair may reach: minus its gap tolerance, or its start when it starts deeper.
    const Sample& start = trace_.samples.front();
    std::vector<double> allowed(static_cast<std::size_t>(bodies_ * bodies_), 0.0);
    for (int i = 0; i < bodies_; ++i) {
      for (int j = i + 1; j < bodies_; ++j) {
        const BodyDef& a = s_.bodies[static_cast<std::size_t>(i)];
        const BodyDef& b = s_.bodies[static_cast<std::size_t>(j)];
        const double d0 = shape_signed_distance(a.shape, pose_at(start.q, i), b.shape, pose_at(start.q, j));
        allowed[static_cast<std::size_t>(i * bodies_ + j)] = gap_tolerance(s_, i, j) - std::min(d0, 0.0);
      }
    }
    for (const Sample& sample : trace_.samples) {
      for (int i = 0; i < bodies_; ++i) {
        const BodyDef& a = s_.bodies[static_cast<std::size_t>(i)];
        for (int j = i + 1; j < bodies_; ++j) {
          if (!can_touch(s_, i, j)) continue;
          const BodyDef& b = s_.bodies[static_cast<std::size_t>(j)];
          const double d = shape_signed_distance(a.shape, pose_at(sample.q, i), b.shape, pose_at(sample.q, j));
          const double tolerance = allowed[static_cast<std::size_t>(i * bodies_ + j)];
          if (exceeds(Property::Penetration, -d, tolerance)) {
            fail(Property::Penetration, sample.time, -d,
                 "\"" + a.name + "\" and \"" + b.name + "\" " + number(-d) + " m inside each other (tolerance " +
                     number(tolerance) + " m)");
          }
        }
        if (!a.collides) continue;
        for (std::size_t p = 0; p < s_.planes.size(); ++p) {
          const double d = shape_plane_signed_distance(a.shape, pose_at(sample.q, i), s_.planes[p]);
          const double d0 = shape_plane_signed_distance(a.shape, pose_at(start.q, i), s_.planes[p]);
          const double tolerance = gap_tolerance(s_, i, -1) - std::min(d0, 0.0);
          if (exceeds(Property::Penetration, -d, tolerance)) {
            fail(Property::Penetration, sample.time, -d,
                 "\"" + a.name + "\" " + number(-d) + " m inside plane \"" + s_.planes[p].name + "\" (tolerance " +
                     number(tolerance) + " m)");
          }
        }
      }
    }
  }

  void jumps() {
    checked(Property::PositionJump);
    std::size_t next_impact = 0;
    for (std::size_t k = 1; k < trace_.samples.size(); ++k) {
      const Sample& before = trace_.samples[k - 1];
      const Sample& after = trace_.samples[k];
      const double h = after.time - before.time;
      // The impacts of this step (those at its start time too: sample k − 1 shows their q̇⁺ already).
      std::size_t first = next_impact;
      while (next_impact < trace_.impacts.size() && trace_.impacts[next_impact].time <= after.time) ++next_impact;
      for (int b = 0; b < bodies_; ++b) {
        double speed = std::max(velocity_at(before.qd, b).norm(), velocity_at(after.qd, b).norm());
        double spin = std::max(std::abs(before.qd(3 * b + 2)), std::abs(after.qd(3 * b + 2)));
        for (std::size_t i = first; i < next_impact; ++i) {
          for (const Vector* qd : {&trace_.impacts[i].qd_minus, &trace_.impacts[i].qd_plus}) {
            if (qd->size() != 3 * bodies_) continue;
            speed = std::max(speed, velocity_at(*qd, b).norm());
            spin = std::max(spin, std::abs((*qd)(3 * b + 2)));
          }
        }
        // The simulator's start puts bodies that overlap within kInitialPenetration back on their contacts.
        const double tolerance = k == 1 ? kInitialPenetration : gap_tolerance(s_, b, -1);
        const double size = body_size(s_.bodies[static_cast<std::size_t>(b)]);
        const double moved = (pose_at(after.q, b).position - pose_at(before.q, b).position).norm();
        const double turned = std::abs(after.q(3 * b + 2) - before.q(3 * b + 2));
        const double can_move = kJumpSlack * h * speed + tolerance;
        const double can_turn = kJumpSlack * h * spin + tolerance / size;
        if (exceeds(Property::PositionJump, moved, can_move)) {
          fail(Property::PositionJump, after.time, moved - can_move,
               "\"" + s_.bodies[static_cast<std::size_t>(b)].name + "\" moved " + number(moved) + " m in " + number(h) +
                   " s at speeds up to " + number(speed) + " m/s");
        }
        if (exceeds(Property::PositionJump, turned, can_turn)) {
          fail(Property::PositionJump, after.time, turned - can_turn,
               "\"" + s_.bodies[static_cast<std::size_t>(b)].name + "\" turned " + number(turned) + " rad in " +
                   number(h) + " s at spins up to " + number(spin) + " rad/s");
        }
      }
    }
  }

  /// Never rising; with friction, an impact may create energy (Newton's restitution with Coulomb friction:
  /// Kane's paradox, docs/friction.md), so only the smooth phases, the steps without an impact, are checked.
  void energy() {
    checked(Property::KineticEnergy);
    const bool friction = !frictionless(s_);
    const double k0 = kinetic(trace_.masses, trace_.samples.front().qd);
    double previous = k0;
    std::size_t next_impact = 0;
    for (std::size_t i = 0; i < trace_.samples.size(); ++i) {
      const Sample& sample = trace_.samples[i];
      const double k = kinetic(trace_.masses, sample.qd);
      bool impact = false;
      while (next_impact < trace_.impacts.size() && trace_.impacts[next_impact].time <= sample.time) {
        impact = true;
        ++next_impact;
      }
      if (i > 0 && !(friction && impact) && exceeds(Property::KineticEnergy, k - previous, kStepEnergySlack * k0)) {
        fail(Property::KineticEnergy, sample.time, (k - previous) / k0,
             "K rose from " + precise(previous) + " J to " + precise(k) + " J in one step (" + number((k - previous) / k0) +
                 " of K at the start)");
      }
      previous = k;
    }
    for (const Impact& impact : trace_.impacts) {
      if (!friction && exceeds(Property::KineticEnergy, impact.kinetic_plus - impact.kinetic_minus, kImpactEnergySlack * k0)) {
        fail(Property::KineticEnergy, impact.time, (impact.kinetic_plus - impact.kinetic_minus) / k0,
             "an impact took K from " + precise(impact.kinetic_minus) + " J to " + precise(impact.kinetic_plus) + " J");
      }
    }
  }

  /// Two bodies (other ≥ 0) or a body and plane `plane` that may touch.
  struct Pair {
    int body = 0, other = -1, plane = -1;
  };

  /// The pose of body b at time t of free flight from the start.
  Pose free_pose(int b, double t) const {
    const Sample& start = trace_.samples.front();
    return Pose{pose_at(start.q, b).position + t * velocity_at(start.qd, b), start.q(3 * b + 2) + t * start.qd(3 * b + 2)};
  }

  /// The signed distance of a pair at time t of free flight.
  double pair_distance(const Pair& pair, double t) const {
    const BodyDef& a = s_.bodies[static_cast<std::size_t>(pair.body)];
    if (pair.plane >= 0) return shape_plane_signed_distance(a.shape, free_pose(pair.body, t), s_.planes[static_cast<std::size_t>(pair.plane)]);
    const BodyDef& b = s_.bodies[static_cast<std::size_t>(pair.other)];
    return shape_signed_distance(a.shape, free_pose(pair.body, t), b.shape, free_pose(pair.other, t));
  }

  /// The fastest a pair's distance can shrink: their relative speed and how fast their rotations sweep.
  double closing_bound(const Pair& pair) const {
    const Vector& qd = trace_.samples.front().qd;
    const auto sweep = [&](int b) { return std::abs(qd(3 * b + 2)) * body_size(s_.bodies[static_cast<std::size_t>(b)]); };
    if (pair.plane >= 0) return velocity_at(qd, pair.body).norm() + sweep(pair.body);
    return (velocity_at(qd, pair.body) - velocity_at(qd, pair.other)).norm() + sweep(pair.body) + sweep(pair.other);
  }

  /// The first time a pair meets in free flight within the run (+∞ if it does not): conservative
  /// advancement to within a nanometre (it cannot meet before its distance over the fastest it can close),
  /// then the secant method on its distance to the root.
  double first_contact(const Pair& pair) const {
    const double closing = closing_bound(pair);
    if (!(closing > 0.0)) return kInfinity;
    double t = 0.0, d = pair_distance(pair, 0.0);
    for (int pass = 0; pass < 100000 && d > 1e-9; ++pass) {
      t += d / closing;
      if (t > scene_.duration) return kInfinity;
      d = pair_distance(pair, t);
    }
    double t_before = t - 1e-9, d_before = pair_distance(pair, t_before);
    for (int pass = 0; pass < 50 && std::abs(d) > 1e-13 && d_before != d; ++pass) {
      const double next = t - d * (t - t_before) / (d - d_before);
      t_before = t;
      d_before = d;
      t = next;
      d = pair_distance(pair, t);
    }
    return std::abs(d) <= 1e-12 ? t : kInfinity;
  }

  void first_impact() {
    std::vector<Pair> pairs;
    for (int i = 0; i < bodies_; ++i) {
      for (int j = i + 1; j < bodies_; ++j) {
        if (can_touch(s_, i, j) && pair_distance(Pair{i, j, -1}, 0.0) < kInfinity) pairs.push_back(Pair{i, j, -1});
      }
      if (!s_.bodies[static_cast<std::size_t>(i)].collides) continue;
      for (std::size_t p = 0; p < s_.planes.size(); ++p) pairs.push_back(Pair{i, -1, static_cast<int>(p)});
    }
    // A pair that starts touching must approach (then it meets at t = 0); one that touches and does not
    // approach makes free flight say nothing about the first impact.
    double smallest = kInfinity;
    for (const BodyDef& body : s_.bodies) smallest = std::min(smallest, body_size(body));
    const double touching = std::max(kRelativeGapTolerance * smallest, kMinGapTolerance);
    double predicted = kInfinity;
    const Pair* first = nullptr;
    for (const Pair& pair : pairs) {
      const double d0 = pair_distance(pair, 0.0);
      double t = kInfinity;
      if (d0 <= touching) {
        if (!(pair_distance(pair, 1e-6) < d0 - 1e-8)) return;
        t = 0.0;
      } else {
        t = first_contact(pair);
      }
      if (t < predicted) {
        predicted = t;
        first = &pair;
      }
    }
    // A grazing first contact (approaching slower than 1 mm/s) need not be an impact.
    double approach = 0.0;
    if (first != nullptr && predicted > 1e-6) {
      approach = (pair_distance(*first, predicted - 1e-6) - pair_distance(*first, predicted)) / 1e-6;
      if (approach < 1e-3) return;
    }
    // The simulator stops at a gap of minus the event slack (simulator.hpp): that much earlier or later.
    const double slack = std::max(kRelativeGapEventSlack * smallest, kMinGapEventSlack);
    const double tolerance = kTimeTolerance + (approach > 0.0 ? slack / approach : 0.0);
    checked(Property::FirstImpact);
    const double logged = trace_.impacts.empty() ? kInfinity : trace_.impacts.front().time;
    if (predicted < scene_.duration - 0.01) {
      if (!(std::abs(logged - predicted) <= tolerance)) {
        fail(Property::FirstImpact, std::min(logged, predicted), std::abs(logged - predicted),
             "the first impact at t = " + (logged < kInfinity ? precise(logged) + " s" : std::string("(none)")) +
                 ", free flight meets at t = " + precise(predicted) + " s");
      }
    } else if (predicted == kInfinity && logged < kInfinity) {
      fail(Property::FirstImpact, logged, logged,
           "an impact at t = " + precise(logged) + " s where free flight meets nothing");
    }
  }

  const PropertyScene& scene_;
  const Scenario& s_;
  const Trace& trace_;
  PropertyReport& report_;
  int bodies_;
};

/// The first impact of a run that approaches no faster than twice the rest speed: the Zeno rule makes an
/// impact slower than the rest speed plastic, a threshold that a perturbation of round-off may cross, and
/// the run after it depends on which side it fell.
double first_slow_impact(const Trace& trace, double rest_speed) {
  for (const Impact& impact : trace.impacts) {
    if (impact.approach <= 2.0 * rest_speed) return impact.time;
  }
  return kInfinity;
}

/// The first kInvariantInstants instants of a run's impacts before `until`: records within kTimeTolerance
/// of the first of a cluster count as one.
std::vector<double> impact_instants(const Trace& trace, double until) {
  std::vector<double> times;
  for (const Impact& impact : trace.impacts) {
    if (impact.time < until - kTimeTolerance) times.push_back(impact.time);
  }
  std::sort(times.begin(), times.end());
  std::vector<double> instants;
  for (double t : times) {
    if (instants.empty() || t - instants.back() > kTimeTolerance) instants.push_back(t);
  }
  if (instants.size() > kInvariantInstants) instants.resize(kInvariantInstants);
  return instants;
}

std::string list(const std::vector<double>& times) {
  std::string out;
  for (std::size_t i = 0; i < times.size() && i < 6; ++i) out += (i ? ", " : "") + precise(times[i]);
  if (times.size() > 6) out += ", … (" + std::to_string(times.size()) + ")";
  return out.empty() ? "none" : out;
}

/// A shape's angle after the scene turns by `quarter` quarter turns: a box by swapping its sides where that
/// is exact, the other shapes by adding the angle.
void turn_body(BodyDef& body, int quarter) {
  if (quarter % 2 == 0) {
    if (body.shape.type == Shape::Type::Wheel) body.angle += quarter * kPi / 2;
    return;
  }
  if (body.shape.type == Shape::Type::Box) {
    std::swap(body.shape.width, body.shape.height);
  } else {
    body.angle += (quarter == 1 ? 1 : -1) * kPi / 2;
  }
}

}  // namespace

const std::vector<Property>& all_properties() {
  static const std::vector<Property> properties = {
      Property::Runs,         Property::LinearMomentum, Property::AngularMomentum, Property::Penetration,
      Property::PositionJump, Property::KineticEnergy,  Property::FirstImpact,     Property::Translated,
      Property::Rotated,      Property::Mirrored,       Property::Boosted};
  return properties;
}

const char* name(Property property) {
  switch (property) {
    case Property::Runs: return "runs";
    case Property::LinearMomentum: return "momentum";
    case Property::AngularMomentum: return "angular-momentum";
    case Property::Penetration: return "penetration";
    case Property::PositionJump: return "jump";
    case Property::KineticEnergy: return "energy";
    case Property::FirstImpact: return "first-impact";
    case Property::Translated: return "translated";
    case Property::Rotated: return "rotated";
    case Property::Mirrored: return "mirrored";
    case Property::Boosted: return "boosted";
  }
  return "?";
}

const PropertyFailure* PropertyReport::failure(Property property) const {
  for (const PropertyFailure& f : failures) {
    if (f.property == property) return &f;
  }
  return nullptr;
}

Scenario transformed(const Scenario& scenario, Transform transform) {
  Scenario s = scenario;
  // The map of points (and, for rotations and mirrors, of vectors).
  const auto map = [transform](const Vec2& v, bool point) -> Vec2 {
    switch (transform) {
      case Transform::Translate: return point ? Vec2(v + Vec2(0.375, -0.625)) : v;
      case Transform::Rotate90: return Vec2(-v.y(), v.x());
      case Transform::Rotate180: return Vec2(-v.x(), -v.y());
      case Transform::Rotate270: return Vec2(v.y(), -v.x());
      case Transform::Mirror: return Vec2(-v.x(), v.y());
      case Transform::Boost: return v;
    }
    return v;
  };
  const int quarter = transform == Transform::Rotate90 ? 1 : transform == Transform::Rotate180 ? 2
                      : transform == Transform::Rotate270 ? 3 : 0;
  for (BodyDef& body : s.bodies) {
    body.position = map(body.position, true);
    body.velocity = map(body.velocity, false);
    if (transform == Transform::Boost) body.velocity += Vec2(0.375, 0.25);
    if (transform == Transform::Mirror) {
      body.angle = -body.angle;
      body.angular_velocity = -body.angular_velocity;
    } else if (quarter != 0) {
      turn_body(body, quarter);
    }
  }
  for (PlaneDef& plane : s.planes) {
    plane.point = map(plane.point, true);
    plane.normal = map(plane.normal, false);
  }
  return s;
}

std::vector<Transform> transforms_for(std::size_t i, bool one) {
  const Transform rotations[] = {Transform::Rotate90, Transform::Rotate180, Transform::Rotate270};
  if (!one) return {Transform::Translate, rotations[i % 3], Transform::Mirror, Transform::Boost};
  const Transform each[] = {Transform::Translate, Transform::Rotate90, Transform::Mirror, Transform::Boost,
                            Transform::Rotate180, Transform::Translate, Transform::Rotate270, Transform::Mirror};
  return {each[i % 8]};
}

PropertyReport check_properties(const PropertyScene& scene, const PropertyOptions& options) {
  PropertyReport report;
  report.checked.push_back(Property::Runs);
  const Trace trace = run(scene.scenario, scene.duration);
  if (!trace.error.empty()) {
    report.failures.push_back(PropertyFailure{Property::Runs, trace.samples.empty() ? 0.0 : trace.samples.back().time,
                                              0.0, "threw: " + trace.error});
    return report;
  }
  report.impacts = static_cast<int>(trace.impacts.size());
  Checker(scene, trace, report).all();

  if (scene.two_sided) return report;
  const double rest_speed = scene.scenario.integrator.rest_speed;
  for (const Transform transform : options.transforms) {
    const Property property = transform == Transform::Translate ? Property::Translated
                              : transform == Transform::Mirror  ? Property::Mirrored
                              : transform == Transform::Boost   ? Property::Boosted
                                                                : Property::Rotated;
    if (transform == Transform::Boost && !scene.scenario.planes.empty()) continue;  // planes do not move
    report.checked.push_back(property);
    const Trace other = run(transformed(scene.scenario, transform), scene.duration);
    if (!other.error.empty()) {
      report.failures.push_back(PropertyFailure{property, 0.0, 0.0, "threw: " + other.error});
      continue;
    }
    // The impacts of both runs before either meets the rest speed's threshold.
    const double until = std::min(first_slow_impact(trace, rest_speed), first_slow_impact(other, rest_speed));
    const std::vector<double> instants = impact_instants(trace, until);
    const std::vector<double> moved = impact_instants(other, until);
    double worst = 0.0, at = 0.0;
    const std::size_t common = std::min(instants.size(), moved.size());
    for (std::size_t i = 0; i < common; ++i) {
      if (std::abs(instants[i] - moved[i]) > worst) {
        worst = std::abs(instants[i] - moved[i]);
        at = std::min(instants[i], moved[i]);
      }
    }
    if (instants.size() != moved.size() || worst > kTimeTolerance) {
      if (instants.size() != moved.size() && worst <= kTimeTolerance) {
        at = common < instants.size() ? instants[common] : moved[common];
      }
      const std::string how = transform == Transform::Rotate180   ? " by 180°"
                              : transform == Transform::Rotate270 ? " by 270°"
                                                                  : " by 90°";
      report.failures.push_back(PropertyFailure{
          property, at, worst,
          "impact instants " + list(instants) + " s, " + name(property) + (property == Property::Rotated ? how : "") +
              ": " + list(moved) + " s"});
    }
  }
  return report;
}

std::string trace_table(const PropertyScene& scene) {
  const Trace trace = run(scene.scenario, scene.duration);
  std::string out = "t K Px Py L impacts (t, fastest approach)\n";
  if (trace.samples.size() < 2) return out + "threw: " + trace.error + "\n";
  const Vector& m = trace.masses;
  std::size_t next = 0;
  for (const Sample& sample : trace.samples) {
    Vec2 p = Vec2::Zero();
    double l = 0.0;
    for (Eigen::Index b = 0; 3 * b < sample.q.size(); ++b) {
      const Vec2 x = pose_at(sample.q, static_cast<int>(b)).position, v = velocity_at(sample.qd, static_cast<int>(b));
      p += m(3 * b) * v;
      l += m(3 * b) * (x.x() * v.y() - x.y() * v.x()) + m(3 * b + 2) * sample.qd(3 * b + 2);
    }
    out += precise(sample.time) + " " + precise(kinetic(m, sample.qd)) + " " + precise(p.x()) + " " + precise(p.y()) +
           " " + precise(l);
    for (; next < trace.impacts.size() && trace.impacts[next].time <= sample.time; ++next) {
      out += " (" + precise(trace.impacts[next].time) + ", " + number(trace.impacts[next].approach) + ")";
    }
    out += "\n";
  }
  if (!trace.error.empty()) out += "threw: " + trace.error + "\n";
  return out;
}

std::string describe(const PropertyScene& scene, const PropertyReport& report) {
  std::string out;
  for (const PropertyFailure& f : report.failures) {
    out += scene.name + ": " + name(f.property) + " at t = " + number(f.time) + " s: " + f.detail + "\n";
  }
  return out;
}

}  // namespace oblique::scenes
