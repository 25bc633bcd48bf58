// The Simulator's active system and smooth dynamics (simulator.hpp): the rows of the active set, q̈ and λ,
// the position projection, and the views.
#include "oblique/simulation/simulator.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include <Eigen/QR>

#include "friction/oblique_multipliers.hpp"
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

using detail::kMaxProjectionPasses;
using detail::max_abs;

// ---------------------------------------------------------------------------------------------------------
// The active system and the smooth dynamics
// ---------------------------------------------------------------------------------------------------------

void Simulator::collect_active_points() {
  // reads state.active, state.sliding ⇒ writes derived.active_points and the row layouts of the active set.
  derived_.active_points.clear();
  for (int k = 0; k < contact_point_count(); ++k) {
    if (state_.active[static_cast<std::size_t>(k)]) derived_.active_points.push_back(k);
  }
  derived_.layout = layout_of(derived_.active_points, Tangents::Active);
  derived_.position_layout = layout_of(derived_.active_points, Tangents::None);
  // The sliding frictional points (0 < μ < ∞): their friction force joins the smooth dynamics.
  derived_.sliding.clear();
  if (!has_friction_) return;
  for (std::size_t j = 0; j < derived_.active_points.size(); ++j) {
    const int k = derived_.active_points[j];
    const double mu = friction_of(k);
    const char code = state_.sliding[static_cast<std::size_t>(k)];
    if (mu > 0.0 && std::isfinite(mu) && code != 0) {
      derived_.sliding.push_back({k, derived_.layout.normal_rows[j], mu, slide_direction(code)});
    }
  }
}

bool Simulator::has_tangent(int point, Tangents tangents) const {
  const std::size_t k = static_cast<std::size_t>(point);
  // A tangential row for every point with friction (μ > 0; `stick` is μ = +∞), none for a frictionless one.
  if (tangents == Tangents::None || !(friction_of(point) > 0.0)) return false;
  return tangents == Tangents::All || !state_.sliding[k];
}

RowLayout Simulator::layout_of(const std::vector<int>& points, Tangents tangents) const {
  return RowLayout::of(model_.joint_row_total(), points, [&](int k) { return has_tangent(k, tangents); });
}

RowLayout Simulator::layout_of(const std::vector<int>& points, Tangents tangents, const std::vector<int>& joints,
                               int joint_rows) const {
  RowLayout layout = RowLayout::of(joint_rows, points, [&](int k) { return has_tangent(k, tangents); });
  // Every joint: the layout of the whole system, the same bits.
  if (joint_rows != model_.joint_row_total()) layout.joints = joints;
  return layout;
}

void Simulator::assemble(const Vector& q, const Vector& qd, const std::vector<int>& points, const RowLayout& layout,
                         ConstraintRows& rows, bool sparse) const {
  // reads (q, q̇) ⇒ writes φ, A, Ȧq̇ of [joints; per point its normal row and, if laid out, its tangential
  // row]; A dense, or with `sparse` in compressed rows (to_sparse of the dense A: the same pattern and bits).
  if (sparse) {
    rows.resize_sparse(layout.rows, n_);
  } else if (rows.sparse || rows.rows() != layout.rows || rows.jacobian.cols() != n_) {
    rows.resize(layout.rows, n_);
  }
  write_rows(q, qd, points, layout, rows);
  if (sparse) rows.finish_sparse();
}

void Simulator::write_rows(const Vector& q, const Vector& qd, const std::vector<int>& points, const RowLayout& layout,
                           ConstraintRows& rows) const {
  // The joint rows first (every joint's, or those the layout lists), then per point its normal row and, if
  // laid out, its tangential row below it.
  if (layout.joint_rows == model_.joint_row_total()) {
    model_.all_joint_rows(q, qd, 0, rows);
  } else {
    int row = 0;
    for (int joint : layout.joints) {
      model_.joint_rows(joint, q, qd, row, rows);
      row += model_.joint_row_count(joint);
    }
  }
  for (std::size_t j = 0; j < points.size(); ++j) {
    normal_row_of(points[j], q, qd, layout.normal_rows[j], rows);
    if (layout.tangent[j]) tangent_row_of(points[j], q, qd, layout.normal_rows[j] + 1, rows);
  }
}

bool Simulator::sparse_assembly() const {
  // The smooth phase factorises a sparse A on the sparse path; with sliding points, only in a large scene
  // (sparse_sliding: below, their oblique dynamics is dense, contact_friction.hpp).
  return sparse_smooth_phase() && (derived_.sliding.empty() || sparse_sliding());
}

