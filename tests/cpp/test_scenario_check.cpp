// The rules of a valid Scenario (scenario_check.hpp), over the plain structs: one rule, one message, one
// JSON pointer, whether the scenario comes from a document, from C++ through the Model, or through the
// Simulator; the magnitude bounds keep the energies finite; degenerate geometry is refused; names and
// text cannot hide or imitate anything.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "error_message.hpp"
#include "oblique/model/model.hpp"
#include "oblique/scenario/scenario_check.hpp"
#include "oblique/io/scenario_json.hpp"
#include "oblique/geometry/scenario_overlaps.hpp"
#include "oblique/simulation/simulator.hpp"
#include "scenario_builders.hpp"

namespace oblique {
namespace {

using testing::message_of;

/// A valid, named scenario of every kind of item: a disk and a box above a floor, a pendulum on a distance
/// joint, a rope, a force and an impulse.
Scenario named_scene() {
  Scenario s;
  s.title = "Named scene";
  s.bodies.push_back(testing::disk("ball", 1.0, 0.1, Vec2(0.0, 1.0)));
  s.bodies.push_back(testing::make_body("crate", Shape::Type::Box, 2.0, Vec2(1.0, 1.0)));
  s.bodies.push_back(testing::disk("bob", 0.5, 0.05, Vec2(3.0, 1.0)));
  PlaneDef floor;
  floor.name = "floor";
  s.planes.push_back(floor);
  s.contacts.push_back(testing::body_plane(0, 0));
  s.contacts.push_back(testing::body_plane(1, 0));
  JointDef swing = testing::joint(JointDef::Type::Distance, kWorld, Vec2(3.0, 2.0), 2, Vec2::Zero());
  s.joints.push_back(swing);
  s.contacts.push_back(testing::rope(kWorld, Vec2(0.0, 2.0), 0, Vec2::Zero(), 1.5));
  ForceDef push;
  push.body = 1;
  push.force = Vec2(1.0, 0.0);
  s.forces.push_back(push);
  ImpulseDef kick;
  kick.body = 0;
  kick.time = 0.5;
  kick.impulse = Vec2(0.0, 1.0);
  s.impulses.push_back(kick);
  return s;
}

/// The first issue of `s`, as "<pointer>: <message>", checked for a document.
std::string first_issue(const Scenario& s) {
  const auto issues = check_scenario_values(s);
  return issues.empty() ? "no issue" : issue_text(issues.front());
}

TEST(ScenarioCheck, TheNamedSceneIsValidAsADocumentAndRoundTrips) {
  const Scenario s = named_scene();
  EXPECT_EQ(first_issue(s), "no issue");
  EXPECT_NO_THROW(Simulator{s});
  EXPECT_TRUE(check_scenario(scenario_to_json(s)).empty());
}

// ---- one rule, one message, wherever the scenario comes from ------------------------------------------

struct Mutation {
  const char* what;
  std::function<void(Scenario&)> apply;
  std::string expected;      // "<pointer>: <message>" (start)
  bool as_document = true;   // false when the document cannot say it (NaN, a body index out of range)
  bool of_the_model = true;  // false for the initial state, which the Model (a function of any q) accepts
};

TEST(ScenarioCheck, TheDocumentTheModelAndTheSimulatorReportTheSameProblemAtTheSamePointer) {
  const std::vector<Mutation> mutations = {
      // The three drifts of issue #9: each is now one rule.
      {"rest_speed 0", [](Scenario& s) { s.integrator.rest_speed = 0.0; }, "/integrator/rest_speed: must be positive, got 0"},
      {"distance length 0", [](Scenario& s) { s.joints[0].length = 0.0; }, "/joints/0/length: must be positive, got 0"},
      {"nu negative", [](Scenario& s) { s.nu = -1.0; }, "/nu: must be positive, got -1"},
      // Ranges, references, magnitudes.
      {"mass 0", [](Scenario& s) { s.bodies[1].mass = 0.0; }, "/bodies/1/mass: must be positive, got 0"},
      {"mass 1e308", [](Scenario& s) { s.bodies[1].mass = 1e308; }, "/bodies/1/mass: must be at most 1000000 kg, got 1e+308"},
      {"gravity 1e300", [](Scenario& s) { s.gravity.y() = -1e300; },
       "/gravity/1: must be at most 1000 m/s² in magnitude, got -1e+300"},
      {"angular velocity 1e300", [](Scenario& s) { s.bodies[0].angular_velocity = 1e300; },
       "/bodies/0/angular_velocity: must be at most 10000 rad/s in magnitude, got 1e+300"},
      {"NaN position", [](Scenario& s) { s.bodies[2].position.x() = std::nan(""); },
       "/bodies/2/position/0: must be a finite number, got NaN", false},
      {"restitution", [](Scenario& s) { s.restitution = 1.5; }, "/restitution: must be in [0, 1], got 1.5"},
      {"contact e", [](Scenario& s) { s.contacts[1].restitution = -0.5; }, "/contacts/1/e: must be in [0, 1], got -0.5"},
      {"body-plane world", [](Scenario& s) { s.contacts[0].body_a = kWorld; }, "/contacts/0/body: must be a body, not the world"},
      {"force body", [](Scenario& s) { s.forces[0].body = 9; }, "/forces/0/body: must be a body index in 0..2, got 9",
       false},
      {"force 1e10", [](Scenario& s) { s.forces[0].force.x() = 1e10; },
       "/forces/0/force/0: must be at most 1000000000 N in magnitude, got 10000000000"},
      {"impulse time", [](Scenario& s) { s.impulses[0].time = -1.0; }, "/impulses/0/time: must not be negative, got -1"},
      {"step", [](Scenario& s) { s.integrator.step = 0.0; }, "/integrator/step: must be in [1e-06, 0.1], got 0"},
      {"tiny disk", [](Scenario& s) { s.bodies[0].shape.radius = 1e-9; },
       "/bodies/0/shape/radius: must be at least 0.0001 m, got 1e-09"},
      {"huge inertia", [](Scenario& s) { s.bodies[0].inertia = 1e20; },
       "/bodies/0/inertia: must be at most 100000000000000 kg m², got 1e+20"},
      {"nu far from the masses", [](Scenario& s) { s.nu = 1e12; },
       "/nu: must be within a factor 1000000 of the masses and inertias"},
      // Degenerate geometry (issue #13.7, #13.8).
      {"rope anchors coincide", [](Scenario& s) { s.contacts[2].anchor_a = Vec2(0.0, 1.0); },
       "/contacts/2/anchor_b: is 0 m from anchor_a at t = 0: a rope needs its anchors at least 0.0001 m apart"},
      {"distance anchors coincide, length null", [](Scenario& s) { s.joints[0].anchor_a = Vec2(3.0, 1.0); },
       "/joints/0/length: null means the initial distance between the anchors, which is 0 m"},
      {"distance anchors coincide, length given",
       [](Scenario& s) {
         s.joints[0].anchor_a = Vec2(3.0, 1.0);
         s.joints[0].length = 5e-4;
       },
       "/joints/0/anchor_b: is 0 m from anchor_a at t = 0: a distance joint needs its anchors at least"},
      {"rope of zero length", [](Scenario& s) { s.contacts[2].length = 0.0; }, "/contacts/2/length: must be positive, got 0"},
      // Overlaps at the start, by name, at the body's position (a rope's length).
      {"ball in the floor", [](Scenario& s) { s.bodies[0].position = Vec2(0.0, 0.05); },
       "/bodies/0/position: disk \"ball\" starts 0.05 m inside plane \"floor\"", true, false},
      {"crate half sunk", [](Scenario& s) { s.bodies[1].position = Vec2(1.0, 0.0); },
       "/bodies/1/position: box \"crate\" starts 0.1 m inside plane \"floor\"", true, false},
      {"rope stretched", [](Scenario& s) { s.contacts[2].length = 0.75; },
       "/contacts/2/length: rope 2 starts stretched 0.25 m beyond its length (its anchors are 1 m apart at t = 0)",
       true, false},
  };
  for (const Mutation& m : mutations) {
    SCOPED_TRACE(m.what);
    Scenario s = named_scene();
    m.apply(s);
    const std::string simulator = message_of([&] { Simulator simulator(s); });
    EXPECT_EQ(simulator.rfind(m.expected, 0), 0u) << simulator;
    EXPECT_EQ(message_of([&] { Model model(s); }), m.of_the_model ? simulator : "no error");
    EXPECT_EQ(first_issue(s), simulator);
    // The same scenario as a document (references by name): the same first problem.
    if (!m.as_document) continue;
    const Json document = scenario_to_json(s);
    const auto issues = check_scenario(document);
    ASSERT_FALSE(issues.empty()) << document.dump();
    EXPECT_EQ(issue_text(issues.front()), simulator);
  }
}

TEST(ScenarioCheck, TheReportedCasesOfIssue13AreRefusedAtCheckWithTheirPointer) {
  const auto issues_of = [](const std::string& text) { return check_scenario(parse_json(text, "test")); };
  // A rope with coincident anchors is refused by the check, at its pointer, not by the simulator with an
  // internal name.
  auto issues = issues_of(R"({"bodies":[{"name":"b","position":[0,1]}],
      "contacts":[{"type":"rope","anchor_a":[0,1],"body_b":"b","length":0.5}]})");
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0].pointer, "/contacts/0/anchor_b");
  // A distance joint with length null and coincident anchors gained energy (9.81 → 21.9 J in 3 s).
  issues = issues_of(R"({"bodies":[{"name":"b","position":[0,1]}],
      "joints":[{"type":"distance","anchor_a":[0,1],"body_b":"b","length":null}]})");
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0].pointer, "/joints/0/length");
  // Mass 1e308 diverged naming no field; gravity or angular velocity 1e300 wrote null energies.
  EXPECT_EQ(issues_of(R"({"bodies":[{"name":"b","mass":1e308}]})")[0].pointer, "/bodies/0/mass");
  EXPECT_EQ(issues_of(R"({"bodies":[{"name":"b"}],"gravity":[0,-1e300]})")[0].pointer, "/gravity/1");
  EXPECT_EQ(issues_of(R"({"bodies":[{"name":"b","angular_velocity":1e300}]})")[0].pointer,
            "/bodies/0/angular_velocity");
  // ν = 1e150 failed with "adot_qd[0]: must be a finite number".
  EXPECT_EQ(issues_of(R"({"bodies":[{"name":"b"}],"nu":1e150})")[0].pointer, "/nu");
}

