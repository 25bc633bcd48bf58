// Kinematics of points fixed in a planar rigid body (or in the world), shared by the model and the contact
// geometry.
//
// A point r fixed in body i is at p = xᵢ + R(θᵢ) r, moves with ṗ = ẋᵢ + θ̇ᵢ perp(R r) and has the convective
// acceleration p̈|_{q̈=0} = −θ̇ᵢ² R r, with perp(v) = (−v_y, v_x) so that d/dθ (R(θ) r) = perp(R(θ) r).
// Rotations use the portable cos and sin (trigonometry.hpp) so that every build computes the same bits.
#pragma once

#include "oblique/model/model.hpp"
#include "oblique/math/projection.hpp"
#include "oblique/scenario/scenario.hpp"
#include "oblique/math/trigonometry.hpp"

namespace oblique::detail {

/// perp(v) = (−v_y, v_x): v turned by +90°.
inline Vec2 perp(const Vec2& v) { return Vec2(-v.y(), v.x()); }

/// R v for a rotation given by its cosine and sine.
inline Vec2 rotate(const CosSin& r, const Vec2& v) {
  return Vec2(r.cos * v.x() - r.sin * v.y(), r.sin * v.x() + r.cos * v.y());
}

/// R(θ) v with the portable cos and sin.
inline Vec2 rotate(double angle, const Vec2& v) { return rotate(cos_sin(angle), v); }

/// A point fixed in a body (or in the world), at one state.
struct PointState {
  Vec2 position = Vec2::Zero();    ///< p = x + R r
  Vec2 offset = Vec2::Zero();      ///< R r, from the body's centre (zero for the world)
  Vec2 velocity = Vec2::Zero();    ///< ṗ = ẋ + θ̇ perp(R r)
  Vec2 convective = Vec2::Zero();  ///< p̈ at q̈ = 0: −θ̇² R r
  Vec2 centre_velocity = Vec2::Zero();  ///< ẋ of the body (zero for the world)
  double angle = 0.0;              ///< θ of the body (0 for the world)
  double angular_velocity = 0.0;   ///< θ̇ of the body (0 for the world)
};

inline PointState point_state(int body, const Vec2& local, const Vector& q, const Vector& qd) {
  PointState s;
  if (body == kWorld) {
    s.position = local;
    return s;
  }
  const int i = 3 * body;
  s.angle = q(i + 2);
  s.angular_velocity = qd(i + 2);
  s.offset = rotate(s.angle, local);
  s.position = Vec2(q(i), q(i + 1)) + s.offset;
  s.centre_velocity = Vec2(qd(i), qd(i + 1));
  s.velocity = s.centre_velocity + s.angular_velocity * perp(s.offset);
  s.convective = -s.angular_velocity * s.angular_velocity * s.offset;
  return s;
}

/// Adds sign · ∂(dir·p)/∂q of a body point with world offset `offset` from the body's centre (dir held
/// fixed) to row `row`: sign · (dir, dir·perp(offset)) in the body's three columns.
inline void add_point_row(ConstraintRows& out, int row, int body, const Vec2& dir, const Vec2& offset,
                          double sign) {
  if (body == kWorld) return;
  const int i = 3 * body;
  out.add(row, i, sign * dir.x());
  out.add(row, i + 1, sign * dir.y());
  out.add(row, i + 2, sign * dir.dot(perp(offset)));
}

/// Unit vector along d and |d|; a zero d gets the x axis (the contact is then degenerate).
inline double unit_and_length(const Vec2& d, Vec2& unit) {
  const double length = d.norm();
  unit = length > 1e-300 ? Vec2(d / length) : Vec2(Vec2::UnitX());
  return length;
}

/// d/dt of the unit vector of d, dotted with ḋ: (|ḋ|² − (u·ḋ)²)/|d| (zero for a degenerate d).
inline double unit_rate_term(const Vec2& unit, double length, const Vec2& d_rate) {
  if (length <= 1e-300) return 0.0;
  const double along = unit.dot(d_rate);
  return (d_rate.squaredNorm() - along * along) / length;
}

}  // namespace oblique::detail
