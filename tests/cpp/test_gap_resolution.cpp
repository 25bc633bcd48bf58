// Gaps resolved down to 1e-10 of the bodies' size (simulator.hpp, kRelativeGapTolerance): beads 1 nm and
// 2 nm apart are separate contacts with impacts of their own, in the order and at the times an exact
// event-driven computation gives them; only gaps below the touching tolerance merge into one simultaneous
// impact, which the README's tolerances section states.
#include <gtest/gtest.h>

#include <string>

#include "contact_runs.hpp"
#include "scenario_builders.hpp"

namespace oblique {
namespace {

using testing::ContactRun;
using testing::run_watched;

/// Three beads (r = 0.05 m, 1 kg) in a column above a floor, falling at 1 m/s with no gravity, e = 1: the
/// lowest `height` above the floor, the second 1 nm above it, the third 2 nm above the second.
Scenario bead_column(double height) {
  Scenario s;
  s.gravity = Vec2::Zero();
  s.restitution = 1.0;
  s.collide_all = true;
  s.planes.push_back(testing::plane(Vec2::Zero(), Vec2::UnitY()));
  s.bodies.push_back(testing::disk("low", 1.0, 0.05, Vec2(0.0, 0.05 + height), Vec2(0.0, -1.0)));
  s.bodies.push_back(testing::disk("middle", 1.0, 0.05, Vec2(0.0, 0.15 + height + 1e-9), Vec2(0.0, -1.0)));
  s.bodies.push_back(testing::disk("high", 1.0, 0.05, Vec2(0.0, 0.25 + height + 3e-9), Vec2(0.0, -1.0)));
  return s;
}

TEST(GapResolution, BeadsOneAndTwoNanometresApartStrikeOneAfterTheOther) {
  // Event by event, in exact arithmetic (the relative speed of two beads is 2 m/s, of a bead and the floor
  // 1 m/s): the floor sends the low bead up at t0; 0.5 ns later it meets the middle one and they exchange;
  // the low bead is back on the floor at t0 + 1 ns; the middle one meets the high one at t0 + 1.5 ns; the low
  // and middle ones meet again at t0 + 2 ns, and the low one leaves the floor for good at t0 + 3 ns: six
  // one-point impacts, and all three beads rise at 1 m/s. A tolerance that took the nanometre gaps for
  // touching would merge them into simultaneous impacts with another outcome.
  for (double height : {0.1, 0.0123}) {
    const ContactRun run = run_watched(bead_column(height), height + 0.01);
    const std::string where = "height " + std::to_string(height);
    ASSERT_EQ(run.impacts.size(), 6u) << where;
    const double after[6] = {0.0, 0.5e-9, 1e-9, 1.5e-9, 2e-9, 3e-9};
    // Which bodies each impact joins: the low bead and the floor (−1), or two beads (the lower's index).
    const int pairs[6] = {-1, 0, -1, 1, 0, -1};
    for (std::size_t k = 0; k < 6; ++k) {
      const ImpactRecord& impact = run.impacts[k];
      EXPECT_NEAR(impact.time, height + after[k], 1e-11) << where << " impact " << k;
      ASSERT_EQ(impact.points.size(), 1u) << where << " impact " << k;
      // The impulse moves the bodies of its pair and no other.
      const Vector change = impact.result.qd_plus - impact.result.qd_minus;
      for (int body = 0; body < 3; ++body) {
        const bool in_pair = pairs[k] < 0 ? body == 0 : (body == pairs[k] || body == pairs[k] + 1);
        EXPECT_EQ(change(3 * body + 1) != 0.0, in_pair) << where << " impact " << k << " body " << body;
      }
    }
    for (int body = 0; body < 3; ++body) {
      EXPECT_NEAR(run.qd(3 * body), 0.0, 1e-15) << where;
      EXPECT_NEAR(run.qd(3 * body + 1), 1.0, 1e-12) << where << " body " << body;
    }
    EXPECT_LE(run.kinetic_rise, 1e-15) << where;
    EXPECT_GE(run.deepest, -1e-12) << where;
  }
}

TEST(GapResolution, GapsBelowTheTouchingToleranceMergeIntoOneImpact) {
  // The same column with 1e-12 m gaps, below the touching tolerance of 5 cm beads (1e-10 × 0.05 m): the
  // beads touch, and the floor stops the column in one simultaneous impact of three points, as it would
  // touching exactly: the paper's simultaneous impact of a column on a floor with e = 1 reverses every
  // velocity (R = I − 2S reflects the whole column's motion, which the rows span).
  Scenario s = bead_column(0.1);
  s.bodies[1].position.y() = 0.25 + 1e-12;
  s.bodies[2].position.y() = 0.35 + 2e-12;
  const ContactRun run = run_watched(s, 0.11);
  ASSERT_EQ(run.impacts.size(), 1u);
  EXPECT_EQ(run.impacts[0].points.size(), 3u);
  EXPECT_NEAR(run.impacts[0].time, 0.1, 1e-11);
  for (int body = 0; body < 3; ++body) EXPECT_NEAR(run.qd(3 * body + 1), 1.0, 1e-12) << "body " << body;
}

}  // namespace
}  // namespace oblique
