// The Simulator's impacts (simulator.hpp): the islands an impact takes (island_set.hpp), the Γ rule
// (activation_rule.hpp), the new active set, the plastic follow-up, and the log.
#include "oblique/simulation/simulator.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include <Eigen/QR>

#include "math/checks.hpp"
#include "simulation/nonnegative_split.hpp"
#include "oblique/friction/contact_friction.hpp"
#include "oblique/friction/frictional_impact_solution.hpp"
#include "oblique/scenario/issues.hpp"
#include "oblique/math/scaled_projection.hpp"
#include "oblique/scenario/scenario_check.hpp"
#include "oblique/sparse/sparse_dynamics.hpp"
#include "oblique/sparse/sparse_path.hpp"
#include "simulation/simulator_internal.hpp"

namespace oblique {

using detail::max_abs;

// ---------------------------------------------------------------------------------------------------------
// Impacts: their islands, the Γ rule (activation_rule.hpp), the new active set, the plastic follow-up, the log
// ---------------------------------------------------------------------------------------------------------

Simulator::ImpactScope Simulator::impact_scope(const std::vector<int>& candidates, const Vector& impulse) {
  // reads the state, Γ* and i_u ⇒ returns the islands of the impact (island_set.hpp).
  const int body_count = n_ / 3;
  IslandSet& islands = work_.islands;
  islands.reset(body_count);
  // Which points touch, measured once for the islands and the Γ rule (choose_impact_set).
  ImpactScope scope;
  scope.touching.resize(static_cast<std::size_t>(contact_point_count()));
  for (int k = 0; k < contact_point_count(); ++k) scope.touching[static_cast<std::size_t>(k)] = gap_of(k, state_.q) <= gap_tolerance(k);
  // The edges: every joint, every point that is active or touches (the Γ rule may add it), the candidates.
  for (const JointDef& joint : scenario_.joints) islands.join(joint.body_a, joint.body_b);
  for (int k = 0; k < contact_point_count(); ++k) {
    if (state_.active[static_cast<std::size_t>(k)] || scope.touching[static_cast<std::size_t>(k)]) {
      const auto [a, b] = bodies_of(k);
      islands.join(a, b);
    }
  }
  // The seeds: the candidates' bodies and those the impulse acts on.
  std::vector<int> seeds;
  for (int k : candidates) {
    const auto [a, b] = bodies_of(k);
    islands.join(a, b);
    seeds.push_back(a);
    seeds.push_back(b);
  }
  for (int body = 0; body < body_count && impulse.size() == n_; ++body) {
    if (impulse.segment(3 * body, 3).cwiseAbs().maxCoeff() > 0.0) seeds.push_back(body);
  }
  bool seeded = false;
  for (int seed : seeds) seeded = seeded || seed >= 0;
  // No seed (the impact of the active set alone, as when a point is made to stick): the whole system.
  scope.bodies = seeded ? islands.covered_by(seeds) : std::vector<char>(static_cast<std::size_t>(body_count), 1);
  for (int j = 0; j < model_.joint_count(); ++j) {
    const JointDef& joint = scenario_.joints[static_cast<std::size_t>(j)];
    const bool covered = (joint.body_a >= 0 && scope.bodies[static_cast<std::size_t>(joint.body_a)]) ||
                         (joint.body_b >= 0 && scope.bodies[static_cast<std::size_t>(joint.body_b)]);
    if (!covered) continue;
    scope.joints.push_back(j);
    scope.joint_rows += model_.joint_row_count(j);
  }
  return scope;
}

bool Simulator::in_scope(const ImpactScope& scope, int point) const {
  const auto [a, b] = bodies_of(point);
  return (a >= 0 && scope.bodies[static_cast<std::size_t>(a)]) || (b >= 0 && scope.bodies[static_cast<std::size_t>(b)]);
}

bool Simulator::resolve_impact(std::vector<int> candidates, const Vector& impulse, bool scheduled) {
  // reads the state, the candidates Γ* and i_u ⇒ writes state.q̇, the active set and the Zeno counters;
  // logs the impact, its follow-up and its sequential sub-impacts. Returns whether a record was logged.
  bool logged = resolve_single_impact(std::move(candidates), impulse, scheduled);
  // Sequential sub-impacts: a touching point the Γ rule left out because it was separating before the
  // impact (stopping it from q̇⁻ would create energy) and that approaches now takes an impact of its own,
  // from this intermediate velocity and with its own e. Past kMaxImpactsPerInstant impacts at one instant
  // each is the plastic fallback (the Zeno guard), so the kinetic energy falls at every round; a cascade
  // still going after kMaxSequentialImpacts rounds is left to the next step, whose gap events catch a
  // point that goes on approaching.
  std::vector<int> next = approaching_points();
  for (int round = 0; !next.empty() && round < kMaxSequentialImpacts; ++round, next = approaching_points()) {
    logged = resolve_single_impact(std::move(next), Vector(), false) || logged;
  }
  return logged;
}

bool Simulator::resolve_single_impact(std::vector<int> candidates, const Vector& impulse, bool scheduled) {
  // reads the state, the candidates Γ* and i_u ⇒ writes state.q̇, the active set and the Zeno counters;
  // logs the impact (and its follow-up). Returns whether a record was logged.
  // The Zeno guard: too many impacts at one instant make this one the fallback from the start.
  if (std::abs(state_.time - state_.last_impact_time) <= 100.0 * scenario_.integrator.event_tolerance) {
    ++state_.impacts_at_instant;
  } else {
    state_.impacts_at_instant = 1;
  }
  state_.last_impact_time = state_.time;
  // Γ*: each candidate once; whether one approaches (then the impact is real whatever its energy change).
  std::sort(candidates.begin(), candidates.end());
  candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
  bool approaching = false;
  for (int k : candidates) {
    approaching = approaching || normal_velocity_of(k, state_.q, state_.qd) < -speed_tolerance(k);
  }

  // 0. The islands it takes (the points, joints and bodies of the others keep their flags and velocities);
  // 1. the points in A and their impact (the Γ rule); 2. the new active set, and the record if the impact
  // is real; 3. the plastic follow-up where rows of the new active set still move.
  const ImpactScope scope = impact_scope(candidates, impulse);
  ActivationOutcome outcome = choose_impact_set(candidates, impulse, scope);
  const bool logged = apply_impact(std::move(outcome), scope, approaching, scheduled);
  const bool followed_up = stop_residual_motion(scope);
  return logged || followed_up;
}

ActivationOutcome Simulator::choose_impact_set(const std::vector<int>& candidates, const Vector& impulse,
                                                const ImpactScope& scope) {
  // reads the state, Γ*, i_u and the impact's islands ⇒ returns the set of points in A and its impact (the
  // state is unchanged). A point of another island is left out: neither touching nor in the set.
  const std::size_t point_count = static_cast<std::size_t>(contact_point_count());
  const Vector& q = state_.q;
  const Vector qd_minus = state_.qd;
  ActivationInput input;
  input.points.resize(point_count);
  const std::vector<int> active_per_body = active_points_per_body();
  for (std::size_t k = 0; k < point_count; ++k) {
    const int point = static_cast<int>(k);
    ImpactPoint& p = input.points[k];
    if (!in_scope(scope, point)) continue;
    p.touching = scope.touching[k] != 0;
    p.in_set = state_.active[k] != 0;
    p.sticks = has_tangent(point, Tangents::All);
    p.approach = normal_velocity_of(point, q, qd_minus);
    p.restitution = restitution_of(point);
    p.speed_tolerance = speed_tolerance(point);
    p.nearly_resting_speed = nearly_resting_speed_of(point, p.touching, active_per_body);
  }
  for (int k : candidates) input.points[static_cast<std::size_t>(k)].in_set = true;
  input.joint_rows = scope.joint_rows;
  input.qd_minus = qd_minus;
  input.external_impulse = impulse;
  input.mass_diagonal = model_.mass_diagonal();
  input.rest_speed = scenario_.integrator.rest_speed;
  input.force_scale = force_scale_;
  input.fallback = state_.impacts_at_instant > kMaxImpactsPerInstant;

  ActivationSystem system;
  std::vector<FrictionPair> pairs;  // the frictional points (0 < μ < ∞) of the set last laid out
  // On the sparse path A goes straight into compressed rows (exactly to_sparse of the dense rows), made
  // dense only where a dense solve or split asks for it.
  const bool sparse = sparse_smooth_phase();
  system.rows = [&](const std::vector<int>& points, ConstraintRows& rows) {
    const RowLayout layout = layout_of(points, Tangents::All, scope.joints, scope.joint_rows);
    assemble(q, qd_minus, points, layout, rows, sparse);
    pairs = friction_pairs(points, layout);
  };
  system.normal_velocity = [&](int point, const Vector& qd) { return normal_velocity_of(point, q, qd); };
  system.solve = [&](ConstraintRows& rows, const Vector& restitution, const std::vector<bool>& unilateral) {
    return solve_impact_on(rows, qd_minus, restitution, impulse, unilateral, pairs);
  };
  system.carried_without_pull = [&](ConstraintRows& rows, const Vector& impulse_of_rows,
                                    const std::vector<bool>& unilateral, double tolerance) {
    Vector split;
    return carried_without_pull(&rows.dense_jacobian(), impulse_of_rows, unilateral, tolerance, split,
                                rows.sparse ? &rows.sparse_rows.matrix() : nullptr);
  };
  return apply_activation_rule(input, system);
}

bool Simulator::apply_impact(ActivationOutcome&& outcome, const ImpactScope& scope, bool approaching, bool scheduled) {
  // reads the outcome of the Γ rule ⇒ writes state.q̇ = q̇⁺ and the active set of the impact's islands (the
  // points of A left at rest); logs the impact if it is real. Returns whether it was logged.
  const ImpactResult& result = outcome.solution.result;
  // New active set of the islands: the points of A left at rest; every other point of them is separated.
  // A sticking point of A sticks again (its tangential row was in A); a frictional point that the impact
  // left slipping slides on (contact_friction.hpp). The points of other islands keep their flags.
  for (std::size_t k = 0; k < state_.active.size(); ++k) {
    if (!in_scope(scope, static_cast<int>(k))) continue;
    state_.active[k] = 0;
    state_.sliding[k] = 0;
  }
  for (std::size_t j = 0; j < outcome.points.size(); ++j) {
    const std::size_t i = static_cast<std::size_t>(outcome.points[j]);
    const double tolerance = speed_tolerance(outcome.points[j]);
    state_.active[i] = result.normal_velocity_plus(outcome.layout.normal_rows[j]) <= tolerance ? 1 : 0;
    if (state_.active[i] && !outcome.solution.friction.empty()) {
      const double slip = result.normal_velocity_plus(outcome.layout.normal_rows[j] + 1);
      state_.sliding[i] = outcome.layout.tangent[j] ? slide_code(slip, tolerance) : 0;
    }
  }
  state_.qd = result.qd_plus;

  // Log real impacts: a candidate approaching, an external impulse, or a change of kinetic energy (a
  // sticking point touching while it slips loses its slip); a touch at rest only activates.
  const bool changed = std::abs(result.kinetic_energy_change) > 1e-12 * result.kinetic_minus + 1e-15;
  if (!(approaching || scheduled || changed)) return false;
  for (int k : outcome.points) state_.impacting[static_cast<std::size_t>(k)] = 1;
  if (outcome.layout.joint_rows != model_.joint_row_total()) outcome.layout.joints = scope.joints;
  record_impact(outcome.points, outcome.layout, outcome.rows, std::move(outcome.solution), outcome.rest_speeds,
                outcome.passes, scheduled);
  return true;
}

bool Simulator::stop_residual_motion(const ImpactScope& scope) {
  // reads the new active set of the impact's islands and state.q̇ ⇒ writes state.q̇ = (I − S)q̇ where rows of
  // that set still move, logged as a plastic follow-up impact. Returns whether one was.
  // With a rank-deficient A and unequal e_i the Newton law holds only in the least-squares sense
  // (A q̇⁺ = −A A⁺ E A q̇⁻): a joint or a point about to rest may still move along its rows. A plastic
  // follow-up impact on the new active set (E = 0: q̇⁺⁺ = (I − S) q̇⁺) stops them; it is logged, so that
  // the log accounts for every change of kinetic energy.
  std::vector<int> resting;
  for (std::size_t k = 0; k < state_.active.size(); ++k) {
    if (state_.active[k] && in_scope(scope, static_cast<int>(k))) resting.push_back(static_cast<int>(k));
  }
  if (scope.joint_rows + static_cast<int>(resting.size()) == 0) return false;
  // The tangential rows of the points that stick (every `stick` point: apply_impact cleared their sliding).
  const RowLayout layout = layout_of(resting, Tangents::Active, scope.joints, scope.joint_rows);
  // Its rows dense, charged before they are made.
  work_.budget.require(work::dense_rows(n_, static_cast<double>(layout.rows)));
  ConstraintRows rows;
  assemble(state_.q, state_.qd, resting, layout, rows);
  // Still moving: beyond the speed tolerance of a point of the smallest body (the tightest of the scene's).
  const double tolerance = std::max(kMinSpeedTolerance, kRelativeSpeedTolerance * std::max(std::sqrt(gravity_norm_ * smallest_body_size_), speed_scale_));
  if (max_abs(rows.jacobian * state_.qd) <= tolerance) return false;
  ImpactSolution stopped = solve_impact_on(rows, state_.qd, Vector::Zero(rows.rows()), Vector(),
                                           layout.unilateral_mask());
  state_.qd = stopped.result.qd_plus;
  for (int k : resting) state_.impacting[static_cast<std::size_t>(k)] = 1;
  record_impact(resting, layout, rows, std::move(stopped), rest_speeds_of(resting), 1, false);
  return true;
}

ImpactSolution Simulator::solve_impact_on(ConstraintRows& rows, const Vector& qd_minus, const Vector& restitution,
                                          const Vector& impulse, const std::vector<bool>& unilateral,
                                          const std::vector<FrictionPair>& pairs) {
  // reads (M, A), q̇⁻, E, i_u ⇒ returns the impact (paper eq. (49), in scaled coordinates:
  // scaled_projection.hpp); the scalars of its projections are left to its record, which computes them when a
  // summary first asks (impact_log.hpp).
  // Solved already, before the budget interrupted this step: the same impact.
  detail::InputKey input(detail::kImpactEvaluation);
  if (rows.sparse) {
    input.add(rows.sparse_rows.matrix());
  } else {
    input.add(rows.jacobian);
  }
  input.add(qd_minus).add(restitution).add(impulse).add(unilateral);
  for (const FrictionPair& pair : pairs) input.add(pair.normal_row).add(pair.mu);
  const std::uint64_t key = input.value();
  if (work_.replay.upcoming(key)) return *replayed(key, rows.rows())->solution;
  // Its parts kept while it could be stopped (a dense fallback's projections) are replaced by it when done.
  const std::size_t start = work_.replay.position();
  ImpactSolution solution;
  if (pairs.empty() && sparse_smooth_phase()) {
    // Frictionless impacts: the sparse path (simulator_sparse_path.cpp).
    solution.result = sparse_impact(rows, qd_minus, restitution, impulse, unilateral, key);
  } else if (!pairs.empty()) {
    // Coulomb friction at some point (0 < μ < ∞): Aghili's stick/slip impact on the projections of the parts
    // in motion (simulator_friction.cpp), every mode combination at most once, on A in compressed rows; its
    // set-up (the parts, A q̇⁻) scans those rows, charged as a sparse solve's work before it runs.
    if (rows.sparse) work_.budget.require(work::sparse_dynamics(n_, static_cast<double>(rows.rows())));
    const SparseJacobian dense_rows_compressed = rows.sparse ? SparseJacobian() : to_sparse(rows.jacobian);
    solution = frictional_impact(rows.sparse ? rows.sparse_rows.matrix() : dense_rows_compressed, qd_minus,
                                 restitution, impulse, unilateral, pairs);
  } else {
    // The dense projections of the touched coordinates.
    const Matrix& jacobian = rows.dense_jacobian();
    const double touched = static_cast<double>(touched_coordinates(jacobian).size());
    work_.budget.begin(projection_work(jacobian) + work::impact_solve(touched, static_cast<double>(jacobian.rows())));
    solution.result =
        ScaledProjection(model_.mass_diagonal(), jacobian).impact(qd_minus, restitution, impulse, unilateral);
  }
  detail::Evaluation evaluation;
  evaluation.key = key;
  evaluation.solution = solution;
  work_.replay.record_in_place_of(start, std::move(evaluation));
  return solution;
}

std::vector<int> Simulator::active_points_per_body() const {
  // reads the active set ⇒ returns per body the number of active points it takes part in.
  std::vector<int> count(body_size_.size(), 0);
  for (std::size_t k = 0; k < state_.active.size(); ++k) {
    if (!state_.active[k]) continue;
    const auto [a, b] = bodies_of(static_cast<int>(k));
    if (a != kWorld) ++count[static_cast<std::size_t>(a)];
    if (b != kWorld) ++count[static_cast<std::size_t>(b)];
  }
  return count;
}

double Simulator::nearly_resting_speed_of(int point, bool touching, const std::vector<int>& active_per_body) const {
  // reads the active set ⇒ returns v_rest = √(2 ε |g| L) of a point nearly resting in a stack, else 0.
  // In a stack: the point touches and one of its bodies takes part in an active point other than it (the
  // body rests on, or carries, something already): a disk landing on a resting disk, the disk above it, a
  // box's second corner coming down beside its resting first. A lone body bouncing on the floor is not in
  // one, and keeps the scenario's rest speed.
  if (!touching) return 0.0;
  const auto [a, b] = bodies_of(point);
  const int own = state_.active[static_cast<std::size_t>(point)] ? 1 : 0;
  const bool held = (a != kWorld && active_per_body[static_cast<std::size_t>(a)] > own) ||
                    (b != kWorld && active_per_body[static_cast<std::size_t>(b)] > own);
  return held ? nearly_resting_speed(gravity_norm_, size_of(point)) : 0.0;
}

std::vector<double> Simulator::rest_speeds_of(const std::vector<int>& points) const {
  // reads the active set and the gaps at the committed q ⇒ returns per point max(rest_speed, v_rest).
  const std::vector<int> active_per_body = active_points_per_body();
  std::vector<double> speeds;
  speeds.reserve(points.size());
  for (int k : points) {
    ImpactPoint point;
    point.nearly_resting_speed =
        nearly_resting_speed_of(k, gap_of(k, state_.q) <= gap_tolerance(k), active_per_body);
    speeds.push_back(point_rest_speed(point, scenario_.integrator.rest_speed));
  }
  return speeds;
}

void Simulator::record_impact(const std::vector<int>& points, const RowLayout& layout, const ConstraintRows& rows,
                              ImpactSolution&& solution, const std::vector<double>& rest_speeds, int iterations,
                              bool scheduled, bool painleve) {
  // reads the committed state and one solved impact ⇒ adds its record to those of the transaction, which
  // reach the log when it completes (without the matrices of the projections: impact_log.hpp). A in
  // compressed rows is kept as it is (the record's own rows are the dense A's non-zeros, bit for bit).
  ImpactRecord record =
      rows.sparse ? make_impact_record(state_.time, record_inertia_, rows.sparse_rows.matrix(), nu_, std::move(solution))
                  : make_impact_record(state_.time, record_inertia_, rows.jacobian, nu_, std::move(solution));
  record.points = points;
  // The joints whose rows lead A: every joint, or those of the impact's islands.
  if (layout.joint_rows == model_.joint_row_total()) {
    record.joints.resize(static_cast<std::size_t>(model_.joint_count()));
    for (int j = 0; j < model_.joint_count(); ++j) record.joints[static_cast<std::size_t>(j)] = j;
  } else {
    record.joints = layout.joints;
  }
  record.normal_rows = layout.normal_rows;
  record.rest_speeds = rest_speeds;
  for (double speed : rest_speeds) record.nearly_resting.push_back(speed > scenario_.integrator.rest_speed ? 1 : 0);
  record.iterations = iterations;
  record.scheduled = scheduled;
  for (int k : points) {
    const ContactFrame frame = frame_of(k, state_.q);
    record.contacts.push_back(contact_of(k));
    record.positions.push_back(frame.point);
    record.normals.push_back(frame.normal);
  }
  record.painleve = painleve;
  pending_records_.push_back(std::move(record));
}

}  // namespace oblique