void Simulator::assemble_active(const Vector& q, const Vector& qd) {
  // reads (q, q̇), the active set ⇒ writes work.rows (A dense only off the sparse path) and the sliding rows.
  assemble(q, qd, derived_.active_points, derived_.layout, work_.rows, sparse_assembly());
  assemble_sliding(q, qd);
}

void Simulator::reassemble_rates(const Vector& qd) {
  // reads state.q, q̇, work.rows ⇒ writes φ and Ȧq̇ of work.rows at (state.q, q̇). Sparse, the rows are
  // written again but not compressed: the compressed A of the same q is the one already there.
  if (!work_.rows.sparse) {
    assemble(state_.q, qd, derived_.active_points, derived_.layout, work_.rows, sparse_assembly());
    return;
  }
  work_.rows.resize_sparse(derived_.layout.rows, n_);
  write_rows(state_.q, qd, derived_.active_points, derived_.layout, work_.rows);
}

void Simulator::evaluate_dynamics(const Vector& q, const Vector& qd, Vector& qdd, std::vector<double>* point_values) {
  // reads (q, q̇), the active set ⇒ writes q̈ (and λ per active point); work.rows, unless q̈ alone is asked
  // for and was evaluated already (every reader of work.rows assembles them first).
  const int m = derived_.layout.rows;  // the rows assemble_active writes
  // Its own bookkeeping: charged with the evaluation when it is made, else now.
  const double bookkeeping = work::bookkeeping(n_, static_cast<double>(contact_point_count()));
  // Evaluated already, before the budget interrupted this step: the key is of the inputs, not of the rows,
  // so when q̈ alone is asked for the rows are not assembled again (most of what a replayed step cost).
  std::uint64_t key = 0;
  if (m > 0) {
    detail::InputKey input(detail::kDynamicsEvaluation);
    input.add(q).add(qd).add(derived_.active_points).add(derived_.layout.tangent);
    if (!derived_.sliding.empty()) input.add(state_.sliding);
    key = input.value();
    if (!point_values && work_.replay.upcoming(key)) {
      work_.budget.add(bookkeeping);
      qdd = replayed(key, 0)->first;
      return;
    }
  }
  assemble_active(q, qd);
  // No constraint: q̈ = q̈*, constant.
  if (m == 0) {
    work_.budget.add(bookkeeping);
    qdd = model_.free_acceleration();
    return;
  }
  if (const detail::Evaluation* known = replayed(key, 0)) {
    work_.budget.add(bookkeeping);
    qdd = known->first;
    if (point_values) {
      split_multipliers(work_.rows, known->second, known->third, *point_values);
      if (has_friction_) work_.event_lambda = known->third;
    }
    return;
  }
  // q̈ = (I − S)q̈* + Sq̈⊥ and λ = A⁺ᵀf on the active set (dense or sparse path by n: simulator.hpp).
  work_.budget.begin(projection_work(work_.rows) + bookkeeping);
  ConstrainedDynamics d = smooth_dynamics(nullptr);
  detail::Evaluation evaluation;
  evaluation.key = key;
  evaluation.first = std::move(d.qdd);
  evaluation.second = std::move(d.force);
  evaluation.third = std::move(d.multipliers);
  // Read from the record (it stays where it is while later ones are made): q̈ copied into the caller's
  // storage, f and λ for the split.
  const detail::Evaluation& kept = work_.replay.record(std::move(evaluation));
  qdd = kept.first;
  if (point_values) {
    split_multipliers(work_.rows, kept.second, kept.third, *point_values);
    if (has_friction_) work_.event_lambda = kept.third;
  }
}

