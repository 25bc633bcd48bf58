// oblique_box2d_bench: the scene families (bench/scenes) in Box2D 2.4.1, the engine a user would otherwise
// pick, at the time steps such a user picks (1/60 s, and 1 ms as Oblique's default), for `npm run bench`.
//
// Each Scenario is translated body for body: disks as circles, rods as boxes as long as the rod and as thick
// as its end circles, planes as long static edges, pins as revolute joints; mass and inertia as in Oblique;
// no friction (Oblique's contacts are frictionless unless they stick), the scenario's restitution, Box2D's
// defaults otherwise (8 velocity and 3 position iterations, restitution only above 1 m/s, every pair of
// shapes collides). Box2D runs in single precision with a relaxed contact model: this compares speed at the
// same scenes, not results.
//
//   oblique_box2d_bench [--seconds T] [--sizes 8,16,32,64]
// prints one JSON document: {"version": "2.4.1" (the package's), "results": [{family, bodies, dt, seconds, cpu_seconds,
// realtime}, ...]} with the median process CPU time of three runs of T simulated seconds.
#include <box2d/box2d.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <string>
#include <vector>

#include "oblique/model/model.hpp"
#include "scene_families.hpp"

namespace {

using oblique::Scenario;

b2Vec2 vec(const oblique::Vec2& v) { return b2Vec2(static_cast<float>(v.x()), static_cast<float>(v.y())); }

/// A Box2D world holding `scenario`.
std::unique_ptr<b2World> build_world(const Scenario& scenario) {
  auto world = std::make_unique<b2World>(vec(scenario.gravity));
  // Planes: one static body with a 200 m edge along each.
  b2BodyDef ground_def;
  b2Body* ground = world->CreateBody(&ground_def);
  for (const oblique::PlaneDef& plane : scenario.planes) {
    const oblique::Vec2 n = plane.normal.normalized();
    const oblique::Vec2 along(-n.y(), n.x());
    b2EdgeShape edge;
    edge.SetTwoSided(vec(plane.point - 100.0 * along), vec(plane.point + 100.0 * along));
    b2FixtureDef fixture;
    fixture.shape = &edge;
    fixture.friction = 0.0f;
    fixture.restitution = static_cast<float>(scenario.restitution);
    ground->CreateFixture(&fixture);
  }
  // Bodies with Oblique's mass and inertia.
  std::vector<b2Body*> bodies;
  for (const oblique::BodyDef& def : scenario.bodies) {
    b2BodyDef body_def;
    body_def.type = b2_dynamicBody;
    body_def.position = vec(def.position);
    body_def.angle = static_cast<float>(def.angle);
    body_def.linearVelocity = vec(def.velocity);
    body_def.angularVelocity = static_cast<float>(def.angular_velocity);
    b2Body* body = world->CreateBody(&body_def);
    b2FixtureDef fixture;
    fixture.friction = 0.0f;
    fixture.restitution = static_cast<float>(scenario.restitution);
    fixture.density = 1.0f;
    b2CircleShape circle;
    b2PolygonShape box;
    if (def.shape.type == oblique::Shape::Type::Rod) {
      box.SetAsBox(static_cast<float>(0.5 * def.shape.length), static_cast<float>(std::max(def.shape.radius, 0.01)));
      fixture.shape = &box;
    } else {
      circle.m_radius = static_cast<float>(def.shape.radius);
      fixture.shape = &circle;
    }
    body->CreateFixture(&fixture);
    b2MassData mass;
    mass.mass = static_cast<float>(def.mass);
    mass.center.SetZero();
    mass.I = static_cast<float>(def.inertia.value_or(oblique::shape_inertia(def.shape, def.mass)));
    body->SetMassData(&mass);
    bodies.push_back(body);
  }
  // Pins (the families have no other joints).
  for (const oblique::JointDef& def : scenario.joints) {
    b2RevoluteJointDef joint;
    joint.bodyA = def.body_a == oblique::kWorld ? ground : bodies[static_cast<std::size_t>(def.body_a)];
    joint.bodyB = def.body_b == oblique::kWorld ? ground : bodies[static_cast<std::size_t>(def.body_b)];
    joint.localAnchorA = vec(def.anchor_a);
    joint.localAnchorB = vec(def.anchor_b);
    joint.collideConnected = false;
    world->CreateJoint(&joint);
  }
  return world;
}

/// Process CPU seconds of `seconds` simulated seconds at step `dt`, from a fresh world.
double cpu_seconds(const Scenario& scenario, double dt, double seconds) {
  auto world = build_world(scenario);
  const long steps = std::lround(seconds / dt);
  const std::clock_t start = std::clock();
  for (long k = 0; k < steps; ++k) world->Step(static_cast<float>(dt), 8, 3);
  return static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
}

std::vector<int> parse_sizes(const std::string& text) {
  std::vector<int> sizes;
  std::size_t begin = 0;
  while (begin < text.size()) {
    std::size_t end = text.find(',', begin);
    if (end == std::string::npos) end = text.size();
    sizes.push_back(std::atoi(text.substr(begin, end - begin).c_str()));
    begin = end + 1;
  }
  return sizes;
}

}  // namespace

int main(int argc, char** argv) {
  double seconds = 1.0;
  std::vector<int> sizes = {8, 16, 32, 64};
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--seconds") seconds = std::atof(argv[i + 1]);
    else if (flag == "--sizes") sizes = parse_sizes(argv[i + 1]);
  }
  std::printf("{\"version\": \"%s\", \"results\": [", OBLIQUE_BOX2D_VERSION);
  bool first = true;
  for (oblique::scenes::Family family : oblique::scenes::all_families()) {
    for (int bodies : sizes) {
      const Scenario scenario = oblique::scenes::make_scene(family, bodies);
      for (double dt : {1.0 / 60.0, 1e-3}) {
        // The median of three runs.
        std::vector<double> runs;
        for (int run = 0; run < 3; ++run) runs.push_back(cpu_seconds(scenario, dt, seconds));
        std::sort(runs.begin(), runs.end());
        const double cpu = std::max(runs[1], 1e-9);
        std::printf("%s\n  {\"family\": \"%s\", \"bodies\": %d, \"dt\": %.17g, \"seconds\": %.17g, \"cpu_seconds\": %.6g, "
                    "\"realtime\": %.6g}",
                    first ? "" : ",", oblique::scenes::name(family), bodies, dt, seconds, cpu, seconds / cpu);
        first = false;
      }
    }
  }
  std::printf("\n]}\n");
  return 0;
}
