// JSON views of the simulator: one impact record (for the playground's panels), its summary (the log, the
// page's frames, the CLI), and the `oblique simulate` document (samples and the impact log).
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "oblique/io/impact_io.hpp"
#include "oblique/simulation/sampled_run.hpp"
#include "oblique/io/simulation_json.hpp"

namespace oblique {

namespace {

Json vec2_list(const std::vector<Vec2>& points) {
  Json out = Json::array();
  for (const Vec2& p : points) out.push_back({p.x(), p.y()});
  return out;
}

/// The record's own keys: where and when, which points and contacts, their rest speeds, the Γ-rule passes.
Json record_keys(const ImpactRecord& record) {
  Json out;
  out["t"] = record.time;
  out["points"] = record.points;
  out["contacts"] = record.contacts;
  out["normal_rows"] = record.normal_rows;
  out["positions"] = vec2_list(record.positions);
  out["normals"] = vec2_list(record.normals);
  // Per point the rest speed its plasticity used, and whether it was nearly resting in a stack.
  out["rest_speeds"] = record.rest_speeds;
  Json nearly_resting = Json::array();
  for (char flag : record.nearly_resting) nearly_resting.push_back(flag != 0);
  out["nearly_resting"] = std::move(nearly_resting);
  out["iterations"] = record.iterations;
  out["scheduled"] = record.scheduled;
  // Friction (only when some point of A has 0 < μ < ∞, so that frictionless records keep their keys): per
  // frictional point its mode, μ_crit (null: +∞), discriminator and the impulse's angle to the cone.
  if (!record.friction.empty()) {
    Json friction = Json::array();
    for (const ContactFriction& c : record.friction) {
      const auto j = static_cast<std::size_t>(
          std::find(record.normal_rows.begin(), record.normal_rows.end(), c.normal_row) - record.normal_rows.begin());
      Json item;
      item["point"] = j < record.points.size() ? record.points[j] : -1;
      item["contact"] = j < record.contacts.size() ? record.contacts[j] : -1;
      item["mu"] = c.mu;
      item["mode"] = c.slipping ? "slip" : "stick";
      item["direction"] = c.direction;
      item["mu_critical"] = std::isfinite(c.critical_mu) ? Json(c.critical_mu) : Json();
      item["discriminator"] = c.discriminator;
      item["cone_angle"] = c.cone_angle;
      item["sticking_cone_angle"] = c.sticking_cone_angle;
      friction.push_back(std::move(item));
    }
    out["friction"] = std::move(friction);
    out["modes_consistent"] = record.modes_consistent;
  }
  if (record.painleve) out["painleve"] = true;
  return out;
}

/// Appends the keys of `more` to `out`, in their order.
void append(Json& out, Json&& more) {
  for (auto it = more.begin(); it != more.end(); ++it) out[it.key()] = std::move(*it);
}

}  // namespace

Json impact_record_to_json(const ImpactRecord& record) {
  // The projections recomputed from M and A (bit-identical to those a Projection of the record's M and A
  // gives), with M and A themselves so that the impact can be solved again by itself (analyzeImpact), e.g.
  // at another ν.
  Json out = record_keys(record);
  const Projection projection = record.projection();
  out["M"] = to_json(projection.inertia());
  out["A"] = to_json(projection.jacobian());
  // With qd_minus and restitution (as E), the whole analyzeImpact input of this impact.
  const Vector& impulse = record.result.external_impulse;
  if (impulse.size() > 0 && (impulse.array() != 0.0).any()) out["iu"] = to_json(impulse);
  out["unilateral"] = record.unilateral();
  // A frictional impact: its pairs and μ, so that analyzeImpact solves it again with its friction.
  if (!record.friction.empty()) {
    Json pairs = Json::array(), mu = Json::array();
    for (const ContactFriction& c : record.friction) {
      pairs.push_back(Json::array({c.normal_row, c.normal_row + 1}));
      mu.push_back(c.mu);
    }
    out["pairs"] = std::move(pairs);
    out["mu"] = std::move(mu);
  }
  append(out, impact_result_to_json(projection, record.full_result(projection), ImpactDetail::Full));
  return out;
}

Json impact_record_summary_to_json(const ImpactRecord& record, SummaryScalars scalars) {
  // The record's keys, then those of impact_result_to_json at ImpactDetail::Summary, from what the record
  // keeps (no projection is recomputed; its scalars are computed once, when first asked for).
  Json out = record_keys(record);
  const bool included = scalars == SummaryScalars::Included;
  const ProjectionScalars* projection = included ? &record.projection_scalars() : nullptr;
  const EnergyConsistency* consistency = included ? &record.energy_consistency() : nullptr;
  append(out, impact_summary_to_json(record.jacobian.cols(), record.jacobian.rows(), projection, record.result,
                                     consistency));
  return out;
}

Json simulation_header_json(const Scenario& scenario, double duration, double sample_interval) {
  Json names = Json::array();
  for (const BodyDef& body : scenario.bodies) names.push_back(body.name);
  Json out;
  out["title"] = scenario.title;
  out["bodies"] = std::move(names);
  out["dofs"] = 3 * static_cast<int>(scenario.bodies.size());
  out["duration"] = duration;
  out["sample"] = sample_interval;
  return out;
}

Json simulate_to_json(const Scenario& scenario, double duration, double sample_interval) {
  // Check the run parameters where they enter, then build the simulator (which checks the scenario).
  check_sampling(duration, sample_interval);
  Simulator sim(scenario);

  // The samples and the records, column by column.
  struct Columns : SampleSink {
    Json t = Json::array(), q = Json::array(), qd = Json::array();
    Json kinetic = Json::array(), potential = Json::array(), total = Json::array(), violation = Json::array();
    Json impacts = Json::array();
    void sample(const Simulator& s) override {
      t.push_back(s.time());
      q.push_back(to_json(s.positions()));
      qd.push_back(to_json(s.velocities()));
      const Energy energy = s.energy();
      kinetic.push_back(energy.kinetic);
      potential.push_back(energy.potential);
      total.push_back(energy.total);
      violation.push_back(s.constraint_violation());
    }
    void impact(const ImpactRecord& record) override { impacts.push_back(impact_record_summary_to_json(record)); }
  } columns;
  run_sampled(sim, duration, sample_interval, columns);

  Json out = simulation_header_json(scenario, duration, sample_interval);
  out["t"] = std::move(columns.t);
  out["q"] = std::move(columns.q);
  out["qd"] = std::move(columns.qd);
  out["energy"] = {{"kinetic", std::move(columns.kinetic)},
                   {"potential", std::move(columns.potential)},
                   {"total", std::move(columns.total)}};
  out["violation"] = std::move(columns.violation);
  out["impacts"] = std::move(columns.impacts);
  out["complete"] = true;
  return out;
}

}  // namespace oblique
