// Contacts set up exactly, as people set scenes up on purpose: a disk sent along a rod's axis into its end,
// two disks into both ends of a rod, a box striking a thin rod's end just off its axis, two box corners
// meeting. Each degenerate scene gives the limit of its neighbours in general position: the scene moved by
// 1e-7 m has the same impacts to 1e-9 s and, where a closed form exists, both follow it to round-off — the
// exact scene with its exact geometry, the moved one with its own (a normal turned by 1e-7 m over the
// radius of curvature, a lever longer by 1e-7 m); where impacts follow in a chain, the moved scene's
// velocities converge to the exact one's linearly in the offset. No external force acts, so linear and
// angular momentum (about the origin) are kept to round-off, the kinetic energy never rises, and nothing
// penetrates beyond the touching tolerance by the exact signed distance of the shapes (contact_runs.hpp).
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <string>

#include "contact_runs.hpp"
#include "scenario_builders.hpp"

namespace oblique {
namespace {

using testing::ContactRun;
using testing::expect_laws_kept;
using testing::free_scene;
using testing::run_watched;
using testing::velocity_difference;


BodyDef rod_body(std::string name, double mass, double length, double radius, Vec2 position, double angle = 0.0,
                 Vec2 velocity = Vec2::Zero()) {
  BodyDef b = testing::rod(std::move(name), mass, length, position, angle);
  b.shape.radius = radius;
  b.velocity = velocity;
  return b;
}


/// A rod (1 kg, I = L²/12, at rest on the x axis) struck at its right end circle (centre (L/2, 0), radius
/// ρ) by a disk of radius r and mass m moving at −1 m/s along y = offset: the normal from the end circle's
/// centre to the disk's at contact, n = (√((r + ρ)² − offset²), offset)/(r + ρ); the rod's lever about its
/// centre gives r × n = (L/2) n_y, the disk's none: k = 1/m + 1 + ((L/2) n_y)²/I, j = (1 + e) n_x/k. The
/// rod moves at −j n and turns at −j (L/2) n_y/I; the disk at (−1, 0) + j n/m. (rod x, y, θ, disk x, y).
std::array<double, 5> disk_on_rod_end(double offset, double length, double rho, double r, double m, double e) {
  const double inertia = length * length / 12.0;
  const Vec2 n(std::sqrt((r + rho) * (r + rho) - offset * offset) / (r + rho), offset / (r + rho));
  const double lever = 0.5 * length * n.y();
  const double j = (1.0 + e) * n.x() / (1.0 / m + 1.0 + lever * lever / inertia);
  return {-j * n.x(), -j * n.y(), -j * lever / inertia, -1.0 + j * n.x() / m, j * n.y() / m};
}

TEST(DegenerateContacts, ADiskSentAlongARodsAxisIsAHeadOnCollisionOfPointMasses) {
  // A rod (0.4 m, 1 kg) at rest on the x axis, rounded (ρ = 0.05) or thin (ρ = 0); a disk (r = 0.05) on the
  // axis beyond its right end moving at −1 m/s, `gap` away: off the step grid, touching, 1e-12 m. The
  // impact pushes along the axis through both centres: a 1D collision of point masses, the rod's spin
  // and every y velocity exactly 0. Moved off the axis by 1e-7 m, the disk meets the end circle with the
  // normal turned by 1e-7/(r + ρ) rad, at the same time, and follows the same closed form with that normal.
  for (double rho : {0.05, 0.0}) {
    for (double gap : {0.0123, 0.0, 1e-12}) {
      for (double disk_mass : {1.0, 1e-6, 1e6}) {
        for (double e : {1.0, 0.5}) {
          const std::string where = "rho " + std::to_string(rho) + " gap " + std::to_string(gap) + " mass " +
                                    std::to_string(disk_mass) + " e " + std::to_string(e);
          Scenario s = free_scene(e);
          s.bodies.push_back(rod_body("rod", 1.0, 0.4, rho, Vec2::Zero()));
          s.bodies.push_back(testing::disk("disk", disk_mass, 0.05, Vec2(0.2 + rho + 0.05 + gap, 0.0), Vec2(-1.0, 0.0)));
          Scenario moved = s;
          moved.bodies[1].position.y() += 1e-7;
          const double t_end = gap + 0.05;
          const ContactRun run = run_watched(s, t_end), neighbour = run_watched(moved, t_end);
          ASSERT_EQ(run.impacts.size(), 1u) << where;
          ASSERT_EQ(neighbour.impacts.size(), 1u) << where;
          EXPECT_NEAR(run.impacts[0].time, gap, 1e-11) << where;
          EXPECT_NEAR(neighbour.impacts[0].time, run.impacts[0].time, 1e-9) << where;
          const std::array<double, 5> exact = disk_on_rod_end(0.0, 0.4, rho, 0.05, disk_mass, e);
          const std::array<double, 5> near = disk_on_rod_end(1e-7, 0.4, rho, 0.05, disk_mass, e);
          for (int i = 0; i < 5; ++i) {
            const double scale = i < 3 ? std::max(1.0, disk_mass) : 1.0;
            EXPECT_NEAR(run.qd(i), exact[static_cast<std::size_t>(i)], 1e-12 * scale) << where << " coordinate " << i;
            EXPECT_NEAR(neighbour.qd(i), near[static_cast<std::size_t>(i)], 1e-12 * scale) << where << " moved, coordinate " << i;
          }
          EXPECT_EQ(run.qd(1), 0.0) << where;
          EXPECT_EQ(run.qd(2), 0.0) << where;
          EXPECT_EQ(run.qd(4), 0.0) << where;
          expect_laws_kept(run, std::max(1.0, disk_mass), where);
          expect_laws_kept(neighbour, std::max(1.0, disk_mass), where + " moved");
        }
      }
    }
  }
}

TEST(DegenerateContacts, TwoDisksIntoBothEndsOfARodAtRestPassTheMomentumAlong) {
  // The rod at rest between two disks on its axis, all of 1 kg, e = 1: the right disk (0.1 m away, −1 m/s)
  // strikes at t = 0.1 and stops, the rod moves at −1 and meets the left disk (0.2 m away at t = 0, +1 m/s)
  // at t = 0.15: they exchange, the rod comes back to the stopped right disk at t = 0.2 and stops. At the
  // end the disks leave at ±1 and the rod rests, unturned, as in exact 1D arithmetic. Sent off the axis by
  // δ (one up, one down), the disks strike with normals turned by δ/(r + ρ), and the chain of three
  // impacts carries the turn along: the same impacts to 1e-9 s at δ = 1e-7 m, and velocities that converge
  // to the exact ones linearly in δ (a tenth of the difference at δ = 1e-8 m).
  for (double rho : {0.05, 0.0}) {
    Scenario s = free_scene(1.0);
    s.bodies.push_back(rod_body("rod", 1.0, 0.4, rho, Vec2::Zero()));
    s.bodies.push_back(testing::disk("right", 1.0, 0.05, Vec2(0.2 + rho + 0.05 + 0.1, 0.0), Vec2(-1.0, 0.0)));
    s.bodies.push_back(testing::disk("left", 1.0, 0.05, Vec2(-(0.2 + rho + 0.05 + 0.2), 0.0), Vec2(1.0, 0.0)));
    auto off_axis = [&](double delta) {
      Scenario moved = s;
      moved.bodies[1].position.y() += delta;
      moved.bodies[2].position.y() -= delta;
      return moved;
    };
    const ContactRun run = run_watched(s, 0.3), neighbour = run_watched(off_axis(1e-7), 0.3);
    const ContactRun nearer = run_watched(off_axis(1e-8), 0.3);
    const std::string where = "rho " + std::to_string(rho);
    ASSERT_EQ(run.impacts.size(), 3u) << where;
    ASSERT_EQ(neighbour.impacts.size(), 3u) << where;
    const double times[3] = {0.1, 0.15, 0.2};
    for (int k = 0; k < 3; ++k) {
      EXPECT_NEAR(run.impacts[static_cast<std::size_t>(k)].time, times[k], 1e-11) << where << " impact " << k;
      EXPECT_NEAR(neighbour.impacts[static_cast<std::size_t>(k)].time, times[k], 1e-9) << where << " impact " << k;
      EXPECT_EQ(run.impacts[static_cast<std::size_t>(k)].points.size(), 1u) << where;
    }
    const double expected[9] = {0, 0, 0, 1, 0, 0, -1, 0, 0};
    for (int i = 0; i < 9; ++i) EXPECT_NEAR(run.qd(i), expected[i], 1e-12) << where << " coordinate " << i;
    const double far_difference = velocity_difference(run, neighbour, 0.2);
    EXPECT_LE(far_difference, 1e-3) << where;
    EXPECT_NEAR(velocity_difference(run, nearer, 0.2), 0.1 * far_difference, 0.01 * far_difference) << where;
    expect_laws_kept(run, 1.0, where);
    expect_laws_kept(neighbour, 1.0, where + " moved");
  }
}

TEST(DegenerateContacts, ABoxStrikingAThinRodsEndOffItsAxisTurnsAboutTheOffset) {
  // A thin rod (0.4 m, 1 kg) at rest on the x axis; a box (0.1 × 0.1 m, 1 kg, I = 1/600) moving at −1 m/s,
  // its left face 0.0123 m beyond the rod's end, its centre `offset` above the axis. The rod's end strikes
  // the face at the axis: one point, normal along the axis; the rod takes the impulse through its centre
  // line (no turn), the box at the lever `offset`: k = 1/m_r + 1/m_b + offset²/I_b, j = (1 + e)/k, the rod
  // at −j, the box at −1 + j turning at offset·j/I_b. The box moved up by 1e-7 m gives the same to 1e-6.
  // Both orders of the bodies.
  const double inertia = (0.1 * 0.1 + 0.1 * 0.1) / 12.0;
  for (double offset : {0.0, 1e-9, 1e-6, 1e-3, 0.02, 0.045}) {
    for (double e : {1.0, 0.5}) {
      for (int order = 0; order < 2; ++order) {
        const std::string where = "offset " + std::to_string(offset) + " e " + std::to_string(e) + " order " + std::to_string(order);
        Scenario s = free_scene(e);
        const BodyDef stick = rod_body("rod", 1.0, 0.4, 0.0, Vec2::Zero());
        const BodyDef box = testing::box("box", 1.0, 0.1, 0.1, Vec2(0.2 + 0.05 + 0.0123, offset), 0.0, Vec2(-1.0, 0.0));
        s.bodies = order == 0 ? std::vector<BodyDef>{stick, box} : std::vector<BodyDef>{box, stick};
        const int r = order == 0 ? 0 : 3, b = 3 - r;
        Scenario moved = s;
        moved.bodies[static_cast<std::size_t>(b / 3)].position.y() += 1e-7;
        const ContactRun run = run_watched(s, 0.05), neighbour = run_watched(moved, 0.05);
        ASSERT_EQ(run.impacts.size(), 1u) << where;
        ASSERT_EQ(neighbour.impacts.size(), 1u) << where;
        ASSERT_EQ(run.impacts[0].points.size(), 1u) << where;
        EXPECT_NEAR(std::abs(run.impacts[0].normals[0].x()), 1.0, 1e-15) << where;
        EXPECT_NEAR(run.impacts[0].time, 0.0123, 1e-11) << where;
        EXPECT_NEAR(neighbour.impacts[0].time, run.impacts[0].time, 1e-9) << where;
        for (const auto& [x, lever] : {std::pair<const ContactRun*, double>{&run, offset}, {&neighbour, offset + 1e-7}}) {
          const double j = (1.0 + e) / (1.0 + 1.0 + lever * lever / inertia);
          EXPECT_NEAR(x->qd(r), -j, 1e-12) << where << " lever " << lever;
          EXPECT_NEAR(x->qd(r + 1), 0.0, 1e-12) << where << " lever " << lever;
          EXPECT_NEAR(x->qd(r + 2), 0.0, 1e-12) << where << " lever " << lever;
          EXPECT_NEAR(x->qd(b), -1.0 + j, 1e-12) << where << " lever " << lever;
          EXPECT_NEAR(x->qd(b + 1), 0.0, 1e-12) << where << " lever " << lever;
          EXPECT_NEAR(x->qd(b + 2), lever * j / inertia, 1e-10) << where << " lever " << lever;
        }
        expect_laws_kept(run, 1.0, where);
        expect_laws_kept(neighbour, 1.0, where + " moved");
      }
    }
  }
}

TEST(DegenerateContacts, BoxCornersMeetingAreAnImpactOnTime) {
  // Two boxes (0.2 m squares, 1 kg) corner to corner along the diagonal, 0.0123·√2 m apart (the meeting
  // falls between two steps), B moving at (−1, −1): two circles of radius 0 have no gap that can turn
  // negative, so the faces at A's corner stand in and the impact comes when the corners meet, at
  // t = 0.0123, with nothing penetrating. The limit is two-sided (just above, B's corner strikes A's top
  // face; just beside, A's right face), so no neighbour is compared; the laws hold, and with e = 1 the
  // relative velocity of the corners is turned back whole (A takes B's velocity, as in a head-on
  // collision of equal masses), without a turn. (Starting touching, 1e-12 m apart, the corners have no
  // past to say by which face they meet: the impact at t = 0 takes the face of largest separation, one of
  // the two limits, and keeps the laws.)
  for (double gap : {0.0123, 1e-12}) {
    Scenario s = free_scene(1.0);
    s.bodies.push_back(testing::box("a", 1.0, 0.2, 0.2, Vec2::Zero()));
    s.bodies.push_back(testing::box("b", 1.0, 0.2, 0.2, Vec2(0.2 + gap, 0.2 + gap), 0.0, Vec2(-1.0, -1.0)));
    const ContactRun run = run_watched(s, gap + 0.05);
    const std::string where = "gap " + std::to_string(gap);
    ASSERT_EQ(run.impacts.size(), 1u) << where;
    EXPECT_NEAR(run.impacts[0].time, gap, 1e-11) << where;
    const double expected[6] = {-1, -1, 0, 0, 0, 0};
    if (gap > 1e-6) {
      for (int i = 0; i < 6; ++i) EXPECT_NEAR(run.qd(i), expected[i], 1e-9) << where << " coordinate " << i;
    }
    expect_laws_kept(run, 1.0, where);
  }
}

}  // namespace
}  // namespace oblique