void Simulator::split_multipliers(ConstraintRows& active, const Vector& force, const Vector& multipliers,
                                  std::vector<double>& point_values) {
  // λ of each active point's unilateral row: the paper's minimum-norm λ = A⁺ᵀf, unless one of them pulls
  // while another split of f (redundant contacts) has none pulling; then that split.
  const double tolerance = multiplier_tolerance();
  const std::vector<int>& points = derived_.active_points;
  const std::vector<int>& rows = derived_.layout.normal_rows;
  bool pulls = false;
  for (std::size_t j = 0; j < points.size(); ++j) {
    point_values[static_cast<std::size_t>(points[j])] = multipliers(rows[j]);
    pulls = pulls || multipliers(rows[j]) < -tolerance;
  }
  // With sliding friction f = Bᵀλ is not carried by A alone: the λ of the oblique solve stand.
  if (!pulls || !derived_.sliding.empty()) return;
  // A large system's rows stay compressed: a dense A would cost m·n to make, hash and multiply at every
  // split (and at every replay of it), more than its sparse factorisations.
  const bool compressed_only = active.sparse && sparse_smooth_phase() &&
                               static_cast<double>(n_) * active.rows() >= detail::kDenseSplitEntries;
  Vector split;
  if (!carried_without_pull(compressed_only ? nullptr : &active.dense_jacobian(), force,
                            derived_.layout.unilateral_mask(), 1e-9 * std::max(force.norm(), force_scale_), split,
                            active.sparse ? &active.sparse_rows.matrix() : nullptr)) {
    return;
  }
  for (std::size_t j = 0; j < points.size(); ++j) point_values[static_cast<std::size_t>(points[j])] = split(rows[j]);
}

const detail::Evaluation* Simulator::replayed(std::uint64_t key, int dense_rows) {
  // Taken from memory: the solve skipped, its inputs hashed again (a dense A for a split or an impact).
  const detail::Evaluation* known = work_.replay.next(key);
  if (known) work_.budget.add(work::replay(n_, dense_rows));
  return known;
}

WorkGate Simulator::budget_gate() {
  return [this](double flops) { work_.budget.piece(flops); };
}

double Simulator::projection_work(const Matrix& jacobian) const {
  // The sparse path: the Delassus factorisation and its solves, linear in the size of the system.
  if (sparse_smooth_phase()) {
    return work::sparse_dynamics(static_cast<double>(n_), static_cast<double>(jacobian.rows()));
  }
  return dense_projection_work(jacobian);
}

double Simulator::dense_projection_work(const Matrix& jacobian) const {
  // The scaled projection works on the coordinates A touches; the dynamics on all n.
  const double touched = static_cast<double>(touched_coordinates(jacobian).size());
  const double m = static_cast<double>(jacobian.rows());
  return work::projection(touched, m) + work::dynamics(static_cast<double>(n_), m);
}

double Simulator::projection_work(ConstraintRows& rows) {
  // The same for the active set's rows assembled here, without making a sparse A dense: on the sparse path
  // the solves, and the factorisation smooth_dynamics will make as foretold by the Delassus workspace once
  // A's pattern is analysed (its symbolic analysis counted here too when it is new) — what of it its gate
  // cannot stop: its dependent rows' searches and null basis are charged one by one as they come.
  if (sparse_smooth_phase() && derived_.sliding.empty()) {
    SparseJacobian converted;
    const double factorization =
        work_.delassus.get().unstoppable_estimate(detail::compressed_jacobian(rows, converted), model_.mass_diagonal());
    // The formula covers the solves; the estimate from A's pattern, when larger, a large factor.
    return std::max(work::sparse_dynamics(static_cast<double>(n_), static_cast<double>(rows.rows())), factorization);
  }
  const double n = static_cast<double>(n_), m = static_cast<double>(rows.rows());
  // Sliding friction on compressed rows: what of the oblique multipliers no gate stops, as foretold by the
  // factorisations the solve keeps (what is left of them when the budget stopped it); the system is kept
  // for the evaluation that follows, which would otherwise build it again.
  if (sparse_smooth_phase() && sparse_sliding()) {
    auto system = std::make_shared<detail::ObliqueSystem>(sliding_system());
    const double oblique =
        detail::oblique_multipliers_estimate(model_.mass_diagonal(), system->a, system->b, sliding_progress(*system));
    work_.sliding_solve.charged_system = std::move(system);
    return std::max(work::sparse_dynamics(n, m), oblique);
  }
  if (sparse_smooth_phase()) return work::sparse_dynamics(n, m);
  return projection_work(rows.dense_jacobian());
}

