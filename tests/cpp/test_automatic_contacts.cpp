// Automatic contacts ("collide": "all", automatic_contacts.hpp) in the simulator: the document's fields and
// their messages; old documents unchanged; every shape pair colliding without a declared contact; momentum
// and angular momentum kept through impacts without gravity or planes (random scenes of every shape);
// the restitution mixing rule; declared pairs, joined bodies and "collides": false left out; a pile that
// settles and stays at rest for 10 s; a saved state (and its JSON) giving the same run; the run independent
// of how time is cut into budgeted calls. The issue's two-disk example of the Γ rule is here too (a disk
// leaving the floor struck from above: sequential, never an energy gain, at every gap).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <cstdint>
#include <string>
#include <vector>

#include "contact_runs.hpp"
#include "json_files.hpp"
#include "oblique/io/json_io.hpp"
#include "oblique/io/scenario_json.hpp"
#include "oblique/io/simulation_state_json.hpp"
#include "oblique/simulation/simulator.hpp"
#include "simulation_runs.hpp"

namespace oblique {
namespace {

Scenario scenario_of(const std::string& text) { return parse_scenario(parse_json(text, "test")); }

using testing::run_to;

using testing::Momenta;
using testing::momenta_of;

/// Deterministic pseudo-random numbers in [0, 1) (a 64-bit LCG; the tests need no quality, only repeatability).
struct Lcg {
  std::uint64_t state;
  double next() {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<double>(state >> 11) * (1.0 / 9007199254740992.0);
  }
};

// ---- the document --------------------------------------------------------------------------------------------

TEST(AutomaticContactsFormat, FrictionOfABodyPairIsTheGeometricMeanAndOfAPlaneTheBodysOwn) {
  const Scenario s = scenario_of(R"({"collide":"all","mu":0.25,"bodies":[{"name":"a","mu":0.16,"position":[0,1]},
      {"name":"b","mu":0.64,"position":[1,1]},{"name":"c","position":[2,1]},{"name":"ice","mu":0,"position":[3,1]},
      {"name":"s","stick":true,"position":[4,1]},{"name":"t","stick":true,"position":[5,1]}],"planes":[{"name":"f"}]})");
  const AutomaticContacts contacts(s);
  auto pair = [](int a, int b) {
    FeaturePair p;
    p.body_a = a;
    p.body_b = b;
    return p;
  };
  EXPECT_EQ(contacts.friction(pair(0, 1)), std::sqrt(0.16 * 0.64));  // √(0.1024) = 0.32
  EXPECT_NEAR(contacts.friction(pair(0, 1)), 0.32, 1e-15);
  EXPECT_EQ(contacts.friction(pair(2, 2)), 0.25);  // the scenario's μ for a body without one
  EXPECT_EQ(contacts.friction(pair(1, 3)), 0.0);   // ice makes every contact of its own frictionless
  EXPECT_EQ(contacts.friction(pair(kWorld, 1)), 0.64);
  EXPECT_EQ(contacts.friction(pair(kWorld, 2)), 0.25);
  // Sticking: +∞ against a plane or a body that sticks too; the scenario's μ otherwise.
  EXPECT_EQ(contacts.friction(pair(kWorld, 4)), std::numeric_limits<double>::infinity());
  EXPECT_EQ(contacts.friction(pair(4, 5)), std::numeric_limits<double>::infinity());
  EXPECT_EQ(contacts.friction(pair(1, 4)), std::sqrt(0.64 * 0.25));
  EXPECT_EQ(scenario_to_json(s).at("bodies")[0].at("mu"), 0.16);
  EXPECT_TRUE(scenario_to_json(s).at("bodies")[2].at("mu").is_null());
}

