// Frictional impacts (Coulomb friction at planar contact points), after Aghili's follow-up to the paper,
// "Energetically consistent model of slipping and sticking frictional impacts in multibody systems"
// (Multibody System Dynamics; preprint arXiv:2109.00333). docs/friction.md derives every formula below.
//
// An impact's Jacobian A holds, besides joints and frictionless rows, `pairs`: for each frictional contact
// point k its normal row n_k (φ̇ = n_k q̇, the approach speed) and its tangential row t_k (the slip speed
// v_t = t_k q̇), both measuring the contact point's velocity in the same units, and Coulomb's μ_k. Every
// impact obeys Newton's law on the normal rows (φ̇⁺ = −e φ̇⁻) and the momentum balance
// M(q̇⁺ − q̇⁻) = Aᵀi_λ + i_u. Each pair is in one of two modes:
//
//   stick: v_t⁺ = 0, the tangential row is plastic — today's impact with E = diag(e on normal rows, 0 on
//          tangential rows):   q̇⁺ = q̇⁻ − S(I + Ẽ)q̇⁻ + Mo⁺i_u,  S, Ẽ of the whole A     (impact.hpp)
//   slip:  the impulse acts along n_k − μ_k s_k t_k (s_k = ±1, the direction of the slip it opposes) and
//          the tangential row carries no velocity law. With A_v the rows that keep a velocity law (every
//          row but the tangential rows of slipping pairs) and B the same rows with n_k replaced by
//          n_k − μ_k s_k t_k (the directions of the impulses):
//            S_slip = M⁻¹Bᵀ(A_v M⁻¹Bᵀ)⁺A_v                    an oblique projector (S_slip² = S_slip)
//            q̇⁺ = q̇⁻ − S_slip(I + Ẽ)q̇⁻ + (I − S_slip)M⁻¹i_u,  Ẽ = A_v⁺EA_v
//          S_slip projects onto range(M⁻¹Bᵀ) along N(A_v); with μ = 0 it is the paper's S of A_v. It shares
//          S² = S, SP = 0, (I − P)S = I − P and R² = I (R = I − 2S) with S, but not MS = SᵀM: its two parts
//          of q̇⁻ are not orthogonal in the kinetic-energy metric, and the energy balance of §3 (γ ≤ 1) does
//          not carry over (docs/friction.md, "What S_slip shares with S").
//
// The mode. The sticking-mode impulse i^st (every pair sticking, restitution included) is linear in q̇⁻,
// i^st = L q̇⁻ (L = −A⁺ᵀMS(I + Ẽ) when i_u = 0). Pair k sticks when i^st lies in its friction cone,
// |i_t| ≤ μ i_n, i.e. when the discriminator, the quadratic form
//            D_k(q̇⁻) = μ_k² (i_n^st)² − (i_t^st)² = q̇⁻ᵀ (μ_k² ℓ_nℓ_nᵀ − ℓ_tℓ_tᵀ) q̇⁻      (ℓ_n, ℓ_t rows of L)
// is ≥ 0 (with i_n^st ≥ 0); its zero in μ is the critical coefficient μ_crit = |i_t^st| / i_n^st, the
// lowest μ that keeps the sticking impulse in the cone. Otherwise the pair slips, on the edge of the cone
// that i^st lies beyond: s = −sign(i_t^st), so that the friction impulse −μ s i_n has the sign of i_t^st.
//
// Slip stopping and reversal. The slipping impulse with the pre-impact direction s = sign(v_t⁻) (Whittaker's
// rule) assumes the slip never stops. When its post-impact slip v_t⁺ has the opposite sign, the slip
// stopped during the impact: either μ ≥ μ_crit (the sticking impulse is in the cone; Kane and Levinson's
// case) and the point sticks, or the sticking impulse lies beyond the other edge (the normal impulse
// drives the slip through zero, which needs a strong coupling of normal and tangential motion) and the
// slip reverses: the impulse is on that other edge. Both follow from one rule, used here for every pair
// and every number of pairs: the final impulse obeys Coulomb's law with respect to the post-impact slip
// (stick: |i_t| ≤ μ i_n; slip: the friction impulse opposes v_t⁺, s v_t⁺ ≥ 0), Moreau's impact law with
// Newton's restitution on the normal rows. For one pair it always has exactly one solution, the
// discriminator's. This is a one-step (linear per mode) model, not Stronge's or Glocker's two-phase
// integration over the impulse; docs/friction.md compares them.
//
// Several pairs. Each finite μ > 0 pair is stick, slip + or slip −; the combinations are tried in a fixed
// order — the discriminator's guess first, then by the number of pairs that differ from it, then
// lexicographically in pair order (stick, slip +, slip −) — and the first whose every pair passes its
// cone or slip-sign check (with i_n ≥ 0) is the answer. Up to kExhaustiveFrictionPairs free pairs the
// order runs through every combination (3⁶ = kMaxFrictionModeCombinations); with more, through the guess
// and the guess with one pair changed (1 + 2k combinations of k pairs, at most kMaxFrictionModeCombinations):
// of 3^k combinations no bounded search is complete, a consistent combination of a large touching group
// lies next to the guess when one is found at all, and every further combination is a dense solve of the
// whole group. When none passes, the guess is returned with `modes_consistent` false. μ = 0 pairs always slip (no
// tangential impulse: bit for bit solve_impact without their tangential rows) and μ = +∞ pairs always stick
// (bit for bit today's `stick` rows).
#pragma once

