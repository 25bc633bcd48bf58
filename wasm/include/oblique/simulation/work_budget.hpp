// The work of one advance call, counted in floating-point operations (flops), so that a call returns in
// about the same time whatever the scenario: 64 rods or one ball, a step of 1 µs or of 0.1 s.
//
// Each expensive evaluation is charged an estimate from its sizes — n coordinates, m rows of A, r ≤ min(m, n)
// its rank taken as min(m, n) — plus 8000 + 200n² for what it costs besides arithmetic (allocations,
// small-matrix overhead: measured, it dominates below n ≈ 20):
//
//   projection (P, Mc, S, R of one (M, A); projection.cpp)  2nmr + 4n²r + 2nrm + 7mr² + 8n²(n−r) + 4n(n−r)²
//                                                           + 2(n−r)³ + (7/3)n³
//   impact solve (solve_impact: Ẽ, Q, Mo⁺, two m×m spectra)  2n³ + 6n²m + 2nm² + 6m³
//   constrained dynamics (q̈, f, λ from a projection)         10n² + 4nm
//   sparse smooth phase (Delassus factorisation, q̈, f, λ,     4000 + 2nm + 400(n + m)
//     the velocity projection: delassus.hpp)
//   position correction (one Gauss–Newton pass, a COD of A)  4nmr + 2nm
//   the same on the sparse path (A⁺φ from the Delassus        4000 + 2nm + 400(n + m) + 2nm
//     factorisation of A Aᵀ)
//   multiplier split (non-negative least squares, warm-      per passive solve, before it runs: a COD of the
//     started: nonnegative_split.hpp)                         passive block of p rows, 4npr + 2np; the first also the
//                                                             split's own work, 8000 + 200n²
//   the same on the sparse path                               per passive solve on p passive rows, before it
//                                                             runs: 4000 + 2nm + 400(n + m) + 4nm (A's size:
//                                                             a passive set's pattern may fill in as much), and
//                                                             4npr + 2np before a COD in place of a
//                                                             factorisation not accurate; after it, 2000p
//                                                             when its pattern of passive rows was new; the
//                                                             first also the split's own work (the gradient), 8e
//                                                             (e: A's entries, nm when A is dense)
//   a passive solve replayed (a split taken again)            4e + 50n (the split's own steps around it)
//   symbolic analysis of a new pattern of A (AMD ordering,     2000m, charged after any sparse factorisation
//     elimination tree, the plan of K: delassus.hpp)           whose analyses() grew
//   sparse impact solve (a Delassus factorisation made       2000m + 3(4000 + 2nm + 400(n + m))
//     afresh, K μ = …, Π: sparse_path.hpp)
//   its dense fallback (nearly dependent kept rows): the      2 projection, then 2 impact solve
//     projections, then the impact solve on them
//   automatic contacts (broad and narrow phase)               5 × AutomaticContacts::find's estimate
//   a dense A for the plastic follow-up (made, scanned)       30nm, charged before it is made
//   a frictional impact's set-up on compressed rows (its     4000 + 2nm + 400(n + m), before it runs
//     parts, A q̇⁻)
//   a restore (checks, copies, the views as shown)            8000 + 200(n + p); no evaluation
//   an evaluation replayed from memory (a step taken again)   2nm + 50n, m the rows of a dense A hashed in its
//                                                             key (a split, an impact; else 0)
//   every step's and evaluation's own bookkeeping             50(n + p), p contact points
//
// Measured on these kernels, the estimates are proportional to the time taken, about 6·10⁹ estimated flops
// a second natively and 2–3·10⁹ in scalar WebAssembly. The charges after an evaluation (what a split did,
// the analyses, the dense fallback, the contacts, the replays) were calibrated on the longest calls of the
// built-ins (docs/worst-advance-profile.md: a split of the pile of 30 did 21 passive solves on average where
// 3 were charged, most on a new pattern) and on the four scene families' systems with every row active (the
// analysis measured 0.2–1.1 × 2000m, the sparse impact 0.5–1.5 × its charge, natively); they count what an
// evaluation did once it is done, so they cannot stop it, only the next one. The budget, kWorkBudgetFlops =
// 8·10⁶, is about 1.5–2.5 ms natively and 3 ms in a browser. A call stops at its budget between two
// evaluations, or between two parts of the largest ones: a split's passive solves, and the dense impact
// fallback's projections and its impact solve (2–3 ms natively each at n = 90). The step it was in is taken
// again by the next call from its start, the evaluations and parts already done replayed from memory, so
// where a call returns never changes the results (simulator.hpp). The sparse smooth phase's factorisations
// are charged only what their gate cannot stop (the triangular solves of K's rows, and the solves after it);
// each dependent row's search for its nearest combination, 6 nnz(L) + 14m + 4 nnz(A), and the null basis,
// 4 nnz(Z) + 2 Σ_i (entries of Z in row i)² + (2/3)d³, are pieces charged as they come (WorkBudget::piece),
// between which a call stops and the factorisation waits, in progress, for the next call. A part larger than
// the budget runs whole (a projection at n = 192, the largest legal scenario's, estimated at 0.9–1.5·10⁸).
#pragma once

#include <algorithm>

#include "oblique/sparse/delassus.hpp"

