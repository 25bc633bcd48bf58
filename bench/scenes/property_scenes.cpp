#include "property_scenes.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "oblique/geometry/contact_geometry.hpp"
#include "oblique/geometry/shape_distance.hpp"
#include "oblique/math/trigonometry.hpp"

namespace oblique::scenes {

namespace {

/// The usual gap between bodies that approach (m), and the first contact at gap / (closing speed).
constexpr double kGap = 0.125;

/// R(θ) v with the portable cos and sin.
Vec2 rotated(double angle, const Vec2& v) {
  const CosSin r = cos_sin(angle);
  return Vec2(r.cos * v.x() - r.sin * v.y(), r.sin * v.x() + r.cos * v.y());
}

/// The shape at `scale` times its standard size.
Shape scaled_shape(TestShape kind, double scale) {
  Shape shape = test_shape(kind);
  shape.radius *= scale;
  shape.width *= scale;
  shape.height *= scale;
  shape.length *= scale;
  return shape;
}

/// How far the shape turned by `angle` reaches from its centre along the unit direction `u`.
double support(const Shape& shape, double angle, const Vec2& u) {
  double reach = -std::numeric_limits<double>::infinity();
  for (int k = 0; k < circle_count(shape); ++k) {
    reach = std::max(reach, u.dot(rotated(angle, circle_feature(shape, k).point)));
  }
  return reach + rounding_radius(shape);
}

/// How far the shape reaches from its centre in any direction, whatever its angle.
double reach(const Shape& shape) {
  double r = 0.0;
  for (int k = 0; k < circle_count(shape); ++k) r = std::max(r, circle_feature(shape, k).point.norm());
  return r + rounding_radius(shape);
}

BodyDef make_body(const char* name, const Shape& shape, double mass, const Vec2& position, double angle,
                  const Vec2& velocity, double angular_velocity = 0.0) {
  BodyDef body;
  body.name = name;
  body.shape = shape;
  body.mass = std::clamp(mass, kMinMass, kMaxMass);
  body.position = position;
  body.angle = angle;
  body.velocity = velocity;
  body.angular_velocity = angular_velocity;
  return body;
}

PlaneDef make_plane(const char* name, const Vec2& point, const Vec2& normal) {
  PlaneDef plane;
  plane.name = name;
  plane.point = point;
  plane.normal = normal;
  return plane;
}

/// Free bodies: "collide": "all", no gravity.
Scenario base(const std::string& title, const SetupOptions& options) {
  Scenario s;
  s.title = title;
  s.collide_all = true;
  s.gravity = Vec2::Zero();
  s.restitution = options.restitution;
  s.mu = options.mu;
  return s;
}

PropertyScene finish(std::string name, Scenario scenario, double duration) {
  scenario.duration = duration;
  return PropertyScene{std::move(name), std::move(scenario), duration};
}

const double kSqrtHalf = std::sqrt(0.5);

}  // namespace

// ---- choices ----------------------------------------------------------------------------------------------------

std::uint64_t SeededChoices::bits() {
  std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

std::uint64_t ByteChoices::bits() {
  std::uint64_t out = 0;
  for (int k = 0; k < 8; ++k) out = (out << 8) | (next_ < size_ ? data_[next_++] : 0u);
  return out;
}

// ---- shapes and set-ups ----------------------------------------------------------------------------------------

const std::vector<TestShape>& all_test_shapes() {
  static const std::vector<TestShape> shapes = {TestShape::Disk,    TestShape::Square,  TestShape::WideBox,
                                                TestShape::Capsule, TestShape::ThinRod, TestShape::Point};
  return shapes;
}

const char* name(TestShape shape) {
  switch (shape) {
    case TestShape::Disk: return "disk";
    case TestShape::Square: return "square";
    case TestShape::WideBox: return "wide-box";
    case TestShape::Capsule: return "capsule";
    case TestShape::ThinRod: return "thin-rod";
    case TestShape::Point: return "point";
  }
  return "?";
}

Shape test_shape(TestShape kind) {
  Shape shape;
  switch (kind) {
    case TestShape::Disk:
      shape.type = Shape::Type::Disk;
      shape.radius = 0.125;
      break;
    case TestShape::Square:
      shape.type = Shape::Type::Box;
      shape.width = shape.height = 0.25;
      break;
    case TestShape::WideBox:
      shape.type = Shape::Type::Box;
      shape.width = 0.5;
      shape.height = 0.125;
      break;
    case TestShape::Capsule:
      shape.type = Shape::Type::Rod;
      shape.length = 0.375;
      shape.radius = 0.0625;
      break;
    case TestShape::ThinRod:
      shape.type = Shape::Type::Rod;
      shape.length = 0.5;
      shape.radius = 0.0;
      break;
    case TestShape::Point:
      shape.type = Shape::Type::Point;
      shape.radius = 0.03125;  // drawn; it touches with its centre
      break;
  }
  return shape;
}

const std::vector<PairSetup>& all_pair_setups() {
  static const std::vector<PairSetup> setups = {
      PairSetup::HeadOnX,   PairSetup::HeadOnY,        PairSetup::Diagonal,       PairSetup::CornerOnCorner,
      PairSetup::Turned45,  PairSetup::Turned90,       PairSetup::Turned180,      PairSetup::TOnTheEnd,
      PairSetup::Touching,  PairSetup::Gap1e12,        PairSetup::MassRatioSmall, PairSetup::MassRatioLarge,
      PairSetup::SecondAtRest, PairSetup::FirstAtRest, PairSetup::OffAxisTiny,   PairSetup::OffAxisSmall,
      PairSetup::FirstAtRestOffAxisTiny, PairSetup::FirstAtRestOffAxisSmall,  PairSetup::SecondAtRestOffAxisTiny,
      PairSetup::SecondAtRestOffAxisSmall, PairSetup::Spinning};
  return setups;
}

const std::vector<PlaneSetup>& all_plane_setups() {
  static const std::vector<PlaneSetup> setups = {
      PlaneSetup::Floor,         PlaneSetup::Floor45,      PlaneSetup::Floor90,       PlaneSetup::Floor180,
      PlaneSetup::FloorTouching, PlaneSetup::FloorGap1e12, PlaneSetup::FloorSpinning, PlaneSetup::FloorSliding,
      PlaneSetup::FloorOblique,  PlaneSetup::FloorElastic, PlaneSetup::Wall,          PlaneSetup::Slope45,
      PlaneSetup::Corner,        PlaneSetup::Channel};
  return setups;
}

const std::vector<LineSetup>& all_line_setups() {
  static const std::vector<LineSetup> setups = {
      LineSetup::Cradle,   LineSetup::Beads,                LineSetup::SquaresMiddleTurned, LineSetup::ThinRodsMiddleTurned,
      LineSetup::Capsules, LineSetup::DisksIntoCapsuleEnds, LineSetup::Mixed,               LineSetup::WideBoxesSideBySide};
  return setups;
}

const char* name(PairSetup setup) {
  switch (setup) {
    case PairSetup::HeadOnX: return "head-on-x";
    case PairSetup::HeadOnY: return "head-on-y";
    case PairSetup::Diagonal: return "diagonal";
    case PairSetup::CornerOnCorner: return "corner-on-corner";
    case PairSetup::Turned45: return "turned-45";
    case PairSetup::Turned90: return "turned-90";
    case PairSetup::Turned180: return "turned-180";
    case PairSetup::TOnTheEnd: return "t-on-the-end";
    case PairSetup::Touching: return "touching";
    case PairSetup::Gap1e12: return "gap-1e-12";
    case PairSetup::MassRatioSmall: return "mass-ratio-1e-6";
    case PairSetup::MassRatioLarge: return "mass-ratio-1e6";
    case PairSetup::SecondAtRest: return "second-at-rest";
    case PairSetup::FirstAtRest: return "first-at-rest";
    case PairSetup::OffAxisTiny: return "off-axis-1e-9";
    case PairSetup::OffAxisSmall: return "off-axis-1/32";
    case PairSetup::FirstAtRestOffAxisTiny: return "first-at-rest-off-axis-1e-9";
    case PairSetup::FirstAtRestOffAxisSmall: return "first-at-rest-off-axis-1/32";
    case PairSetup::SecondAtRestOffAxisTiny: return "second-at-rest-off-axis-(-1e-9)";
    case PairSetup::SecondAtRestOffAxisSmall: return "second-at-rest-off-axis-(-1/32)";
    case PairSetup::Spinning: return "spinning";
  }
  return "?";
}

const char* name(PlaneSetup setup) {
  switch (setup) {
    case PlaneSetup::Floor: return "floor";
    case PlaneSetup::Floor45: return "floor-turned-45";
    case PlaneSetup::Floor90: return "floor-turned-90";
    case PlaneSetup::Floor180: return "floor-turned-180";
    case PlaneSetup::FloorTouching: return "floor-touching";
    case PlaneSetup::FloorGap1e12: return "floor-gap-1e-12";
    case PlaneSetup::FloorSpinning: return "floor-spinning";
    case PlaneSetup::FloorSliding: return "floor-sliding-in";
    case PlaneSetup::FloorOblique: return "floor-oblique";
    case PlaneSetup::FloorElastic: return "floor-elastic";
    case PlaneSetup::Wall: return "wall";
    case PlaneSetup::Slope45: return "slope-45";
    case PlaneSetup::Corner: return "corner";
    case PlaneSetup::Channel: return "channel";
  }
  return "?";
}

const char* name(LineSetup setup) {
  switch (setup) {
    case LineSetup::Cradle: return "cradle";
    case LineSetup::Beads: return "beads-1nm-2nm";
    case LineSetup::SquaresMiddleTurned: return "squares-middle-turned-1e-7";
    case LineSetup::ThinRodsMiddleTurned: return "thin-rods-middle-turned-1e-7";
    case LineSetup::Capsules: return "capsules-end-to-end";
    case LineSetup::DisksIntoCapsuleEnds: return "disks-into-capsule-ends";
    case LineSetup::Mixed: return "disk-square-thin-rod";
    case LineSetup::WideBoxesSideBySide: return "wide-boxes-side-by-side";
  }
  return "?";
}

// ---- the symmetric scenes --------------------------------------------------------------------------------------

PropertyScene pair_scene(TestShape a, TestShape b, PairSetup setup, const SetupOptions& options) {
  const Shape shape_a = scaled_shape(a, options.scale_a), shape_b = scaled_shape(b, options.scale_b);
  double angle_a = 0.0, angle_b = 0.0, omega_a = 0.0, gap = kGap, offset = 0.0;
  double speed_a = options.speed, speed_b = options.speed, mass_b = options.mass_b;
  Vec2 along(1.0, 0.0);
  switch (setup) {
    case PairSetup::HeadOnX: break;
    case PairSetup::HeadOnY: along = Vec2(0.0, 1.0); break;
    case PairSetup::Diagonal: along = Vec2(kSqrtHalf, kSqrtHalf); break;
    case PairSetup::CornerOnCorner: angle_a = angle_b = kPi / 4; break;
    case PairSetup::Turned45: angle_b = kPi / 4; break;
    case PairSetup::Turned90: angle_b = kPi / 2; break;
    case PairSetup::Turned180: angle_b = kPi; break;
    case PairSetup::TOnTheEnd: {
      // Turned 90°, its lowest core vertex (a rod's end, a box's corner) on the line of approach.
      angle_b = kPi / 2;
      double lowest = std::numeric_limits<double>::infinity();
      for (int k = 0; k < circle_count(shape_b); ++k) {
        lowest = std::min(lowest, rotated(angle_b, circle_feature(shape_b, k).point).y());
      }
      offset = -lowest;
      break;
    }
    case PairSetup::Touching: gap = 0.0; break;
    case PairSetup::Gap1e12: gap = 1e-12; break;
    case PairSetup::MassRatioSmall: mass_b = options.mass_a * 1e-6; break;
    case PairSetup::MassRatioLarge: mass_b = options.mass_a * 1e6; break;
    // One body at rest: the other meets it at t = gap / speed, 0.125 s, at the end of a step (with two moving,
    // at 0.0625 s, inside one).
    case PairSetup::SecondAtRest:
    case PairSetup::SecondAtRestOffAxisTiny:
    case PairSetup::SecondAtRestOffAxisSmall:
      speed_a = options.speed;
      speed_b = 0.0;
      // Below the line (the others above it): a contact on the other side of the axis.
      if (setup == PairSetup::SecondAtRestOffAxisTiny) offset = -1e-9;
      if (setup == PairSetup::SecondAtRestOffAxisSmall) offset = -options.scale_b / 32.0;
      break;
    case PairSetup::FirstAtRest:
    case PairSetup::FirstAtRestOffAxisTiny:
    case PairSetup::FirstAtRestOffAxisSmall:
      speed_a = 0.0;
      speed_b = options.speed;
      if (setup == PairSetup::FirstAtRestOffAxisTiny) offset = 1e-9;
      if (setup == PairSetup::FirstAtRestOffAxisSmall) offset = options.scale_b / 32.0;
      break;
    case PairSetup::OffAxisTiny: offset = 1e-9; break;
    case PairSetup::OffAxisSmall: offset = options.scale_b / 32.0; break;
    case PairSetup::Spinning:
      angle_a = 0.3;
      omega_a = 4.0;
      break;
  }
  const Vec2 across(-along.y(), along.x());
  // The first body reaches to the line x = −gap/2 along `along`, the second from x = gap/2 (a spinning one by
  // all it can reach, whatever its angle).
  const double reach_a = setup == PairSetup::Spinning ? reach(shape_a) : support(shape_a, angle_a, along);
  const double reach_b = support(shape_b, angle_b, -along);
  const Vec2 position_a = -(reach_a + gap / 2) * along;
  const Vec2 position_b = (reach_b + gap / 2) * along + offset * across;

  Scenario s = base(std::string(name(a)) + " and " + name(b) + ", " + name(setup), options);
  s.bodies.push_back(make_body("a", shape_a, options.mass_a, position_a, angle_a, speed_a * along, omega_a));
  s.bodies.push_back(make_body("b", shape_b, mass_b, position_b, angle_b, -speed_b * along));
  PropertyScene scene = finish(std::string(name(a)) + "-" + name(b) + "/" + name(setup), std::move(s), 0.25);
  // A point or a thin rod's end along a box's face line into its corner, or into a thin rod's end.
  const auto leads_with_a_vertex = [](TestShape kind) { return kind == TestShape::Point || kind == TestShape::ThinRod; };
  scene.two_sided = setup == PairSetup::TOnTheEnd && leads_with_a_vertex(a) &&
                    (b == TestShape::Square || b == TestShape::WideBox || b == TestShape::ThinRod);
  return scene;
}

PropertyScene plane_scene(TestShape kind, PlaneSetup setup, const SetupOptions& options) {
  const Shape shape = scaled_shape(kind, options.scale_a);
  SetupOptions settings = options;
  double angle = 0.0, omega = 0.0, gap = kGap;
  Vec2 velocity(0.0, -options.speed);
  Vec2 normal(0.0, 1.0);  // of the plane the body moves toward
  switch (setup) {
    case PlaneSetup::Floor: break;
    case PlaneSetup::Floor45: angle = kPi / 4; break;
    case PlaneSetup::Floor90: angle = kPi / 2; break;
    case PlaneSetup::Floor180: angle = kPi; break;
    case PlaneSetup::FloorTouching: gap = 0.0; break;
    case PlaneSetup::FloorGap1e12: gap = 1e-12; break;
    case PlaneSetup::FloorSpinning:
      angle = 0.3;
      omega = 4.0;
      break;
    case PlaneSetup::FloorSliding:
      gap = 0.0;
      velocity = Vec2(options.speed, -options.speed / 4);
      break;
    case PlaneSetup::FloorOblique:
      angle = 0.2;
      velocity = Vec2(options.speed / 2, -options.speed);
      break;
    case PlaneSetup::FloorElastic: settings.restitution = 1.0; break;
    case PlaneSetup::Wall:
      normal = Vec2(1.0, 0.0);
      velocity = Vec2(-options.speed, 0.0);
      break;
    case PlaneSetup::Slope45:
      normal = Vec2(-kSqrtHalf, kSqrtHalf);
      velocity = -options.speed * normal;
      break;
    case PlaneSetup::Corner: velocity = Vec2(-options.speed, -options.speed); break;
    case PlaneSetup::Channel: velocity = Vec2(options.speed / 2, -options.speed); break;
  }
  Scenario s = base(std::string(name(kind)) + ", " + name(setup), settings);
  // The body `gap` from the plane (a spinning one by all it can reach), then the other planes around it.
  const double from_plane = (setup == PlaneSetup::FloorSpinning ? reach(shape) : support(shape, angle, -normal)) + gap;
  Vec2 position = from_plane * normal;
  s.planes.push_back(make_plane(setup == PlaneSetup::Wall ? "wall" : setup == PlaneSetup::Slope45 ? "slope" : "floor",
                                Vec2::Zero(), normal));
  if (setup == PlaneSetup::Corner) {
    position.x() = support(shape, angle, Vec2(-1.0, 0.0)) + gap;
    s.planes.push_back(make_plane("wall", Vec2::Zero(), Vec2(1.0, 0.0)));
  }
  if (setup == PlaneSetup::Channel) {
    const double height = position.y() + support(shape, angle, Vec2(0.0, 1.0)) + 2 * gap;
    s.planes.push_back(make_plane("ceiling", Vec2(0.0, height), Vec2(0.0, -1.0)));
  }
  s.bodies.push_back(make_body("a", shape, options.mass_a, position, angle, velocity, omega));
  return finish(std::string(name(kind)) + "/" + name(setup), std::move(s), 0.25);
}

PropertyScene line_scene(LineSetup setup, const SetupOptions& options) {
  Scenario s = base(std::string("line, ") + name(setup), options);
  const double v = options.speed;
  const Vec2 x(1.0, 0.0);
  // Bodies left to right along x from `left`, each `gaps[i]` after the previous one; the first moves at v.
  const auto line = [&](const std::vector<Shape>& shapes, const std::vector<double>& gaps, double left) {
    double at = left;
    const char* names[] = {"a", "b", "c", "d"};
    for (std::size_t i = 0; i < shapes.size(); ++i) {
      if (i > 0) at += gaps[i - 1];
      const double centre = at + support(shapes[i], 0.0, -x);
      s.bodies.push_back(make_body(names[i], shapes[i], i == 0 ? options.mass_a : options.mass_b, Vec2(centre, 0.0), 0.0,
                                   i == 0 ? Vec2(v, 0.0) : Vec2::Zero()));
      at = centre + support(shapes[i], 0.0, x);
    }
  };
  const Shape disk = scaled_shape(TestShape::Disk, options.scale_a);
  const Shape square = scaled_shape(TestShape::Square, options.scale_a);
  const Shape thin_rod = scaled_shape(TestShape::ThinRod, options.scale_a);
  const Shape capsule = scaled_shape(TestShape::Capsule, options.scale_a);
  switch (setup) {
    case LineSetup::Cradle: line({disk, disk, disk}, {kGap, 0.0}, -0.5); break;
    case LineSetup::Beads: {
      Shape bead = disk;
      bead.radius = options.scale_a / 16;
      line({bead, bead, bead, bead}, {kGap, 1e-9, 2e-9}, -0.25);
      break;
    }
    case LineSetup::SquaresMiddleTurned:
      line({square, square, square}, {kGap, 0.0}, -0.5);
      s.bodies[1].angle = 1e-7;
      break;
    case LineSetup::ThinRodsMiddleTurned:
      line({thin_rod, thin_rod, thin_rod}, {kGap, 0.0}, -0.75);
      s.bodies[1].angle = 1e-7;
      break;
    case LineSetup::Capsules: line({capsule, capsule, capsule}, {kGap, kGap}, -0.75); break;
    case LineSetup::DisksIntoCapsuleEnds:
      line({disk, capsule, disk}, {kGap, kGap}, -0.5);
      s.bodies[2].velocity = Vec2(-v, 0.0);
      break;
    case LineSetup::Mixed: line({disk, square, thin_rod}, {kGap, kGap / 2}, -0.5); break;
    case LineSetup::WideBoxesSideBySide: {
      // Long sides facing: the line along y.
      const Shape wide = scaled_shape(TestShape::WideBox, options.scale_a);
      const double half = wide.height / 2;
      s.bodies.push_back(make_body("a", wide, options.mass_a, Vec2(0.0, -half - kGap - 2 * half), 0.0, Vec2(0.0, v)));
      s.bodies.push_back(make_body("b", wide, options.mass_b, Vec2(0.0, 0.0), 0.0, Vec2::Zero()));
      s.bodies.push_back(make_body("c", wide, options.mass_b, Vec2(0.0, 2 * half), 0.0, Vec2::Zero()));
      break;
    }
  }
  return finish(std::string("line/") + name(setup), std::move(s), 0.25);
}

std::vector<PropertyScene> symmetric_scenes() {
  std::vector<PropertyScene> scenes;
  const std::vector<TestShape>& shapes = all_test_shapes();
  // Both orders of two different shapes: the narrow phase treats the first body and the second apart.
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    for (std::size_t j = 0; j < shapes.size(); ++j) {
      if (shapes[i] == TestShape::Point && shapes[j] == TestShape::Point) continue;  // never touch
      for (PairSetup setup : all_pair_setups()) scenes.push_back(pair_scene(shapes[i], shapes[j], setup));
    }
  }
  for (TestShape shape : shapes) {
    for (PlaneSetup setup : all_plane_setups()) scenes.push_back(plane_scene(shape, setup));
  }
  for (LineSetup setup : all_line_setups()) scenes.push_back(line_scene(setup));
  return scenes;
}

// ---- random scenes ---------------------------------------------------------------------------------------------

PropertyScene random_scene(Choices& choices) {
  const std::vector<TestShape>& shapes = all_test_shapes();
  Scenario s = base("random", SetupOptions{});
  s.restitution = choices.unit();
  s.mu = choices.chance(0.5) ? choices.uniform(0.0, 0.8) : 0.0;
  const int count = 2 + choices.below(3);
  const char* names[] = {"a", "b", "c", "d"};
  bool all_points = true;
  for (int i = 0; i < count; ++i) {
    TestShape kind = shapes[static_cast<std::size_t>(choices.below(static_cast<int>(shapes.size())))];
    if (i == count - 1 && all_points && kind == TestShape::Point) kind = TestShape::Disk;
    all_points = all_points && kind == TestShape::Point;
    const Shape shape = scaled_shape(kind, choices.uniform(0.4, 1.6));
    // Masses from 0.1 to 10 kg; one body in five scenes 1e-5 or 1e5 times lighter or heavier. (Each draw is
    // a statement of its own: the order in which a call's arguments are evaluated differs between
    // compilers, and a scene must be the same on every build.)
    double mass = choices.uniform(0.1, 10.0);
    if (i == 0 && choices.chance(0.2)) mass *= choices.chance(0.5) ? 1e-5 : 1e5;
    // A pose at least 2 cm from every body placed before (else the next place along x).
    Pose pose;
    bool placed = false;
    for (int attempt = 0; attempt < 50 && !placed; ++attempt) {
      const double x = choices.uniform(-0.6, 0.6);
      const double y = choices.uniform(-0.6, 0.6);
      pose = Pose{Vec2(x, y), choices.uniform(-kPi, kPi)};
      placed = true;
      for (const BodyDef& other : s.bodies) {
        if (shape_signed_distance(shape, pose, other.shape, Pose{other.position, other.angle}) < 0.02) placed = false;
      }
    }
    if (!placed) pose.position = Vec2(1.5 * (i + 1), 0.0);
    s.bodies.push_back(make_body(names[i], shape, mass, pose.position, pose.angle, Vec2::Zero(),
                                 choices.uniform(-4.0, 4.0)));
    if (choices.chance(0.2)) s.bodies.back().restitution = choices.unit();
  }
  // Velocities toward the bodies' centre, so that they meet.
  Vec2 centre = Vec2::Zero();
  for (const BodyDef& body : s.bodies) centre += body.position / static_cast<double>(count);
  for (BodyDef& body : s.bodies) {
    const double toward = choices.uniform(1.0, 3.0);
    const double x = choices.uniform(-0.3, 0.3);
    const double y = choices.uniform(-0.3, 0.3);
    body.velocity = (centre - body.position) * toward + Vec2(x, y);
  }
  // Sometimes a floor below them all, which they fall toward.
  if (choices.chance(0.25)) {
    double lowest = std::numeric_limits<double>::infinity();
    for (const BodyDef& body : s.bodies) lowest = std::min(lowest, body.position.y() - reach(body.shape));
    s.planes.push_back(make_plane("floor", Vec2(0.0, lowest - choices.uniform(0.02, 0.2)), Vec2(0.0, 1.0)));
    for (BodyDef& body : s.bodies) body.velocity.y() -= 1.0;
  }
  return finish("random", std::move(s), 0.3);
}

PropertyScene random_symmetric_scene(Choices& choices) {
  const double scales[] = {0.5, 0.75, 1.0, 1.5, 2.0};
  const double masses[] = {1.0, 0.5, 2.0, 1e-3, 1e3};
  const double speeds[] = {0.5, 1.0, 2.0};
  SetupOptions options;
  options.scale_a = scales[choices.below(5)];
  options.scale_b = scales[choices.below(5)];
  options.mass_a = masses[choices.below(5)];
  options.mass_b = masses[choices.below(5)];
  options.speed = speeds[choices.below(3)];
  const int e = choices.below(4);
  options.restitution = e == 0 ? 0.0 : e == 1 ? 1.0 : e == 2 ? 0.5 : choices.unit();
  options.mu = choices.chance(0.3) ? 0.25 : 0.0;
  const std::vector<TestShape>& shapes = all_test_shapes();
  const auto shape = [&] { return shapes[static_cast<std::size_t>(choices.below(static_cast<int>(shapes.size())))]; };
  const int kind = choices.below(10);
  if (kind < 7) {
    TestShape a = shape(), b = shape();
    if (a == TestShape::Point && b == TestShape::Point) b = TestShape::Disk;
    const auto& setups = all_pair_setups();
    return pair_scene(a, b, setups[static_cast<std::size_t>(choices.below(static_cast<int>(setups.size())))], options);
  }
  if (kind < 9) {
    const TestShape which = shape();
    const auto& setups = all_plane_setups();
    return plane_scene(which, setups[static_cast<std::size_t>(choices.below(static_cast<int>(setups.size())))], options);
  }
  const auto& setups = all_line_setups();
  return line_scene(setups[static_cast<std::size_t>(choices.below(static_cast<int>(setups.size())))], options);
}

}  // namespace oblique::scenes
