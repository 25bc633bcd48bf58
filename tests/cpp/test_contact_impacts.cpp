// Impacts between shapes that only the new contact geometry can express, solved by the projection method
// (solve_impact with the rows of the contact points the narrow phase finds) and by hand: a box corner
// striking a box face, a box dropped flat on another (two contact points), a disk hitting a rod's side and
// a rod's end. No gravity, no planes: momentum and angular momentum are conserved, and the energy lost is
// the closed form ½(1 − e²) v_n²/k.
//
// The hand derivation, for one frictionless contact point between free bodies 1 and 2 with unit normal n
// (from 1 to 2), contact point P, levers r_i = P − x_i and r × n = r_x n_y − r_y n_x: an impulse j n acts on
// body 2 at P and −j n on body 1, so
//   v₂⁺ = v₂ + j n / m₂,   ω₂⁺ = ω₂ + j (r₂ × n) / I₂,   v₁⁺ = v₁ − j n / m₁,   ω₁⁺ = ω₁ − j (r₁ × n) / I₁.
// The normal velocity of the points at P, v_n = n·(v₂ + ω₂ perp(r₂) − v₁ − ω₁ perp(r₁)), is linear in j with
// slope k = 1/m₁ + 1/m₂ + (r₁ × n)²/I₁ + (r₂ × n)²/I₂ (using n·perp(r) = r × n), and Newton's law
// v_n⁺ = −e v_n⁻ gives j = −(1 + e) v_n⁻ / k. The kinetic energy changes by
// ΔK = j (v_n⁻ + v_n⁺)/2 = −½ (1 − e²) (v_n⁻)² / k. The impulses are equal and opposite and act along one
// line, so Σ m v and Σ (m x × v + I ω) do not change.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include <Eigen/Geometry>

#include "oblique/geometry/contact_geometry.hpp"
#include "oblique/math/impact.hpp"
#include "oblique/geometry/narrow_phase.hpp"