TEST(AutomaticContactsFormat, FieldsReadWithDefaultsAndBadValuesNamed) {
  const Scenario s = scenario_of(R"({"collide":"all","bodies":[{"name":"a","e":0.25,"stick":true},
      {"name":"b","collides":false}]})");
  EXPECT_TRUE(s.collide_all);
  EXPECT_EQ(s.bodies[0].restitution, 0.25);
  EXPECT_TRUE(s.bodies[0].stick);
  EXPECT_TRUE(s.bodies[0].collides);
  EXPECT_FALSE(s.bodies[1].collides);
  EXPECT_FALSE(s.bodies[1].restitution.has_value());
  // Written back with every field, and read back to the same document.
  const Json written = scenario_to_json(s);
  EXPECT_EQ(written.at("collide"), "all");
  EXPECT_EQ(scenario_to_json(parse_scenario(written)), written);
  // An old document: declared contacts only.
  EXPECT_FALSE(scenario_of(R"({"bodies":[{"name":"a"}]})").collide_all);
  // Bad values name their field.
  auto first_issue = [](const std::string& text) { return check_scenario(parse_json(text, "test")).at(0); };
  const ScenarioIssue collide = first_issue(R"({"collide":"everything","bodies":[{"name":"a"}]})");
  EXPECT_EQ(collide.pointer, "/collide");
  EXPECT_NE(collide.message.find("all"), std::string::npos) << collide.message;
  const ScenarioIssue e = first_issue(R"({"bodies":[{"name":"a","e":1.5}]})");
  EXPECT_EQ(e.pointer, "/bodies/0/e");
  EXPECT_EQ(e.message, "must be in [0, 1], got 1.5");
  EXPECT_EQ(first_issue(R"({"bodies":[{"name":"a","collides":"no"}]})").pointer, "/bodies/0/collides");
}

TEST(AutomaticContactsFormat, WithoutCollideAllABodyWithoutContactsPassesThrough) {
  // Declared contacts only (the default): the disk falls through the floor, as before.
  Simulator sim(scenario_of(R"({"bodies":[{"name":"a","position":[0,0.2]}],"planes":[{"name":"floor"}],"duration":1})"));
  run_to(sim, 1.0);
  EXPECT_EQ(sim.contact_point_count(), 0);
  EXPECT_LT(sim.positions()(1), -1.0);
}

// ---- every shape pair ----------------------------------------------------------------------------------------

/// Shape JSON of a kind: disk, box, rod.
std::string shape_json(const std::string& kind) {
  if (kind == "disk") return R"({"type":"disk","radius":0.1})";
  if (kind == "box") return R"({"type":"box","width":0.2,"height":0.14})";
  return R"({"type":"rod","length":0.4,"radius":0.03})";
}

TEST(AutomaticContacts, EveryShapePairCollidesAndNothingPenetrates) {
  // Two bodies approaching head on at 2 m/s (tilted so that corners and rod ends lead), no gravity: one
  // impact at least, the bodies end apart and never penetrate beyond the event slack.
  const std::vector<std::string> kinds = {"disk", "box", "rod"};
  for (const std::string& a : kinds) {
    for (const std::string& b : kinds) {
      const std::string text = R"({"collide":"all","gravity":[0,0],"restitution":0.5,"bodies":[)"
                               R"({"name":"a","shape":)" + shape_json(a) +
                               R"(,"position":[-0.5,0.02],"angle":0.3,"velocity":[1,0]},)"
                               R"({"name":"b","shape":)" + shape_json(b) +
                               R"(,"position":[0.5,-0.02],"angle":1.1,"velocity":[-1,0]}]})";
      Simulator sim(scenario_of(text));
      for (int k = 1; k <= 60; ++k) {
        run_to(sim, 0.025 * k);
        for (const ContactPoint& p : sim.contact_points()) ASSERT_GE(p.gap, -1e-9) << a << "–" << b;
      }
      ASSERT_GE(sim.impacts().size(), 1u) << a << "–" << b;
      EXPECT_EQ(sim.impacts().front().contacts.front(), -1) << "an automatic point";
      EXPECT_LT(sim.impacts().front().result.kinetic_plus, sim.impacts().front().result.kinetic_minus) << a << "–" << b;
      for (const ContactPoint& p : sim.contact_points()) EXPECT_GE(p.normal_velocity, -1e-9) << a << "–" << b;
    }
  }
  // Against a plane: each shape dropped on the floor comes to rest on it.
  for (const std::string& a : kinds) {
    Simulator sim(scenario_of(R"({"collide":"all","restitution":0.3,"planes":[{"name":"floor"}],"bodies":[)"
                              R"({"name":"a","shape":)" + shape_json(a) + R"(,"position":[0,0.5],"angle":0.4}]})"));
    run_to(sim, 3.0);
    EXPECT_GE(sim.impacts().size(), 1u) << a;
    EXPECT_LT(sim.velocities().norm(), 1e-6) << a;
    for (const ContactPoint& p : sim.contact_points()) EXPECT_GE(p.gap, -1e-9) << a;
  }
}