bool Simulator::carried_without_pull(const Matrix* jacobian, const Vector& force, const std::vector<bool>& unilateral,
                                     double tolerance, Vector& split, const SparseJacobian* sparse_jacobian) {
  // reads A, f, the unilateral rows ⇒ returns whether some split λ ≥ 0 of f carries it (and writes it).
  // The passive least squares through sparse Delassus factorisations on the sparse path.
  const bool sparse = sparse_smooth_phase() || !jacobian;
  detail::InputKey input(detail::kSplitEvaluation);
  if (jacobian) {
    input.add(*jacobian);
  } else {
    input.add(*sparse_jacobian);
  }
  const std::uint64_t key = input.add(force).add(unilateral).add(tolerance).add(sparse ? 1 : 0).value();
  const double m = static_cast<double>(jacobian ? jacobian->rows() : sparse_jacobian->rows());
  // The split's own products: over A's entries when it is compressed only, else over the dense A.
  const double entries = jacobian ? static_cast<double>(n_) * m : static_cast<double>(sparse_jacobian->nonZeros());
  // Solved already, before the budget interrupted this step: the same answer.
  if (work_.replay.upcoming(key)) {
    const detail::Evaluation* known = replayed(key, jacobian ? static_cast<int>(m) : 0);
    split = known->first;
    return known->drift != 0.0;
  }
  const detail::SparseSplitWorkspace factorizations{&work_.split_all_rows.get(), &work_.split_passive_rows.get(),
                                                    sparse_jacobian, budget_gate()};
  // The symbolic analyses of the split's two factorisations so far (one per new pattern of rows).
  const auto analyses = [this] {
    return work_.split_all_rows.get().analyses() + work_.split_passive_rows.get().analyses();
  };
  long analyses_before = analyses();
  // Each passive solve is a point where the budget may stop the call: charged its estimate before it runs
  // (a COD of its passive rows, or a factorisation foretold by A's size; the first also the split's own
  // work), a new pattern's analysis after, and kept for the replay under the split's key and its index; a
  // solve made before is taken from there. Its factorisation's pieces (the dependent rows' searches) and a
  // dense COD in its place are the gate's, and may stop it too.
  const std::size_t start = work_.replay.position();
  const auto solve_key = [key](int index) {
    return detail::InputKey(detail::kPassiveSolveEvaluation).add_key(key).add(index).value();
  };
  detail::PassiveSolveMemory memory;
  double passive_rows = m;  // of the passive solve under way
  memory.recall = [&](int index, int passive, Vector& z) {
    if (const detail::Evaluation* known = work_.replay.next(solve_key(index))) {
      work_.budget.add(work::replayed_passive_solve(n_, entries));
      z = known->first;
      return true;
    }
    passive_rows = passive;
    // (A passive set's factorisation is foretold by A's size: its pattern, much smaller or not, may fill in.)
    const double estimate = sparse ? work::sparse_passive_solve(n_, m) : work::passive_solve(n_, passive);
    work_.budget.begin(estimate + (index == 0 ? work::multiplier_split_own(n_, entries, sparse) : 0.0));
    return false;
  };
  memory.keep = [&](int index, const Vector& z, bool) {
    if (sparse) {
      // (A dense solve in place of the factorisation was told to the gate before it ran.)
      const long analyses_now = analyses();
      work_.budget.add(work::symbolic_analysis(passive_rows) * static_cast<double>(analyses_now - analyses_before));
      analyses_before = analyses_now;
    }
    detail::Evaluation evaluation;
    evaluation.key = solve_key(index);
    evaluation.first = z;
    work_.replay.record(std::move(evaluation));
  };
  const bool carried =
      jacobian ? detail::nonnegative_split(*jacobian, force, unilateral, tolerance, split,
                                           sparse ? &factorizations : nullptr, nullptr, &memory)
               : detail::nonnegative_split(*sparse_jacobian, force, unilateral, tolerance, split, factorizations,
                                           nullptr, &memory);
  // Done: the replay takes the split whole from now on, in place of its passive solves.
  detail::Evaluation evaluation;
  evaluation.key = key;
  evaluation.first = split;
  evaluation.drift = carried ? 1.0 : 0.0;
  work_.replay.record_in_place_of(start, std::move(evaluation));
  return carried;
}