// ---- overlaps at the start ----------------------------------------------------------------------------

/// Every issue of a document, as "<pointer>: <message>".
std::vector<std::string> document_issues(const std::string& text) {
  std::vector<std::string> out;
  for (const ScenarioIssue& issue : check_scenario(parse_json(text, "test"))) out.push_back(issue_text(issue));
  return out;
}

TEST(ScenarioCheckOverlaps, NamesTheBodiesAndPlanesAtTheBodysPosition) {
  // The issue's two examples: a disk 0.45 m through a wall, a box 2 cm into a disk ("collide": "all").
  const std::string text = R"({"collide":"all","gravity":[0,0],
      "planes":[{"name":"floor"},{"name":"right","point":[1,0],"normal":[-1,0]}],
      "bodies":[{"name":"ball","position":[-1,1],"shape":{"type":"disk","radius":0.1}},
                {"name":"b","position":[0.95,1],"shape":{"type":"disk","radius":0.5}},
                {"name":"lid","position":[-1,1.18],"shape":{"type":"box","width":0.5,"height":0.2}}]})";
  EXPECT_EQ(document_issues(text),
            (std::vector<std::string>{"/bodies/1/position: disk \"b\" starts 0.45 m inside plane \"right\"",
                                      "/bodies/2/position: box \"lid\" starts 0.02 m inside disk \"ball\""}));
  // The Simulator refuses the scene with the first of them, from the same check.
  const Scenario scenario = [&] {
    Scenario s = parse_scenario(parse_json(R"({"collide":"all","bodies":[{"name":"a"}]})", "test"));
    s.planes = {testing::plane(Vec2(1.0, 0.0), Vec2(-1.0, 0.0))};
    s.planes[0].name = "right";
    s.bodies[0].name = "b";
    s.bodies[0].shape.radius = 0.5;
    s.bodies[0].position = Vec2(0.95, 1.0);
    return s;
  }();
  EXPECT_EQ(message_of([&] { Simulator sim(scenario); }),
            "/bodies/0/position: disk \"b\" starts 0.45 m inside plane \"right\"");
  // The Model, a function of any configuration, takes it: the rows of a body inside a plane are its rows.
  EXPECT_EQ(message_of([&] { Model model(scenario); }), "no error");
  // Read for an editor, the document is the scene as written; read to run, it is refused with the message.
  const Json document = parse_json(text, "test");
  EXPECT_EQ(parse_scenario(document, InitialOverlaps::Allowed).bodies[1].position, Vec2(0.95, 1.0));
  EXPECT_EQ(message_of([&] { parse_scenario(document); }),
            "/bodies/1/position: disk \"b\" starts 0.45 m inside plane \"right\"");
}