TEST(AutomaticContacts, MomentumAndAngularMomentumAreKeptThroughImpacts) {
  // Random scenes of disks, boxes and rods in a row, thrown at each other without gravity or planes: every
  // impulse is internal, so Σ m v and Σ (m x × v + I ω) are those of the start, to round-off, and energy
  // never rises.
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    Lcg random{seed};
    const char* kinds[] = {"disk", "box", "rod"};
    std::string text = R"({"collide":"all","gravity":[0,0],"restitution":)" + std::to_string(random.next()) +
                       R"(,"bodies":[)";
    for (int i = 0; i < 6; ++i) {
      const std::string kind = kinds[static_cast<int>(3 * random.next())];
      text += std::string(i ? "," : "") + R"({"name":"b)" + std::to_string(i) + R"(","shape":)" + shape_json(kind) +
              R"(,"mass":)" + std::to_string(0.5 + random.next()) + R"(,"position":[)" + std::to_string(0.5 * i) +
              "," + std::to_string(0.1 * (random.next() - 0.5)) + R"(],"angle":)" + std::to_string(3 * random.next()) +
              R"(,"velocity":[)" + std::to_string(2 * random.next() - 1) + "," + std::to_string(0.2 * random.next()) +
              R"(],"angular_velocity":)" + std::to_string(4 * random.next() - 2) + "}";
    }
    text += "]}";
    Simulator sim(scenario_of(text));
    const Momenta start = momenta_of(sim);
    const double energy = sim.energy().kinetic;
    run_to(sim, 3.0);
    ASSERT_GE(sim.impacts().size(), 1u) << "seed " << seed;
    const Momenta end = momenta_of(sim);
    EXPECT_NEAR((end.linear - start.linear).norm(), 0.0, 1e-12) << "seed " << seed;
    EXPECT_NEAR(end.angular, start.angular, 1e-11) << "seed " << seed;
    EXPECT_LE(sim.energy().kinetic, energy * (1 + 1e-12)) << "seed " << seed;
    for (const ImpactRecord& impact : sim.impacts()) {
      EXPECT_FALSE(impact.result.flags.energy_gain) << "seed " << seed << " t = " << impact.time;
    }
  }
}

// ---- restitution, and the pairs left out ---------------------------------------------------------------------

/// Relative normal speed after/before of two equal disks meeting head on with bodies' e.
double disk_pair_ratio(const std::string& body_a_extra, const std::string& body_b_extra) {
  Simulator sim(scenario_of(R"({"collide":"all","gravity":[0,0],"restitution":0.5,"bodies":[)"
                            R"({"name":"a","position":[-0.3,0],"velocity":[1,0])" + body_a_extra + "},"
                            R"({"name":"b","position":[0.3,0],"velocity":[-1,0])" + body_b_extra + "}]}"));
  run_to(sim, 0.5);
  EXPECT_EQ(sim.impacts().size(), 1u);
  return (sim.velocities()(3) - sim.velocities()(0)) / 2.0;
}