void Simulator::rk4(double h, Vector& q_out, Vector& qd_out) {
  // reads the committed state and its q̈ ⇒ writes (q, q̇) one classical RK4 step of length h later.
  const Vector& q = state_.q;
  const Vector& qd = state_.qd;
  const double half = 0.5 * h;
  work_.sum_qd = qd;
  work_.sum_qdd = derived_.qdd;
  // Stage 2 at t + h/2.
  work_.stage_q = q + half * qd;
  work_.stage_qd = qd + half * derived_.qdd;
  evaluate_dynamics(work_.stage_q, work_.stage_qd, work_.stage_qdd, nullptr);
  work_.sum_qd += 2.0 * work_.stage_qd;
  work_.sum_qdd += 2.0 * work_.stage_qdd;
  // Stage 3 at t + h/2.
  work_.stage_q = q + half * work_.stage_qd;
  work_.stage_qd = qd + half * work_.stage_qdd;
  evaluate_dynamics(work_.stage_q, work_.stage_qd, work_.stage_qdd, nullptr);
  work_.sum_qd += 2.0 * work_.stage_qd;
  work_.sum_qdd += 2.0 * work_.stage_qdd;
  // Stage 4 at t + h.
  work_.stage_q = q + h * work_.stage_qd;
  work_.stage_qd = qd + h * work_.stage_qdd;
  evaluate_dynamics(work_.stage_q, work_.stage_qd, work_.stage_qdd, nullptr);
  work_.sum_qd += work_.stage_qd;
  work_.sum_qdd += work_.stage_qdd;
  // Weighted sum.
  q_out = q + (h / 6.0) * work_.sum_qd;
  qd_out = qd + (h / 6.0) * work_.sum_qdd;
}

bool Simulator::project_positions(Vector& q) {
  // reads q, the active set ⇒ writes q on the position constraints; views.drift.
  // Gauss–Newton onto the rows with a position: joints and active unilateral rows (φ = 0).
  const int m = derived_.position_layout.rows;
  if (m == 0) return false;
  const double tolerance = scenario_.integrator.projection_tolerance;
  // A in compressed rows on the sparse path: made dense below only when φ asks for a correction.
  assemble(q, state_.qd, derived_.active_points, derived_.position_layout, work_.position_rows,
           sparse_smooth_phase());
  if (max_abs(work_.position_rows.phi) <= tolerance) return true;
  // Evaluated already, before the budget interrupted this step: the same corrected q.
  const std::uint64_t key =
      detail::InputKey(detail::kPositionEvaluation).add(q).add(derived_.active_points).value();
  if (work_.replay.upcoming(key)) {
    const detail::Evaluation* known = replayed(key, 0);
    q = known->first;
    view_.drift = std::max(view_.drift, known->drift);
    return false;
  }
  // Its passes are kept while it could still be stopped (a pass's factorisation stops between its pieces),
  // and replaced by it when it is done.
  const std::size_t start = work_.replay.position();
  const double pass_work = work_.position_rows.sparse ? work::sparse_position_correction(n_, m)
                                                     : work::position_correction(n_, m);
  work_.budget.begin(pass_work + first_position_factorization_work());
  double largest = 0.0;
  for (int pass = 0; pass < kMaxProjectionPasses; ++pass) {
    if (pass > 0) {
      assemble(q, state_.qd, derived_.active_points, derived_.position_layout, work_.position_rows,
               sparse_smooth_phase());
      if (max_abs(work_.position_rows.phi) <= tolerance) break;
      work_.budget.add(pass_work);
    }
    // A pass made before the budget stopped this correction: the same q.
    const std::uint64_t pass_key =
        detail::InputKey(detail::kPositionPassEvaluation).add(q).add(derived_.active_points).add(pass).value();
    if (const detail::Evaluation* known = replayed(pass_key, 0)) {
      q = known->first;
      largest = std::max(largest, known->drift);
      continue;
    }
    // q ← q − A⁺φ: the minimum-norm least-squares solution of A δ = φ (a Gauss–Newton step).
    const Vector correction = position_step(work_.position_rows);
    q -= correction;
    const double moved = max_abs(correction);
    largest = std::max(largest, moved);
    detail::Evaluation done;
    done.key = pass_key;
    done.first = q;
    done.drift = moved;
    work_.replay.record(std::move(done));
  }
  view_.drift = std::max(view_.drift, largest);
  detail::Evaluation evaluation;
  evaluation.key = key;
  evaluation.first = q;
  evaluation.drift = largest;
  work_.replay.record_in_place_of(start, std::move(evaluation));
  return false;
}

double Simulator::first_position_factorization_work() {
  // On the sparse path, what the gate of the first pass's factorisation of A Aᵀ cannot stop.
  if (!work_.position_rows.sparse) return 0.0;
  work_.unit_weights.setOnes(n_);
  return work_.position_delassus.get().factorization_estimate(work_.position_rows.sparse_rows.matrix(),
                                                              work_.unit_weights, true);
}