namespace oblique {

/// Flops one advance call may spend (header comment).
inline constexpr double kWorkBudgetFlops = 8e6;

namespace work {

/// The estimates of the header comment, for n coordinates, m rows and p contact points.
inline double overhead(double n) { return 8000 + 200 * n * n; }
inline double projection(double n, double m) {
  const double r = std::min(n, m), free = n - r;
  return overhead(n) + 2 * n * m * r + 4 * n * n * r + 2 * n * r * m + 7 * m * r * r + 8 * n * n * free +
         4 * n * free * free + 2 * free * free * free + 7.0 / 3.0 * n * n * n;
}
inline double impact_solve(double n, double m) { return 2 * n * n * n + 6 * n * n * m + 2 * n * m * m + 6 * m * m * m; }
inline double dynamics(double n, double m) { return 10 * n * n + 4 * n * m; }
inline double sparse_dynamics(double n, double m) { return 4000 + 2 * n * m + 400 * (n + m); }
inline double position_correction(double n, double m) { return overhead(n) + 4 * n * m * std::min(n, m) + 2 * n * m; }
inline double sparse_position_correction(double n, double m) { return sparse_dynamics(n, m) + 2 * n * m; }
/// One passive least-squares solve of the split: a COD of the n×m block of Aᵀ (dense), or the Delassus
/// factorisation of the passive rows and its solves (sparse).
inline double passive_solve(double n, double m) { return 4 * n * m * std::min(n, m) + 2 * n * m; }
inline double sparse_passive_solve(double n, double m) { return sparse_dynamics(n, m) + 4 * n * m; }
/// What a split does besides its passive solves, charged with the first: setting up, and the gradients,
/// over A's `entries` (n·m for a dense A, its stored entries when it is compressed only).
inline double multiplier_split_own(double n, double entries, bool sparse) { return sparse ? 8 * entries : overhead(n); }
/// A passive solve taken from memory when a split stopped by the budget runs again: the split's own steps
/// around it (the gradient Aᵀ(f − Aλ) over A's `entries`, the step toward z) and the replay's lookup.
inline double replayed_passive_solve(double n, double entries) { return 4 * entries + 50 * n; }
/// The symbolic analysis of a pattern of A's m rows not among those kept (DelassusFactorization::analyses()).
inline double symbolic_analysis(double m) { return kSymbolicAnalysisFlopsPerRow * m; }
/// One sparse impact solve: a Delassus factorisation made afresh (its analysis) and the impact's solves.
inline double sparse_impact_solve(double n, double m) { return symbolic_analysis(m) + 3 * sparse_dynamics(n, m); }
/// The dense impact solve the sparse one falls back to, twice the estimates as measured, in two parts that
/// the budget may stop between: the projections, then the impact solve on them.
inline double dense_fallback_projection(double n, double m) { return 2 * projection(n, m); }
inline double dense_fallback_impact(double n, double m) { return 2 * impact_solve(n, m); }
/// A dense A of m rows made for a solve that takes it dense (the plastic follow-up) and the scans of it
/// before the solve (the rows' speeds): memory-bound, about 30 flops' time an entry as measured (5 ms
/// natively for 992 rows on 768 coordinates).
inline double dense_rows(double n, double m) { return 30 * n * m; }
/// The broad and narrow phases of the automatic contacts, from AutomaticContacts::find's own estimate.
inline double contact_search(double estimate) { return 5 * estimate; }
inline double bookkeeping(double n, double points) { return 50 * (n + points); }
/// A restore (Simulator::restore_state): the state's checks and copies, and its views put back as shown —
/// a contact frame, a gap and a normal velocity per point —, with no evaluation (q̈ and λ are left to the
/// next call).
inline double restore(double n, double points) { return 8000 + 200 * (n + points); }
/// An evaluation taken from memory when a step is taken again: its key hashed again, over a dense A of m
/// rows for a split or an impact (m = 0 for the others).
inline double replay(double n, double m) { return 2 * n * m + 50 * n; }

}  // namespace work

/// The flops of one advance call against its budget.
class WorkBudget {
 public:
  /// Thrown by begin() when the budget cannot pay for the next evaluation; the Simulator catches it.
  struct Exhausted {};

  /// A new call with `limit` flops. `progress`: the call's first evaluation runs whatever its size (every
  /// advance call makes progress); without it, as in the constructor's call, whose work the next calls
  /// can take, an evaluation larger than the budget is left to them.
  void start(double limit, bool progress = true) {
    limit_ = limit;
    spent_ = 0.0;
    fresh_ = progress ? 0 : 1;
    pieces_ = progress ? 0 : 1;
  }
  /// Before an evaluation of `flops` not done before: throws Exhausted when it would overrun the budget
  /// and this call has done one already (so every call makes progress); otherwise counts it.
  void begin(double flops) {
    if (fresh_ > 0 && spent_ + flops > limit_) throw Exhausted{};
    ++fresh_;
    spent_ += flops;
  }
  /// Before work that is not an evaluation kept for a replay (a dense A made for a solve, done again when
  /// its step is taken again): throws Exhausted when it would overrun the budget and this call has done an
  /// evaluation already (or may not make progress), without counting as the call's progress; otherwise
  /// counts it.
  void require(double flops) {
    if (fresh_ > 0 && spent_ + flops > limit_) throw Exhausted{};
    spent_ += flops;
  }
  /// Before a piece of an evaluation that can stop between its pieces and be taken up where it stopped
  /// (a Delassus factorisation's searches: WorkGate): throws Exhausted when it would overrun the budget,
  /// unless it is the first piece of the call's first evaluation (so that an evaluation too large for any
  /// one call still advances a piece a call); otherwise counts it.
  void piece(double flops) {
    if ((pieces_ > 0 || fresh_ > 1) && spent_ + flops > limit_) throw Exhausted{};
    ++pieces_;
    spent_ += flops;
  }
  /// Counts work that cannot stop the call (small, or inside an evaluation).
  void add(double flops) { spent_ += flops; }
  bool exhausted() const { return spent_ >= limit_; }
  double spent() const { return spent_; }

 private:
  double limit_ = kWorkBudgetFlops;
  double spent_ = 0.0;
  long fresh_ = 0;
  long pieces_ = 0;
};

}  // namespace oblique
