// Scenarios built directly as C++ structs for the model and simulator tests: the classical set-ups whose
// answers are known in closed form (bouncing ball, Newton's cradle, rimless wheel, two balls, billiards,
// slider-crank, pendulums).
#pragma once

#include <cmath>
#include <optional>
#include <string>
#include <utility>

#include "oblique/math/trigonometry.hpp"
#include "oblique/scenario/scenario.hpp"

namespace oblique::testing {

/// π: the core's constant (the double nearest π, as std::acos(-1.0)).
using oblique::kPi;

/// Standard gravity (m/s²), the g of the scenarios built here.
inline constexpr double kG = 9.81;

inline BodyDef make_body(std::string name, Shape::Type type, double mass, Vec2 position, double angle = 0.0,
                         Vec2 velocity = Vec2::Zero(), double angular_velocity = 0.0) {
  BodyDef body;
  body.name = std::move(name);
  body.shape.type = type;
  body.mass = mass;
  body.position = position;
  body.angle = angle;
  body.velocity = velocity;
  body.angular_velocity = angular_velocity;
  return body;
}

inline BodyDef disk(std::string name, double mass, double radius, Vec2 position, Vec2 velocity = Vec2::Zero()) {
  BodyDef body = make_body(std::move(name), Shape::Type::Disk, mass, position, 0.0, velocity);
  body.shape.radius = radius;
  return body;
}

inline BodyDef rod(std::string name, double mass, double length, Vec2 position, double angle = 0.0) {
  BodyDef body = make_body(std::move(name), Shape::Type::Rod, mass, position, angle);
  body.shape.length = length;
  body.shape.radius = 0.0;
  return body;
}

inline BodyDef box(std::string name, double mass, double width, double height, Vec2 position, double angle = 0.0,
                   Vec2 velocity = Vec2::Zero()) {
  BodyDef body = make_body(std::move(name), Shape::Type::Box, mass, position, angle, velocity);
  body.shape.width = width;
  body.shape.height = height;
  return body;
}

inline PlaneDef plane(Vec2 point, Vec2 normal) {
  PlaneDef p;
  p.point = point;
  p.normal = normal.normalized();
  return p;
}

inline ContactDef body_plane(int body, int plane_index, std::optional<double> e = std::nullopt, bool stick = false) {
  ContactDef c;
  c.type = ContactDef::Type::BodyPlane;
  c.body_a = body;
  c.plane = plane_index;
  c.restitution = e;
  c.stick = stick;
  return c;
}

inline ContactDef disk_disk(int a, int b, std::optional<double> e = std::nullopt) {
  ContactDef c;
  c.type = ContactDef::Type::DiskDisk;
  c.body_a = a;
  c.body_b = b;
  c.restitution = e;
  return c;
}

/// A rope of `length` between an anchor on body `a` (kWorld: a point of the world) and one on body `b`.
inline ContactDef rope(int a, Vec2 anchor_a, int b, Vec2 anchor_b, double length) {
  ContactDef c;
  c.type = ContactDef::Type::Rope;
  c.body_a = a;
  c.anchor_a = anchor_a;
  c.body_b = b;
  c.anchor_b = anchor_b;
  c.length = length;
  return c;
}

inline JointDef joint(JointDef::Type type, int a, Vec2 anchor_a, int b, Vec2 anchor_b) {
  JointDef j;
  j.type = type;
  j.body_a = a;
  j.anchor_a = anchor_a;
  j.body_b = b;
  j.anchor_b = anchor_b;
  return j;
}

/// A ball of radius 0.1 m whose lowest point is `height` above the floor y = 0, at rest.
inline Scenario bouncing_ball(double height, double e) {
  Scenario s;
  s.title = "bouncing ball";
  s.gravity = Vec2(0.0, -9.81);
  s.restitution = e;
  s.bodies.push_back(disk("ball", 1.0, 0.1, Vec2(0.0, height + 0.1)));
  s.planes.push_back(plane(Vec2::Zero(), Vec2::UnitY()));
  s.contacts.push_back(body_plane(0, 0));
  return s;
}

/// Five unit disks of radius 0.1 on the x axis, no gravity; ball 0 strikes at 1 m/s from 0.1 m away. The
/// other balls are `gap` apart (0: touching).
inline Scenario newtons_cradle(double gap, double e) {
  Scenario s;
  s.title = "Newton's cradle";
  s.gravity = Vec2::Zero();
  s.restitution = e;
  s.bodies.push_back(disk("striker", 1.0, 0.1, Vec2(-0.2, 0.0), Vec2(1.0, 0.0)));
  for (int i = 1; i < 5; ++i) s.bodies.push_back(disk("ball" + std::to_string(i), 1.0, 0.1, Vec2(0.1 + (i - 1) * (0.2 + gap), 0.0)));
  for (int i = 0; i < 4; ++i) s.contacts.push_back(disk_disk(i, i + 1));
  return s;
}

/// A rimless wheel of `spokes` spokes of length 1 and mass 1 (I = 1/3, the shape's default) standing on
/// spoke 0 on a slope of `slope` rad descending toward +x, rolling downhill at `omega` rad/s; plastic,
/// sticking feet.
inline Scenario rimless_wheel(int spokes, double slope, double omega) {
  Scenario s;
  s.title = "rimless wheel";
  s.gravity = Vec2(0.0, -9.81);
  s.restitution = 0.0;
  const Vec2 normal(std::sin(slope), std::cos(slope));
  const double spoke_angle = std::atan2(-normal.y(), -normal.x());  // spoke 0 along −n
  BodyDef wheel = make_body("wheel", Shape::Type::Wheel, 1.0, normal, spoke_angle);
  wheel.shape.radius = 1.0;
  wheel.shape.spokes = spokes;
  wheel.inertia = 1.0 / 3.0;
  // Pivoting about the foot at the origin: v = θ̇ perp(c − foot), θ̇ < 0 rolls toward +x.
  wheel.angular_velocity = -omega;
  wheel.velocity = -omega * Vec2(-normal.y(), normal.x());
  s.bodies.push_back(wheel);
  s.planes.push_back(plane(Vec2::Zero(), normal));
  s.contacts.push_back(body_plane(0, 0, 0.0, true));
  return s;
}

/// Two disks of radius 0.1 on the x axis, no gravity: a at 0 moving at va, b at 1 moving at vb.
inline Scenario two_balls(double va, double vb, double e) {
  Scenario s;
  s.gravity = Vec2::Zero();
  s.restitution = e;
  s.bodies.push_back(disk("a", 1.0, 0.1, Vec2(0.0, 0.0), Vec2(va, 0.0)));
  s.bodies.push_back(disk("b", 2.0, 0.1, Vec2(1.0, 0.0), Vec2(vb, 0.0)));
  s.contacts.push_back(disk_disk(0, 1));
  return s;
}

/// A cue ball striking a triangle of three touching balls and two loose balls, no gravity, no walls.
inline Scenario billiards(double e) {
  Scenario s;
  s.gravity = Vec2::Zero();
  s.restitution = e;
  const double r = 0.1, d = 2 * r;
  s.bodies.push_back(disk("cue", 1.0, r, Vec2(-1.0, 0.013), Vec2(3.0, 0.0)));
  s.bodies.push_back(disk("apex", 1.0, r, Vec2(0.0, 0.0)));
  s.bodies.push_back(disk("left", 1.2, r, Vec2(d * std::cos(kPi / 6), d * 0.5)));
  s.bodies.push_back(disk("right", 0.8, r, Vec2(d * std::cos(kPi / 6), -d * 0.5)));
  s.bodies.push_back(disk("far", 1.0, r, Vec2(1.2, 0.35)));
  s.bodies.push_back(disk("other", 1.5, r, Vec2(1.1, -0.45), Vec2(-0.2, 0.1)));
  for (int a = 0; a < 6; ++a) {
    for (int b = a + 1; b < 6; ++b) s.contacts.push_back(disk_disk(a, b));
  }
  return s;
}

/// Slider-crank at its dead centre (crank, connecting rod and slider block collinear on the x axis), the
/// crank turning at `omega`, no gravity: A is rank-deficient at t = 0 and at every dead centre after.
inline Scenario slider_crank(double omega) {
  Scenario s;
  s.gravity = Vec2::Zero();
  s.bodies.push_back(rod("crank", 1.0, 0.2, Vec2(0.1, 0.0)));
  s.bodies.push_back(rod("rod", 0.2, 0.6, Vec2(0.5, 0.0)));
  BodyDef block = make_body("block", Shape::Type::Box, 0.3, Vec2(0.8, 0.0));
  s.bodies.push_back(block);
  s.bodies[0].angular_velocity = omega;
  s.bodies[0].velocity = Vec2(0.0, 0.1 * omega);
  s.bodies[1].velocity = Vec2(0.0, 0.1 * omega);
  s.bodies[1].angular_velocity = -omega / 3.0;
  s.joints.push_back(joint(JointDef::Type::Pin, kWorld, Vec2::Zero(), 0, Vec2(-0.1, 0.0)));
  s.joints.push_back(joint(JointDef::Type::Pin, 0, Vec2(0.1, 0.0), 1, Vec2(-0.3, 0.0)));
  s.joints.push_back(joint(JointDef::Type::Pin, 1, Vec2(0.3, 0.0), 2, Vec2::Zero()));
  JointDef slider = joint(JointDef::Type::Slider, kWorld, Vec2::Zero(), 2, Vec2::Zero());
  slider.axis = Vec2::UnitX();
  s.joints.push_back(slider);
  return s;
}

/// A double pendulum of two rods hanging from the origin, released from an angle: conservative, chaotic.
inline Scenario double_pendulum() {
  Scenario s;
  s.gravity = Vec2(0.0, -9.81);
  const double a1 = 1.2, a2 = 2.0;  // angles from the downward vertical
  const Vec2 u1(std::sin(a1), -std::cos(a1)), u2(std::sin(a2), -std::cos(a2));
  s.bodies.push_back(rod("upper", 1.0, 1.0, 0.5 * u1, a1 - kPi / 2));
  s.bodies.push_back(rod("lower", 1.0, 1.0, u1 + 0.5 * u2, a2 - kPi / 2));
  s.joints.push_back(joint(JointDef::Type::Pin, kWorld, Vec2::Zero(), 0, Vec2(-0.5, 0.0)));
  s.joints.push_back(joint(JointDef::Type::Pin, 0, Vec2(0.5, 0.0), 1, Vec2(-0.5, 0.0)));
  return s;
}

/// A pendulum (disk on a distance joint) swinging into a wall at x = 0.3 and a box bouncing on a floor:
/// elastic when e = 1.
inline Scenario pendulum_and_box(double e) {
  Scenario s;
  s.gravity = Vec2(0.0, -9.81);
  s.restitution = e;
  s.bodies.push_back(disk("bob", 1.0, 0.05, Vec2(-0.6, 1.2)));
  JointDef string = joint(JointDef::Type::Distance, kWorld, Vec2(0.0, 2.0), 0, Vec2::Zero());
  s.joints.push_back(string);
  BodyDef box = make_body("box", Shape::Type::Box, 2.0, Vec2(1.0, 0.6), 0.3, Vec2(0.2, 0.0), 1.0);
  box.shape.width = 0.3;
  box.shape.height = 0.2;
  s.bodies.push_back(box);
  s.planes.push_back(plane(Vec2(0.0, 0.0), Vec2::UnitY()));
  s.planes.push_back(plane(Vec2(0.3, 0.0), Vec2(-1.0, 0.0)));
  s.contacts.push_back(body_plane(0, 1));
  s.contacts.push_back(body_plane(1, 0));
  return s;
}

/// `scenario` with a scheduled impulse (i, and the angular impulse) on body `body` at time `time`.
inline Scenario with_kick(Scenario scenario, double time, int body, Vec2 impulse, double angular = 0.0) {
  ImpulseDef kick;
  kick.time = time;
  kick.body = body;
  kick.impulse = impulse;
  kick.angular = angular;
  scenario.impulses.push_back(kick);
  return scenario;
}

/// Six disks and two boxes dropped into a 1 m wide bin (floor and two walls), restitution `e`: the disks
/// end wedged in a row exactly as wide as the bin, with redundant resting contacts (A rank-deficient).
inline Scenario pile(double e) {
  Scenario s;
  s.gravity = Vec2(0.0, -9.81);
  s.restitution = e;
  s.planes.push_back(plane(Vec2(0.0, 0.0), Vec2(0.0, 1.0)));
  s.planes.push_back(plane(Vec2(-0.5, 0.0), Vec2(1.0, 0.0)));
  s.planes.push_back(plane(Vec2(0.5, 0.0), Vec2(-1.0, 0.0)));
  const int count = 8;
  for (int i = 0; i < count; ++i) {
    if (i % 3 == 2) {
      BodyDef box = make_body("box" + std::to_string(i), Shape::Type::Box, 1.0, Vec2(-0.3 + 0.09 * i, 0.3 + 0.25 * i), 0.3 * i);
      box.shape.width = 0.2;
      box.shape.height = 0.12;
      s.bodies.push_back(box);
    } else {
      s.bodies.push_back(disk("disk" + std::to_string(i), 1.0, 0.1, Vec2(-0.35 + 0.1 * i, 0.3 + 0.25 * i)));
    }
    for (int p = 0; p < 3; ++p) s.contacts.push_back(body_plane(i, p));
  }
  for (int a = 0; a < count; ++a) {
    for (int b = a + 1; b < count; ++b) {
      if (s.bodies[a].shape.type == Shape::Type::Disk && s.bodies[b].shape.type == Shape::Type::Disk) {
        s.contacts.push_back(disk_disk(a, b));
      }
    }
  }
  return s;
}

/// rows × columns disks of radius 0.05 m and 1 kg on a floor, `gap` apart (0: exactly touching, each on the
/// one below and beside it), with "collide": "all", e = 0.5 and friction μ everywhere.
inline Scenario disk_rows_on_floor(int rows, int columns, double gap, double mu) {
  Scenario s;
  s.collide_all = true;
  s.mu = mu;
  s.restitution = 0.5;
  s.planes.push_back(plane(Vec2::Zero(), Vec2(0.0, 1.0)));
  const double r = 0.05;
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < columns; ++j) {
      s.bodies.push_back(disk("d" + std::to_string(i) + "_" + std::to_string(j), 1.0, r,
                              Vec2(j * (2 * r + gap), r + i * (2 * r + gap))));
    }
  }
  return s;
}

/// `rows` × `columns` square boxes of 10 cm, each exactly on the one below and against its neighbours, on a
/// floor, with "collide": "all": every face contact two points, and far more rows than A's rank.
inline Scenario box_wall_on_floor(int rows, int columns, double mu) {
  Scenario s;
  s.collide_all = true;
  s.mu = mu;
  s.restitution = 0.5;
  s.planes.push_back(plane(Vec2::Zero(), Vec2(0.0, 1.0)));
  const double side = 0.1;
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < columns; ++j) {
      s.bodies.push_back(box("b" + std::to_string(i) + "_" + std::to_string(j), 1.0, side, side,
                             Vec2(j * side, 0.5 * side + i * side)));
    }
  }
  return s;
}

}  // namespace oblique::testing