Vector Simulator::position_step(ConstraintRows& rows) {
  // reads A and φ of the position rows ⇒ returns A⁺φ.
  // Sparse path: from the Delassus factorisation of A Aᵀ (W = I, least_squares is A⁺φ), when accurate.
  if (rows.sparse) {
    DelassusFactorization& delassus = work_.position_delassus.get();
    work_.unit_weights.setOnes(n_);
    const long analyses = delassus.analyses();
    delassus.factorize_as_new(rows.sparse_rows.matrix(), work_.unit_weights, budget_gate());
    if (delassus.analyses() != analyses) work_.budget.add(work::symbolic_analysis(rows.rows()));
    if (sparse_solve_accurate(delassus)) return delassus.least_squares(rows.phi);
  }
  // Dense: a complete orthogonal decomposition (rank-revealing, much cheaper than the SVD of
  // pseudo_inverse, the same δ).
  const Eigen::CompleteOrthogonalDecomposition<Matrix> decomposition(rows.dense_jacobian());
  return decomposition.solve(rows.phi);
}

void Simulator::refresh() {
  // reads the state ⇒ writes state.q and state.q̇ back on the active constraints, derived q̈ and λ.
  const bool on_constraints = project_positions(state_.q);
  // The active rows at the state: those the projection assembled when it left q as it was and they are
  // the same rows (no tangential row; nothing sliding, so stored alike), else assembled here.
  if (on_constraints && derived_.layout.rows == derived_.position_layout.rows && derived_.sliding.empty()) {
    work_.rows.assign(work_.position_rows);
  } else {
    assemble_active(state_.q, state_.qd);
  }
  derived_.point_multiplier.assign(derived_.point_multiplier.size(), 0.0);
  const int m = work_.rows.rows();
  if (m == 0) {
    derived_.qdd = model_.free_acceleration();
    derived_.multipliers.resize(0);
    return;
  }
  // Evaluated already, before the budget interrupted this step: the same q̇, q̈ and λ.
  detail::InputKey input(detail::kRefreshEvaluation);
  input.add(state_.q).add(state_.qd).add(derived_.active_points).add(derived_.layout.tangent);
  if (!derived_.sliding.empty()) input.add(state_.sliding);
  const std::uint64_t key = input.value();
  if (const detail::Evaluation* known = replayed(key, 0)) {
    state_.qd = known->first;
    derived_.qdd = known->second;
    derived_.multipliers = known->third;
    split_multipliers(work_.rows, known->fourth, derived_.multipliers, derived_.point_multiplier);
    return;
  }
  work_.budget.begin(projection_work(work_.rows));
  // Velocities onto N(A) with the M-orthogonal projector I − S: the paper's impact map with e = 0 applied to
  // the drift, which removes only the constraint-violating part and changes no admissible motion. Then Ȧq̇
  // at the projected velocity (A is unchanged), and q̈ and λ of the state.
  ConstrainedDynamics d = smooth_dynamics(&state_.qd);
  derived_.qdd = std::move(d.qdd);
  derived_.multipliers = std::move(d.multipliers);
  detail::Evaluation evaluation;
  evaluation.key = key;
  evaluation.first = state_.qd;
  evaluation.second = derived_.qdd;
  evaluation.third = derived_.multipliers;
  evaluation.fourth = d.force;
  work_.replay.record(std::move(evaluation));
  split_multipliers(work_.rows, d.force, derived_.multipliers, derived_.point_multiplier);
}

void Simulator::derive_restored() {
  // reads a restored state (its views shown as saved) ⇒ writes what restore_state left to this transaction:
  // the watched pairs of a find at the state, and derived q̈ and λ, as derive_dynamics computes them, each
  // evaluation charged before it runs and replayed when the budget stops the transaction.
  watch_pairs();
  size_point_buffers();
  collect_active_points();
  assemble_active(state_.q, state_.qd);
  derived_.point_multiplier.assign(static_cast<std::size_t>(contact_point_count()), 0.0);
  if (work_.rows.rows() == 0) {
    derived_.qdd = model_.free_acceleration();
    derived_.multipliers.resize(0);
  } else {
    detail::InputKey input(detail::kRestoredEvaluation);
    input.add(state_.q).add(state_.qd).add(derived_.active_points).add(derived_.layout.tangent);
    if (!derived_.sliding.empty()) input.add(state_.sliding);
    const std::uint64_t key = input.value();
    Vector force;
    if (const detail::Evaluation* known = replayed(key, 0)) {
      derived_.qdd = known->first;
      derived_.multipliers = known->second;
      force = known->third;
    } else {
      work_.budget.begin(projection_work(work_.rows));
      ConstrainedDynamics d = smooth_dynamics(nullptr);
      derived_.qdd = std::move(d.qdd);
      derived_.multipliers = std::move(d.multipliers);
      force = std::move(d.force);
      detail::Evaluation evaluation;
      evaluation.key = key;
      evaluation.first = derived_.qdd;
      evaluation.second = derived_.multipliers;
      evaluation.third = force;
      work_.replay.record(std::move(evaluation));
    }
    split_multipliers(work_.rows, force, derived_.multipliers, derived_.point_multiplier);
  }
  derived_.pending = false;
  derived_.shown_friction.clear();
}

