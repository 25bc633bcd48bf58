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
#include "oblique/model.hpp"
#include "oblique/scenario_check.hpp"
#include "oblique/scenario_json.hpp"
#include "oblique/simulator.hpp"
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
  };
  for (const Mutation& m : mutations) {
    SCOPED_TRACE(m.what);
    Scenario s = named_scene();
    m.apply(s);
    const std::string model = message_of([&] { Model model(s); });
    const std::string simulator = message_of([&] { Simulator simulator(s); });
    EXPECT_EQ(model.rfind(m.expected, 0), 0u) << model;
    EXPECT_EQ(simulator, model);
    EXPECT_EQ(first_issue(s), model);
    // The same scenario as a document (references by name): the same first problem.
    if (!m.as_document) continue;
    const Json document = scenario_to_json(s);
    const auto issues = check_scenario(document);
    ASSERT_FALSE(issues.empty()) << document.dump();
    EXPECT_EQ(issue_text(issues.front()), model);
  }
}

TEST(ScenarioCheck, TheReportedCasesOfIssue13AreRefusedAtCheckWithTheirPointer) {
  const auto issues_of = [](const std::string& text) { return check_scenario(parse_json(text, "test")); };
  // A rope with coincident anchors used to pass check and fail in the simulator with an internal name.
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