#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "oblique/math/impact.hpp"
#include "oblique/math/work_gate.hpp"
#include "oblique/sparse/sparse_rows.hpp"

namespace oblique {

/// μ of a contact that never slips (today's `stick`): every impulse is inside its cone.
inline constexpr double kNoSlip = std::numeric_limits<double>::infinity();

/// Most mode combinations solve_frictional_impact tries (3⁶: every combination of six frictional pairs).
inline constexpr int kMaxFrictionModeCombinations = 729;
/// Most free pairs (0 < μ < ∞) whose every mode combination is tried; with more, the guess and its
/// single changes only (header comment).
inline constexpr int kExhaustiveFrictionPairs = 6;

/// One frictional contact point of an impact: its normal and tangential rows of A and Coulomb's μ.
struct FrictionPair {
  int normal_row = 0;   ///< row n_k of A: the approach speed φ̇ = n_k q̇ (Newton's law applies to it)
  int tangent_row = 1;  ///< row t_k of A: the slip speed v_t = t_k q̇, in the same units
  double mu = 0.0;      ///< μ ≥ 0; 0 is frictionless, kNoSlip never slips
};

enum class FrictionMode { Stick, Slip };

/// The mode of one pair: stick, or slip in direction s = ±1 (friction impulse −μ s i_n, opposing a
/// post-impact slip of sign s). `direction` is 0 for stick and for μ = 0.
struct PairMode {
  FrictionMode mode = FrictionMode::Stick;
  int direction = 0;
};

/// What one pair does in the impact.
struct FrictionPairResult {
  int normal_row = 0, tangent_row = 0;  ///< the pair's rows of A
  double mu = 0.0;               ///< the pair's μ
  FrictionMode mode = FrictionMode::Stick;
  int direction = 0;             ///< s of a slipping pair (0 when sticking or frictionless)
  double normal_impulse = 0;     ///< i_n, the multiplier of the normal row
  double tangential_impulse = 0; ///< i_t, of the tangential row (−μ s i_n when slipping)
  double approach_minus = 0, approach_plus = 0;  ///< φ̇⁻ = n q̇⁻, φ̇⁺ = n q̇⁺
  double slip_minus = 0, slip_plus = 0;          ///< v_t⁻ = t q̇⁻, v_t⁺ = t q̇⁺
  /// The sticking-mode impulse (every pair sticking) of this pair, and what it says:
  double sticking_normal_impulse = 0, sticking_tangential_impulse = 0;
  /// μ_crit = |i_t^st| / i_n^st: the lowest μ that keeps the sticking impulse in the cone (0 when both are
  /// 0, +∞ when i_n^st ≤ 0 < |i_t^st|).
  double critical_mu = 0;
  /// D = μ²(i_n^st)² − (i_t^st)², a quadratic form in q̇⁻ (discriminator_matrix); with i_n^st ≥ 0 the pair
  /// sticks iff D ≥ 0. +∞ for μ = kNoSlip.
  double discriminator = 0;
  /// Angle of the sticking impulse (i_n^st, |i_t^st|) to the cone's surface, atan2(|i_t|, i_n) − atan μ:
  /// negative inside, positive outside (then the pair slips).
  double sticking_cone_angle = 0;
  /// The same for the impulse of the impact: ≤ 0 (0 on the cone's surface, where a slipping impulse is).
  double cone_angle = 0;
  bool slip_stopped = false;   ///< slipping before the impact (|v_t⁻| > tolerance), sticking after
  bool slip_reversed = false;  ///< v_t⁺ has the sign opposite to v_t⁻ (both beyond tolerance)
  /// The work of each impulse on the mean velocity, i·(φ̇⁻ + φ̇⁺)/2: normal and tangential (friction); their
  /// sum over pairs and the other rows is W_constraint.
  double normal_work = 0, tangential_work = 0;
};

/// Every output of a frictional impact.
struct FrictionalImpactResult {
  Vector restitution;          ///< e_i used on each row of A (0 on tangential rows)
  Vector qd_minus, qd_plus;    ///< q̇⁻, q̇⁺
  Vector impulse;              ///< i_f = Aᵀi_λ, the generalized impulse of the constraints
  Vector impulse_multipliers;  ///< i_λ, one per row of A (a slipping pair's tangential row: −μ s i_n)
  Vector external_impulse;     ///< i_u
  Vector velocity_minus, velocity_plus;  ///< A q̇⁻, A q̇⁺ (normal rows: φ̇; tangential rows: v_t)
  double kinetic_minus = 0, kinetic_plus = 0;  ///< K⁻, K⁺
  double kinetic_energy_change = 0;  ///< K⁺ − K⁻ (the documents' W_loss)
  double energy_ratio = 0;     ///< γ = K⁺/K⁻ (NaN when K⁻ = 0)
  double constraint_work = 0;  ///< i_f·(q̇⁻ + q̇⁺)/2 (= K⁺ − K⁻ without i_u)
  /// ‖A_v q̇⁺ + E A_v q̇⁻‖/‖A_v q̇⁻‖ over the rows with a velocity law (non-zero only for dependent rows with
  /// unequal e, as in impact.hpp)
  double newton_residual = 0;
  /// Tensile impulses and approach after the impact, on the unilateral rows (tangential rows are never
  /// unilateral); energy_gain: the constraints do positive work, i_f·q̄̇ > 0.
  ImpactFlags flags;
  std::vector<FrictionPairResult> pairs;
  /// The projector of the modes used: S of A_v when no pair slips with μ > 0 (then A_v's own S), S_slip
  /// otherwise.
  Matrix projector;
  std::vector<int> velocity_rows;  ///< the rows of A in A_v, in order
  /// The sticking-mode impact (every pair sticking, tangential rows plastic): today's `stick`.
  ImpactResult sticking;
  bool modes_consistent = true;  ///< every pair passed its cone or slip-sign check
  int combinations_tried = 0;    ///< mode combinations solved (1 when the discriminator's guess held)
};

/// Solves one impact with Coulomb friction at `pairs` (see the header comment). `proj` is the projection of
/// the whole A (its ν, when set, is used for every projection). `restitution` is a global e (applied to
/// every row but the tangential ones) or one e_i per row, 0 on tangential rows. `unilateral` marks rows that
/// may carry the flags (empty: all but tangential rows); `external_impulse` may be empty.
/// Throws std::invalid_argument naming "qd", "e", "E[i]", "iu", "unilateral", "pairs[k]" or "pairs[k].mu".
FrictionalImpactResult solve_frictional_impact(const Projection& proj, const Vector& qd_minus,
                                               const Restitution& restitution, const std::vector<FrictionPair>& pairs,
                                               const Vector& external_impulse = Vector(),
                                               const std::vector<bool>& unilateral = {});

/// solve_frictional_impact one step at a time, for a caller that bounds the work of each call (the
/// simulator, simulator_friction.cpp). Construction checks the inputs, as solve_frictional_impact does and
/// with its messages; the first step() solves the sticking impact and makes the guess, each later one tries
/// one mode combination in the order of the header comment, until a combination obeys Coulomb's law at
/// every pair or the order's combinations were tried: done(), and result() is solve_frictional_impact's
/// result, bit for bit. A copy is the search where it stands: a caller stopped between two steps keeps one
/// and takes the search up again from it.
class FrictionalImpactSearch {
 public:
  /// The search on the projections of (M, A), which the search and its copies keep alive.
  FrictionalImpactSearch(std::shared_ptr<const Projection> projection, const Vector& qd_minus,
                         const Restitution& restitution, const std::vector<FrictionPair>& pairs,
                         const Vector& external_impulse = Vector(), const std::vector<bool>& unilateral = {});
  /// The sparse search, for a diagonal M = diag(`mass`) and A in compressed rows: the same steps and the
  /// same result to round-off, each step solved through Delassus factorisations (delassus.hpp) without an
  /// n×n operator — the sticking impact and the combinations whose impulses lie along their rows by
  /// solve_impact_sparse on A or A_v; a combination with slipping pairs by λ = G⁺r, G = A_v M⁻¹Bᵀ, the
  /// dense search's multipliers: with F = A_v M⁻¹A_vᵀ, U = A_v M⁻¹A_Tᵀ (A_T the slipping pairs' tangential
  /// rows) and V the map λ ↦ (−μ_k s_k λ_{n_k}), G = F + UV, and when A_v and B have one rank
  ///     (I + V F⁺U) y = V F⁺ r′,   x = F⁺(r′ − U y),   λ = Π_B x,      r′ = Π_{A_v} r
  /// (Π_{A_v}, Π_B the orthogonal projectors onto range(A_v) and range(B)); otherwise λ = Gᵀ(G Gᵀ)⁺r from
  /// the Delassus factorisation of G with unit weights. A combination where no factorisation is accurate
  /// (sparse_path.hpp) or the checks fail is solved by the dense search's arithmetic instead
  /// (frictional_impact_sparse.cpp). The result's `projector` is left empty (it is n×n) and its sticking
  /// impact leaves Ẽ, Q and λ_max(EQE − Q) to be computed when asked (solve_impact_sparse). Throws as the
  /// dense search, and naming "M" or "A" as DelassusFactorization.
  FrictionalImpactSearch(const Vector& mass, const SparseJacobian& jacobian, const Vector& qd_minus,
                         const Restitution& restitution, const std::vector<FrictionPair>& pairs,
                         const Vector& external_impulse = Vector(), const std::vector<bool>& unilateral = {});
  FrictionalImpactSearch(const FrictionalImpactSearch& other);
  FrictionalImpactSearch& operator=(const FrictionalImpactSearch& other);
  FrictionalImpactSearch(FrictionalImpactSearch&&) noexcept;
  FrictionalImpactSearch& operator=(FrictionalImpactSearch&&) noexcept;
  ~FrictionalImpactSearch();

