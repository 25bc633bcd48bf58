// embind: a Simulator behind a handle. Per-frame data (poses, state, contact points) is exposed as the
// address of a C++-owned array of doubles that the JS wrapper views in place (no copy, no allocation);
// rare, rich data (impact records, the scenario) crosses as JSON text. No physics here. A failed call
// returns a neutral value and leaves its message for takeError() (see binding_support.hpp).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <malloc.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "binding_support.hpp"
#include "oblique/io/scenario_json.hpp"
#include "oblique/io/simulation_json.hpp"
#include "oblique/io/simulation_state_json.hpp"

namespace {

using oblique::bindings::guarded;
using oblique::bindings::guarded_void;

/// The contact buffer: kContactStride doubles per contact point, in this order. The layout is written
/// here only; the JS wrapper reads it from contactPointLayout().
enum ContactField : int {
  kContactIndex, kBodyA, kBodyB, kPointX, kPointY, kNormalX, kNormalY, kGap, kNormalVelocity, kMultiplier, kState,
  kSlip, kFriction, kSlipSpeed, kContactStride
};
constexpr const char* kContactFieldNames[kContactStride] = {
    "contact", "bodyA", "bodyB", "x", "y", "normalX", "normalY", "gap", "normalVelocity", "multiplier", "state",
    "slip", "friction", "slipSpeed"};
/// Names of oblique::ContactState values, by value.
constexpr const char* kContactStateNames[] = {"inactive", "active", "impacting"};

/// {stride, fields, states}: the contact buffer's layout as JSON text.
std::string contact_point_layout() {
  oblique::Json fields = oblique::Json::array();
  for (const char* name : kContactFieldNames) fields.push_back(name);
  oblique::Json states = oblique::Json::array();
  for (const char* name : kContactStateNames) states.push_back(name);
  return oblique::Json{{"stride", static_cast<int>(kContactStride)}, {"fields", fields}, {"states", states}}.dump();
}

/// One row of an impact's A as JSON: {kind: "joint", joint, part} or {kind: "normal"|"tangent", point,
/// contact, feature}.
oblique::Json row_to_json(const oblique::ConstraintRowInfo& row) {
  using Kind = oblique::ConstraintRowInfo::Kind;
  if (row.kind == Kind::Joint) return {{"kind", "joint"}, {"joint", row.joint}, {"part", row.part}};
  return {{"kind", row.kind == Kind::Normal ? "normal" : "tangent"}, {"point", row.point},
          {"contact", row.contact}, {"feature", row.feature}};
}

class SimulationHandle {
 public:
  explicit SimulationHandle(oblique::Simulator simulator) : simulator_(std::move(simulator)) {}

  /// A handle for the scenario document, or null with the message left for takeError().
  static std::unique_ptr<SimulationHandle> create(const std::string& scenario_json) {
    return guarded(
        [&] {
          oblique::Scenario scenario = oblique::parse_scenario(oblique::parse_json(scenario_json, "scenario"));
          return std::make_unique<SimulationHandle>(oblique::Simulator(std::move(scenario)));
        },
        std::unique_ptr<SimulationHandle>());
  }

  int advance(double dt) { return guarded([&] { return simulator_.advance(dt); }, 0); }
  bool advance_to_next_impact(double max_dt) {
    return guarded([&] { return simulator_.advance_to_next_impact(max_dt); }, false);
  }
  int advance_to(double t) { return guarded([&] { return simulator_.advance_to(t); }, 0); }
  bool advance_to_next_impact_before(double t) {
    return guarded([&] { return simulator_.advance_to_next_impact_before(t); }, false);
  }
  void reset() { guarded_void([&] { simulator_.reset(); }); }
  void set_work_budget(double flops) { guarded_void([&] { simulator_.set_work_budget(flops); }); }
  double work_budget() const { return simulator_.work_budget(); }
  double last_work() const { return simulator_.last_work(); }

  int body_count() const { return simulator_.model().body_count(); }
  int contact_count() const { return static_cast<int>(simulator_.scenario().contacts.size()); }
  int contact_point_count() const { return simulator_.contact_point_count(); }
  double time() const { return simulator_.time(); }
  bool work_limit_hit() const { return simulator_.work_limit_hit(); }