TEST(AutomaticContacts, RestitutionIsTheLargerOfTheBodiesE) {
  EXPECT_NEAR(disk_pair_ratio("", ""), 0.5, 1e-12);                    // the scenario's restitution
  EXPECT_NEAR(disk_pair_ratio(R"(,"e":0.2)", R"(,"e":0.8)"), 0.8, 1e-12);  // the larger
  EXPECT_NEAR(disk_pair_ratio(R"(,"e":0.2)", ""), 0.5, 1e-12);          // against the default 0.5
  EXPECT_NEAR(disk_pair_ratio(R"(,"e":0.9)", ""), 0.9, 1e-12);
  // set_restitution sets every contact, the automatic ones included.
  Simulator sim(scenario_of(R"({"collide":"all","gravity":[0,0],"bodies":[{"name":"a","position":[-0.3,0],)"
                            R"("velocity":[1,0],"e":0.9},{"name":"b","position":[0.3,0],"velocity":[-1,0]}]})"));
  sim.set_restitution(0.25);
  run_to(sim, 0.5);
  EXPECT_NEAR((sim.velocities()(3) - sim.velocities()(0)) / 2.0, 0.25, 1e-12);
  EXPECT_EQ(sim.scenario().bodies[0].restitution.value_or(-1.0), 0.25);
}

TEST(AutomaticContacts, DeclaredPairsJointsAndNonCollidingBodiesAreLeftOut) {
  // A declared disk–disk contact with its own e = 0 wins over the automatic pair: one point, plastic.
  Simulator declared(scenario_of(R"({"collide":"all","gravity":[0,0],"restitution":1,"bodies":[)"
                                 R"({"name":"a","position":[-0.3,0],"velocity":[1,0]},)"
                                 R"({"name":"b","position":[0.3,0],"velocity":[-1,0]}],)"
                                 R"("contacts":[{"type":"disk_disk","body_a":"a","body_b":"b","e":0}]})"));
  run_to(declared, 0.5);
  ASSERT_EQ(declared.impacts().size(), 1u);
  EXPECT_EQ(declared.impacts().front().contacts, std::vector<int>{0});
  EXPECT_NEAR(declared.velocities()(0), declared.velocities()(3), 1e-12);
  // Two rods pinned together overlap at the pin: no contact between them.
  Simulator joined(scenario_of(R"({"collide":"all","gravity":[0,0],"bodies":[)"
                               R"({"name":"a","shape":{"type":"rod","length":0.4,"radius":0.03},"angular_velocity":1},)"
                               R"({"name":"b","shape":{"type":"rod","length":0.4,"radius":0.03},"angle":0.5}],)"
                               R"("joints":[{"type":"pin","body_a":"a","body_b":"b"}]})"));
  run_to(joined, 1.0);
  EXPECT_EQ(joined.contact_point_count(), 0);
  EXPECT_TRUE(joined.impacts().empty());
  // "collides": false falls through the floor while its neighbour lands.
  Simulator ghost(scenario_of(R"({"collide":"all","planes":[{"name":"floor"}],"bodies":[)"
                              R"({"name":"a","position":[0,0.3]},{"name":"b","position":[1,0.3],"collides":false}]})"));
  run_to(ghost, 1.0);
  EXPECT_GT(ghost.positions()(1), 0.09);
  EXPECT_LT(ghost.positions()(4), -1.0);
}

// ---- rest, state, budget -------------------------------------------------------------------------------------

const char* const kSmallPile = R"({"collide":"all","restitution":0.3,"integrator":{"rest_speed":0.1,"step":0.002},
  "planes":[{"name":"floor"},{"name":"left","point":[-0.25,0],"normal":[1,0]},
            {"name":"right","point":[0.25,0],"normal":[-1,0]}],
  "bodies":[{"name":"d1","position":[-0.12,0.12],"stick":true},
            {"name":"b1","shape":{"type":"box","width":0.2,"height":0.1},"position":[0.1,0.1],"angle":0.2,"stick":true},
            {"name":"d2","position":[0.0,0.4],"stick":true},
            {"name":"b2","shape":{"type":"box","width":0.16,"height":0.16},"position":[-0.05,0.7],"angle":0.7,"stick":true}]})";

TEST(AutomaticContacts, APileSettlesAndStaysAtRestForTenSeconds) {
  Simulator sim(scenario_of(kSmallPile));
  run_to(sim, 3.0);
  ASSERT_GE(sim.impacts().size(), 3u);
  ASSERT_LT(sim.velocities().cwiseAbs().maxCoeff(), 1e-9) << "settled";
  const Vector settled = sim.positions();
  const std::size_t impacts = sim.dropped_impacts() + sim.impacts().size();
  run_to(sim, 13.0);
  EXPECT_EQ(sim.dropped_impacts() + sim.impacts().size(), impacts) << "no impact at rest";
  EXPECT_LT((sim.positions() - settled).cwiseAbs().maxCoeff(), 1e-9) << "no drift";
  EXPECT_LT(sim.velocities().cwiseAbs().maxCoeff(), 1e-9);
  EXPECT_LT(sim.constraint_violation(), 1e-9);
}