TEST(ScenarioCheckOverlaps, AScenarioWithoutNamesFallsBackToKindAndIndex) {
  // Built in C++ for the simulator: no names.
  Scenario s;
  s.collide_all = true;
  s.gravity = Vec2::Zero();
  s.bodies = {testing::make_body("", Shape::Type::Box, 1.0, Vec2(0.0, 1.0)),
              testing::rod("", 1.0, 1.0, Vec2(0.3, -0.08), 0.0)};
  s.bodies[1].shape.radius = 0.02;
  s.planes = {testing::plane(Vec2::Zero(), Vec2(0.0, 1.0))};
  EXPECT_EQ(message_of([&] { Simulator sim(s); }), "/bodies/1/position: rod 1 starts 0.1 m inside plane 0");
}

TEST(ScenarioCheckOverlaps, WithinTheInitialToleranceAStateMayOverlapAndBeyondItTheToleranceIsSaid) {
  const auto ball = [](double y) {
    return R"({"collide":"all","planes":[{"name":"floor"}],"bodies":[{"name":"ball","position":[0,)" +
           show_number(y) + R"(],"shape":{"type":"disk","radius":0.5}}]})";
  };
  EXPECT_TRUE(document_issues(ball(0.5 - 0.9 * kInitialPenetration)).empty());
  EXPECT_TRUE(document_issues(ball(0.5)).empty());
  EXPECT_EQ(document_issues(ball(0.5 - 2 * kInitialPenetration)),
            (std::vector<std::string>{"/bodies/0/position: disk \"ball\" starts 2e-06 m inside plane \"floor\" (an "
                                      "initial state may overlap by at most 1e-06 m)"}));
}

