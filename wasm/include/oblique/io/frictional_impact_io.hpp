// The friction of the `oblique impact` document (impact_io.hpp): with `mu`, the impact has Coulomb friction
// at the contact points listed in `pairs` (frictional_impact.hpp), and the output is the frictional one.
//
// Input, besides M, A, qd, e or E, iu, nu and unilateral:
//   pairs  [[normal row, tangential row], ...]: the rows of A of each frictional contact point (0-based);
//          the two rows measure the point's approach and slip speeds in the same units. Required with mu.
//   mu     Coulomb's coefficient: a number ≥ 0 for every pair, or an array with one per pair; "stick" (or
//          the JS engine's "Infinity") for a point that never slips. Required with pairs.
//   A per-row E must be 0 on tangential rows; a global e applies to every other row.
// Output: n, m, rank, nu, nu_range, nu_optimal, cond_Mc, P, Mc (of the projection of the whole A), restitution,
//   qd_minus, qd_plus, i_f, i_lambda (per row of A; a slipping point's tangential row carries −μ s i_n),
//   phid_minus, phid_plus (A q̇±, every row), K_minus, K_plus, W_loss (= K⁺ − K⁻), W_constraint, gamma,
//   newton_residual, flags {tensile_impulse, approach_after_impact, energy_gain}, S and R (= I − 2S) of the
//   modes used, friction {pairs: [...], modes_consistent, combinations_tried, velocity_rows, sticking {...}},
//   identities {...}; and row_scale when rows were rescaled. Each entry of friction.pairs: normal_row,
//   tangent_row, mu ("stick" for +∞), mode ("stick"/"slip"), direction, i_n, i_t, phid_minus, phid_plus,
//   slip_minus, slip_plus, mu_critical (null: +∞), discriminator (null for "stick"), cone_angle,
//   sticking_cone_angle (radians), sticking_impulse [i_n, i_t], slip_stopped, slip_reversed, W_normal,
//   W_tangential. friction.sticking: the sticking-mode impact (every pair sticking): qd_plus, i_lambda,
//   W_loss, gamma, Q, qmi_max_eig, energy_consistent.
#pragma once

#include <optional>
#include <vector>

#include "oblique/friction/frictional_impact.hpp"
#include "oblique/io/impact_io.hpp"

namespace oblique {

/// Reads `pairs` and `mu` of an impact document whose A has `rows` rows. Throws std::invalid_argument
/// naming the field ("pairs[1][0]: must be a whole number, got 1.5", "mu[2]: must be ≥ 0, got -1").
std::vector<FrictionPair> read_friction_pairs(const Json& input, int rows);

/// Gives both rows of a pair that equilibrate_rows rescaled one factor, the power of two that brings the
/// longer of the two to a length in [½, 1), so that the cone |i_t| ≤ μ i_n means what it meant;
/// `row_scale` and `jacobian` are updated, exactly.
void equilibrate_pairs(Matrix& jacobian, Vector& row_scale, const std::vector<FrictionPair>& pairs);

/// Solves the frictional impact of a read document and writes its output object (the header comment).
Json analyze_frictional_impact(const Json& input, const Matrix& mass, Matrix jacobian, Vector row_scale,
                               const Vector& qd_minus, const Restitution& restitution, const Vector& external_impulse,
                               std::optional<double> nu, const std::vector<bool>& unilateral);

/// The (μ, e) map of one frictional pair of an impact document (the input of analyze_impact_json, with
/// `mu` and `pairs`): friction_energy_map over μ ∈ [0, mu_max], e ∈ [0, 1] of that pair, every other
/// coefficient as the document gives it. Output: {pair, resolution, mu_max, mu: [per column], e: [per
/// row], energy_change, mode, energy_gain, modes_consistent (row-major, entry row·resolution + col),
/// mu_critical: [per row, null for +∞], e_stick (single contact point with the other rows joints at rest:
/// the sticking mode's bound, else null), at: {mu, e, mode, energy_change, energy_gain} of the document's
/// own pair}. `iu` must be absent or 0 (the map is of the impact alone); `unilateral` changes no energy.
/// Throws std::invalid_argument naming the field of the document, "pair", "mu_max" or
/// "resolution".
Json friction_energy_map_json(const Json& input, int pair, double mu_max, int resolution);

/// The output object of a solved frictional impact.
Json frictional_impact_to_json(const Projection& proj, const FrictionalImpactResult& result,
                               ImpactDetail detail = ImpactDetail::Full);

}  // namespace oblique
