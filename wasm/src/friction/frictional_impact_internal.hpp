// The parts of Aghili's frictional impact (frictional_impact.hpp) that its search keeps from step to step
// (FrictionalImpactSearch): the checked problem, one mode combination solved, and the helpers that fill and
// check one. Internal to frictional_impact.cpp.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "friction/oblique_multipliers.hpp"
#include "oblique/friction/frictional_impact.hpp"
#include "oblique/math/work_gate.hpp"
#include "oblique/sparse/delassus.hpp"
#include "oblique/sparse/sparse_rows.hpp"

namespace oblique::detail {

/// The checked inputs of one frictional impact, shared by every mode combination, with the projections of
/// the whole (M, A) — or, for the sparse search, A in compressed rows and diag M, and no projection.
struct FrictionProblem {
  std::shared_ptr<const Projection> projection;
  bool sparse = false;               // the sparse search (frictional_impact_sparse.cpp)
  SparseJacobian sparse_jacobian;    // A, when sparse
  Vector mass;                       // diag M, when sparse
  int row_count = 0;                 // m
  Inertia inertia;
  Vector qd_minus;
  Vector external_impulse;
  Restitution restitution;            // as given (global or per row)
  Vector row_restitution;             // e_i per row of A, 0 on tangential rows
  std::vector<FrictionPair> pairs;
  std::vector<char> tangent;          // per row of A: a pair's tangential row
  std::vector<bool> unilateral;       // per row of A; tangential rows false
  std::optional<double> nu;           // the ν of every projection (none: each its optimal one)

  const Projection& proj() const { return *projection; }
  int rows() const { return row_count; }
  /// A as a dense matrix (the projection's, or made from the compressed rows).
  Matrix dense_jacobian() const;
  /// M as a dense matrix.
  const Matrix& dense_inertia() const { return sparse ? inertia.matrix() : projection->inertia(); }
  /// A v.
  Vector times(const Vector& v) const;
  /// Row `row` of A times v.
  double row_times(int row, const Vector& v) const;
};

/// Checks every input where it enters (naming "qd", "e", "E[i]", "iu", "unilateral", "pairs[k]" or
/// "pairs[k].mu") and builds the problem of an A of m rows on n coordinates with M = `inertia`, without A.
FrictionProblem make_friction_problem(Inertia inertia, int n, int m, std::optional<double> nu, const Vector& qd_minus,
                                      const Restitution& restitution, const std::vector<FrictionPair>& pairs,
                                      const Vector& external_impulse, const std::vector<bool>& unilateral);

/// One mode combination solved: everything the checks and the result need.
struct FrictionAttempt {
  std::vector<PairMode> modes;
  std::vector<int> velocity_rows;     // rows of A with a velocity law (A_v)
  Vector qd_plus;
  Vector impulse;                     // i_f
  Vector multipliers;                 // i_λ per row of A
  Matrix projector;                   // S of A_v, or S_slip
  double kinetic_minus = 0, kinetic_plus = 0, kinetic_energy_change = 0, energy_ratio = 0, constraint_work = 0;
  double newton_residual = 0;
  ImpactFlags flags;                  // row indices of A
};

/// Solves the impact with every pair in `modes` on dense matrices: the projections of A_v, or the oblique
/// factors M⁻¹Bᵀ and (A_v M⁻¹Bᵀ)⁺ (frictional_impact.hpp). The sparse search's fallback too.
FrictionAttempt solve_modes_dense(const FrictionProblem& p, const std::vector<PairMode>& modes);


/// The sticking-mode impact of a sparse problem: solve_impact_sparse on the Delassus factorisation of the
/// whole A (the dense Projection where that factorisation is not accurate, sparse_path.hpp).
ImpactResult sparse_sticking_impact(const FrictionProblem& p, SparseStepProgress& progress, const WorkGate& gate = {});

/// One mode combination of a sparse problem (frictional_impact_sparse.cpp): the same attempt as
/// solve_modes_dense, to round-off, without an n×n operator; its `projector` is left empty. With a gate,
/// its pieces — each factorisation's searches and null basis, each slipping pair's pseudo-solve, the dense
/// system over the pairs — are told to it before they run.
FrictionAttempt solve_modes_sparse(const FrictionProblem& p, const std::vector<PairMode>& modes,
                                   SparseStepProgress& progress, const WorkGate& gate = {});

/// Flops one step of a sparse search is expected to spend, known before it runs: its factorisations of
/// n coordinates and m rows and, with `slipping` pairs slipping with μ > 0, their solves and the dense
/// system over them (frictional_impact_sparse.cpp). With `gated`, only what a gate cannot stop.
double sparse_step_flops(double n, double m, double slipping, bool gated = false);

/// Writes the outcome of one impact solved by the projections (q̇⁺, i_f, energies, flags) and its projector
/// S into an attempt; the caller sets its modes, velocity rows and i_λ.
void fill_attempt(FrictionAttempt& attempt, const ImpactResult& r, Matrix projector);

/// An attempt whose impulses lie along its velocity rows (set by the caller), from the paper's impact `r` on
/// those rows alone: i_λ and the flags of r reported as rows of A, the rest as fill_attempt.
void fill_attempt_on_rows(FrictionAttempt& attempt, const ImpactResult& r, Matrix projector);

/// The velocity rows of `modes` (every row of A but the tangential rows of slipping pairs), and whether a
/// pair with μ > 0 slips (the impulses are then oblique to the rows).
std::vector<int> velocity_rows_of(const FrictionProblem& p, const std::vector<PairMode>& modes, bool& oblique);

/// Restitution of the rows `rows` of A: uniform when the impact's e is global and no row is tangential
/// (then solve_impact's global form, bit for bit), else per row.
Restitution restitution_of_rows(const FrictionProblem& p, const std::vector<int>& rows);

/// Flags of impact.cpp's rule over the velocity rows (tolerances from those rows), reported as rows of A.
ImpactFlags flags_over(const FrictionProblem& p, const std::vector<int>& rows, const Vector& multipliers_v,
                       const Vector& minus_v, const Vector& plus_v, double constraint_work, double k_minus,
                       double k_plus);

/// An attempt's ends, whichever arithmetic solved it (dense projections or Delassus factorisations), given its
/// q̇⁺, i_f, the momenta p∓ = Mq̇∓, and over the velocity rows A_v q̇∓, their e and λ:
///   K∓ = ½ q̇∓ᵀp∓,  W = ½ i_fᵀ(q̇⁻ + q̇⁺),  γ = K⁺/K⁻,  Newton's residual ‖A_vq̇⁺ + EA_vq̇⁻‖ / ‖A_vq̇⁻‖,
/// and the flags of flags_over.
void finish_attempt(const FrictionProblem& p, const std::vector<int>& rows, const Vector& multipliers_v,
                    const Vector& momentum_minus, const Vector& momentum_plus, const Vector& minus_v,
                    const Vector& plus_v, const Vector& restitution_v, FrictionAttempt& out);

}  // namespace oblique::detail