  /// Addresses of q and q̇ (3 doubles per body), valid until the next call that changes the state.
  std::uintptr_t positions_address() const { return address(simulator_.positions().data()); }
  std::uintptr_t velocities_address() const { return address(simulator_.velocities().data()); }

  /// Refreshes and returns the address of {time, kinetic, potential, total, violation, drift}.
  std::uintptr_t state_address() {
    const oblique::Energy energy = simulator_.energy();
    state_ = {simulator_.time(), energy.kinetic, energy.potential, energy.total,
              simulator_.constraint_violation(), simulator_.last_drift()};
    return address(state_.data());
  }

  /// Refreshes and returns the address of kContactStride doubles per contact point, in the order of
  /// ContactField (contactPointLayout() describes it to JS).
  std::uintptr_t contact_points_address() {
    const auto& points = simulator_.contact_points();
    contacts_.resize(points.size() * kContactStride);
    for (std::size_t i = 0; i < points.size(); ++i) {
      const oblique::ContactPoint& p = points[i];
      double* out = contacts_.data() + i * kContactStride;
      out[kContactIndex] = p.contact;
      out[kBodyA] = p.body_a;
      out[kBodyB] = p.body_b;
      out[kPointX] = p.point.x();
      out[kPointY] = p.point.y();
      out[kNormalX] = p.normal.x();
      out[kNormalY] = p.normal.y();
      out[kGap] = p.gap;
      out[kNormalVelocity] = p.normal_velocity;
      out[kMultiplier] = p.multiplier;
      out[kState] = static_cast<double>(p.state);
      out[kSlip] = p.slip;
      out[kFriction] = p.friction;
      out[kSlipSpeed] = p.slip_speed;
    }
    return address(contacts_.data());
  }

  /// Impacts in the log, and those dropped from its front; bytes the log holds.
  int impact_log_size() const { return static_cast<int>(simulator_.impacts().size()); }
  double impact_log_bytes() const { return static_cast<double>(simulator_.impact_log_bytes()); }
  double dropped_impacts() const { return static_cast<double>(simulator_.dropped_impacts()); }
  std::string impact_json(int index) const {
    return guarded(
        [&] {
          if (index < 0 || index >= impact_log_size()) {
            throw std::invalid_argument("impact: index " + std::to_string(index) + " is not in the log");
          }
          return oblique::impact_record_to_json(simulator_.impacts()[static_cast<std::size_t>(index)]).dump();
        },
        std::string());
  }
  /// The record's summary (no matrices recomputed); with or without the scalars of its projections.
  std::string impact_summary_json(int index, bool projection_scalars) const {
    return guarded(
        [&] {
          if (index < 0 || index >= impact_log_size()) {
            throw std::invalid_argument("impact: index " + std::to_string(index) + " is not in the log");
          }
          const oblique::SummaryScalars scalars =
              projection_scalars ? oblique::SummaryScalars::Included : oblique::SummaryScalars::Omitted;
          return oblique::impact_record_summary_to_json(simulator_.impacts()[static_cast<std::size_t>(index)], scalars)
              .dump();
        },
        std::string());
  }

  /// The state (SimulationState) as JSON text; restore_state_json puts one back.
  std::string save_state_json() const {
    return guarded([&] { return oblique::state_to_json(simulator_.save_state()).dump(); }, std::string());
  }
  void restore_state_json(const std::string& text) {
    guarded_void([&] { simulator_.restore_state(oblique::state_from_json(oblique::parse_json(text, "state"))); });
  }

  /// What each row of impact `index`'s A measures: the joints' rows, then each impact point's rows.
  std::string impact_rows_json(int index) const {
    return guarded(
        [&] {
          if (index < 0 || index >= impact_log_size()) {
            throw std::invalid_argument("impact: index " + std::to_string(index) + " is not in the log");
          }
          const oblique::ImpactRecord& record = simulator_.impacts()[static_cast<std::size_t>(index)];
          oblique::Json rows = oblique::Json::array();
          for (const auto& row : simulator_.record_rows(record)) rows.push_back(row_to_json(row));
          return rows.dump();
        },
        std::string());
  }

  std::string scenario_json() const {
    return guarded([&] { return oblique::scenario_to_json(simulator_.scenario()).dump(); }, std::string());
  }