TEST(ScenarioCheckOverlaps, OnlyContactsThatExistAreChecked) {
  // Without "collide": "all" two overlapping bodies with no contact pass through each other: no issue;
  // a declared contact is checked.
  const std::string bodies = R"("bodies":[{"name":"a","position":[0,0.05]},{"name":"b","position":[0.1,0.05]}],
      "planes":[{"name":"floor"}])";
  EXPECT_TRUE(document_issues("{" + bodies + "}").empty());
  EXPECT_EQ(document_issues("{" + bodies + R"(,"contacts":[{"type":"disk_disk","body_a":"a","body_b":"b"},
                                                {"type":"body_plane","body":"b","plane":"floor"}]})"),
            (std::vector<std::string>{"/bodies/1/position: disk \"b\" starts 0.05 m inside plane \"floor\"",
                                      "/bodies/1/position: disk \"b\" starts 0.1 m inside disk \"a\""}));
  // Joined bodies, and a body that does not collide, are left out of "collide": "all".
  EXPECT_TRUE(document_issues(R"({"collide":"all","bodies":[{"name":"a"},{"name":"b","position":[0.1,0]},
      {"name":"ghost","position":[0,0.05],"collides":false}],
      "joints":[{"type":"pin","body_a":"a","anchor_a":[0.05,0],"body_b":"b","anchor_b":[-0.05,0]}]})")
                  .empty());
  // A wheel touches with its spoke tips only: a disk between two spokes is not inside it.
  EXPECT_TRUE(document_issues(R"({"collide":"all","bodies":[
      {"name":"w","shape":{"type":"wheel","radius":1,"spokes":4}},
      {"name":"d","position":[0.5,0.5],"shape":{"type":"disk","radius":0.2}}]})")
                  .empty());
}

