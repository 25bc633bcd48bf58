#include "oblique/friction/frictional_impact.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "friction/frictional_impact_internal.hpp"
#include "math/checks.hpp"
#include "math/impact_kernel.hpp"
#include "math/max_abs.hpp"

namespace oblique {

using detail::FrictionAttempt;
using detail::FrictionProblem;
using detail::max_abs;

namespace {

/// ‖a − b‖ relative to the larger of ‖a‖, ‖b‖ and `floor`.
double relative_gap(const Matrix& a, const Matrix& b, double floor) {
  const double scale = std::max({a.norm(), b.norm(), floor});
  return scale > 0.0 ? (a - b).norm() / scale : 0.0;
}

int sign_of(double x) { return x > 0.0 ? 1 : (x < 0.0 ? -1 : 0); }

bool is_finite_positive_mu(double mu) { return mu > 0.0 && std::isfinite(mu); }

// Angles to the cone in the same bits in every build: the C libraries' atan differ by an ulp between the
// native CLI (glibc) and the wasm module (musl), so, as trigonometry.hpp does for cos and sin, arctangents
// here use additions, multiplications and divisions only (IEEE-754 rounds them identically everywhere).
constexpr double kQuarterPi = 0.78539816339744830962;
constexpr double kHalfPi = 1.57079632679489661923;
constexpr double kTanEighthPi = 0.41421356237309504880;

/// atan t for t ≥ 0 (+∞ gives π/2): t > 1 → π/2 − atan(1/t); t > tan(π/8) → π/4 + atan((t − 1)/(t + 1)); then
/// |t| ≤ tan(π/8) and the series t − t³/3 + t⁵/5 − … to t⁴⁹ (the first neglected term is below 10⁻²⁰).
double portable_atan_nonnegative(double t) {
  if (std::isnan(t)) return t;
  if (t > 1.0) return kHalfPi - portable_atan_nonnegative(1.0 / t);
  double offset = 0.0;
  if (t > kTanEighthPi) {
    offset = kQuarterPi;
    t = (t - 1.0) / (t + 1.0);
  }
  const double z = t * t;
  double p = 1.0 / 49.0;
  for (int k = 23; k >= 0; --k) p = (k % 2 == 0 ? 1.0 : -1.0) / (2.0 * k + 1.0) + z * p;
  return offset + t * p;
}

/// The angle of (x, y) with y ≥ 0, in [0, π]: atan2(y, x) for the upper half-plane.
double portable_atan2_upper(double y, double x) {
  if (std::isnan(x) || std::isnan(y)) return std::numeric_limits<double>::quiet_NaN();
  if (x > 0.0) return portable_atan_nonnegative(y / x);
  if (x < 0.0) return 2.0 * kHalfPi - portable_atan_nonnegative(y / -x);
  return y > 0.0 ? kHalfPi : 0.0;
}

}  // namespace

namespace detail {

Vector FrictionProblem::times(const Vector& v) const {
  return sparse ? Vector(sparse_jacobian * v) : Vector(proj().jacobian() * v);
}

double FrictionProblem::row_times(int row, const Vector& v) const {
  return sparse ? sparse_jacobian.row(row).dot(v) : proj().jacobian().row(row).dot(v);
}

Matrix FrictionProblem::dense_jacobian() const { return sparse ? Matrix(sparse_jacobian) : proj().jacobian(); }

FrictionProblem make_friction_problem(Inertia inertia, int n, int m, std::optional<double> nu, const Vector& qd_minus,
                                      const Restitution& restitution, const std::vector<FrictionPair>& pairs,
                                      const Vector& external_impulse, const std::vector<bool>& unilateral) {
  // q̇⁻ and i_u.
  if (qd_minus.size() != n) {
    detail::fail("qd", "must have " + std::to_string(n) + " entries (the size of M), got " +
                           std::to_string(qd_minus.size()));
  }
  detail::check_finite(qd_minus, "qd");
  Vector iu = external_impulse.size() == 0 ? Vector::Zero(n) : external_impulse;
  if (iu.size() != n) {
    detail::fail("iu", "must have " + std::to_string(n) + " entries (the size of M), got " +
                           std::to_string(external_impulse.size()));
  }
  detail::check_finite(iu, "iu");
  if (!unilateral.empty() && static_cast<int>(unilateral.size()) != m) {
    detail::fail("unilateral", "must have one flag per row of A (" + std::to_string(m) + "), got " +
                                   std::to_string(unilateral.size()));
  }

  // The pairs: rows of A, each row in one pair at most, μ ≥ 0 (+∞ allowed).
  std::vector<int> owner(static_cast<std::size_t>(m), -1);
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    const FrictionPair& pair = pairs[k];
    const std::string field = "pairs[" + std::to_string(k) + "]";
    for (const auto& [row, what] : {std::pair{pair.normal_row, "normal"}, std::pair{pair.tangent_row, "tangential"}}) {
      if (row < 0 || row >= m) {
        detail::fail(field, std::string("its ") + what + " row " + std::to_string(row) + " is not a row of A" +
                                (m > 0 ? " (0.." + std::to_string(m - 1) + ")" : " (A has no rows)"));
      }
    }
    if (pair.normal_row == pair.tangent_row) {
      detail::fail(field, "its normal and tangential rows are both row " + std::to_string(pair.normal_row));
    }
    for (int row : {pair.normal_row, pair.tangent_row}) {
      const int other = owner[static_cast<std::size_t>(row)];
      if (other >= 0) {
        detail::fail(field, "row " + std::to_string(row) + " is already in pairs[" + std::to_string(other) + "]");
      }
      owner[static_cast<std::size_t>(row)] = static_cast<int>(k);
    }
    if (std::isnan(pair.mu) || pair.mu < 0.0) {
      detail::fail(field + ".mu", "must be ≥ 0 (+∞: never slips), got " + detail::format_number(pair.mu));
    }
  }
  std::vector<char> tangent(static_cast<std::size_t>(m), 0);
  for (const FrictionPair& pair : pairs) tangent[static_cast<std::size_t>(pair.tangent_row)] = 1;

