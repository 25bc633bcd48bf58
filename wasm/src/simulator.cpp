#include "oblique/simulator.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include <Eigen/QR>

#include "checks.hpp"
#include "nonnegative_split.hpp"
#include "oblique/contact_friction.hpp"
#include "oblique/frictional_impact_solution.hpp"
#include "oblique/issues.hpp"
#include "oblique/scaled_projection.hpp"
#include "oblique/scenario_check.hpp"
#include "oblique/sparse_dynamics.hpp"
#include "oblique/sparse_path.hpp"

namespace oblique {

using detail::fail;
using detail::format_number;

namespace {

/// Passes of the Gauss–Newton position projection after a step.
constexpr int kMaxProjectionPasses = 8;

constexpr double kUnlimitedWork = std::numeric_limits<double>::infinity();

double max_abs(const Vector& v) { return v.size() > 0 ? v.cwiseAbs().maxCoeff() : 0.0; }

/// The scenario, checked as the simulator runs it (scenario_check.hpp): the Model's rules, and the overlaps
/// of the initial state, with the first issue in document order.
Scenario checked_for_simulation(Scenario scenario) {
  require_valid_scenario(scenario, ScenarioUse::Simulation);
  return scenario;
}

/// The message of a step that would keep more than kMaxContactPoints contact points: how many, of which
/// declared and automatic, and the bodies that hold the most of them (by name, with their counts).
std::string too_many_points_message(const Scenario& scenario, const Model& model,
                                    const std::vector<FeaturePair>& found, double time) {
  const std::size_t declared = static_cast<std::size_t>(model.contact_point_count());
  // Points per body (a point counts for both of its bodies; the world is not a body).
  std::vector<std::size_t> per_body(scenario.bodies.size(), 0);
  auto count = [&](int body) {
    if (body != kWorld) ++per_body[static_cast<std::size_t>(body)];
  };
  for (const ContactFeature& point : model.contact_points()) {
    count(point.body_a);
    count(point.body_b);
  }
  for (const FeaturePair& pair : found) {
    count(pair.body_a);
    count(pair.body_b);
  }
  // The three bodies with the most, the lower index first among equals.
  std::vector<std::size_t> order(per_body.size());
  for (std::size_t b = 0; b < order.size(); ++b) order[b] = b;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return per_body[a] > per_body[b]; });
  std::string most;
  for (std::size_t i = 0; i < order.size() && i < 3 && per_body[order[i]] > 0; ++i) {
    most += std::string(i > 0 ? ", " : "") + quote(scenario.bodies[order[i]].name) + " (" +
            std::to_string(per_body[order[i]]) + ")";
  }
  return "too many contact points at t = " + format_number(time) + " s: " + std::to_string(declared + found.size()) +
         " (" + std::to_string(declared) + " declared, " + std::to_string(found.size()) +
         " found by \"collide\": \"all\"), the limit is " + std::to_string(kMaxContactPoints) +
         "; the bodies with the most: " + most + "; the bodies crowd too closely. The step was not taken: the "
         "simulation stays at t = " + format_number(time) + " s";
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
  // t = 0, the settle) is the first transaction, within the work budget of a call (begun here, finished by
  // the first advance calls when it needs more: settle_initial_state).
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
  run_until(0.0, false);
}