TEST(ScenarioCheckOverlaps, TwoCoincidentThinRodsAreRefusedNamingBoth) {
  const auto rods = [](const std::string& second) {
    return R"({"collide":"all","gravity":[0,0],"bodies":[
        {"name":"left","shape":{"type":"rod","length":1,"radius":0}},)" + second + "]}";
  };
  EXPECT_EQ(document_issues(rods(R"({"name":"right","position":[0.5,0],"shape":{"type":"rod","length":1,"radius":0}})")),
            (std::vector<std::string>{"/bodies/1/position: rod \"right\" lies on rod \"left\" over 0.5 m: two thin rods "
                                      "(radius 0) on one line have no side to touch each other from (move one off the "
                                      "other's line, or give one a radius)"}));
  // The same rod turned by π lies on it over its whole length.
  EXPECT_EQ(document_issues(rods(R"({"name":"twin","angle":3.141592653589793,"shape":{"type":"rod","length":1,"radius":0}})"))
                .at(0)
                .rfind("/bodies/1/position: rod \"twin\" lies on rod \"left\" over 1 m", 0),
            0u);
  // End on end, side by side, crossing: not coincident (crossing rods overlap by the shorter arm).
  EXPECT_TRUE(document_issues(rods(R"({"name":"next","position":[1,0],"shape":{"type":"rod","length":1,"radius":0}})")).empty());
  EXPECT_TRUE(document_issues(rods(R"({"name":"above","position":[0,0.001],"shape":{"type":"rod","length":1,"radius":0}})")).empty());
  EXPECT_EQ(document_issues(rods(R"({"name":"cross","position":[0,0.1],"angle":1.5707963267948966,"shape":{"type":"rod","length":1,"radius":0}})")),
            (std::vector<std::string>{"/bodies/1/position: rod \"cross\" starts 0.4 m inside rod \"left\""}));
  // Capsules on one line overlap by their radii.
  EXPECT_EQ(document_issues(R"({"collide":"all","bodies":[{"name":"a","shape":{"type":"rod","length":1,"radius":0.05}},
      {"name":"b","position":[0.5,0],"shape":{"type":"rod","length":1,"radius":0.05}}]})"),
            (std::vector<std::string>{"/bodies/1/position: rod \"b\" starts 0.1 m inside rod \"a\""}));
}

/// A square grid of `side` × `side` disks of radius 1/8 m, `spacing` apart, with "collide": "all" (binary
/// sizes: disks a diameter apart touch exactly, and so do their boxes).
Scenario disk_grid(int side, double spacing) {
  Scenario s;
  s.collide_all = true;
  s.gravity = Vec2::Zero();
  for (int i = 0; i < side * side; ++i) {
    s.bodies.push_back(testing::disk("d" + std::to_string(i), 1.0, 0.125, Vec2(spacing * (i % side), spacing * (i / side))));
  }
  return s;
}

TEST(ScenarioCheckOverlaps, EveryOverlapIsCountedAndTheFirstTwentyListed) {
  // 256 disks, each 1 mm into its neighbours: 2 × 16 × 15 = 480 overlapping pairs.
  const Scenario grid = disk_grid(16, 0.249);
  const auto issues = check_scenario_values(grid);
  ASSERT_EQ(issues.size(), kMaxOverlapIssues + 1);
  EXPECT_EQ(issue_text(issues[0]), "/bodies/1/position: disk \"d1\" starts 0.001 m inside disk \"d0\"");
  EXPECT_EQ(issue_text(issues.back()), "/bodies: 460 more overlaps at the start not listed (the first 20 are)");
}

TEST(ScenarioCheckOverlaps, TheWorkOf256BodiesIsBoundedByTheBroadPhase) {
  // 256 disks exactly touching in a grid: no overlap, and the pairs measured are those whose boxes touch —
  // the 4 side neighbours and the 4 diagonal ones (their boxes share a corner), 2·16·15 + 2·15·15 = 930 —
  // not the 32 640 pairs of 256 bodies.
  const Scenario grid = disk_grid(16, 0.25);
  OverlapInputs usable;
  usable.bodies.assign(grid.bodies.size(), 1);
  const OverlapSearch search = find_initial_overlaps(grid, usable);
  EXPECT_TRUE(search.overlaps.empty());
  EXPECT_EQ(search.body_pairs_measured, 930u);
  EXPECT_TRUE(check_scenario_values(grid).empty());
  // Scattered widely, almost nothing is measured; piled in one place, every pair is (and every overlap found).
  const OverlapSearch scattered = find_initial_overlaps(disk_grid(16, 1.0), usable);  // 0.75 m apart
  EXPECT_EQ(scattered.body_pairs_measured, 0u);
  const OverlapSearch pile = find_initial_overlaps(disk_grid(16, 0.0), usable);
  EXPECT_EQ(pile.body_pairs_measured, 256u * 255u / 2u);
  EXPECT_EQ(pile.overlaps.size(), 256u * 255u / 2u);
}

// ---- the bounds keep the energies finite -------------------------------------------------------------