  // Restitution per row: the global e on every row but the tangential ones; per row, 0 on those.
  Vector row_restitution(m);
  if (restitution.is_global) {
    detail::check_restitution(restitution.global, "e");
    for (int i = 0; i < m; ++i) row_restitution(i) = tangent[static_cast<std::size_t>(i)] ? 0.0 : restitution.global;
  } else {
    if (restitution.per_row.size() != m) {
      detail::fail("E", "must have one coefficient per row of A (" + std::to_string(m) + "), got " +
                            std::to_string(restitution.per_row.size()));
    }
    for (int i = 0; i < m; ++i) {
      const std::string field = "E[" + std::to_string(i) + "]";
      detail::check_restitution(restitution.per_row(i), field);
      if (tangent[static_cast<std::size_t>(i)] && restitution.per_row(i) != 0.0) {
        detail::fail(field, "row " + std::to_string(i) + " is the tangential row of pairs[" +
                                std::to_string(owner[static_cast<std::size_t>(i)]) +
                                "]: its restitution must be 0 (a sticking point's slip is stopped), got " +
                                detail::format_number(restitution.per_row(i)));
      }
    }
    row_restitution = restitution.per_row;
  }

  // Unilateral rows: as given (default all), never a tangential row.
  std::vector<bool> mask(static_cast<std::size_t>(m), true);
  for (int i = 0; i < m; ++i) {
    const std::size_t row = static_cast<std::size_t>(i);
    mask[row] = (unilateral.empty() || unilateral[row]) && !tangent[row];
  }
  return FrictionProblem{nullptr, false, SparseJacobian(), Vector(), m, std::move(inertia), qd_minus, std::move(iu),
                         restitution, std::move(row_restitution), pairs, std::move(tangent), std::move(mask), nu};
}

void fill_attempt(FrictionAttempt& attempt, const ImpactResult& r, Matrix projector) {
  attempt.qd_plus = r.qd_plus;
  attempt.impulse = r.impulse;
  attempt.projector = std::move(projector);
  attempt.kinetic_minus = r.kinetic_minus;
  attempt.kinetic_plus = r.kinetic_plus;
  attempt.kinetic_energy_change = r.kinetic_energy_change;
  attempt.energy_ratio = r.energy_ratio;
  attempt.constraint_work = r.constraint_work;
  attempt.newton_residual = r.newton_residual;
  attempt.flags = r.flags;
}

void fill_attempt_on_rows(FrictionAttempt& attempt, const ImpactResult& r, Matrix projector) {
  const std::vector<int>& rows = attempt.velocity_rows;
  for (std::size_t j = 0; j < rows.size(); ++j) {
    attempt.multipliers(rows[j]) = r.impulse_multipliers(static_cast<Eigen::Index>(j));
  }
  fill_attempt(attempt, r, std::move(projector));
  for (int& row : attempt.flags.tensile_impulse) row = rows[static_cast<std::size_t>(row)];
  for (int& row : attempt.flags.approach_after_impact) row = rows[static_cast<std::size_t>(row)];
}

std::vector<int> velocity_rows_of(const FrictionProblem& p, const std::vector<PairMode>& modes, bool& oblique) {
  const int m = p.rows();
  std::vector<char> dropped(static_cast<std::size_t>(m), 0);
  oblique = false;
  for (std::size_t k = 0; k < p.pairs.size(); ++k) {
    if (modes[k].mode != FrictionMode::Slip) continue;
    dropped[static_cast<std::size_t>(p.pairs[k].tangent_row)] = 1;
    oblique = oblique || p.pairs[k].mu > 0.0;
  }
  std::vector<int> rows;
  for (int i = 0; i < m; ++i) {
    if (!dropped[static_cast<std::size_t>(i)]) rows.push_back(i);
  }
  return rows;
}

Restitution restitution_of_rows(const FrictionProblem& p, const std::vector<int>& rows) {
  bool any_tangent = false;
  for (int row : rows) any_tangent = any_tangent || p.tangent[static_cast<std::size_t>(row)];
  if (p.restitution.is_global && !any_tangent) return Restitution::uniform(p.restitution.global);
  Vector e(static_cast<Eigen::Index>(rows.size()));
  for (std::size_t j = 0; j < rows.size(); ++j) e(static_cast<Eigen::Index>(j)) = p.row_restitution(rows[j]);
  return Restitution::rows(std::move(e));
}

ImpactFlags flags_over(const FrictionProblem& p, const std::vector<int>& rows, const Vector& multipliers_v,
                       const Vector& minus_v, const Vector& plus_v, double constraint_work, double k_minus,
                       double k_plus) {
  ImpactFlags flags;
  const double impulse_tol = 1e-9 * std::max(max_abs(multipliers_v), 1e-300);
  const double speed_tol = 1e-9 * std::max({max_abs(minus_v), max_abs(plus_v), 1e-300});
  for (std::size_t j = 0; j < rows.size(); ++j) {
    const Eigen::Index i = static_cast<Eigen::Index>(j);
    if (!p.unilateral[static_cast<std::size_t>(rows[j])]) continue;
    if (multipliers_v(i) < -impulse_tol) flags.tensile_impulse.push_back(rows[j]);
    if (plus_v(i) < -speed_tol) flags.approach_after_impact.push_back(rows[j]);
  }
  flags.energy_gain = constraint_work > 1e-12 * std::max({k_minus, k_plus, 1e-300});
  return flags;
}

void finish_attempt(const FrictionProblem& p, const std::vector<int>& rows, const Vector& multipliers_v,
                    const Vector& momentum_minus, const Vector& momentum_plus, const Vector& minus_v,
                    const Vector& plus_v, const Vector& restitution_v, FrictionAttempt& out) {
  // Energies, γ and Newton's law on the velocity rows, as every impact computes them.
  set_energies(p.qd_minus, momentum_minus, momentum_plus, minus_v, plus_v, restitution_v, out);
  out.flags = flags_over(p, rows, multipliers_v, minus_v, plus_v, out.constraint_work, out.kinetic_minus,
                         out.kinetic_plus);
}

}  // namespace detail