  void set_restitution(double e) { guarded_void([&] { simulator_.set_restitution(e); }); }
  void set_contact_restitution(int contact, double e) {
    guarded_void([&] { simulator_.set_contact_restitution(contact, e); });
  }
  /// Coulomb's μ ≥ 0, or "stick" (μ = +∞), of every contact or of one; null: the scenario's own.
  void set_friction(emscripten::val mu) {
    guarded_void([&] {
      if (mu.isNull() || mu.isUndefined()) return simulator_.reset_friction();
      simulator_.set_friction(friction_value(mu, "mu"));
    });
  }
  void set_contact_friction(int contact, emscripten::val mu) {
    guarded_void([&] {
      simulator_.set_contact_friction(contact, friction_value(mu, "contacts[" + std::to_string(contact) + "].mu"));
    });
  }
  /// ν > 0, or null / undefined for the condition-optimal default.
  void set_nu(emscripten::val nu) {
    guarded_void([&] {
      if (nu.isNull() || nu.isUndefined()) return simulator_.set_nu(std::nullopt);
      if (!nu.isNumber()) throw std::invalid_argument("nu: must be a number or null");
      simulator_.set_nu(nu.as<double>());
    });
  }

 private:
  static double friction_value(const emscripten::val& mu, const std::string& field) {
    if (mu.isNumber()) return mu.as<double>();
    if (mu.isString() && mu.as<std::string>() == "stick") return std::numeric_limits<double>::infinity();
    throw std::invalid_argument(field + ": must be a number ≥ 0 or \"stick\"");
  }
  static std::uintptr_t address(const double* data) { return reinterpret_cast<std::uintptr_t>(data); }

  oblique::Simulator simulator_;
  std::vector<double> state_ = std::vector<double>(6);
  std::vector<double> contacts_;
};

/// Bytes of the wasm heap in use by allocations (the heap itself never shrinks; this does, when freed).
double heap_bytes_in_use() { return static_cast<double>(mallinfo().uordblks); }

}  // namespace

EMSCRIPTEN_BINDINGS(oblique_simulation) {
  emscripten::function("createSimulation", &SimulationHandle::create);
  emscripten::function("contactPointLayout", &contact_point_layout);
  emscripten::function("heapBytesInUse", &heap_bytes_in_use);
  emscripten::class_<SimulationHandle>("SimulationHandle")
      .function("advance", &SimulationHandle::advance)
      .function("advanceToNextImpact", &SimulationHandle::advance_to_next_impact)
      .function("advanceTo", &SimulationHandle::advance_to)
      .function("advanceToNextImpactBefore", &SimulationHandle::advance_to_next_impact_before)
      .function("reset", &SimulationHandle::reset)
      .function("setWorkBudget", &SimulationHandle::set_work_budget)
      .function("workBudget", &SimulationHandle::work_budget)
      .function("lastWork", &SimulationHandle::last_work)
      .function("bodyCount", &SimulationHandle::body_count)
      .function("contactCount", &SimulationHandle::contact_count)
      .function("contactPointCount", &SimulationHandle::contact_point_count)
      .function("time", &SimulationHandle::time)
      .function("workLimitHit", &SimulationHandle::work_limit_hit)
      .function("positionsAddress", &SimulationHandle::positions_address)
      .function("velocitiesAddress", &SimulationHandle::velocities_address)
      .function("stateAddress", &SimulationHandle::state_address)
      .function("contactPointsAddress", &SimulationHandle::contact_points_address)
      .function("impactLogSize", &SimulationHandle::impact_log_size)
      .function("droppedImpacts", &SimulationHandle::dropped_impacts)
      .function("impactLogBytes", &SimulationHandle::impact_log_bytes)
      .function("impactJson", &SimulationHandle::impact_json)
      .function("impactSummaryJson", &SimulationHandle::impact_summary_json)
      .function("impactRowsJson", &SimulationHandle::impact_rows_json)
      .function("saveStateJson", &SimulationHandle::save_state_json)
      .function("restoreStateJson", &SimulationHandle::restore_state_json)
      .function("scenarioJson", &SimulationHandle::scenario_json)
      .function("setRestitution", &SimulationHandle::set_restitution)
      .function("setContactRestitution", &SimulationHandle::set_contact_restitution)
      .function("setNu", &SimulationHandle::set_nu)
      .function("setFriction", &SimulationHandle::set_friction)
      .function("setContactFriction", &SimulationHandle::set_contact_friction);
}