TEST(ScenarioCheck, AtEveryBoundTheEnergiesStayFiniteForAnHour) {
  // The lightest, smallest body under the largest force and torque, the largest gravity and speeds,
  // for kMaxDuration: the case the bounds of scenario.hpp are chosen for.
  Scenario s;
  BodyDef speck = testing::make_body("speck", Shape::Type::Rod, kMinMass, Vec2(kMaxCoordinate, -kMaxCoordinate),
                                     kMaxAngle, Vec2(kMaxSpeed, -kMaxSpeed));
  speck.shape.length = kMinLength;
  speck.shape.radius = 0.0;
  speck.angular_velocity = kMaxAngularSpeed;
  s.bodies.push_back(speck);
  s.gravity = Vec2(kMaxGravity, -kMaxGravity);
  ForceDef force;
  force.body = 0;
  force.force = Vec2(kMaxForce, kMaxForce);
  force.torque = kMaxForce;
  s.forces.push_back(force);
  ImpulseDef impulse;
  impulse.body = 0;
  impulse.time = 1.0;
  impulse.impulse = Vec2(kMaxImpulse, kMaxImpulse);
  impulse.angular = kMaxImpulse;
  s.impulses.push_back(impulse);
  s.integrator.step = kMaxStep;
  s.integrator.event_tolerance = 1e-9;
  s.duration = kMaxDuration;
  ASSERT_EQ(first_issue(s), "no issue");
  // The inertia from the shape lies within its bounds (the smallest one a shape can have).
  EXPECT_GE(shape_inertia(s.bodies[0].shape, kMinMass), kMinInertia);

  Simulator sim(s);
  for (int call = 0; call < 200 && sim.time() < kMaxDuration; ++call) sim.advance(kMaxDuration - sim.time());
  EXPECT_DOUBLE_EQ(sim.time(), kMaxDuration);
  const Energy energy = sim.energy();
  EXPECT_TRUE(std::isfinite(energy.kinetic) && std::isfinite(energy.potential) && std::isfinite(energy.total));
  EXPECT_TRUE(sim.positions().allFinite() && sim.velocities().allFinite());
  // Far from overflow, as scenario.hpp says: below 1e41 J.
  EXPECT_LT(energy.kinetic, 1e41);
  EXPECT_LT(std::abs(energy.potential), 1e41);
}

TEST(ScenarioCheck, TheLargestShapesInertiaIsWithinItsBound) {
  for (Shape::Type type : {Shape::Type::Disk, Shape::Type::Box, Shape::Type::Rod, Shape::Type::Point,
                           Shape::Type::Wheel}) {
    Shape shape;
    shape.type = type;
    shape.radius = shape.width = shape.height = shape.length = kMaxLength;
    EXPECT_LE(shape_inertia(shape, kMaxMass), kMaxInertia) << static_cast<int>(type);
    shape.radius = shape.width = shape.height = shape.length = kMinLength;
    EXPECT_GE(shape_inertia(shape, kMinMass), kMinInertia) << static_cast<int>(type);
  }
}

// ---- names and text ----------------------------------------------------------------------------------------

TEST(ScenarioCheck, TextHasNoControlsLineSeparatorsOrBidiControls) {
  EXPECT_EQ(text_problem("Bouncing ball, e = 0.8 — γ ≈ 0.64", false), "");
  EXPECT_EQ(text_problem("Two lines\nand a\ttab", true), "");
  EXPECT_NE(text_problem("Two lines\nand", false).find("must be one line"), std::string::npos);
  EXPECT_NE(text_problem("a\xE2\x80\xA8" "b", false).find("U+2028 is a line separator"), std::string::npos);
  EXPECT_NE(text_problem("a\xE2\x80\xA8" "b", true).find("newlines, not U+2028"), std::string::npos);
  EXPECT_NE(text_problem("a\xC2\x85" "b", false).find("U+0085"), std::string::npos);  // NEL, a C1 control
  EXPECT_NE(text_problem("\xE2\x80\xAE" "dlrow", false).find("bidirectional control characters (U+202E)"),
            std::string::npos);
  EXPECT_NE(text_problem("\xE2\x81\xA6x", true).find("U+2066"), std::string::npos);
  EXPECT_EQ(text_problem("caf\xC3", false), "must be valid UTF-8 text");
  EXPECT_EQ(text_problem("\xED\xA0\x80", false), "must be valid UTF-8 text");  // an encoded surrogate
}