TEST(AutomaticContacts, ASavedStateAndItsJsonGiveTheSameRun) {
  Simulator sim(scenario_of(kSmallPile));
  run_to(sim, 0.4);
  const SimulationState saved = sim.save_state();
  ASSERT_FALSE(saved.automatic.empty());
  run_to(sim, 1.2);
  const Vector q = sim.positions(), qd = sim.velocities();
  const std::size_t impacts = sim.dropped_impacts() + sim.impacts().size();
  // The state itself, and the state through its JSON (keys only, the pairs rebuilt from the shapes).
  for (const SimulationState& state : {saved, state_from_json(Json::parse(state_to_json(saved).dump()))}) {
    Simulator other(scenario_of(kSmallPile));
    other.restore_state(state);
    run_to(other, 1.2);
    EXPECT_EQ(other.positions(), q);
    EXPECT_EQ(other.velocities(), qd);
    EXPECT_EQ(other.dropped_impacts() + other.impacts().size(), impacts);
  }
  // A key that names no feature is refused, naming it.
  SimulationState bad = saved;
  bad.automatic.front().b.index = 99;
  Simulator other(scenario_of(kSmallPile));
  try {
    other.restore_state(bad);
    ADD_FAILURE() << "accepted";
  } catch (const std::invalid_argument& error) {
    EXPECT_EQ(std::string(error.what()).rfind("state.automatic[0]", 0), 0u) << error.what();
  }
}

TEST(AutomaticContacts, TheRunDoesNotDependOnTheWorkBudget) {
  // Tiny budgets stop calls between evaluations, roll transactions back and replay them: the automatic
  // points are part of the state, so the run is the same bit for bit.
  Simulator whole(scenario_of(kSmallPile));
  run_to(whole, 1.0);
  Simulator cut(scenario_of(kSmallPile));
  cut.set_work_budget(2e4);
  int calls = 0;
  while (cut.time() < 1.0) {
    cut.advance_to(1.0);
    ++calls;
  }
  EXPECT_GT(calls, 50);
  EXPECT_EQ(cut.positions(), whole.positions());
  EXPECT_EQ(cut.velocities(), whole.velocities());
  ASSERT_EQ(cut.impacts().size(), whole.impacts().size());
  for (std::size_t i = 0; i < whole.impacts().size(); ++i) {
    EXPECT_EQ(cut.impacts()[i].time, whole.impacts()[i].time);
    EXPECT_EQ(cut.impacts()[i].result.qd_plus, whole.impacts()[i].result.qd_plus);
  }
}

TEST(AutomaticContacts, ThePileOfThirtyDoesNotChatterWhereABoxIsHeldFromAboveAndBelow) {
  // The built-in pile of 30 disks and boxes (docs/scaling.md) at t = 0.49 s (a saved state): a box rests
  // on one body and carries another; with both contacts active the one below pulls, and releasing the
  // hardest puller first released it, after which the box fell onto it again 0.7 µs later (a plastic impact
  // at 1.7e-6 m/s), was released again, and so on — thousands of impacts per millisecond, the run never got
  // past 0.5 s. A released point that the active set's dynamics drive into its partner joins the set again
  // (Simulator::settle): 0.03 s then take a few dozen impacts, in calls of the default work budget.
  const std::string source = OBLIQUE_SOURCE_DIR;
  Simulator sim(parse_scenario(testing::read_json(source + "/web/scenarios/pile-of-30.json")));
  const std::string saved = source + "/tests/cpp/fixtures/pile-of-30-state-0.49.json";
  sim.restore_state(state_from_json(testing::read_json(saved)));
  ASSERT_EQ(sim.time(), 0.49);
  int calls = 0;
  do {
    sim.advance_to(0.52);
  } while (sim.work_limit_hit() && ++calls < 400);
  EXPECT_EQ(sim.time(), 0.52) << "the run did not get there in 400 calls";
  EXPECT_LT(sim.impacts().size(), 100u);
  for (const ImpactRecord& impact : sim.impacts()) EXPECT_FALSE(impact.result.flags.energy_gain) << impact.time;
}

