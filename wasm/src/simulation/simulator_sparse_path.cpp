// The simulator's sparse path: what every scene (n ≥ kSparseSmoothPhaseCoordinates = 0, simulator.hpp) does
// through the Delassus factorisation of K = A M⁻¹ Aᵀ (delassus.hpp, sparse_dynamics.hpp) instead of the
// dense projections, with the dense solve kept for nearly dependent kept rows (sparse_path.hpp). The
// smooth phase's branch is in simulator.cpp (smooth_dynamics); the stages here are called from their dense
// counterparts there when sparse_smooth_phase() holds: the impact solve and event location.
#include <memory>

#include "oblique/sparse/delassus.hpp"
#include "oblique/simulation/event_location.hpp"
#include "oblique/math/scaled_projection.hpp"
#include "oblique/simulation/simulator.hpp"
#include "oblique/sparse/sparse_dynamics.hpp"
#include "oblique/sparse/sparse_path.hpp"
#include "simulation/simulator_internal.hpp"

namespace oblique {

ImpactResult Simulator::sparse_impact(ConstraintRows& rows, const Vector& qd_minus, const Vector& restitution,
                                      const Vector& impulse, const std::vector<bool>& unilateral, std::uint64_t key) {
  // reads (M, A), q̇⁻, E, i_u ⇒ returns the impact of solve_impact_on, from one factorisation (a fresh one's bits):
  // K μ = A v + Π E A q̇⁻, q̇⁺ = v − M⁻¹Aᵀμ (v = q̇⁻ + M⁻¹i_u). The same fields, flags and tolerances as
  // the dense solve, but Ẽ, Q and λ_max(EQE − Q), left to the record (ImpactRecord::energy_consistency).
  // These are solve_impact_large's steps; the budget may stop the call inside the factorisation (kept in
  // progress by its workspace) and between the dense fallback's parts, each kept for the replay of the step
  // as soon as it is done (so that the next call goes further).
  // A in compressed rows as assembled (the Γ rule's), or converted from the dense rows.
  const double m = static_cast<double>(rows.rows());
  const Vector& mass = model_.mass_diagonal();
  const std::uint64_t dense_key = detail::InputKey(detail::kDenseImpactEvaluation).add_key(key).value();
  if (!replayed(dense_key, 0)) {
    work_.budget.begin(work::sparse_impact_solve(static_cast<double>(n_), m));
    // A fresh factorisation's bits from the workspace's (factorize_as_new), its analyses reused; its
    // dependent rows' searches and null basis charged piece by piece, the call stopping between them.
    DelassusFactorization& delassus = work_.impact_delassus.get();
    SparseJacobian converted;
    delassus.factorize_as_new(detail::compressed_jacobian(rows, converted), mass, budget_gate());
    if (sparse_solve_accurate(delassus)) {
      return solve_impact_sparse(delassus, qd_minus, Restitution::rows(restitution), impulse, unilateral);
    }
    // Kept rows nearly dependent (sparse_path.hpp): the dense solve, as the verdict kept says.
    detail::Evaluation verdict;
    verdict.key = dense_key;
    work_.replay.record(std::move(verdict));
  }
  // The dense projections.
  const std::uint64_t projection_key = detail::InputKey(detail::kImpactProjectionEvaluation).add_key(key).value();
  const Matrix& jacobian = rows.dense_jacobian();
  std::shared_ptr<const ScaledProjection> projection;
  if (const detail::Evaluation* known = replayed(projection_key, 0)) {
    projection = known->projection;
  } else {
    const double touched = static_cast<double>(touched_coordinates(jacobian).size());
    work_.budget.begin(work::dense_fallback_projection(touched, m));
    projection = std::make_shared<const ScaledProjection>(mass, jacobian);
    detail::Evaluation evaluation;
    evaluation.key = projection_key;
    evaluation.projection = projection;
    work_.replay.record(std::move(evaluation));
  }
  // The dense impact solve on them.
  work_.budget.begin(work::dense_fallback_impact(static_cast<double>(projection->touched().size()), m));
  return projection->impact(qd_minus, restitution, impulse, unilateral);
}

double Simulator::sparse_locate_event(double h, double& hi) {
  // reads the step start and its trial end ⇒ returns lo and sets hi, as locate_event does (no event at lo,
  // one at hi, hi − lo ≤ event_tolerance, work.lo_* and work.hi_* the real sub-step states there).
  // A gap that closes (the event at the end is a crossing, no active contact pulls there): the crossing is
  // estimated on the step's quintic Hermite dense output from (q, q̇, q̈) at both ends, on the gaps alone
  // (free: no dynamics; the active contacts' λ, which would cost an evaluation per probe, count as no
  // event there), then bracketed by real RK4 sub-steps around the estimate with every event function
  // (event_location.hpp). q̈ at the trial end costs one evaluation. A contact that would pull at the end: the
  // re-integrating regula falsi, as on the dense path (measured: estimating λ on the dense output costs
  // more evaluations than it saves).
  const std::size_t events = work_.values_start.size();
  const std::size_t points = static_cast<std::size_t>(contact_point_count());
  bool gaps_only = true;
  for (int k : derived_.active_points) gaps_only = gaps_only && !(work_.values_trial[static_cast<std::size_t>(k)] < 0.0);
  if (!gaps_only) return locate_event(h, hi);
  Vector end_qdd;
  evaluate_dynamics(work_.trial_q, work_.trial_qd, end_qdd, nullptr);
  const HermiteStep dense(h, state_.q, state_.qd, derived_.qdd, work_.trial_q, work_.trial_qd, end_qdd);
  const EventFunction gaps = [this, points, events](const Vector& q, const Vector&, std::vector<double>& values) {
    values.resize(events);
    for (std::size_t k = 0; k < points; ++k) {
      values[k] = state_.active[k] ? 1.0 : gap_of(static_cast<int>(k), q) - work_.gap_threshold[k];
    }
    pair_event_values(q, values);
  };
  const EventBracket bracket = oblique::locate_event(
      h, state_.q, state_.qd, work_.values_start, work_.trial_q, work_.trial_qd, work_.values_trial,
      [this, events](const Vector& q, const Vector& qd, std::vector<double>& values) {
        values.resize(events);
        event_values(q, qd, values);
      },
      [this](double tau, Vector& q, Vector& qd) { rk4(tau, q, qd); }, &dense, scenario_.integrator.event_tolerance,
      &gaps);
  hi = bracket.hi;
  work_.values_lo = bracket.lo_values;
  work_.values_hi = bracket.hi_values;
  work_.lo_q = bracket.lo_q;
  work_.lo_qd = bracket.lo_qd;
  work_.hi_q = bracket.hi_q;
  work_.hi_qd = bracket.hi_qd;
  return bracket.lo;
}

}  // namespace oblique
