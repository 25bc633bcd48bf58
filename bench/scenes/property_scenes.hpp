// The scenes of the simulator's property tests (scene_properties.hpp): free bodies with "collide": "all" and
// no gravity, set up on purpose in exact, symmetric configurations as a user would, and at random. One
// generator shared by the property test (tests/cpp/test_scene_properties.cpp), its fuzzer
// (fuzz/properties_fuzzer.cpp), the sweep tool (property_sweep.cpp) and the benchmarks.
//
// The shapes: a disk, a square box, a wide box, a capsule (a rod of radius > 0), a thin rod (radius 0) and a
// point, with sizes that are binary fractions (0.125 m, 0.25 m, ...), so that bodies placed "exactly
// touching" along an axis are exactly touching in floating point.
//
// The symmetric scenes (symmetric_scenes()), named "<shape>-<shape>/<set-up>", "<shape>/<set-up>" against
// planes, and "line/<set-up>" for three (or four) bodies in a line:
//   - every pair of shapes in both orders (a point against a point never touches and is left out) in each
//     PairSetup: head on along x, along y and along the diagonal; corner on corner (both turned 45°); the
//     second body turned
//     by exactly 45°, 90° (a T on the middle) or 180°; a T on the end (turned 90° with its end on the axis);
//     starting exactly touching; a gap of 1e-12 m; mass ratios 1e-6 and 1e6; the second at rest, or the
//     first (the second moving into it); moved off the axis by 1e-9 m or by 1/32 m, with both moving or
//     either at rest (the second at rest below the axis, the others above it); the first spinning. Two moving bodies meet inside a step (t = 0.0625 s), one moving
//     into one at rest at the end of a step (t = 0.125 s);
//   - every shape against planes in each PlaneSetup: onto a floor turned by 0, 45°, 90°, 180°, touching, with
//     a 1e-12 m gap, spinning, sliding in while touching, obliquely, elastically (e = 1); into a wall, onto a
//     45° slope, into the corner of a floor and a wall, between a floor and a ceiling;
//   - lines (LineSetup): Newton's cradle of disks; beads with 1 nm and 2 nm gaps; three touching squares with
//     the middle one turned 1e-7 rad; three thin rods end to end with the middle one turned 1e-7 rad; capsules
//     end to end; two disks into both ends of a capsule; a disk, a square and a thin rod; wide boxes side to
//     side.
// random_scene() draws 2 to 4 bodies of random shapes, sizes, masses, poses and velocities aimed at each
// other (never overlapping at the start), with a random e and, for half of them, friction, and sometimes a
// floor; random_symmetric_scene() draws a symmetric set-up with random shapes, sizes, masses, e and μ.
//
// Everything is built from exact arithmetic and the portable cos/sin (trigonometry.hpp), and the random
// draws from Choices — a seeded generator for the tests, the fuzzer's bytes for the fuzzer — so that a scene
// is a function of its choices on every build.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "oblique/scenario/scenario.hpp"

namespace oblique::scenes {

/// Where a random scene's numbers come from.
class Choices {
 public:
  virtual ~Choices() = default;
  /// 64 random bits.
  virtual std::uint64_t bits() = 0;
  /// A number in [0, 1).
  double unit() { return static_cast<double>(bits() >> 11) * (1.0 / 9007199254740992.0); }
  /// A number in [lo, hi).
  double uniform(double lo, double hi) { return lo + (hi - lo) * unit(); }
  /// An integer in [0, n), n ≥ 1.
  int below(int n) { return static_cast<int>(bits() % static_cast<std::uint64_t>(n)); }
  /// True with probability p.
  bool chance(double p) { return unit() < p; }
};

/// A seeded generator (SplitMix64): the same numbers on every build.
class SeededChoices : public Choices {
 public:
  explicit SeededChoices(std::uint64_t seed) : state_(seed) {}
  std::uint64_t bits() override;

