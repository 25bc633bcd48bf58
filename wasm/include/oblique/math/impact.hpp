// The projection-based impact model (paper §3 and §4).
//
// With S, R, P, Mo⁺ of the impact Jacobian A (see projection.hpp), pre-impact velocity q̇⁻ and external
// impulse i_u:
//
//   global e:   q̇⁺ = q̇⁻ − (1 + e) S q̇⁻ + Mo⁺ i_u                       (eq. (27))
//               i_f = −(1 + e) Sᵀ M q̇⁻ − Sᵀ i_u                          (eq. (30))
//               p⁺ = (e Rᵀ + (1 − e)(I − Sᵀ)) p⁻ + (I − Sᵀ) i_u          (eq. (29))
//   per row E:  Ẽ = A⁺ E A,  q̇⁺ = q̇⁻ − S (Ẽ + I) q̇⁻ + Mo⁺ i_u           (eq. (49))
//               i_f = −M S (Ẽ + I) q̇⁻ − Sᵀ i_u                           (eq. if2)
//   both:       i_λ = A⁺ᵀ i_f,  K± = ½ q̇±ᵀ M q̇±,  W_loss = K⁺ − K⁻,  γ = K⁺ / K⁻
//               K⁺ − K⁻ = (i_f + i_u)·q̄̇ with q̄̇ = ½(q̇⁻ + q̇⁺): i_f·q̄̇ is the constraints' work
//               W_loss = −½ q̇⁻ᵀ (I − Ẽᵀ) SᵀMS (I + Ẽ) q̇⁻ + ½ i_uᵀ Mo⁺ i_u + q̇⁻ᵀ (I − Sᵀ) i_u
//               G = S A⁺,  Q = Gᵀ M G:  E is energetically consistent iff λ_max(E Q E − Q) ≤ 0   (eq. (55))
//
// With a rank-deficient A and unequal e_i the Newton law A q̇⁺ = −E A q̇⁻ holds only in the least-squares
// sense (A q̇⁺ = −A A⁺ E A q̇⁻); `newton_residual` reports how far it is from holding exactly.
// The paper's model sets no sign on impulses: `flags` says when the closed form is not physical.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "oblique/math/projection.hpp"

namespace oblique {

/// Restitution of one impact: a global coefficient e, or one e_i per row of A (E = diag(e_i)).
struct Restitution {
  bool is_global = true;
  double global = 0.0;   ///< e, used when is_global
  Vector per_row;        ///< e_i, used when !is_global; 0 for bilateral rows

