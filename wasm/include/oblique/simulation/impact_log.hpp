// The impact log of a simulation: its latest impact records, within a memory budget.
//
// A record keeps what users look at — when and where the impact happened, which contacts, q̇⁻, q̇⁺, i_f,
// i_λ, φ̇⁻, φ̇⁺, the e_i used, K⁻, K⁺, W_loss, γ, λ_max(EQE − Q), the flags, the Γ-rule passes — and what
// is needed to recompute its projections when it is shown: M (the model's, shared by every record), A (its
// non-zero entries: a few per row), the ν asked for and i_u. Not the matrices themselves: P, Mc, S, R, Ẽ
// and Q are n×n or m×m, about 5 MB a record at 192 coordinates, where a record now takes a few kilobytes.
// Recomputing runs the same operations on the same inputs, so the matrices shown are bit-identical to those
// of the impact (tests/determinism/golden.json pins them).
//
// The log drops its oldest records when they would exceed kImpactLogBytes (or kMaxLoggedImpacts records)
// and counts them (dropped()); record i of the log is impact number dropped() + i of the run.
#pragma once

#include <cstddef>
#include <deque>
#include <memory>
#include <optional>
#include <vector>

#include "oblique/math/impact.hpp"
#include "oblique/math/impact_solution.hpp"
#include "oblique/math/projection.hpp"
#include "oblique/scenario/scenario.hpp"
#include "oblique/sparse/sparse_rows.hpp"

namespace oblique {

/// Impact log bounds: records kept at most, and their memory budget (ImpactRecord::bytes).
inline constexpr std::size_t kMaxLoggedImpacts = 10000;
inline constexpr std::size_t kImpactLogBytes = 32u << 20;

/// A matrix without its zeros, row by row (a constraint Jacobian has at most 6 entries per row). Entries
/// equal to +0.0 are left out and come back as +0.0; every other entry (−0.0 included) is kept as is, so
/// that dense() returns the matrix bit for bit.
class SparseRows {
 public:
  SparseRows() = default;
  explicit SparseRows(const Matrix& dense);
  /// The same rows from compressed rows: their entries but those equal to +0.0 (a compressed A written
  /// with its exact zeros dropped gives the rows of its dense form).
  explicit SparseRows(const SparseJacobian& compressed);
  Matrix dense() const;
  int rows() const { return rows_; }
  int cols() const { return cols_; }
  std::size_t entries() const { return values_.size(); }
  std::size_t bytes() const;

 private:
  int rows_ = 0, cols_ = 0;
  std::vector<int> row_start_, columns_;
  std::vector<double> values_;
};

/// One resolved impact, as logged (header comment).
struct ImpactRecord {
  double time = 0.0;
  std::vector<int> points;       ///< contact-point indices whose rows are in A (the impact set)
  std::vector<int> contacts;     ///< their ContactDef indices
  std::vector<int> normal_rows;  ///< row of A of each point's unilateral row (joints come first)
  /// The joints whose rows lead A, in order: every joint of the scene, or those of the islands of the
  /// impact (island_set.hpp); their rows are the rows of A before normal_rows[0].
  std::vector<int> joints;
  std::vector<Vec2> positions, normals;  ///< per impact point, for the impulse arrows
  /// Per impact point: the rest speed its plasticity used (m/s; below it the point took e = 0), and
  /// whether that is the nearly-resting speed of a point in a stack (activation_rule.hpp), above the
  /// scenario's rest_speed.
  std::vector<double> rest_speeds;
  std::vector<char> nearly_resting;
  int iterations = 1;            ///< Γ-rule passes
  bool scheduled = false;        ///< a scheduled impulse (i_u ≠ 0) was applied