TEST(ScenarioCheck, NamesCannotHideOrImitateAnotherName) {
  for (const char* good : {"ball", "ball 1", "Kugel größer", "球", "ボール A", "α", "мяч", "m_1", "rod (left)"}) {
    EXPECT_EQ(name_problem(good), "") << good;
  }
  // "wοrld" with a Greek omicron: Latin and Greek letters mixed.
  const std::string omicron = "w\xCE\xBFrld";
  EXPECT_NE(name_problem(omicron).find("mixes Latin and Greek letters"), std::string::npos) << name_problem(omicron);
  EXPECT_NE(name_problem("b\xD0\xB0ll").find("mixes Latin and Cyrillic"), std::string::npos);  // Cyrillic а
  EXPECT_NE(name_problem("ball\xE2\x80\x8B").find("invisible characters (U+200B)"), std::string::npos);
  EXPECT_NE(name_problem("ball\xC2\xA0" "1").find("U+00A0"), std::string::npos);
  EXPECT_EQ(name_problem(" ball"), "must not begin or end with a space");
  EXPECT_NE(name_problem("be\xCC\x81" "ll").find("combining accents (U+0301)"), std::string::npos);
  // Names that read as "world".
  for (const char* lookalike : {"world", "World", "WORLD", "w0rld", "worId", "wor1d", "\xEF\xBD\x97\xEF\xBD\x8F\xEF\xBD\x92\xEF\xBD\x8C\xEF\xBD\x84",
                                "\xD4\x9D\xD0\xBE\xD0\xB3\xD3\x8F\xD4\x81"}) {
    EXPECT_TRUE(looks_like_world(lookalike)) << lookalike;
  }
  for (const char* other : {"worlds", "word", "wold", "ball", ""}) EXPECT_FALSE(looks_like_world(other)) << other;

  // In a scenario: at the name's pointer, for bodies, planes, joints and contacts alike.
  Scenario s = named_scene();
  s.bodies[1].name = omicron;
  EXPECT_EQ(first_issue(s).rfind("/bodies/1/name: mixes Latin and Greek letters", 0), 0u) << first_issue(s);
  s = named_scene();
  s.bodies[1].name = "WORLD";
  EXPECT_EQ(first_issue(s), "/bodies/1/name: looks like \"world\", which is reserved for the fixed world; choose "
                            "another name");
  s = named_scene();
  s.planes[0].name = "floor\xE2\x80\xA8";
  EXPECT_EQ(first_issue(s).rfind("/planes/0/name: must be one line (U+2028", 0), 0u) << first_issue(s);
  s = named_scene();
  s.title = "\xE2\x80\xAE" "dlrow";
  EXPECT_EQ(first_issue(s).rfind("/title: must not contain bidirectional control characters", 0), 0u);
  s = named_scene();
  s.contacts[0].name = "c\xC2\x85";
  EXPECT_EQ(first_issue(s).rfind("/contacts/0/name: must be one line", 0), 0u) << first_issue(s);
}

TEST(ScenarioCheck, MessagesEscapeWhatTheyQuote) {
  // Two bodies with the same invalid name: the duplicate is reported quoting no raw byte.
  Scenario s = named_scene();
  s.bodies[0].name = std::string("\xFF\xE2\x80\xAE");
  s.bodies[1].name = s.bodies[0].name;
  for (const ScenarioIssue& issue : check_scenario_values(s)) {
    for (char c : issue.message) EXPECT_LT(static_cast<unsigned char>(c), 0x80u) << issue.message;
  }
  EXPECT_EQ(quote(std::string("a\xFF" "b\xE2\x80\xAE" "c\n\"")), "\"a\\xffb\\u202ec\\n\\\"\"");
}

TEST(ScenarioCheck, ColoursHaveTheFormOfACssColour) {
  for (const char* good : {"", "#d04030", "#fff", "#ffff", "#11223344", "steelblue", "rgb(200, 60, 40)",
                           "hsl(10 80% 50% / 0.5)", "color-mix(in srgb, red 50%, blue)", "oklch(0.7 0.1 200)"}) {
    EXPECT_TRUE(has_css_color_syntax(good)) << good;
  }
  for (const char* bad : {"#12", "#ggg", "red;background:url(x)", "url(x)\"", "rgb(1,2,3", "1red", "red)",
                          "rgb(1,2,3))", "\"red\"", "-red", "red blue"}) {
    EXPECT_FALSE(has_css_color_syntax(bad)) << bad;
  }
}

}  // namespace
}  // namespace oblique