namespace {

using detail::flags_over;
using detail::restitution_of_rows;

/// The dense problem: the projections of the whole (M, A), and the checked inputs.
FrictionProblem dense_problem(std::shared_ptr<const Projection> proj, const Vector& qd_minus,
                              const Restitution& restitution, const std::vector<FrictionPair>& pairs,
                              const Vector& external_impulse, const std::vector<bool>& unilateral) {
  std::optional<double> nu;
  if (!proj->nu_is_default()) nu = proj->nu();
  FrictionProblem p = detail::make_friction_problem(Inertia(proj->inertia()), proj->n(), proj->m(), nu, qd_minus,
                                                    restitution, pairs, external_impulse, unilateral);
  p.projection = std::move(proj);
  return p;
}

/// The rows of A listed in `rows`.
Matrix rows_of(const Matrix& a, const std::vector<int>& rows) {
  Matrix out(static_cast<Eigen::Index>(rows.size()), a.cols());
  for (std::size_t j = 0; j < rows.size(); ++j) out.row(static_cast<Eigen::Index>(j)) = a.row(rows[j]);
  return out;
}

/// M⁻¹Bᵀ and (A M⁻¹Bᵀ)⁺ of velocity rows A and impulse rows B.
std::pair<Matrix, Matrix> oblique_factors(const Inertia& inertia, const Matrix& a, const Matrix& b) {
  Matrix m_inv_bt = inertia.solve(Matrix(b.transpose()));
  const Matrix g = a * m_inv_bt;
  return {std::move(m_inv_bt), pseudo_inverse(g).pinv};
}

}  // namespace

FrictionAttempt detail::solve_modes_dense(const FrictionProblem& p, const std::vector<PairMode>& modes) {
  const Matrix dense_a = p.sparse ? p.dense_jacobian() : Matrix();
  const Matrix& a = p.sparse ? dense_a : p.proj().jacobian();
  const int m = p.rows();
  FrictionAttempt out;
  out.modes = modes;
  // A_v: every row but the tangential rows of slipping pairs; oblique when one slips with μ > 0.
  bool oblique = false;
  out.velocity_rows = detail::velocity_rows_of(p, modes, oblique);
  const std::vector<int>& rows = out.velocity_rows;
  std::vector<bool> unilateral_v;
  for (int row : rows) unilateral_v.push_back(p.unilateral[static_cast<std::size_t>(row)]);
  out.multipliers = Vector::Zero(m);

  if (!oblique) {
    // Impulses along the rows themselves: the paper's impact on A_v (the whole A when every pair sticks).
    std::optional<Projection> own;
    if (static_cast<int>(rows.size()) != m || p.sparse) own.emplace(p.inertia, rows_of(a, rows), p.nu);
    const Projection& proj = own ? *own : p.proj();
    const ImpactResult r = solve_impact(proj, p.qd_minus, restitution_of_rows(p, rows), p.external_impulse, unilateral_v);
    fill_attempt_on_rows(out, r, proj.oblique_projector());
    return out;
  }

  // B: the rows of A_v, with n_k − μ_k s_k t_k for each slipping pair (the direction of its impulse).
  const Matrix a_v = rows_of(a, rows);
  Matrix b = a_v;
  std::vector<Eigen::Index> position(static_cast<std::size_t>(m), -1);
  for (std::size_t j = 0; j < rows.size(); ++j) position[static_cast<std::size_t>(rows[j])] = static_cast<Eigen::Index>(j);
  for (std::size_t k = 0; k < p.pairs.size(); ++k) {
    const FrictionPair& pair = p.pairs[k];
    if (modes[k].mode != FrictionMode::Slip || pair.mu == 0.0) continue;
    b.row(position[static_cast<std::size_t>(pair.normal_row)]) -= (pair.mu * modes[k].direction) * a.row(pair.tangent_row);
  }
  // λ = (A_v M⁻¹Bᵀ)⁺(−(I + E)A_v q̇⁻ − A_v M⁻¹i_u);  q̇⁺ = q̇⁻ + M⁻¹(Bᵀλ + i_u);  S_slip = M⁻¹Bᵀ(A_v M⁻¹Bᵀ)⁺A_v.
  const auto [m_inv_bt, g_pinv] = oblique_factors(p.inertia, a_v, b);
  const Vector free_response = p.inertia.solve(p.external_impulse);
  const Vector minus_v = a_v * p.qd_minus;
  const Vector e_v = p.row_restitution(rows);
  const Vector rhs = -(minus_v + e_v.cwiseProduct(minus_v)) - a_v * free_response;
  const Vector lambda = g_pinv * rhs;
  out.impulse = b.transpose() * lambda;
  out.qd_plus = p.qd_minus + m_inv_bt * lambda + free_response;
  out.projector = m_inv_bt * g_pinv * a_v;
  // i_λ per row of A: λ on A_v's rows, −μ s i_n on a slipping pair's tangential row.
  for (std::size_t j = 0; j < rows.size(); ++j) out.multipliers(rows[j]) = lambda(static_cast<Eigen::Index>(j));
  for (std::size_t k = 0; k < p.pairs.size(); ++k) {
    const FrictionPair& pair = p.pairs[k];
    if (modes[k].mode != FrictionMode::Slip || pair.mu == 0.0) continue;
    out.multipliers(pair.tangent_row) = -(pair.mu * modes[k].direction) * out.multipliers(pair.normal_row);
  }

  // Energies, work, Newton's law on A_v and the flags, as impact.cpp computes them.
  const Matrix& mass = p.dense_inertia();
  const Vector momentum_minus = mass * p.qd_minus;
  const Vector momentum_plus = mass * out.qd_plus;
  const Vector plus_v = a_v * out.qd_plus;
  finish_attempt(p, rows, lambda, momentum_minus, momentum_plus, minus_v, plus_v, e_v, out);
  return out;
}

