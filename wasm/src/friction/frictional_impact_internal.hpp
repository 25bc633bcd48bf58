// The parts of Aghili's frictional impact (frictional_impact.hpp) that its search keeps from step to step
// (FrictionalImpactSearch): the checked problem, one mode combination solved, and the helpers that fill and
// check one. Internal to frictional_impact.cpp.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "oblique/friction/frictional_impact.hpp"

namespace oblique::detail {

/// The checked inputs of one frictional impact, shared by every mode combination, with the projections of
/// the whole (M, A).
struct FrictionProblem {
  std::shared_ptr<const Projection> projection;
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
  int rows() const { return projection->m(); }
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

/// Writes the outcome of one impact solved by the projections (q̇⁺, i_f, energies, flags) and its projector
/// S into an attempt; the caller sets its modes, velocity rows and i_λ.
void fill_attempt(FrictionAttempt& attempt, const ImpactResult& r, Matrix projector);

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

}  // namespace oblique::detail