// ---- tolerances that follow the scene ------------------------------------------------------------------------

TEST(GapTolerance, OneNanometreBetweenOneCentimetreBeadsIsASeparateContact) {
  // Three beads of radius 5 mm in a row, 1 nm apart, the first at 1 m/s, e = 1, no gravity. The gap
  // tolerance of 1 cm bodies is 1e-12 m (1e-10 of their size is below the floor), so each gap closes on
  // its own: two one-row impacts, and the momentum passes down the row as in Newton's cradle (0, 0, 1). A
  // fixed 1e-9 m tolerance took both gaps as touching: one simultaneous impact, (−1/3, 2/3, 2/3).
  Simulator sim(scenario_of(R"({"collide":"all","gravity":[0,0],"restitution":1,"bodies":[
      {"name":"a","shape":{"type":"disk","radius":0.005},"velocity":[1,0]},
      {"name":"b","shape":{"type":"disk","radius":0.005},"position":[0.010000001,0]},
      {"name":"c","shape":{"type":"disk","radius":0.005},"position":[0.020000002,0]}]})"));
  run_to(sim, 0.001);
  ASSERT_EQ(sim.impacts().size(), 2u);
  for (const ImpactRecord& impact : sim.impacts()) EXPECT_EQ(impact.points.size(), 1u);
  EXPECT_NEAR(sim.velocities()(0), 0.0, 1e-12);
  EXPECT_NEAR(sim.velocities()(3), 0.0, 1e-12);
  EXPECT_NEAR(sim.velocities()(6), 1.0, 1e-12);
  // Balls of 1 m (radius 0.5 m, tolerance 5e-11 m) 1e-11 m apart touch: one simultaneous impact.
  Simulator large(scenario_of(R"({"collide":"all","gravity":[0,0],"restitution":1,"bodies":[
      {"name":"a","shape":{"type":"disk","radius":0.5},"velocity":[1,0]},
      {"name":"b","shape":{"type":"disk","radius":0.5},"position":[1.00000000001,0]},
      {"name":"c","shape":{"type":"disk","radius":0.5},"position":[2.00000000002,0]}]})"));
  run_to(large, 0.001);
  ASSERT_EQ(large.impacts().size(), 1u);
  EXPECT_EQ(large.impacts().front().points.size(), 2u);
}

/// The scene scaled in length by s and in time by r = √s with the same gravity (Froude scaling): positions,
/// sizes and plane points ×s, speeds ×r, angular speeds ×1/r, inertias ×s², impulses ×r (their times ×r),
/// torques ×s, the step, the event tolerance and the duration ×r, the rest speed ×r, the projection
/// tolerance ×s. Masses, forces, angles and e are unchanged; energies scale by s.
Scenario froude_scaled(Scenario scene, double s) {
  const double r = std::sqrt(s);
  for (BodyDef& body : scene.bodies) {
    body.position *= s;
    body.velocity *= r;
    body.angular_velocity /= r;
    if (body.inertia) *body.inertia *= s * s;
    body.shape.radius *= s;
    body.shape.width *= s;
    body.shape.height *= s;
    body.shape.length *= s;
  }
  for (PlaneDef& plane : scene.planes) plane.point *= s;
  for (JointDef& joint : scene.joints) {
    joint.anchor_a *= s;
    joint.anchor_b *= s;
    if (joint.length) *joint.length *= s;
  }
  for (ContactDef& contact : scene.contacts) {
    contact.anchor_a *= s;
    contact.anchor_b *= s;
    contact.length *= s;
  }
  for (ForceDef& force : scene.forces) force.torque *= s;
  for (ImpulseDef& impulse : scene.impulses) {
    impulse.time *= r;
    impulse.impulse *= r;
    impulse.angular *= s * r;
  }
  scene.integrator.step *= r;
  scene.integrator.event_tolerance *= r;
  scene.integrator.rest_speed *= r;
  scene.integrator.projection_tolerance *= s;
  scene.duration *= r;
  return scene;
}