namespace {

/// The impact with every pair in `modes`, on the problem's own path (a sparse step's progress kept in
/// `progress` when given, its pieces told to `gate`).
FrictionAttempt solve_modes(const FrictionProblem& p, const std::vector<PairMode>& modes,
                            detail::SparseStepProgress* progress = nullptr, const WorkGate& gate = {}) {
  if (!p.sparse) return detail::solve_modes_dense(p, modes);
  detail::SparseStepProgress own;
  return detail::solve_modes_sparse(p, modes, progress ? *progress : own, gate);
}

/// Tolerances of the mode checks: 1e-9 of the largest impulse and of the largest row speed.
struct Tolerances {
  double impulse = 0, speed = 0;
};

Tolerances tolerances_of(const FrictionProblem& p, const FrictionAttempt& attempt, const ImpactResult& sticking) {
  const double impulses = std::max(max_abs(attempt.multipliers), max_abs(sticking.impulse_multipliers));
  const double speeds = std::max(max_abs(p.times(p.qd_minus)), max_abs(p.times(attempt.qd_plus)));
  return {1e-9 * impulses + 1e-300, 1e-9 * speeds + 1e-300};
}

/// Does pair k's impulse obey Coulomb's law in its mode: the cone when sticking, friction against the
/// post-impact slip when slipping, and a compressive normal impulse? μ = 0 and μ = +∞ pairs always do.
bool pair_obeys_coulomb(const FrictionPair& pair, const PairMode& mode, double normal_impulse,
                        double tangential_impulse, double slip_plus, const Tolerances& tol) {
  if (!is_finite_positive_mu(pair.mu)) return true;
  if (normal_impulse < -tol.impulse) return false;
  if (mode.mode == FrictionMode::Stick) return std::abs(tangential_impulse) <= pair.mu * normal_impulse + tol.impulse;
  return mode.direction * slip_plus >= -tol.speed;
}

bool attempt_obeys_coulomb(const FrictionProblem& p, const FrictionAttempt& attempt, const Tolerances& tol) {
  for (std::size_t k = 0; k < p.pairs.size(); ++k) {
    const FrictionPair& pair = p.pairs[k];
    const double slip_plus = p.row_times(pair.tangent_row, attempt.qd_plus);
    if (!pair_obeys_coulomb(pair, attempt.modes[k], attempt.multipliers(pair.normal_row),
                            attempt.multipliers(pair.tangent_row), slip_plus, tol)) {
      return false;
    }
  }
  return true;
}

/// The sticking-mode impact: every pair sticking, tangential rows plastic and never unilateral (a sparse
/// step's progress and gate as solve_modes).
ImpactResult sticking_impact(const FrictionProblem& p, detail::SparseStepProgress* progress = nullptr,
                             const WorkGate& gate = {}) {
  if (p.sparse) {
    detail::SparseStepProgress own;
    return detail::sparse_sticking_impact(p, progress ? *progress : own, gate);
  }
  const Restitution restitution = p.pairs.empty() ? p.restitution : Restitution::rows(p.row_restitution);
  return solve_impact(p.proj(), p.qd_minus, restitution, p.external_impulse, p.unilateral);
}

/// The discriminator's guess: a pair sticks when its sticking impulse is in its cone, else slips on the
/// edge that impulse lies beyond (s = −sign i_t^st; s = sign v_t⁻ when i_t^st = 0). μ = 0 slips, +∞ sticks.
std::vector<PairMode> guess_modes(const FrictionProblem& p, const ImpactResult& sticking) {
  const double tol = 1e-9 * max_abs(sticking.impulse_multipliers) + 1e-300;
  std::vector<PairMode> modes;
  for (const FrictionPair& pair : p.pairs) {
    if (pair.mu == 0.0) {
      modes.push_back({FrictionMode::Slip, 0});
      continue;
    }
    const double i_n = sticking.impulse_multipliers(pair.normal_row);
    const double i_t = sticking.impulse_multipliers(pair.tangent_row);
    if (!std::isfinite(pair.mu) || (i_n >= -tol && std::abs(i_t) <= pair.mu * i_n + tol)) {
      modes.push_back({FrictionMode::Stick, 0});
      continue;
    }
    int direction = -sign_of(i_t);
    if (direction == 0) direction = p.row_times(pair.tangent_row, p.qd_minus) < 0.0 ? -1 : 1;
    modes.push_back({FrictionMode::Slip, direction});
  }
  return modes;
}

/// The modes a free pair (0 < μ < ∞) may take, in the order combinations are tried.
const PairMode kFreeModes[3] = {{FrictionMode::Stick, 0}, {FrictionMode::Slip, 1}, {FrictionMode::Slip, -1}};

int free_mode_index(const PairMode& mode) {
  if (mode.mode == FrictionMode::Stick) return 0;
  return mode.direction > 0 ? 1 : 2;
}

/// The combinations of modes of the free pairs in the order of the header comment — the guess, then by how
/// many pairs differ from it, then lexicographically — one at a time: all of them for up to
/// kExhaustiveFrictionPairs free pairs, the guess and its single changes for more.
class CombinationCursor {
 public:
  CombinationCursor() = default;
  explicit CombinationCursor(int free) : free_(free), most_differing_(free <= kExhaustiveFrictionPairs ? free : 1) {}
  bool at_end() const { return differing_ > most_differing_; }
  /// The combination at the cursor: the guess with the chosen pairs in one of their two other modes.
  std::vector<PairMode> modes(const std::vector<int>& free_pairs, const std::vector<PairMode>& guess) const {
    std::vector<PairMode> modes = guess;
    for (int i = 0; i < differing_; ++i) {
      const int pair = free_pairs[static_cast<std::size_t>(chosen_[static_cast<std::size_t>(i)])];
      const int guessed = free_mode_index(guess[static_cast<std::size_t>(pair)]);
      // The two modes other than the guessed one, in kFreeModes order (pick 0 is the first), the first
      // chosen pair slowest.
      const int pick = (alternatives_ >> (differing_ - 1 - i)) & 1;
      const int index = pick == 0 ? (guessed == 0 ? 1 : 0) : (guessed == 2 ? 1 : 2);
      modes[static_cast<std::size_t>(pair)] = kFreeModes[index];
    }
    return modes;
  }
  void advance() {
    if (++alternatives_ < (1 << differing_)) return;
    alternatives_ = 0;
    // The next subset of `differing` free pairs, in lexicographic order of their positions; after the last,
    // the first of one more.
    int i = differing_ - 1;
    while (i >= 0 && chosen_[static_cast<std::size_t>(i)] == free_ - differing_ + i) --i;
    if (i >= 0) {
      ++chosen_[static_cast<std::size_t>(i)];
      for (int j = i + 1; j < differing_; ++j) chosen_[static_cast<std::size_t>(j)] = chosen_[static_cast<std::size_t>(j - 1)] + 1;
      return;
    }
    ++differing_;
    chosen_.resize(static_cast<std::size_t>(differing_));
    for (int j = 0; j < differing_; ++j) chosen_[static_cast<std::size_t>(j)] = j;
  }

