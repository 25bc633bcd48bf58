#include "oblique/io/impact_io.hpp"

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "math/checks.hpp"
#include "oblique/io/frictional_impact_io.hpp"
#include "oblique/io/json_reader.hpp"

namespace oblique {

using detail::fail;
using detail::format_number;

namespace {

const KeyList kInputFields = {"M", "A", "qd", "e", "E", "iu", "nu", "unilateral",
                               "mu", "pairs"};  // friction: frictional_impact_io.hpp

/// Largest |entry| of a matrix or vector (0 when empty).
template <typename Derived>
double largest_entry(const Eigen::MatrixBase<Derived>& x) {
  return x.size() ? x.cwiseAbs().maxCoeff() : 0.0;
}

/// Smallest nonzero |entry| of a matrix or vector (0 when it has none).
template <typename Derived>
double smallest_nonzero_entry(const Eigen::MatrixBase<Derived>& x) {
  double smallest = 0.0;
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    const double a = std::abs(x.reshaped()(i));
    if (a > 0.0 && (smallest == 0.0 || a < smallest)) smallest = a;
  }
  return smallest;
}

/// Every output of the impact must be a finite number (γ excepted: NaN when K⁻ = 0). Inputs of extreme
/// size (M = 10³⁰⁸·I, q̇⁻ of 10¹⁵⁵, an entry of M or a ν of 10⁻³²³, i_u of 10³⁰⁰) overflow double precision
/// on the way, or lose every digit to round-off (an M whose entries span 10³⁰⁰: cond(Mc) < 1); this says so,
/// naming the input at fault, instead of returning infinities (which JSON writes as null) or nonsense.
void check_finite_outputs(const Projection& proj, const ImpactResult& result, const Matrix& mass,
                          const Vector& qd_minus, const Vector& iu, const std::optional<double>& nu) {
  const auto finite = [](const auto& x) { return x.size() == 0 || x.allFinite(); };
  const char* quantity = nullptr;
  if (!std::isfinite(result.kinetic_minus)) quantity = "K⁻ = ½q̇⁻ᵀMq̇⁻";
  else if (!std::isfinite(proj.nu()) || !std::isfinite(proj.cond_constraint_inertia())) quantity = "ν and cond(Mc)";
  else if (!finite(proj.oblique_projector()) || !finite(proj.constraint_inertia())) quantity = "S and Mc";
  else if (!finite(result.qd_plus) || !std::isfinite(result.kinetic_plus)) quantity = "q̇⁺ and K⁺";
  else if (!finite(result.impulse) || !finite(result.impulse_multipliers)) quantity = "the impulses i_f and i_λ";
  else if (!finite(result.consistency_matrix) || !std::isfinite(result.qmi_max_eig)) quantity = "Q and λmax(EQE − Q)";
  else if (!std::isfinite(result.kinetic_energy_change) || !std::isfinite(result.newton_residual)) quantity = "W_loss";
  // A condition number below 1 (by more than round-off: it is exactly 1 at the optimal ν of one row) is
  // not a result: M too ill-conditioned for any digit to survive.
  const double cond = proj.cond_constraint_inertia();
  const bool impossible = !quantity && cond < 1.0 - 1e-6;
  // A negative kinetic energy is not a result either: M's positive definiteness lost to round-off (entries
  // of 10³⁰⁰ beside entries of 1, whose asymmetry and small block fall below its precision).
  const bool indefinite = !quantity && !impossible && (result.kinetic_minus < 0.0 || result.kinetic_plus < 0.0);
  if (!quantity && !impossible && !indefinite) return;
  // The input of extreme size, in this order (A's rows were brought to unit length by equilibrate_rows): an
  // entry of M far from 1 either way, a ν given far from 1, q̇⁻, i_u; M when none stands out (its condition).
  const double m_max = largest_entry(mass);
  const double m_min = smallest_nonzero_entry(mass);
  const auto extreme = [](double x) { return x > 1e150 || (x > 0.0 && x < 1e-150); };
  std::string field = "M";
  std::string sizes = "|M| entries from " + format_number(m_min) + " to " + format_number(m_max);
  if (extreme(m_max) || extreme(m_min)) {
    // M itself.
  } else if (nu && extreme(*nu)) {
    field = "nu";
    sizes = "ν = " + format_number(*nu) + ", " + sizes;
  } else if (largest_entry(qd_minus) > 1e100) {
    field = "qd";
    sizes = "largest |q̇⁻| entry " + format_number(largest_entry(qd_minus)) + ", " + sizes;
  } else if (largest_entry(iu) > 1e100) {
    field = "iu";
    sizes = "largest |i_u| entry " + format_number(largest_entry(iu)) + ", " + sizes;
  }
  const std::string what = impossible   ? "cond(Mc) = " + format_number(cond) + " < 1: lost to round-off"
                           : indefinite ? std::string("a negative kinetic energy: M is not positive definite to the "
                                                      "precision its entries allow")
                                        : std::string(quantity) + " overflows double precision";
  fail(field, what + " (" + sizes + "); scale the units so that M, ν, q̇⁻ and i_u are nearer 1 (S, R, γ do " +
                  "not depend on the units)");
}

/// Refuses an M without coordinates (n = 0: rows of A would have no entries, and there is nothing to move).
void require_coordinates(JsonReader& r, const Matrix& mass) {
  if (mass.rows() == 0) r.add("M", "must have at least one row (one per coordinate), got []");
}

/// Refuses an array of more than `max` rows before it is read (the cost of an impact grows as their cube).
void bound_rows(JsonReader& r, const Json& value, const char* key, int max, const char* what) {
  if (value.is_array() && value.size() > static_cast<std::size_t>(max)) {
    r.add(key, "has " + std::to_string(value.size()) + " rows; at most " + std::to_string(max) + " " + what);
  }
}

/// The field `key` of `input`, or the reader's first problem thrown: "missing (what it is)".
const Json& required_field(JsonReader& r, IssueList& issues, const Json& input, const char* key, const char* what) {
  const Json* value = JsonReader::find(input, key);
  if (value == nullptr) {
    r.add(key, std::string("missing (") + what + ")");
    throw_first(issues.take());
  }
  return *value;
}

/// Reads M (n×n, n ≥ 1) and A (m×n) of an impact document, each bounded in size before it is read, and
/// throws the first problem found. Rows of A are not yet equilibrated.
void read_mass_and_jacobian(JsonReader& r, IssueList& issues, const Json& input, Matrix& mass, Matrix& jacobian) {
  const auto stop_at_first = [&] { throw_first(issues.take()); };
  // Bounded first: the cost grows as n³ and m³.
  const Json& mass_json = required_field(r, issues, input, "M", "the inertia matrix, an array of rows");
  bound_rows(r, mass_json, "M", kMaxImpactCoordinates, "(coordinates; the cost grows as their cube)");
  const Json& jacobian_json =
      required_field(r, issues, input, "A", "the constraint Jacobian, an array of rows; [] for none");
  bound_rows(r, jacobian_json, "A", kMaxImpactRows, "(the cost grows as their cube)");
  stop_at_first();
  // Then read: M square with at least one coordinate, A with as many columns as M.
  if (r.matrix(mass_json, "M", mass)) require_coordinates(r, mass);
  stop_at_first();
  r.matrix(jacobian_json, "A", jacobian, mass.cols());
  stop_at_first();
}

}  // namespace

