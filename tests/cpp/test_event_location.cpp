// Event location from the dense output of an RK4 step (event_location.hpp), on closed forms: a ball in free
// flight crossing a plane (located to 1e-13 s with two real sub-steps), a particle on a circle crossing a
// line (RK4 is not exact there: the bracket is about the real sub-steps; still two of them), the earliest of two events, and
// a wrong interpolant (the guarantee still holds, from real sub-steps alone).
#include <gtest/gtest.h>

#include <cmath>

#include "error_message.hpp"
#include "oblique/math/trigonometry.hpp"
#include "oblique/simulation/event_location.hpp"

namespace oblique {
namespace {


/// q̈ = accel(q, q̇), integrated by one classical RK4 step of length τ from (q₀, q̇₀).
template <typename Accel>
void rk4(const Accel& accel, const Vector& q0, const Vector& qd0, double tau, Vector& q, Vector& qd) {
  const Vector a1 = accel(q0, qd0);
  const Vector q2 = q0 + 0.5 * tau * qd0, v2 = qd0 + 0.5 * tau * a1;
  const Vector a2 = accel(q2, v2);
  const Vector q3 = q0 + 0.5 * tau * v2, v3 = qd0 + 0.5 * tau * a2;
  const Vector a3 = accel(q3, v3);
  const Vector q4 = q0 + tau * v3, v4 = qd0 + tau * a3;
  const Vector a4 = accel(q4, v4);
  q = q0 + (tau / 6.0) * (qd0 + 2.0 * v2 + 2.0 * v3 + v4);
  qd = qd0 + (tau / 6.0) * (a1 + 2.0 * a2 + 2.0 * a3 + a4);
}

/// One step [0, h] of a system, its end, its dense output, and the event location on it.
template <typename Accel>
struct Step {
  Step(Accel accel_in, Vector q0_in, Vector qd0_in, double h_in, EventFunction events_in)
      : accel(std::move(accel_in)), q0(std::move(q0_in)), qd0(std::move(qd0_in)), h(h_in), events(std::move(events_in)) {
    rk4(accel, q0, qd0, h, q1, qd1);
    events(q0, qd0, start_values);
    events(q1, qd1, end_values);
  }
  HermiteStep dense() const { return HermiteStep(h, q0, qd0, accel(q0, qd0), q1, qd1, accel(q1, qd1)); }
  EventBracket locate(const HermiteStep* interpolant, double tolerance = 1e-13) const {
    const SubStep substep = [this](double tau, Vector& q, Vector& qd) { rk4(accel, q0, qd0, tau, q, qd); };
    return locate_event(h, q0, qd0, start_values, q1, qd1, end_values, events, substep, interpolant, tolerance);
  }
  /// The guarantee, checked on fresh sub-steps: no event at lo, an event at hi, hi − lo ≤ tolerance.
  void expect_guarantee(const EventBracket& b, double tolerance = 1e-13) const {
    Vector q, qd;
    std::vector<double> values;
    rk4(accel, q0, qd0, b.lo, q, qd);
    events(q, qd, values);
    for (double v : values) EXPECT_GE(v, 0.0) << "an event at lo";
    rk4(accel, q0, qd0, b.hi, q, qd);
    events(q, qd, values);
    EXPECT_LT(*std::min_element(values.begin(), values.end()), 0.0) << "no event at hi";
    EXPECT_LE(b.hi - b.lo, tolerance);
    EXPECT_GT(b.hi, b.lo);
  }

