// The projections the simulator uses (scaled_projection.hpp): on random diagonal-M systems of every
// Jacobian kind, with sparse rows that leave coordinates untouched, they agree with the paper's formulas
// taken directly (Projection, constrained_dynamics, solve_impact) to round-off; with a mass ratio of 10¹²
// an impact on vertical rows changes no other velocity — exactly — and balances momentum, where the
// direct formulas sent the light disk sideways at kilometres a second; and the scalars shown for a record
// (rank, ν, its interval, cond(Mc)) are those of the unscaled projections.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>

#include "oblique/math/scaled_projection.hpp"
#include "oblique/simulation/simulator.hpp"
#include "comparisons.hpp"
#include "random_systems.hpp"
#include "scenario_builders.hpp"

namespace oblique {
namespace {

using testing::JacobianKind;
using testing::rel_gap;

/// A diagonal M (masses and inertias over two decades) and a Jacobian of the given kind whose rows touch
/// only some coordinates (the others' columns zero).
struct ScaledSystem {
  Vector mass;
  Matrix jacobian;
};

ScaledSystem random_scaled_system(testing::RandomSystems& random, JacobianKind kind, int n) {
  ScaledSystem s;
  s.mass = Vector(n);
  for (int i = 0; i < n; ++i) s.mass(i) = std::pow(10.0, random.uniform(-1.0, 1.0));
  s.jacobian = random.jacobian(kind, n);
  for (int j = 0; j < n; j += 3) s.jacobian.col(j).setZero();  // untouched coordinates
  return s;
}

TEST(ScaledProjection, AgreesWithTheDirectFormulasToRoundOff) {
  testing::RandomSystems random(7);
  for (JacobianKind kind : testing::all_jacobian_kinds()) {
    for (int trial = 0; trial < 20; ++trial) {
      const int n = 6 + 3 * (trial % 4);
      const ScaledSystem s = random_scaled_system(random, kind, n);
      const int m = static_cast<int>(s.jacobian.rows());
      const Projection direct(Matrix(s.mass.asDiagonal()), s.jacobian);
      const ScaledProjection scaled(s.mass, s.jacobian);
      const std::string label = std::string(testing::name(kind)) + " trial " + std::to_string(trial);
      EXPECT_EQ(scaled.rank(), direct.rank()) << label;
      // The smooth phase: q̈, f, λ and the velocity projection.
      const Vector h = random.vector(n), u = random.vector(n), adot = random.vector(m), qd = random.vector(n);
      const ConstrainedDynamics a = constrained_dynamics(direct, h, u, adot);
      const ConstrainedDynamics b = scaled.dynamics(h, u, adot, s.mass.cwiseInverse().cwiseProduct(u - h));
      EXPECT_LT(rel_gap(b.qdd, a.qdd, 0.0), 1e-10) << label;
      EXPECT_LT(rel_gap(b.force, a.force, 0.0), 1e-10) << label;
      if (m > 0) EXPECT_LT(rel_gap(b.multipliers, a.multipliers, 0.0), 1e-9) << label;
      EXPECT_LT(rel_gap(scaled.project_velocity(qd), qd - direct.oblique_projector() * qd, 0.0), 1e-10) << label;
      // An impact with unequal e_i and an external impulse.
      Vector e(m);
      for (int i = 0; i < m; ++i) e(i) = random.uniform(0.0, 1.0);
      const Vector iu = random.vector(n);
      const ImpactResult x = solve_impact(direct, qd, Restitution::rows(e), iu);
      const ImpactResult y = scaled.impact(qd, e, iu, {});
      EXPECT_LT(rel_gap(y.qd_plus, x.qd_plus, 0.0), 1e-10) << label;
      EXPECT_LT(rel_gap(y.impulse, x.impulse, 0.0), 1e-10) << label;
      if (m > 0) EXPECT_LT(rel_gap(y.impulse_multipliers, x.impulse_multipliers, 0.0), 1e-9) << label;
      EXPECT_NEAR(y.kinetic_energy_change, x.kinetic_energy_change, 1e-10 * std::max(1.0, x.kinetic_minus)) << label;
      EXPECT_NEAR(y.qmi_max_eig, x.qmi_max_eig, 1e-9 * std::max(1.0, std::abs(x.qmi_max_eig))) << label;
      EXPECT_EQ(y.energy_consistent, x.energy_consistent) << label;
      EXPECT_EQ(y.flags.tensile_impulse, x.flags.tensile_impulse) << label;
      // Coordinates no row touches keep their velocity but for the free response M⁻¹i_u.
      for (int j = 0; j < n; j += 3) EXPECT_EQ(y.qd_plus(j), qd(j) + iu(j) / s.mass(j)) << label;
      // The scalars of the unscaled projections.
      const ProjectionScalars p = unscaled_projection_scalars(s.mass, s.jacobian, std::nullopt);
      EXPECT_EQ(p.rank, direct.rank()) << label;
      EXPECT_NEAR(p.nu_lower, direct.nu_lower(), 1e-10 * direct.nu_lower()) << label;
      EXPECT_NEAR(p.nu_upper, direct.nu_upper(), 1e-10 * direct.nu_upper()) << label;
      EXPECT_NEAR(p.nu, direct.nu(), 1e-10 * direct.nu()) << label;
      EXPECT_NEAR(p.cond, direct.cond_constraint_inertia(), 1e-9 * direct.cond_constraint_inertia()) << label;
      const ProjectionScalars at = unscaled_projection_scalars(s.mass, s.jacobian, 42.0);
      EXPECT_EQ(at.nu, 42.0);
      EXPECT_NEAR(at.cond, direct.cond_constraint_inertia_for(42.0), 1e-9 * at.cond) << label;
    }
  }
}

/// A light disk (`light` kg) resting on the floor and a heavy one (`heavy` kg) falling on it from above,
/// centres on one vertical line: every contact row is vertical. (Masses are bounded to [10⁻⁶, 10⁶] kg: the
/// largest ratio a scenario can hold is 10¹².)
Scenario heavy_on_light(double heavy, double light) {
  Scenario s;
  s.gravity = Vec2(0.0, -9.81);
  s.restitution = 0.5;
  s.bodies.push_back(testing::disk("heavy", heavy, 0.1, Vec2(0.0, 0.5)));
  s.bodies.push_back(testing::disk("light", light, 0.1, Vec2(0.0, 0.1)));
  s.planes.push_back(testing::plane(Vec2::Zero(), Vec2::UnitY()));
  s.contacts.push_back(testing::body_plane(0, 0));
  s.contacts.push_back(testing::body_plane(1, 0));
  s.contacts.push_back(testing::disk_disk(0, 1));
  return s;
}

TEST(ScaledProjection, AMassRatioOf1e12InventsNoVelocityTheRowsDoNotTouch) {
  // Issue 13.7: the light disk left sideways at 2230 m/s.
  for (const auto& [heavy, light] : {std::pair{1e3, 1.0}, {1e6, 1.0}, {1e6, 1e-3}, {1e6, 1e-6}}) {
    Simulator sim(heavy_on_light(heavy, light));
    do sim.advance_to(1.0); while (sim.work_limit_hit());
    ASSERT_GE(sim.impacts().size(), 2u) << heavy;
    for (const ImpactRecord& record : sim.impacts()) {
      const ImpactResult& r = record.result;
      // x and θ of both disks: untouched by the vertical rows, unchanged to the last bit.
      for (int j : {0, 2, 3, 5}) EXPECT_EQ(r.qd_plus(j), r.qd_minus(j)) << heavy << " coordinate " << j;
      // Momentum: M(q̇⁺ − q̇⁻) = i_f, the impulse of the rows; the disk–disk impulse is internal.
      const Vector dp = sim.model().mass_diagonal().cwiseProduct(r.qd_plus - r.qd_minus);
      EXPECT_LT((dp - r.impulse).norm(), 1e-12 * std::max(dp.norm(), 1e-300)) << heavy;
      // Newton's law on the vertical rows, and no row approaching after the impact.
      for (Eigen::Index i = 0; i < r.normal_velocity_plus.size(); ++i) {
        EXPECT_GE(r.normal_velocity_plus(i), -1e-9 * std::max(1.0, r.normal_velocity_minus.norm())) << heavy;
      }
      EXPECT_LE(r.energy_ratio, 1.0 + 1e-12) << heavy;
    }
    EXPECT_EQ(sim.velocities()(0), 0.0);
    EXPECT_EQ(sim.velocities()(3), 0.0);
  }
}

TEST(ScaledProjection, TheHeavyDiskLandsOnTheLightOneAsTheClosedFormSays) {
  // The heavy disk falls 0.2 m onto the light one, which rests on the floor: the light disk cannot move
  // down, so the impact is the heavy disk's on a fixed support: v⁺ = −e v⁻ for it, and the light one stays.
  const double e = 0.5, g = 9.81;
  Simulator sim(heavy_on_light(1e6, 1e-6));
  sim.set_restitution(e);
  ASSERT_TRUE(sim.advance_to_next_impact(1.0));
  const ImpactResult& r = sim.impacts().back().result;
  const double v = std::sqrt(2 * g * 0.2);
  EXPECT_NEAR(sim.impacts().back().time, std::sqrt(2 * 0.2 / g), 1e-9);
  EXPECT_NEAR(r.qd_minus(1), -v, 1e-9);
  EXPECT_NEAR(r.qd_plus(1), e * v, 1e-9);
  EXPECT_NEAR(r.qd_plus(4), 0.0, 1e-9);
}

}  // namespace
}  // namespace oblique
