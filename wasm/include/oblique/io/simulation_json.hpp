// JSON views of a simulation: one impact record (for the playground's panels), its summary (for the log,
// the page's frames and the CLI) and the `oblique simulate` document (samples and the impact log). The
// simulator itself (simulator.hpp) knows no JSON.
#pragma once

#include "oblique/io/json_io.hpp"
#include "oblique/scenario/scenario.hpp"
#include "oblique/simulation/simulator.hpp"

namespace oblique {

/// One record for the panels: t, points, contacts, normal_rows, positions, normals, iterations and
/// scheduled; M, A, iu (when an impulse was applied) and unilateral of the impact (with qd_minus and
/// restitution as E, the analyzeImpact input that solves it again, e.g. at another ν); then every key of
/// impact_result_to_json, matrices and identities included. The log keeps no matrix: the projections are
/// recomputed from the record's M and A (ImpactRecord::projection, O(n³)), bit-identical each time.
Json impact_record_to_json(const ImpactRecord& record);

/// Whether a summary carries the scalars of the impact's projections — rank, nu, nu_range, nu_optimal and
/// cond_Mc, which ImpactRecord::projection_scalars computes on first use (O(t³) in the t coordinates A
/// touches), and λ_max(EQE − Q) with energy_consistent where the sparse path's solve left them
/// (ImpactRecord::energy_consistency) — or leaves them out (those two null there): the page's live log,
/// which shows them only with the impact's panels.
enum class SummaryScalars { Included, Omitted };

/// The same record without the matrices, M, A, iu, unilateral, velocity_plane and identities (what the log,
/// the CLI and the page's frames list): the record's keys, then those of impact_result_to_json at
/// ImpactDetail::Summary in its order, from what the record keeps — no matrix recomputed.
Json impact_record_summary_to_json(const ImpactRecord& record, SummaryScalars scalars = SummaryScalars::Included);

/// The `oblique simulate` document: the scenario run for `duration` seconds, sampled every
/// `sample_interval` seconds (t = 0, Δ, 2Δ, ..., and `duration`): keys t, q, qd (arrays of samples),
/// energy {kinetic, potential, total}, violation, and impacts (each impact_record_summary_to_json: t,
/// contacts, gamma, W_loss, qd_minus, qd_plus, i_lambda, flags, ...), with bodies (names), dofs, duration
/// and sample, and complete (true: the CLI, which streams the same document, writes false when
/// --max-seconds stopped it). Throws std::invalid_argument naming "duration" or "sample" on bad values (and
/// the scenario's field when it cannot be simulated).
Json simulate_to_json(const Scenario& scenario, double duration, double sample_interval);

/// The first keys of that document: title, bodies, dofs, duration, sample.
Json simulation_header_json(const Scenario& scenario, double duration, double sample_interval);

}  // namespace oblique