namespace {

/// Sizes and the virtual mass: n, m, then (unless `p` is null) rank, nu, nu_range, nu_optimal
/// (√(λ_min≠0 λ_max), as Projection::optimal_nu computes it), cond_Mc.
void write_sizes(Json& out, Eigen::Index n, Eigen::Index m, const ProjectionScalars* projection) {
  out["n"] = n;
  out["m"] = m;
  if (projection == nullptr) return;
  const ProjectionScalars& p = *projection;
  out["rank"] = p.rank;
  out["nu"] = p.nu;
  out["nu_range"] = {p.nu_lower, p.nu_upper};
  out["nu_optimal"] = std::sqrt(p.nu_lower * p.nu_upper);
  out["cond_Mc"] = p.cond;
}

/// Velocities, impulses and energies; energetic consistency (from `consistency` where the result left it),
/// the Newton law and what is not physical.
void write_outcome(Json& out, const ImpactResult& result, const EnergyConsistency* consistency = nullptr) {
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
  // Not established (null) where the sparse path's solve left λ_max(EQE − Q) and no `consistency` is given:
  // the page's live log.
  if (std::isnan(result.qmi_max_eig) && consistency != nullptr) {
    out["qmi_max_eig"] = consistency->qmi_max_eig;
    out["energy_consistent"] = consistency->consistent;
  } else {
    out["qmi_max_eig"] = result.qmi_max_eig;
    out["energy_consistent"] = std::isnan(result.qmi_max_eig) ? Json(nullptr) : Json(result.energy_consistent);
  }
  out["newton_residual"] = result.newton_residual;
  out["flags"] = {{"tensile_impulse", result.flags.tensile_impulse},
                  {"approach_after_impact", result.flags.approach_after_impact},
                  {"energy_gain", result.flags.energy_gain}};
}

}  // namespace

