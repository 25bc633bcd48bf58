// The Simulator (simulator.hpp): construction, reset and overrides, saving and restoring the state, and the
// public stepping calls. The other parts of the class: simulator_*.cpp.
#include "oblique/simulation/simulator.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include <Eigen/QR>

#include "math/checks.hpp"
#include "simulation/nonnegative_split.hpp"
#include "oblique/friction/contact_friction.hpp"
#include "oblique/friction/frictional_impact_solution.hpp"
#include "oblique/scenario/issues.hpp"
#include "oblique/math/scaled_projection.hpp"
#include "oblique/scenario/scenario_check.hpp"
#include "oblique/sparse/sparse_dynamics.hpp"
#include "oblique/sparse/sparse_path.hpp"
#include "simulation/simulator_internal.hpp"

namespace oblique {

using detail::fail;
using detail::format_number;
using detail::kUnlimitedWork;
using detail::max_abs;

namespace {

/// The scenario, checked as the simulator runs it (scenario_check.hpp): the Model's rules, and the overlaps
/// of the initial state, with the first issue in document order.
Scenario checked_for_simulation(Scenario scenario) {
  require_valid_scenario(scenario, ScenarioUse::Simulation);
  return scenario;
}

}  // namespace

// ---------------------------------------------------------------------------------------------------------
// Construction, reset, overrides
// ---------------------------------------------------------------------------------------------------------

Simulator::Simulator(Scenario scenario)
    : scenario_(checked_for_simulation(std::move(scenario))), model_(scenario_), inertia_(Inertia::from_diagonal(model_.mass_diagonal(), "bodies")),
      automatic_(scenario_) {
  // The scenario passed its check (checked_for_simulation, scenario_check.hpp): every value below is in range.
  n_ = model_.dofs();
  // Restitution per contact, and ν.
  contact_restitution_.resize(scenario_.contacts.size());
  for (std::size_t c = 0; c < scenario_.contacts.size(); ++c) {
    contact_restitution_[c] = scenario_.contacts[c].restitution.value_or(scenario_.restitution);
  }
  nu_ = scenario_.nu;
  // μ per contact (the model's, which set_contact_friction overrides), and whether friction runs at all.
  contact_friction_.assign(scenario_.contacts.size(), 0.0);
  for (const ContactFeature& point : model_.contact_points()) contact_friction_[static_cast<std::size_t>(point.contact)] = point.mu;
  document_friction_ = scenario_;
  detect_friction();
  // Scheduled impulses, in time order (stable for equal times).
  for (std::size_t k = 0; k < scenario_.impulses.size(); ++k) impulse_order_.push_back(static_cast<int>(k));
  std::stable_sort(impulse_order_.begin(), impulse_order_.end(), [&](int a, int b) {
    return scenario_.impulses[static_cast<std::size_t>(a)].time < scenario_.impulses[static_cast<std::size_t>(b)].time;
  });
  // Scales and workspaces.
  for (const BodyDef& body : scenario_.bodies) body_size_.push_back(std::max(shape_reach(body.shape), body.shape.radius));
  gravity_norm_ = std::hypot(scenario_.gravity.x(), scenario_.gravity.y());
  smallest_body_size_ = body_size_.empty() ? 0.0 : *std::min_element(body_size_.begin(), body_size_.end());
  force_scale_ = 0.0;
  for (int b = 0; b < model_.body_count(); ++b) force_scale_ += model_.mass_diagonal()(3 * b);  // Σ m × 1 m/s²
  record_inertia_ = std::make_shared<const Inertia>(inertia_);
  const std::size_t points = static_cast<std::size_t>(model_.contact_point_count());
  view_.points.resize(points);
  derived_.point_multiplier.assign(points, 0.0);
  size_point_buffers();
  work_.joint_rows.resize(model_.joint_row_total(), n_);
  initialize();
}

void Simulator::reset() { initialize(); }

void Simulator::initialize() {
  // reads the scenario ⇒ writes the whole state, its dynamics and the views; clears the log.
  // The checks of the initial state are made in full; its settling (the impact of its touching points at
  // t = 0, the settle) is the first transaction, within the work budget of a call and with no evaluation
  // larger than that budget (begun here, finished by the first advance calls when it needs more:
  // settle_initial_state).
  work_.budget.start(kUnlimitedWork);
  work_.replay.clear();
  pending_records_.clear();
  const std::size_t points = static_cast<std::size_t>(model_.contact_point_count());
  state_ = SimulationState();
  state_.q = model_.initial_positions();
  state_.qd = model_.initial_velocities();
  state_.active.assign(points, 0);
  state_.sliding.assign(points, 0);
  state_.impacting.assign(points, 0);
  derived_.point_multiplier.assign(points, 0.0);
  derived_.pending = false;
  derived_.shown_friction.clear();
  log_.clear();
  view_.drift = 0.0;
  view_.work_limit_hit = false;

  // Joints: reject a violated initial state, project away rounding.
  if (model_.joint_row_total() > 0) {
    model_.all_joint_rows(state_.q, state_.qd, 0, work_.joint_rows);
    int row = 0;
    for (int j = 0; j < model_.joint_count(); ++j) {
      const int rows = model_.joint_row_count(j);
      const double violation = max_abs(work_.joint_rows.phi.segment(row, rows));
      if (violation > kInitialJointTolerance) {
        fail("joints[" + std::to_string(j) + "]",
             "not satisfied by the initial positions (|φ| = " + format_number(violation) +
                 "; a pin's or weld's anchors must coincide, a slider's anchors lie on its axis)");
      }
      row += rows;
    }
  }
  update_automatic_contacts();
  collect_active_points();
  refresh();
  update_speed_scale();

  // Contacts: the touching points are activated (or their impact resolved) by the settling transaction.
  // The scenario check refused any that starts deeper than kInitialPenetration (scenario_overlaps.hpp).
  state_.settling = true;
  commit_transaction();
  show_committed();
  // Within one call's budget, with no evaluation beyond it: one that is larger is the next call's first.
  run_until(0.0, false, false);
}

void Simulator::settle_initial_state() {
  // reads the unsettled initial state ⇒ writes it settled: the touching points' impact at t = 0, or, when
  // all of them are at rest, their activation in the order of their load; then the settle.
  // An impact when a touching point approaches, or a `stick` point slips (its impact stops the slip).
  std::vector<int> touching;
  bool impact = false;
  for (int k = 0; k < contact_point_count(); ++k) {
    const double approach = normal_velocity_of(k, state_.q, state_.qd);
    if (gap_of(k, state_.q) > gap_tolerance(k) || approach >= speed_tolerance(k)) continue;
    touching.push_back(k);
    impact = impact || approach < -speed_tolerance(k) ||
             (sticks(k) && std::abs(slip_speed(k, state_.q, state_.qd)) > speed_tolerance(k));
  }
  if (impact) {
    resolve_impact(touching, Vector(), false);
    state_.impacts_at_instant = 0;
  } else if (!touching.empty()) {
    activate_at_rest(touching);
  }
  settle();
  state_.settling = false;
}

void Simulator::activate_at_rest(const std::vector<int>& at_rest) {
  // reads the initial state (no point approaches) ⇒ writes the active set and the slip modes of the
  // touching points at rest (the caller's settle refreshes the dynamics of the whole set).
  // Every touching point at rest is active, as a stack at rest is one block; but in which mode a frictional
  // point with no slip starts decides the run where several sets of modes are consistent: a row of touching
  // disks on a floor, all sticking at first, is a row of gears whose first solve pulls and pushes between
  // neighbours, and the one-at-a-time switches from there end in one of many states with the disks pressed
  // together, different in each column, which the symmetric scene then never leaves. So the points take
  // their modes in the order the load reaches them: first those the others' dynamics drive into their
  // partner (φ̈ < −a_tol), layer by layer from the supports up, settled as they would be alone; then the
  // points that carry no load, each sliding in name in the direction its slip accelerates (or sticking
  // where it does not), so that they join with the forces the scene had without them.
  const double tolerance = acceleration_tolerance();
  // Taken again after the budget stopped it: on from the last round it reached, or from its end (a round
  // assembles every point's row; a large touching scene takes many, and many calls).
  const std::uint64_t entry = settle_entry_key(detail::kLoadRoundsEntry);
  const std::size_t records_before = pending_records_.size();
  const std::size_t rounds_done = at_rest.size() + 1;
  std::vector<char> unused;
  std::size_t round = 0;
  resume_settle(entry, round, unused);
  for (; round <= at_rest.size(); ++round) {
    // (The first round starts from the entry itself: nothing to keep.)
    if (round > 0) keep_settle_pass(entry, records_before, round, unused);
    collect_active_points();
    refresh();
    std::vector<int> loaded;
    for (int k : at_rest) {
      if (!state_.active[static_cast<std::size_t>(k)] && normal_acceleration(k) < -tolerance) loaded.push_back(k);
    }
    if (loaded.empty()) break;
    // A loaded point slides in the direction it slips, or sticks (the settle then applies the cone).
    for (int k : loaded) {
      const std::size_t i = static_cast<std::size_t>(k);
      state_.active[i] = 1;
      state_.sliding[i] = has_friction_ && frictional(k) ? slide_code(slip_speed(k, state_.q, state_.qd), speed_tolerance(k)) : 0;
    }
  }
  // The rounds done: a call taken again from here goes straight on to the settle (with its own resume points).
  keep_settle_pass(entry, records_before, rounds_done, unused);
  settle();
  // The points without load, in the mode of their slip's acceleration under the loaded set's forces.
  for (int k : at_rest) {
    const std::size_t i = static_cast<std::size_t>(k);
    if (state_.active[i]) continue;
    state_.active[i] = 1;
    state_.sliding[i] = 0;
    if (!has_friction_ || !frictional(k)) continue;
    const double slip = slip_speed(k, state_.q, state_.qd);
    state_.sliding[i] = std::abs(slip) > speed_tolerance(k) ? slide_code(slip, speed_tolerance(k))
                                                            : slide_code(slip_acceleration(k), tolerance);
  }
}

double Simulator::acceleration_tolerance() const {
  // 1e-9 × max(|g|, V²/L_min, 1e-6 m/s²): the scale of the accelerations at play.
  const double centripetal = smallest_body_size_ > 0.0 ? speed_scale_ * speed_scale_ / smallest_body_size_ : 0.0;
  return kRelativeSpeedTolerance * std::max({gravity_norm_, centripetal, 1e-6});
}

double Simulator::normal_acceleration(int point) {
  // φ̈ = A_k q̈ + Ȧ_k q̇ of one point at the committed state and its q̈.
  const SparseJacobian& row = point_row(point, RowKind::Normal, state_.q, state_.qd);
  return row_dot(row, derived_.qdd) + work_.point_row.adot_qd(0);
}

double Simulator::slip_acceleration(int point) {
  // v̇_t = t q̈ + ṫ q̇ of one frictional point at the committed state and its q̈.
  const SparseJacobian& row = point_row(point, RowKind::Tangent, state_.q, state_.qd);
  return row_dot(row, derived_.qdd) + work_.point_row.adot_qd(0);
}

const SparseJacobian& Simulator::point_row(int point, RowKind kind, const Vector& q, const Vector& qd) {
  // The normal or tangential row of one point at (q, q̇), its few entries in compressed form (work.point_row
  // holds it, with its Ȧq̇): a dense row of n would cost n per point where the point touches six.
  work_.point_row.resize_sparse(1, n_);
  if (kind == RowKind::Normal) {
    normal_row_of(point, q, qd, 0, work_.point_row);
  } else {
    tangent_row_of(point, q, qd, 0, work_.point_row);
  }
  return work_.point_row.finish_sparse();
}

void Simulator::set_restitution(double e) {
  detail::check_restitution(e, "e");
  work_.replay.clear();
  scenario_.restitution = e;
  for (ContactDef& contact : scenario_.contacts) contact.restitution = e;
  std::fill(contact_restitution_.begin(), contact_restitution_.end(), e);
  // The automatic contacts too: every body's e (kept in the scenario where the body set one).
  for (std::size_t b = 0; b < scenario_.bodies.size(); ++b) {
    if (scenario_.bodies[b].restitution) scenario_.bodies[b].restitution = e;
    automatic_.set_body_restitution(static_cast<int>(b), e);
  }
}

void Simulator::set_contact_restitution(int contact, double e) {
  if (contact < 0 || contact >= static_cast<int>(contact_restitution_.size())) {
    fail("contact", contact_restitution_.empty()
                        ? "the scenario has no contacts"
                        : "must be a contact index in 0.." + std::to_string(contact_restitution_.size() - 1) +
                              ", got " + std::to_string(contact));
  }
  detail::check_restitution(e, "contacts[" + std::to_string(contact) + "].e");
  work_.replay.clear();
  scenario_.contacts[static_cast<std::size_t>(contact)].restitution = e;
  contact_restitution_[static_cast<std::size_t>(contact)] = e;
}

void Simulator::set_nu(std::optional<double> nu) {
  if (nu && !(std::isfinite(*nu) && *nu > 0.0)) fail("nu", "must be a finite positive number");
  work_.replay.clear();
  nu_ = nu;
  scenario_.nu = nu;
}

void Simulator::set_work_budget(double flops) {
  if (!std::isfinite(flops) || !(flops > 0.0)) fail("work_budget", "must be a finite positive number of flops");
  work_budget_ = flops;
}

double Simulator::restitution_of(int point) const {
  if (const FeaturePair* pair = automatic_pair(point)) return automatic_.restitution(*pair);
  return contact_restitution_[static_cast<std::size_t>(model_.contact_points()[static_cast<std::size_t>(point)].contact)];
}

// ---------------------------------------------------------------------------------------------------------
// Saving and restoring the state
// ---------------------------------------------------------------------------------------------------------

SimulationState Simulator::save_state() const {
  SimulationState state = state_;
  state.impact_count = log_.logged();
  // The views as shown: the partial step's q and q̇ when the time shown lies inside a step, the forces.
  ShownViews shown;
  if (state_.shown_time > state_.time) {
    shown.q = view_.q;
    shown.qd = view_.qd;
  }
  shown.multiplier.reserve(view_.points.size());
  shown.friction.reserve(view_.points.size());
  for (const ContactPoint& point : view_.points) {
    shown.multiplier.push_back(point.multiplier);
    shown.friction.push_back(point.friction);
  }
  state.shown = std::move(shown);
  return state;
}

void Simulator::restore_state(const SimulationState& state) {
  // Check everything before changing anything. The automatic points are rebuilt from their keys.
  if (!automatic_.enabled() && !state.automatic.empty()) {
    fail("state.automatic", "must be empty: this scenario has no automatic contacts");
  }
  std::vector<FeaturePair> automatic;
  for (std::size_t i = 0; i < state.automatic.size(); ++i) {
    automatic.push_back(automatic_.pair_of(contact_key(state.automatic[i]), "state.automatic[" + std::to_string(i) + "]"));
    if (i > 0 && !(contact_key(state.automatic[i - 1]) < contact_key(state.automatic[i]))) {
      fail("state.automatic", "must be sorted by key, each key once");
    }
  }
  const std::size_t points = static_cast<std::size_t>(model_.contact_point_count()) + automatic.size();
  auto check_size = [](std::size_t got, std::size_t expected, const char* field, const char* what) {
    if (got != expected) {
      fail(std::string("state.") + field, "must have " + std::to_string(expected) + " entries (" + what + "), got " +
                                              std::to_string(got));
    }
  };
  check_size(static_cast<std::size_t>(state.q.size()), static_cast<std::size_t>(n_), "q", "3 per body");
  check_size(static_cast<std::size_t>(state.qd.size()), static_cast<std::size_t>(n_), "qd", "3 per body");
  check_size(state.active.size(), points, "active", "one per contact point");
  check_size(state.sliding.size(), points, "sliding", "one per contact point");
  check_size(state.impacting.size(), points, "impacting", "one per contact point");
  detail::check_finite(state.q, "state.q");
  detail::check_finite(state.qd, "state.qd");
  if (!std::isfinite(state.time) || state.time < 0.0) fail("state.time", "must be a finite time ≥ 0");
  if (!std::isfinite(state.shown_time) || state.shown_time < state.time) {
    fail("state.shown_time", "must be a finite time ≥ state.time");
  }
  const double step = scenario_.integrator.step;
  if (state.grid_index < 0 || static_cast<double>(state.grid_index) * step > state.time ||
      !(state.time < static_cast<double>(state.grid_index + 1) * step)) {
    fail("state.grid_index", "must be the step index k with k·step ≤ time < (k + 1)·step");
  }
  if (state.next_impulse > impulse_order_.size()) {
    fail("state.next_impulse", "must be at most the number of scheduled impulses (" +
                                   std::to_string(impulse_order_.size()) + ")");
  }
  if (state.shown) {
    const ShownViews& shown = *state.shown;
    const std::size_t views = state.shown_time > state.time ? static_cast<std::size_t>(n_) : 0;
    check_size(static_cast<std::size_t>(shown.q.size()), views, "shown.q", "3 per body when shown_time > time, else none");
    check_size(static_cast<std::size_t>(shown.qd.size()), views, "shown.qd", "3 per body when shown_time > time, else none");
    check_size(shown.multiplier.size(), points, "shown.multiplier", "one per contact point");
    check_size(shown.friction.size(), points, "shown.friction", "one per contact point");
    detail::check_finite(shown.q, "state.shown.q");
    detail::check_finite(shown.qd, "state.shown.qd");
    for (std::size_t k = 0; k < points; ++k) {
      if (!std::isfinite(shown.multiplier[k])) fail("state.shown.multiplier[" + std::to_string(k) + "]", "must be a finite number");
      if (!std::isfinite(shown.friction[k])) fail("state.shown.friction[" + std::to_string(k) + "]", "must be a finite number");
    }
  }
  if (!std::isfinite(state.last_impact_time)) fail("state.last_impact_time", "must be a finite number");
  if (state.impacts_at_instant < 0) fail("state.impacts_at_instant", "must be ≥ 0");
  // An active point touches (the active set's contract, simulator.hpp): its row would otherwise hold apart
  // bodies together.
  const std::size_t declared = static_cast<std::size_t>(model_.contact_point_count());
  for (std::size_t k = 0; k < points; ++k) {
    if (!state.active[k]) continue;
    const FeaturePair* pair = k < declared ? nullptr : &automatic[k - declared];
    const ContactFeature* point = pair ? nullptr : &model_.contact_points()[k];
    const double gap = pair ? automatic_.gap(*pair, state.q) : model_.contact_gap(static_cast<int>(k), state.q);
    const double tolerance = std::max(kMinGapTolerance, kRelativeGapTolerance * (pair ? size_of_bodies(pair->body_a, pair->body_b)
                                                                                        : size_of_bodies(point->body_a, point->body_b)));
    if (!(gap <= tolerance)) {
      fail("state.active[" + std::to_string(k) + "]", "the point is in the active set but does not touch: gap " +
                                                          format_number(gap) + " m (an active point touches, within " +
                                                          format_number(tolerance) + " m)");
    }
  }

  // The state; what is derived from it (q̈ and λ: the dynamics at (q, q̇), bit-identical to those computed
  // when it was saved) is left to the next call's first transaction (derive_restored) when the state comes
  // with its views, else computed here with the partial step it showed.
  state_ = state;
  state_.automatic = std::move(automatic);
  state_.impact_count = 0;
  state_.shown.reset();
  for (std::size_t k = 0; k < points; ++k) {
    state_.active[k] = state_.active[k] ? 1 : 0;
    // Sliding: toward +t (or a `stick` point without friction) or toward −t (contact_friction.hpp).
    state_.sliding[k] = !state_.active[k] ? 0 : (state_.sliding[k] == kSlidesBackward ? kSlidesBackward : (state_.sliding[k] ? kSlidesForward : 0));
    state_.impacting[k] = state_.impacting[k] ? 1 : 0;
  }
  // The log, cut back to the records logged before the state.
  log_.cut_back_to(state.impact_count);
  view_.drift = 0.0;
  view_.work_limit_hit = false;
  work_.budget.start(kUnlimitedWork);
  work_.replay.clear();
  pending_records_.clear();
  if (!state.shown) {
    derived_.pending = false;
    watch_pairs();
    size_point_buffers();
    collect_active_points();
    derive_dynamics();
    show_state_at_shown_time();
    return;
  }
  // The views as they were shown: the positions and velocities at shown_time (the partial step, whose
  // presentation cleared the impacting flags), the forces of the committed state.
  const ShownViews& shown = *state.shown;
  size_point_buffers();
  collect_active_points();
  derived_.pending = true;
  derived_.point_multiplier = shown.multiplier;
  derived_.shown_friction = shown.friction;
  if (state_.shown_time > state_.time) {
    view_.q = shown.q;
    view_.qd = shown.qd;
    std::fill(state_.impacting.begin(), state_.impacting.end(), 0);
  } else {
    view_.q = state_.q;
    view_.qd = state_.qd;
  }
  update_views();
  work_.budget.add(work::restore(static_cast<double>(n_), static_cast<double>(points)));
}

// ---------------------------------------------------------------------------------------------------------
// Public stepping
// ---------------------------------------------------------------------------------------------------------

int Simulator::advance(double dt) {
  if (!std::isfinite(dt) || dt < 0.0) fail("dt", "must be a finite number ≥ 0, got " + format_number(dt));
  return run_until(state_.shown_time + dt, false);
}

bool Simulator::advance_to_next_impact(double max_dt) {
  if (!std::isfinite(max_dt) || max_dt < 0.0) {
    fail("max_dt", "must be a finite number ≥ 0, got " + format_number(max_dt));
  }
  return run_until(state_.shown_time + max_dt, true) > 0;
}

int Simulator::advance_to(double t) {
  if (!std::isfinite(t)) fail("t", "must be a finite time, got " + format_number(t));
  return run_until(std::max(t, state_.shown_time), false);
}

bool Simulator::advance_to_next_impact_before(double t) {
  if (!std::isfinite(t)) fail("t", "must be a finite time, got " + format_number(t));
  return run_until(std::max(t, state_.shown_time), true) > 0;
}

}  // namespace oblique