void Simulator::settle_initial_state() {
  // reads the unsettled initial state ⇒ writes it settled: the touching points' impact at t = 0 (those at
  // rest simply become active), then the settle.
  std::vector<int> touching;
  for (int k = 0; k < contact_point_count(); ++k) {
    if (gap_of(k, state_.q) <= gap_tolerance(k) && normal_velocity_of(k, state_.q, state_.qd) < speed_tolerance(k)) {
      touching.push_back(k);
    }
  }
  if (!touching.empty()) {
    resolve_impact(touching, Vector(), false);
    state_.impacts_at_instant = 0;
  }
  settle();
  state_.settling = false;
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
// Contact points: the declared ones (the model's), then the automatic ones (automatic_contacts.hpp)
// ---------------------------------------------------------------------------------------------------------

const FeaturePair* Simulator::automatic_pair(int point) const {
  const int declared = model_.contact_point_count();
  return point < declared ? nullptr : &state_.automatic[static_cast<std::size_t>(point - declared)];
}

double Simulator::gap_of(int point, const Vector& q) const {
  if (const FeaturePair* pair = automatic_pair(point)) return automatic_.gap(*pair, q);
  return model_.contact_gap(point, q);
}

ContactFrame Simulator::frame_of(int point, const Vector& q) const {
  const FeaturePair* pair = automatic_pair(point);
  if (!pair) return model_.contact_frame(point, q);
  ContactFrame frame = feature_pair_frame(*pair, q);
  frame.gap = automatic_.gap(*pair, q);
  return frame;
}

double Simulator::normal_velocity_of(int point, const Vector& q, const Vector& qd) const {
  if (const FeaturePair* pair = automatic_pair(point)) return feature_pair_normal_velocity(*pair, q, qd);
  return model_.contact_normal_velocity(point, q, qd);
}

void Simulator::normal_row_of(int point, const Vector& q, const Vector& qd, int row, ConstraintRows& out) const {
  if (const FeaturePair* pair = automatic_pair(point)) {
    feature_pair_normal_row(*pair, q, qd, row, out);
  } else {
    model_.contact_normal_row(point, q, qd, row, out);
  }
}

void Simulator::tangent_row_of(int point, const Vector& q, const Vector& qd, int row, ConstraintRows& out) const {
  if (const FeaturePair* pair = automatic_pair(point)) {
    feature_pair_tangent_row(*pair, q, qd, row, out);
  } else {
    model_.contact_tangent_row(point, q, qd, row, out);
  }
}

bool Simulator::sticks(int point) const {
  if (const FeaturePair* pair = automatic_pair(point)) return automatic_.sticks(*pair);
  return std::isinf(friction_of(point));
}

double Simulator::friction_of(int point) const {
  if (const FeaturePair* pair = automatic_pair(point)) return automatic_.friction(*pair);
  return contact_friction_[static_cast<std::size_t>(model_.contact_points()[static_cast<std::size_t>(point)].contact)];
}

double Simulator::size_of(int point) const {
  const FeaturePair* pair = automatic_pair(point);
  const int a = pair ? pair->body_a : model_.contact_points()[static_cast<std::size_t>(point)].body_a;
  const int b = pair ? pair->body_b : model_.contact_points()[static_cast<std::size_t>(point)].body_b;
  return size_of_bodies(a, b);
}

double Simulator::size_of_bodies(int a, int b) const {
  // The size of the smaller of two bodies (a plane has none: the body's).
  const double inf = std::numeric_limits<double>::infinity();
  const double size_a = a == kWorld ? inf : body_size_[static_cast<std::size_t>(a)];
  const double size_b = b == kWorld ? inf : body_size_[static_cast<std::size_t>(b)];
  return std::min(size_a, size_b);
}

double Simulator::gap_tolerance(int point) const {
  // kRelativeGapTolerance × the smaller body's size, at least kMinGapTolerance (simulator.hpp).
  return std::max(kMinGapTolerance, kRelativeGapTolerance * size_of(point));
}

double Simulator::event_slack(int point) const {
  // kRelativeGapEventSlack × the smaller body's size, at least kMinGapEventSlack (simulator.hpp).
  return std::max(kMinGapEventSlack, kRelativeGapEventSlack * size_of(point));
}

double Simulator::speed_tolerance(int point) const {
  // kRelativeSpeedTolerance × max(√(|g| L), V), at least kMinSpeedTolerance (simulator.hpp).
  const double falling = std::sqrt(gravity_norm_ * size_of(point));
  return std::max(kMinSpeedTolerance, kRelativeSpeedTolerance * std::max(falling, speed_scale_));
}

void Simulator::update_speed_scale() {
  // reads the committed q̇ ⇒ writes V = max over bodies of |v| + |ω| × size (speed_tolerance).
  double scale = 0.0;
  for (std::size_t b = 0; b < body_size_.size(); ++b) {
    const int i = 3 * static_cast<int>(b);
    const double speed = std::hypot(state_.qd(i), state_.qd(i + 1)) + std::abs(state_.qd(i + 2)) * body_size_[b];
    scale = std::max(scale, speed);
  }
  speed_scale_ = scale;
}

int Simulator::contact_of(int point) const {
  return automatic_pair(point) ? -1 : model_.contact_points()[static_cast<std::size_t>(point)].contact;
}

void Simulator::size_point_buffers() {
  // reads the number of contact points and watched pairs ⇒ sizes the per-point and per-event work buffers
  // (their values are per step): one event per point, then one per watched body pair.
  const std::size_t points = static_cast<std::size_t>(contact_point_count());
  const std::size_t events = points + automatic_.watched().size();
  if (work_.gap_threshold.size() == points && work_.lambda_level.size() == points && work_.values_start.size() == events &&
      work_.pair_located.size() == automatic_.watched().size()) {
    return;
  }
  work_.event_multipliers.assign(points, 0.0);
  work_.gap_threshold.assign(points, 0.0);
  work_.apart_level.assign(points, 0.0);
  work_.lambda_level.assign(points, 0.0);
  work_.pair_threshold.assign(automatic_.watched().size(), 0.0);
  work_.pair_located.assign(automatic_.watched().size(), 0);
  work_.values_start.assign(events, 0.0);
  work_.values_lo = work_.values_hi = work_.values_trial = work_.values_start;
}

double Simulator::pair_slack(const WatchedPair& pair) const {
  // As event_slack: kRelativeGapEventSlack × the smaller body's size, at least kMinGapEventSlack.
  const double size = std::min(body_size_[static_cast<std::size_t>(pair.body_a)], body_size_[static_cast<std::size_t>(pair.body_b)]);
  return std::max(kMinGapEventSlack, kRelativeGapEventSlack * size);
}

double Simulator::unlisted_gap(std::size_t j, const Vector& q) {
  // Watched pair j's gap of a feature pair not listed (automatic_contacts.hpp, "Contacts that appear inside
  // a step").
  return automatic_.unlisted_gap(automatic_.watched()[j], q, state_.automatic);
}

double Simulator::apart_value(std::size_t k, const Vector& q) const {
  // Active point k: its level − its gap, negative once its features part (an automatic point whose corner
  // slid off the end of its face: the gap to the face itself grows while its row holds the line's at 0).
  if (static_cast<int>(k) < model_.contact_point_count()) return std::numeric_limits<double>::infinity();
  return work_.apart_level[k] - gap_of(static_cast<int>(k), q);
}

void Simulator::pair_event_values(const Vector& q, std::vector<double>& out) {
  // reads q, the watched pairs that have an event at the step end and their levels ⇒ writes their event
  // values after the points' in `out` (the others: no event, as for any event function an event is seen at
  // the step end first).
  const std::size_t points = static_cast<std::size_t>(contact_point_count());
  for (std::size_t j = 0; j < work_.pair_located.size(); ++j) {
    if (!work_.pair_located[j]) {
      out[points + j] = 1.0;
      continue;
    }
    work_.budget.add(work::contact_search(automatic_.unlisted_gap_work(automatic_.watched()[j])));
    out[points + j] = unlisted_gap(j, q) - work_.pair_threshold[j];
  }
}

bool Simulator::pair_events_at_end(const Vector& q_end, std::vector<double>& out) {
  // reads the step start and its end ⇒ writes every watched pair's event value at the end into `out` (and
  // at the start into work.values_start), marking those that have an event there for the location; returns
  // whether one has. A pair's level is −slack, or slack below where it starts if deeper (as a point's); its
  // start is looked at only when its end is below −slack.
  const std::size_t points = static_cast<std::size_t>(contact_point_count());
  bool any = false;
  if (!automatic_.watched().empty()) work_.budget.add(work_.watch_work);
  for (std::size_t j = 0; j < automatic_.watched().size(); ++j) {
    const double slack = pair_slack(automatic_.watched()[j]);
    const double end = unlisted_gap(j, q_end);
    work_.pair_threshold[j] = -slack;
    work_.pair_located[j] = 0;
    if (end < -slack) {
      const double start = unlisted_gap(j, state_.q);
      if (start < -slack) work_.pair_threshold[j] = start - slack;
      work_.values_start[points + j] = start - work_.pair_threshold[j];
      work_.pair_located[j] = end < work_.pair_threshold[j] ? 1 : 0;
    } else {
      work_.values_start[points + j] = automatic_.watched()[j].margin + slack;
    }
    out[points + j] = end - work_.pair_threshold[j];
    any = any || work_.pair_located[j];
  }
  return any;
}

bool Simulator::cover_step(const Vector& q_end) {
  // reads the step start and a state the step reached ⇒ when a body moved beyond its margin, finds the
  // automatic points again with the margins the step needs and sets up the step's events again; returns
  // whether it did (the active set is unchanged: a larger margin finds the same points and more).
  if (!automatic_.enabled() || automatic_.margins_cover(state_.q, q_end, work_.margin_floor)) return false;
  update_automatic_contacts(&work_.margin_floor);
  begin_step();
  return true;
}

void Simulator::watch_pairs() {
  // reads the committed state ⇒ writes the watched pairs of a find there (automatic_.watched()) and what
  // their event values cost, leaving the points as they are (a restored state, an undone step).
  if (!automatic_.enabled()) return;
  automatic_.find(state_.q, state_.qd, scenario_.integrator.step, state_.automatic, work_.found);
  price_watched_pairs();
}

void Simulator::price_watched_pairs() {
  work_.watch_work = 0.0;
  for (const WatchedPair& pair : automatic_.watched()) work_.watch_work += work::contact_search(automatic_.unlisted_gap_work(pair));
}

void Simulator::update_automatic_contacts(const std::vector<double>* margin_floor) {
  // reads the committed state ⇒ writes state.automatic (the points found now) with the flags of the points
  // found again, by key, and the watched pairs; an active point no longer found is released and the state
  // settled.
  if (!automatic_.enabled()) return;
  work_.budget.add(work::contact_search(
      automatic_.find(state_.q, state_.qd, scenario_.integrator.step, state_.automatic, work_.found, margin_floor)));
  price_watched_pairs();
  const std::vector<FeaturePair>& found = work_.found;
  const std::vector<FeaturePair>& old = state_.automatic;
  // The same keys: nothing changes.
  bool same = found.size() == old.size();
  for (std::size_t i = 0; same && i < found.size(); ++i) same = contact_key(found[i]) == contact_key(old[i]);
  if (same) return;
  const std::size_t declared = static_cast<std::size_t>(model_.contact_point_count());
  if (declared + found.size() > static_cast<std::size_t>(kMaxContactPoints)) {
    // Checked before anything changes; the transaction is then undone whole (run_until).
    throw std::runtime_error(too_many_points_message(scenario_, model_, found, state_.time));
  }
  // The flags of the points found again (both lists are sorted by key); the declared points keep theirs.
  const std::size_t points = declared + found.size();
  std::vector<char> active(points, 0), sliding(points, 0), impacting(points, 0);
  std::vector<double> multiplier(points, 0.0);
  for (std::size_t k = 0; k < declared; ++k) {
    active[k] = state_.active[k];
    sliding[k] = state_.sliding[k];
    impacting[k] = state_.impacting[k];
    multiplier[k] = derived_.point_multiplier[k];
  }
  bool released = false;
  std::size_t j = 0;
  for (std::size_t i = 0; i < old.size(); ++i) {
    const ContactKey key = contact_key(old[i]);
    while (j < found.size() && contact_key(found[j]) < key) ++j;
    const std::size_t from = declared + i;
    if (j < found.size() && contact_key(found[j]) == key) {
      const std::size_t to = declared + j;
      active[to] = state_.active[from];
      sliding[to] = state_.sliding[from];
      impacting[to] = state_.impacting[from];
      multiplier[to] = derived_.point_multiplier[from];
    } else {
      released = released || state_.active[from];
    }
  }
  state_.automatic = found;
  state_.active.swap(active);
  state_.sliding.swap(sliding);
  state_.impacting.swap(impacting);
  derived_.point_multiplier.swap(multiplier);
  size_point_buffers();
  // The active set keeps its rows in the same order (declared, then by key) unless a point was released.
  collect_active_points();
  if (released) settle();
}

std::vector<ConstraintRowInfo> Simulator::record_rows(const ImpactRecord& record) const {
  // The joints' rows, then per point its normal row and, when the next row is not the next point's normal
  // row, its tangential row.
  std::vector<ConstraintRowInfo> rows = model_.row_layout({}, false);
  const int total = record.jacobian.rows();
  for (std::size_t j = 0; j < record.points.size(); ++j) {
    ConstraintRowInfo info;
    info.kind = ConstraintRowInfo::Kind::Normal;
    info.point = record.points[j];
    info.contact = j < record.contacts.size() ? record.contacts[j] : -1;
    info.feature = 0;
    if (info.contact >= 0 && info.point < model_.contact_point_count()) {
      info.feature = model_.contact_points()[static_cast<std::size_t>(info.point)].feature;
    }
    rows.push_back(info);
    const int next = j + 1 < record.normal_rows.size() ? record.normal_rows[j + 1] : total;
    if (j < record.normal_rows.size() && next > record.normal_rows[j] + 1) {
      info.kind = ConstraintRowInfo::Kind::Tangent;
      rows.push_back(info);
    }
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------------------
// Saving and restoring the state
// ---------------------------------------------------------------------------------------------------------

SimulationState Simulator::save_state() const {
  SimulationState state = state_;
  state.impact_count = log_.logged();
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

  // The state, then what is derived from it: q̈ and λ (the dynamics at (q, q̇), bit-identical to those
  // computed when it was saved), and the partial step it showed.
  state_ = state;
  state_.automatic = std::move(automatic);
  state_.impact_count = 0;
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
  watch_pairs();
  size_point_buffers();
  collect_active_points();
  derive_dynamics();
  try {
    if (state_.shown_time > state_.time) {
      trial_has_event(state_.shown_time - state_.time);
      present(state_.shown_time);
    } else {
      show_committed();
    }
  } catch (...) {
    // The partial step shown before fails too: show the committed state.
    state_.shown_time = state_.time;
    show_committed();
  }
  work_.replay.clear();
}

// ---------------------------------------------------------------------------------------------------------
// The active system and the smooth dynamics
// ---------------------------------------------------------------------------------------------------------

void Simulator::collect_active_points() {
  // reads state.active, state.sliding ⇒ writes derived.active_points and the row layouts of the active set.
  derived_.active_points.clear();
  for (int k = 0; k < contact_point_count(); ++k) {
    if (state_.active[static_cast<std::size_t>(k)]) derived_.active_points.push_back(k);
  }
  derived_.layout = layout_of(derived_.active_points, Tangents::Active);
  derived_.position_layout = layout_of(derived_.active_points, Tangents::None);
  // The sliding frictional points (0 < μ < ∞): their friction force joins the smooth dynamics.
  derived_.sliding.clear();
  if (!has_friction_) return;
  for (std::size_t j = 0; j < derived_.active_points.size(); ++j) {
    const int k = derived_.active_points[j];
    const double mu = friction_of(k);
    const char code = state_.sliding[static_cast<std::size_t>(k)];
    if (mu > 0.0 && std::isfinite(mu) && code != 0) {
      derived_.sliding.push_back({k, derived_.layout.normal_rows[j], mu, slide_direction(code)});
    }
  }
}

bool Simulator::has_tangent(int point, Tangents tangents) const {
  const std::size_t k = static_cast<std::size_t>(point);
  // A tangential row for every point with friction (μ > 0; `stick` is μ = +∞), none for a frictionless one.
  if (tangents == Tangents::None || !(friction_of(point) > 0.0)) return false;
  return tangents == Tangents::All || !state_.sliding[k];
}

RowLayout Simulator::layout_of(const std::vector<int>& points, Tangents tangents) const {
  return RowLayout::of(model_.joint_row_total(), points, [&](int k) { return has_tangent(k, tangents); });
}

void Simulator::assemble(const Vector& q, const Vector& qd, const std::vector<int>& points, const RowLayout& layout,
                         ConstraintRows& rows, bool sparse) const {
  // reads (q, q̇) ⇒ writes φ, A, Ȧq̇ of [joints; per point its normal row and, if laid out, its tangential
  // row]; A dense, or with `sparse` in compressed rows (to_sparse of the dense A: the same pattern and bits).
  if (sparse) {
    rows.resize_sparse(layout.rows, n_);
  } else if (rows.sparse || rows.rows() != layout.rows || rows.jacobian.cols() != n_) {
    rows.resize(layout.rows, n_);
  }
  write_rows(q, qd, points, layout, rows);
  if (sparse) rows.finish_sparse();
}

void Simulator::write_rows(const Vector& q, const Vector& qd, const std::vector<int>& points, const RowLayout& layout,
                           ConstraintRows& rows) const {
  // The joint rows first, then per point its normal row and, if laid out, its tangential row below it.
  model_.all_joint_rows(q, qd, 0, rows);
  for (std::size_t j = 0; j < points.size(); ++j) {
    normal_row_of(points[j], q, qd, layout.normal_rows[j], rows);
    if (layout.tangent[j]) tangent_row_of(points[j], q, qd, layout.normal_rows[j] + 1, rows);
  }
}

bool Simulator::sparse_assembly() const {
  // The smooth phase factorises a sparse A on the sparse path; a sliding point's dynamics are dense
  // (contact_friction.hpp).
  return sparse_smooth_phase() && derived_.sliding.empty();
}

void Simulator::assemble_active(const Vector& q, const Vector& qd) {
  // reads (q, q̇), the active set ⇒ writes work.rows (A dense only off the sparse path) and the sliding rows.
  assemble(q, qd, derived_.active_points, derived_.layout, work_.rows, sparse_assembly());
  assemble_sliding(q, qd);
}

void Simulator::reassemble_rates(const Vector& qd) {
  // reads state.q, q̇, work.rows ⇒ writes φ and Ȧq̇ of work.rows at (state.q, q̇). Sparse, the rows are
  // written again but not compressed: the compressed A of the same q is the one already there.
  if (!work_.rows.sparse) {
    assemble(state_.q, qd, derived_.active_points, derived_.layout, work_.rows, sparse_assembly());
    return;
  }
  work_.rows.resize_sparse(derived_.layout.rows, n_);
  write_rows(state_.q, qd, derived_.active_points, derived_.layout, work_.rows);
}

void Simulator::evaluate_dynamics(const Vector& q, const Vector& qd, Vector& qdd, std::vector<double>* point_values) {
  // reads (q, q̇), the active set ⇒ writes q̈ (and λ per active point); work.rows, unless q̈ alone is asked
  // for and was evaluated already (every reader of work.rows assembles them first).
  const int m = derived_.layout.rows;  // the rows assemble_active writes
  work_.budget.add(work::bookkeeping(n_, static_cast<double>(contact_point_count())));
  // Evaluated already, before the budget interrupted this step: the key is of the inputs, not of the rows,
  // so when q̈ alone is asked for the rows are not assembled again (most of what a replayed step cost).
  std::uint64_t key = 0;
  if (m > 0) {
    detail::InputKey input(detail::kDynamicsEvaluation);
    input.add(q).add(qd).add(derived_.active_points).add(derived_.layout.tangent);
    if (!derived_.sliding.empty()) input.add(state_.sliding);
    key = input.value();
    if (!point_values && work_.replay.upcoming(key)) {
      qdd = replayed(key, 0)->first;
      return;
    }
  }
  assemble_active(q, qd);
  // No constraint: q̈ = q̈*, constant.
  if (m == 0) {
    qdd = model_.free_acceleration();
    return;
  }
  if (const detail::Evaluation* known = replayed(key, 0)) {
    qdd = known->first;
    if (point_values) {
      split_multipliers(work_.rows, known->second, known->third, *point_values);
      if (has_friction_) work_.event_lambda = known->third;
    }
    return;
  }
  // q̈ = (I − S)q̈* + Sq̈⊥ and λ = A⁺ᵀf on the active set (dense or sparse path by n: simulator.hpp).
  work_.budget.begin(projection_work(work_.rows));
  ConstrainedDynamics d = smooth_dynamics(nullptr);
  detail::Evaluation evaluation;
  evaluation.key = key;
  evaluation.first = d.qdd;
  evaluation.second = d.force;
  evaluation.third = d.multipliers;
  work_.replay.record(std::move(evaluation));
  qdd = std::move(d.qdd);
  if (point_values) {
    split_multipliers(work_.rows, d.force, d.multipliers, *point_values);
    if (has_friction_) work_.event_lambda = d.multipliers;
  }
}

void Simulator::split_multipliers(ConstraintRows& active, const Vector& force, const Vector& multipliers,
                                  std::vector<double>& point_values) {
  // λ of each active point's unilateral row: the paper's minimum-norm λ = A⁺ᵀf, unless one of them pulls
  // while another split of f (redundant contacts) has none pulling; then that split.
  const double tolerance = multiplier_tolerance();
  const std::vector<int>& points = derived_.active_points;
  const std::vector<int>& rows = derived_.layout.normal_rows;
  bool pulls = false;
  for (std::size_t j = 0; j < points.size(); ++j) {
    point_values[static_cast<std::size_t>(points[j])] = multipliers(rows[j]);
    pulls = pulls || multipliers(rows[j]) < -tolerance;
  }
  // With sliding friction f = Bᵀλ is not carried by A alone: the λ of the oblique solve stand.
  if (!pulls || !derived_.sliding.empty()) return;
  Vector split;
  if (!carried_without_pull(active.dense_jacobian(), force, derived_.layout.unilateral_mask(),
                            1e-9 * std::max(force.norm(), force_scale_), split,
                            active.sparse ? &active.sparse_rows.matrix() : nullptr)) {
    return;
  }
  for (std::size_t j = 0; j < points.size(); ++j) point_values[static_cast<std::size_t>(points[j])] = split(rows[j]);
}

const detail::Evaluation* Simulator::replayed(std::uint64_t key, int dense_rows) {
  // Taken from memory: the solve skipped, its inputs hashed again (a dense A for a split or an impact).
  const detail::Evaluation* known = work_.replay.next(key);
  if (known) work_.budget.add(work::replay(n_, dense_rows));
  return known;
}

double Simulator::projection_work(const Matrix& jacobian) const {
  // The sparse path: the Delassus factorisation and its solves, linear in the size of the system.
  if (sparse_smooth_phase()) {
    return work::sparse_dynamics(static_cast<double>(n_), static_cast<double>(jacobian.rows()));
  }
  // The scaled projection works on the coordinates A touches.
  const double touched = static_cast<double>(touched_coordinates(jacobian).size());
  const double m = static_cast<double>(jacobian.rows());
  return work::projection(touched, m) + work::dynamics(static_cast<double>(n_), m);
}

double Simulator::projection_work(ConstraintRows& rows) {
  // The same for the active set's rows assembled here, without making a sparse A dense: on the sparse path
  // the solves, and the factorisation smooth_dynamics will make as foretold by the Delassus workspace once
  // A's pattern is analysed (its symbolic analysis counted here too when it is new).
  if (sparse_smooth_phase() && derived_.sliding.empty()) {
    DelassusFactorization& delassus = work_.delassus.get();
    const long analyses = delassus.analyses();
    const double factorization =
        delassus.factorization_estimate(rows.sparse ? rows.sparse_rows.matrix() : to_sparse(rows.jacobian), model_.mass_diagonal());
    const double analysis = delassus.analyses() != analyses ? work::symbolic_analysis(rows.rows()) : 0.0;
    return work::sparse_dynamics(static_cast<double>(n_), static_cast<double>(rows.rows())) + factorization + analysis;
  }
  if (sparse_smooth_phase()) return work::sparse_dynamics(static_cast<double>(n_), static_cast<double>(rows.rows()));
  return projection_work(rows.dense_jacobian());
}

bool Simulator::carried_without_pull(const Matrix& jacobian, const Vector& force, const std::vector<bool>& unilateral,
                                     double tolerance, Vector& split, const SparseJacobian* sparse_jacobian) {
  // reads A, f, the unilateral rows ⇒ returns whether some split λ ≥ 0 of f carries it (and writes it).
  // The passive least squares through sparse Delassus factorisations on the sparse path.
  const bool sparse = sparse_smooth_phase();
  const std::uint64_t key = detail::InputKey(detail::kSplitEvaluation)
                                .add(jacobian).add(force).add(unilateral).add(tolerance).add(sparse ? 1 : 0)
                                .value();
  // Solved already, before the budget interrupted this step: the same answer.
  if (work_.replay.upcoming(key)) {
    const detail::Evaluation* known = replayed(key, static_cast<int>(jacobian.rows()));
    split = known->first;
    return known->drift != 0.0;
  }
  const double m = static_cast<double>(jacobian.rows());
  const detail::SparseSplitWorkspace factorizations{&work_.split_all_rows.get(), &work_.split_passive_rows.get(),
                                                    sparse_jacobian};
  // The symbolic analyses of the split's two factorisations so far (one per new pattern of rows).
  const auto analyses = [this] {
    return work_.split_all_rows.get().analyses() + work_.split_passive_rows.get().analyses();
  };
  long analyses_before = analyses();
  // Each passive solve is a point where the budget may stop the call: charged its estimate before it runs
  // (the first also the split's own work), what it did beyond after (a dense COD, a new pattern's analysis),
  // and kept for the replay under the split's key and its index; a solve made before is taken from there.
  const std::size_t start = work_.replay.position();
  const auto solve_key = [key](int index) {
    return detail::InputKey(detail::kPassiveSolveEvaluation).add_key(key).add(index).value();
  };
  detail::PassiveSolveMemory memory;
  memory.recall = [&](int index, Vector& z) {
    if (const detail::Evaluation* known = work_.replay.next(solve_key(index))) {
      work_.budget.add(work::replayed_passive_solve(n_, m));
      z = known->first;
      return true;
    }
    const double estimate = sparse ? work::sparse_passive_solve(n_, m) : work::passive_solve(n_, m);
    work_.budget.begin(estimate + (index == 0 ? work::multiplier_split_own(n_, m, sparse) : 0.0));
    return false;
  };
  memory.keep = [&](int index, const Vector& z, bool dense) {
    if (sparse) {
      const long analyses_now = analyses();
      work_.budget.add((dense ? work::passive_solve(n_, m) : 0.0) +
                       work::symbolic_analysis(m) * static_cast<double>(analyses_now - analyses_before));
      analyses_before = analyses_now;
    }
    detail::Evaluation evaluation;
    evaluation.key = solve_key(index);
    evaluation.first = z;
    work_.replay.record(std::move(evaluation));
  };
  const bool carried = detail::nonnegative_split(jacobian, force, unilateral, tolerance, split,
                                                 sparse ? &factorizations : nullptr, nullptr, &memory);
  // Done: the replay takes the split whole from now on, in place of its passive solves.
  detail::Evaluation evaluation;
  evaluation.key = key;
  evaluation.first = split;
  evaluation.drift = carried ? 1.0 : 0.0;
  work_.replay.record_in_place_of(start, std::move(evaluation));
  return carried;
}

void Simulator::rk4(double h, Vector& q_out, Vector& qd_out) {
  // reads the committed state and its q̈ ⇒ writes (q, q̇) one classical RK4 step of length h later.
  const Vector& q = state_.q;
  const Vector& qd = state_.qd;
  const double half = 0.5 * h;
  work_.sum_qd = qd;
  work_.sum_qdd = derived_.qdd;
  // Stage 2 at t + h/2.
  work_.stage_q = q + half * qd;
  work_.stage_qd = qd + half * derived_.qdd;
  evaluate_dynamics(work_.stage_q, work_.stage_qd, work_.stage_qdd, nullptr);
  work_.sum_qd += 2.0 * work_.stage_qd;
  work_.sum_qdd += 2.0 * work_.stage_qdd;
  // Stage 3 at t + h/2.
  work_.stage_q = q + half * work_.stage_qd;
  work_.stage_qd = qd + half * work_.stage_qdd;
  evaluate_dynamics(work_.stage_q, work_.stage_qd, work_.stage_qdd, nullptr);
  work_.sum_qd += 2.0 * work_.stage_qd;
  work_.sum_qdd += 2.0 * work_.stage_qdd;
  // Stage 4 at t + h.
  work_.stage_q = q + h * work_.stage_qd;
  work_.stage_qd = qd + h * work_.stage_qdd;
  evaluate_dynamics(work_.stage_q, work_.stage_qd, work_.stage_qdd, nullptr);
  work_.sum_qd += work_.stage_qd;
  work_.sum_qdd += work_.stage_qdd;
  // Weighted sum.
  q_out = q + (h / 6.0) * work_.sum_qd;
  qd_out = qd + (h / 6.0) * work_.sum_qdd;
}

bool Simulator::project_positions(Vector& q) {
  // reads q, the active set ⇒ writes q on the position constraints; views.drift.
  // Gauss–Newton onto the rows with a position: joints and active unilateral rows (φ = 0).
  const int m = derived_.position_layout.rows;
  if (m == 0) return false;
  const double tolerance = scenario_.integrator.projection_tolerance;
  // A in compressed rows on the sparse path: made dense below only when φ asks for a correction.
  assemble(q, state_.qd, derived_.active_points, derived_.position_layout, work_.position_rows,
           sparse_smooth_phase());
  if (max_abs(work_.position_rows.phi) <= tolerance) return true;
  // Evaluated already, before the budget interrupted this step: the same corrected q.
  const std::uint64_t key =
      detail::InputKey(detail::kPositionEvaluation).add(q).add(derived_.active_points).value();
  if (const detail::Evaluation* known = replayed(key, 0)) {
    q = known->first;
    view_.drift = std::max(view_.drift, known->drift);
    return false;
  }
  const double pass_work = work_.position_rows.sparse ? work::sparse_position_correction(n_, m)
                                                     : work::position_correction(n_, m);
  work_.budget.begin(pass_work);
  double largest = 0.0;
  for (int pass = 0; pass < kMaxProjectionPasses; ++pass) {
    if (pass > 0) {
      assemble(q, state_.qd, derived_.active_points, derived_.position_layout, work_.position_rows,
               sparse_smooth_phase());
      if (max_abs(work_.position_rows.phi) <= tolerance) break;
      work_.budget.add(pass_work);
    }
    // q ← q − A⁺φ: the minimum-norm least-squares solution of A δ = φ (a Gauss–Newton step).
    const Vector correction = position_step(work_.position_rows);
    q -= correction;
    largest = std::max(largest, max_abs(correction));
  }
  view_.drift = std::max(view_.drift, largest);
  detail::Evaluation evaluation;
  evaluation.key = key;
  evaluation.first = q;
  evaluation.drift = largest;
  work_.replay.record(std::move(evaluation));
  return false;
}

Vector Simulator::position_step(ConstraintRows& rows) {
  // reads A and φ of the position rows ⇒ returns A⁺φ.
  // Sparse path: from the Delassus factorisation of A Aᵀ (W = I, least_squares is A⁺φ), when accurate.
  if (rows.sparse) {
    DelassusFactorization& delassus = work_.position_delassus.get();
    work_.unit_weights.setOnes(n_);
    const long analyses = delassus.analyses();
    delassus.factorize_as_new(rows.sparse_rows.matrix(), work_.unit_weights);
    if (delassus.analyses() != analyses) work_.budget.add(work::symbolic_analysis(rows.rows()));
    if (sparse_solve_accurate(delassus)) return delassus.least_squares(rows.phi);
  }
  // Dense: a complete orthogonal decomposition (rank-revealing, much cheaper than the SVD of
  // pseudo_inverse, the same δ).
  const Eigen::CompleteOrthogonalDecomposition<Matrix> decomposition(rows.dense_jacobian());
  return decomposition.solve(rows.phi);
}

void Simulator::refresh() {
  // reads the state ⇒ writes state.q and state.q̇ back on the active constraints, derived q̈ and λ.
  const bool on_constraints = project_positions(state_.q);
  // The active rows at the state: those the projection assembled when it left q as it was and they are
  // the same rows (no tangential row; nothing sliding, so stored alike), else assembled here.
  if (on_constraints && derived_.layout.rows == derived_.position_layout.rows && derived_.sliding.empty()) {
    work_.rows.assign(work_.position_rows);
  } else {
    assemble_active(state_.q, state_.qd);
  }
  derived_.point_multiplier.assign(derived_.point_multiplier.size(), 0.0);
  const int m = work_.rows.rows();
  if (m == 0) {
    derived_.qdd = model_.free_acceleration();
    derived_.multipliers.resize(0);
    return;
  }
  // Evaluated already, before the budget interrupted this step: the same q̇, q̈ and λ.
  detail::InputKey input(detail::kRefreshEvaluation);
  input.add(state_.q).add(state_.qd).add(derived_.active_points).add(derived_.layout.tangent);
  if (!derived_.sliding.empty()) input.add(state_.sliding);
  const std::uint64_t key = input.value();
  if (const detail::Evaluation* known = replayed(key, 0)) {
    state_.qd = known->first;
    derived_.qdd = known->second;
    derived_.multipliers = known->third;
    split_multipliers(work_.rows, known->fourth, derived_.multipliers, derived_.point_multiplier);
    return;
  }
  work_.budget.begin(projection_work(work_.rows));
  // Velocities onto N(A) with the M-orthogonal projector I − S: the paper's impact map with e = 0 applied to
  // the drift, which removes only the constraint-violating part and changes no admissible motion. Then Ȧq̇
  // at the projected velocity (A is unchanged), and q̈ and λ of the state.
  ConstrainedDynamics d = smooth_dynamics(&state_.qd);
  derived_.qdd = std::move(d.qdd);
  derived_.multipliers = std::move(d.multipliers);
  detail::Evaluation evaluation;
  evaluation.key = key;
  evaluation.first = state_.qd;
  evaluation.second = derived_.qdd;
  evaluation.third = derived_.multipliers;
  evaluation.fourth = d.force;
  work_.replay.record(std::move(evaluation));
  split_multipliers(work_.rows, d.force, derived_.multipliers, derived_.point_multiplier);
}

void Simulator::derive_dynamics() {
  // reads the state (already on its constraints) ⇒ writes derived q̈ and λ, as refresh left them.
  assemble_active(state_.q, state_.qd);
  derived_.point_multiplier.assign(static_cast<std::size_t>(contact_point_count()), 0.0);
  if (work_.rows.rows() == 0) {
    derived_.qdd = model_.free_acceleration();
    derived_.multipliers.resize(0);
    return;
  }
  ConstrainedDynamics d = smooth_dynamics(nullptr);
  derived_.qdd = std::move(d.qdd);
  derived_.multipliers = std::move(d.multipliers);
  split_multipliers(work_.rows, d.force, derived_.multipliers, derived_.point_multiplier);
}

ConstrainedDynamics Simulator::smooth_dynamics(Vector* velocity) {
  // reads work.rows (A and Ȧq̇ of the active set at the state evaluated) ⇒ returns q̈, f and λ; with
  // `velocity` (refresh), first writes (I − S) q̇ into it and Ȧq̇ at it into work.rows (A is unchanged).
  // Sliding friction: the oblique dynamics of contact_friction.hpp, dense (friction scenes are small).
  if (!derived_.sliding.empty()) return sliding_dynamics(velocity);
  const Vector& mass = model_.mass_diagonal();
  // On the sparse path (every scene: kSparseSmoothPhaseCoordinates): one Delassus factorisation of
  // K = A M⁻¹ Aᵀ, as made afresh (its result depends on A and M only: the workspace keeps only the symbolic
  // analysis of A's pattern, a pure function of it), trusted when certified, or when its solution meets the
  // rows it dropped (sparse_path.hpp).
  if (sparse_smooth_phase()) {
    // A as assemble_active left it: in compressed rows (to_sparse of the dense A, bit for bit).
    DelassusFactorization& delassus = work_.delassus.get();
    const long analyses = delassus.analyses();
    delassus.factorize_as_new(
        work_.rows.sparse ? work_.rows.sparse_rows.matrix() : to_sparse(work_.rows.jacobian), mass);
    // A pattern not among those kept: its symbolic analysis, on top of the evaluation charged.
    if (delassus.analyses() != analyses) work_.budget.add(work::symbolic_analysis(work_.rows.rows()));
    // A certified factorisation is trusted; from kDroppedRowTrustCoordinates, one whose only doubt is a
    // dropped row is trusted when its solution meets that row too (sparse_solution_meets_rows); the dense
    // path solves the others.
    const bool certified = sparse_solve_accurate(delassus);
    if (certified || (n_ >= kDroppedRowTrustCoordinates && kept_rows_well_conditioned(delassus))) {
      if (std::optional<ConstrainedDynamics> d = sparse_smooth_dynamics(delassus, velocity, certified)) return *d;
    }
    const double touched = static_cast<double>(touched_coordinates(work_.rows.dense_jacobian()).size());
    work_.budget.add(work::projection(touched, work_.rows.rows()) + work::dynamics(n_, work_.rows.rows()));
  }
  // With such rows, or the dense path forced: the dense projections of the touched coordinates.
  const ScaledProjection proj(mass, work_.rows.dense_jacobian());
  if (velocity) {
    *velocity = proj.project_velocity(*velocity);
    assemble(state_.q, *velocity, derived_.active_points, derived_.layout, work_.rows);
  }
  return proj.dynamics(model_.bias_force(), model_.applied_force(), work_.rows.adot_qd, model_.free_acceleration());
}

std::optional<ConstrainedDynamics> Simulator::sparse_smooth_dynamics(const DelassusFactorization& delassus,
                                                                     Vector* velocity, bool certified) {
  // reads work.rows ⇒ returns q̈, f and λ from `delassus`, or nothing (`velocity` as it came) when not
  // `certified` and the solution misses a row of A; with `velocity`, first (I − S)q̇ and Ȧq̇ at it.
  Vector unprojected;
  if (velocity) {
    // (I − S)q̇ meets A q̇ = 0 on every row, at the size of q̇.
    Vector projected = project_velocity_sparse(delassus, *velocity);
    if (!certified && !sparse_solution_meets_rows(delassus, projected, Vector::Zero(delassus.rows()), max_abs(*velocity))) {
      return std::nullopt;
    }
    if (!certified) unprojected = *velocity;
    *velocity = std::move(projected);
    reassemble_rates(*velocity);
  }
  SparseDynamics sparse =
      constrained_dynamics_sparse(delassus, model_.bias_force(), model_.applied_force(), work_.rows.adot_qd, true);
  // A q̈ = −Ȧq̇ on every row, at the size of the accelerations with and without the constraints.
  if (!certified && !sparse_solution_meets_rows(delassus, sparse.qdd, -work_.rows.adot_qd,
                                                max_abs(sparse.qdd) + max_abs(sparse.qdd_free))) {
    if (velocity) *velocity = std::move(unprojected);
    return std::nullopt;
  }
  ConstrainedDynamics d;
  d.qdd = std::move(sparse.qdd);
  d.qdd_free = std::move(sparse.qdd_free);
  d.force = std::move(sparse.force);
  d.multipliers = std::move(sparse.multipliers);
  return d;
}

void Simulator::set_sparse_smooth_phase_threshold(int coordinates) {
  // A test-only switch: the evaluations of the other path are not those of this one.
  work_.replay.clear();
  sparse_threshold_ = std::max(coordinates, 0);
}

double Simulator::multiplier_tolerance() const {
  // 1e-9 of the size of the forces at play, never below 1e-9 × Σm × 1 m/s².
  const double applied = max_abs(model_.applied_force() - model_.bias_force());
  return 1e-9 * std::max({applied, max_abs(derived_.multipliers), force_scale_});
}

void Simulator::settle() {
  // reads the state and its λ ⇒ writes state.active/sliding (releasing pulling contacts), then refresh.
  // Release, one at a time, the active contact that pulls hardest, until every λ ≥ −tolerance (Γ rule).
  collect_active_points();
  refresh();
  // With friction, as many passes again for the stick/slip switches and the Painlevé way out.
  const std::size_t passes = (has_friction_ ? 4 : 3) * state_.active.size();
  std::vector<char> joined(state_.active.size(), 0);  // points that joined in this settle
  for (std::size_t guard = 0; guard <= passes; ++guard) {
    const double tolerance = multiplier_tolerance();
    int worst = -1;
    double worst_value = -tolerance;
    for (int k : derived_.active_points) {
      // A point that joined in this settle stays, even if it pulls (below).
      if (joined[static_cast<std::size_t>(k)]) continue;
      if (derived_.point_multiplier[static_cast<std::size_t>(k)] < worst_value) {
        worst = k;
        worst_value = derived_.point_multiplier[static_cast<std::size_t>(k)];
      }
    }
    if (worst < 0 && has_friction_) {
      // Friction (contact_friction.hpp): a sticking point beyond its cone slides, a sliding point whose
      // slip changed sign sticks or reverses; a Painlevé state takes a tangential impact.
      const int inconsistent = friction_inconsistency(tolerance);
      if (inconsistent >= 0) {
        switch_friction(inconsistent);
      } else if (painleve_at_state()) {
        tangential_impact();
      } else {
        break;
      }
      collect_active_points();
      refresh();
      continue;
    }
    if (worst < 0) {
      // Complementarity the other way: a point outside the set that touches at rest and that the set's
      // dynamics drive into its partner (φ̈ < 0) joins it, once per settle — releasing the hardest puller
      // first can release the wrong one of two (a box between two others: the one below pulls until the one
      // above is released), and a released point that approaches then meets its partner again micro-
      // seconds later in a plastic impact, which releases it again, without end. A point that joined stays
      // for the same reason even should it pull (sticking bodies wedged in a pile, where no set is free of
      // both pulling and approaching): it is held, and its λ event is then a pull beyond the one it starts
      // the step with.
      const int joining = approaching_at_rest(joined);
      if (joining < 0) break;
      joined[static_cast<std::size_t>(joining)] = 1;
      state_.active[static_cast<std::size_t>(joining)] = 1;
      state_.sliding[static_cast<std::size_t>(joining)] = 0;
      collect_active_points();
      refresh();
      continue;
    }
    release(worst);
    collect_active_points();
    refresh();
  }
}

int Simulator::approaching_at_rest(const std::vector<char>& joined) {
  // reads the committed state and its q̈ ⇒ the separated point that touches, is at rest (|φ̇| ≤ v_tol) and
  // whose φ̈ = A_k q̈ + Ȧ_k q̇ is the most negative below −a_tol, a_tol = 1e-9 × max(|g|, V²/L_min, 1e-6 m/s²); −1 if none.
  if (contact_point_count() == 0 || !(smallest_body_size_ > 0.0)) return -1;
  const double tolerance =
      kRelativeSpeedTolerance * std::max({gravity_norm_, speed_scale_ * speed_scale_ / smallest_body_size_, 1e-6});
  int chosen = -1;
  double lowest = -tolerance;
  for (int k = 0; k < contact_point_count(); ++k) {
    const std::size_t i = static_cast<std::size_t>(k);
    if (state_.active[i] || joined[i] || gap_of(k, state_.q) > gap_tolerance(k)) continue;
    if (work_.slip_row.rows() != 1 || work_.slip_row.jacobian.cols() != n_) work_.slip_row.resize(1, n_);
    normal_row_of(k, state_.q, state_.qd, 0, work_.slip_row);
    if (std::abs(work_.slip_row.jacobian.row(0).dot(state_.qd)) > speed_tolerance(k)) continue;
    const double acceleration = work_.slip_row.jacobian.row(0).dot(derived_.qdd) + work_.slip_row.adot_qd(0);
    if (acceleration < lowest) {
      lowest = acceleration;
      chosen = k;
    }
  }
  return chosen;
}

void Simulator::release(int point) {
  // reads state.sliding ⇒ writes state.active/sliding of one point.
  // A sticking contact that pulls first slides (its tangential row leaves A: with no slip the contact can
  // need a pull where a sliding one would not); a contact that pulls while sliding, or never sticks,
  // separates.
  const std::size_t k = static_cast<std::size_t>(point);
  if (sticks(point) && !state_.sliding[k]) {
    state_.sliding[k] = 1;
  } else {
    state_.active[k] = 0;
    state_.sliding[k] = 0;
  }
}

void Simulator::update_views() {
  // reads views.q, views.q̇, the state's flags and λ ⇒ writes the contact-point views, violation, energy.
  double violation = 0.0;
  view_.points.resize(static_cast<std::size_t>(contact_point_count()));
  for (std::size_t k = 0; k < view_.points.size(); ++k) {
    const int point = static_cast<int>(k);
    const ContactFrame frame = frame_of(point, view_.q);
    ContactPoint& view = view_.points[k];
    view.contact = contact_of(point);
    const FeaturePair* pair = automatic_pair(point);
    view.body_a = pair ? pair->body_a : model_.contact_points()[k].body_a;
    view.body_b = pair ? pair->body_b : model_.contact_points()[k].body_b;
    view.point = frame.point;
    view.normal = frame.normal;
    view.gap = frame.gap;
    view.normal_velocity = normal_velocity_of(point, view_.q, view_.qd);
    view.multiplier = derived_.point_multiplier[k];
    view.state = state_.impacting[k] ? ContactState::Impacting
                                     : (state_.active[k] ? ContactState::Active : ContactState::Inactive);
    view.slip = 0;
    view.friction = 0.0;
    view.slip_speed = 0.0;
    if (has_friction_ && state_.active[k] && frictional(point)) {
      friction_view(point, view);
      view.slip_speed = slip_speed(point, view_.q, view_.qd);
    }
    violation = std::max(violation, state_.active[k] ? std::abs(frame.gap) : -frame.gap);
  }
  // Joints.
  if (model_.joint_row_total() > 0) {
    model_.all_joint_rows(view_.q, view_.qd, 0, work_.joint_rows);
    violation = std::max(violation, max_abs(work_.joint_rows.phi));
  }
  view_.violation = violation;
  // Energy.
  view_.energy.kinetic = model_.kinetic_energy(view_.qd);
  view_.energy.potential = model_.potential_energy(view_.q);
  view_.energy.total = view_.energy.kinetic + view_.energy.potential;
}

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
      // λ + tolerance, and the gap's level: the gap tolerance, or slack above where it starts if beyond.
      const double gap = gap_of(static_cast<int>(k), state_.q);
      work_.apart_level[k] = std::max(gap_tolerance(static_cast<int>(k)), gap + event_slack(static_cast<int>(k)));
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

int Simulator::run_until(double t_end, bool stop_at_impact) {
  // reads the state ⇒ writes the state at t_end (or where the work budget or, if asked, an impact stops
  // it) and the views; returns the records logged.
  view_.work_limit_hit = false;
  view_.drift = 0.0;
  work_.budget.start(work_budget_);
  const std::size_t records_before = log_.logged();
  bool presented = false;
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
  }
  if (!presented) show_committed();
  // Records logged by this call (an impact may come with its plastic follow-up).
  return static_cast<int>(log_.logged() - records_before);
}

bool Simulator::run_transaction(double t_end, bool stop_at_impact, bool& presented) {
  // reads the state ⇒ writes the state after the impulses due now and one step toward t_end (or the views
  // of a partial step ending at t_end), or the initial state settled; returns whether the call is over.
  if (state_.settling) {
    settle_initial_state();
    return state_.time >= t_end;
  }
  if (apply_due_impulses(stop_at_impact)) return true;
  if (state_.time >= t_end) return true;
  if (work_.budget.exhausted()) {
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
  try {
    if (state_.shown_time > state_.time) {
      trial_has_event(state_.shown_time - state_.time);
      present(state_.shown_time);
    } else {
      show_committed();
    }
  } catch (...) {
    // The partial step shown before fails too: show the committed state.
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
}

// ---------------------------------------------------------------------------------------------------------
// Impacts: the Γ rule (activation_rule.hpp), the new active set, the plastic follow-up, the log
// ---------------------------------------------------------------------------------------------------------

bool Simulator::resolve_impact(std::vector<int> candidates, const Vector& impulse, bool scheduled) {
  // reads the state, the candidates Γ* and i_u ⇒ writes state.q̇, the active set and the Zeno counters;
  // logs the impact, its follow-up and its sequential sub-impacts. Returns whether a record was logged.
  bool logged = resolve_single_impact(std::move(candidates), impulse, scheduled);
  // Sequential sub-impacts: a touching point the Γ rule left out because it was separating before the
  // impact (stopping it from q̇⁻ would create energy) and that approaches now takes an impact of its own,
  // from this intermediate velocity and with its own e. Past kMaxImpactsPerInstant impacts at one instant
  // each is the plastic fallback (the Zeno guard), so the kinetic energy falls at every round; a cascade
  // still going after kMaxSequentialImpacts rounds is left to the next step, whose gap events catch a
  // point that goes on approaching.
  std::vector<int> next = approaching_points();
  for (int round = 0; !next.empty() && round < kMaxSequentialImpacts; ++round, next = approaching_points()) {
    logged = resolve_single_impact(std::move(next), Vector(), false) || logged;
  }
  return logged;
}

bool Simulator::resolve_single_impact(std::vector<int> candidates, const Vector& impulse, bool scheduled) {
  // reads the state, the candidates Γ* and i_u ⇒ writes state.q̇, the active set and the Zeno counters;
  // logs the impact (and its follow-up). Returns whether a record was logged.
  // The Zeno guard: too many impacts at one instant make this one the fallback from the start.
  if (std::abs(state_.time - state_.last_impact_time) <= 100.0 * scenario_.integrator.event_tolerance) {
    ++state_.impacts_at_instant;
  } else {
    state_.impacts_at_instant = 1;
  }
  state_.last_impact_time = state_.time;
  // Γ*: each candidate once; whether one approaches (then the impact is real whatever its energy change).
  std::sort(candidates.begin(), candidates.end());
  candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
  bool approaching = false;
  for (int k : candidates) {
    approaching = approaching || normal_velocity_of(k, state_.q, state_.qd) < -speed_tolerance(k);
  }

  // 1. The points in A and their impact (the Γ rule); 2. the new active set, and the record if the impact
  // is real; 3. the plastic follow-up where rows of the new active set still move.
  ActivationOutcome outcome = choose_impact_set(candidates, impulse);
  const bool logged = apply_impact(std::move(outcome), approaching, scheduled);
  const bool followed_up = stop_residual_motion();
  return logged || followed_up;
}

ActivationOutcome Simulator::choose_impact_set(const std::vector<int>& candidates, const Vector& impulse) {
  // reads the state, Γ* and i_u ⇒ returns the set of points in A and its impact (the state is unchanged).
  const std::size_t point_count = static_cast<std::size_t>(contact_point_count());
  const Vector& q = state_.q;
  const Vector qd_minus = state_.qd;
  ActivationInput input;
  input.points.resize(point_count);
  for (std::size_t k = 0; k < point_count; ++k) {
    const int point = static_cast<int>(k);
    ImpactPoint& p = input.points[k];
    p.touching = gap_of(point, q) <= gap_tolerance(point);
    p.in_set = state_.active[k] != 0;
    p.sticks = has_tangent(point, Tangents::All);
    p.approach = normal_velocity_of(point, q, qd_minus);
    p.restitution = restitution_of(point);
    p.speed_tolerance = speed_tolerance(point);
  }
  for (int k : candidates) input.points[static_cast<std::size_t>(k)].in_set = true;
  input.joint_rows = model_.joint_row_total();
  input.qd_minus = qd_minus;
  input.external_impulse = impulse;
  input.mass_diagonal = model_.mass_diagonal();
  input.rest_speed = scenario_.integrator.rest_speed;
  input.force_scale = force_scale_;
  input.fallback = state_.impacts_at_instant > kMaxImpactsPerInstant;

  ActivationSystem system;
  std::vector<FrictionPair> pairs;  // the frictional points (0 < μ < ∞) of the set last laid out
  // On the sparse path A goes straight into compressed rows (exactly to_sparse of the dense rows), made
  // dense only where a dense solve or split asks for it.
  const bool sparse = sparse_smooth_phase();
  system.rows = [&](const std::vector<int>& points, ConstraintRows& rows) {
    const RowLayout layout = layout_of(points, Tangents::All);
    assemble(q, qd_minus, points, layout, rows, sparse);
    pairs = friction_pairs(points, layout);
  };
  system.normal_velocity = [&](int point, const Vector& qd) { return normal_velocity_of(point, q, qd); };
  system.solve = [&](ConstraintRows& rows, const Vector& restitution, const std::vector<bool>& unilateral) {
    return solve_impact_on(rows, qd_minus, restitution, impulse, unilateral, pairs);
  };
  system.carried_without_pull = [&](ConstraintRows& rows, const Vector& impulse_of_rows,
                                    const std::vector<bool>& unilateral, double tolerance) {
    Vector split;
    return carried_without_pull(rows.dense_jacobian(), impulse_of_rows, unilateral, tolerance, split,
                                rows.sparse ? &rows.sparse_rows.matrix() : nullptr);
  };
  return apply_activation_rule(input, system);
}

bool Simulator::apply_impact(ActivationOutcome&& outcome, bool approaching, bool scheduled) {
  // reads the outcome of the Γ rule ⇒ writes state.q̇ = q̇⁺ and the active set (the points of A left at
  // rest); logs the impact if it is real. Returns whether it was logged.
  const ImpactResult& result = outcome.solution.result;
  // New active set: the points of A left at rest; every other point is separated.
  // A sticking point of A sticks again (its tangential row was in A); a frictional point that the impact
  // left slipping slides on (contact_friction.hpp).
  std::fill(state_.active.begin(), state_.active.end(), 0);
  std::fill(state_.sliding.begin(), state_.sliding.end(), 0);
  for (std::size_t j = 0; j < outcome.points.size(); ++j) {
    const std::size_t i = static_cast<std::size_t>(outcome.points[j]);
    const double tolerance = speed_tolerance(outcome.points[j]);
    state_.active[i] = result.normal_velocity_plus(outcome.layout.normal_rows[j]) <= tolerance ? 1 : 0;
    if (state_.active[i] && !outcome.solution.friction.empty()) {
      const double slip = result.normal_velocity_plus(outcome.layout.normal_rows[j] + 1);
      state_.sliding[i] = outcome.layout.tangent[j] ? slide_code(slip, tolerance) : 0;
    }
  }
  state_.qd = result.qd_plus;

  // Log real impacts: a candidate approaching, an external impulse, or a change of kinetic energy (a
  // sticking point touching while it slips loses its slip); a touch at rest only activates.
  const bool changed = std::abs(result.kinetic_energy_change) > 1e-12 * result.kinetic_minus + 1e-15;
  if (!(approaching || scheduled || changed)) return false;
  for (int k : outcome.points) state_.impacting[static_cast<std::size_t>(k)] = 1;
  record_impact(outcome.points, outcome.layout, outcome.rows, std::move(outcome.solution), outcome.passes,
                scheduled);
  return true;
}

bool Simulator::stop_residual_motion() {
  // reads the new active set and state.q̇ ⇒ writes state.q̇ = (I − S)q̇ where rows of that set still move,
  // logged as a plastic follow-up impact. Returns whether one was.
  // With a rank-deficient A and unequal e_i the Newton law holds only in the least-squares sense
  // (A q̇⁺ = −A A⁺ E A q̇⁻): a joint or a point about to rest may still move along its rows. A plastic
  // follow-up impact on the new active set (E = 0: q̇⁺⁺ = (I − S) q̇⁺) stops them; it is logged, so that
  // the log accounts for every change of kinetic energy.
  std::vector<int> resting;
  for (std::size_t k = 0; k < state_.active.size(); ++k) {
    if (state_.active[k]) resting.push_back(static_cast<int>(k));
  }
  if (model_.joint_row_total() + static_cast<int>(resting.size()) == 0) return false;
  // The tangential rows of the points that stick (every `stick` point: apply_impact cleared their sliding).
  const RowLayout layout = layout_of(resting, Tangents::Active);
  ConstraintRows rows;
  assemble(state_.q, state_.qd, resting, layout, rows);
  // Still moving: beyond the speed tolerance of a point of the smallest body (the tightest of the scene's).
  const double tolerance = std::max(kMinSpeedTolerance, kRelativeSpeedTolerance * std::max(std::sqrt(gravity_norm_ * smallest_body_size_), speed_scale_));
  if (max_abs(rows.jacobian * state_.qd) <= tolerance) return false;
  ImpactSolution stopped = solve_impact_on(rows, state_.qd, Vector::Zero(rows.rows()), Vector(),
                                           layout.unilateral_mask());
  state_.qd = stopped.result.qd_plus;
  for (int k : resting) state_.impacting[static_cast<std::size_t>(k)] = 1;
  record_impact(resting, layout, rows, std::move(stopped), 1, false);
  return true;
}

ImpactSolution Simulator::solve_impact_on(ConstraintRows& rows, const Vector& qd_minus, const Vector& restitution,
                                          const Vector& impulse, const std::vector<bool>& unilateral,
                                          const std::vector<FrictionPair>& pairs) {
  // reads (M, A), q̇⁻, E, i_u ⇒ returns the impact (paper eq. (49), in scaled coordinates:
  // scaled_projection.hpp); the scalars of its projections are left to its record, which computes them when a
  // summary first asks (impact_log.hpp).
  // Solved already, before the budget interrupted this step: the same impact.
  detail::InputKey input(detail::kImpactEvaluation);
  if (rows.sparse) {
    input.add(rows.sparse_rows.matrix());
  } else {
    input.add(rows.jacobian);
  }
  input.add(qd_minus).add(restitution).add(impulse).add(unilateral);
  for (const FrictionPair& pair : pairs) input.add(pair.normal_row).add(pair.mu);
  const std::uint64_t key = input.value();
  if (work_.replay.upcoming(key)) return *replayed(key, rows.rows())->solution;
  // Its parts kept while it could be stopped (a dense fallback's projections) are replaced by it when done.
  const std::size_t start = work_.replay.position();
  ImpactSolution solution;
  if (pairs.empty() && sparse_smooth_phase()) {
    // Frictionless impacts: the sparse path (simulator_sparse_path.cpp).
    solution.result = sparse_impact(rows, qd_minus, restitution, impulse, unilateral, key);
  } else {
    const Matrix& jacobian = rows.dense_jacobian();
    if (!pairs.empty()) {
      // Coulomb friction at some point (0 < μ < ∞): Aghili's stick/slip impact on the dense projections of
      // the parts in motion (simulator_friction.cpp), every mode combination at most once.
      solution = frictional_impact(jacobian, qd_minus, restitution, impulse, unilateral, pairs);
    } else {
      // The dense projections of the touched coordinates.
      const double touched = static_cast<double>(touched_coordinates(jacobian).size());
      work_.budget.begin(projection_work(jacobian) + work::impact_solve(touched, static_cast<double>(jacobian.rows())));
      solution.result =
          ScaledProjection(model_.mass_diagonal(), jacobian).impact(qd_minus, restitution, impulse, unilateral);
    }
  }
  detail::Evaluation evaluation;
  evaluation.key = key;
  evaluation.solution = solution;
  work_.replay.record_in_place_of(start, std::move(evaluation));
  return solution;
}

void Simulator::record_impact(const std::vector<int>& points, const RowLayout& layout, const ConstraintRows& rows,
                              ImpactSolution&& solution, int iterations, bool scheduled, bool painleve) {
  // reads the committed state and one solved impact ⇒ adds its record to those of the transaction, which
  // reach the log when it completes (without the matrices of the projections: impact_log.hpp). A in
  // compressed rows is kept as it is (the record's own rows are the dense A's non-zeros, bit for bit).
  ImpactRecord record =
      rows.sparse ? make_impact_record(state_.time, record_inertia_, rows.sparse_rows.matrix(), nu_, std::move(solution))
                  : make_impact_record(state_.time, record_inertia_, rows.jacobian, nu_, std::move(solution));
  record.points = points;
  record.normal_rows = layout.normal_rows;
  record.iterations = iterations;
  record.scheduled = scheduled;
  for (int k : points) {
    const ContactFrame frame = frame_of(k, state_.q);
    record.contacts.push_back(contact_of(k));
    record.positions.push_back(frame.point);
    record.normals.push_back(frame.normal);
  }
  record.painleve = painleve;
  pending_records_.push_back(std::move(record));
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