Json impact_result_to_json(const Projection& proj, const ImpactResult& result, ImpactDetail detail) {
  const bool full = detail == ImpactDetail::Full;
  Json out;
  // Sizes and the virtual mass.
  const ProjectionScalars scalars = ProjectionScalars::of(proj);
  write_sizes(out, proj.n(), proj.m(), &scalars);
  // The operators of the paper.
  if (full) {
    out["P"] = to_json(proj.null_projector());
    out["Mc"] = to_json(proj.constraint_inertia());
    out["S"] = to_json(proj.oblique_projector());
    out["R"] = to_json(proj.reflection());
    out["E_tilde"] = to_json(result.restitution_transfer);
    out["Q"] = to_json(result.consistency_matrix);
  }
  // Velocities, impulses and energies, consistency and flags.
  write_outcome(out, result);
  if (full) {
    // The velocity picture of the panels (impact.hpp: VelocityPlane).
    const VelocityPlane plane = velocity_plane(proj, result);
    out["velocity_plane"] = {{"allowed", plane.allowed}, {"blocked", plane.blocked},
                             {"plus", {plane.plus_allowed, plane.plus_blocked}}, {"outside", plane.outside}};
    Json identities = Json::object();
    for (const auto& [name, value] : impact_identities(proj, result)) identities[name] = value;
    out["identities"] = identities;
  }
  return out;
}

Json impact_summary_to_json(Eigen::Index n, Eigen::Index m, const ProjectionScalars* projection,
                            const ImpactResult& result, const EnergyConsistency* consistency) {
  Json out;
  write_sizes(out, n, m, projection);
  write_outcome(out, result, consistency);
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
    return required_field(r, issues, input, key, what);
  };
  // M, A, qd.
  Matrix mass, jacobian;
  Vector qd_minus;
  read_mass_and_jacobian(r, issues, input, mass, jacobian);
  // Rows of extreme length are still constraints: brought to unit length, exactly, and reported.
  const Vector row_scale = equilibrate_rows(jacobian);
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
  // An i_u given has one entry per coordinate (solve_impact takes an empty one as "none").
  if (input.contains("iu") && r.vector(input.at("iu"), "iu", iu) && iu.size() != mass.rows()) {
    r.add("iu", "must have " + std::to_string(mass.rows()) + " entries (the size of M), got " + std::to_string(iu.size()));
  }
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

  // --- friction (frictional_impact_io.hpp): with `mu` and `pairs`, Coulomb friction at those rows ---
  if (input.contains("mu") || input.contains("pairs")) {
    return analyze_frictional_impact(input, mass, jacobian, row_scale, qd_minus, restitution, iu, nu, unilateral);
  }
  // --- end friction ---
  const Projection proj(mass, jacobian, nu);
  const ImpactResult result = solve_impact(proj, qd_minus, restitution, iu, unilateral);
  check_finite_outputs(proj, result, mass, qd_minus, iu, nu);
  Json out = impact_result_to_json(proj, result);
  if (row_scale.size() && (row_scale.array() != 1.0).any()) out["row_scale"] = to_json(row_scale);
  return out;
}

Json condition_curve_json(const Json& input, const Vector& nus) {
  // One problem at a time, as analyze_impact_json reports them.
  IssueList issues;
  JsonReader r(issues, PathStyle::Field);
  const auto stop_at_first = [&] { throw_first(issues.take()); };
  if (!input.is_object()) {
    r.add("input", "must be a JSON object with M and A, got " + describe_json(input));
    stop_at_first();
  }
  // M and A as an impact document has them, with the same bounds.
  Matrix mass, jacobian;
  read_mass_and_jacobian(r, issues, input, mass, jacobian);
  equilibrate_rows(jacobian);
  for (Eigen::Index i = 0; i < nus.size(); ++i) {
    if (!std::isfinite(nus(i)) || !(nus(i) > 0.0)) {
      fail("nu[" + std::to_string(i) + "]", "must be a finite number > 0, got " + format_number(nus(i)));
    }
  }
  // cond(Mc)(ν) = max(ν, λ_max(Mo)) / min(ν, λ_min≠0(Mo)) (appendix), by the projection itself.
  const Projection proj(mass, jacobian);
  Vector cond(nus.size());
  for (Eigen::Index i = 0; i < nus.size(); ++i) cond(i) = proj.cond_constraint_inertia_for(nus(i));
  Json out;
  out["nu_optimal"] = proj.optimal_nu();
  out["nu_range"] = {proj.nu_lower(), proj.nu_upper()};
  out["cond_Mc"] = to_json(cond);
  return out;
}

}  // namespace oblique
