#include "oblique/io/frictional_impact_io.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "math/checks.hpp"
#include "oblique/friction/friction_consistency.hpp"
#include "oblique/io/impact_io.hpp"
#include "oblique/io/json_reader.hpp"

namespace oblique {

using detail::fail;

namespace {

/// A row index of A at `field`: a whole number (its range is checked by solve_frictional_impact).
int row_index(const Json& value, const std::string& field) {
  const std::string problem = number_problem(value);
  if (!problem.empty()) fail(field, problem);
  const double x = value.get<double>();
  if (std::floor(x) != x || std::abs(x) > 1e9) fail(field, "must be a whole number (a row of A), got " + detail::format_number(x));
  return static_cast<int>(x);
}

/// One μ at `field`: a number ≥ 0, or "stick" / "Infinity" for +∞.
double friction_coefficient(const Json& value, const std::string& field) {
  if (value.is_string() && (value.get<std::string>() == "stick" || value.get<std::string>() == "Infinity")) {
    return kNoSlip;
  }
  const std::string problem = number_problem(value);
  if (!problem.empty()) fail(field, problem + " (a coefficient ≥ 0, or \"stick\" for a point that never slips)");
  const double mu = value.get<double>();
  if (mu < 0.0) fail(field, "must be ≥ 0, got " + detail::format_number(mu));
  return mu;
}

/// μ as the document writes it: a number, or "stick" for +∞.
Json mu_to_json(double mu) { return std::isfinite(mu) ? Json(mu) : Json("stick"); }

/// A number, or null for ±∞ (JSON has no infinity).
Json number_or_null(double x) { return std::isfinite(x) ? Json(x) : Json(nullptr); }

/// Every output must be finite (γ aside): the same refusal as the frictionless document, naming M or qd.
void check_finite_outputs(const FrictionalImpactResult& r, const Matrix& mass, const Vector& qd_minus) {
  const bool finite = std::isfinite(r.kinetic_minus) && std::isfinite(r.kinetic_plus) && r.qd_plus.allFinite() &&
                      r.impulse.allFinite() && r.impulse_multipliers.allFinite() && r.projector.allFinite() &&
                      std::isfinite(r.newton_residual);
  if (finite) return;
  const double m = mass.cwiseAbs().maxCoeff();
  const double v = qd_minus.size() ? qd_minus.cwiseAbs().maxCoeff() : 0.0;
  const std::string field = (m > 1e150 || m < 1e-150 || !(v > 1e100)) ? "M" : "qd";
  fail(field, "the frictional impact overflows double precision (largest |M| entry " + detail::format_number(m) +
                  ", largest |q̇⁻| entry " + detail::format_number(v) + "); scale the units so that M and q̇⁻ are nearer 1");
}

}  // namespace

std::vector<FrictionPair> read_friction_pairs(const Json& input, int rows) {
  const Json* pairs_json = JsonReader::find(input, "pairs");
  const Json* mu_json = JsonReader::find(input, "mu");
  if (pairs_json == nullptr) fail("pairs", "missing (with mu: the [normal row, tangential row] of each frictional contact point)");
  if (mu_json == nullptr) fail("mu", "missing (with pairs: Coulomb's coefficient, a number ≥ 0 or one per pair)");
  // pairs: an array of [normal row, tangential row], no more pairs than rows of A.
  if (!pairs_json->is_array()) {
    fail("pairs", "must be an array of [normal row, tangential row] pairs, got " + describe_json(*pairs_json));
  }
  if (pairs_json->size() > static_cast<std::size_t>(rows)) {
    fail("pairs", "has " + std::to_string(pairs_json->size()) + " pairs; A has " + std::to_string(rows) + " rows");
  }
  std::vector<FrictionPair> pairs;
  for (std::size_t k = 0; k < pairs_json->size(); ++k) {
    const Json& item = (*pairs_json)[k];
    const std::string field = "pairs[" + std::to_string(k) + "]";
    if (!item.is_array() || item.size() != 2) {
      fail(field, "must be [normal row, tangential row], two rows of A, got " + describe_json(item) +
                      (item.is_array() ? " of " + std::to_string(item.size()) + " entries" : ""));
    }
    pairs.push_back({row_index(item[0], field + "[0]"), row_index(item[1], field + "[1]"), 0.0});
  }
  // mu: one number for every pair, or one per pair.
  if (mu_json->is_array()) {
    if (mu_json->size() != pairs.size()) {
      fail("mu", "has " + std::to_string(mu_json->size()) + " entries; one per pair (" + std::to_string(pairs.size()) + ")");
    }
    for (std::size_t k = 0; k < pairs.size(); ++k) {
      pairs[k].mu = friction_coefficient((*mu_json)[k], "mu[" + std::to_string(k) + "]");
    }
  } else {
    const double mu = friction_coefficient(*mu_json, "mu");
    for (FrictionPair& pair : pairs) pair.mu = mu;
  }
  return pairs;
}

void equilibrate_pairs(Matrix& jacobian, Vector& row_scale, const std::vector<FrictionPair>& pairs) {
  for (const FrictionPair& pair : pairs) {
    const int n_row = pair.normal_row, t_row = pair.tangent_row;
    if (n_row < 0 || t_row < 0 || n_row >= jacobian.rows() || t_row >= jacobian.rows()) continue;  // named later
    if (row_scale(n_row) == 1.0 && row_scale(t_row) == 1.0) continue;  // neither row was rescaled
    // Both rows as given (undoing a power of two is exact), and the factor that brings the longer one to a
    // length in [½, 1), as equilibrate_rows does for one row.
    jacobian.row(n_row) /= row_scale(n_row);
    jacobian.row(t_row) /= row_scale(t_row);
    double longest = 0.0;
    for (const int row : {n_row, t_row}) {
      const double largest = jacobian.row(row).cwiseAbs().maxCoeff();
      if (largest > 0.0) longest = std::max(longest, largest * (jacobian.row(row) / largest).norm());
    }
    int exponent = 0;
    std::frexp(longest, &exponent);
    const double common = std::ldexp(1.0, -exponent);
    for (const int row : {n_row, t_row}) {
      jacobian.row(row) *= common;
      row_scale(row) = common;
    }
  }
}

Json analyze_frictional_impact(const Json& input, const Matrix& mass, Matrix jacobian, Vector row_scale,
                               const Vector& qd_minus, const Restitution& restitution, const Vector& external_impulse,
                               std::optional<double> nu, const std::vector<bool>& unilateral) {
  // The pairs and μ, the pairs' rows on one scale, then the impact.
  const std::vector<FrictionPair> pairs = read_friction_pairs(input, static_cast<int>(jacobian.rows()));
  equilibrate_pairs(jacobian, row_scale, pairs);
  const Projection proj(mass, jacobian, nu);
  const FrictionalImpactResult result = solve_frictional_impact(proj, qd_minus, restitution, pairs, external_impulse, unilateral);
  check_finite_outputs(result, mass, qd_minus);
  Json out = frictional_impact_to_json(proj, result);
  if (row_scale.size() && (row_scale.array() != 1.0).any()) out["row_scale"] = to_json(row_scale);
  return out;
}

Json friction_energy_map_json(const Json& input, int pair, double mu_max, int resolution) {
  // The document is checked (and its fields named) by the impact it describes; it must have friction.
  const Json checked = analyze_impact_json(input);
  if (!checked.contains("friction")) fail("mu", "missing (the map is over the μ of a frictional pair: give mu and pairs)");
  // Its values, read again (`unilateral` only decides which rows are flagged, not the energy: not needed) as analyze_impact_json read them (now known to be valid).
  const Matrix mass = matrix_from_json(input.at("M"), "M");
  Matrix jacobian = matrix_from_json(input.at("A"), "A", mass.cols());
  Vector row_scale = equilibrate_rows(jacobian);
  const std::vector<FrictionPair> pairs = read_friction_pairs(input, static_cast<int>(jacobian.rows()));
  equilibrate_pairs(jacobian, row_scale, pairs);
  const Vector qd_minus = vector_from_json(input.at("qd"), "qd");
  const Restitution restitution = input.contains("E") ? Restitution::rows(vector_from_json(input.at("E"), "E"))
                                                      : Restitution::uniform(input.at("e").get<double>());
  const Vector iu = input.contains("iu") ? vector_from_json(input.at("iu"), "iu") : Vector();
  std::optional<double> nu;
  if (input.contains("nu") && !input.at("nu").is_null()) nu = input.at("nu").get<double>();
  const Projection proj(mass, jacobian, nu);
  if (iu.size() > 0 && iu.cwiseAbs().maxCoeff() > 0.0) {
    fail("iu", "the (μ, e) map is of an impact without an applied impulse; remove iu");
  }
  // The map, and where the document's own pair lies on it.
  const FrictionEnergyMap map = friction_energy_map(proj, qd_minus, restitution, pairs, pair, mu_max, resolution);
  const FrictionalImpactResult own = solve_frictional_impact(proj, qd_minus, restitution, pairs);
  const FrictionPairResult& mine = own.pairs[static_cast<std::size_t>(pair)];
  Json out;
  out["pair"] = pair;
  out["resolution"] = resolution;
  out["mu_max"] = mu_max;
  Json mus = Json::array(), es = Json::array(), critical = Json::array();
  for (int k = 0; k < resolution; ++k) {
    mus.push_back(mu_max * static_cast<double>(k) / (resolution - 1));
    es.push_back(static_cast<double>(k) / (resolution - 1));
    critical.push_back(number_or_null(map.critical_mu[static_cast<std::size_t>(k)]));
  }
  out["mu"] = std::move(mus);
  out["e"] = std::move(es);
  out["mu_critical"] = std::move(critical);
  out["energy_change"] = map.energy_change;
  out["mode"] = map.mode;
  Json gains = Json::array(), consistent = Json::array();
  for (std::size_t k = 0; k < map.energy_gain.size(); ++k) {
    gains.push_back(map.energy_gain[k] != 0);
    consistent.push_back(map.modes_consistent[k] != 0);
  }
  out["energy_gain"] = std::move(gains);
  out["modes_consistent"] = std::move(consistent);
  // The sticking mode's bound e_stick, in closed form when the pair is the only contact point of the impact.
  out["e_stick"] = nullptr;
  if (pairs.size() == 1) {
    try {
      const SingleContactFriction contact = SingleContactFriction::of(proj, qd_minus, pairs[0]);
      out["e_stick"] = number_or_null(contact.sticking_restitution_bound());
    } catch (const std::invalid_argument&) {
      // Other rows not at rest: no closed form; the grid says it all.
    }
  }
  out["at"] = {{"mu", mu_to_json(mine.mu)},
               {"e", own.restitution(mine.normal_row)},
               {"mode", friction_mode_name(mine.mode)},
               {"direction", mine.direction},
               {"energy_change", own.kinetic_minus > 0.0 ? own.kinetic_energy_change / own.kinetic_minus : 0.0},
               {"energy_gain", own.flags.energy_gain}};
  return out;
}

Json frictional_impact_to_json(const Projection& proj, const FrictionalImpactResult& result, ImpactDetail detail) {
  const bool full = detail == ImpactDetail::Full;
  Json out;
  // Sizes and the virtual mass of the projection of the whole A.
  out["n"] = proj.n();
  out["m"] = proj.m();
  out["rank"] = proj.rank();
  out["nu"] = proj.nu();
  out["nu_range"] = {proj.nu_lower(), proj.nu_upper()};
  out["nu_optimal"] = proj.optimal_nu();
  out["cond_Mc"] = proj.cond_constraint_inertia();
  // The projection of the whole A (the modes' own projector is S below).
  if (full) {
    out["P"] = to_json(proj.null_projector());
    out["Mc"] = to_json(proj.constraint_inertia());
  }
  // Velocities, impulses and energies, as in the frictionless document.
  out["restitution"] = to_json(result.restitution);
  out["qd_minus"] = to_json(result.qd_minus);
  out["qd_plus"] = to_json(result.qd_plus);
  out["i_f"] = to_json(result.impulse);
  out["i_lambda"] = to_json(result.impulse_multipliers);
  out["phid_minus"] = to_json(result.velocity_minus);
  out["phid_plus"] = to_json(result.velocity_plus);
  out["K_minus"] = result.kinetic_minus;
  out["K_plus"] = result.kinetic_plus;
  out["W_loss"] = result.kinetic_energy_change;
  out["W_constraint"] = result.constraint_work;
  out["gamma"] = result.energy_ratio;  // NaN (K⁻ = 0) is written as null
  out["newton_residual"] = result.newton_residual;
  out["flags"] = {{"tensile_impulse", result.flags.tensile_impulse},
                  {"approach_after_impact", result.flags.approach_after_impact},
                  {"energy_gain", result.flags.energy_gain}};
  // The projector of the modes used and its reflection.
  if (full) {
    out["S"] = to_json(result.projector);
    out["R"] = to_json(Matrix(Matrix::Identity(proj.n(), proj.n()) - 2.0 * result.projector));
  }
  // Each frictional contact point.
  Json friction;
  friction["pairs"] = Json::array();
  for (const FrictionPairResult& r : result.pairs) {
    Json pair;
    pair["normal_row"] = r.normal_row;
    pair["tangent_row"] = r.tangent_row;
    pair["mu"] = mu_to_json(r.mu);
    pair["mode"] = friction_mode_name(r.mode);
    pair["direction"] = r.direction;
    pair["i_n"] = r.normal_impulse;
    pair["i_t"] = r.tangential_impulse;
    pair["phid_minus"] = r.approach_minus;
    pair["phid_plus"] = r.approach_plus;
    pair["slip_minus"] = r.slip_minus;
    pair["slip_plus"] = r.slip_plus;
    pair["mu_critical"] = number_or_null(r.critical_mu);
    pair["discriminator"] = number_or_null(r.discriminator);
    pair["cone_angle"] = r.cone_angle;
    pair["sticking_cone_angle"] = r.sticking_cone_angle;
    pair["sticking_impulse"] = {r.sticking_normal_impulse, r.sticking_tangential_impulse};
    pair["slip_stopped"] = r.slip_stopped;
    pair["slip_reversed"] = r.slip_reversed;
    pair["W_normal"] = r.normal_work;
    pair["W_tangential"] = r.tangential_work;
    friction["pairs"].push_back(std::move(pair));
  }
  friction["modes_consistent"] = result.modes_consistent;
  friction["combinations_tried"] = result.combinations_tried;
  friction["velocity_rows"] = result.velocity_rows;
  // The sticking-mode impact and its energetic consistency (the paper's QMI with E = diag(e, 0, ...)).
  const ImpactResult& sticking = result.sticking;
  Json stick;
  stick["qd_plus"] = to_json(sticking.qd_plus);
  stick["i_lambda"] = to_json(sticking.impulse_multipliers);
  stick["W_loss"] = sticking.kinetic_energy_change;
  stick["gamma"] = sticking.energy_ratio;
  if (full) stick["Q"] = to_json(sticking.consistency_matrix);
  stick["qmi_max_eig"] = sticking.qmi_max_eig;
  stick["energy_consistent"] = sticking.energy_consistent;
  friction["sticking"] = std::move(stick);
  out["friction"] = std::move(friction);
  if (full) {
    Json identities = Json::object();
    for (const auto& [name, value] : frictional_impact_identities(proj, result)) identities[name] = value;
    out["identities"] = identities;
  }
  return out;
}

}  // namespace oblique
