// JSON views of the simulator: one impact record (for the playground's panels) and the `oblique simulate`
// document (samples and the impact log).
#include <cmath>
#include <stdexcept>
#include <string>

#include "checks.hpp"
#include "oblique/impact_io.hpp"
#include "oblique/simulator.hpp"

namespace oblique {

using detail::fail;
using detail::format_number;

namespace {

Json vec2_list(const std::vector<Vec2>& points) {
  Json out = Json::array();
  for (const Vec2& p : points) out.push_back({p.x(), p.y()});
  return out;
}

/// The record's own keys: where and when, which points and contacts, the Γ-rule passes.
Json record_keys(const ImpactRecord& record) {
  Json out;
  out["t"] = record.time;
  out["points"] = record.points;
  out["contacts"] = record.contacts;
  out["normal_rows"] = record.normal_rows;
  out["positions"] = vec2_list(record.positions);
  out["normals"] = vec2_list(record.normals);
  out["iterations"] = record.iterations;
  out["scheduled"] = record.scheduled;
  return out;
}

/// The record's keys, then those of impact_result_to_json at ImpactDetail::Summary, in its order, from
/// what the record keeps (no projection is recomputed).
Json record_summary(const ImpactRecord& record) {
  Json out = record_keys(record);
  const ProjectionScalars& p = record.projection_scalars;
  const ImpactResult& r = record.result;
  out["n"] = record.jacobian.cols();
  out["m"] = record.jacobian.rows();
  out["rank"] = p.rank;
  out["nu"] = p.nu;
  out["nu_range"] = {p.nu_lower, p.nu_upper};
  out["cond_Mc"] = p.cond;
  out["restitution"] = to_json(r.restitution);
  out["qd_minus"] = to_json(r.qd_minus);
  out["qd_plus"] = to_json(r.qd_plus);
  out["i_f"] = to_json(r.impulse);
  out["i_lambda"] = to_json(r.impulse_multipliers);
  out["phid_minus"] = to_json(r.normal_velocity_minus);
  out["phid_plus"] = to_json(r.normal_velocity_plus);
  out["K_minus"] = r.kinetic_minus;
  out["K_plus"] = r.kinetic_plus;
  out["W_loss"] = r.energy_loss;
  out["W_constraint"] = r.constraint_work;
  out["gamma"] = r.energy_ratio;  // NaN (K⁻ = 0) is written as null
  out["qmi_max_eig"] = r.qmi_max_eig;
  out["energy_consistent"] = r.energy_consistent;
  out["newton_residual"] = r.newton_residual;
  out["flags"] = {{"tensile_impulse", r.flags.tensile_impulse},
                  {"approach_after_impact", r.flags.approach_after_impact},
                  {"energy_gain", r.flags.energy_gain}};
  return out;
}

}  // namespace

Json impact_record_to_json(const ImpactRecord& record) {
  // The projections recomputed from M and A (bit-identical to the impact's), with M and A themselves so
  // that the impact can be solved again by itself (analyzeImpact), e.g. at another ν.
  Json out = record_keys(record);
  const Projection projection = record.projection();
  out["M"] = to_json(projection.inertia());
  out["A"] = to_json(projection.jacobian());
  Json result = impact_result_to_json(projection, record.full_result(projection), ImpactDetail::Full);
  for (auto it = result.begin(); it != result.end(); ++it) out[it.key()] = std::move(*it);
  return out;
}

Json impact_record_summary_to_json(const ImpactRecord& record) { return record_summary(record); }

Json simulate_to_json(const Scenario& scenario, double duration, double sample_interval) {
  // Check the run parameters where they enter.
  if (!std::isfinite(duration) || duration < 0.0 || duration > kMaxDuration) {
    fail("duration", "must be a number of seconds in [0, " + format_number(kMaxDuration) + "], got " +
                         format_number(duration));
  }
  if (!std::isfinite(sample_interval) || !(sample_interval > 0.0)) {
    fail("sample", "must be a positive number of seconds, got " + format_number(sample_interval));
  }
  constexpr double kMaxSamples = 1e6;
  const double whole = std::floor(duration / sample_interval * (1.0 + 1e-12));
  if (whole + 2.0 > kMaxSamples) {
    fail("sample", format_number(sample_interval) + " s over " + format_number(duration) + " s gives more than " +
                       format_number(kMaxSamples) + " samples");
  }
  Simulator sim(scenario);

  Json names = Json::array();
  for (const BodyDef& body : scenario.bodies) names.push_back(body.name);
  Json t = Json::array(), q = Json::array(), qd = Json::array();
  Json kinetic = Json::array(), potential = Json::array(), total = Json::array(), violation = Json::array();
  Json impacts = Json::array();
  auto take_sample = [&]() {
    t.push_back(sim.time());
    q.push_back(to_json(sim.positions()));
    qd.push_back(to_json(sim.velocities()));
    const Energy energy = sim.energy();
    kinetic.push_back(energy.kinetic);
    potential.push_back(energy.potential);
    total.push_back(energy.total);
    violation.push_back(sim.constraint_violation());
  };

  // Every record the simulator logs, in order: one advance call may log several (an impact and its plastic
  // follow-up), and the bounded log must not have dropped any before it is written.
  std::size_t written = 0;
  auto take_new_records = [&]() {
    if (sim.dropped_impacts() > written) {
      throw std::runtime_error("impact log: records " + std::to_string(written) + " to " +
                               std::to_string(sim.dropped_impacts() - 1) + " were dropped before they were written");
    }
    const std::size_t logged = sim.dropped_impacts() + sim.impacts().size();
    for (; written < logged; ++written) {
      impacts.push_back(record_summary(sim.impacts()[written - sim.dropped_impacts()]));
    }
  };

  // Impacts of the initial state (touching and approaching at t = 0), then sample by sample.
  take_new_records();
  take_sample();
  const long samples = static_cast<long>(whole);
  for (long k = 1; k <= samples + 1; ++k) {
    const double target = k <= samples ? std::min(duration, static_cast<double>(k) * sample_interval) : duration;
    if (k == samples + 1 && !(sim.time() < duration)) break;
    // Until the target is reached with nothing left due there: a call stops after an impact, or at its work
    // budget (work_limit_hit: then it makes progress all the same, though a long step may take several
    // calls before time moves).
    do {
      sim.advance_to_next_impact_before(target);
      take_new_records();
    } while (sim.time() < target || sim.work_limit_hit());
    take_sample();
  }

  Json out;
  out["title"] = scenario.title;
  out["bodies"] = names;
  out["dofs"] = 3 * static_cast<int>(scenario.bodies.size());
  out["duration"] = duration;
  out["sample"] = sample_interval;
  out["t"] = std::move(t);
  out["q"] = std::move(q);
  out["qd"] = std::move(qd);
  out["energy"] = {{"kinetic", std::move(kinetic)}, {"potential", std::move(potential)}, {"total", std::move(total)}};
  out["violation"] = std::move(violation);
  out["impacts"] = std::move(impacts);
  return out;
}

}  // namespace oblique
