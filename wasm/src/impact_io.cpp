#include "oblique/impact_io.hpp"

#include <optional>
#include <string>
#include <vector>

#include "oblique/json_reader.hpp"

namespace oblique {

namespace {

const KeyList kInputFields = {"M", "A", "qd", "e", "E", "iu", "nu", "unilateral"};

}  // namespace

Json impact_result_to_json(const Projection& proj, const ImpactResult& result, ImpactDetail detail) {
  const bool full = detail == ImpactDetail::Full;
  Json out;
  // Sizes and the virtual mass.
  out["n"] = proj.n();
  out["m"] = proj.m();
  out["rank"] = proj.rank();
  out["nu"] = proj.nu();
  out["nu_range"] = {proj.nu_lower(), proj.nu_upper()};
  out["cond_Mc"] = proj.cond_constraint_inertia();
  // The operators of the paper.
  if (full) {
    out["P"] = to_json(proj.null_projector());
    out["Mc"] = to_json(proj.constraint_inertia());
    out["S"] = to_json(proj.oblique_projector());
    out["R"] = to_json(proj.reflection());
    out["E_tilde"] = to_json(result.restitution_transfer);
    out["Q"] = to_json(result.consistency_matrix);
  }
  // Velocities, impulses and energies.
  out["restitution"] = to_json(result.restitution);
  out["qd_minus"] = to_json(result.qd_minus);
  out["qd_plus"] = to_json(result.qd_plus);
  out["i_f"] = to_json(result.impulse);
  out["i_lambda"] = to_json(result.impulse_multipliers);
  out["phid_minus"] = to_json(result.normal_velocity_minus);
  out["phid_plus"] = to_json(result.normal_velocity_plus);
  out["K_minus"] = result.kinetic_minus;
  out["K_plus"] = result.kinetic_plus;
  out["W_loss"] = result.kinetic_energy_change;
  out["W_constraint"] = result.constraint_work;
  out["gamma"] = result.energy_ratio;  // NaN (K⁻ = 0) is written as null
  // Energetic consistency, the Newton law and what is not physical.
  out["qmi_max_eig"] = result.qmi_max_eig;
  out["energy_consistent"] = result.energy_consistent;
  out["newton_residual"] = result.newton_residual;
  out["flags"] = {{"tensile_impulse", result.flags.tensile_impulse},
                  {"approach_after_impact", result.flags.approach_after_impact},
                  {"energy_gain", result.flags.energy_gain}};
  if (full) {
    Json identities = Json::object();
    for (const auto& [name, value] : impact_identities(proj, result)) identities[name] = value;
    out["identities"] = identities;
  }
  return out;
}

Json analyze_impact_json(const Json& input) {
  // One problem at a time: each read throws the first one found.
  IssueList issues;
  JsonReader r(issues, PathStyle::Field);
  const auto stop_at_first = [&] { throw_first(issues.take()); };

  // The document is an object with known fields only.
  if (!input.is_object()) {
    r.add("input", "must be a JSON object with M, A, qd and e or E, got " + describe_json(input));
    stop_at_first();
  }
  r.keys(input, "", kInputFields, kInputFields, "the impact document");
  stop_at_first();
  const auto required = [&](const char* key, const char* what) -> const Json& {
    const Json* value = JsonReader::find(input, key);
    if (value == nullptr) {
      r.add(key, std::string("missing (") + what + ")");
      stop_at_first();
    }
    return *value;
  };
  // Sizes first: the cost grows as n³ and m³.
  const auto bound_rows = [&](const Json& value, const char* key, int max, const char* what) {
    if (value.is_array() && value.size() > static_cast<std::size_t>(max)) {
      r.add(key, "has " + std::to_string(value.size()) + " rows; at most " + std::to_string(max) + " " + what);
      stop_at_first();
    }
  };

  // M, A, qd.
  const Json& mass_json = required("M", "the inertia matrix, an array of rows");
  bound_rows(mass_json, "M", kMaxImpactCoordinates, "(coordinates; the cost grows as their cube)");
  const Json& jacobian_json = required("A", "the constraint Jacobian, an array of rows; [] for none");
  bound_rows(jacobian_json, "A", kMaxImpactRows, "(the cost grows as their cube)");
  Matrix mass, jacobian;
  Vector qd_minus;
  r.matrix(mass_json, "M", mass);
  stop_at_first();
  r.matrix(jacobian_json, "A", jacobian, mass.cols());
  stop_at_first();
  r.vector(required("qd", "the pre-impact velocity"), "qd", qd_minus);
  stop_at_first();

  // Restitution: exactly one of e and E.
  if (input.contains("e") && input.contains("E")) {
    r.add("E", "give either e or E, not both");
    stop_at_first();
  }
  Restitution restitution;
  if (input.contains("E")) {
    Vector per_row;
    r.vector(input.at("E"), "E", per_row);
    stop_at_first();
    restitution = Restitution::rows(per_row);
  } else {
    double e = 0.0;
    r.number_value(required("e", "the restitution coefficient, or E with one per row of A"), "e", e);
    stop_at_first();
    restitution = Restitution::uniform(e);
  }

  // Optional i_u, ν and the unilateral mask.
  Vector iu;
  if (input.contains("iu")) r.vector(input.at("iu"), "iu", iu);
  std::optional<double> nu;
  r.optional_number(input, "", "nu", nu, "null: the condition-optimal virtual mass");
  stop_at_first();
  std::vector<bool> unilateral;
  if (input.contains("unilateral")) {
    const Json& mask = input.at("unilateral");
    if (!mask.is_array()) r.add("unilateral", "must be an array of booleans, one per row of A");
    for (std::size_t i = 0; mask.is_array() && i < mask.size(); ++i) {
      if (!mask[i].is_boolean()) {
        r.add(r.child("unilateral", i), "must be true or false");
        break;
      }
      unilateral.push_back(mask[i].get<bool>());
    }
    stop_at_first();
  }

  const Projection proj(mass, jacobian, nu);
  return impact_result_to_json(proj, solve_impact(proj, qd_minus, restitution, iu, unilateral));
}

}  // namespace oblique
