#include "oblique/simulator.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

#include <Eigen/QR>

#include "checks.hpp"
#include "nonnegative_split.hpp"

namespace oblique {

using detail::fail;
using detail::format_number;

namespace {

/// Passes of the Gauss–Newton position projection after a step.
constexpr int kMaxProjectionPasses = 8;

double max_abs(const Vector& v) { return v.size() > 0 ? v.cwiseAbs().maxCoeff() : 0.0; }

/// Rough size in bytes of one impact record of a system with n coordinates (A taken as n rows): the
/// matrices of the Projection and of the ImpactResult dominate.
std::size_t impact_record_bytes(int n) {
  const std::size_t nn = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
  return sizeof(double) * (17 * nn + 16 * static_cast<std::size_t>(n)) + 1024;
}

}  // namespace

// ---------------------------------------------------------------------------------------------------------
// Construction, reset, overrides
// ---------------------------------------------------------------------------------------------------------

Simulator::Simulator(Scenario scenario)
    : scenario_(std::move(scenario)), model_(scenario_), inertia_(model_.mass_matrix(), "bodies") {
  // The Model checked the whole scenario (scenario_check.hpp): every value below is in range.
  n_ = model_.dofs();
  // Restitution per contact, and ν.
  contact_restitution_.resize(scenario_.contacts.size());
  for (std::size_t c = 0; c < scenario_.contacts.size(); ++c) {
    contact_restitution_[c] = scenario_.contacts[c].restitution.value_or(scenario_.restitution);
  }
  nu_ = scenario_.nu;
  // Scheduled impulses, in time order (stable for equal times).
  for (std::size_t k = 0; k < scenario_.impulses.size(); ++k) impulse_order_.push_back(static_cast<int>(k));
  std::stable_sort(impulse_order_.begin(), impulse_order_.end(), [&](int a, int b) {
    return scenario_.impulses[static_cast<std::size_t>(a)].time < scenario_.impulses[static_cast<std::size_t>(b)].time;
  });
  // Scales and workspaces.
  force_scale_ = 0.0;
  for (int b = 0; b < model_.body_count(); ++b) force_scale_ += model_.mass_diagonal()(3 * b);  // Σ m × 1 m/s²
  log_capacity_ = std::clamp<std::size_t>(kImpactLogBytes / impact_record_bytes(n_), 16, kMaxLoggedImpacts);
  const std::size_t points = static_cast<std::size_t>(model_.contact_point_count());
  points_.resize(points);
  point_multiplier_.assign(points, 0.0);
  event_multipliers_.assign(points, 0.0);
  gap_threshold_.assign(points, 0.0);
  values_start_.assign(points, 0.0);
  values_lo_ = values_hi_ = values_trial_ = values_start_;
  joint_rows_.resize(model_.joint_row_total(), n_);
  initialize();
}

void Simulator::reset() { initialize(); }

void Simulator::initialize() {
  time_ = 0.0;
  grid_index_ = 0;
  q_ = model_.initial_positions();
  qd_ = model_.initial_velocities();
  const std::size_t points = static_cast<std::size_t>(model_.contact_point_count());
  active_.assign(points, 0);
  sliding_.assign(points, 0);
  impacting_.assign(points, 0);
  next_impulse_ = 0;
  impacts_.clear();
  dropped_impacts_ = 0;
  last_impact_time_ = -1.0;
  impacts_at_instant_ = 0;
  drift_ = 0.0;
  work_limit_hit_ = false;

  // Joints: reject a violated initial state, project away rounding.
  if (model_.joint_row_total() > 0) {
    model_.all_joint_rows(q_, qd_, 0, joint_rows_);
    int row = 0;
    for (int j = 0; j < model_.joint_count(); ++j) {
      const int rows = model_.joint_row_count(j);
      const double violation = max_abs(joint_rows_.phi.segment(row, rows));
      if (violation > kInitialJointTolerance) {
        fail("joints[" + std::to_string(j) + "]",
             "not satisfied by the initial positions (|φ| = " + format_number(violation) +
                 "; a pin's or weld's anchors must coincide, a slider's anchors lie on its axis)");
      }
      row += rows;
    }
  }
  collect_active_points();
  refresh();

  // Contacts: reject penetration, activate (or resolve the impact of) the touching points.
  std::vector<int> touching;
  for (int k = 0; k < model_.contact_point_count(); ++k) {
    const double gap = model_.contact_gap(k, q_);
    if (gap < -kInitialPenetration) {
      const ContactFeature& c = model_.contact_points()[static_cast<std::size_t>(k)];
      fail("contacts[" + std::to_string(c.contact) + "]",
           "penetrates by " + format_number(-gap) + " m in the initial state (point " + std::to_string(c.feature) +
               " of the contact)");
    }
    if (gap <= kContactGapTolerance && model_.contact_normal_velocity(k, q_, qd_) < kContactSpeedTolerance) {
      touching.push_back(k);
    }
  }
  if (!touching.empty()) {
    resolve_impact(touching, Vector(), false);
    impacts_at_instant_ = 0;
  }
  settle();
  show_committed();
}

void Simulator::set_restitution(double e) {
  detail::check_restitution(e, "e");
  scenario_.restitution = e;
  for (ContactDef& contact : scenario_.contacts) contact.restitution = e;
  std::fill(contact_restitution_.begin(), contact_restitution_.end(), e);
}

void Simulator::set_contact_restitution(int contact, double e) {
  if (contact < 0 || contact >= static_cast<int>(contact_restitution_.size())) {
    fail("contact", contact_restitution_.empty()
                        ? "the scenario has no contacts"
                        : "must be a contact index in 0.." + std::to_string(contact_restitution_.size() - 1) +
                              ", got " + std::to_string(contact));
  }
  detail::check_restitution(e, "contacts[" + std::to_string(contact) + "].e");
  scenario_.contacts[static_cast<std::size_t>(contact)].restitution = e;
  contact_restitution_[static_cast<std::size_t>(contact)] = e;
}

void Simulator::set_nu(std::optional<double> nu) {
  if (nu && !(std::isfinite(*nu) && *nu > 0.0)) fail("nu", "must be a finite positive number");
  nu_ = nu;
  scenario_.nu = nu;
}

double Simulator::restitution_of(int point) const {
  return contact_restitution_[static_cast<std::size_t>(model_.contact_points()[static_cast<std::size_t>(point)].contact)];
}

// ---------------------------------------------------------------------------------------------------------
// The active system and the smooth dynamics
// ---------------------------------------------------------------------------------------------------------

void Simulator::collect_active_points() {
  active_points_.clear();
  for (int k = 0; k < model_.contact_point_count(); ++k) {
    if (active_[static_cast<std::size_t>(k)]) active_points_.push_back(k);
  }
}

bool Simulator::has_tangent(int point, Tangents tangents) const {
  const std::size_t k = static_cast<std::size_t>(point);
  if (tangents == Tangents::None || !model_.contact_points()[k].stick) return false;
  return tangents == Tangents::All || !sliding_[k];
}

void Simulator::assemble(const Vector& q, const Vector& qd, const std::vector<int>& points, Tangents tangents,
                         ConstraintRows& rows) const {
  int count = model_.joint_row_total();
  for (int k : points) count += 1 + (has_tangent(k, tangents) ? 1 : 0);
  if (rows.rows() != count || rows.jacobian.cols() != n_) rows.resize(count, n_);
  // Joints first, then per point its unilateral row and (stick) its tangential row.
  model_.all_joint_rows(q, qd, 0, rows);
  int row = model_.joint_row_total();
  for (int k : points) {
    model_.contact_normal_row(k, q, qd, row++, rows);
    if (has_tangent(k, tangents)) model_.contact_tangent_row(k, q, qd, row++, rows);
  }
}

void Simulator::evaluate_dynamics(const Vector& q, const Vector& qd, Vector& qdd, std::vector<double>* point_values) {
  assemble(q, qd, active_points_, Tangents::Active, rows_);
  // No constraint: q̈ = q̈*, constant.
  if (rows_.rows() == 0) {
    qdd = model_.free_acceleration();
    return;
  }
  // q̈ = (I − S)q̈* + Sq̈⊥ and λ = A⁺ᵀf on the active set.
  ++projections_;
  const Projection proj(inertia_, rows_.jacobian, nu_);
  ConstrainedDynamics d = constrained_dynamics(proj, model_.bias_force(), model_.applied_force(), rows_.adot_qd);
  qdd = std::move(d.qdd);
  if (point_values) split_multipliers(rows_.jacobian, d.force, d.multipliers, *point_values);
}

void Simulator::split_multipliers(const Matrix& jacobian, const Vector& force, const Vector& multipliers,
                                  std::vector<double>& point_values) const {
  // λ of each active point's unilateral row: the paper's minimum-norm λ = A⁺ᵀf, unless one of them pulls
  // while another split of f (redundant contacts) has none pulling; then that split.
  const double tolerance = multiplier_tolerance();
  bool pulls = false;
  int row = model_.joint_row_total();
  for (int k : active_points_) {
    point_values[static_cast<std::size_t>(k)] = multipliers(row);
    pulls = pulls || multipliers(row) < -tolerance;
    row += has_tangent(k, Tangents::Active) ? 2 : 1;
  }
  if (!pulls) return;
  std::vector<bool> unilateral(static_cast<std::size_t>(jacobian.rows()), false);
  row = model_.joint_row_total();
  for (int k : active_points_) {
    unilateral[static_cast<std::size_t>(row)] = true;
    row += has_tangent(k, Tangents::Active) ? 2 : 1;
  }
  Vector split;
  if (!detail::nonnegative_split(jacobian, force, unilateral, 1e-9 * std::max(force.norm(), force_scale_), split)) return;
  row = model_.joint_row_total();
  for (int k : active_points_) {
    point_values[static_cast<std::size_t>(k)] = split(row);
    row += has_tangent(k, Tangents::Active) ? 2 : 1;
  }
}

void Simulator::rk4(double h, Vector& q_out, Vector& qd_out) {
  // Classical RK4 on (q, q̇) from the current state; its first stage is the cached q̈ of the state.
  const double half = 0.5 * h;
  sum_qd_ = qd_;
  sum_qdd_ = qdd_;
  // Stage 2 at t + h/2.
  stage_q_ = q_ + half * qd_;
  stage_qd_ = qd_ + half * qdd_;
  evaluate_dynamics(stage_q_, stage_qd_, stage_qdd_, nullptr);
  sum_qd_ += 2.0 * stage_qd_;
  sum_qdd_ += 2.0 * stage_qdd_;
  // Stage 3 at t + h/2.
  stage_q_ = q_ + half * stage_qd_;
  stage_qd_ = qd_ + half * stage_qdd_;
  evaluate_dynamics(stage_q_, stage_qd_, stage_qdd_, nullptr);
  sum_qd_ += 2.0 * stage_qd_;
  sum_qdd_ += 2.0 * stage_qdd_;
  // Stage 4 at t + h.
  stage_q_ = q_ + h * stage_qd_;
  stage_qd_ = qd_ + h * stage_qdd_;
  evaluate_dynamics(stage_q_, stage_qd_, stage_qdd_, nullptr);
  sum_qd_ += stage_qd_;
  sum_qdd_ += stage_qdd_;
  // Weighted sum.
  q_out = q_ + (h / 6.0) * sum_qd_;
  qd_out = qd_ + (h / 6.0) * sum_qdd_;
}

void Simulator::project_positions(Vector& q) {
  // Gauss–Newton onto the rows with a position: joints and active unilateral rows (φ = 0).
  if (model_.joint_row_total() + static_cast<int>(active_points_.size()) == 0) return;
  const double tolerance = scenario_.integrator.projection_tolerance;
  for (int pass = 0; pass < kMaxProjectionPasses; ++pass) {
    assemble(q, qd_, active_points_, Tangents::None, position_rows_);
    if (max_abs(position_rows_.phi) <= tolerance) return;
    // q ← q − A⁺φ: the minimum-norm least-squares solution of A δ = φ, from a complete orthogonal
    // decomposition (rank-revealing, much cheaper than the SVD of pseudo_inverse, same δ).
    const Eigen::CompleteOrthogonalDecomposition<Matrix> decomposition(position_rows_.jacobian);
    const Vector correction = decomposition.solve(position_rows_.phi);
    q -= correction;
    drift_ = std::max(drift_, max_abs(correction));
  }
}

void Simulator::refresh() {
  // Positions back on the active constraints.
  project_positions(q_);
  assemble(q_, qd_, active_points_, Tangents::Active, rows_);
  point_multiplier_.assign(point_multiplier_.size(), 0.0);
  if (rows_.rows() == 0) {
    qdd_ = model_.free_acceleration();
    multipliers_.resize(0);
    return;
  }
  ++projections_;
  const Projection proj(inertia_, rows_.jacobian, nu_);
  // Velocities onto N(A) with the M-orthogonal projector I − S: the paper's impact map with e = 0 applied to
  // the drift, which removes only the constraint-violating part and changes no admissible motion.
  qd_ -= proj.oblique_projector() * qd_;
  // Ȧq̇ at the projected velocity (A is unchanged), then q̈ and λ of the state.
  assemble(q_, qd_, active_points_, Tangents::Active, rows_);
  ConstrainedDynamics d = constrained_dynamics(proj, model_.bias_force(), model_.applied_force(), rows_.adot_qd);
  qdd_ = std::move(d.qdd);
  multipliers_ = std::move(d.multipliers);
  split_multipliers(rows_.jacobian, d.force, multipliers_, point_multiplier_);
}

double Simulator::multiplier_tolerance() const {
  // 1e-9 of the size of the forces at play, never below 1e-9 × Σm × 1 m/s².
  const double applied = max_abs(model_.applied_force() - model_.bias_force());
  return 1e-9 * std::max({applied, max_abs(multipliers_), force_scale_});
}

void Simulator::settle() {
  // Release, one at a time, the active contact that pulls hardest, until every λ ≥ −tolerance (Γ rule).
  collect_active_points();
  refresh();
  for (std::size_t guard = 0; guard <= 2 * active_.size(); ++guard) {
    const double tolerance = multiplier_tolerance();
    int worst = -1;
    double worst_value = -tolerance;
    for (int k : active_points_) {
      if (point_multiplier_[static_cast<std::size_t>(k)] < worst_value) {
        worst = k;
        worst_value = point_multiplier_[static_cast<std::size_t>(k)];
      }
    }
    if (worst < 0) break;
    release(worst);
    collect_active_points();
    refresh();
  }
}

void Simulator::release(int point) {
  // A sticking contact that pulls first slides (its tangential row leaves A: with no slip the contact can
  // need a pull where a sliding one would not); a contact that pulls while sliding, or never sticks,
  // separates.
  const std::size_t k = static_cast<std::size_t>(point);
  if (model_.contact_points()[k].stick && !sliding_[k]) {
    sliding_[k] = 1;
  } else {
    active_[k] = 0;
    sliding_[k] = 0;
  }
}

void Simulator::update_views() {
  // Contact points.
  const auto& features = model_.contact_points();
  double violation = 0.0;
  for (std::size_t k = 0; k < points_.size(); ++k) {
    const int point = static_cast<int>(k);
    const ContactFrame frame = model_.contact_frame(point, shown_q_);
    ContactPoint& view = points_[k];
    view.contact = features[k].contact;
    view.body_a = features[k].body_a;
    view.body_b = features[k].body_b;
    view.point = frame.point;
    view.normal = frame.normal;
    view.gap = frame.gap;
    view.normal_velocity = model_.contact_normal_velocity(point, shown_q_, shown_qd_);
    view.multiplier = point_multiplier_[k];
    view.state = impacting_[k] ? ContactState::Impacting
                               : (active_[k] ? ContactState::Active : ContactState::Inactive);
    violation = std::max(violation, active_[k] ? std::abs(frame.gap) : -frame.gap);
  }
  // Joints.
  if (model_.joint_row_total() > 0) {
    model_.all_joint_rows(shown_q_, shown_qd_, 0, joint_rows_);
    violation = std::max(violation, max_abs(joint_rows_.phi));
  }
  violation_ = violation;
  // Energy.
  energy_.kinetic = model_.kinetic_energy(shown_qd_);
  energy_.potential = model_.potential_energy(shown_q_);
  energy_.total = energy_.kinetic + energy_.potential;
}

// ---------------------------------------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------------------------------------

void Simulator::event_values(const Vector& q, const Vector& qd, std::vector<double>& out) {
  // Inactive point: gap − its crossing level, negative once it crosses.
  // Active point: λ + tolerance, negative once the contact would pull.
  bool need_multipliers = false;
  for (std::size_t k = 0; k < out.size(); ++k) {
    if (active_[k]) {
      need_multipliers = true;
    } else {
      out[k] = model_.contact_gap(static_cast<int>(k), q) - gap_threshold_[k];
    }
  }
  if (!need_multipliers) return;
  evaluate_dynamics(q, qd, stage_qdd_, &event_multipliers_);
  for (int k : active_points_) {
    out[static_cast<std::size_t>(k)] = event_multipliers_[static_cast<std::size_t>(k)] + lambda_tolerance_;
  }
}

bool Simulator::any_event(const std::vector<double>& values) {
  for (double v : values) {
    if (v < 0.0) return true;
  }
  return false;
}

double Simulator::locate_event(double h, double& hi) {
  // Bracket [lo, hi] of the earliest event: none at lo, one at hi. Regula falsi on the earliest crossing
  // with the Illinois modification, a bisection every third pass, until hi − lo ≤ event_tolerance.
  const double tolerance = scenario_.integrator.event_tolerance;
  double lo = 0.0;
  hi = h;
  values_lo_ = values_start_;
  values_hi_ = values_trial_;
  lo_q_ = q_;
  lo_qd_ = qd_;
  hi_q_ = trial_q_;
  hi_qd_ = trial_qd_;
  double weight_lo = 1.0, weight_hi = 1.0;
  int last_side = 0;
  for (int pass = 0; pass < 200 && hi - lo > tolerance; ++pass) {
    double tau = hi;
    if (pass % 3 == 2) {
      tau = 0.5 * (lo + hi);
    } else {
      for (std::size_t k = 0; k < values_hi_.size(); ++k) {
        if (!(values_hi_[k] < 0.0)) continue;
        const double f_lo = weight_lo * values_lo_[k], f_hi = weight_hi * values_hi_[k];
        const double denominator = f_lo - f_hi;
        const double estimate = denominator > 0.0 ? lo + (hi - lo) * f_lo / denominator : 0.5 * (lo + hi);
        tau = std::min(tau, estimate);
      }
    }
    // Stay strictly inside so that the bracket shrinks.
    const double margin = 0.25 * tolerance;
    tau = std::clamp(tau, lo + margin, hi - margin);
    rk4(tau, trial_q_, trial_qd_);
    event_values(trial_q_, trial_qd_, values_trial_);
    if (any_event(values_trial_)) {
      hi = tau;
      std::swap(values_hi_, values_trial_);
      hi_q_.swap(trial_q_);
      hi_qd_.swap(trial_qd_);
      weight_hi = 1.0;
      if (last_side == 1) weight_lo *= 0.5;
      last_side = 1;
    } else {
      lo = tau;
      std::swap(values_lo_, values_trial_);
      lo_q_.swap(trial_q_);
      lo_qd_.swap(trial_qd_);
      weight_lo = 1.0;
      if (last_side == -1) weight_hi *= 0.5;
      last_side = -1;
    }
  }
  return lo;
}

void Simulator::accept(const Vector& q, const Vector& qd, double new_time) {
  q_ = q;
  qd_ = qd;
  time_ = new_time;
  std::fill(impacting_.begin(), impacting_.end(), 0);
  if (!q_.allFinite() || !qd_.allFinite()) {
    throw std::runtime_error("simulation diverged at t = " + format_number(time_) + " s (non-finite state)");
  }
}

void Simulator::begin_step() {
  // Event values at the step start: gap − crossing level > 0 for inactive points, λ + tolerance ≥ 0 for
  // active ones.
  lambda_tolerance_ = multiplier_tolerance();
  for (std::size_t k = 0; k < points_.size(); ++k) {
    if (active_[k]) {
      values_start_[k] = point_multiplier_[k] + lambda_tolerance_;
    } else {
      // The crossing level: −slack, or slack below the start for a point that starts deeper than that.
      const double gap = model_.contact_gap(static_cast<int>(k), q_);
      gap_threshold_[k] = gap >= -kGapEventSlack ? -kGapEventSlack : gap - kGapEventSlack;
      values_start_[k] = gap - gap_threshold_[k];
    }
  }
}

bool Simulator::trial_has_event(double h) {
  begin_step();
  rk4(h, trial_q_, trial_qd_);
  event_values(trial_q_, trial_qd_, values_trial_);
  return any_event(values_trial_);
}

Simulator::StepOutcome Simulator::step_to(double step_end, bool on_grid) {
  const std::size_t point_count = points_.size();
  const double h = step_end - time_;
  begin_step();
  rk4(h, trial_q_, trial_qd_);
  // Gap crossings at the step end (cheap). A release shows in the λ of the accepted state, which the
  // next step needs anyway: accept, and go back to the step start only if some active contact pulls.
  bool crossed = false;
  for (std::size_t k = 0; k < point_count; ++k) {
    if (active_[k]) continue;
    values_trial_[k] = model_.contact_gap(static_cast<int>(k), trial_q_) - gap_threshold_[k];
    crossed = crossed || values_trial_[k] < 0.0;
  }
  if (!crossed) {
    start_q_ = q_;
    start_qd_ = qd_;
    start_qdd_ = qdd_;
    start_multipliers_ = multipliers_;
    start_point_multiplier_ = point_multiplier_;
    const double start_time = time_;
    accept(trial_q_, trial_qd_, step_end);
    refresh();
    bool pulls = false;
    for (int k : active_points_) pulls = pulls || point_multiplier_[static_cast<std::size_t>(k)] + lambda_tolerance_ < 0.0;
    if (!pulls) {
      if (on_grid) ++grid_index_;
      return StepOutcome::Smooth;
    }
    // Back to the step start to locate the release.
    q_.swap(start_q_);
    qd_.swap(start_qd_);
    qdd_.swap(start_qdd_);
    multipliers_.swap(start_multipliers_);
    point_multiplier_.swap(start_point_multiplier_);
    time_ = start_time;
  }
  event_values(trial_q_, trial_qd_, values_trial_);
  if (!any_event(values_trial_)) {
    // Only the projected state pulls (a borderline λ): keep the step and release there.
    accept(trial_q_, trial_qd_, step_end);
    settle();
    if (on_grid) ++grid_index_;
    return StepOutcome::Event;
  }

  // An event inside the step: locate it.
  double hi = h;
  const double lo = locate_event(h, hi);
  std::vector<int> crossings;
  for (std::size_t k = 0; k < point_count; ++k) {
    if (!active_[k] && values_hi_[k] < 0.0) crossings.push_back(static_cast<int>(k));
  }
  if (!crossings.empty()) {
    // A gap closes: stop just before it (nothing penetrates) and resolve the impact there.
    accept(lo_q_, lo_qd_, time_ + lo);
    settle();
    std::vector<int> candidates = crossings;
    for (int k = 0; k < static_cast<int>(point_count); ++k) {
      if (!active_[static_cast<std::size_t>(k)] && model_.contact_gap(k, q_) <= kContactGapTolerance &&
          model_.contact_normal_velocity(k, q_, qd_) < -kContactSpeedTolerance) {
        candidates.push_back(k);
      }
    }
    const bool logged = resolve_impact(std::move(candidates), Vector(), false);
    settle();
    return logged ? StepOutcome::Impact : StepOutcome::Event;
  }
  // An active contact would pull: go to the first instant it does and release it.
  accept(hi_q_, hi_qd_, time_ + hi);
  int worst = -1;
  for (int k : active_points_) {
    const std::size_t i = static_cast<std::size_t>(k);
    if (values_hi_[i] < 0.0 && (worst < 0 || values_hi_[i] < values_hi_[static_cast<std::size_t>(worst)])) worst = k;
  }
  if (worst >= 0) release(worst);
  settle();
  return StepOutcome::Event;
}

bool Simulator::apply_due_impulses(int& events, bool stop_at_impact) {
  // Scheduled impulses now due: the paper's i_u through the impact map.
  while (next_impulse_ < impulse_order_.size() &&
         scenario_.impulses[static_cast<std::size_t>(impulse_order_[next_impulse_])].time <= time_) {
    const ImpulseDef& def = scenario_.impulses[static_cast<std::size_t>(impulse_order_[next_impulse_++])];
    Vector impulse = Vector::Zero(n_);
    impulse.segment<2>(3 * def.body) = def.impulse;
    impulse(3 * def.body + 2) = def.angular;
    std::vector<int> approaching;
    for (int k = 0; k < static_cast<int>(points_.size()); ++k) {
      if (!active_[static_cast<std::size_t>(k)] && model_.contact_gap(k, q_) <= kContactGapTolerance &&
          model_.contact_normal_velocity(k, q_, qd_) < -kContactSpeedTolerance) {
        approaching.push_back(k);
      }
    }
    resolve_impact(approaching, impulse, true);
    settle();
    ++events;
    if (stop_at_impact) return true;
  }
  return false;
}

int Simulator::run_until(double t_end, bool stop_at_impact) {
  work_limit_hit_ = false;
  drift_ = 0.0;
  projections_ = 0;
  const std::size_t records_before = dropped_impacts_ + impacts_.size();
  int events = 0;
  long steps = 0;
  const double grid_step = scenario_.integrator.step;
  bool presented = false;
  while (true) {
    if (apply_due_impulses(events, stop_at_impact)) break;
    if (time_ >= t_end) break;
    if (events >= kMaxEventsPerCall || steps >= kMaxStepsPerCall || projections_ >= kMaxProjectionsPerCall) {
      work_limit_hit_ = true;
      break;
    }
    // The committed step ends at the next grid point (k + 1)·step, or at the next scheduled impulse: the
    // trajectory is the same whatever the lengths of the advance calls.
    double step_end = static_cast<double>(grid_index_ + 1) * grid_step;
    bool on_grid = true;
    if (next_impulse_ < impulse_order_.size()) {
      const double t_impulse = scenario_.impulses[static_cast<std::size_t>(impulse_order_[next_impulse_])].time;
      if (t_impulse < step_end) {
        step_end = t_impulse;
        on_grid = false;
      }
    }
    ++steps;
    if (step_end > t_end) {
      // The target falls inside the step: show the state there without committing it, unless an event
      // comes first; then the whole step is taken so that the event is located as any call pattern would
      // locate it (or, should the full step show no event, the step is cut at the target).
      if (!trial_has_event(t_end - time_)) {
        present(t_end);
        presented = true;
        break;
      }
      if (!trial_has_event(step_end - time_)) {
        step_end = t_end;
        on_grid = false;
      }
    }
    const StepOutcome outcome = step_to(step_end, on_grid);
    if (outcome != StepOutcome::Smooth) ++events;
    if (outcome == StepOutcome::Impact && stop_at_impact) break;
  }
  if (!presented) show_committed();
  // Records logged by this call (an impact may come with its plastic follow-up).
  return static_cast<int>(dropped_impacts_ + impacts_.size() - records_before);
}

void Simulator::present(double t_end) {
  // The partial step just integrated by trial_has_event, put back on the active constraints.
  shown_q_ = trial_q_;
  shown_qd_ = trial_qd_;
  project_positions(shown_q_);
  shown_time_ = t_end;
  std::fill(impacting_.begin(), impacting_.end(), 0);
  update_views();
}

void Simulator::show_committed() {
  shown_q_ = q_;
  shown_qd_ = qd_;
  shown_time_ = time_;
  update_views();
}

// ---------------------------------------------------------------------------------------------------------
// Impacts: the Γ rule
// ---------------------------------------------------------------------------------------------------------

bool Simulator::resolve_impact(std::vector<int> candidates, const Vector& impulse, bool scheduled) {
  const std::size_t point_count = points_.size();
  const Vector qd_minus = qd_;
  const double rest_speed = scenario_.integrator.rest_speed;

  // Zeno cascade guard: too many impacts at one instant make this one the fallback below from the start.
  if (std::abs(time_ - last_impact_time_) <= 100.0 * scenario_.integrator.event_tolerance) {
    ++impacts_at_instant_;
  } else {
    impacts_at_instant_ = 1;
  }
  last_impact_time_ = time_;

  // Normal velocities before the impact, and who is in A: the active points and Γ*.
  std::vector<double> approach(point_count, 0.0);
  for (std::size_t k = 0; k < point_count; ++k) approach[k] = model_.contact_normal_velocity(static_cast<int>(k), q_, qd_minus);
  std::vector<char> in_set(active_.begin(), active_.end());
  std::vector<char> plastic(point_count, 0);
  std::vector<int> removals(point_count, 0);
  bool approaching = false;
  std::sort(candidates.begin(), candidates.end());
  candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
  for (int k : candidates) {
    const std::size_t i = static_cast<std::size_t>(k);
    in_set[i] = 1;
    approaching = approaching || approach[i] < -kContactSpeedTolerance;
  }
  // Impacts slower than the rest speed are plastic (the Zeno rule).
  for (std::size_t k = 0; k < point_count; ++k) {
    if (std::abs(approach[k]) < rest_speed) plastic[k] = 1;
  }
  // The fallback: every touching point in A, every row plastic, no release. Nothing approaches after it
  // (A q̇⁺ = −A A⁺ E A q̇⁻ = 0), though an impulse may pull (flagged). Used when the rule cycles.
  bool fallback = false;
  auto enter_fallback = [&]() {
    fallback = true;
    for (std::size_t k = 0; k < point_count; ++k) {
      plastic[k] = 1;
      if (model_.contact_gap(static_cast<int>(k), q_) <= kContactGapTolerance) in_set[k] = 1;
    }
  };
  if (impacts_at_instant_ > kMaxImpactsPerInstant) enter_fallback();

  std::vector<int> set_points;
  std::optional<Projection> proj;
  ImpactResult result;
  int passes = 0;
  ConstraintRows rows;
  std::vector<int> normal_rows;
  while (true) {
    ++passes;
    // A = [joints; unilateral (and tangential) rows of the set], E per row, unilateral mask.
    set_points.clear();
    for (std::size_t k = 0; k < point_count; ++k) {
      if (in_set[k]) set_points.push_back(static_cast<int>(k));
    }
    assemble(q_, qd_minus, set_points, Tangents::All, rows);
    const int m = rows.rows();
    Vector restitution = Vector::Zero(m);
    std::vector<bool> unilateral(static_cast<std::size_t>(m), false);
    normal_rows.clear();
    int row = model_.joint_row_total();
    for (int k : set_points) {
      const std::size_t i = static_cast<std::size_t>(k);
      normal_rows.push_back(row);
      restitution(row) = plastic[i] ? 0.0 : restitution_of(k);
      unilateral[static_cast<std::size_t>(row)] = true;
      row += has_tangent(k, Tangents::All) ? 2 : 1;
    }
    ++projections_;
    proj.emplace(inertia_, rows.jacobian, nu_);
    result = solve_impact(*proj, qd_minus, Restitution::rows(restitution), impulse, unilateral);
    if (fallback) break;
    if (passes >= kMaxImpactPasses) {
      enter_fallback();
      continue;
    }

    // 1. A touching point outside A that approaches after the impact joins A, plastic.
    bool joined = false;
    for (std::size_t k = 0; k < point_count; ++k) {
      if (in_set[k]) continue;
      const int point = static_cast<int>(k);
      if (model_.contact_gap(point, q_) <= kContactGapTolerance &&
          model_.contact_normal_velocity(point, q_, result.qd_plus) < -kContactSpeedTolerance) {
        in_set[k] = 1;
        plastic[k] = 1;
        joined = true;
      }
    }
    if (joined) continue;

    // 2. Otherwise the most tensile unilateral row leaves A — the contact separates. A pull smaller than
    //    the impulse that would move the row at rest_speed (m_eff·rest_speed, m_eff = 1/(A_k M⁻¹ A_kᵀ)) is
    //    resting-contact business: the row stays and the force-level rule decides (this ends the endless
    //    alternation of plastic micro-impacts in a wedged contact). A point leaving a second time means
    //    the rule cycles (redundant contacts): take the fallback.
    const double impulse_scale = std::max({max_abs(result.impulse_multipliers),
                                           max_abs(model_.mass_diagonal().cwiseProduct(qd_minus)), max_abs(impulse)});
    const double tolerance = 1e-9 * impulse_scale + 1e-15 * force_scale_;
    int worst = -1;
    double worst_value = 0.0;
    for (std::size_t j = 0; j < set_points.size(); ++j) {
      const double value = result.impulse_multipliers(normal_rows[j]);
      const double inverse_mass = rows.jacobian.row(normal_rows[j]).cwiseAbs2().dot(model_.mass_diagonal().cwiseInverse());
      const double resting = inverse_mass > 0.0 ? rest_speed / inverse_mass : 0.0;
      if (value < -std::max(tolerance, resting) && value < worst_value) {
        worst_value = value;
        worst = set_points[j];
      }
    }
    if (worst < 0) break;
    // A pulling row of the minimum-norm split is no reason to release when another split has none.
    Vector split;
    if (detail::nonnegative_split(rows.jacobian, result.impulse, unilateral, 1e-9 * impulse_scale + 1e-15 * force_scale_,
                                  split)) {
      break;
    }
    if (removals[static_cast<std::size_t>(worst)]++ > 0) {
      enter_fallback();
      continue;
    }
    in_set[static_cast<std::size_t>(worst)] = 0;
  }

  // New active set: the points of A left at rest; every other point is separated.
  // A sticking point of A sticks again (its tangential row was in A).
  std::fill(active_.begin(), active_.end(), 0);
  std::fill(sliding_.begin(), sliding_.end(), 0);
  for (std::size_t j = 0; j < set_points.size(); ++j) {
    const std::size_t i = static_cast<std::size_t>(set_points[j]);
    active_[i] = result.normal_velocity_plus(normal_rows[j]) <= kContactSpeedTolerance ? 1 : 0;
  }
  qd_ = result.qd_plus;

  // Log real impacts: an approach, an external impulse, or a change of kinetic energy (a sticking point
  // touching while it slips loses its slip); a touch at rest only activates.
  const bool changed = std::abs(result.kinetic_energy_change) > 1e-12 * result.kinetic_minus + 1e-15;
  bool logged = false;
  if (approaching || scheduled || changed) {
    for (int k : set_points) mark_impacting(k);
    record_impact(set_points, normal_rows, std::move(*proj), std::move(result), passes, scheduled);
    logged = true;
  }

  // With a rank-deficient A and unequal e_i the Newton law holds only in the least-squares sense
  // (A q̇⁺ = −A A⁺ E A q̇⁻): a joint or a point about to rest may still move along its rows. A plastic
  // follow-up impact on the new active set (E = 0: q̇⁺⁺ = (I − S) q̇⁺) stops them; it is logged, so that
  // the log accounts for every change of kinetic energy.
  std::vector<int> resting;
  for (std::size_t k = 0; k < point_count; ++k) {
    if (active_[k]) resting.push_back(static_cast<int>(k));
  }
  if (model_.joint_row_total() + static_cast<int>(resting.size()) == 0) return logged;
  assemble(q_, qd_, resting, Tangents::All, rows);
  if (max_abs(rows.jacobian * qd_) <= kContactSpeedTolerance) return logged;
  std::vector<bool> unilateral(static_cast<std::size_t>(rows.rows()), false);
  normal_rows.clear();
  int row = model_.joint_row_total();
  for (int k : resting) {
    normal_rows.push_back(row);
    unilateral[static_cast<std::size_t>(row)] = true;
    row += has_tangent(k, Tangents::All) ? 2 : 1;
  }
  ++projections_;
  Projection follow_up(inertia_, rows.jacobian, nu_);
  ImpactResult stopped = solve_impact(follow_up, qd_, Restitution::rows(Vector::Zero(rows.rows())), Vector(), unilateral);
  qd_ = stopped.qd_plus;
  for (int k : resting) mark_impacting(k);
  record_impact(resting, normal_rows, std::move(follow_up), std::move(stopped), 1, false);
  return true;
}

void Simulator::mark_impacting(int point) { impacting_[static_cast<std::size_t>(point)] = 1; }

void Simulator::record_impact(const std::vector<int>& points, const std::vector<int>& normal_rows, Projection&& projection,
                              ImpactResult&& result, int iterations, bool scheduled) {
  const auto& features = model_.contact_points();
  ImpactRecord record{time_, points, {}, normal_rows, std::move(projection), std::move(result), {}, {}, iterations, scheduled};
  for (int k : points) {
    const ContactFrame frame = model_.contact_frame(k, q_);
    record.contacts.push_back(features[static_cast<std::size_t>(k)].contact);
    record.positions.push_back(frame.point);
    record.normals.push_back(frame.normal);
  }
  log_impact(std::move(record));
}

void Simulator::log_impact(ImpactRecord&& record) {
  // Full log: drop the oldest tenth (amortised O(1) per impact).
  if (impacts_.size() >= log_capacity_) {
    const std::size_t drop = std::max<std::size_t>(1, log_capacity_ / 10);
    impacts_.erase(impacts_.begin(), impacts_.begin() + static_cast<std::ptrdiff_t>(drop));
    dropped_impacts_ += drop;
  }
  impacts_.push_back(std::move(record));
}

// ---------------------------------------------------------------------------------------------------------
// Public stepping
// ---------------------------------------------------------------------------------------------------------

int Simulator::advance(double dt) {
  if (!std::isfinite(dt) || dt < 0.0) fail("dt", "must be a finite number ≥ 0, got " + format_number(dt));
  return run_until(shown_time_ + dt, false);
}

bool Simulator::advance_to_next_impact(double max_dt) {
  if (!std::isfinite(max_dt) || max_dt < 0.0) {
    fail("max_dt", "must be a finite number ≥ 0, got " + format_number(max_dt));
  }
  return run_until(shown_time_ + max_dt, true) > 0;
}

}  // namespace oblique
