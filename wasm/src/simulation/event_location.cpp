#include "oblique/simulation/event_location.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "math/checks.hpp"

namespace oblique {

namespace {

bool any_event(const std::vector<double>& values) {
  for (double v : values) {
    if (v < 0.0) return true;
  }
  return false;
}

/// One side of a bracket: where, the event values, the state, and its Illinois weight.
struct Side {
  double tau = 0.0;
  std::vector<double> values;
  Vector q, qd;
  double weight = 1.0;
};

/// The Illinois regula falsi estimate of the earliest sign change between `lo` (no event) and `hi`: the
/// smallest secant root over the events that have happened at hi.
double secant_estimate(const Side& lo, const Side& hi) {
  double tau = hi.tau;
  for (std::size_t k = 0; k < hi.values.size(); ++k) {
    if (!(hi.values[k] < 0.0)) continue;
    const double f_lo = lo.weight * lo.values[k], f_hi = hi.weight * hi.values[k];
    const double denominator = f_lo - f_hi;
    tau = std::min(tau, denominator > 0.0 ? lo.tau + (hi.tau - lo.tau) * f_lo / denominator : 0.5 * (lo.tau + hi.tau));
  }
  return tau;
}

/// A bracket [lo, hi] narrowed by probing points, with the Illinois bookkeeping: a side that stays put
/// twice in a row has its weight halved.
class Bracket {
 public:
  Bracket(Side lo, Side hi) : lo_(std::move(lo)), hi_(std::move(hi)) {}
  const Side& lo() const { return lo_; }
  const Side& hi() const { return hi_; }
  double width() const { return hi_.tau - lo_.tau; }

  /// Puts the probe (its values and state in `probe`) on its side of the bracket.
  void update(Side& probe) {
    if (any_event(probe.values)) {
      std::swap(hi_, probe);
      hi_.weight = 1.0;
      if (last_side_ == 1) lo_.weight *= 0.5;
      last_side_ = 1;
    } else {
      std::swap(lo_, probe);
      lo_.weight = 1.0;
      if (last_side_ == -1) hi_.weight *= 0.5;
      last_side_ = -1;
    }
  }

  /// The next point to try: the secant estimate, or the midpoint every third pass.
  double next_estimate(int pass) const {
    return pass % 3 == 2 ? 0.5 * (lo_.tau + hi_.tau) : secant_estimate(lo_, hi_);
  }

