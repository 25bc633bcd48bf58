// The Simulator's events and transactions (simulator.hpp): event values and their location, a step to the
// next event, and the transactions a call runs within its work budget.
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

using detail::format_number;
using detail::kUnlimitedWork;

// ---------------------------------------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------------------------------------

void Simulator::event_values(const Vector& q, const Vector& qd, std::vector<double>& out) {
  // reads (q, q̇), the crossing levels, the step's λ tolerance ⇒ writes one event value per point.
  // Inactive point: gap − its crossing level, negative once it crosses.
  // Active point: λ + tolerance, negative once the contact would pull.
  // Watched pair: the smallest gap of a feature pair not listed − its level (automatic_contacts.hpp).
  bool need_multipliers = false;
  const std::size_t points = static_cast<std::size_t>(contact_point_count());
  for (std::size_t k = 0; k < points; ++k) {
    if (state_.active[k]) {
      need_multipliers = true;
    } else {
      out[k] = gap_of(static_cast<int>(k), q) - work_.gap_threshold[k];
    }
  }
  pair_event_values(q, out);
  if (!need_multipliers) return;
  evaluate_dynamics(q, qd, work_.stage_qdd, &work_.event_multipliers);
  for (std::size_t j = 0; j < derived_.active_points.size(); ++j) {
    const std::size_t k = static_cast<std::size_t>(derived_.active_points[j]);
    out[k] = std::min(work_.event_multipliers[k] - work_.lambda_level[k], apart_value(k, q));
    if (has_friction_) out[k] = std::min(out[k], friction_event_value(j, q, qd, work_.event_multipliers[k], work_.event_lambda));
  }
}

bool Simulator::any_event(const std::vector<double>& values) {
  for (double v : values) {
    if (v < 0.0) return true;
  }
  return false;
}

double Simulator::locate_event(double h, double& hi) {
  // reads the step start and its trial end ⇒ returns lo and sets hi, the bracket [lo, hi] of the earliest
  // event (none at lo, one at hi), with work.lo_* and work.hi_* the states there.
  // Regula falsi on the earliest crossing with the Illinois modification, a bisection every third pass,
  // until hi − lo ≤ event_tolerance.
  const double tolerance = scenario_.integrator.event_tolerance;
  double lo = 0.0;
  hi = h;
  work_.values_lo = work_.values_start;
  work_.values_hi = work_.values_trial;
  work_.lo_q = state_.q;
  work_.lo_qd = state_.qd;
  work_.hi_q = work_.trial_q;
  work_.hi_qd = work_.trial_qd;
  double weight_lo = 1.0, weight_hi = 1.0;
  int last_side = 0;
  for (int pass = 0; pass < 200 && hi - lo > tolerance; ++pass) {
    double tau = hi;
    if (pass % 3 == 2) {
      tau = 0.5 * (lo + hi);
    } else {
      for (std::size_t k = 0; k < work_.values_hi.size(); ++k) {
        if (!(work_.values_hi[k] < 0.0)) continue;
        const double f_lo = weight_lo * work_.values_lo[k], f_hi = weight_hi * work_.values_hi[k];
        const double denominator = f_lo - f_hi;
        const double estimate = denominator > 0.0 ? lo + (hi - lo) * f_lo / denominator : 0.5 * (lo + hi);
        tau = std::min(tau, estimate);
      }
    }
    // Stay strictly inside so that the bracket shrinks.
    const double margin = 0.25 * tolerance;
    tau = std::clamp(tau, lo + margin, hi - margin);
    rk4(tau, work_.trial_q, work_.trial_qd);
    event_values(work_.trial_q, work_.trial_qd, work_.values_trial);
    if (any_event(work_.values_trial)) {
      hi = tau;
      std::swap(work_.values_hi, work_.values_trial);
      work_.hi_q.swap(work_.trial_q);
      work_.hi_qd.swap(work_.trial_qd);
      weight_hi = 1.0;
      if (last_side == 1) weight_lo *= 0.5;
      last_side = 1;
    } else {
      lo = tau;
      std::swap(work_.values_lo, work_.values_trial);
      work_.lo_q.swap(work_.trial_q);
      work_.lo_qd.swap(work_.trial_qd);
      weight_lo = 1.0;
      if (last_side == -1) weight_hi *= 0.5;
      last_side = -1;
    }
  }
  return lo;
}