 private:
  std::uint64_t state_;
};

/// The bytes of an input, 8 per number (zeros once they run out), so that a fuzzer's mutations of the bytes
/// change the scene's choices one by one.
class ByteChoices : public Choices {
 public:
  ByteChoices(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  std::uint64_t bits() override;

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t next_ = 0;
};

/// The shapes of the scenes.
enum class TestShape { Disk, Square, WideBox, Capsule, ThinRod, Point };
const std::vector<TestShape>& all_test_shapes();
/// "disk", "square", "wide-box", "capsule", "thin-rod", "point".
const char* name(TestShape shape);
/// The shape at its standard size (header comment).
Shape test_shape(TestShape shape);

/// Two bodies: the first (a, on the left or below) and the second (b) approaching each other.
enum class PairSetup {
  HeadOnX, HeadOnY, Diagonal, CornerOnCorner, Turned45, Turned90, Turned180, TOnTheEnd, Touching, Gap1e12,
  MassRatioSmall, MassRatioLarge, SecondAtRest, FirstAtRest, OffAxisTiny, OffAxisSmall, FirstAtRestOffAxisTiny,
  FirstAtRestOffAxisSmall, SecondAtRestOffAxisTiny, SecondAtRestOffAxisSmall, Spinning
};
/// One body against planes.
enum class PlaneSetup {
  Floor, Floor45, Floor90, Floor180, FloorTouching, FloorGap1e12, FloorSpinning, FloorSliding, FloorOblique,
  FloorElastic, Wall, Slope45, Corner, Channel
};
/// Three or four bodies in a line.
enum class LineSetup {
  Cradle, Beads, SquaresMiddleTurned, ThinRodsMiddleTurned, Capsules, DisksIntoCapsuleEnds, Mixed, WideBoxesSideBySide
};
const std::vector<PairSetup>& all_pair_setups();
const std::vector<PlaneSetup>& all_plane_setups();
const std::vector<LineSetup>& all_line_setups();
const char* name(PairSetup setup);
const char* name(PlaneSetup setup);
const char* name(LineSetup setup);

/// A scene and how long to run it.
struct PropertyScene {
  std::string name;
  Scenario scenario;  ///< "collide": "all", no gravity, no forces, no joints or declared contacts
  double duration = 0.25;
  /// A degenerate set-up whose neighbours differ on either side: a corner or end of radius 0 moving exactly
  /// along a face's line into another corner or end of radius 0 (a T on the end, when the first body leads
  /// with a point or a thin rod's end), which the bodies hit when moved one way by any amount and miss when
  /// moved the other. Either outcome is right, so only the laws that hold for both are checked.
  bool two_sided = false;
};

/// What a symmetric set-up may vary (the defaults are those of symmetric_scenes()).
struct SetupOptions {
  double scale_a = 1.0, scale_b = 1.0, scale_c = 1.0;  ///< sizes relative to the standard shapes
  double mass_a = 1.0, mass_b = 1.0;                   ///< kg (the set-ups of mass ratios set mass_b)
  double speed = 1.0;                                  ///< m/s of each moving body
  double restitution = 0.5;
  double mu = 0.0;
};

PropertyScene pair_scene(TestShape a, TestShape b, PairSetup setup, const SetupOptions& options = {});
PropertyScene plane_scene(TestShape shape, PlaneSetup setup, const SetupOptions& options = {});
PropertyScene line_scene(LineSetup setup, const SetupOptions& options = {});

/// Every symmetric scene: each shape pair in each pair set-up, each shape in each plane set-up, each line.
std::vector<PropertyScene> symmetric_scenes();

/// A random scene of 2 to 4 bodies (header comment).
PropertyScene random_scene(Choices& choices);
/// A symmetric set-up drawn at random, with random shapes, sizes, masses, speed, e and μ.
PropertyScene random_symmetric_scene(Choices& choices);

}  // namespace oblique::scenes
