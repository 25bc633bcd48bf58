// The activation rule Γ on its own (activation_rule.hpp), with systems whose rows are given: the row
// layout; the trailing spoke of a rimless wheel released (the closed-form ratio of angular velocities);
// a touching row that approaches after the impact joining, plastic (three particles, Newton's law), and one
// that separates before it never joining (no energy created); a point nearly resting in a stack held to
// its own rest speed; and the fallback — on a cycle, when the passes run out, when rows nearly dependent
// with unequal e create energy out of all proportion, and when asked from the start — that leaves nothing
// approaching.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "oblique/simulation/activation_rule.hpp"
#include "scenario_builders.hpp"

namespace oblique {
namespace {

using testing::kPi;

/// A system whose constraint rows do not depend on the configuration: point k has the normal row
/// `normal.row(k)` and, when it sticks, the tangential row `tangent.row(k)`; joints have `joints`.
struct FixedRows {
  Matrix mass;
  Matrix joints;
  Matrix normal;
  Matrix tangent;
  Vector qd_minus;

  ActivationSystem system() const {
    ActivationSystem s;
    s.rows = [this](const std::vector<int>& points, ConstraintRows& rows) {
      const int n = static_cast<int>(mass.rows());
      int count = static_cast<int>(joints.rows());
      for (int k : points) count += tangent.rows() > 0 && tangent.row(k).squaredNorm() > 0 ? 2 : 1;
      rows.resize(count, n);
      int row = 0;
      for (; row < joints.rows(); ++row) rows.jacobian.row(row) = joints.row(row);
      for (int k : points) {
        rows.jacobian.row(row++) = normal.row(k);
        if (tangent.rows() > 0 && tangent.row(k).squaredNorm() > 0) rows.jacobian.row(row++) = tangent.row(k);
      }
    };
    s.normal_velocity = [this](int point, const Vector& qd) { return normal.row(point).dot(qd); };
    s.solve = [this](ConstraintRows& rows, const Vector& restitution, const std::vector<bool>& unilateral) {
      return solve_impact_summarised(Inertia(mass), rows.dense_jacobian(), std::nullopt, qd_minus, restitution,
                                     Vector(), unilateral);
    };
    return s;
  }