void Simulator::accept(const Vector& q, const Vector& qd, double new_time) {
  // reads (q, q̇, t) ⇒ writes them as the committed state; clears state.impacting.
  state_.q = q;
  state_.qd = qd;
  state_.time = new_time;
  std::fill(state_.impacting.begin(), state_.impacting.end(), 0);
  if (!state_.q.allFinite() || !state_.qd.allFinite()) {
    throw std::runtime_error("simulation diverged at t = " + format_number(state_.time) + " s (non-finite state)");
  }
}

void Simulator::begin_step() {
  // reads the state and its λ ⇒ writes work.lambda_tolerance, the crossing levels and the event values at
  // the step start: gap − crossing level > 0 for inactive points, λ + tolerance ≥ 0 for active ones.
  work_.lambda_tolerance = multiplier_tolerance();
  update_speed_scale();
  size_point_buffers();
  const std::size_t points = static_cast<std::size_t>(contact_point_count());
  for (std::size_t k = 0; k < points; ++k) {
    if (state_.active[k]) {
      // λ + tolerance, and the level of its features' parting (apart_value): the relative gap tolerance (no
      // floor: the level follows the scene's size, as mechanics has no length scale of its own), or slack
      // above where it starts if beyond.
      work_.apart_level[k] = 0.0;
      const double beyond = -apart_value(k, state_.q);
      work_.apart_level[k] = std::max(kRelativeGapTolerance * size_of(static_cast<int>(k)), beyond + event_slack(static_cast<int>(k)));
      // λ's level: −tolerance, or tolerance below a point held while it pulls (settle).
      const double lambda = derived_.point_multiplier[k];
      work_.lambda_level[k] = std::min(-work_.lambda_tolerance, lambda - work_.lambda_tolerance);
      work_.values_start[k] = std::min(lambda - work_.lambda_level[k], apart_value(k, state_.q));
    } else {
      // The crossing level: −slack, or slack below the start for a point that starts deeper than that.
      const double gap = gap_of(static_cast<int>(k), state_.q);
      const double slack = event_slack(static_cast<int>(k));
      work_.gap_threshold[k] = gap >= -slack ? -slack : gap - slack;
      work_.values_start[k] = gap - work_.gap_threshold[k];
    }
  }
  // The watched pairs: no event at the start; their levels are set at the step end (pair_events_at_end).
  for (std::size_t j = 0; j < automatic_.watched().size(); ++j) {
    work_.pair_located[j] = 0;
    work_.values_start[points + j] = 1.0;
  }
  // Friction: the cone of each sticking point, the slip sign of each sliding one (contact_friction.hpp).
  if (!has_friction_) return;
  for (std::size_t j = 0; j < derived_.active_points.size(); ++j) {
    const std::size_t k = static_cast<std::size_t>(derived_.active_points[j]);
    work_.values_start[k] = std::min(work_.values_start[k], friction_event_value(j, state_.q, state_.qd,
                                                                                derived_.point_multiplier[k],
                                                                                derived_.multipliers));
  }
}

bool Simulator::trial_has_event(double h) {
  // reads the state ⇒ writes work.trial_* (a step of length h, not committed); returns whether an event
  // lies inside it.
  begin_step();
  rk4(h, work_.trial_q, work_.trial_qd);
  cover_step(work_.trial_q);
  pair_events_at_end(work_.trial_q, work_.values_trial);
  event_values(work_.trial_q, work_.trial_qd, work_.values_trial);
  return any_event(work_.values_trial);
}