  std::shared_ptr<const Inertia> inertia;  ///< M, the model's (shared by every record of the run)
  SparseRows jacobian;                     ///< A
  std::optional<double> nu_setting;        ///< the ν asked for; none: the condition-optimal default
  /// q̇⁻, q̇⁺, i_f, i_λ, φ̇±, e_i, energies, flags...; the matrices Ẽ and Q are left empty (full_result
  /// recomputes them), and i_u is empty when it was zero.
  ImpactResult result;
  /// Per frictional point (0 < μ < ∞) of A: its mode, μ_crit, discriminator and cone angle (docs/friction.md);
  /// empty for a frictionless impact. `modes_consistent`: every such point passed its Coulomb check.
  std::vector<ContactFriction> friction;
  bool modes_consistent = true;
  /// A tangential impact (an impact without collision) that ended a Painlevé state: the sliding problem of
  /// the smooth phase had no solution or several (simulator.hpp, docs/friction.md).
  bool painleve = false;

  /// Rank, ν, its optimal interval and cond(Mc) of the projections of the block of coordinates A touches
  /// (unscaled_projection_scalars), computed from M, A and ν on first use and kept: O(t³) in the t touched
  /// coordinates, which the run itself does not pay (a chain of 32 rods spent two thirds of its time there
  /// when every impact computed them).
  const ProjectionScalars& projection_scalars() const;
  /// λ_max(EQE − Q) and its verdict: the result's, or, where the impact's solve left them (the sparse path:
  /// qmi_max_eig NaN), computed on first use from the projections of the coordinates A touches (Q = GᵀMG
  /// with G = SA⁺, which is zero in the rows of the others) and kept: O(t³), like projection_scalars, and
  /// from the same projection of the block (the first of the two asked for computes both).
  const EnergyConsistency& energy_consistency() const;
  /// The projections of (M, A) at the ν asked for, recomputed (O(n³)): bit-identical to the impact's.
  Projection projection() const;
  /// `result` with Ẽ = A⁺EA and Q = GᵀMG recomputed from `projection` (solve_impact on the same inputs),
  /// and λ_max(EQE − Q) with its verdict from energy_consistency (the numbers the summary shows).
  ImpactResult full_result(const Projection& projection) const;
  /// The unilateral rows of A (the normal rows), as solve_impact's mask.
  std::vector<bool> unilateral() const;
  /// Bytes the record holds (what the log's budget counts).
  std::size_t bytes() const;

 private:
  mutable std::optional<ProjectionScalars> projection_scalars_;  ///< projection_scalars, once computed
  mutable std::optional<EnergyConsistency> energy_consistency_;  ///< energy_consistency, once computed
  /// Fills those of projection_scalars_ and (where the solve left it) energy_consistency_ not yet known,
  /// from one projection of the touched block.
  void compute_from_touched_block() const;
};

/// Builds the record of one impact solved on A (`jacobian`) at the ν asked for; drops the matrices of its
/// result.
ImpactRecord make_impact_record(double time, std::shared_ptr<const Inertia> inertia, const Matrix& jacobian,
                                std::optional<double> nu_setting, ImpactSolution&& solution);
/// The same from A in compressed rows (its dense form made only when the record is shown).
ImpactRecord make_impact_record(double time, std::shared_ptr<const Inertia> inertia, const SparseJacobian& jacobian,
                                std::optional<double> nu_setting, ImpactSolution&& solution);

/// The latest impact records within a memory budget (header comment).
class ImpactLog {
 public:
  explicit ImpactLog(std::size_t byte_budget = kImpactLogBytes, std::size_t max_records = kMaxLoggedImpacts)
      : byte_budget_(byte_budget), max_records_(max_records) {}

  /// Appends a record, first dropping the oldest ones it would not fit beside.
  void push(ImpactRecord&& record);
  /// Cuts the log back to the first `count` impacts of the run (those logged later are removed); when
  /// `count` lies beyond the log's end (or before its start), empties it and counts `count` as dropped.
  void cut_back_to(std::size_t count);
  void clear();

  const std::deque<ImpactRecord>& records() const { return records_; }
  std::size_t dropped() const { return dropped_; }
  std::size_t logged() const { return dropped_ + records_.size(); }  ///< impacts of the run so far
  std::size_t bytes() const { return bytes_; }

 private:
  void drop_front();

  std::size_t byte_budget_, max_records_;
  std::deque<ImpactRecord> records_;
  std::size_t dropped_ = 0;
  std::size_t bytes_ = 0;
};

}  // namespace oblique