TEST(ScaleInvariance, AScaledSceneRunsTheSameImpactsWithEnergiesInProportion) {
  // Mechanics has no length scale of its own: a scene scaled in length by s = 2⁻⁸ (about 4e-3: the 10 cm
  // bodies become 0.4 mm ones, near the smallest size a scenario may have) or 2¹⁰ (100 m ones) and in time
  // by √s, under the same gravity, must run the same impacts at the scaled times, with every energy scaled
  // by s. The tolerances — touching, the event
  // slack, at rest — must follow the scene for that (simulator.hpp): fixed ones would take round-off of the
  // small scene for motion, or motion for round-off. s is a power of two, so that scaling the inputs is
  // exact; the runs then differ only by round-off where the arithmetic mixes units (|q̇| over x, y and θ),
  // which the many impacts of the pile amplify to about 1e-8 of its impact times and 1e-6 of its energies in its first second.
  const std::string dir = std::string(OBLIQUE_SOURCE_DIR) + "/web/scenarios/";
  struct Case {
    Scenario scene;
    double seconds;
    const char* name;
  };
  const std::vector<Case> cases = {
      {scenario_of(kSmallPile), 1.0, "the small pile"},
      {parse_scenario(testing::read_json(dir + "bouncing-ball.json")), 4.0, "bouncing-ball"},
      {parse_scenario(testing::read_json(dir + "newtons-cradle.json")), 2.0, "newtons-cradle"},
      {parse_scenario(testing::read_json(dir + "box-corner.json")), 2.0, "box-corner"},
  };
  for (const double s : {1.0 / 256.0, 1024.0})
  for (const Case& c : cases) {
    const double r = std::sqrt(s);
    Simulator original(c.scene);
    Simulator scaled(froude_scaled(c.scene, s));
    run_to(original, c.seconds);
    run_to(scaled, c.seconds * r);
    const auto& a = original.impacts();
    const auto& b = scaled.impacts();
    ASSERT_GE(a.size(), 1u) << c.name << " ×" << s;
    ASSERT_EQ(b.size(), a.size()) << c.name << " scaled by " << s << ": the same impacts";
    for (std::size_t i = 0; i < a.size(); ++i) {
      EXPECT_EQ(b[i].points, a[i].points) << c.name << " ×" << s << " impact " << i;
      EXPECT_NEAR(b[i].time, r * a[i].time, 1e-6 * r) << c.name << " ×" << s << " impact " << i;
      EXPECT_NEAR(b[i].result.kinetic_minus, s * a[i].result.kinetic_minus, 1e-5 * s * a[i].result.kinetic_minus + 1e-12 * s)
          << c.name << " ×" << s << " impact " << i;
      EXPECT_NEAR(b[i].result.energy_ratio, a[i].result.energy_ratio, 1e-5) << c.name << " ×" << s << " impact " << i;
    }
    const Energy ea = original.energy(), eb = scaled.energy();
    EXPECT_NEAR(eb.total, s * ea.total, 1e-5 * s * std::abs(ea.total) + 1e-12 * s) << c.name << " ×" << s;
    EXPECT_NEAR(eb.kinetic, s * ea.kinetic, 1e-5 * s * std::abs(ea.total) + 1e-12 * s) << c.name << " ×" << s;
    for (int b2 = 0; b2 < original.model().body_count(); ++b2) {
      EXPECT_NEAR(scaled.positions()(3 * b2), s * original.positions()(3 * b2), 1e-5 * s) << c.name << " ×" << s;
      EXPECT_NEAR(scaled.positions()(3 * b2 + 1), s * original.positions()(3 * b2 + 1), 1e-5 * s) << c.name << " ×" << s;
      EXPECT_NEAR(scaled.positions()(3 * b2 + 2), original.positions()(3 * b2 + 2), 1e-5) << c.name << " ×" << s;
    }
  }
}