  /// Every point touching, with its approach speed from q̇⁻; `in_set` and e per point.
  ActivationInput input(const std::vector<bool>& in_set, const std::vector<double>& restitution) const {
    ActivationInput in;
    for (int k = 0; k < normal.rows(); ++k) {
      ImpactPoint p;
      p.touching = true;
      p.in_set = in_set[static_cast<std::size_t>(k)];
      p.sticks = tangent.rows() > 0 && tangent.row(k).squaredNorm() > 0;
      p.approach = normal.row(k).dot(qd_minus);
      p.restitution = restitution[static_cast<std::size_t>(k)];
      in.points.push_back(p);
    }
    in.joint_rows = static_cast<int>(joints.rows());
    in.qd_minus = qd_minus;
    in.mass_diagonal = mass.diagonal();
    in.rest_speed = 1e-3;
    in.force_scale = mass.trace();
    return in;
  }
};

TEST(RowLayout, JointsFirstThenEachPointsNormalRowAndItsTangentialRow) {
  const RowLayout layout = RowLayout::of(3, {2, 5, 7}, [](int point) { return point == 5; });
  EXPECT_EQ(layout.normal_rows, (std::vector<int>{3, 4, 6}));
  EXPECT_EQ(layout.tangent, (std::vector<char>{0, 1, 0}));
  EXPECT_EQ(layout.rows, 7);
  EXPECT_EQ(layout.unilateral_mask(), (std::vector<bool>{false, false, false, true, true, false, true}));
  EXPECT_EQ(RowLayout::of(2, {}, [](int) { return true; }).rows, 2);
}

/// A rimless wheel (mass 1, spokes of length 1, I = 1/3) on the floor y = 0, spokes 2α apart, pivoting on
/// its trailing foot at angular velocity −ω as its leading foot lands; both feet stick (normal and
/// tangential rows).
FixedRows rimless_wheel(double alpha, double omega) {
  FixedRows w;
  w.mass = Eigen::Vector3d(1.0, 1.0, 1.0 / 3.0).asDiagonal().toDenseMatrix();
  w.joints = Matrix(0, 3);
  // A foot at r from the centre: normal row (0, 1, r_x), tangential row (−1, 0, r_y) (material-point speed
  // along t = (−1, 0)).
  const double sx = std::sin(alpha), cy = std::cos(alpha);
  w.normal = Matrix(2, 3);
  w.normal << 0.0, 1.0, -sx,  // trailing foot, r = (−sin α, −cos α)
      0.0, 1.0, sx;           // leading foot, r = (sin α, −cos α)
  w.tangent = Matrix(2, 3);
  w.tangent << -1.0, 0.0, -cy, -1.0, 0.0, -cy;
  // Rotation about the trailing foot: ẋ = −θ̇ r_y... v = θ̇ perp(c − foot) with c − foot = (sin α, cos α).
  const double theta_dot = -omega;
  w.qd_minus = Eigen::Vector3d(-theta_dot * cy, theta_dot * sx, theta_dot);
  return w;
}

TEST(ActivationRule, TheTrailingSpokeOfARimlessWheelIsReleased) {
  const double alpha = kPi / 8;  // 8 spokes
  const FixedRows wheel = rimless_wheel(alpha, 1.5);
  ASSERT_NEAR(wheel.normal.row(0).dot(wheel.qd_minus), 0.0, 1e-15);  // the trailing foot rests
  ASSERT_LT(wheel.normal.row(1).dot(wheel.qd_minus), 0.0);           // the leading foot lands
  const ActivationOutcome out = apply_activation_rule(wheel.input({true, true}, {0.0, 0.0}), wheel.system());
  // Both feet in A pull on the trailing one; it leaves, and the second pass is consistent.
  EXPECT_EQ(out.passes, 2);
  EXPECT_FALSE(out.fallback);
  EXPECT_EQ(out.points, (std::vector<int>{1}));
  EXPECT_EQ(out.layout.normal_rows, (std::vector<int>{0}));
  EXPECT_EQ(out.rows.rows(), 2);  // the leading foot's normal and tangential rows
  // Angular momentum about the new foot is conserved: θ̇⁺/θ̇⁻ = (I + m l² cos 2α)/(I + m l²).
  const ImpactResult& r = out.solution.result;
  EXPECT_NEAR(r.qd_plus(2) / r.qd_minus(2), (1.0 / 3.0 + std::cos(2 * alpha)) / (1.0 / 3.0 + 1.0), 1e-12);
  // The new foot is at rest and pushes; the wheel leaves the trailing foot behind.
  EXPECT_NEAR(wheel.normal.row(1).dot(r.qd_plus), 0.0, 1e-12);
  EXPECT_GT(r.impulse_multipliers(0), 0.0);
  EXPECT_GT(wheel.normal.row(0).dot(r.qd_plus), 0.0);
}

TEST(ActivationRule, ATouchingRowThatApproachesAfterTheImpactJoinsPlastic) {
  // Three unit particles on a line, touching; the first strikes the second at 1 m/s, e = 1. With the first
  // contact alone the second particle would run into the third: that contact joins, plastic, and the
  // impact is solved again with Newton's law on both rows: φ̇⁺ = (−e₁φ̇₁⁻, 0) = (1, 0).
  FixedRows line;
  line.mass = Matrix::Identity(3, 3);
  line.joints = Matrix(0, 3);
  line.normal = Matrix(2, 3);
  line.normal << -1.0, 1.0, 0.0, 0.0, -1.0, 1.0;
  line.qd_minus = Eigen::Vector3d(1.0, 0.0, 0.0);
  const ActivationOutcome out = apply_activation_rule(line.input({true, false}, {1.0, 1.0}), line.system());
  EXPECT_EQ(out.passes, 2);
  EXPECT_FALSE(out.fallback);
  EXPECT_EQ(out.points, (std::vector<int>{0, 1}));
  const ImpactResult& r = out.solution.result;
  EXPECT_EQ(r.restitution(0), 1.0);
  EXPECT_EQ(r.restitution(1), 0.0);  // joined plastic, although its contact has e = 1
  EXPECT_NEAR(r.normal_velocity_plus(0), 1.0, 1e-12);
  EXPECT_NEAR(r.normal_velocity_plus(1), 0.0, 1e-12);
  // Momentum 1 shared: q̇⁺ = (−1/3, 2/3, 2/3), both impulses push.
  EXPECT_NEAR((r.qd_plus - Eigen::Vector3d(-1.0 / 3.0, 2.0 / 3.0, 2.0 / 3.0)).norm(), 0.0, 1e-12);
  EXPECT_GT(r.impulse_multipliers.minCoeff(), 0.0);
}

/// What the fallback guarantees when no point separates: every touching point in A, every row plastic,
/// nothing approaching.
void expect_fallback(const FixedRows& system, const ActivationOutcome& out) {
  EXPECT_TRUE(out.fallback);
  EXPECT_EQ(static_cast<int>(out.points.size()), system.normal.rows());
  const ImpactResult& r = out.solution.result;
  EXPECT_EQ(r.restitution.cwiseAbs().maxCoeff(), 0.0);
  for (int k = 0; k < system.normal.rows(); ++k) EXPECT_GE(system.normal.row(k).dot(r.qd_plus), -1e-12) << k;
}

TEST(ActivationRule, ACycleTakesTheFallback) {
  // A particle in the plane (M = I) moving at (1, 1) against three rows, all in the set: (1, −1) at rest
  // (e = 0.5), (−1, −2) landing with e = 1 and (0, −1) landing with e = 0.5. A row pulls and
  // leaves, the impact without it makes it approach, it rejoins plastic, and a row pulls again: the rule
  // cycles, and the fallback stops it.
  FixedRows particle;
  particle.mass = Matrix::Identity(2, 2);
  particle.joints = Matrix(0, 2);
  particle.normal = Matrix(3, 2);
  particle.normal << 1.0, -1.0, -1.0, -2.0, 0.0, -1.0;
  particle.qd_minus = Eigen::Vector2d(1.0, 1.0);
  const ActivationOutcome out =
      apply_activation_rule(particle.input({true, true, true}, {0.5, 1.0, 0.5}), particle.system());
  expect_fallback(particle, out);
  EXPECT_LT(out.passes, kMaxImpactPasses);  // the cycle was detected, not the passes exhausted
  // All three rows plastic in a plane: the particle stops (the impulse pulls on a row, as its flags say).
  EXPECT_LT(out.solution.result.qd_plus.norm(), 1e-12);
  EXPECT_FALSE(out.solution.result.flags.tensile_impulse.empty());
}

TEST(ActivationRule, APointNearlyRestingInAStackIsHeldToItsOwnRestSpeed) {
  // Two unit masses on a vertical line (y₁, y₂): point 0 holds the lower one on the floor (row (1, 0)),
  // point 1 the upper one on it (row (−1, 1)), both resting, in the set, e = 0.5. The upper one moves off at
  // w = 5 mm/s. Held to the scenario's rest speed of 1 mm/s, point 1 takes its e and then pulls beyond
  // m_eff·1 mm/s: it leaves the set and the upper mass goes on at w. Held to a stack's rest speed of 3 cm/s
  // (ImpactPoint::nearly_resting_speed), both points are plastic and their pulls — w·m = 5·10⁻³ N s on each
  // row — are below m_eff·3 cm/s (m_eff = 1 for the floor's row, ½ for the other): resting-contact
  // business, the set keeps both and the masses rest.
  FixedRows stack;
  stack.mass = Matrix::Identity(2, 2);
  stack.joints = Matrix(0, 2);
  stack.normal = Matrix(2, 2);
  stack.normal << 1.0, 0.0, -1.0, 1.0;
  const double w = 0.005;
  stack.qd_minus = Eigen::Vector2d(0.0, w);
  ActivationInput held = stack.input({true, true}, {0.5, 0.5});
  const ActivationOutcome free = apply_activation_rule(held, stack.system());
  EXPECT_EQ(std::count(free.points.begin(), free.points.end(), 1), 0);
  EXPECT_NEAR((free.solution.result.qd_plus - Eigen::Vector2d(0.0, w)).norm(), 0.0, 1e-15);
  EXPECT_EQ(free.rest_speeds, std::vector<double>(free.points.size(), held.rest_speed));
  for (ImpactPoint& point : held.points) point.nearly_resting_speed = 0.03;
  const ActivationOutcome rests = apply_activation_rule(held, stack.system());
  EXPECT_FALSE(rests.fallback);
  EXPECT_EQ(rests.passes, 1);
  EXPECT_EQ(rests.points, (std::vector<int>{0, 1}));
  EXPECT_EQ(rests.solution.result.restitution.cwiseAbs().maxCoeff(), 0.0);
  EXPECT_NEAR(rests.solution.result.qd_plus.norm(), 0.0, 1e-15);
  EXPECT_NEAR(rests.solution.result.impulse_multipliers(0), -w, 1e-15);
  EXPECT_NEAR(rests.solution.result.impulse_multipliers(1), -w, 1e-15);
  EXPECT_EQ(rests.rest_speeds, (std::vector<double>{0.03, 0.03}));
  // Pulled off at 5 cm/s instead, beyond both bounds, the upper mass leaves again.
  stack.qd_minus = Eigen::Vector2d(0.0, 10.0 * w);
  held.qd_minus = stack.qd_minus;
  for (std::size_t k = 0; k < held.points.size(); ++k) held.points[k].approach = stack.normal.row(static_cast<Eigen::Index>(k)).dot(stack.qd_minus);
  const ActivationOutcome fast = apply_activation_rule(held, stack.system());
  EXPECT_EQ(std::count(fast.points.begin(), fast.points.end(), 1), 0);
  EXPECT_NEAR((fast.solution.result.qd_plus - stack.qd_minus).norm(), 0.0, 1e-15);
}

TEST(ActivationRule, RowsNearlyDependentWithUnequalRestitutionTakeTheFallback) {
  // A particle in the plane (M = I) landing at 1 m/s on two rows 10⁻⁶ rad apart, (0, 1) plastic and
  // (10⁻⁶, 1) with e = 0.2: Newton's law per row asks for φ̇⁺ = 0 on one and 0.2 m/s on the other, which
  // only ẋ = 0.2 / 10⁻⁶ m/s gives — 2·10¹⁰ J from 0.5 J. The constraints' work is positive and K⁺ is far
  // beyond 4 K⁻: the rule takes the fallback, every row plastic, and the particle stops.
  FixedRows particle;
  particle.mass = Matrix::Identity(2, 2);
  particle.joints = Matrix(0, 2);
  particle.normal = Matrix(2, 2);
  particle.normal << 0.0, 1.0, 1e-6, 1.0;
  particle.qd_minus = Eigen::Vector2d(0.0, -1.0);
  const ActivationOutcome out = apply_activation_rule(particle.input({true, true}, {0.0, 0.2}), particle.system());
  EXPECT_TRUE(out.fallback);
  EXPECT_EQ(out.passes, 2);
  const ImpactResult& r = out.solution.result;
  EXPECT_EQ(r.restitution.cwiseAbs().maxCoeff(), 0.0);
  EXPECT_LE(r.kinetic_plus, r.kinetic_minus);
  EXPECT_NEAR(r.qd_plus.norm(), 0.0, 1e-9);
}

TEST(ActivationRule, ARowSeparatingBeforeTheImpactNeverJoins) {
  // The three particles of the joining case, but the third moves away at 0.2 m/s while touching: the
  // first contact alone sends the second at 1 m/s into it. Stopping that contact from q̇⁻ would push a row
  // that moves apart (positive work); it stays out, and the impact is the first contact's alone, leaving
  // the second contact approaching for a sub-impact of its own.
  FixedRows line;
  line.mass = Matrix::Identity(3, 3);
  line.joints = Matrix(0, 3);
  line.normal = Matrix(2, 3);
  line.normal << -1.0, 1.0, 0.0, 0.0, -1.0, 1.0;
  line.qd_minus = Eigen::Vector3d(1.0, 0.0, 0.2);
  const ActivationOutcome out = apply_activation_rule(line.input({true, false}, {1.0, 1.0}), line.system());
  EXPECT_EQ(out.passes, 1);
  EXPECT_FALSE(out.fallback);
  EXPECT_EQ(out.points, (std::vector<int>{0}));
  const ImpactResult& r = out.solution.result;
  EXPECT_NEAR((r.qd_plus - Eigen::Vector3d(0.0, 1.0, 0.2)).norm(), 0.0, 1e-12);
  EXPECT_LT(line.normal.row(1).dot(r.qd_plus), 0.0);
  EXPECT_LE(r.constraint_work, 1e-15);
  // Asked to fall back, the rule leaves it out too: every row plastic, and still no energy created.
  ActivationInput guarded = line.input({true, false}, {1.0, 1.0});
  guarded.fallback = true;
  const ActivationOutcome fallback = apply_activation_rule(guarded, line.system());
  EXPECT_TRUE(fallback.fallback);
  EXPECT_EQ(fallback.points, (std::vector<int>{0}));
  EXPECT_LE(fallback.solution.result.constraint_work, 1e-15);
}

TEST(ActivationRule, TheFallbackWhenThePassesRunOutOrWhenAskedFromTheStart) {
  const FixedRows wheel = rimless_wheel(kPi / 6, 2.0);
  ActivationInput short_of_passes = wheel.input({true, true}, {0.5, 0.5});
  short_of_passes.max_passes = 1;
  const ActivationOutcome exhausted = apply_activation_rule(short_of_passes, wheel.system());
  expect_fallback(wheel, exhausted);
  EXPECT_EQ(exhausted.passes, 2);  // the one allowed pass, then the fallback
  // The Zeno guard asks for it from the start: one pass, every touching point, plastic.
  ActivationInput zeno = wheel.input({false, true}, {0.5, 0.5});
  zeno.fallback = true;
  const ActivationOutcome asked = apply_activation_rule(zeno, wheel.system());
  expect_fallback(wheel, asked);
  EXPECT_EQ(asked.passes, 1);
  EXPECT_LT(asked.solution.result.qd_plus.norm(), 1e-12);  // two sticking feet hold the wheel
}

}  // namespace
}  // namespace oblique
