#include "oblique/impact_io.hpp"

#include <optional>
#include <string>
#include <vector>

#include "checks.hpp"

namespace oblique {

using detail::fail;

namespace {

const char* const kInputFields[] = {"M", "A", "qd", "e", "E", "iu", "nu", "unilateral"};

/// Rejects keys that are not part of the input contract (a typo must not be ignored silently).
void check_known_fields(const Json& input) {
  for (const auto& item : input.items()) {
    bool known = false;
    for (const char* field : kInputFields) known = known || item.key() == field;
    if (!known) fail(item.key(), "unknown field (expected M, A, qd, e or E, iu, nu, unilateral)");
  }
}

/// The value at `key`, or throws "<key>: missing".
const Json& required(const Json& input, const char* key, const char* what) {
  if (!input.contains(key)) fail(key, std::string("missing (") + what + ")");
  return input.at(key);
}

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
    out["Q"] = to_json(result.qmi);
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
  out["W_loss"] = result.energy_loss;
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
  // The document is an object with known fields only.
  if (!input.is_object()) fail("input", "must be a JSON object with M, A, qd and e or E");
  check_known_fields(input);

  // M, A, qd.
  const Matrix mass = matrix_from_json(required(input, "M", "the inertia matrix, an array of rows"), "M");
  const Matrix jacobian =
      matrix_from_json(required(input, "A", "the constraint Jacobian, an array of rows; [] for none"), "A",
                       mass.cols());
  const Vector qd_minus = vector_from_json(required(input, "qd", "the pre-impact velocity"), "qd");

  // Restitution: exactly one of e and E.
  if (input.contains("e") && input.contains("E")) fail("E", "give either e or E, not both");
  Restitution restitution;
  if (input.contains("E")) {
    restitution = Restitution::rows(vector_from_json(input.at("E"), "E"));
  } else {
    restitution = Restitution::uniform(
        number_from_json(required(input, "e", "the restitution coefficient, or E with one per row of A"), "e"));
  }

  // Optional i_u, ν and the unilateral mask.
  const Vector iu = input.contains("iu") ? vector_from_json(input.at("iu"), "iu") : Vector();
  std::optional<double> nu;
  if (input.contains("nu") && !input.at("nu").is_null()) nu = number_from_json(input.at("nu"), "nu");
  std::vector<bool> unilateral;
  if (input.contains("unilateral")) {
    const Json& mask = input.at("unilateral");
    if (!mask.is_array()) fail("unilateral", "must be an array of booleans, one per row of A");
    for (std::size_t i = 0; i < mask.size(); ++i) {
      if (!mask[i].is_boolean()) fail("unilateral[" + std::to_string(i) + "]", "must be true or false");
      unilateral.push_back(mask[i].get<bool>());
    }
  }

  const Projection proj(mass, jacobian, nu);
  return impact_result_to_json(proj, solve_impact(proj, qd_minus, restitution, iu, unilateral));
}

}  // namespace oblique