void Simulator::derive_dynamics() {
  // reads the state (already on its constraints) ⇒ writes derived q̈ and λ, as refresh left them.
  assemble_active(state_.q, state_.qd);
  derived_.point_multiplier.assign(static_cast<std::size_t>(contact_point_count()), 0.0);
  if (work_.rows.rows() == 0) {
    derived_.qdd = model_.free_acceleration();
    derived_.multipliers.resize(0);
    return;
  }
  ConstrainedDynamics d = smooth_dynamics(nullptr);
  derived_.qdd = std::move(d.qdd);
  derived_.multipliers = std::move(d.multipliers);
  split_multipliers(work_.rows, d.force, derived_.multipliers, derived_.point_multiplier);
}

ConstrainedDynamics Simulator::smooth_dynamics(Vector* velocity) {
  // reads work.rows (A and Ȧq̇ of the active set at the state evaluated) ⇒ returns q̈, f and λ; with
  // `velocity` (refresh), first writes (I − S) q̇ into it and Ȧq̇ at it into work.rows (A is unchanged).
  // Sliding friction: the oblique dynamics of contact_friction.hpp (on compressed rows in a large scene).
  if (!derived_.sliding.empty()) return sliding_dynamics(velocity);
  const Vector& mass = model_.mass_diagonal();
  // On the sparse path (every scene: kSparseSmoothPhaseCoordinates): one Delassus factorisation of
  // K = A M⁻¹ Aᵀ, as made afresh (its result depends on A and M only: the workspace keeps only the symbolic
  // analysis of A's pattern, a pure function of it), trusted when certified, or when its solution meets the
  // rows it dropped (sparse_path.hpp).
  if (sparse_smooth_phase()) {
    // A as assemble_active left it: in compressed rows (to_sparse of the dense A, bit for bit).
    DelassusFactorization& delassus = work_.delassus.get();
    const long analyses = delassus.analyses();
    SparseJacobian converted;
    delassus.factorize_as_new(detail::compressed_jacobian(work_.rows, converted), mass, budget_gate());
    // A pattern not among those kept: its symbolic analysis, on top of the evaluation charged.
    if (delassus.analyses() != analyses) work_.budget.add(work::symbolic_analysis(work_.rows.rows()));
    // A certified factorisation is trusted; from kDroppedRowTrustCoordinates, one whose only doubt is a
    // dropped row is trusted when its solution meets that row too (sparse_solution_meets_rows); the dense
    // path solves the others.
    const bool certified = sparse_solve_accurate(delassus);
    if (smooth_phase_solves_sparse(delassus, n_)) {
      if (std::optional<ConstrainedDynamics> d = sparse_smooth_dynamics(delassus, velocity, certified)) return std::move(*d);
    }
    work_.budget.add(dense_projection_work(work_.rows.dense_jacobian()));
  }
  // With such rows, or the dense path forced: the dense projections of the touched coordinates.
  const ScaledProjection proj(mass, work_.rows.dense_jacobian());
  if (velocity) {
    *velocity = proj.project_velocity(*velocity);
    assemble(state_.q, *velocity, derived_.active_points, derived_.layout, work_.rows);
  }
  return proj.dynamics(model_.bias_force(), model_.applied_force(), work_.rows.adot_qd, model_.free_acceleration());
}