// ---- the Γ rule never gains energy (issue #9, the two-disk example) ---------------------------------------

TEST(ActivationRuleInTheSimulator, ADiskLeavingTheFloorStruckFromAboveIsSequentialAtEveryGap) {
  // No gravity, e = 0.9: b0 (r = 0.1) a gap above the floor moving up at 1 m/s, b1 touching it from above
  // moving down at 1 m/s (masses 1). Sequentially: b1–b0 first (relative speed 2 → 1.8: b0 at −0.9, b1 at
  // +0.9, γ = 0.81), then b0–floor (0.9 → 0.81 up): K⁺ = ½(0.81² + 0.9²) = 0.73305 of K⁻ = 1. Never the
  // simultaneous 1.62 that stopping the separating floor row from q̇⁻ gave.
  for (double gap : {0.0, 1e-12, 1e-10, 1e-9, 1e-6}) {
    Scenario s = scenario_of(R"({"gravity":[0,0],"restitution":0.9,"planes":[{"name":"floor"}],"bodies":[
        {"name":"b0","position":[0,1],"velocity":[0,1]},{"name":"b1","position":[0,2],"velocity":[0,-1]}],
        "contacts":[{"body":"b0","plane":"floor"},{"type":"disk_disk","body_a":"b0","body_b":"b1"}]})");
    s.bodies[0].position = Vec2(0.0, 0.1 + gap);
    s.bodies[1].position = Vec2(0.0, 0.3 + gap);
    Simulator sim(s);
    run_to(sim, 0.05);
    ASSERT_EQ(sim.impacts().size(), 2u) << "gap " << gap;
    for (const ImpactRecord& impact : sim.impacts()) {
      EXPECT_FALSE(impact.result.flags.energy_gain) << "gap " << gap;
      EXPECT_LE(impact.result.constraint_work, 1e-15) << "gap " << gap;
    }
    EXPECT_NEAR(sim.impacts()[0].result.energy_ratio, 0.81, 1e-12) << "gap " << gap;
    EXPECT_NEAR(sim.energy().kinetic, 0.73305, 1e-12) << "gap " << gap;
    EXPECT_NEAR(sim.velocities()(1), 0.81, 1e-12) << "gap " << gap;
    EXPECT_NEAR(sim.velocities()(4), 0.9, 1e-12) << "gap " << gap;
  }
}

TEST(ActivationRuleInTheSimulator, NearTouchingRandomScenesNeverGainEnergy) {
  // Columns and clusters of disks with gaps from 0 to 1e-6 m, velocities in every direction, one e ≤ 1,
  // no gravity, no impulse: every logged impact has W_constraint ≤ round-off.
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    Lcg random{seed};
    const double e = random.next();
    std::string text = R"({"collide":"all","gravity":[0,0],"restitution":)" + std::to_string(e) +
                       R"(,"planes":[{"name":"floor"}],"bodies":[)";
    double y = 0.1;
    for (int i = 0; i < 5; ++i) {
      const double gap = random.next() < 0.3 ? 0.0 : 1e-6 * std::pow(random.next(), 4.0);
      text += std::string(i ? "," : "") + R"({"name":"b)" + std::to_string(i) + R"(","position":[)" +
              format_json(Json(0.0)) + "," + format_json(Json(y + gap)) + R"(],"velocity":[)" +
              format_json(Json(0.2 * (random.next() - 0.5))) + "," + format_json(Json(2 * random.next() - 1)) + "]}";
      y += gap + 0.2;
    }
    text += "]}";
    Simulator sim(scenario_of(text));
    run_to(sim, 0.5);
    for (const ImpactRecord& impact : sim.impacts()) {
      const double kinetic = std::max({impact.result.kinetic_minus, impact.result.kinetic_plus, 1e-300});
      EXPECT_LE(impact.result.constraint_work, 1e-12 * kinetic) << "seed " << seed << " t = " << impact.time;
      EXPECT_FALSE(impact.result.flags.energy_gain) << "seed " << seed << " t = " << impact.time;
    }
  }
}

}  // namespace
}  // namespace oblique