std::vector<int> Simulator::find_points_again(const std::vector<int>& points) {
  // reads the committed state ⇒ writes state.automatic found again there; returns `points` as they are
  // numbered now (an automatic point by its key; one no longer found is left out).
  const int declared = model_.contact_point_count();
  std::vector<ContactKey> keys;
  for (int k : points) {
    if (k >= declared) keys.push_back(contact_key(state_.automatic[static_cast<std::size_t>(k - declared)]));
  }
  update_automatic_contacts();
  std::vector<int> renumbered;
  for (int k : points) {
    if (k < declared) renumbered.push_back(k);
  }
  for (const ContactKey& key : keys) {
    const auto found = std::lower_bound(state_.automatic.begin(), state_.automatic.end(), key,
                                        [](const FeaturePair& pair, const ContactKey& x) { return contact_key(pair) < x; });
    if (found != state_.automatic.end() && contact_key(*found) == key) {
      renumbered.push_back(declared + static_cast<int>(found - state_.automatic.begin()));
    }
  }
  return renumbered;
}

std::vector<int> Simulator::approaching_points() const {
  // Separated points that touch and approach at the committed state.
  std::vector<int> points;
  for (int k = 0; k < contact_point_count(); ++k) {
    if (!state_.active[static_cast<std::size_t>(k)] && gap_of(k, state_.q) <= gap_tolerance(k) &&
        normal_velocity_of(k, state_.q, state_.qd) < -speed_tolerance(k)) {
      points.push_back(k);
    }
  }
  return points;
}

Simulator::StepOutcome Simulator::step_to(double step_end, bool on_grid) {
  // reads the state ⇒ writes the state at step_end, or at the first event before it (resolved).
  const double h = step_end - state_.time;
  begin_step();
  rk4(h, work_.trial_q, work_.trial_qd);
  // The automatic points found within margins the step kept to (else found again with larger ones).
  cover_step(work_.trial_q);
  const std::size_t point_count = static_cast<std::size_t>(contact_point_count());
  // Gap crossings at the step end (cheap). A release shows in the λ of the accepted state, which the
  // next step needs anyway: accept, and go back to the step start only if some active contact pulls.
  bool crossed = false;
  for (std::size_t k = 0; k < point_count; ++k) {
    if (state_.active[k]) continue;
    work_.values_trial[k] = gap_of(static_cast<int>(k), work_.trial_q) - work_.gap_threshold[k];
    crossed = crossed || work_.values_trial[k] < 0.0;
  }
  crossed = pair_events_at_end(work_.trial_q, work_.values_trial) || crossed;
  if (!crossed) {
    work_.start_q = state_.q;
    work_.start_qd = state_.qd;
    work_.start_qdd = derived_.qdd;
    work_.start_multipliers = derived_.multipliers;
    work_.start_point_multiplier = derived_.point_multiplier;
    const double start_time = state_.time;
    accept(work_.trial_q, work_.trial_qd, step_end);
    refresh();
    bool pulls = false;
    for (std::size_t j = 0; j < derived_.active_points.size(); ++j) {
      const std::size_t k = static_cast<std::size_t>(derived_.active_points[j]);
      pulls = pulls || derived_.point_multiplier[k] - work_.lambda_level[k] < 0.0 || apart_value(k, state_.q) < 0.0;
      if (has_friction_) {
        pulls = pulls || friction_event_value(j, state_.q, state_.qd, derived_.point_multiplier[k], derived_.multipliers) < 0.0;
      }
    }
    // A Painlevé state at the step end is settled there (the tangential impact of settle()).
    pulls = pulls || painleve_at_state();
    if (!pulls) {
      if (on_grid) ++state_.grid_index;
      return StepOutcome::Smooth;
    }
    // Back to the step start to locate the release.
    state_.q.swap(work_.start_q);
    state_.qd.swap(work_.start_qd);
    derived_.qdd.swap(work_.start_qdd);
    derived_.multipliers.swap(work_.start_multipliers);
    derived_.point_multiplier.swap(work_.start_point_multiplier);
    state_.time = start_time;
  }
  event_values(work_.trial_q, work_.trial_qd, work_.values_trial);
  if (!any_event(work_.values_trial)) {
    // Only the projected state pulls (a borderline λ): keep the step and release there.
    accept(work_.trial_q, work_.trial_qd, step_end);
    settle();
    if (on_grid) ++state_.grid_index;
    return StepOutcome::Event;
  }

  // An event inside the step: locate it (on the sparse path from the step's dense output).
  double hi = h;
  const double lo = sparse_smooth_phase() ? sparse_locate_event(h, hi) : locate_event(h, hi);
  std::vector<int> crossings;
  for (std::size_t k = 0; k < point_count; ++k) {
    if (!state_.active[k] && work_.values_hi[k] < 0.0) crossings.push_back(static_cast<int>(k));
  }
  // The narrow phase sees the pair otherwise (a watched pair's event: a feature pair not listed closes, or
  // an active point is no longer found): the points are found again where it does, just after the event
  // (at most the event tolerance's travel past the gap's level; before it nothing would change, and the
  // step would end there again).
  bool refound = false;
  for (std::size_t j = point_count; j < work_.values_hi.size(); ++j) refound = refound || work_.values_hi[j] < 0.0;
  if (refound) {
    accept(work_.hi_q, work_.hi_qd, state_.time + hi);
    crossings = find_points_again(crossings);
    settle();
    std::vector<int> candidates = crossings;
    for (int k : approaching_points()) candidates.push_back(k);
    const bool logged = !candidates.empty() && resolve_impact(std::move(candidates), Vector(), false);
    settle();
    return logged ? StepOutcome::Impact : StepOutcome::Event;
  }
  if (!crossings.empty()) {
    // A gap closes: stop just before it (nothing penetrates) and resolve the impact there.
    accept(work_.lo_q, work_.lo_qd, state_.time + lo);
    settle();
    std::vector<int> candidates = crossings;
    for (int k : approaching_points()) candidates.push_back(k);
    const bool logged = resolve_impact(std::move(candidates), Vector(), false);
    settle();
    return logged ? StepOutcome::Impact : StepOutcome::Event;
  }
  // An active contact would pull: go to the first instant it does and release it.
  accept(work_.hi_q, work_.hi_qd, state_.time + hi);
  int worst = -1;
  for (int k : derived_.active_points) {
    const std::size_t i = static_cast<std::size_t>(k);
    if (work_.values_hi[i] < 0.0 && (worst < 0 || work_.values_hi[i] < work_.values_hi[static_cast<std::size_t>(worst)])) {
      worst = k;
    }
  }
  if (worst >= 0 && apart_value(static_cast<std::size_t>(worst), state_.q) < 0.0) {
    // Its features parted: it separates, and the points are found again where it did.
    state_.active[static_cast<std::size_t>(worst)] = 0;
    state_.sliding[static_cast<std::size_t>(worst)] = 0;
    find_points_again({});
    settle();
    std::vector<int> candidates = approaching_points();
    const bool logged = !candidates.empty() && resolve_impact(std::move(candidates), Vector(), false);
    settle();
    return logged ? StepOutcome::Impact : StepOutcome::Event;
  }
  if (worst >= 0) {
    if (frictional(worst)) {
      // A frictional point: stick → slip, slip → stick or reversal, or separation, decided at the event.
      collect_active_points();
      refresh();
      friction_event(worst);
    } else {
      release(worst);
    }
  }
  settle();
  return StepOutcome::Event;
}

