// Energetic consistency of frictional impacts: the pairs (μ, e) for which an impact with Coulomb friction
// and Newton's restitution does not create kinetic energy (K⁺ ≤ K⁻), on a grid for any impact and in
// closed form for one contact point (docs/friction.md, "Energetic consistency").
//
// One contact point, whose other rows are joints at rest, reduces to its 2×2 Delassus matrix
// W = J Mo⁺ Jᵀ = [a b; b c] (J = [n; t], Mo⁺ of the other rows: the inverse inertia the contact point
// sees, paper eq. 11e) and its pre-impact speeds φ̇⁻ = −u < 0 (approach) and v_t⁻ (slip); with δ = ac − b²:
//
//   sticking impulse   i_n = (c(1+e)u + b v_t)/δ,   i_t = −(b(1+e)u + a v_t)/δ,   μ_crit(e) = |i_t|/i_n
//   stick              K⁺ − K⁻ = −½[(1 − e²)c u² + 2b u v_t + a v_t²]/δ
//                      ≤ 0  iff  e ≤ e_stick = √((c u² + 2b u v_t + a v_t²)/(c u²))   (independent of μ)
//   slip (direction s) i_n = (1+e)u/(a − μsb),  i_t = −μ s i_n,  v_t⁺ = v_t + i_n(b − μsc)
//                      K⁺ − K⁻ = ½ i_n [−(1 − e)u − μ s(v_t + v_t⁺)]
//                      ≤ 0  iff  e ≤ e_slip(μ) = [u(a − μ²c) + 2μ s v_t(a − μsb)] / [u(a − 2μsb + μ²c)]
//
// The model sticks where μ ≥ μ_crit(e) and slips (s = −sign i_t^st) below, so the admissible region is
// {μ ≥ μ_crit(e), e ≤ e_stick} ∪ {μ < μ_crit(e), e ≤ e_slip(μ)}: two regions of the (μ, e) plane, one per
// mode. In the model's slip mode the friction impulse opposes the post-impact slip (s v_t⁺ ≥ 0); when it
// also opposes the pre-impact one (s v_t⁻ ≥ 0, the slip kept its direction) both impulses oppose the mean
// velocity and the impact never gains energy. The stick mode gains it when e > e_stick, which needs
// b u v_t < 0 — the sticking impulse's friction working along the slip.
// For every pre-impact velocity at once, sticking is consistent iff e² ≤ 1 − b²/(ac) (the QMI of the
// paper's §4 with E = diag(e, 0)).
#pragma once

#include <vector>

#include <Eigen/Core>

#include "oblique/friction/frictional_impact.hpp"

namespace oblique {

/// One frictional contact point's impact in closed form (the header comment).
struct SingleContactFriction {
  double a = 0, b = 0, c = 0;  ///< W = [a b; b c], the Delassus matrix of the pair's rows
  double approach = 0;         ///< φ̇⁻ = n q̇⁻ (< 0 when approaching; u = −φ̇⁻)
  double slip = 0;             ///< v_t⁻ = t q̇⁻

  /// W and the speeds of `pair` of an impact whose other rows of A are plastic joints at rest
  /// (A_o q̇⁻ = 0 to 1e-9 of |q̇⁻|'s scale): W = J Mo⁺ Jᵀ with Mo⁺ of those rows. Throws
  /// std::invalid_argument naming "pair" or "qd" (other rows not at rest).
  static SingleContactFriction of(const Projection& proj, const Vector& qd_minus, const FrictionPair& pair);

  /// (i_n, i_t) of the sticking mode: v_t⁺ = 0, φ̇⁺ = −e φ̇⁻.
  Eigen::Vector2d sticking_impulse(double e) const;
  /// μ_crit(e) = |i_t^st|/i_n^st (+∞ when i_n^st ≤ 0 < |i_t^st|).
  double critical_mu(double e) const;
  /// s = −sign(i_t^st) (sign v_t⁻ when i_t^st = 0): the direction a slipping impulse takes.
  int slip_direction(double e) const;
  /// Does the model stick at (μ, e)? (|i_t^st| ≤ μ i_n^st)
  bool sticks(double mu, double e) const;
  /// (i_n, i_t) of the slipping mode in direction s.
  Eigen::Vector2d slipping_impulse(double mu, double e, int s) const;
  /// v_t⁺ of the slipping mode in direction s.
  double slipping_slip_after(double mu, double e, int s) const;
  /// K⁺ − K⁻ of the sticking mode, of the slipping mode, and of the mode the model takes at (μ, e).
  double sticking_energy_change(double e) const;
  double slipping_energy_change(double mu, double e, int s) const;
  double energy_change(double mu, double e) const;
  /// e_stick: the sticking mode keeps K⁺ ≤ K⁻ iff e ≤ e_stick (may exceed 1: every e).
  double sticking_restitution_bound() const;
  /// e_slip(μ): the slipping mode in direction s keeps K⁺ ≤ K⁻ iff e ≤ e_slip(μ) (when a − μsb > 0).
  double slipping_restitution_bound(double mu, int s) const;
  /// Is (μ, e) in the admissible region (K⁺ ≤ K⁻ in the model's mode)?
  bool admissible(double mu, double e) const;
  /// √(1 − b²/(ac)): sticking is consistent for every pre-impact velocity iff e is at most this.
  double sticking_restitution_bound_for_every_velocity() const;
};

/// Finest grid of friction_energy_map (points per side).
inline constexpr int kMaxFrictionMapResolution = 256;
/// Largest cost of one friction_energy_map, resolution² · (n + m)³ (one frictional impact per point):
/// about a second natively. Beyond it the map is refused, naming the finest resolution allowed.
inline constexpr double kMaxFrictionMapWork = 2e8;

/// The (μ, e) plane of one pair of an impact, sampled: entry `row * resolution + col` is the impact solved
/// with that pair's μ = mu_max · col/(resolution − 1) and e (of its normal row) = row/(resolution − 1), every
/// other coefficient as given.
struct FrictionEnergyMap {
  int resolution = 0;
  double mu_max = 0;
  std::vector<double> energy_change;  ///< (K⁺ − K⁻)/K⁻ (0 when K⁻ = 0): ≤ 0 in the admissible region
  std::vector<int> mode;              ///< the pair's mode: 0 stick, ±1 slip in that direction
  std::vector<char> energy_gain;      ///< the impact's energy-gain flag (the constraints' work > 0)
  std::vector<char> modes_consistent; ///< every pair obeyed Coulomb's law (solve_frictional_impact)
  /// μ_crit of the pair at each e (one per row): the sticking impulse's |i_t|/i_n, the same for every μ;
  /// the boundary between the stick and slip regions of the map.
  std::vector<double> critical_mu;
};

/// The map of pair `pair` over μ ∈ [0, mu_max] and e ∈ [0, 1]. resolution in [2, kMaxFrictionMapResolution]
/// and resolution² · (n + m)³ at most kMaxFrictionMapWork. Throws std::invalid_argument naming "pair",
/// "mu_max", "resolution", or what solve_frictional_impact names.
FrictionEnergyMap friction_energy_map(const Projection& proj, const Vector& qd_minus, const Restitution& restitution,
                                      const std::vector<FrictionPair>& pairs, int pair, double mu_max, int resolution);

}  // namespace oblique
