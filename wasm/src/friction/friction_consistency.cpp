#include "oblique/friction/friction_consistency.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include "math/checks.hpp"

namespace oblique {

SingleContactFriction SingleContactFriction::of(const Projection& proj, const Vector& qd_minus,
                                                const FrictionPair& pair) {
  const Matrix& a = proj.jacobian();
  const int m = proj.m();
  if (pair.normal_row < 0 || pair.normal_row >= m || pair.tangent_row < 0 || pair.tangent_row >= m ||
      pair.normal_row == pair.tangent_row) {
    detail::fail("pair", "must be two different rows of A (0.." + std::to_string(m - 1) + ")");
  }
  if (qd_minus.size() != proj.n()) {
    detail::fail("qd", "must have " + std::to_string(proj.n()) + " entries (the size of M), got " +
                           std::to_string(qd_minus.size()));
  }
  detail::check_finite(qd_minus, "qd");
  // The other rows, which must be at rest.
  Matrix others(m - 2, proj.n());
  for (int i = 0, j = 0; i < m; ++i) {
    if (i != pair.normal_row && i != pair.tangent_row) others.row(j++) = a.row(i);
  }
  const Vector at_rest = others * qd_minus;
  const double scale = (a * qd_minus).cwiseAbs().maxCoeff();
  if (at_rest.size() > 0 && at_rest.cwiseAbs().maxCoeff() > 1e-9 * scale) {
    detail::fail("qd", "the closed form of one contact needs the other rows of A at rest (largest |A_o q̇⁻| is " +
                           detail::format_number(at_rest.cwiseAbs().maxCoeff()) + ")");
  }
  // W = J Mo⁺ Jᵀ with Mo⁺ of the other rows (M⁻¹ without them).
  std::optional<double> nu;
  if (!proj.nu_is_default()) nu = proj.nu();
  const Projection joints(Inertia(proj.inertia()), others, nu);
  Matrix j(2, proj.n());
  j.row(0) = a.row(pair.normal_row);
  j.row(1) = a.row(pair.tangent_row);
  const Matrix w = j * joints.projected_inertia_pinv() * j.transpose();
  SingleContactFriction out;
  out.a = w(0, 0);
  out.b = 0.5 * (w(0, 1) + w(1, 0));
  out.c = w(1, 1);
  out.approach = a.row(pair.normal_row).dot(qd_minus);
  out.slip = a.row(pair.tangent_row).dot(qd_minus);
  return out;
}

Eigen::Vector2d SingleContactFriction::sticking_impulse(double e) const {
  // i = W⁻¹Δv with Δv = ((1 + e)u, −v_t).
  const double u = -approach;
  const double delta = a * c - b * b;
  return {(c * (1.0 + e) * u + b * slip) / delta, -(b * (1.0 + e) * u + a * slip) / delta};
}

double SingleContactFriction::critical_mu(double e) const {
  const Eigen::Vector2d i = sticking_impulse(e);
  if (i(0) > 0.0) return std::abs(i(1)) / i(0);
  return i(1) == 0.0 && i(0) == 0.0 ? 0.0 : std::numeric_limits<double>::infinity();
}

int SingleContactFriction::slip_direction(double e) const {
  const double i_t = sticking_impulse(e)(1);
  if (i_t != 0.0) return i_t > 0.0 ? -1 : 1;
  return slip < 0.0 ? -1 : 1;
}

bool SingleContactFriction::sticks(double mu, double e) const {
  const Eigen::Vector2d i = sticking_impulse(e);
  return i(0) >= 0.0 && std::abs(i(1)) <= mu * i(0);
}

Eigen::Vector2d SingleContactFriction::slipping_impulse(double mu, double e, int s) const {
  const double i_n = (1.0 + e) * (-approach) / (a - mu * s * b);
  return {i_n, -mu * s * i_n};
}

double SingleContactFriction::slipping_slip_after(double mu, double e, int s) const {
  return slip + slipping_impulse(mu, e, s)(0) * (b - mu * s * c);
}

double SingleContactFriction::sticking_energy_change(double e) const {
  const double u = -approach;
  return -0.5 * ((1.0 - e * e) * c * u * u + 2.0 * b * u * slip + a * slip * slip) / (a * c - b * b);
}

double SingleContactFriction::slipping_energy_change(double mu, double e, int s) const {
  const double u = -approach;
  const double i_n = slipping_impulse(mu, e, s)(0);
  return 0.5 * i_n * (-(1.0 - e) * u - mu * s * (slip + slipping_slip_after(mu, e, s)));
}

double SingleContactFriction::energy_change(double mu, double e) const {
  return sticks(mu, e) ? sticking_energy_change(e) : slipping_energy_change(mu, e, slip_direction(e));
}

double SingleContactFriction::sticking_restitution_bound() const {
  const double u = -approach;
  return std::sqrt((c * u * u + 2.0 * b * u * slip + a * slip * slip) / (c * u * u));
}

double SingleContactFriction::slipping_restitution_bound(double mu, int s) const {
  const double u = -approach;
  return (u * (a - mu * mu * c) + 2.0 * mu * s * slip * (a - mu * s * b)) / (u * (a - 2.0 * mu * s * b + mu * mu * c));
}

bool SingleContactFriction::admissible(double mu, double e) const {
  if (sticks(mu, e)) return e <= sticking_restitution_bound();
  return e <= slipping_restitution_bound(mu, slip_direction(e));
}

double SingleContactFriction::sticking_restitution_bound_for_every_velocity() const {
  return std::sqrt(1.0 - b * b / (a * c));
}

FrictionEnergyMap friction_energy_map(const Projection& proj, const Vector& qd_minus, const Restitution& restitution,
                                      const std::vector<FrictionPair>& pairs, int pair, double mu_max, int resolution) {
  // The pair, the range of μ and the grid, within the work bound.
  if (pair < 0 || pair >= static_cast<int>(pairs.size())) {
    detail::fail("pair", pairs.empty() ? "there is no pair to map"
                                       : "must be one of the pairs (0.." + std::to_string(pairs.size() - 1) + ")");
  }
  if (!std::isfinite(mu_max) || !(mu_max > 0.0)) {
    detail::fail("mu_max", "must be a finite number > 0, got " + detail::format_number(mu_max));
  }
  if (resolution < 2 || resolution > kMaxFrictionMapResolution) {
    detail::fail("resolution", "must be an integer in [2, " + std::to_string(kMaxFrictionMapResolution) + "]");
  }
  const double size = static_cast<double>(proj.n() + proj.m());
  const int finest = static_cast<int>(std::floor(std::sqrt(kMaxFrictionMapWork / (size * size * size))));
  if (resolution > finest) {
    detail::fail("resolution", std::to_string(resolution) + " is too fine for an impact of " + std::to_string(proj.n()) +
                                   " coordinates and " + std::to_string(proj.m()) + " rows: a map costs resolution² × (n + m)³, at most " +
                                   detail::format_number(kMaxFrictionMapWork) + " (resolution at most " +
                                   std::to_string(std::max(finest, 1)) + ")");
  }
  // Restitution per row, checked once by a solve at the given coefficients (it names bad input).
  const FrictionalImpactResult given = solve_frictional_impact(proj, qd_minus, restitution, pairs);
  Vector e = given.restitution;
  std::vector<FrictionPair> varied = pairs;
  const int normal_row = pairs[static_cast<std::size_t>(pair)].normal_row;

  FrictionEnergyMap map;
  map.resolution = resolution;
  map.mu_max = mu_max;
  const std::size_t points = static_cast<std::size_t>(resolution) * resolution;
  map.energy_change.resize(points);
  map.mode.resize(points);
  map.energy_gain.resize(points);
  map.modes_consistent.resize(points);
  map.critical_mu.resize(static_cast<std::size_t>(resolution));
  for (int row = 0; row < resolution; ++row) {
    e(normal_row) = static_cast<double>(row) / (resolution - 1);
    for (int col = 0; col < resolution; ++col) {
      varied[static_cast<std::size_t>(pair)].mu = mu_max * static_cast<double>(col) / (resolution - 1);
      const FrictionalImpactResult r = solve_frictional_impact(proj, qd_minus, Restitution::rows(e), varied);
      const std::size_t at = static_cast<std::size_t>(row) * resolution + col;
      const FrictionPairResult& mapped = r.pairs[static_cast<std::size_t>(pair)];
      map.energy_change[at] = r.kinetic_minus > 0.0 ? r.kinetic_energy_change / r.kinetic_minus : 0.0;
      // A frictionless point (μ = 0) slips the way it moves after the impact.
      const int frictionless = mapped.slip_plus < 0.0 ? -1 : 1;
      map.mode[at] = mapped.mode == FrictionMode::Stick ? 0 : (mapped.direction == 0 ? frictionless : mapped.direction);
      map.energy_gain[at] = r.flags.energy_gain ? 1 : 0;
      map.modes_consistent[at] = r.modes_consistent ? 1 : 0;
      if (col == 0) map.critical_mu[static_cast<std::size_t>(row)] = mapped.critical_mu;
    }
  }
  return map;
}

}  // namespace oblique