bool Simulator::apply_due_impulses(bool stop_at_impact) {
  // reads the state, the scheduled impulses ⇒ writes the state after those due now (the paper's i_u
  // through the impact map), state.next_impulse; returns whether to stop there.
  while (state_.next_impulse < impulse_order_.size() &&
         scenario_.impulses[static_cast<std::size_t>(impulse_order_[state_.next_impulse])].time <= state_.time) {
    const ImpulseDef& def = scenario_.impulses[static_cast<std::size_t>(impulse_order_[state_.next_impulse++])];
    Vector impulse = Vector::Zero(n_);
    impulse.segment<2>(3 * def.body) = def.impulse;
    impulse(3 * def.body + 2) = def.angular;
    resolve_impact(approaching_points(), impulse, true);
    settle();
    if (stop_at_impact) return true;
  }
  return false;
}

int Simulator::run_until(double t_end, bool stop_at_impact, bool progress) {
  // reads the state ⇒ writes the state at t_end (or where the work budget or, if asked, an impact stops
  // it) and the views; returns the records logged.
  view_.work_limit_hit = false;
  view_.drift = 0.0;
  work_.budget.start(work_budget_, progress);
  const std::size_t records_before = log_.logged();
  bool presented = false;
  bool committed = false;
  bool done = false;
  while (!done) {
    begin_transaction();
    try {
      done = run_transaction(t_end, stop_at_impact, presented);
    } catch (const WorkBudget::Exhausted&) {
      // Out of budget inside the transaction: back to where it started; the next call takes it again.
      roll_back_transaction();
      view_.work_limit_hit = true;
      presented = false;
      break;
    } catch (...) {
      // The step failed (too many contact points, a state that diverged): it is undone whole, so that the
      // simulator stays at the committed state before it, shown as it was, and the error goes to the caller.
      fail_transaction();
      throw;
    }
    commit_transaction();
    committed = true;
  }
  // The views of the committed state, unless they are those already (a call that committed nothing after
  // one that showed the same state: a step too long for one call's budget).
  if (!presented && (committed || !view_.of_committed)) show_committed();
  // Records logged by this call (an impact may come with its plastic follow-up).
  return static_cast<int>(log_.logged() - records_before);
}

