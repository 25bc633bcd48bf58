#include "scene_families.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "oblique/math/trigonometry.hpp"

namespace oblique::scenes {

namespace {

constexpr double kRadius = 0.1;  // disks
constexpr double kGap = 0.01;    // between the column's and the channel's disks, and under the lowest one

BodyDef disk(const std::string& name, Vec2 position, Vec2 velocity, const char* color) {
  BodyDef body;
  body.name = name;
  body.shape.type = Shape::Type::Disk;
  body.shape.radius = kRadius;
  body.mass = 1.0;
  body.position = position;
  body.velocity = velocity;
  body.color = color;
  return body;
}

PlaneDef plane(const char* name, Vec2 point, Vec2 normal) {
  PlaneDef p;
  p.name = name;
  p.point = point;
  p.normal = normal;
  return p;
}

ContactDef on_plane(int body, int plane_index) {
  ContactDef c;
  c.type = ContactDef::Type::BodyPlane;
  c.body_a = body;
  c.plane = plane_index;
  return c;
}

ContactDef between(int a, int b) {
  ContactDef c;
  c.type = ContactDef::Type::DiskDisk;
  c.body_a = a;
  c.body_b = b;
  return c;
}

/// The common settings: gravity, restitution, a title with the size, a few seconds of run.
Scenario base(const std::string& title, int bodies, double restitution, const std::string& description) {
  Scenario s;
  s.title = title + " (" + std::to_string(bodies) + " bodies)";
  s.description = description;
  s.gravity = Vec2(0.0, -9.81);
  s.restitution = restitution;
  s.duration = 3.0;
  return s;
}

void check_size(Family family, int bodies) {
  if (bodies < min_bodies(family) || bodies > max_bodies(family)) {
    throw std::invalid_argument("bodies: must be in " + std::to_string(min_bodies(family)) + ".." +
                                std::to_string(max_bodies(family)) + ", got " + std::to_string(bodies));
  }
}

}  // namespace

const std::vector<Family>& all_families() {
  static const std::vector<Family> families = {Family::Row, Family::Chain, Family::Column, Family::Channel};
  return families;
}

const std::vector<Family>& every_scene() {
  static const std::vector<Family> scenes = {Family::Row,  Family::Chain,  Family::Column, Family::Channel,
                                             Family::Pile, Family::PileMu, Family::Ball};
  return scenes;
}

const char* name(Family family) {
  switch (family) {
    case Family::Row: return "row";
    case Family::Chain: return "chain";
    case Family::Column: return "column";
    case Family::Channel: return "channel";
    case Family::Pile: return "pile";
    case Family::PileMu: return "pile_mu";
    case Family::Ball: return "ball";
  }
  return "?";
}

Family family_from_name(const std::string& text) {
  for (Family family : every_scene()) {
    if (text == name(family)) return family;
  }
  throw std::invalid_argument("family: unknown scene family \"" + text +
                              "\" (row, chain, column, channel, pile, pile_mu or ball)");
}

int min_bodies(Family family) { return family == Family::Ball ? 1 : 2; }

int max_bodies(Family family) {
  switch (family) {
    case Family::Pile:
    case Family::PileMu: return kMaxBodies;
    case Family::Ball: return 1;
    default: return kMaxSceneBodies;
  }
}

Scenario make_scene(Family family, int bodies) {
  check_size(family, bodies);
  switch (family) {
    case Family::Row: return striker_row(bodies);
    case Family::Chain: return rod_chain(bodies);
    case Family::Column: return disk_column(bodies);
    case Family::Channel: return disk_channel(bodies);
    case Family::Pile: return disk_pile(bodies, 0.0);
    case Family::PileMu: return disk_pile(bodies, kPileFriction);
    case Family::Ball: return dropped_ball();
  }
  throw std::invalid_argument("family: unknown scene family");
}

Scenario striker_row(int bodies) {
  check_size(Family::Row, bodies);
  Scenario s = base("Striker and a row of disks", bodies, 0.9,
                    "A striker slides at 1 m/s into a row of touching disks resting on a frictionless floor (e = 0.9). "
                    "Every contact of the row takes part in the first impact at once; then the disks slide apart "
                    "and collide again.");
  s.planes.push_back(plane("floor", Vec2(0.0, 0.0), Vec2(0.0, 1.0)));
  // The striker 1 mm from the first disk, the row touching (centres 2r apart), all on the floor.
  s.bodies.push_back(disk("striker", Vec2(-2.0 * kRadius - 0.001, kRadius), Vec2(1.0, 0.0), "#d04030"));
  for (int k = 1; k < bodies; ++k) {
    s.bodies.push_back(disk("disk" + std::to_string(k), Vec2(2.0 * kRadius * (k - 1), kRadius), Vec2::Zero(), "#8090a0"));
  }
  for (int k = 0; k < bodies; ++k) s.contacts.push_back(on_plane(k, 0));
  for (int k = 0; k + 1 < bodies; ++k) s.contacts.push_back(between(k, k + 1));
  s.view.center = Vec2(0.1 * bodies, 0.3);
  s.view.width = 0.4 * bodies + 1.0;
  return s;
}

Scenario rod_chain(int bodies) {
  check_size(Family::Chain, bodies);
  Scenario s = base("Chain of rods falling on a floor", bodies, 0.5,
                    "Rods pinned end to end fall at 1 m/s onto a floor, the chain tilted so that the links land one "
                    "after another (e = 0.5). At each pin the ends of two rods touch the floor at one point: their "
                    "contact rows are redundant, and A is rank-deficient.");
  s.planes.push_back(plane("floor", Vec2(0.0, 0.0), Vec2(0.0, 1.0)));
  const double length = 0.2, end_radius = 0.02, tilt = 0.05;
  const CosSin along = cos_sin(tilt);
  const Vec2 direction(along.cos, along.sin);
  // The low end 5 mm above the floor; rod k spans [k, k + 1] link lengths along the tilted line.
  const Vec2 low_end(0.0, end_radius + 0.005);
  for (int k = 0; k < bodies; ++k) {
    BodyDef rod;
    rod.name = "rod" + std::to_string(k + 1);
    rod.shape.type = Shape::Type::Rod;
    rod.shape.length = length;
    rod.shape.radius = end_radius;
    rod.mass = 1.0;
    rod.position = low_end + (k + 0.5) * length * direction;
    rod.angle = tilt;
    rod.velocity = Vec2(0.0, -1.0);
    rod.color = k % 2 == 0 ? "#5070a0" : "#8090a0";
    s.bodies.push_back(rod);
    s.contacts.push_back(on_plane(k, 0));
  }
  for (int k = 0; k + 1 < bodies; ++k) {
    JointDef pin;
    pin.type = JointDef::Type::Pin;
    pin.body_a = k;
    pin.anchor_a = Vec2(0.5 * length, 0.0);
    pin.body_b = k + 1;
    pin.anchor_b = Vec2(-0.5 * length, 0.0);
    s.joints.push_back(pin);
  }
  s.view.center = Vec2(0.1 * bodies, 0.3);
  s.view.width = 0.25 * bodies + 1.0;
  return s;
}

Scenario disk_column(int bodies) {
  check_size(Family::Column, bodies);
  Scenario s = base("Column of disks dropped on a floor", bodies, 0.8,
                    "A column of disks with 1 cm gaps falls at 1 m/s, the lowest 1 cm above the floor (as if dropped "
                    "from 5 cm; e = 0.8): each bounce meets the next disk coming down, up the column.");
  s.planes.push_back(plane("floor", Vec2(0.0, 0.0), Vec2(0.0, 1.0)));
  for (int k = 0; k < bodies; ++k) {
    const double y = kRadius + kGap + k * (2.0 * kRadius + kGap);
    s.bodies.push_back(disk("disk" + std::to_string(k + 1), Vec2(0.0, y), Vec2(0.0, -1.0), k == 0 ? "#d04030" : "#8090a0"));
  }
  s.contacts.push_back(on_plane(0, 0));
  for (int k = 0; k + 1 < bodies; ++k) s.contacts.push_back(between(k, k + 1));
  s.view.center = Vec2(0.0, 0.105 * bodies);
  s.view.width = 0.25 * bodies + 1.0;
  return s;
}

Scenario disk_channel(int bodies) {
  check_size(Family::Channel, bodies);
  Scenario s = base("Disks falling down a narrow channel", bodies, 0.5,
                    "Disks fall at 1 m/s down a channel 1.5 diameters wide, alternately against the left and the "
                    "right wall with 1 cm gaps (e = 0.5). They pile up in a zigzag on the floor, each resting on a "
                    "wall and on the disk below.");
  const double half_width = 1.5 * kRadius;
  s.planes.push_back(plane("floor", Vec2(0.0, 0.0), Vec2(0.0, 1.0)));
  s.planes.push_back(plane("left", Vec2(-half_width, 0.0), Vec2(1.0, 0.0)));
  s.planes.push_back(plane("right", Vec2(half_width, 0.0), Vec2(-1.0, 0.0)));
  // Centres half a radius off the axis, against a wall; consecutive centres 2r + gap apart.
  const double offset = half_width - kRadius;
  const double rise = std::sqrt((2.0 * kRadius + kGap) * (2.0 * kRadius + kGap) - (2.0 * offset) * (2.0 * offset));
  for (int k = 0; k < bodies; ++k) {
    const double x = k % 2 == 0 ? -offset : offset;
    s.bodies.push_back(disk("disk" + std::to_string(k + 1), Vec2(x, kRadius + kGap + k * rise), Vec2(0.0, -1.0),
                            k % 2 == 0 ? "#5070a0" : "#8090a0"));
    s.contacts.push_back(on_plane(k, 1));
    s.contacts.push_back(on_plane(k, 2));
  }
  s.contacts.push_back(on_plane(0, 0));
  for (int k = 0; k + 1 < bodies; ++k) s.contacts.push_back(between(k, k + 1));
  s.view.center = Vec2(0.0, 0.1 * bodies);
  s.view.width = 0.22 * bodies + 1.0;
  return s;
}

int pile_row_length(int bodies) {
  return std::max(2, static_cast<int>(std::lround(std::sqrt(0.5 * bodies))));
}

double pile_half_width(int bodies) {
  return 0.5 * (pile_row_length(bodies) * (2.0 * kRadius + kGap) + kRadius);
}

Scenario disk_pile(int bodies, double mu) {
  check_size(mu > 0.0 ? Family::PileMu : Family::Pile, bodies);
  char friction[48] = "";
  if (mu > 0.0) std::snprintf(friction, sizeof friction, " with friction (μ = %g)", mu);
  Scenario s = base(std::string("Disks poured into a bin") + friction, bodies, kPileRestitution,
                    "Rows of disks with 1 cm gaps, every other row shifted by a radius, fall at 1 m/s into a bin, the "
                    "lowest row 1 cm above its floor (e = 0.5). No contact is declared: the simulator finds every "
                    "pair that touches. Each disk lands between two below it; they bounce, pile up and come to rest.");
  s.mu = mu;
  s.collide_all = true;
  s.duration = 5.0;
  const int per_row = pile_row_length(bodies);
  const double half_width = pile_half_width(bodies);
  s.planes.push_back(plane("floor", Vec2(0.0, 0.0), Vec2(0.0, 1.0)));
  s.planes.push_back(plane("left wall", Vec2(-half_width, 0.0), Vec2(1.0, 0.0)));
  s.planes.push_back(plane("right wall", Vec2(half_width, 0.0), Vec2(-1.0, 0.0)));
  // Row r, place j: 5 mm from the left wall (a radius further on odd rows), 2r + gap apart along and up.
  for (int k = 0; k < bodies; ++k) {
    const int row = k / per_row, place = k % per_row;
    const double x = -half_width + 0.5 * kGap + kRadius + place * (2.0 * kRadius + kGap) + (row % 2 == 1 ? kRadius : 0.0);
    const double y = kRadius + kGap + row * (2.0 * kRadius + kGap);
    s.bodies.push_back(disk("disk" + std::to_string(k + 1), Vec2(x, y), Vec2(0.0, -1.0), row % 2 == 0 ? "#5070a0" : "#8090a0"));
  }
  const int rows = (bodies + per_row - 1) / per_row;
  s.view.center = Vec2(0.0, 0.5 * rows * (2.0 * kRadius + kGap));
  s.view.width = std::max(2.0 * half_width + 1.0, 0.5 * rows * (2.0 * kRadius + kGap) + 1.0);
  return s;
}

Scenario disk_grid(int rows, int columns, double gap, double mu) {
  if (rows < 1 || columns < 1 || rows * columns > kMaxBodies) {
    throw std::invalid_argument("bodies: a grid of 1 to " + std::to_string(kMaxBodies) + " disks, got " +
                                std::to_string(rows) + " × " + std::to_string(columns));
  }
  constexpr double r = 0.05;
  char title[96];
  std::snprintf(title, sizeof title, "Grid of disks %g mm apart%s", 1e3 * gap, mu > 0.0 ? " with friction" : "");
  Scenario s = base(title, rows * columns, 0.5,
                    "Rows of disks at rest on a floor, each on the one below and beside it or a gap apart; no contact "
                    "is declared (\"collide\": \"all\"), so every touching pair is found and settled at the start.");
  s.mu = mu;
  s.collide_all = true;
  s.planes.push_back(plane("floor", Vec2(0.0, 0.0), Vec2(0.0, 1.0)));
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < columns; ++j) {
      BodyDef body = disk("disk" + std::to_string(i * columns + j + 1),
                          Vec2(j * (2.0 * r + gap), r + i * (2.0 * r + gap)), Vec2::Zero(), "#5070a0");
      body.shape.radius = r;
      s.bodies.push_back(body);
    }
  }
  s.view.center = Vec2(0.5 * columns * (2.0 * r + gap), 0.5 * rows * (2.0 * r + gap));
  s.view.width = std::max(columns, rows) * (2.0 * r + gap) + 0.5;
  return s;
}

Scenario dropped_ball() {
  Scenario s = base("Ball dropped on a floor", 1, kBallRestitution,
                    "A disk dropped from rest with its lowest point 1 m above a floor (e = 0.8): the apex after "
                    "bounce k is h e^(2k).");
  s.title = "Ball dropped on a floor";
  s.planes.push_back(plane("floor", Vec2(0.0, 0.0), Vec2(0.0, 1.0)));
  s.bodies.push_back(disk("ball", Vec2(0.0, kRadius + kBallHeight), Vec2::Zero(), "#d04030"));
  s.contacts.push_back(on_plane(0, 0));
  s.view.center = Vec2(0.0, 0.6);
  s.view.width = 3.0;
  return s;
}

}  // namespace oblique::scenes