 private:
  int free_ = 0, most_differing_ = 0, differing_ = 0, alternatives_ = 0;
  std::vector<int> chosen_;
};

/// The result of the attempt finally taken, with the per-pair account.
FrictionalImpactResult assemble(const FrictionProblem& p, FrictionAttempt attempt, ImpactResult sticking, bool consistent,
                                int tried) {
  const Tolerances tol = tolerances_of(p, attempt, sticking);
  FrictionalImpactResult out;
  out.restitution = p.row_restitution;
  out.qd_minus = p.qd_minus;
  out.qd_plus = attempt.qd_plus;
  out.impulse = attempt.impulse;
  out.impulse_multipliers = attempt.multipliers;
  out.external_impulse = p.external_impulse;
  out.velocity_minus = p.times(p.qd_minus);
  out.velocity_plus = p.times(attempt.qd_plus);
  out.kinetic_minus = attempt.kinetic_minus;
  out.kinetic_plus = attempt.kinetic_plus;
  out.kinetic_energy_change = attempt.kinetic_energy_change;
  out.energy_ratio = attempt.energy_ratio;
  out.constraint_work = attempt.constraint_work;
  out.newton_residual = attempt.newton_residual;
  out.flags = attempt.flags;
  out.projector = std::move(attempt.projector);
  out.velocity_rows = attempt.velocity_rows;
  out.modes_consistent = consistent;
  out.combinations_tried = tried;

  // Per pair: the impulses, speeds, the sticking impulse's μ_crit, D and angle, and the work.
  for (std::size_t k = 0; k < p.pairs.size(); ++k) {
    const FrictionPair& pair = p.pairs[k];
    FrictionPairResult r;
    r.normal_row = pair.normal_row;
    r.tangent_row = pair.tangent_row;
    r.mu = pair.mu;
    r.mode = attempt.modes[k].mode;
    r.direction = pair.mu == 0.0 ? 0 : attempt.modes[k].direction;
    r.normal_impulse = out.impulse_multipliers(pair.normal_row);
    r.tangential_impulse = out.impulse_multipliers(pair.tangent_row);
    r.approach_minus = out.velocity_minus(pair.normal_row);
    r.approach_plus = out.velocity_plus(pair.normal_row);
    r.slip_minus = out.velocity_minus(pair.tangent_row);
    r.slip_plus = out.velocity_plus(pair.tangent_row);
    const double st_n = sticking.impulse_multipliers(pair.normal_row);
    const double st_t = sticking.impulse_multipliers(pair.tangent_row);
    r.sticking_normal_impulse = st_n;
    r.sticking_tangential_impulse = st_t;
    const double infinity = std::numeric_limits<double>::infinity();
    r.critical_mu = st_n > 0.0 ? std::abs(st_t) / st_n : (st_t == 0.0 && st_n == 0.0 ? 0.0 : infinity);
    r.discriminator = std::isfinite(pair.mu) ? pair.mu * pair.mu * st_n * st_n - st_t * st_t : infinity;
    r.sticking_cone_angle = portable_atan2_upper(std::abs(st_t), st_n) - portable_atan_nonnegative(pair.mu);
    r.cone_angle = portable_atan2_upper(std::abs(r.tangential_impulse), r.normal_impulse) - portable_atan_nonnegative(pair.mu);
    r.slip_stopped = r.mode == FrictionMode::Stick && std::abs(r.slip_minus) > tol.speed;
    r.slip_reversed = std::abs(r.slip_minus) > tol.speed && std::abs(r.slip_plus) > tol.speed &&
                      sign_of(r.slip_minus) != sign_of(r.slip_plus);
    r.normal_work = 0.5 * r.normal_impulse * (r.approach_minus + r.approach_plus);
    r.tangential_work = 0.5 * r.tangential_impulse * (r.slip_minus + r.slip_plus);
    out.pairs.push_back(r);
  }
  out.sticking = std::move(sticking);
  return out;
}

/// The modes given by a caller: one per pair, allowed for its μ.
void check_modes(const std::vector<FrictionPair>& pairs, const std::vector<PairMode>& modes) {
  if (modes.size() != pairs.size()) {
    detail::fail("modes", "must have one mode per pair (" + std::to_string(pairs.size()) + "), got " +
                              std::to_string(modes.size()));
  }
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    const std::string field = "modes[" + std::to_string(k) + "]";
    const PairMode& mode = modes[k];
    if (pairs[k].mu == 0.0 && mode.mode != FrictionMode::Slip) detail::fail(field, "a frictionless pair (μ = 0) can only slip");
    if (!std::isfinite(pairs[k].mu) && mode.mode != FrictionMode::Stick) detail::fail(field, "a pair with μ = +∞ can only stick");
    if (mode.mode == FrictionMode::Slip && pairs[k].mu > 0.0 && mode.direction != 1 && mode.direction != -1) {
      detail::fail(field, "a slipping pair needs the direction +1 or -1, got " + std::to_string(mode.direction));
    }
    if (mode.mode == FrictionMode::Stick && mode.direction != 0) detail::fail(field, "a sticking pair has direction 0");
  }
}

}  // namespace