bool Simulator::run_transaction(double t_end, bool stop_at_impact, bool& presented) {
  // reads the state ⇒ writes the state after the impulses due now and one step toward t_end (or the views
  // of a partial step ending at t_end), or the initial state settled; returns whether the call is over.
  if (derived_.pending) {
    derive_restored();
    return state_.time >= t_end;
  }
  if (state_.settling) {
    settle_initial_state();
    return state_.time >= t_end;
  }
  // Out of budget with impulses due now: they wait for the next call, so that they and the step after them
  // are one transaction (a step that fails undoes them too, wherever the calls return).
  const bool impulse_due = state_.next_impulse < impulse_order_.size() &&
      scenario_.impulses[static_cast<std::size_t>(impulse_order_[state_.next_impulse])].time <= state_.time;
  if (impulse_due && work_.budget.exhausted()) {
    view_.work_limit_hit = true;
    return true;
  }
  if (apply_due_impulses(stop_at_impact)) return true;
  if (state_.time >= t_end) return true;
  // (After impulses the step is taken in the same transaction: an evaluation the budget cannot pay for
  // undoes both, and the next call replays the impulses' impacts from memory.)
  if (!impulse_due && work_.budget.exhausted()) {
    view_.work_limit_hit = true;
    return true;
  }
  // The automatic contact points at the step start.
  update_automatic_contacts();
  // The committed step ends at the next grid point (k + 1)·step, or at the next scheduled impulse: the
  // trajectory is the same whatever the lengths of the advance calls.
  double step_end = static_cast<double>(state_.grid_index + 1) * scenario_.integrator.step;
  bool on_grid = true;
  if (state_.next_impulse < impulse_order_.size()) {
    const double t_impulse = scenario_.impulses[static_cast<std::size_t>(impulse_order_[state_.next_impulse])].time;
    if (t_impulse < step_end) {
      step_end = t_impulse;
      on_grid = false;
    }
  }
  if (step_end > t_end) {
    // The target falls inside the step: show the state there without committing it, unless an event
    // comes first; then the whole step is taken so that the event is located as any call pattern would
    // locate it (or, should the full step show no event, the step is cut at the target).
    if (!trial_has_event(t_end - state_.time)) {
      present(t_end);
      presented = true;
      return true;
    }
    if (!trial_has_event(step_end - state_.time)) {
      step_end = t_end;
      on_grid = false;
    }
  }
  const StepOutcome outcome = step_to(step_end, on_grid);
  return outcome == StepOutcome::Impact && stop_at_impact;
}

void Simulator::begin_transaction() {
  // reads the state and its dynamics ⇒ writes the transaction's start; the replay starts over.
  work_.transaction_state = state_;
  work_.transaction_derived = derived_;
  work_.replay.rewind();
  update_speed_scale();
}

void Simulator::commit_transaction() {
  // reads the transaction's records ⇒ writes them to the log; nothing is left to replay.
  for (ImpactRecord& record : pending_records_) log_.push(std::move(record));
  pending_records_.clear();
  work_.replay.clear();
  work_.settle_passes.clear();
#ifndef NDEBUG
  if (const std::string violation = contact_set_violation(); !violation.empty()) detail::invariant_failed(violation);
#endif
}

