// Systems with frictional contact points for the tests of frictional impacts: a rod, a disk, Kane and
// Levinson's double pendulum (absolute coordinates x, y, θ per body, as the simulator writes them), and
// random systems with joints and normal/tangential row pairs.
#pragma once

#include <cmath>
#include <vector>

#include "oblique/friction/frictional_impact.hpp"
#include "random_systems.hpp"
#include "vectors.hpp"

namespace oblique::testing {

/// An impact problem with frictional pairs: M, A (joints first, then each pair's normal and tangential
/// rows), q̇⁻ and the pairs (μ to be set by the test).
struct FrictionSystem {
  Matrix inertia;
  Matrix jacobian;
  Vector qd_minus;
  std::vector<FrictionPair> pairs;
};

/// A uniform rod (mass m, length 2h, I = m h²/3), q = (x, y, φ), tilted by φ, whose lower end
/// p = (x − h cos φ, y − h sin φ) touches the floor y = 0. Rows: n = (0, 1, −h cos φ) (ṗ_y),
/// t = (1, 0, h sin φ) (ṗ_x).
inline FrictionSystem rod_on_floor(double mass, double half_length, double tilt, const Vector& qd, double mu) {
  FrictionSystem s;
  s.inertia = Matrix::Zero(3, 3);
  s.inertia.diagonal() << mass, mass, mass * half_length * half_length / 3.0;
  s.jacobian.resize(2, 3);
  s.jacobian << 0, 1, -half_length * std::cos(tilt), 1, 0, half_length * std::sin(tilt);
  s.qd_minus = qd;
  s.pairs = {{0, 1, mu}};
  return s;
}

// A uniform rod, mass m, length 2h, I = mh²/3, tilted by φ, q̇⁻ = (ẋ, ẏ, ω), lower end on the floor.
// With c = cos φ, s = sin φ the end moves at φ̇ = ẏ − hcω (rows n = (0, 1, −hc)) and v_t = ẋ + hsω
// (t = (1, 0, hs)). The end's Delassus matrix W = JM⁻¹Jᵀ, with h²/I = 3/m:
//   a = (1 + 3c²)/m,  b = −3cs/m,  c_W = (1 + 3s²)/m,  det W = ((1 + 3c²)(1 + 3s²) − 9c²s²)/m² = 4/m².
// Stick (φ̇⁺ = −eφ̇⁻, v_t⁺ = 0): i = W⁻¹((1 + e)u, −v_t), u = −φ̇⁻, W⁻¹ = (m/4)[1 + 3s², 3cs; 3cs, 1 + 3c²]:
//   i_n = (m/4)((1 + 3s²)(1 + e)u − 3cs v_t),   i_t = (m/4)(3cs(1 + e)u − (1 + 3c²)v_t),
//   q̇⁺ = q̇⁻ + M⁻¹(nᵀi_n + tᵀi_t) = (ẋ + i_t/m, ẏ + i_n/m, ω + h(−c i_n + s i_t)/I),  μ_crit = |i_t|/i_n.
// Slip in direction s' (impulse i_n(n − μs't)): Newton's law (a − μs'b)i_n = (1 + e)u gives
//   i_n = m(1 + e)u/(1 + 3c² + 3μs'cs),  i_t = −μs'i_n,
//   q̇⁺ = (ẋ − μs'i_n/m, ẏ + i_n/m, ω − h(c + μs's)i_n/I).
struct RodCase {
  double m = 2.0, h = 0.5, tilt = M_PI / 6, e = 0.6;
  Vector qd;
  double c() const { return std::cos(tilt); }
  double s() const { return std::sin(tilt); }
  double inertia() const { return m * h * h / 3.0; }
  double u() const { return -(qd(1) - h * c() * qd(2)); }
  double slip() const { return qd(0) + h * s() * qd(2); }
  double stick_n() const { return m / 4 * ((1 + 3 * s() * s()) * (1 + e) * u() - 3 * c() * s() * slip()); }
  double stick_t() const { return m / 4 * (3 * c() * s() * (1 + e) * u() - (1 + 3 * c() * c()) * slip()); }
  Vector stick_velocity() const {
    return vec({qd(0) + stick_t() / m, qd(1) + stick_n() / m, qd(2) + h * (-c() * stick_n() + s() * stick_t()) / inertia()});
  }
  double slip_n(double mu, int dir) const { return m * (1 + e) * u() / (1 + 3 * c() * c() + 3 * mu * dir * c() * s()); }
  Vector slip_velocity(double mu, int dir) const {
    const double i_n = slip_n(mu, dir);
    return vec({qd(0) - mu * dir * i_n / m, qd(1) + i_n / m, qd(2) - h * (c() + mu * dir * s()) * i_n / inertia()});
  }
};

/// A disk (mass m, radius r, I = m r²/2), q = (x, y, ω-angle), touching a wall x = 0 on its left. The
/// contact point is the centre − (r, 0): n = (1, 0, 0) (ẋ, away from the wall), t = (0, 1, −r) (ẏ − rω).
inline FrictionSystem disk_at_wall(double mass, double radius, const Vector& qd, double mu) {
  FrictionSystem s;
  s.inertia = Matrix::Zero(3, 3);
  s.inertia.diagonal() << mass, mass, 0.5 * mass * radius * radius;
  s.jacobian.resize(2, 3);
  s.jacobian << 1, 0, 0, 0, 1, -radius;
  s.qd_minus = qd;
  s.pairs = {{0, 1, mu}};
  return s;
}

/// Kane and Levinson's double pendulum: two uniform bars (mass m, length L, I = mL²/12) pinned at the
/// fixed point O (the origin) and to each other; θ1, θ2 measured from the downward vertical, bar k along
/// d_k = (sin θ_k, −cos θ_k). The free end B of bar 2 touches a horizontal floor. q = (x1, y1, θ1, x2, y2,
/// θ2) of the centres; A = [pin O (2 rows); pin between the bars (2 rows); n = ẏ_B; t = ẋ_B]; q̇⁻ from the
/// angular velocities ω1, ω2.
inline FrictionSystem kane_double_pendulum(double mass, double length, double theta1, double theta2, double omega1,
                                           double omega2, double mu) {
  const double h = 0.5 * length;
  const double c1 = std::cos(theta1), s1 = std::sin(theta1), c2 = std::cos(theta2), s2 = std::sin(theta2);
  FrictionSystem s;
  s.inertia = Matrix::Zero(6, 6);
  s.inertia.diagonal() << mass, mass, mass * length * length / 12.0, mass, mass, mass * length * length / 12.0;
  // d/dt of a point c + ρ d(θ) is ċ + ρ (cos θ, sin θ) θ̇.
  s.jacobian.resize(6, 6);
  s.jacobian << 1, 0, -h * c1, 0, 0, 0,           // O = c1 − h d1 fixed
      0, 1, -h * s1, 0, 0, 0,                     //
      1, 0, h * c1, -1, 0, h * c2,                // c1 + h d1 = c2 − h d2
      0, 1, h * s1, 0, -1, h * s2,                //
      0, 0, 0, 0, 1, h * s2,                      // n: ẏ of B = c2 + h d2
      0, 0, 0, 1, 0, h * c2;                      // t: ẋ of B
  // ċ1 = h (c1, s1) ω1, ċ2 = L (c1, s1) ω1 + h (c2, s2) ω2.
  s.qd_minus = vec({h * c1 * omega1, h * s1 * omega1, omega1, length * c1 * omega1 + h * c2 * omega2,
                    length * s1 * omega1 + h * s2 * omega2, omega2});
  s.pairs = {{4, 5, mu}};
  return s;
}

/// A random system: `joints` joint rows, then `pair_count` (normal, tangential) row pairs, n coordinates
/// with room to spare, and q̇⁻ with the joints at rest, every normal row approaching (φ̇ ≤ −1) and random
/// slips. μ of every pair is `mu`.
inline FrictionSystem random_friction_system(RandomSystems& rng, int joints, int pair_count, double mu) {
  const int m = joints + 2 * pair_count;
  const int n = m + rng.integer(1, 3);
  FrictionSystem s;
  s.inertia = rng.inertia(n);
  s.jacobian = rng.matrix(m, n);
  // Row speeds: joints 0, normals −1 − |r|, slips random; a full-row-rank A reaches them exactly.
  Vector target(m);
  for (int i = 0; i < joints; ++i) target(i) = 0.0;
  for (int k = 0; k < pair_count; ++k) {
    target(joints + 2 * k) = -1.0 - std::abs(rng.normal());
    target(joints + 2 * k + 1) = 1.5 * rng.normal();
    s.pairs.push_back({joints + 2 * k, joints + 2 * k + 1, mu});
  }
  const PseudoInverse pi = pseudo_inverse(s.jacobian);
  s.qd_minus = pi.pinv * target + pi.null_basis * rng.vector(n - pi.rank);
  return s;
}

/// The rows of A without the tangential rows of `dropped` pairs.
inline Matrix rows_without(const Matrix& a, const std::vector<int>& dropped_rows) {
  Matrix out(a.rows() - static_cast<Eigen::Index>(dropped_rows.size()), a.cols());
  for (Eigen::Index i = 0, j = 0; i < a.rows(); ++i) {
    bool drop = false;
    for (int row : dropped_rows) drop = drop || row == i;
    if (!drop) out.row(j++) = a.row(i);
  }
  return out;
}

}  // namespace oblique::testing