const char* friction_mode_name(FrictionMode mode) { return mode == FrictionMode::Stick ? "stick" : "slip"; }

// ---------------------------------------------------------------------------------------------------------
// The search, step by step
// ---------------------------------------------------------------------------------------------------------

struct FrictionalImpactSearch::State {
  explicit State(FrictionProblem p) : problem(std::move(p)) {}

  FrictionProblem problem;
  int steps = 0;
  bool started = false;   // the sticking impact is solved and the guess made
  bool finished = false;  // a combination obeys Coulomb's law, or none is left to try
  ImpactResult sticking;
  std::vector<PairMode> guess;
  std::vector<int> free_pairs;
  CombinationCursor cursor;
  int tried = 0;
  std::optional<FrictionAttempt> first, found;
  // The sparse step under way, where a gate stopped it: shared by the copies of the search (the simulator
  // keeps one for its replay), and cleared when the step is done.
  std::shared_ptr<detail::SparseStepProgress> progress;

  /// The attempt of the combination at the cursor when every pair sticks: the sticking impact itself.
  std::optional<FrictionAttempt> all_sticking(const std::vector<PairMode>& modes) const {
    const bool all_stick = std::all_of(modes.begin(), modes.end(), [](const PairMode& mode) {
      return mode.mode == FrictionMode::Stick;
    });
    if (!all_stick) return std::nullopt;
    FrictionAttempt attempt;
    attempt.modes = modes;
    for (int i = 0; i < problem.rows(); ++i) attempt.velocity_rows.push_back(i);
    attempt.multipliers = sticking.impulse_multipliers;
    detail::fill_attempt(attempt, sticking, problem.sparse ? Matrix() : problem.proj().oblique_projector());
    return attempt;
  }

  /// Checks a solved combination; the first that obeys Coulomb's law at every pair is the answer.
  void conclude(FrictionAttempt attempt) {
    ++tried;
    const bool obeys = attempt_obeys_coulomb(problem, attempt, tolerances_of(problem, attempt, sticking));
    if (!first) first = attempt;
    if (obeys) {
      found = std::move(attempt);
      finished = true;
      return;
    }
    cursor.advance();
    finished = tried >= kMaxFrictionModeCombinations || cursor.at_end();
  }
};

FrictionalImpactSearch::FrictionalImpactSearch(std::unique_ptr<State> state) : state_(std::move(state)) {}

FrictionalImpactSearch::FrictionalImpactSearch(std::shared_ptr<const Projection> projection, const Vector& qd_minus,
                                               const Restitution& restitution, const std::vector<FrictionPair>& pairs,
                                               const Vector& external_impulse, const std::vector<bool>& unilateral)
    : state_(std::make_unique<State>(
          dense_problem(std::move(projection), qd_minus, restitution, pairs, external_impulse, unilateral))) {}