std::string Simulator::contact_set_violation() const {
  // reads the committed state and its λ ⇒ the first point that breaks the active set's contract, described.
  const auto name = [this](int point) {
    const FeaturePair* pair = automatic_pair(point);
    const ContactFeature* declared = pair ? nullptr : &model_.contact_points()[static_cast<std::size_t>(point)];
    const int a = pair ? pair->body_a : declared->body_a, b = pair ? pair->body_b : declared->body_b;
    const auto body = [this](int i) { return i == kWorld ? std::string("the world") : quote(scenario_.bodies[static_cast<std::size_t>(i)].name); };
    return "contact point " + std::to_string(point) + " (" + body(a) + " and " + body(b) + ", " +
           (pair ? std::string("automatic") : "contacts[" + std::to_string(declared->contact) + "]") + ")";
  };
  for (int k = 0; k < contact_point_count(); ++k) {
    const std::size_t i = static_cast<std::size_t>(k);
    if (state_.active[i]) {
      const double gap = gap_of(k, state_.q);
      if (!(gap <= gap_tolerance(k))) {
        return name(k) + " is in the active set at t = " + format_number(state_.time) + " s but does not touch: gap " +
               format_number(gap) + " m, beyond its tolerance " + format_number(gap_tolerance(k)) + " m";
      }
    } else if (derived_.point_multiplier[i] != 0.0 || state_.sliding[i] != 0) {
      return name(k) + " is not in the active set at t = " + format_number(state_.time) + " s but carries " +
             (state_.sliding[i] != 0 ? std::string("a slip") : "a force λ = " + format_number(derived_.point_multiplier[i]) + " N");
    }
  }
  // The rows of A are those of the active points.
  std::size_t active = 0;
  for (char flag : state_.active) active += flag ? 1 : 0;
  if (active != derived_.active_points.size()) {
    return "the rows of A are those of " + std::to_string(derived_.active_points.size()) + " contact points at t = " +
           format_number(state_.time) + " s, but " + std::to_string(active) + " are in the active set";
  }
  return "";
}

void Simulator::roll_back_transaction() {
  // reads the transaction's start ⇒ writes it back as the state; its records are dropped (the replay
  // makes them again), its evaluations kept for the replay.
  state_ = work_.transaction_state;
  derived_ = work_.transaction_derived;
  pending_records_.clear();
}

void Simulator::fail_transaction() {
  // reads the transaction's start ⇒ writes it back as the state, with the views of that state: the
  // committed one, or the partial step it showed (as restore_state does); nothing is left to replay.
  roll_back_transaction();
  work_.replay.clear();
  watch_pairs();
  size_point_buffers();
  view_.work_limit_hit = false;
  work_.budget.start(kUnlimitedWork);
  // A restored state whose dynamics were still to come shows its views as restored, unchanged.
  if (derived_.pending) return;
  show_state_at_shown_time();
}

void Simulator::show_state_at_shown_time() {
  // reads state (a committed state and the time it was shown at) ⇒ writes the views at state.shown_time:
  // the partial step integrated again, or the committed state where that step fails.
  try {
    if (state_.shown_time > state_.time) {
      trial_has_event(state_.shown_time - state_.time);
      present(state_.shown_time);
    } else {
      show_committed();
    }
  } catch (...) {
    state_.shown_time = state_.time;
    show_committed();
  }
  work_.replay.clear();
}

void Simulator::present(double t_end) {
  // reads work.trial_* (the partial step just integrated by trial_has_event) ⇒ writes the views at t_end,
  // put back on the active constraints; state.shown_time; clears state.impacting.
  view_.q = work_.trial_q;
  view_.qd = work_.trial_qd;
  project_positions(view_.q);
  state_.shown_time = t_end;
  std::fill(state_.impacting.begin(), state_.impacting.end(), 0);
  update_views();
}

void Simulator::show_committed() {
  // reads the committed state ⇒ writes the views and state.shown_time.
  view_.q = state_.q;
  view_.qd = state_.qd;
  state_.shown_time = state_.time;
  update_views();
  view_.of_committed = true;
}

}  // namespace oblique