std::optional<ConstrainedDynamics> Simulator::sparse_smooth_dynamics(const DelassusFactorization& delassus,
                                                                     Vector* velocity, bool certified) {
  // reads work.rows ⇒ returns q̈, f and λ from `delassus`, or nothing (`velocity` as it came) when not
  // `certified` and the solution misses a row of A; with `velocity`, first (I − S)q̇ and Ȧq̇ at it.
  Vector unprojected;
  if (velocity) {
    // (I − S)q̇ meets A q̇ = 0 on every row, at the size of q̇.
    Vector projected = project_velocity_sparse(delassus, *velocity);
    if (!certified && !sparse_solution_meets_rows(delassus, projected, Vector::Zero(delassus.rows()), max_abs(*velocity))) {
      return std::nullopt;
    }
    if (!certified) unprojected = *velocity;
    *velocity = std::move(projected);
    reassemble_rates(*velocity);
  }
  SparseDynamics sparse =
      constrained_dynamics_sparse(delassus, model_.bias_force(), model_.applied_force(), work_.rows.adot_qd, true);
  // A q̈ = −Ȧq̇ on every row, at the size of the accelerations with and without the constraints.
  if (!certified && !sparse_solution_meets_rows(delassus, sparse.qdd, -work_.rows.adot_qd,
                                                max_abs(sparse.qdd) + max_abs(sparse.qdd_free))) {
    if (velocity) *velocity = std::move(unprojected);
    return std::nullopt;
  }
  ConstrainedDynamics d;
  d.qdd = std::move(sparse.qdd);
  d.qdd_free = std::move(sparse.qdd_free);
  d.force = std::move(sparse.force);
  d.multipliers = std::move(sparse.multipliers);
  return d;
}

void Simulator::set_sparse_smooth_phase_threshold(int coordinates) {
  // A test-only switch: the evaluations of the other path are not those of this one.
  work_.replay.clear();
  sparse_threshold_ = std::max(coordinates, 0);
}

void Simulator::set_sparse_friction_threshold(int coordinates) {
  // A test-only switch: the evaluations of the other search are not those of this one.
  work_.replay.clear();
  sparse_friction_threshold_ = std::max(coordinates, 0);
}

double Simulator::multiplier_tolerance() const {
  // 1e-9 of the size of the forces at play, never below 1e-9 × Σm × 1 m/s².
  // max |u − h|, u − h not stored (the same entries, their largest taken exactly).
  const Vector& u = model_.applied_force();
  const double applied = u.size() > 0 ? (u - model_.bias_force()).cwiseAbs().maxCoeff() : 0.0;
  return 1e-9 * std::max({applied, max_abs(derived_.multipliers), force_scale_});
}

void Simulator::update_views() {
  // reads views.q, views.q̇, the state's flags and λ ⇒ writes the contact-point views, violation, energy.
  view_.of_committed = false;
  double violation = 0.0;
  view_.points.resize(static_cast<std::size_t>(contact_point_count()));
  for (std::size_t k = 0; k < view_.points.size(); ++k) {
    const int point = static_cast<int>(k);
    const ContactFrame frame = frame_of(point, view_.q);
    ContactPoint& view = view_.points[k];
    view.contact = contact_of(point);
    const FeaturePair* pair = automatic_pair(point);
    view.body_a = pair ? pair->body_a : model_.contact_points()[k].body_a;
    view.body_b = pair ? pair->body_b : model_.contact_points()[k].body_b;
    view.point = frame.point;
    view.normal = frame.normal;
    view.gap = frame.gap;
    view.normal_velocity = normal_velocity_of(point, view_.q, view_.qd);
    view.multiplier = derived_.point_multiplier[k];
    view.state = state_.impacting[k] ? ContactState::Impacting
                                     : (state_.active[k] ? ContactState::Active : ContactState::Inactive);
    view.slip = 0;
    view.friction = 0.0;
    view.slip_speed = 0.0;
    if (has_friction_ && state_.active[k] && frictional(point)) {
      // A restored state whose λ are still to come: the tangential force it showed.
      if (derived_.pending) {
        view.slip = slide_direction(state_.sliding[k]);
      } else {
        friction_view(point, view);
      }
      view.slip_speed = dense_order_dot(point_row(point, RowKind::Tangent, view_.q, view_.qd), view_.qd);
    }
    if (derived_.pending) view.friction = derived_.shown_friction[k];
    violation = std::max(violation, state_.active[k] ? std::abs(frame.gap) : -frame.gap);
  }
  // Joints.
  if (model_.joint_row_total() > 0) {
    model_.all_joint_rows(view_.q, view_.qd, 0, work_.joint_rows);
    violation = std::max(violation, max_abs(work_.joint_rows.phi));
  }
  view_.violation = violation;
  // Energy.
  view_.energy.kinetic = model_.kinetic_energy(view_.qd);
  view_.energy.potential = model_.potential_energy(view_.q);
  view_.energy.total = view_.energy.kinetic + view_.energy.potential;
}

}  // namespace oblique