FrictionalImpactSearch::FrictionalImpactSearch(const Vector& mass, const SparseJacobian& jacobian, const Vector& qd_minus,
                                               const Restitution& restitution, const std::vector<FrictionPair>& pairs,
                                               const Vector& external_impulse, const std::vector<bool>& unilateral) {
  const int n = static_cast<int>(mass.size()), m = static_cast<int>(jacobian.rows());
  if (m > 0 && jacobian.cols() != n) {
    detail::fail("A", "must have " + std::to_string(n) + " columns (the size of M), got " + std::to_string(jacobian.cols()));
  }
  FrictionProblem p = detail::make_friction_problem(Inertia::from_diagonal(mass, "M"), n, m, std::nullopt, qd_minus,
                                                    restitution, pairs, external_impulse, unilateral);
  p.sparse = true;
  p.sparse_jacobian = jacobian;
  p.mass = mass;
  state_ = std::make_unique<State>(std::move(p));
}

FrictionalImpactSearch::FrictionalImpactSearch(const FrictionalImpactSearch& other)
    : state_(std::make_unique<State>(*other.state_)) {}
FrictionalImpactSearch& FrictionalImpactSearch::operator=(const FrictionalImpactSearch& other) {
  if (this != &other) state_ = std::make_unique<State>(*other.state_);
  return *this;
}
FrictionalImpactSearch::FrictionalImpactSearch(FrictionalImpactSearch&&) noexcept = default;
FrictionalImpactSearch& FrictionalImpactSearch::operator=(FrictionalImpactSearch&&) noexcept = default;
FrictionalImpactSearch::~FrictionalImpactSearch() = default;

bool FrictionalImpactSearch::done() const { return state_->finished; }

double FrictionalImpactSearch::next_step_flops(bool gated) const {
  const State& s = *state_;
  const FrictionProblem& p = s.problem;
  if (s.finished || !p.sparse) return 0.0;
  const double n = static_cast<double>(p.mass.size()), m = static_cast<double>(p.rows());
  if (!s.started) return detail::sparse_step_flops(n, m, 0.0, gated);
  // The combination at the cursor: its slipping pairs with μ > 0.
  double slipping = 0.0;
  const std::vector<PairMode> modes = s.cursor.modes(s.free_pairs, s.guess);
  for (std::size_t k = 0; k < modes.size(); ++k) {
    if (modes[k].mode == FrictionMode::Slip && p.pairs[k].mu > 0.0) slipping += 1.0;
  }
  return detail::sparse_step_flops(n, m, slipping, gated);
}
int FrictionalImpactSearch::steps() const { return state_->steps; }

void FrictionalImpactSearch::step(const WorkGate& gate) {
  State& s = *state_;
  if (s.finished) return;
  const FrictionProblem& p = s.problem;
  // A sparse step keeps what it has done where the gate stops it, and goes on from there when taken again.
  if (p.sparse && !s.progress) s.progress = std::make_shared<detail::SparseStepProgress>();
  if (!s.started) {
    // The sticking-mode impact, and the discriminator's guess from it.
    s.sticking = sticking_impact(p, s.progress.get(), gate);
    s.progress.reset();
    ++s.steps;
    s.guess = guess_modes(p, s.sticking);
    for (std::size_t k = 0; k < p.pairs.size(); ++k) {
      if (is_finite_positive_mu(p.pairs[k].mu)) s.free_pairs.push_back(static_cast<int>(k));
    }
    s.cursor = CombinationCursor(static_cast<int>(s.free_pairs.size()));
    s.started = true;
    return;
  }
  // The combination at the cursor: every pair sticking is the sticking impact itself.
  const std::vector<PairMode> modes = s.cursor.modes(s.free_pairs, s.guess);
  if (std::optional<FrictionAttempt> sticking = s.all_sticking(modes)) {
    s.progress.reset();
    ++s.steps;
    s.conclude(std::move(*sticking));
    return;
  }
  FrictionAttempt attempt = solve_modes(p, modes, s.progress.get(), gate);
  s.progress.reset();
  ++s.steps;
  s.conclude(std::move(attempt));
}

FrictionalImpactResult FrictionalImpactSearch::result() const {
  const State& s = *state_;
  if (!s.finished) throw std::logic_error("FrictionalImpactSearch::result: the search is not done");
  const bool consistent = s.found.has_value();
  return assemble(s.problem, consistent ? *s.found : *s.first, s.sticking, consistent, s.tried);
}

// ---------------------------------------------------------------------------------------------------------
// Whole impacts
// ---------------------------------------------------------------------------------------------------------

FrictionalImpactResult solve_frictional_impact(const Projection& proj, const Vector& qd_minus,
                                               const Restitution& restitution, const std::vector<FrictionPair>& pairs,
                                               const Vector& external_impulse, const std::vector<bool>& unilateral) {
  // The search on the caller's projections (not owned: they outlive it).
  FrictionalImpactSearch search(std::shared_ptr<const Projection>(std::shared_ptr<const Projection>(), &proj), qd_minus,
                                restitution, pairs, external_impulse, unilateral);
  while (!search.done()) search.step();
  return search.result();
}

FrictionalImpactResult solve_impact_in_modes(const Projection& proj, const Vector& qd_minus,
                                             const Restitution& restitution, const std::vector<FrictionPair>& pairs,
                                             const std::vector<PairMode>& modes, const Vector& external_impulse,
                                             const std::vector<bool>& unilateral) {
  const FrictionProblem p = dense_problem(std::shared_ptr<const Projection>(std::shared_ptr<const Projection>(), &proj),
                                          qd_minus, restitution, pairs, external_impulse, unilateral);
  check_modes(pairs, modes);
  ImpactResult sticking = sticking_impact(p);
  FrictionAttempt attempt = solve_modes(p, modes);
  const bool consistent = attempt_obeys_coulomb(p, attempt, tolerances_of(p, attempt, sticking));
  return assemble(p, std::move(attempt), std::move(sticking), consistent, 1);
}

