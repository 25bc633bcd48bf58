// The `oblique impact` document: one JSON object in, one JSON object out. Shared by the CLI and the
// WebAssembly engine so that a script can switch between them without change.
//
// Input:  M (rows), A (rows, may be []), qd (q̇⁻), e (number) or E (one per row of A); optional iu
//         (external impulse), nu (virtual mass; default optimal), unilateral (one boolean per row of A,
//         default all true: which rows may be flagged); with `pairs` and `mu`, Coulomb friction at those
//         [normal row, tangential row] pairs, and the output is frictional_impact_io.hpp's.
// Rows of A whose length is far from 1 (outside [2⁻²⁰, 2²⁰]) are rescaled exactly by powers of two first
// (equilibrate_rows); the output then has `row_scale`, the factor of each row, and φ̇, i_λ, Q are those of
// the rescaled rows. Results that overflow double precision are refused with a message naming M or qd.
// Output: n, m, rank, nu, nu_range, nu_optimal, cond_Mc, P, Mc, S, R, E_tilde, Q, qd_plus, i_f, i_lambda, phid_minus,
//         phid_plus, K_minus, K_plus, W_loss, W_constraint, gamma, qmi_max_eig, energy_consistent, newton_residual,
//         restitution, flags {tensile_impulse, approach_after_impact, energy_gain}, velocity_plane {allowed,
//         blocked, plus: [along (I − S)q̇⁻, along Sq̇⁻], outside} (impact.hpp), identities {...}.
//
// Fields are named as users write them ("M[1][0]", "unilateral[2]"), the form the Matrix lab marks.
// The cost of an impact grows as n³ and m³ (the projections of M, the eigenvalues of the m×m Q), so the
// document is bounded: at most kMaxImpactCoordinates coordinates and kMaxImpactRows rows of A.
#pragma once

#include "oblique/math/impact.hpp"
#include "oblique/math/impact_solution.hpp"
#include "oblique/io/json_io.hpp"

namespace oblique {

/// Most coordinates n (the size of M) of one impact document; a scenario has at most 192.
inline constexpr int kMaxImpactCoordinates = 256;
/// Most rows m of A in one impact document.
inline constexpr int kMaxImpactRows = 512;

/// Checks `input`, solves the impact and returns the output object. Throws std::invalid_argument whose
/// message starts with the offending field ("M[1][0]: must be a finite number, got NaN", "A: has 4000
/// rows; at most 512").
Json analyze_impact_json(const Json& input);

/// cond(Mc) of the M and A of `input` (an analyzeImpact input or an impact record; other keys are ignored)
/// at each ν of `nus` (each finite and > 0), from the spectrum of the paper's appendix without refactorising:
/// {nu_optimal, nu_range, cond_Mc: [...]}. Throws std::invalid_argument naming "M", "A" or "nu[i]".
Json condition_curve_json(const Json& input, const Vector& nus);

/// What impact_result_to_json writes besides the scalars and vectors.
enum class ImpactDetail {
  Full,     ///< also the matrices P, Mc, S, R, E_tilde, Q and the identities (O(n³)): for the panels
  Summary,  ///< scalars and vectors only: for long impact logs
};

/// The output object of one solved impact (shared with the simulator's impact log).
Json impact_result_to_json(const Projection& proj, const ImpactResult& result,
                           ImpactDetail detail = ImpactDetail::Full);

/// The keys of impact_result_to_json at ImpactDetail::Summary, in its order, from an impact's sizes (n
/// coordinates, m rows of A), the scalars of its projections and its result, without the projection itself
/// (a logged impact keeps no matrix: impact_log.hpp). With &ProjectionScalars::of(proj) it writes exactly
/// what impact_result_to_json(proj, result, ImpactDetail::Summary) writes; with a null `projection` it
/// leaves out rank, nu, nu_range, nu_optimal and cond_Mc. `consistency`, when given, supplies qmi_max_eig
/// and energy_consistent where `result` left them (NaN: ImpactRecord::energy_consistency); without it they
/// are written null there.
Json impact_summary_to_json(Eigen::Index n, Eigen::Index m, const ProjectionScalars* projection,
                            const ImpactResult& result, const EnergyConsistency* consistency = nullptr);

}  // namespace oblique
