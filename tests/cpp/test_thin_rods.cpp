// Thin rods (radius 0) as segments with flat ends (contact_geometry.hpp): end on end along one line, lying
// on each other (two points, as flush box faces), an end on a side (a T) at 0° and 90°, an end exactly on
// an end (an L), three rods end to end with the middle one turned 1e-7 rad, coincident rods, and a rod
// resting on a rod. Each against its closed form where there is one and against the same scene moved by
// 1e-7 m (or turned by 1e-7 rad): impact times to 1e-9 s, velocities to 1e-6 (or, where the move lengthens
// a lever, the closed form with that lever); momentum and angular momentum kept to round-off, the kinetic
// energy never rising, no penetration by the exact signed distance.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "contact_runs.hpp"
#include "error_message.hpp"
#include "oblique/geometry/narrow_phase.hpp"
#include "scenario_builders.hpp"

namespace oblique {
namespace {

using testing::ContactRun;
using testing::expect_laws_kept;
using testing::free_scene;
using testing::run_watched;
using testing::velocity_difference;

constexpr double kLength = 0.4;
const double kInertia = kLength * kLength / 12.0;  // of a 1 kg thin rod


BodyDef thin_rod(std::string name, double mass, Vec2 position, double angle = 0.0, Vec2 velocity = Vec2::Zero()) {
  BodyDef b = testing::rod(std::move(name), mass, kLength, position, angle);
  b.velocity = velocity;
  b.inertia = mass * kInertia;
  return b;
}

/// The scene turned by `angle` about the origin (positions, velocities, body angles).
Scenario turned(Scenario s, double angle) {
  const double c = std::cos(angle), n = std::sin(angle);
  auto turn = [&](const Vec2& v) { return Vec2(c * v.x() - n * v.y(), n * v.x() + c * v.y()); };
  for (BodyDef& b : s.bodies) {
    b.position = turn(b.position);
    b.velocity = turn(b.velocity);
    b.angle += angle;
  }
  return s;
}

/// The scene moved by `offset`.
Scenario moved(Scenario s, const Vec2& offset) {
  for (BodyDef& b : s.bodies) b.position += offset;
  return s;
}

/// Two runs that must agree: the same impacts at the same times (1e-9 s), velocities to 1e-6 (angular
/// ones as the speeds of the rods' ends).
void expect_same_run(const ContactRun& a, const ContactRun& b, const std::string& where) {
  ASSERT_EQ(a.impacts.size(), b.impacts.size()) << where;
  for (std::size_t k = 0; k < a.impacts.size(); ++k) EXPECT_NEAR(a.impacts[k].time, b.impacts[k].time, 1e-9) << where << " impact " << k;
  EXPECT_LE(velocity_difference(a, b, 0.5 * kLength), 1e-6) << where;
}

TEST(ThinRods, HaveEndFacesAlongTheirAxisAndRoundedRodsDoNot) {
  Shape thin;
  thin.type = Shape::Type::Rod;
  thin.length = 0.8;
  thin.radius = 0.0;
  ASSERT_EQ(face_count(thin), 4);
  const Feature right = face_feature(thin, 2), left = face_feature(thin, 3);
  EXPECT_EQ(right.normal, Vec2(1, 0));
  EXPECT_EQ(left.normal, Vec2(-1, 0));
  EXPECT_EQ(right.point, Vec2(0.4, 0));
  EXPECT_EQ(left.point, Vec2(-0.4, 0));
  EXPECT_EQ(right.upper, kEndFaceHalfWidth * 0.8);
  EXPECT_EQ(right.lower, -kEndFaceHalfWidth * 0.8);
  Shape rounded = thin;
  rounded.radius = 0.01;
  EXPECT_EQ(face_count(rounded), 2);
  EXPECT_EQ(testing::message_of([&] { face_feature(rounded, 2); }), "face: must be in 0..1, got 2");
}

TEST(ThinRods, EndOnEndIsAHeadOnCollisionAtEveryTurnOfTheScene) {
  // A (1 kg) at rest, B (2 kg) on the same line 0.0123 m beyond A's right end moving at −1 m/s: the ends
  // meet at t = 0.0123 along the axis, a 1D collision of the two masses, neither turning. The same turned by
  // 90° (exact zeros become 6e-17), moved by 1e-7 m, and with B turned by 1e-7 rad about its centre (its
  // end 2e-8 m off A's axis, within the flat end): the same impact.
  for (double e : {1.0, 0.5}) {
    Scenario s = free_scene(e);
    s.bodies.push_back(thin_rod("a", 1.0, Vec2::Zero()));
    s.bodies.push_back(thin_rod("b", 2.0, Vec2(kLength + 0.0123, 0.0), 0.0, Vec2(-1.0, 0.0)));
    Scenario tilted = s;
    tilted.bodies[1].angle = 1e-7;
    const double right_angle = 0.5 * testing::kPi;
    for (const auto& [scene, name] : {std::pair<Scenario, std::string>{s, "aligned"}, {turned(s, right_angle), "turned by 90°"},
                                      {moved(s, Vec2(1e-7, 1e-7)), "moved by 1e-7 m"}, {tilted, "B turned by 1e-7 rad"}}) {
      const std::string where = name + " e " + std::to_string(e);
      const ContactRun run = run_watched(scene, 0.05);
      ASSERT_EQ(run.impacts.size(), 1u) << where;
      EXPECT_EQ(run.impacts[0].points.size(), 1u) << where;
      EXPECT_NEAR(run.impacts[0].time, 0.0123, 1e-9) << where;
      // Along the line of the rods, two point masses: m_a v_a + m_b v_b = −2 kept, the relative velocity
      // 1 reversed and scaled by e: A at (−2 − 2e)/3, B at (−2 + e)/3.
      const Vec2 axis = name == "turned by 90°" ? Vec2(std::cos(right_angle), std::sin(right_angle)) : Vec2(1, 0);
      const double a_after = (-2.0 - 2.0 * e) / 3.0, b_after = (-2.0 + e) / 3.0;
      EXPECT_NEAR(Vec2(run.qd(0), run.qd(1)).dot(axis), a_after, 1e-6) << where;
      EXPECT_NEAR(Vec2(run.qd(3), run.qd(4)).dot(axis), b_after, 1e-6) << where;
      EXPECT_NEAR(run.qd(2) * 0.5 * kLength, 0.0, 1e-6) << where;
      EXPECT_NEAR(run.qd(5) * 0.5 * kLength, 0.0, 1e-6) << where;
      expect_laws_kept(run, 1.0, where);
    }
    expect_same_run(run_watched(s, 0.05), run_watched(tilted, 0.05), "turned by 1e-7 rad, e " + std::to_string(e));
  }
}

TEST(ThinRods, RodsLyingOnEachOtherMeetAtTwoPointsAsFlushFaces) {
  // B (2 kg) parallel above A (1 kg), 0.0123 m up, moving down at 1 m/s. Right above A (coincident when
  // they meet) the two points are the rods' ends and the collision is a 1D one of the two masses, neither
  // turning. Shifted by 0.1 m along A, the points are the ends of the overlap; the same scene with B moved
  // by 1e-7 m along A gives the same impact. At 0° and 90°.
  for (double e : {1.0, 0.5}) {
    for (double angle : {0.0, 0.5 * testing::kPi}) {
      const std::string where = "e " + std::to_string(e) + " angle " + std::to_string(angle);
      Scenario above = free_scene(e);
      above.bodies.push_back(thin_rod("a", 1.0, Vec2::Zero()));
      above.bodies.push_back(thin_rod("b", 2.0, Vec2(0.0, 0.0123), 0.0, Vec2(0.0, -1.0)));
      const ContactRun run = run_watched(turned(above, angle), 0.05);
      ASSERT_EQ(run.impacts.size(), 1u) << where;
      EXPECT_EQ(run.impacts[0].points.size(), 2u) << where;
      EXPECT_NEAR(run.impacts[0].time, 0.0123, 1e-11) << where;
      const Vec2 up(-std::sin(angle), std::cos(angle));
      EXPECT_NEAR(Vec2(run.qd(0), run.qd(1)).dot(up), (-2.0 - 2.0 * e) / 3.0, 1e-12) << where;
      EXPECT_NEAR(Vec2(run.qd(3), run.qd(4)).dot(up), (-2.0 + e) / 3.0, 1e-12) << where;
      EXPECT_NEAR(run.qd(2), 0.0, 1e-12) << where;
      EXPECT_NEAR(run.qd(5), 0.0, 1e-12) << where;
      expect_laws_kept(run, 1.0, where);

      Scenario shifted = above;
      shifted.bodies[1].position.x() = 0.1;
      Scenario neighbour = shifted;
      neighbour.bodies[1].position.x() += 1e-7;
      const ContactRun a = run_watched(turned(shifted, angle), 0.05), b = run_watched(turned(neighbour, angle), 0.05);
      ASSERT_EQ(a.impacts.size(), 1u) << where;
      EXPECT_EQ(a.impacts[0].points.size(), 2u) << where;
      expect_same_run(a, b, where + " shifted");
      expect_laws_kept(a, 1.0, where + " shifted");
    }
  }
}

TEST(ThinRods, ParallelRodsMeetingWhileTheySlideAlongEachOtherStrikeAsFlushFaces) {
  // A (1 kg) and B (2 kg) parallel, B 0.0123 m up and 0.0123 m to the right, B moving at (−1, −1) m/s: they
  // are coincident when they meet at t = 0.0123, and every scene near it (B moved by 1e-7 m along or across
  // A, or by 1e-4 m along A, which a step's slide of 1 mm passes) meets flush at the ends of the overlap:
  // the impulse across the rods, a 1D collision of the two masses along y, nothing along x, neither turning
  // (but for the lever 1e-4 m gives). At 0° and 90°.
  for (double e : {1.0, 0.5}) {
    for (double angle : {0.0, 0.5 * testing::kPi}) {
      const std::string where = "e " + std::to_string(e) + " angle " + std::to_string(angle);
      Scenario diagonal = free_scene(e);
      diagonal.bodies.push_back(thin_rod("a", 1.0, Vec2::Zero()));
      diagonal.bodies.push_back(thin_rod("b", 2.0, Vec2(0.0123, 0.0123), 0.0, Vec2(-1.0, -1.0)));
      const ContactRun run = run_watched(turned(diagonal, angle), 0.05);
      ASSERT_EQ(run.impacts.size(), 1u) << where;
      EXPECT_NEAR(run.impacts[0].time, 0.0123, 1e-11) << where;
      const Vec2 along(std::cos(angle), std::sin(angle)), up(-std::sin(angle), std::cos(angle));
      EXPECT_NEAR(Vec2(run.qd(0), run.qd(1)).dot(up), (-2.0 - 2.0 * e) / 3.0, 1e-12) << where;
      EXPECT_NEAR(Vec2(run.qd(3), run.qd(4)).dot(up), (-2.0 + e) / 3.0, 1e-12) << where;
      EXPECT_NEAR(Vec2(run.qd(0), run.qd(1)).dot(along), 0.0, 1e-12) << where;
      EXPECT_NEAR(Vec2(run.qd(3), run.qd(4)).dot(along), -1.0, 1e-12) << where;
      // Coincident, the four ends touch in two pairs of equal rows: round-off in their levers only.
      EXPECT_NEAR(run.qd(2) * 0.5 * kLength, 0.0, 1e-9) << where;
      EXPECT_NEAR(run.qd(5) * 0.5 * kLength, 0.0, 1e-9) << where;
      expect_laws_kept(run, 1.0, where);
      // Moved up, B meets A that much later (the gap closes at 1 m/s).
      for (const Vec2& offset : {Vec2(1e-7, 0.0), Vec2(-1e-7, 0.0), Vec2(0.0, 1e-7), Vec2(0.0, -1e-7)}) {
        const std::string moved = where + " B moved by (" + std::to_string(offset.x()) + ", " + std::to_string(offset.y()) + ")";
        Scenario near = diagonal;
        near.bodies[1].position += offset;
        const ContactRun neighbour = run_watched(turned(near, angle), 0.05);
        ASSERT_EQ(neighbour.impacts.size(), 1u) << moved;
        EXPECT_NEAR(neighbour.impacts[0].time, 0.0123 + offset.y(), 1e-9) << moved;
        EXPECT_LE(velocity_difference(run, neighbour, 0.5 * kLength), 1e-6) << moved;
        expect_laws_kept(neighbour, 1.0, moved);
      }
      for (double slide : {1e-4, -1e-4}) {
        Scenario far = diagonal;
        far.bodies[1].position.x() += slide;
        const ContactRun run_far = run_watched(turned(far, angle), 0.05);
        ASSERT_EQ(run_far.impacts.size(), 1u) << where << " slid " << slide;
        EXPECT_NEAR(run_far.impacts[0].time, 0.0123, 1e-11) << where << " slid " << slide;
        expect_laws_kept(run_far, 1.0, where + " slid");
      }
    }
  }
}

TEST(ThinRods, ABoxSlidingOntoARodsEndAsTheyMeetStrikesItFlush) {
  // A square (1 kg, 0.2 m) flush above A, moving at (−1, −1) m/s, its lower right corner reaching A's right
  // end as they meet at t = 0.0123. Moved by 1e-7 m to the left, that corner lands on A's side, which it
  // reached only within the step, sliding along; to the right, A's end lands on its face: both are a flush
  // impact at two points, the same to 1e-6 as the aligned scene. At 0° and 90°.
  for (double e : {1.0, 0.5}) {
    for (double angle : {0.0, 0.5 * testing::kPi}) {
      const std::string where = "e " + std::to_string(e) + " angle " + std::to_string(angle);
      Scenario s = free_scene(e);
      s.bodies.push_back(thin_rod("a", 1.0, Vec2::Zero()));
      BodyDef square = testing::make_body("b", Shape::Type::Box, 1.0, Vec2(0.5 * kLength + 0.0123 - 0.1, 0.0123 + 0.1), 0.0,
                                          Vec2(-1.0, -1.0));
      square.shape.width = square.shape.height = 0.2;
      s.bodies.push_back(square);
      const ContactRun run = run_watched(turned(s, angle), 0.05);
      ASSERT_EQ(run.impacts.size(), 1u) << where;
      EXPECT_NEAR(run.impacts[0].time, 0.0123, 1e-11) << where;
      expect_laws_kept(run, 1.0, where);
      for (double dx : {-1e-7, 1e-7}) {
        Scenario near = s;
        near.bodies[1].position.x() += dx;
        const ContactRun neighbour = run_watched(turned(near, angle), 0.05);
        const std::string moved = where + " moved by " + std::to_string(dx);
        ASSERT_EQ(neighbour.impacts.size(), 1u) << moved;
        EXPECT_EQ(neighbour.impacts[0].points.size(), 2u) << moved;
        expect_same_run(run, neighbour, moved);
        expect_laws_kept(neighbour, 1.0, moved);
      }
    }
  }
}

/// A strikes: B upright (1 kg) with its lower end 0.0123 m above A's side (1 kg, lying on the x axis) at
/// `s` from A's middle, moving down at 1 m/s. B's end takes the impulse along B's axis (B does not turn);
/// A takes it at the lever s: k = 1/m_a + 1/m_b + s²/I_a, j = (1 + e)/k, A at −j turning at −s j/I_a, B at
/// −1 + j.
void expect_lever_impact(const ContactRun& run, double s, double e, const Vec2& up, const std::string& where) {
  ASSERT_EQ(run.impacts.size(), 1u) << where;
  ASSERT_EQ(run.impacts[0].points.size(), 1u) << where;
  EXPECT_NEAR(run.impacts[0].time, 0.0123, 1e-11) << where;
  const double j = (1.0 + e) / (2.0 + s * s / kInertia);
  EXPECT_NEAR(Vec2(run.qd(0), run.qd(1)).dot(up), -j, 1e-12) << where;
  EXPECT_NEAR(run.qd(2), -s * j / kInertia, 1e-11) << where;
  EXPECT_NEAR(Vec2(run.qd(3), run.qd(4)).dot(up), -1.0 + j, 1e-12) << where;
  EXPECT_NEAR(run.qd(5), 0.0, 1e-12) << where;
}

Scenario tee(double s, double e) {
  Scenario scene = free_scene(e);
  scene.bodies.push_back(thin_rod("a", 1.0, Vec2::Zero()));
  scene.bodies.push_back(thin_rod("b", 1.0, Vec2(s, 0.5 * kLength + 0.0123), 0.5 * testing::kPi, Vec2(0.0, -1.0)));
  return scene;
}

TEST(ThinRods, AnEndOnASideStrikesTheSideAsAPointMassOnALever) {
  // The T at s = 0.05 m from A's middle, at 0° and 90°, against the closed form and the same with B moved
  // 1e-7 m along A.
  for (double e : {1.0, 0.5}) {
    for (double angle : {0.0, 0.5 * testing::kPi}) {
      const std::string where = "e " + std::to_string(e) + " angle " + std::to_string(angle);
      const Vec2 up(-std::sin(angle), std::cos(angle));
      Scenario scene = tee(0.05, e);
      Scenario neighbour = scene;
      neighbour.bodies[1].position.x() += 1e-7;
      const ContactRun run = run_watched(turned(scene, angle), 0.05);
      expect_lever_impact(run, 0.05, e, up, where);
      expect_lever_impact(run_watched(turned(neighbour, angle), 0.05), 0.05 + 1e-7, e, up, where + " moved");
      expect_laws_kept(run, 1.0, where);
    }
  }
}

TEST(ThinRods, AnEndExactlyOnAnEndStrikesItAsTheEndOfTheSide) {
  // The L: B's lower end exactly above A's right end (s = L/2). Moved 1e-7 m toward A's middle, B strikes
  // A's side next to its end: the same impact (the lever L/2 to 1e-7). Moved 1e-7 m outward it would miss
  // A altogether: the limit is two-sided, and the exact scene takes the side where the end is struck.
  for (double e : {1.0, 0.5}) {
    for (double angle : {0.0, 0.5 * testing::kPi}) {
      const std::string where = "e " + std::to_string(e) + " angle " + std::to_string(angle);
      const Vec2 up(-std::sin(angle), std::cos(angle));
      Scenario scene = tee(0.5 * kLength, e);
      Scenario inward = scene;
      inward.bodies[1].position.x() -= 1e-7;
      const ContactRun run = run_watched(turned(scene, angle), 0.05);
      expect_lever_impact(run, 0.5 * kLength, e, up, where);
      expect_lever_impact(run_watched(turned(inward, angle), 0.05), 0.5 * kLength - 1e-7, e, up, where + " moved inward");
      expect_laws_kept(run, 1.0, where);
    }
  }
}

TEST(ThinRods, ThreeRodsEndToEndWithTheMiddleTurnedPassTheMomentumAlong) {
  // Three 1 kg rods on a line, 0.1 m apart, the first at √2 m/s (1 J), e = 1, the middle one turned by
  // 1e-7 rad about its centre (its ends 2e-8 m off the line, within the flat ends). The first strikes the
  // middle at 0.1/√2 s and stops, the middle strikes the last at 0.2/√2 s and stops, the last leaves at √2:
  // two one-point impacts, on time, as with the middle one straight; energy and momentum kept.
  const double speed = std::sqrt(2.0);
  Scenario straight = free_scene(1.0);
  straight.bodies.push_back(thin_rod("first", 1.0, Vec2(-kLength - 0.1, 0.0), 0.0, Vec2(speed, 0.0)));
  straight.bodies.push_back(thin_rod("middle", 1.0, Vec2::Zero()));
  straight.bodies.push_back(thin_rod("last", 1.0, Vec2(kLength + 0.1, 0.0)));
  Scenario turned_middle = straight;
  turned_middle.bodies[1].angle = 1e-7;
  for (const auto& [scene, name] : {std::pair<Scenario, std::string>{straight, "straight"}, {turned_middle, "middle turned"}}) {
    const ContactRun run = run_watched(scene, 0.25);
    ASSERT_EQ(run.impacts.size(), 2u) << name;
    EXPECT_NEAR(run.impacts[0].time, 0.1 / speed, 1e-9) << name;
    EXPECT_NEAR(run.impacts[1].time, 0.2 / speed, 1e-9) << name;
    for (const ImpactRecord& impact : run.impacts) EXPECT_EQ(impact.points.size(), 1u) << name;
    EXPECT_NEAR(run.qd(0), 0.0, 1e-6) << name;
    EXPECT_NEAR(run.qd(3), 0.0, 1e-6) << name;
    EXPECT_NEAR(run.qd(6), speed, 1e-6) << name;
    double kinetic = 0.0;
    for (int body = 0; body < 3; ++body) {
      const int i = 3 * body;
      kinetic += 0.5 * (run.qd(i) * run.qd(i) + run.qd(i + 1) * run.qd(i + 1)) + 0.5 * kInertia * run.qd(i + 2) * run.qd(i + 2);
    }
    EXPECT_NEAR(kinetic, 1.0, 1e-12) << name;
    expect_laws_kept(run, 1.0, name);
  }
  // The turn's own physics: the middle's ends 2e-8 m off the line give the rods spins of about 1e-5
  // rad/s, ends moving at 1e-6 m/s.
  const ContactRun a = run_watched(straight, 0.25), b = run_watched(turned_middle, 0.25);
  ASSERT_EQ(a.impacts.size(), b.impacts.size());
  for (std::size_t k = 0; k < a.impacts.size(); ++k) EXPECT_NEAR(a.impacts[k].time, b.impacts[k].time, 1e-9);
  EXPECT_LE(velocity_difference(a, b, 0.5 * kLength), 2e-6);
}

TEST(ThinRods, CoincidentRodsGiveFiniteContacts) {
  // Refused at the start of a scenario (scenario_check), coincident rods may still meet in a run: the
  // narrow phase gives finite gaps and unit normals, on one line or one on the other, at any angle.
  Shape thin;
  thin.type = Shape::Type::Rod;
  thin.length = kLength;
  thin.radius = 0.0;
  for (double angle : {0.0, 0.3, 0.5 * testing::kPi}) {
    for (double shift : {0.0, 0.1, kLength}) {
      const Vec2 along(std::cos(angle), std::sin(angle));
      std::vector<ContactCandidate> contacts;
      collide_shapes(0, thin, Pose{Vec2(0.2, -0.1), angle}, 1, thin, Pose{Vec2(0.2, -0.1) + shift * along, angle}, 0.01, contacts);
      ASSERT_FALSE(contacts.empty()) << angle << " " << shift;
      for (const ContactCandidate& c : contacts) {
        EXPECT_TRUE(std::isfinite(c.frame.gap)) << angle << " " << shift;
        EXPECT_LE(std::abs(c.frame.gap), 1e-12 + kLength) << angle << " " << shift;
        EXPECT_NEAR(c.frame.normal.norm(), 1.0, 1e-14) << angle << " " << shift;
        EXPECT_TRUE(c.frame.point.allFinite()) << angle << " " << shift;
      }
    }
  }
}

TEST(ThinRods, ARodRestingOnARodStaysOnIt) {
  // Under gravity, A lies on the floor (its ends on the plane) and B, parallel, is dropped onto it from
  // 1 mm with e = 0: it lands (its two points a flush contact) and rests on A for 2 s, neither falling
  // through nor jumping: the two rods' sides tie exactly while they touch, and the narrow phase keeps the
  // side of the resting contact.
  Scenario s;
  s.gravity = Vec2(0.0, -9.81);
  s.restitution = 0.0;
  s.collide_all = true;
  s.planes.push_back(testing::plane(Vec2::Zero(), Vec2::UnitY()));
  s.bodies.push_back(thin_rod("a", 1.0, Vec2::Zero()));
  s.bodies.push_back(thin_rod("b", 1.0, Vec2(0.05, 0.001)));
  const ContactRun run = run_watched(s, 2.0, 1e-2);
  ASSERT_GE(run.impacts.size(), 1u);
  EXPECT_LT(run.impacts.back().time, 0.1);
  EXPECT_NEAR(run.q(4), 0.0, 1e-9);
  EXPECT_NEAR(run.q(1), 0.0, 1e-9);
  EXPECT_NEAR(run.qd.norm(), 0.0, 1e-9);
}

}  // namespace
}  // namespace oblique