Matrix discriminator_matrix(const Projection& proj, const Restitution& restitution,
                            const std::vector<FrictionPair>& pairs, int pair) {
  const FrictionProblem p = dense_problem(std::shared_ptr<const Projection>(std::shared_ptr<const Projection>(), &proj),
                                          Vector::Zero(proj.n()), restitution, pairs, Vector(), {});
  if (pair < 0 || pair >= static_cast<int>(pairs.size())) {
    detail::fail("pair", "must be one of the pairs (0.." + std::to_string(static_cast<int>(pairs.size()) - 1) + ")");
  }
  const FrictionPair& chosen = pairs[static_cast<std::size_t>(pair)];
  if (!std::isfinite(chosen.mu)) detail::fail("pairs[" + std::to_string(pair) + "].mu", "must be finite for a discriminator");
  // L = −A⁺ᵀMS(I + Ẽ), Ẽ = A⁺EA with E = diag(e on every row but the tangential ones).
  const Matrix& a_pinv = proj.jacobian_pinv();
  const Matrix e_tilde = a_pinv * p.row_restitution.asDiagonal() * proj.jacobian();
  const Matrix identity = Matrix::Identity(proj.n(), proj.n());
  const Matrix l = -(a_pinv.transpose() * proj.inertia() * proj.oblique_projector() * (identity + e_tilde));
  const Vector ln = l.row(chosen.normal_row).transpose();
  const Vector lt = l.row(chosen.tangent_row).transpose();
  // Δ = μ²ℓ_nℓ_nᵀ − ℓ_tℓ_tᵀ.
  return chosen.mu * chosen.mu * (ln * ln.transpose()) - lt * lt.transpose();
}

Matrix slip_projector(const Inertia& inertia, const Matrix& velocity_rows, const Matrix& impulse_rows) {
  const Eigen::Index n = inertia.size();
  if (velocity_rows.cols() != n && velocity_rows.rows() > 0) {
    detail::fail("A", "every row must have " + std::to_string(n) + " entries (the size of M), got " +
                          std::to_string(velocity_rows.cols()));
  }
  if (impulse_rows.rows() != velocity_rows.rows() || (impulse_rows.rows() > 0 && impulse_rows.cols() != n)) {
    detail::fail("B", "must have the size of A (" + std::to_string(velocity_rows.rows()) + "×" + std::to_string(n) +
                          "), got " + std::to_string(impulse_rows.rows()) + "×" + std::to_string(impulse_rows.cols()));
  }
  if (velocity_rows.rows() == 0) return Matrix::Zero(n, n);
  const auto [m_inv_bt, g_pinv] = oblique_factors(inertia, velocity_rows, impulse_rows);
  return m_inv_bt * g_pinv * velocity_rows;
}

Residuals frictional_impact_identities(const Projection& proj, const FrictionalImpactResult& result) {
  const Matrix& mass = proj.inertia();
  const Matrix& a = proj.jacobian();
  const Matrix& s = result.projector;
  Residuals out;
  // Momentum balance M(q̇⁺ − q̇⁻) = Aᵀi_λ + i_u, in every mode.
  const double momentum_scale = std::max((mass * result.qd_minus).norm(), result.external_impulse.norm());
  const Vector generalized = a.rows() > 0 ? Vector(a.transpose() * result.impulse_multipliers) : Vector::Zero(proj.n());
  out.emplace_back("momentum_balance", relative_gap(mass * (result.qd_plus - result.qd_minus),
                                                    generalized + result.external_impulse, momentum_scale));
  // The projector: S² = S and A_v S = A_v.
  const double s_size = std::max(1.0, s.norm());
  out.emplace_back("S2_minus_S", relative_gap(s * s, s, s_size * s_size));
  Matrix a_v(static_cast<Eigen::Index>(result.velocity_rows.size()), proj.n());
  for (std::size_t j = 0; j < result.velocity_rows.size(); ++j) a_v.row(static_cast<Eigen::Index>(j)) = a.row(result.velocity_rows[j]);
  out.emplace_back("AvS_minus_Av", relative_gap(a_v * s, a_v, std::max(1.0, a_v.norm()) * s_size));
  // Newton's law, and the work identity K⁺ − K⁻ = (i_f + i_u)·q̄̇.
  out.emplace_back("newton_residual", result.newton_residual);
  const Vector mean = 0.5 * (result.qd_minus + result.qd_plus);
  const double energy_scale = std::max({result.kinetic_minus, result.kinetic_plus, 1e-300});
  out.emplace_back("work", std::abs((result.impulse + result.external_impulse).dot(mean) - result.kinetic_energy_change) /
                               energy_scale);
  // Coulomb's law: the cone of sticking pairs, the sign of slipping ones, relative to the largest impulse
  // and the largest row speed.
  const double impulse_scale = std::max(max_abs(result.impulse_multipliers), 1e-300);
  const double speed_scale = std::max({max_abs(result.velocity_minus), max_abs(result.velocity_plus), 1e-300});
  double cone = 0.0, slip = 0.0;
  for (const FrictionPairResult& r : result.pairs) {
    if (!is_finite_positive_mu(r.mu)) continue;
    if (r.mode == FrictionMode::Stick) {
      cone = std::max(cone, (std::abs(r.tangential_impulse) - r.mu * r.normal_impulse) / impulse_scale);
    } else {
      slip = std::max(slip, -r.direction * r.slip_plus / speed_scale);
    }
  }
  out.emplace_back("coulomb_cone", std::max(0.0, cone));
  out.emplace_back("coulomb_slip_sign", std::max(0.0, slip));
  return out;
}

}  // namespace oblique