  static Restitution uniform(double e) { return Restitution{true, e, Vector()}; }
  static Restitution rows(Vector e) { return Restitution{false, 0.0, std::move(e)}; }
};

/// What the closed form gets wrong physically, per unilateral row index of A.
struct ImpactFlags {
  std::vector<int> tensile_impulse;        ///< rows with i_λ < 0: the contact would pull
  std::vector<int> approach_after_impact;  ///< rows with (A q̇⁺)_i < 0: still approaching after the impact
  /// The constraint impulse does positive work, i_f·(q̇⁻ + q̇⁺)/2 > 0: the contacts create kinetic energy.
  /// Without an external impulse this is γ > 1; with one, the work of i_u is not counted.
  bool energy_gain = false;
  bool any() const { return energy_gain || !tensile_impulse.empty() || !approach_after_impact.empty(); }
};

/// Named residual norms of the paper's identities, each relative to the size of its terms.
using Residuals = std::vector<std::pair<std::string, double>>;

/// Every output of the impact model.
struct ImpactResult {
  Vector restitution;        ///< e_i used for each row of A (the global e repeated when global)
  bool global_restitution = true;
  Matrix restitution_transfer;  ///< Ẽ = A⁺ E A
  Vector qd_minus;           ///< q̇⁻
  Vector qd_plus;            ///< q̇⁺
  Vector impulse;            ///< i_f, generalized impulse of the constraints
  Vector impulse_multipliers;  ///< i_λ = A⁺ᵀ i_f
  Vector external_impulse;   ///< i_u
  Vector normal_velocity_minus;  ///< A q̇⁻
  Vector normal_velocity_plus;   ///< A q̇⁺
  double kinetic_minus = 0;  ///< K⁻
  double kinetic_plus = 0;   ///< K⁺
  /// K⁺ − K⁻: negative when the impact loses kinetic energy. Written as the document's `W_loss`, a name
  /// kept for the documents' sake; its sign is this one (docs/cli.md, `oblique impact`).
  double kinetic_energy_change = 0;
  double energy_ratio = 0;   ///< γ = K⁺/K⁻; NaN when K⁻ = 0
  double constraint_work = 0;  ///< i_f·(q̇⁻ + q̇⁺)/2, the constraints' share of K⁺ − K⁻ (= W_loss when i_u = 0)
  /// Q = Gᵀ M G with G = S A⁺ (m×m, symmetric): the matrix of the energetic-consistency test
  /// λ_max(E Q E − Q) ≤ 0 (eq. (55)); the document's `Q`.
  Matrix consistency_matrix;
  double qmi_max_eig = 0;    ///< λ_max(E Q E − Q)
  bool energy_consistent = true;  ///< λ_max(E Q E − Q) ≤ 0 (to rounding)
  double newton_residual = 0;     ///< ‖A q̇⁺ + E A q̇⁻‖ / ‖A q̇⁻‖
  ImpactFlags flags;
};

/// Solves one impact with the projections of (M, A). `unilateral` marks which rows of A may carry the
/// flags (empty: all rows are unilateral); `external_impulse` may be empty (i_u = 0).
/// Throws std::invalid_argument naming "qd", "e", "E[i]", "iu" or "unilateral" on bad input.
ImpactResult solve_impact(const Projection& proj, const Vector& qd_minus, const Restitution& restitution,
                          const Vector& external_impulse = Vector(),
                          const std::vector<bool>& unilateral = {});

/// λ_max(E Q E − Q) with E = diag(`restitution`): E is energetically consistent iff this is ≤ 0 (eq. (55)).
/// `consistency_matrix` is Q = GᵀMG (m×m, symmetric). Throws std::invalid_argument naming "Q" or "E" on a
/// size mismatch.
double energy_consistency_margin(const Matrix& consistency_matrix, const Vector& restitution);

/// The energetic-consistency verdict of an impact (eq. (55)): λ_max(E Q E − Q), and whether it is ≤ 0 to
/// rounding (≤ 1e-10 · max|λ(Q)|).
struct EnergyConsistency {
  double qmi_max_eig = 0;
  bool consistent = true;
};

/// The verdict for Q = GᵀMG (`consistency_matrix`, m×m, symmetric) and E = diag(`restitution`); m = 0 is
/// consistent with margin 0.
EnergyConsistency energy_consistency(const Matrix& consistency_matrix, const Vector& restitution);

/// Q = Gᵀ M G with G = S A⁺ (m×m, symmetric part taken) of a projection: the matrix of the consistency test.
Matrix consistency_matrix(const Projection& proj);

/// Finest grid of energy_consistency_map (points per side).
inline constexpr int kMaxConsistencyMapResolution = 512;
/// Largest cost of one energy_consistency_map, resolution² · m³ for an m×m Q (an m×m eigenvalue problem per
/// grid point): about half a second natively. Beyond it the map is refused, naming the finest resolution
/// the Q allows.
inline constexpr double kMaxConsistencyMapWork = 5e7;

/// energy_consistency_margin over the square of two restitution coefficients (e₁, e₂) ∈ [0, 1]²: E is
/// `restitution` with its entries `row_a` set to e₁ = col/(resolution − 1) and `row_b` to
/// e₂ = row/(resolution − 1), at entry `row * resolution + col`. The other rows keep their coefficient (0
/// for joints and tangential rows). resolution in [2, kMaxConsistencyMapResolution], and resolution² · m³ at
/// most kMaxConsistencyMapWork. Throws std::invalid_argument naming "Q", "E", "rows" or "resolution".
std::vector<double> energy_consistency_map(const Matrix& consistency_matrix, const Vector& restitution, int row_a,
                                           int row_b, int resolution);

/// The impact in the plane of (I − S)q̇⁻ and Sq̇⁻, lengths and angles in the kinetic-energy metric
/// ⟨u, v⟩ = uᵀMv (|q̇|² = 2K), in which the two parts are orthogonal (SᵀMS = MS, paper §3):
///   allowed = |(I − S)q̇⁻|,  blocked = |Sq̇⁻|,  allowed² + blocked² = 2K⁻,
///   q̇⁺ = plus_allowed·(I − S)q̇⁻/allowed + plus_blocked·Sq̇⁻/blocked + (a part of length `outside`
///   off the plane: non-zero only when the eᵢ differ or an impulse i_u is applied).
/// With a global e and no i_u: plus_allowed = allowed, plus_blocked = −e·blocked.
struct VelocityPlane {
  double allowed = 0.0, blocked = 0.0;
  double plus_allowed = 0.0, plus_blocked = 0.0;
  double outside = 0.0;
};

/// The velocity plane of one solved impact (O(n²)).
VelocityPlane velocity_plane(const Projection& proj, const ImpactResult& result);

/// Row lengths of A outside [2⁻²⁰, 2²⁰] (about 10⁻⁶ to 10⁶) are rescaled by equilibrate_rows.
inline constexpr int kRowScaleExponent = 20;

/// Rescales, exactly by a power of two, every row of `jacobian` whose length lies outside
/// [2^-kRowScaleExponent, 2^kRowScaleExponent] to a length in [½, 1); zero rows and rows inside the band are
/// left as they are (so ordinary input gives bit-identical results). A row's length does not change the
/// constraint it expresses: N(A), P, S, R, q̇⁺ and the energies are the same (with a rank-deficient A and
/// unequal eᵢ the least-squares Newton law weighs rows by their length); but a row of length 10⁻³⁰⁰ squares
/// to zero and one of 10³⁰⁰ to infinity, and the rank decision, relative to the longest row, drops rows
/// much shorter than it. Returns the factor each row was multiplied by (1 where unchanged); φ̇ and i_λ of
/// the rescaled system are per rescaled row (φ̇ times the factor, i_λ divided by it).
Vector equilibrate_rows(Matrix& jacobian);

/// Residuals of the identities of S, R, P, Mo⁺ alone (no impact data): S² = S, SP = 0, (I−P)S = I−P,
/// MS = SᵀM = SᵀMS, (I−S)M⁻¹ = Mo⁺, R² = I. O(n³): for reports and tests, not for the hot path.
Residuals projection_identities(const Projection& proj);

/// projection_identities plus those of one solved impact: momentum balance M(q̇⁺ − q̇⁻) = i_f + i_u, the
/// closed-form energy change, and (global e) the momentum form. O(n³): for reports and tests.
Residuals impact_identities(const Projection& proj, const ImpactResult& result);

}  // namespace oblique