  Accel accel;
  Vector q0, qd0, q1, qd1;
  double h;
  EventFunction events;
  std::vector<double> start_values, end_values;
};

Vector vec2(double x, double y) { return Eigen::Vector2d(x, y); }

TEST(EventLocation, BallInFreeFlightCrossesAPlaneTo1e13Seconds) {
  // A ball of radius r thrown from height y₀ at (u, v₀) under gravity g: its gap y − r closes at
  // t* = (v₀ + √(v₀² + 2g(y₀ − r)))/g. Each step of the 1 ms grid is tried; the one containing t* locates it.
  const double g = 9.81, r = 0.1, y0 = 1.3, v0 = 2.5, u = 0.7, h = 1e-3;
  const double t_star = (v0 + std::sqrt(v0 * v0 + 2.0 * g * (y0 - r))) / g;
  const auto gravity = [g](const Vector&, const Vector&) { return vec2(0.0, -g); };
  const EventFunction gap = [r](const Vector& q, const Vector&, std::vector<double>& values) { values.assign(1, q(1) - r); };
  const double start = std::floor(t_star / h) * h;
  // The state at the step start, in closed form.
  const Vector q0 = vec2(u * start, y0 + v0 * start - 0.5 * g * start * start);
  const Vector qd0 = vec2(u, v0 - g * start);
  const Step<decltype(gravity)> step(gravity, q0, qd0, h, gap);
  const HermiteStep dense = step.dense();
  const EventBracket b = step.locate(&dense);
  step.expect_guarantee(b);
  // The crossing lies in the bracket: located to 1e-13 s, with two real sub-steps.
  EXPECT_LE(start + b.lo, t_star + 1e-15);
  EXPECT_GE(start + b.hi, t_star - 1e-15);
  EXPECT_NEAR(start + b.lo, t_star, 1e-13);
  EXPECT_EQ(b.substeps, 2);
  // The re-integrating regula falsi reaches the same bracket with many more sub-steps.
  const EventBracket slow = step.locate(nullptr);
  step.expect_guarantee(slow);
  EXPECT_NEAR(start + slow.lo, t_star, 1e-13);
  EXPECT_GT(slow.substeps, b.substeps);
}

TEST(EventLocation, DenseOutputIsExactForFreeFlight) {
  // Positions are quadratic and velocities linear in time: the cubic Hermite reproduces both.
  const Vector q0 = vec2(0.1, 2.0), qd0 = vec2(0.3, -1.0), a = vec2(0.0, -9.81);
  const double h = 0.01;
  const auto at = [&](double t) { return Vector(q0 + t * qd0 + 0.5 * t * t * a); };
  const HermiteStep dense(h, q0, qd0, a, at(h), qd0 + h * a, a);
  Vector q, qd;
  for (double t : {0.0, 0.0013, 0.005, 0.0099, 0.01}) {
    dense.evaluate(t, q, qd);
    EXPECT_LT((q - at(t)).norm(), 1e-15);
    EXPECT_LT((qd - (qd0 + t * a)).norm(), 1e-15);
  }
  // The ends are reproduced to the bit.
  dense.evaluate(0.0, q, qd);
  EXPECT_EQ(q, q0);
  EXPECT_EQ(qd, qd0);
}

TEST(EventLocation, DenseOutputPositionsAreQuinticVelocitiesCubic) {
  // x(t) = 1 + 2t − t² + 3t³ − 4t⁴ + 5t⁵ on [0, 0.5]: the positions, matched in x, ẋ, ẍ at both ends, are
  // reproduced exactly; the velocities, matched in ẋ, ẍ, are cubic and miss the quartic part.
  const auto x = [](double t) { return 1 + 2 * t - t * t + 3 * t * t * t - 4 * std::pow(t, 4) + 5 * std::pow(t, 5); };
  const auto v = [](double t) { return 2 - 2 * t + 9 * t * t - 16 * std::pow(t, 3) + 25 * std::pow(t, 4); };
  const auto a = [](double t) { return -2 + 18 * t - 48 * t * t + 100 * std::pow(t, 3); };
  const double h = 0.5;
  const auto one = [](double value) { return Vector::Constant(1, value); };
  const HermiteStep dense(h, one(x(0)), one(v(0)), one(a(0)), one(x(h)), one(v(h)), one(a(h)));
  Vector q, qd;
  double velocity_error = 0.0;
  for (double t = 0.0; t <= h; t += h / 16) {
    dense.evaluate(t, q, qd);
    EXPECT_NEAR(q(0), x(t), 1e-14) << "t = " << t;
    velocity_error = std::max(velocity_error, std::abs(qd(0) - v(t)));
  }
  EXPECT_GT(velocity_error, 1e-3);
}

TEST(EventLocation, ParticleOnACircleCrossesALine) {
  // q̈ = −ω²q: the particle starting at (R, 0) with velocity (0, Rω) reaches x = R/2 at t* = π/(3ω). RK4 is
  // not exact here, so the bracket is about the real sub-steps; they agree with t* to RK4's accuracy.
  const double omega = 5.0, radius = 0.8, h = 1e-3;
  const double t_star = kPi / (3.0 * omega);
  const auto spring = [omega](const Vector& q, const Vector&) { return Vector(-omega * omega * q); };
  const EventFunction line = [radius](const Vector& q, const Vector&, std::vector<double>& values) {
    values.assign(1, q(0) - 0.5 * radius);
  };
  const double start = std::floor(t_star / h) * h;
  const Vector q0 = radius * vec2(std::cos(omega * start), std::sin(omega * start));
  const Vector qd0 = radius * omega * vec2(-std::sin(omega * start), std::cos(omega * start));
  const Step<decltype(spring)> step(spring, q0, qd0, h, line);
  const HermiteStep dense = step.dense();
  const EventBracket b = step.locate(&dense);
  step.expect_guarantee(b);
  EXPECT_NEAR(start + b.lo, t_star, 1e-12);
  EXPECT_EQ(b.substeps, 2);
  const EventBracket slow = step.locate(nullptr);
  step.expect_guarantee(slow);
  EXPECT_LT(std::abs(slow.lo - b.lo), 1e-13);
  EXPECT_GT(slow.substeps, 3 * b.substeps);
}

TEST(EventLocation, TheEarliestOfTwoEventsIsLocated) {
  // A ball falls toward a floor (gap y − 0.1) and a ledge it reaches first (gap y − 0.35).
  const double g = 9.81, h = 2e-3;
  const auto gravity = [g](const Vector&, const Vector&) { return vec2(0.0, -g); };
  const EventFunction gaps = [](const Vector& q, const Vector&, std::vector<double>& values) {
    values = {q(1) - 0.1, q(1) - 0.35};
  };
  // Start 1 mm above the ledge at −2 m/s: it is reached at t* = (v₀ + √(v₀² + 2g·0.001))/g, half a
  // millisecond in, long before the floor.
  const double y0 = 0.351, v0 = -2.0;
  const double t_star = (v0 + std::sqrt(v0 * v0 + 2.0 * g * (y0 - 0.35))) / g;
  const Step<decltype(gravity)> step(gravity, vec2(0.0, y0), vec2(0.0, v0), h, gaps);
  const HermiteStep dense = step.dense();
  const EventBracket b = step.locate(&dense);
  step.expect_guarantee(b);
  EXPECT_NEAR(b.lo, t_star, 1e-13);
  EXPECT_GE(b.lo_values[0], 0.0);
  EXPECT_LT(b.hi_values[1], 0.0);
  EXPECT_GT(b.hi_values[0], 0.0);  // the floor is still far
}

TEST(EventLocation, AWrongDenseOutputStillGivesARealBracket) {
  // A dense output built with wrong accelerations (zero instead of −g) proposes the wrong place; the real
  // sub-steps correct it, at the price of more of them.
  const double g = 9.81, r = 0.1, h = 1e-3;
  const auto gravity = [g](const Vector&, const Vector&) { return vec2(0.0, -g); };
  const EventFunction gap = [r](const Vector& q, const Vector&, std::vector<double>& values) { values.assign(1, q(1) - r); };
  const Step<decltype(gravity)> step(gravity, vec2(0.0, 0.1004), vec2(0.0, -0.6), h, gap);
  const HermiteStep wrong(h, step.q0, vec2(0.0, 0.3), Vector::Zero(2), step.q1, vec2(0.0, -3.0), Vector::Zero(2));
  const EventBracket b = step.locate(&wrong);
  step.expect_guarantee(b);
  EXPECT_GT(b.substeps, 2);
  const EventBracket right = step.locate(nullptr);
  EXPECT_LT(std::abs(right.lo - b.lo), 1e-13);
}

TEST(EventLocation, BadInputNamesTheField) {
  using testing::message_of;
  const auto gravity = [](const Vector&, const Vector&) { return vec2(0.0, -9.81); };
  const EventFunction gap = [](const Vector& q, const Vector&, std::vector<double>& values) { values.assign(1, q(1)); };
  const Step<decltype(gravity)> falling(gravity, vec2(0.0, 0.0002), vec2(0.0, -1.0), 1e-3, gap);
  EXPECT_EQ(message_of([&] { falling.locate(nullptr, 0.0); }), "tolerance: must be a finite positive time");
  const Step<decltype(gravity)> hovering(gravity, vec2(0.0, 1.0), vec2(0.0, 0.0), 1e-3, gap);
  EXPECT_EQ(message_of([&] { hovering.locate(nullptr); }),
            "values: an event must be absent at the step start and present at its end");
  EXPECT_EQ(message_of([] { HermiteStep(0.0, Vector(1), Vector(1), Vector(1), Vector(1), Vector(1), Vector(1)); }),
            "h: must be a finite positive step length");
}

}  // namespace
}  // namespace oblique