 private:
  Side lo_, hi_;
  int last_side_ = 0;
};

}  // namespace

HermiteStep::HermiteStep(double h, Vector q0, Vector qd0, Vector qdd0, Vector q1, Vector qd1, Vector qdd1)
    : h_(h), q0_(std::move(q0)), qd0_(std::move(qd0)), qdd0_(std::move(qdd0)), q1_(std::move(q1)),
      qd1_(std::move(qd1)), qdd1_(std::move(qdd1)) {
  if (!std::isfinite(h_) || !(h_ > 0.0)) detail::fail("h", "must be a finite positive step length");
  const Eigen::Index n = q0_.size();
  if (qd0_.size() != n || qdd0_.size() != n || q1_.size() != n || qd1_.size() != n || qdd1_.size() != n) {
    detail::fail("state", "q, q̇ and q̈ at both ends must have the same size");
  }
}

void HermiteStep::evaluate(double tau, Vector& q, Vector& qd) const {
  const double t = tau / h_;
  const double t2 = t * t, t3 = t2 * t, t4 = t3 * t, t5 = t4 * t;
  const double hh = h_ * h_;
  // Positions: the quintic Hermite basis at θ = τ/h, matching q, q̇ and q̈ at both ends.
  const double p0 = 1.0 - 10.0 * t3 + 15.0 * t4 - 6.0 * t5;
  const double v0 = (t - 6.0 * t3 + 8.0 * t4 - 3.0 * t5) * h_;
  const double a0 = (0.5 * t2 - 1.5 * t3 + 1.5 * t4 - 0.5 * t5) * hh;
  const double a1 = (0.5 * t3 - t4 + 0.5 * t5) * hh;
  const double v1 = (-4.0 * t3 + 7.0 * t4 - 3.0 * t5) * h_;
  const double p1 = 10.0 * t3 - 15.0 * t4 + 6.0 * t5;
  q = p0 * q0_ + v0 * qd0_ + a0 * qdd0_ + a1 * qdd1_ + v1 * qd1_ + p1 * q1_;
  // Velocities: the cubic Hermite basis, matching q̇ and q̈ at both ends.
  const double h00 = 2.0 * t3 - 3.0 * t2 + 1.0;
  const double h10 = (t3 - 2.0 * t2 + t) * h_;
  const double h01 = 3.0 * t2 - 2.0 * t3;
  const double h11 = (t3 - t2) * h_;
  qd = h00 * qd0_ + h10 * qdd0_ + h01 * qd1_ + h11 * qdd1_;
}

EventBracket locate_event(double h, const Vector& start_q, const Vector& start_qd, const std::vector<double>& start_values,
                          const Vector& end_q, const Vector& end_qd, const std::vector<double>& end_values,
                          const EventFunction& events, const SubStep& substep, const HermiteStep* dense,
                          double tolerance, const EventFunction* interpolated_events) {
  if (!std::isfinite(tolerance) || !(tolerance > 0.0)) detail::fail("tolerance", "must be a finite positive time");
  if (any_event(start_values) || !any_event(end_values)) {
    detail::fail("values", "an event must be absent at the step start and present at its end");
  }
  EventBracket out;
  const double margin = 0.25 * tolerance;

  // 2. The estimate from the dense output: Illinois on the interpolated event values, to a fraction of the
  //    tolerance (no integration; the ends of the interpolant are the ends of the step).
  double estimate = h;
  if (dense) {
    Bracket interpolated(Side{0.0, start_values, start_q, start_qd}, Side{h, end_values, end_q, end_qd});
    Side probe;
    for (int pass = 0; pass < 200 && interpolated.width() > 0.125 * tolerance; ++pass) {
      probe.tau = std::clamp(interpolated.next_estimate(pass), interpolated.lo().tau + 0.03125 * tolerance,
                             interpolated.hi().tau - 0.03125 * tolerance);
      dense->evaluate(probe.tau, probe.q, probe.qd);
      (interpolated_events ? *interpolated_events : events)(probe.q, probe.qd, probe.values);
      ++out.interpolated;
      interpolated.update(probe);
    }
    estimate = 0.5 * (interpolated.lo().tau + interpolated.hi().tau);
  }

  // 3. Real sub-steps: probe a pair around the estimate (one point without a dense output) until the
  //    bracket is within the tolerance. A pair that falls on one side of the event gives the local slope of
  //    the event values: the next pair goes where the secant through the pair crosses zero. Otherwise the
  //    next estimate is the Illinois secant of the bracket (the midpoint every third pass).
  Bracket real(Side{0.0, start_values, start_q, start_qd}, Side{h, end_values, end_q, end_qd});
  Side probe;
  // Probes one point strictly inside the bracket; returns its time, or a negative value when the bracket is
  // too narrow for it. `values` gets its event values, `event` whether one has happened there.
  std::vector<double> values;
  bool event = false;
  auto try_point = [&](double tau) {
    tau = std::clamp(tau, real.lo().tau + margin, real.hi().tau - margin);
    if (!(tau > real.lo().tau && tau < real.hi().tau)) return -1.0;
    probe.tau = tau;
    substep(tau, probe.q, probe.qd);
    events(probe.q, probe.qd, probe.values);
    ++out.substeps;
    values = probe.values;
    event = any_event(values);
    real.update(probe);
    return tau;
  };
  // The earliest zero, inside the bracket, of the secants through two probes on the same side of it.
  auto local_secant = [&](double t1, const std::vector<double>& v1, double t2, const std::vector<double>& v2) {
    double next = -1.0;
    for (std::size_t k = 0; k < v1.size(); ++k) {
      if (!(real.hi().values[k] < 0.0) || v2[k] == v1[k]) continue;
      const double root = t2 - v2[k] * (t2 - t1) / (v2[k] - v1[k]);
      if (root > real.lo().tau && root < real.hi().tau && (next < 0.0 || root < next)) next = root;
    }
    return next;
  };
  bool from_pair = false;
  for (int pass = 0; pass < 200 && real.width() > tolerance; ++pass) {
    if (!dense) {
      try_point(real.next_estimate(pass));
      continue;
    }
    if (pass > 0 && !from_pair) estimate = real.next_estimate(pass);
    from_pair = false;
    const double t1 = try_point(estimate - margin);
    if (t1 < 0.0 || real.width() <= tolerance) continue;
    const std::vector<double> v1 = values;
    const bool first_event = event;
    // No event at the first point: the second goes after it; an event: before it.
    const double t2 = try_point(first_event ? estimate - 3.0 * margin : estimate + margin);
    if (t2 < 0.0 || event != first_event) continue;  // straddled (or nothing left to probe)
    const double next = first_event ? local_secant(t2, values, t1, v1) : local_secant(t1, v1, t2, values);
    if (next >= 0.0) {
      estimate = next;
      from_pair = true;
    }
  }

  out.lo = real.lo().tau;
  out.hi = real.hi().tau;
  out.lo_q = real.lo().q;
  out.lo_qd = real.lo().qd;
  out.hi_q = real.hi().q;
  out.hi_qd = real.hi().qd;
  out.lo_values = real.lo().values;
  out.hi_values = real.hi().values;
  return out;
}

}  // namespace oblique