namespace oblique {
namespace {

inline double cross(const Vec2& a, const Vec2& b) { return a.x() * b.y() - a.y() * b.x(); }
inline Vec2 perp(const Vec2& v) { return Vec2(-v.y(), v.x()); }
inline Vec2 rotated(double angle, const Vec2& v) { return Eigen::Rotation2Dd(angle) * v; }

/// A free rigid body of the test: shape, mass, inertia and state.
struct Body {
  Shape shape;
  double mass = 1.0;
  double inertia = 1.0;
  Vec2 position = Vec2::Zero();
  double angle = 0.0;
  Vec2 velocity = Vec2::Zero();
  double angular_velocity = 0.0;
};

Body make(const Shape& shape, double mass, Vec2 position, double angle, Vec2 velocity, double angular_velocity) {
  return Body{shape, mass, shape_inertia(shape, mass), position, angle, velocity, angular_velocity};
}

Shape box(double w, double h) {
  Shape s;
  s.type = Shape::Type::Box;
  s.width = w;
  s.height = h;
  return s;
}
Shape rod(double length, double radius) {
  Shape s;
  s.type = Shape::Type::Rod;
  s.length = length;
  s.radius = radius;
  return s;
}
Shape disk(double radius) {
  Shape s;
  s.radius = radius;
  return s;
}

/// The impact of two bodies through the contact points the narrow phase finds (touching to 1e-9 m): M,
/// the normal rows at q, q̇⁻, and solve_impact with one e.
struct TwoBodyImpact {
  std::vector<ContactCandidate> contacts;
  Vector q, qd;
  Matrix rows;
  ImpactResult result;
};

TwoBodyImpact impact(const Body& b0, const Body& b1, double e) {
  TwoBodyImpact out;
  collide_shapes(0, b0.shape, Pose{b0.position, b0.angle}, 1, b1.shape, Pose{b1.position, b1.angle}, 1e-9,
                 out.contacts);
  out.q.resize(6);
  out.qd.resize(6);
  Vector mass(6);
  const Body* bodies[2] = {&b0, &b1};
  for (int i = 0; i < 2; ++i) {
    out.q.segment<3>(3 * i) << bodies[i]->position, bodies[i]->angle;
    out.qd.segment<3>(3 * i) << bodies[i]->velocity, bodies[i]->angular_velocity;
    mass.segment<3>(3 * i) << bodies[i]->mass, bodies[i]->mass, bodies[i]->inertia;
  }
  ConstraintRows rows;
  rows.resize(static_cast<int>(out.contacts.size()), 6);
  for (std::size_t k = 0; k < out.contacts.size(); ++k) {
    feature_pair_normal_row(out.contacts[k].pair, out.q, out.qd, static_cast<int>(k), rows);
  }
  out.rows = rows.jacobian;
  const Matrix inertia = mass.asDiagonal();
  out.result = solve_impact(Projection(inertia, out.rows), out.qd, Restitution::uniform(e));
  return out;
}

/// The hand solution of one contact at point P with normal n from b0 to b1: q̇⁺, j and v_n⁻ and k.
struct HandImpact {
  Vector qd_plus;
  double impulse = 0.0, normal_velocity = 0.0, k = 0.0;
};

HandImpact by_hand(const Body& b0, const Body& b1, const Vec2& contact, const Vec2& n, double e) {
  const Vec2 r0 = contact - b0.position, r1 = contact - b1.position;
  HandImpact h;
  h.normal_velocity = n.dot(b1.velocity + b1.angular_velocity * perp(r1) - b0.velocity - b0.angular_velocity * perp(r0));
  h.k = 1 / b0.mass + 1 / b1.mass + cross(r0, n) * cross(r0, n) / b0.inertia + cross(r1, n) * cross(r1, n) / b1.inertia;
  h.impulse = -(1 + e) * h.normal_velocity / h.k;
  const double j = h.impulse;
  h.qd_plus.resize(6);
  h.qd_plus.segment<2>(0) = b0.velocity - j * n / b0.mass;
  h.qd_plus(2) = b0.angular_velocity - j * cross(r0, n) / b0.inertia;
  h.qd_plus.segment<2>(3) = b1.velocity + j * n / b1.mass;
  h.qd_plus(5) = b1.angular_velocity + j * cross(r1, n) / b1.inertia;
  return h;
}

/// Σ m v and Σ (m x × v + I ω) about the origin, of q̇ at q.
Vector momenta(const Body& b0, const Body& b1, const Vector& q, const Vector& qd) {
  Vector p = Vector::Zero(3);
  const Body* bodies[2] = {&b0, &b1};
  for (int i = 0; i < 2; ++i) {
    const Vec2 x = q.segment<2>(3 * i), v = qd.segment<2>(3 * i);
    p.head<2>() += bodies[i]->mass * v;
    p(2) += bodies[i]->mass * cross(x, v) + bodies[i]->inertia * qd(3 * i + 2);
  }
  return p;
}

/// Momentum, angular momentum and the energy balance of a solved impact.
void expect_balances(const Body& b0, const Body& b1, const TwoBodyImpact& x, double energy_change) {
  const Vector before = momenta(b0, b1, x.q, x.qd), after = momenta(b0, b1, x.q, x.result.qd_plus);
  EXPECT_LT((after - before).norm(), 1e-13 * (1 + before.norm()));
  EXPECT_NEAR(x.result.kinetic_plus - x.result.kinetic_minus, energy_change, 1e-13 * x.result.kinetic_minus);
}

TEST(ContactImpacts, BoxCornerStrikesABoxFace) {
  // Box 0 (0.6 × 0.3, 2 kg, turned 0.15 rad) moving and spinning; box 1 (0.2 × 0.4, 1 kg) turned 0.3 rad
  // more, so that its corner 0 is its lowest, touching 0's top face 0.1 m from its middle.
  const double a0 = 0.15, a1 = a0 + 0.3;
  const Vec2 contact = Vec2(0.05, -0.02) + rotated(a0, Vec2(0.1, 0.15));
  const Vec2 n = rotated(a0, Vec2(0, 1));
  const Body b0 = make(box(0.6, 0.3), 2.0, Vec2(0.05, -0.02), a0, Vec2(0.1, 0.3), -0.4);
  const Body b1 = make(box(0.2, 0.4), 1.0, contact - rotated(a1, Vec2(-0.1, -0.2)), a1, Vec2(0.5, -2.0), 1.5);
  for (double e : {0.0, 0.6, 1.0}) {
    const TwoBodyImpact x = impact(b0, b1, e);
    ASSERT_EQ(x.contacts.size(), 1u);
    EXPECT_EQ(x.contacts[0].key, (ContactKey{0, 1, kFaceFeatureId + 2, 0}));  // top face, corner 0
    EXPECT_NEAR(x.contacts[0].frame.gap, 0.0, 1e-15);
    const HandImpact h = by_hand(b0, b1, contact, n, e);
    ASSERT_LT(h.normal_velocity, 0.0);  // approaching
    for (int i = 0; i < 6; ++i) EXPECT_NEAR(x.result.qd_plus(i), h.qd_plus(i), 1e-13) << "e " << e << " entry " << i;
    EXPECT_NEAR(x.result.impulse_multipliers(0), h.impulse, 1e-13);
    EXPECT_NEAR((x.rows * x.result.qd_plus)(0), -e * h.normal_velocity, 1e-13);
    expect_balances(b0, b1, x, -0.5 * (1 - e * e) * h.normal_velocity * h.normal_velocity / h.k);
  }
}

TEST(ContactImpacts, ABoxDroppedFlatOnABoxStopsWithoutTurning) {
  // Box 1 lands flat and centred on box 0's top face: two contact points (its bottom corners). By symmetry
  // each takes half of the impulse j = (1 + e) μ v of two particles (μ = m₀m₁/(m₀ + m₁), v = 1.2 m/s the
  // closing speed), and neither box turns; the sliding speed 0.3 m/s is kept.
  const Body b0 = make(box(0.6, 0.3), 2.0, Vec2::Zero(), 0.0, Vec2::Zero(), 0.0);
  const Body b1 = make(box(0.2, 0.4), 1.0, Vec2(0.0, 0.35), 0.0, Vec2(0.3, -1.2), 0.0);
  const double mu = 2.0 * 1.0 / 3.0;
  for (double e : {0.0, 0.5, 1.0}) {
    const TwoBodyImpact x = impact(b0, b1, e);
    ASSERT_EQ(x.contacts.size(), 2u);
    EXPECT_EQ(x.contacts[0].key, (ContactKey{0, 1, kFaceFeatureId + 2, 0}));
    EXPECT_EQ(x.contacts[1].key, (ContactKey{0, 1, kFaceFeatureId + 2, 1}));
    const double j = (1 + e) * mu * 1.2;
    Vector expected(6);
    expected << 0.0, -j / 2.0, 0.0, 0.3, -1.2 + j / 1.0, 0.0;
    for (int i = 0; i < 6; ++i) EXPECT_NEAR(x.result.qd_plus(i), expected(i), 1e-13) << "e " << e << " entry " << i;
    EXPECT_NEAR(x.result.impulse_multipliers(0), j / 2, 1e-13);
    EXPECT_NEAR(x.result.impulse_multipliers(1), j / 2, 1e-13);
    expect_balances(b0, b1, x, -0.5 * (1 - e * e) * mu * 1.2 * 1.2);
  }
}

TEST(ContactImpacts, ADiskHitsARodsSide) {
  // Rod (1 m, radius 5 cm, 2 kg, I = mL²/12, turned 0.2 rad) at rest; a disk (r = 0.1, 0.5 kg) spinning at
  // 2 rad/s touches its upper side 0.3 m from the middle. n = R(0.2)(0, 1), P = x_d − r_d n; the rod's lever
  // R(0.3, ρ) gives r × n = 0.3 and the disk's, −r_d n, none: k = 1/m_r + 1/m_d + 0.3²/I_r, the disk keeps
  // its spin and tangential velocity, the rod turns by −j·0.3/I_r. Both orders of the bodies.
  const double angle = 0.2, s = 0.3;
  const Vec2 n = rotated(angle, Vec2(0, 1));
  const Body stick = make(rod(1.0, 0.05), 2.0, Vec2(0.1, 0.2), angle, Vec2::Zero(), 0.0);
  const Body ball = make(disk(0.1), 0.5, stick.position + rotated(angle, Vec2(s, 0.05 + 0.1)), 0.0, Vec2(0.4, -3.0), 2.0);
  const Vec2 contact = ball.position - 0.1 * n;
  for (double e : {0.0, 0.7, 1.0}) {
    for (int order = 0; order < 2; ++order) {
      const Body& b0 = order == 0 ? stick : ball;
      const Body& b1 = order == 0 ? ball : stick;
      const Vec2 normal = order == 0 ? n : Vec2(-n);
      const TwoBodyImpact x = impact(b0, b1, e);
      ASSERT_EQ(x.contacts.size(), 1u);
      EXPECT_EQ(x.contacts[0].key, order == 0 ? (ContactKey{0, 1, kFaceFeatureId + 1, 0}) : (ContactKey{0, 1, 0, kFaceFeatureId + 1}));
      const HandImpact h = by_hand(b0, b1, contact, normal, e);
      ASSERT_LT(h.normal_velocity, 0.0);
      EXPECT_NEAR(h.k, 1 / 2.0 + 1 / 0.5 + s * s / stick.inertia, 1e-14);
      for (int i = 0; i < 6; ++i) EXPECT_NEAR(x.result.qd_plus(i), h.qd_plus(i), 1e-13) << "e " << e << " entry " << i;
      const int d = order == 0 ? 3 : 0, r = 3 - d;  // disk's and rod's columns
      EXPECT_NEAR(x.result.qd_plus(d + 2), 2.0, 1e-13);  // the disk keeps its spin
      EXPECT_NEAR(perp(n).dot(x.result.qd_plus.segment<2>(d)), perp(n).dot(ball.velocity), 1e-13);
      EXPECT_NEAR(x.result.qd_plus(r + 2), -h.impulse * s / stick.inertia, 1e-13);  // j > 0 turns it clockwise
      expect_balances(b0, b1, x, -0.5 * (1 - e * e) * h.normal_velocity * h.normal_velocity / h.k);
    }
  }
}

TEST(ContactImpacts, ADiskHitsARodsEnd) {
  // The same rod; the disk touches its end circle 1 obliquely, at 0.6 rad from the rod's axis, moving at
  // 2.5 m/s in a direction 0.3 rad off the normal. n = (cos α, sin α) with α = 0.2 + 0.6; the rod's lever
  // R(0.2)(0.5, 0) + ρ n gives r × n = 0.5 sin 0.6: k = 1/m_r + 1/m_d + (0.5 sin 0.6)²/I_r.
  const double angle = 0.2, alpha = angle + 0.6;
  const Vec2 n(std::cos(alpha), std::sin(alpha));
  const Body stick = make(rod(1.0, 0.05), 2.0, Vec2(0.1, 0.2), angle, Vec2::Zero(), 0.0);
  const Vec2 end = stick.position + rotated(angle, Vec2(0.5, 0.0));
  const Body ball = make(disk(0.1), 0.5, end + 0.15 * n, 0.0, -2.5 * Vec2(std::cos(alpha + 0.3), std::sin(alpha + 0.3)), -1.0);
  const Vec2 contact = end + 0.05 * n;
  for (double e : {0.0, 0.4, 1.0}) {
    const TwoBodyImpact x = impact(stick, ball, e);
    ASSERT_EQ(x.contacts.size(), 1u);
    EXPECT_EQ(x.contacts[0].key, (ContactKey{0, 1, 1, 0}));  // end circle 1, the disk
    const HandImpact h = by_hand(stick, ball, contact, n, e);
    ASSERT_LT(h.normal_velocity, 0.0);
    const double lever = 0.5 * std::sin(0.6);
    EXPECT_NEAR(h.k, 1 / 2.0 + 1 / 0.5 + lever * lever / stick.inertia, 1e-14);
    for (int i = 0; i < 6; ++i) EXPECT_NEAR(x.result.qd_plus(i), h.qd_plus(i), 1e-13) << "e " << e << " entry " << i;
    EXPECT_NEAR(x.result.qd_plus(2), -h.impulse * lever / stick.inertia, 1e-13);
    EXPECT_NEAR(x.result.qd_plus(5), -1.0, 1e-13);
    expect_balances(stick, ball, x, -0.5 * (1 - e * e) * h.normal_velocity * h.normal_velocity / h.k);
  }
}

}  // namespace
}  // namespace oblique
