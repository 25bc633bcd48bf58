// The Simulator's contact points (simulator.hpp, "Automatic contacts"): the declared ones and the automatic
// ones, their gaps, rows and tolerances, the watched body pairs, and finding the points again.
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

namespace {

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

std::pair<int, int> Simulator::bodies_of(int point) const {
  if (const FeaturePair* pair = automatic_pair(point)) return {pair->body_a, pair->body_b};
  const ContactFeature& feature = model_.contact_points()[static_cast<std::size_t>(point)];
  return {feature.body_a, feature.body_b};
}

double Simulator::size_of(int point) const {
  const auto [a, b] = bodies_of(point);
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
  // Active point k: its level − how far its features are apart beyond what its row measures, negative once
  // they part: an automatic point whose circle's foot left the end of its face has a gap to the face itself
  // that grows while its row holds the gap to the face's line at 0. Within the face (and for circles and
  // planes) the two are the same number, so a point at rest never parts by the drift of its row.
  const FeaturePair* pair = automatic_pair(static_cast<int>(k));
  if (!pair) return std::numeric_limits<double>::infinity();
  return work_.apart_level[k] - (automatic_.gap(*pair, q) - feature_pair_frame(*pair, q).gap);
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
  work_.budget.add(work::contact_search(
      automatic_.find(state_.q, state_.qd, scenario_.integrator.step, state_.automatic, work_.found)));
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
  // The rows of the record's joints, then per point its normal row and, when the next row is not the next
  // point's normal row, its tangential row.
  std::vector<ConstraintRowInfo> rows;
  for (int joint : record.joints) {
    if (joint < 0 || joint >= model_.joint_count()) continue;
    for (const char* part : model_.joint_row_parts(joint)) {
      ConstraintRowInfo info;
      info.joint = joint;
      info.part = part;
      rows.push_back(info);
    }
  }
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

}  // namespace oblique