  /// The sticking impact is solved and the search over.
  bool done() const;
  /// Steps taken so far (the sticking impact, then one per combination tried).
  int steps() const;
  /// Takes the next step (nothing once done()). A sparse search tells `gate` the pieces of a step before
  /// they run — its factorisations' dependent rows' searches and null bases, each slipping pair's
  /// pseudo-solve, the dense system over the pairs —; a gate that throws stops the step there, its
  /// exception passed on, and the next step() of this search or of a copy made since goes on from there,
  /// giving the bits of an uninterrupted step.
  void step(const WorkGate& gate = {});
  /// The flops the next step is expected to spend, known before it runs: for the sparse search
  /// sparse_step_flops of its factorisations, solves and slipping pairs; 0 once done(). The dense search's
  /// caller charges its projections and steps by their sizes (work_budget.hpp) and gets 0 here. With
  /// `gated`, only what a gate cannot stop (the gate is told the rest piece by piece).
  double next_step_flops(bool gated = false) const;
  /// The impact, once done(); throws std::logic_error before.
  FrictionalImpactResult result() const;

 private:
  struct State;
  explicit FrictionalImpactSearch(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

/// The same impact with every pair in the mode given (one PairMode per pair; a μ = 0 pair may only slip and
/// a kNoSlip one only stick; a slipping pair with μ > 0 needs direction ±1): no search, no check of the
/// cone. Whittaker's rule, for instance, is every pair slipping with s = sign(v_t⁻). `modes_consistent`
/// says whether the modes pass the checks. Throws as solve_frictional_impact, and naming "modes[k]".
FrictionalImpactResult solve_impact_in_modes(const Projection& proj, const Vector& qd_minus,
                                             const Restitution& restitution, const std::vector<FrictionPair>& pairs,
                                             const std::vector<PairMode>& modes,
                                             const Vector& external_impulse = Vector(),
                                             const std::vector<bool>& unilateral = {});

/// The discriminator of pair `pair` as a matrix: D(q̇⁻) = q̇⁻ᵀ Δ q̇⁻ with Δ = μ²ℓ_nℓ_nᵀ − ℓ_tℓ_tᵀ, where
/// ℓ_n, ℓ_t are the rows of L = −A⁺ᵀMS(I + Ẽ) (i^st = L q̇⁻ without i_u) at the pair's normal and tangential
/// rows. μ of the pair must be finite. Throws as solve_frictional_impact.
Matrix discriminator_matrix(const Projection& proj, const Restitution& restitution,
                            const std::vector<FrictionPair>& pairs, int pair);

/// S_slip = M⁻¹Bᵀ(A M⁻¹Bᵀ)⁺A: the projector onto range(M⁻¹Bᵀ) along N(A) for velocity rows A and
/// impulse directions B of the same size (the pseudo-inverse chooses the minimum-norm multipliers when rows
/// are dependent). With B = A it is the paper's S. Throws std::invalid_argument naming "B" on a size mismatch.
Matrix slip_projector(const Inertia& inertia, const Matrix& velocity_rows, const Matrix& impulse_rows);

/// Residuals of a solved frictional impact: momentum balance M(q̇⁺ − q̇⁻) = Aᵀi_λ + i_u, the projector's
/// S² = S and A_v S = A_v, Newton's law on the normal rows, the work identity K⁺ − K⁻ = (i_f + i_u)·q̄̇, and
/// Coulomb's law: the cone (max(0, |i_t| − μ i_n)) and the slip sign (max(0, −s v_t⁺)), relative.
Residuals frictional_impact_identities(const Projection& proj, const FrictionalImpactResult& result);

/// "stick" or "slip".
const char* friction_mode_name(FrictionMode mode);

}  // namespace oblique
