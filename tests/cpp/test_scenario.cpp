// The scenario document format v1: defaults, every kind of issue with its JSON pointer, the limits, hostile
// documents, the round trip through scenario_to_json, the built-in scenarios (valid, and physically
// consistent at t = 0) and the JSON Schema (same keys and defaults as the code).
#include <gtest/gtest.h>

#include <ctime>
#include <cmath>
#include <fstream>
#include <functional>
#include <limits>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <Eigen/Geometry>

#include "oblique/model/model.hpp"
#include "oblique/io/scenario_json.hpp"
#include "oblique/math/trigonometry.hpp"
#include "json_files.hpp"

namespace oblique {
namespace {

// ---- helpers ---------------------------------------------------------------------------------------------

using testing::kScenarioDir;
using testing::read_json;

std::vector<ScenarioIssue> issues_of(const std::string& text) { return check_scenario(parse_json(text, "test")); }

std::string show(const std::vector<ScenarioIssue>& issues) {
  std::string out;
  for (const auto& issue : issues) out += "  " + issue.pointer + ": " + issue.message + "\n";
  return out;
}

/// `issues` has one at exactly `pointer` whose message contains `message`.
::testing::AssertionResult has_issue(const std::vector<ScenarioIssue>& issues, const std::string& pointer,
                                     const std::string& message) {
  for (const auto& issue : issues) {
    if (issue.pointer == pointer && issue.message.find(message) != std::string::npos) {
      return ::testing::AssertionSuccess();
    }
  }
  return ::testing::AssertionFailure() << "no issue " << pointer << ": ..." << message << "... in\n" << show(issues);
}

::testing::AssertionResult has_issue(const std::string& text, const std::string& pointer, const std::string& message) {
  return has_issue(issues_of(text), pointer, message);
}

/// A valid document with a disk "ball", a box "box" and (unless `floor` is false) a plane "floor", plus
/// `extra` top-level members.
std::string doc_with(const std::string& extra, bool floor = true) {
  return R"({"bodies":[{"name":"ball","shape":{"type":"disk","radius":0.1},"position":[0,1]},
                      {"name":"box","shape":{"type":"box"},"position":[1,1]}])" +
         std::string(floor ? R"(,"planes":[{"name":"floor"}])" : "") + (extra.empty() ? "" : "," + extra) + "}";
}

/// Field-by-field equality, exact (the round trip must give the same bits).
void expect_same(const Scenario& a, const Scenario& b) {
  EXPECT_EQ(a.version, b.version);
  EXPECT_EQ(a.title, b.title);
  EXPECT_EQ(a.description, b.description);
  EXPECT_EQ(a.gravity, b.gravity);
  EXPECT_EQ(a.restitution, b.restitution);
  EXPECT_EQ(a.mu, b.mu);
  EXPECT_EQ(a.nu, b.nu);
  EXPECT_EQ(a.duration, b.duration);
  ASSERT_EQ(a.bodies.size(), b.bodies.size());
  for (std::size_t i = 0; i < a.bodies.size(); ++i) {
    SCOPED_TRACE("body " + std::to_string(i));
    const BodyDef &x = a.bodies[i], &y = b.bodies[i];
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.shape.type, y.shape.type);
    EXPECT_EQ(x.shape.radius, y.shape.radius);
    EXPECT_EQ(x.shape.width, y.shape.width);
    EXPECT_EQ(x.shape.height, y.shape.height);
    EXPECT_EQ(x.shape.length, y.shape.length);
    EXPECT_EQ(x.shape.spokes, y.shape.spokes);
    EXPECT_EQ(x.mass, y.mass);
    EXPECT_EQ(x.inertia, y.inertia);
    EXPECT_EQ(x.position, y.position);
    EXPECT_EQ(x.angle, y.angle);
    EXPECT_EQ(x.velocity, y.velocity);
    EXPECT_EQ(x.angular_velocity, y.angular_velocity);
    EXPECT_EQ(x.color, y.color);
    EXPECT_EQ(x.mu, y.mu);
  }
  ASSERT_EQ(a.planes.size(), b.planes.size());
  for (std::size_t i = 0; i < a.planes.size(); ++i) {
    EXPECT_EQ(a.planes[i].name, b.planes[i].name);
    EXPECT_EQ(a.planes[i].point, b.planes[i].point);
    EXPECT_EQ(a.planes[i].normal, b.planes[i].normal);
  }
  ASSERT_EQ(a.joints.size(), b.joints.size());
  for (std::size_t i = 0; i < a.joints.size(); ++i) {
    SCOPED_TRACE("joint " + std::to_string(i));
    const JointDef &x = a.joints[i], &y = b.joints[i];
    EXPECT_EQ(x.type, y.type);
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.body_a, y.body_a);
    EXPECT_EQ(x.body_b, y.body_b);
    EXPECT_EQ(x.anchor_a, y.anchor_a);
    EXPECT_EQ(x.anchor_b, y.anchor_b);
    EXPECT_EQ(x.length, y.length);
    EXPECT_EQ(x.axis, y.axis);
  }
  ASSERT_EQ(a.contacts.size(), b.contacts.size());
  for (std::size_t i = 0; i < a.contacts.size(); ++i) {
    SCOPED_TRACE("contact " + std::to_string(i));
    const ContactDef &x = a.contacts[i], &y = b.contacts[i];
    EXPECT_EQ(x.type, y.type);
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.body_a, y.body_a);
    EXPECT_EQ(x.body_b, y.body_b);
    EXPECT_EQ(x.plane, y.plane);
    EXPECT_EQ(x.anchor_a, y.anchor_a);
    EXPECT_EQ(x.anchor_b, y.anchor_b);
    EXPECT_EQ(x.length, y.length);
    EXPECT_EQ(x.restitution, y.restitution);
    EXPECT_EQ(x.stick, y.stick);
    EXPECT_EQ(x.mu, y.mu);
  }
  ASSERT_EQ(a.forces.size(), b.forces.size());
  for (std::size_t i = 0; i < a.forces.size(); ++i) {
    EXPECT_EQ(a.forces[i].body, b.forces[i].body);
    EXPECT_EQ(a.forces[i].force, b.forces[i].force);
    EXPECT_EQ(a.forces[i].torque, b.forces[i].torque);
  }
  ASSERT_EQ(a.impulses.size(), b.impulses.size());
  for (std::size_t i = 0; i < a.impulses.size(); ++i) {
    EXPECT_EQ(a.impulses[i].time, b.impulses[i].time);
    EXPECT_EQ(a.impulses[i].body, b.impulses[i].body);
    EXPECT_EQ(a.impulses[i].impulse, b.impulses[i].impulse);
    EXPECT_EQ(a.impulses[i].angular, b.impulses[i].angular);
  }
  EXPECT_EQ(a.integrator.step, b.integrator.step);
  EXPECT_EQ(a.integrator.event_tolerance, b.integrator.event_tolerance);
  EXPECT_EQ(a.integrator.rest_speed, b.integrator.rest_speed);
  EXPECT_EQ(a.integrator.projection_tolerance, b.integrator.projection_tolerance);
  EXPECT_EQ(a.view.center, b.view.center);
  EXPECT_EQ(a.view.width, b.view.width);
  EXPECT_EQ(a.view.trails, b.view.trails);
}

/// parse(to_json(s)) == s, in memory and through text.
void expect_round_trip(const Scenario& s) {
  const Json written = scenario_to_json(s);
  expect_same(parse_scenario(written), s);
  const Scenario through_text = parse_scenario(parse_json(written.dump(), "dump"));
  expect_same(through_text, s);
  EXPECT_EQ(scenario_to_json(through_text), written);
}

/// The ids of index.json, in order.
std::vector<std::string> built_in_ids() {
  const Json index = read_json(kScenarioDir + "index.json");
  std::vector<std::string> ids;
  for (const Json& entry : index.at("scenarios")) ids.push_back(entry.at("id"));
  return ids;
}

bool single_line(const std::string& s) {
  for (unsigned char c : s) {
    if (c < 0x20 || c == 0x7f) return false;
  }
  return true;
}

// ---- defaults and versions -------------------------------------------------------------------------------

TEST(ScenarioFormat, AMinimalDocumentTakesEveryDefaultOfTheStructs) {
  const Scenario s = parse_scenario(parse_json(R"({"bodies":[{"name":"b"}]})", "test"));
  const Scenario defaults;
  const BodyDef body_defaults;
  EXPECT_EQ(s.version, 1);
  EXPECT_EQ(s.title, "");
  EXPECT_EQ(s.gravity, defaults.gravity);
  EXPECT_EQ(s.gravity, Vec2(0, -9.81));
  EXPECT_EQ(s.restitution, 0.5);
  EXPECT_FALSE(s.nu.has_value());
  EXPECT_EQ(s.duration, 10.0);
  ASSERT_EQ(s.bodies.size(), 1u);
  EXPECT_EQ(s.bodies[0].name, "b");
  EXPECT_EQ(s.bodies[0].shape.type, Shape::Type::Disk);
  EXPECT_EQ(s.bodies[0].shape.radius, body_defaults.shape.radius);
  EXPECT_EQ(s.bodies[0].mass, 1.0);
  EXPECT_FALSE(s.bodies[0].inertia.has_value());
  EXPECT_EQ(s.bodies[0].position, Vec2::Zero());
  EXPECT_TRUE(s.planes.empty() && s.joints.empty() && s.contacts.empty() && s.forces.empty() && s.impulses.empty());
  EXPECT_EQ(s.integrator.step, 1e-3);
  EXPECT_EQ(s.integrator.event_tolerance, 1e-13);
  EXPECT_EQ(s.integrator.rest_speed, 1e-3);
  EXPECT_EQ(s.integrator.projection_tolerance, 1e-14);
  EXPECT_EQ(s.view.center, Vec2(0, 0.5));
  EXPECT_EQ(s.view.width, 4.0);
  EXPECT_FALSE(s.view.trails);
}

TEST(ScenarioFormat, DefaultsOfJointsContactsAndShapes) {
  const Scenario s = parse_scenario(parse_json(doc_with(R"(
      "joints":[{"body_b":"ball"},{"type":"distance","body_a":"ball","body_b":"box"},{"type":"slider","body_b":"box"}],
      "contacts":[{"body":"ball","plane":"floor"},{"type":"rope","anchor_a":[0,2],"body_b":"ball"}],
      "forces":[{"body":"box"}], "impulses":[{"body":"ball"}])"),
                                               "test"));
  EXPECT_EQ(s.joints[0].type, JointDef::Type::Pin);
  EXPECT_EQ(s.joints[0].body_a, kWorld);
  EXPECT_EQ(s.joints[0].body_b, 0);
  EXPECT_FALSE(s.joints[1].length.has_value());  // the initial distance
  EXPECT_EQ(s.joints[2].axis, Vec2(1, 0));
  EXPECT_EQ(s.contacts[0].type, ContactDef::Type::BodyPlane);
  EXPECT_EQ(s.contacts[0].body_a, 0);
  EXPECT_EQ(s.contacts[0].plane, 0);
  EXPECT_FALSE(s.contacts[0].restitution.has_value());
  EXPECT_FALSE(s.contacts[0].stick);
  EXPECT_EQ(s.contacts[1].body_a, kWorld);
  EXPECT_EQ(s.contacts[1].length, 1.0);
  EXPECT_EQ(s.forces[0].body, 1);
  EXPECT_EQ(s.impulses[0].time, 0.0);
  EXPECT_EQ(s.bodies[1].shape.width, 0.2);
  EXPECT_EQ(s.planes[0].normal, Vec2(0, 1));
}

TEST(ScenarioFormat, VersionOneExplicitOrAbsentAndNewerVersionsAreRefusedAlone) {
  EXPECT_TRUE(issues_of(R"({"oblique":1,"bodies":[{"name":"b"}]})").empty());
  // A newer document: only the version is reported, its other fields may be valid in that version.
  const auto issues = issues_of(R"({"oblique":2,"bodies":"whatever","shiny_new_field":1})");
  ASSERT_EQ(issues.size(), 1u) << show(issues);
  EXPECT_EQ(issues[0].pointer, "/oblique");
  EXPECT_NE(issues[0].message.find("format version 2"), std::string::npos) << issues[0].message;
  EXPECT_NE(issues[0].message.find("reads version 1"), std::string::npos) << issues[0].message;
  EXPECT_TRUE(has_issue(R"({"oblique":0,"bodies":[{"name":"b"}]})", "/oblique", "must be 1"));
  EXPECT_TRUE(has_issue(R"({"oblique":1.5,"bodies":[{"name":"b"}]})", "/oblique", "must be a whole number"));
  EXPECT_TRUE(has_issue(R"({"oblique":"1","bodies":[{"name":"b"}]})", "/oblique", "must be a number, got a string"));
}

// ---- each kind of issue, with its pointer ----------------------------------------------------------------

struct IssueCase {
  std::string document;
  std::string pointer;
  std::string message;
};

TEST(ScenarioFormat, EachKindOfIssueNamesItsPointer) {
  const std::vector<IssueCase> cases = {
      // The document itself.
      {"[1,2]", "", "a scenario must be a JSON object, got an array"},
      {"{}", "/bodies", "missing (a scenario needs at least one body)"},
      {R"({"bodies":[]})", "/bodies", "must have at least one body"},
      {R"({"bodies":{}})", "/bodies", "must be an array of bodies, got an object"},
      // Unknown fields: a typo gets a suggestion, anything else the allowed list.
      {doc_with(R"("gravty":[0,-1])"), "/gravty", "unknown field \"gravty\"; did you mean \"gravity\"?"},
      {doc_with(R"("foo":1)"), "/foo", "unknown field \"foo\" in a scenario (allowed: oblique, title, description"},
      {R"({"bodies":[{"name":"a","masss":2}]})", "/bodies/0/masss", "did you mean \"mass\"?"},
      {R"({"bodies":[{"name":"a","Mass":2}]})", "/bodies/0/Mass", "did you mean \"mass\"?"},
      {R"({"bodies":[{"name":"a","shape":{"type":"disk","width":2}}]})", "/bodies/0/shape/width",
       "not a field of a disk shape (its fields: type, radius)"},
      {R"({"bodies":[{"name":"a","shape":{"radius":1,"spokes":3}}]})", "/bodies/0/shape/spokes",
       "not a field of a disk shape"},
      {doc_with(R"("joints":[{"body_b":"ball","length":1}])"), "/joints/0/length", "not a field of a pin joint"},
      {doc_with(R"("contacts":[{"type":"rope","body_b":"ball","stick":true}])"), "/contacts/0/stick",
       "not a field of a rope contact"},
      {doc_with(R"("integrator":{"stepsize":0.01})"), "/integrator/stepsize", "unknown field \"stepsize\""},
      {doc_with(R"("view":{"centre":[0,0]})"), "/view/centre", "did you mean \"center\"?"},
      // Numbers: type, finiteness (the JS markers), ranges.
      {R"({"bodies":[{"name":"a","mass":-1}]})", "/bodies/0/mass", "must be positive, got -1"},
      {R"({"bodies":[{"name":"a","mass":0}]})", "/bodies/0/mass", "must be positive, got 0"},
      {R"({"bodies":[{"name":"a","mass":"heavy"}]})", "/bodies/0/mass", "must be a number, got a string"},
      {R"({"bodies":[{"name":"a","mass":null}]})", "/bodies/0/mass", "must be a number, got null"},
      {R"({"bodies":[{"name":"a","inertia":0}]})", "/bodies/0/inertia", "must be positive, got 0"},
      {R"({"bodies":[{"name":"a","inertia":[1]}]})", "/bodies/0/inertia", "must be a number or null"},
      {R"({"bodies":[{"name":"a","position":[0,"NaN"]}]})", "/bodies/0/position/1",
       "must be a finite number, got NaN"},
      {R"({"bodies":[{"name":"a"}],"gravity":["Infinity",0]})", "/gravity/0", "must be a finite number, got Infinity"},
      {R"({"bodies":[{"name":"a","angle":"-Infinity"}]})", "/bodies/0/angle", "must be a finite number, got -Infinity"},
      {R"({"bodies":[{"name":"a","velocity":[1,2,3]}]})", "/bodies/0/velocity", "must have two numbers [x, y], got 3"},
      {R"({"bodies":[{"name":"a","velocity":1}]})", "/bodies/0/velocity", "must be an array of two numbers"},
      {R"({"bodies":[{"name":"a","shape":{"type":"disk","radius":-0.1}}]})", "/bodies/0/shape/radius",
       "must be positive, got -0.1"},
      {R"({"bodies":[{"name":"a","shape":{"type":"rod","radius":-1}}]})", "/bodies/0/shape/radius",
       "must not be negative, got -1"},
      {R"({"bodies":[{"name":"a","shape":{"type":"box","height":0}}]})", "/bodies/0/shape/height", "must be positive"},
      {R"({"bodies":[{"name":"a","shape":{"type":"wheel","spokes":2}}]})", "/bodies/0/shape/spokes",
       "must be in [3, 64], got 2"},
      {R"({"bodies":[{"name":"a","shape":{"type":"wheel","spokes":6.5}}]})", "/bodies/0/shape/spokes",
       "must be a whole number, got 6.5"},
      {R"({"bodies":[{"name":"a","shape":[]}]})", "/bodies/0/shape", "must be a shape (a JSON object), got an array"},
      {R"({"bodies":[{"name":"a","shape":{"type":"circle"}}]})", "/bodies/0/shape/type",
       "unknown type \"circle\" (one of disk, box, rod, point, wheel)"},
      {R"({"bodies":[{"name":"a"}],"restitution":1.5})", "/restitution", "must be in [0, 1], got 1.5"},
      {R"({"bodies":[{"name":"a"}],"restitution":-0.1})", "/restitution", "must be in [0, 1], got -0.1"},
      {R"({"bodies":[{"name":"a"}],"nu":0})", "/nu", "must be positive, got 0"},
      {R"({"bodies":[{"name":"a"}],"duration":-1})", "/duration", "must be in (0, 3600], got -1"},
      {R"({"bodies":[{"name":"a"}],"duration":0})", "/duration", "must be in (0, 3600], got 0"},
      {R"({"bodies":[{"name":"a"}],"duration":1e9})", "/duration", "must be in (0, 3600]"},
      {R"({"bodies":[{"name":"a"}],"integrator":{"step":0}})", "/integrator/step", "must be in [1e-06, 0.1], got 0"},
      {R"({"bodies":[{"name":"a"}],"integrator":{"step":-0.01}})", "/integrator/step", "must be in [1e-06, 0.1]"},
      {R"({"bodies":[{"name":"a"}],"integrator":{"step":0.001,"event_tolerance":0.01}})",
       "/integrator/event_tolerance", "must not exceed the step (0.001), got 0.01"},
      {R"({"bodies":[{"name":"a"}],"integrator":{"rest_speed":0}})", "/integrator/rest_speed", "must be positive"},
      {R"({"bodies":[{"name":"a"}],"integrator":[]})", "/integrator", "must be the integrator settings (a JSON object)"},
      {R"({"bodies":[{"name":"a"}],"view":{"width":0}})", "/view/width", "must be positive, got 0"},
      {R"({"bodies":[{"name":"a"}],"view":{"trails":1}})", "/view/trails", "must be true or false, got a number"},
      // Strings.
      {R"({"bodies":[{"name":"a"}],"title":5})", "/title", "must be a string, got a number"},
      {R"({"bodies":[{"name":"a"}],"title":"two\nlines"})", "/title", "must be one line"},
      {R"({"bodies":[{"name":"a"}],"title":")" + std::string(201, 'x') + "\"}", "/title",
       "is too long: 201 bytes (at most 200)"},
      {R"({"bodies":[{"name":"a"}],"description":"bell\u0007"})", "/description", "must not contain control characters"},
      {R"json({"bodies":[{"name":"a","color":"red;background:url(x)"}]})json", "/bodies/0/color", "must be a CSS colour"},
      // Names.
      {R"({"bodies":[{"mass":1}]})", "/bodies/0/name", "missing (joints and contacts refer to a body by its name)"},
      {R"({"bodies":[{"name":""}]})", "/bodies/0/name", "must not be empty"},
      {R"({"bodies":[{"name":"world"}]})", "/bodies/0/name", "\"world\" is reserved"},
      {R"({"bodies":[{"name":"a"},{"name":"b"},{"name":"a"}]})", "/bodies/2/name",
       "duplicate body name \"a\" (also /bodies/0/name)"},
      {doc_with(R"("planes":[{"name":"floor"},{"name":"floor"}])", false),
       "/planes/1/name", "duplicate plane name \"floor\" (also /planes/0/name)"},
      {R"({"bodies":[{"name":"a"}],"planes":[{}]})", "/planes/0/name", "missing"},
      // Planes and directions.
      {R"({"bodies":[{"name":"a"}],"planes":[{"name":"p","normal":[0,0]}]})", "/planes/0/normal", "must not be zero"},
      {doc_with(R"("joints":[{"type":"slider","body_b":"box","axis":[0,0]}])"), "/joints/0/axis", "must not be zero"},
      // Joints: references by name.
      {doc_with(R"("joints":[{"body_a":"bal","body_b":"box"}])"), "/joints/0/body_a",
       "unknown body \"bal\"; did you mean \"ball\"?"},
      {doc_with(R"("joints":[{"body_a":"zzzz","body_b":"box"}])"), "/joints/0/body_a",
       "unknown body \"zzzz\" (bodies: \"ball\", \"box\")"},
      {R"({"bodies":[{"name":"a"},{"name":"a"},{"name":"b"}],"joints":[{"body_a":"zzzz"}]})", "/joints/0/body_a",
       "unknown body \"zzzz\" (bodies: \"a\", \"b\")"},
      {doc_with(R"("joints":[{"body_a":0,"body_b":"box"}])"), "/joints/0/body_a",
       "must be the name of a body or \"world\", got a number"},
      {doc_with(R"("joints":[{"type":"pin"}])"), "/joints/0/body_b", "needs at least one body"},
      {doc_with(R"("joints":[{"body_a":"box","body_b":"box"}])"), "/joints/0/body_b", "two different bodies"},
      {doc_with(R"("joints":[{"type":"hinge","body_b":"box"}])"), "/joints/0/type",
       "unknown type \"hinge\" (one of pin, distance, slider, weld)"},
      {doc_with(R"("joints":[{"type":"distance","body_b":"box","length":0}])"), "/joints/0/length", "must be positive"},
      {doc_with(R"("joints":[5])"), "/joints/0", "must be a joint (a JSON object), got a number"},
      // Contacts.
      {doc_with(R"("contacts":[{"body":"ball","plane":"flor"}])"), "/contacts/0/plane",
       "unknown plane \"flor\"; did you mean \"floor\"?"},
      {doc_with(R"("contacts":[{"body":"ball"}])"), "/contacts/0/plane", "missing (the name of a plane)"},
      {doc_with(R"("contacts":[{"plane":"floor"}])"), "/contacts/0/body", "missing (the name of a body)"},
      {doc_with(R"("contacts":[{"body":"world","plane":"floor"}])"), "/contacts/0/body", "must be a body, not the world"},
      {doc_with(R"("contacts":[{"body":"ball","plane":"floor","e":1.5}])"), "/contacts/0/e", "must be in [0, 1], got 1.5"},
      {doc_with(R"("contacts":[{"body":"ball","plane":"floor","e":"NaN"}])"), "/contacts/0/e",
       "must be a finite number, got NaN"},
      {doc_with(R"("contacts":[{"body":"ball","plane":"floor","stick":"yes"}])"), "/contacts/0/stick",
       "must be true or false, got a string"},
      {doc_with(R"("contacts":[{"type":"disk_disk","body_a":"ball","body_b":"box"}])"), "/contacts/0/body_b",
       "must be a disk (a disk_disk contact joins two disks, or points as disks of radius 0); \"box\" is a box"},
      {doc_with(R"("contacts":[{"type":"disk_disk","body_a":"ball","body_b":"ball"}])"), "/contacts/0/body_b",
       "two different bodies"},
      {doc_with(R"("contacts":[{"type":"disk_disk","body_a":"ball"}])"), "/contacts/0/body_b", "missing"},
      {doc_with(R"("contacts":[{"type":"rope","length":1}])"), "/contacts/0/body_b", "needs at least one body"},
      {doc_with(R"("contacts":[{"type":"rope","body_b":"ball","length":-1}])"), "/contacts/0/length", "must be positive"},
      {doc_with(R"("contacts":[{"type":"plane","body":"ball"}])"), "/contacts/0/type",
       "unknown type \"plane\" (one of body_plane, disk_disk, rope)"},
      // Forces and impulses.
      {doc_with(R"("forces":[{"force":[1,0]}])"), "/forces/0/body", "missing (the name of a body)"},
      {doc_with(R"("forces":[{"body":"ghost"}])"), "/forces/0/body", "unknown body \"ghost\""},
      {doc_with(R"("impulses":[{"body":"ball","time":-1}])"), "/impulses/0/time", "must not be negative, got -1"},
      {doc_with(R"("impulses":[{"body":"ball","impulse":[1,"x"]}])"), "/impulses/0/impulse/1",
       "must be a number, got a string"},
  };
  for (const IssueCase& c : cases) {
    SCOPED_TRACE(c.document.substr(0, 200));
    EXPECT_TRUE(has_issue(c.document, c.pointer, c.message));
  }
}

TEST(ScenarioFormat, FrictionCoefficientPerContactWithTheDocumentsDefault) {
  // Absent everywhere: frictionless, as every old file (μ = 0); `stick` stays μ = +∞.
  const std::string contacts = R"("contacts":[{"body":"ball","plane":"floor"},{"body":"box","plane":"floor","mu":0.3},
      {"body":"ball","plane":"floor","stick":true},{"body":"box","plane":"floor","mu":null}])";
  const Scenario old = parse_scenario(parse_json(doc_with(contacts), "test"));
  EXPECT_EQ(old.mu, 0.0);
  EXPECT_FALSE(old.contacts[0].mu.has_value());
  EXPECT_EQ(old.contacts[1].mu, 0.3);
  EXPECT_FALSE(old.contacts[3].mu.has_value());
  const Model frictionless(old);
  EXPECT_EQ(frictionless.contact_points()[0].mu, 0.0);
  // The box has four corners: points 1..4 are contact 1's.
  EXPECT_EQ(frictionless.contact_points()[1].mu, 0.3);
  EXPECT_EQ(frictionless.contact_points()[4].mu, 0.3);
  EXPECT_EQ(frictionless.contact_points()[5].mu, std::numeric_limits<double>::infinity());
  EXPECT_EQ(frictionless.contact_points()[6].mu, 0.0);
  // The top-level "mu" is the default of every contact that sets none (null included).
  const Scenario rough = parse_scenario(parse_json(doc_with(R"("mu":0.5,)" + contacts), "test"));
  const Model model(rough);
  EXPECT_EQ(model.contact_points()[0].mu, 0.5);
  EXPECT_EQ(model.contact_points()[1].mu, 0.3);
  EXPECT_EQ(model.contact_points()[5].mu, std::numeric_limits<double>::infinity());
  EXPECT_EQ(model.contact_points()[6].mu, 0.5);
  expect_round_trip(rough);
  const Json written = scenario_to_json(rough);
  EXPECT_EQ(written.at("mu"), 0.5);
  EXPECT_EQ(written.at("contacts")[1].at("mu"), 0.3);
  EXPECT_TRUE(written.at("contacts")[0].at("mu").is_null());
  // Bad values name the field.
  EXPECT_TRUE(has_issue(doc_with(R"("mu":-0.1)"), "/mu", "must be in [0, 1000], got -0.1"));
  EXPECT_TRUE(has_issue(doc_with(R"("mu":"rough")"), "/mu", "must be a number"));
  EXPECT_TRUE(has_issue(doc_with(R"("contacts":[{"body":"ball","plane":"floor","mu":-1}])"), "/contacts/0/mu",
                        "must be in [0, 1000], got -1"));
  EXPECT_TRUE(has_issue(doc_with(R"("contacts":[{"body":"ball","plane":"floor","mu":1e4}])"), "/contacts/0/mu",
                        "must be in [0, 1000]"));
  EXPECT_TRUE(has_issue(doc_with(R"("contacts":[{"body":"ball","plane":"floor","stick":true,"mu":0.5}])"),
                        "/contacts/0/mu", "must be null when stick is true"));
  EXPECT_TRUE(has_issue(doc_with(R"("contacts":[{"type":"rope","body_b":"ball","mu":0.5}])"), "/contacts/0/mu",
                        "not a field of a rope contact"));
  EXPECT_TRUE(has_issue(R"({"bodies":[{"name":"b","mu":-2}]})", "/bodies/0/mu", "must be in [0, 1000], got -2"));
  EXPECT_TRUE(has_issue(R"({"bodies":[{"name":"b","mu":0.2,"stick":true}]})", "/bodies/0/mu",
                        "must be null when stick is true"));
  // The same rules for a Scenario built in C++.
  Scenario built = rough;
  built.contacts[1].mu = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(has_issue(check_scenario_values(built), "/contacts/1/mu", "must be a finite number"));
}

TEST(ScenarioFormat, PointersEscapeTildeAndSlash) {
  EXPECT_TRUE(has_issue(R"({"bodies":[{"name":"a"}],"a/b~c":1})", "/a~1b~0c", "unknown field \"a/b~c\""));
  EXPECT_TRUE(has_issue(R"({"bodies":[{"name":"a","x~":1}]})", "/bodies/0/x~0", "unknown field"));
}

TEST(ScenarioFormat, CollectsEveryIssueInDocumentOrder) {
  const auto issues = issues_of(R"({"title":7,"restitution":2,
      "bodies":[{"name":"a","mass":-1},{"name":"a","radius":1}],
      "joints":[{"body_a":"nobody"}],
      "view":{"width":-1}})");
  const std::vector<std::string> pointers = {"/title",         "/restitution",     "/bodies/0/mass",
                                             "/bodies/1/radius", "/bodies/1/name", "/joints/0/body_a",
                                             "/view/width"};
  ASSERT_EQ(issues.size(), pointers.size()) << show(issues);
  for (std::size_t i = 0; i < pointers.size(); ++i) EXPECT_EQ(issues[i].pointer, pointers[i]) << show(issues);
}

TEST(ScenarioFormat, ParseThrowsTheFirstIssueAsPointerColonMessage) {
  // Within an item, the problems of structure and types come before those of values.
  try {
    parse_scenario(parse_json(R"({"bodies":[{"name":"a","mass":-1,"angle":"NaN"}]})", "test"));
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "/bodies/0/angle: must be a finite number, got NaN");
  }
  try {
    parse_scenario(parse_json(R"({"bodies":[{"name":"a","mass":-1}]})", "test"));
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "/bodies/0/mass: must be positive, got -1");
  }
  // A problem with the whole document has no pointer to show.
  try {
    parse_scenario(Json::array());
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "a scenario must be a JSON object, got an array");
  }
}

TEST(ScenarioFormat, NullMeansDefaultForOptionalNumbers) {
  const Scenario s = parse_scenario(parse_json(doc_with(R"("nu":null,
      "joints":[{"type":"distance","body_a":"ball","body_b":"box","length":null}],
      "contacts":[{"body":"ball","plane":"floor","e":null}])"),
                                               "test"));
  EXPECT_FALSE(s.nu.has_value());
  EXPECT_FALSE(s.joints[0].length.has_value());
  EXPECT_FALSE(s.contacts[0].restitution.has_value());
  const Scenario t = parse_scenario(parse_json(doc_with(R"("nu":2.5,
      "joints":[{"type":"distance","body_a":"ball","body_b":"box","length":1.25}],
      "contacts":[{"body":"ball","plane":"floor","e":0}])"),
                                               "test"));
  EXPECT_EQ(t.nu, 2.5);
  EXPECT_EQ(t.joints[0].length, 1.25);
  EXPECT_EQ(t.contacts[0].restitution, 0.0);
}

TEST(ScenarioFormat, NormalsAndAxesAreMadeUnitOnceAndStayBitIdentical) {
  const Scenario s = parse_scenario(parse_json(doc_with(R"("planes":[{"name":"slope","normal":[3,4]},
      {"name":"tiny","normal":[1e-300,1e-300]},{"name":"huge","normal":[-1e308,1e308]}],
      "joints":[{"type":"slider","body_b":"box","axis":[0,-2]}])",
                                                        false),
                                               "test"));
  EXPECT_NEAR(s.planes[0].normal.x(), 0.6, 1e-16);
  EXPECT_NEAR(s.planes[0].normal.y(), 0.8, 1e-16);
  EXPECT_NEAR(s.planes[1].normal.norm(), 1.0, 1e-15);
  EXPECT_NEAR(s.planes[2].normal.norm(), 1.0, 1e-15);
  EXPECT_NEAR(s.planes[2].normal.x(), -std::sqrt(0.5), 1e-15);
  EXPECT_EQ(s.joints[0].axis, Vec2(0, -1));
  expect_round_trip(s);
}

TEST(ScenarioFormat, ShapeInertiaOfEachShape) {
  Shape shape;
  shape.type = Shape::Type::Disk;
  shape.radius = 0.2;
  EXPECT_DOUBLE_EQ(shape_inertia(shape, 3.0), 0.5 * 3.0 * 0.04);
  shape.type = Shape::Type::Point;
  EXPECT_DOUBLE_EQ(shape_inertia(shape, 3.0), 0.5 * 3.0 * 0.04);
  shape.type = Shape::Type::Box;
  shape.width = 0.4;
  shape.height = 0.3;
  EXPECT_DOUBLE_EQ(shape_inertia(shape, 2.0), 2.0 * (0.16 + 0.09) / 12.0);
  shape.type = Shape::Type::Rod;
  shape.length = 1.5;
  EXPECT_DOUBLE_EQ(shape_inertia(shape, 2.0), 2.0 * 2.25 / 12.0);
  shape.type = Shape::Type::Wheel;
  shape.radius = 0.5;
  EXPECT_DOUBLE_EQ(shape_inertia(shape, 3.0), 3.0 * 0.25 / 3.0);
}

// ---- round trip --------------------------------------------------------------------------------------------

TEST(ScenarioFormat, ToJsonWritesEveryFieldAndRoundTripsEveryKind) {
  // Every shape, joint and contact type, every optional set, non-default values everywhere.
  const std::string text = R"({"oblique":1,"title":"Everything","description":"Line one.\nLine two.",
      "gravity":[0.5,-3],"restitution":0.25,"nu":1.75,"duration":2.5,
      "bodies":[
        {"name":"d","shape":{"type":"disk","radius":0.3},"mass":2,"inertia":0.7,"position":[1,2],"angle":0.1,
         "velocity":[3,4],"angular_velocity":5,"color":"#123456"},
        {"name":"b","shape":{"type":"box","width":0.5,"height":0.25},"mass":3,"position":[-1,0.125]},
        {"name":"r","shape":{"type":"rod","length":2,"radius":0},"position":[0,3]},
        {"name":"p","shape":{"type":"point","radius":0.05},"position":[2,2]},
        {"name":"w","shape":{"type":"wheel","radius":0.6,"spokes":7},"position":[4,1],"color":"steelblue"},
        {"name":"d2","shape":{"type":"disk","radius":0.3},"position":[1,3]}],
      "planes":[{"name":"floor","point":[0,-1],"normal":[0,1]},{"name":"wall","point":[5,0],"normal":[-1,0]}],
      "joints":[
        {"type":"pin","name":"j0","body_a":"world","anchor_a":[0,3.5],"body_b":"r","anchor_b":[0,0.5]},
        {"type":"distance","name":"j1","body_a":"d","anchor_a":[0.1,0],"body_b":"b","anchor_b":[0,0.1],"length":2.5},
        {"type":"slider","name":"j2","body_a":"world","body_b":"p","axis":[0,1]},
        {"type":"weld","name":"j3","body_a":"b","anchor_a":[0.25,0],"body_b":"w","anchor_b":[-0.6,0]}],
      "contacts":[
        {"type":"body_plane","name":"c0","body":"w","plane":"floor","e":0,"stick":true},
        {"type":"disk_disk","name":"c1","body_a":"d","body_b":"d2","e":0.9,"stick":false},
        {"type":"rope","name":"c2","body_a":"world","anchor_a":[0,5],"body_b":"d","anchor_b":[0,0.3],"length":4,"e":0.1},
        {"body":"b","plane":"wall"}],
      "forces":[{"body":"d","force":[1,2],"torque":0.5}],
      "impulses":[{"time":0.5,"body":"b","impulse":[0,3],"angular":0.25}],
      "integrator":{"step":0.002,"event_tolerance":1e-9,"rest_speed":0.01,"projection_tolerance":1e-10},
      "view":{"center":[1,1],"width":9,"trails":true}})";
  const auto issues = issues_of(text);
  ASSERT_TRUE(issues.empty()) << show(issues);
  const Scenario s = parse_scenario(parse_json(text, "test"));
  expect_round_trip(s);

  // Every top-level key is written, defaults included, in the documented order.
  const Json written = scenario_to_json(parse_scenario(parse_json(R"({"bodies":[{"name":"b"}]})", "test")));
  std::vector<std::string> keys;
  for (auto it = written.begin(); it != written.end(); ++it) keys.push_back(it.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"oblique", "title", "description", "gravity", "restitution", "mu", "nu",
                                            "duration", "collide", "bodies", "planes", "joints", "contacts",
                                            "forces", "impulses", "integrator", "view"}));
  EXPECT_TRUE(written.at("nu").is_null());
  EXPECT_TRUE(written.at("bodies")[0].at("inertia").is_null());
  EXPECT_EQ(written.at("bodies")[0].at("shape"), Json::parse(R"({"type":"disk","radius":0.1})"));
  EXPECT_EQ(written.at("integrator").at("step"), 1e-3);
  // References are written by name; the world as "world".
  const Json everything = scenario_to_json(s);
  EXPECT_EQ(everything["joints"][0]["body_a"], "world");
  EXPECT_EQ(everything["joints"][0]["body_b"], "r");
  EXPECT_EQ(everything["contacts"][0]["plane"], "floor");
  EXPECT_EQ(everything["contacts"][3]["type"], "body_plane");
  EXPECT_EQ(everything["forces"][0]["body"], "d");
  // Only the keys of each type: a rope has no stick, a pin no length.
  EXPECT_FALSE(everything["contacts"][2].contains("stick"));
  EXPECT_FALSE(everything["joints"][0].contains("length"));
  EXPECT_TRUE(everything["joints"][1].contains("length"));
  EXPECT_FALSE(everything["bodies"][0]["shape"].contains("width"));
}

// ---- limits --------------------------------------------------------------------------------------------------

/// A document with bodies b0..b{bodies-1}, a plane "floor" (unless `key` is "planes") and `n` items in the
/// list `key`, each built by `item(i)`.
std::string doc_with_items(const std::string& key, int n, const std::function<std::string(int)>& item, int bodies = 2) {
  std::string text = R"({"bodies":[)";
  for (int i = 0; i < bodies; ++i) {
    text += std::string(i ? "," : "") + R"({"name":"b)" + std::to_string(i) + R"(","position":[0,1]})";
  }
  text += "]";
  if (key != "planes") text += R"(,"planes":[{"name":"floor"}])";
  if (key != "bodies") {
    text += ",\"" + key + "\":[";
    for (int i = 0; i < n; ++i) text += (i ? "," : "") + item(i);
    text += "]";
  }
  return text + "}";
}

TEST(ScenarioLimits, AtTheLimitIsValidAndOneMoreIsAnIssueAtTheList) {
  struct Limit {
    std::string key;
    int max;
    std::function<std::string(int)> item;
  };
  const std::vector<Limit> limits = {
      {"planes", kMaxPlanes, [](int i) { return R"({"name":"p)" + std::to_string(i) + "\"}"; }},
      {"joints", kMaxJoints, [](int) { return std::string(R"({"body_b":"b0"})"); }},
      {"contacts", kMaxContacts, [](int) { return std::string(R"({"body":"b0","plane":"floor"})"); }},
      {"forces", kMaxForces, [](int) { return std::string(R"({"body":"b1"})"); }},
      {"impulses", kMaxImpulses, [](int) { return std::string(R"({"body":"b1"})"); }},
  };
  for (const Limit& limit : limits) {
    SCOPED_TRACE(limit.key);
    const auto at_limit = issues_of(doc_with_items(limit.key, limit.max, limit.item));
    EXPECT_TRUE(at_limit.empty()) << show(at_limit);
    const auto over = issues_of(doc_with_items(limit.key, limit.max + 1, limit.item));
    ASSERT_EQ(over.size(), 1u) << show(over);
    EXPECT_EQ(over[0].pointer, "/" + limit.key);
    EXPECT_EQ(over[0].message, "too many " + limit.key + ": " + std::to_string(limit.max + 1) + " (at most " +
                                   std::to_string(limit.max) + ")");
  }
  // Bodies: 64 fine, 65 too many.
  EXPECT_TRUE(issues_of(doc_with_items("bodies", 0, nullptr, kMaxBodies)).empty());
  EXPECT_TRUE(has_issue(doc_with_items("bodies", 0, nullptr, kMaxBodies + 1), "/bodies", "too many bodies: 257 (at most 256)"));
}

TEST(ScenarioLimits, IssuesStopAfterTheLimitWithANote) {
  std::string text = R"({"bodies":[{"name":"a"}])";
  for (int i = 0; i < 1000; ++i) text += ",\"junk" + std::to_string(i) + "\":0";
  text += "}";
  const auto issues = issues_of(text);
  ASSERT_EQ(issues.size(), static_cast<std::size_t>(kMaxIssues) + 1);
  EXPECT_EQ(issues.back().pointer, "");
  EXPECT_NE(issues.back().message.find("more issues not listed"), std::string::npos);
}

// ---- hostile documents ------------------------------------------------------------------------------------

/// Seconds of this process's CPU time since `start` (std::clock): what the work itself took, whatever else
/// runs on the machine. The bounds below are guards against a checker of quadratic cost (hours on these
/// documents), far above what a linear one takes, not speed targets.
double hostile_cpu_seconds_since(std::clock_t start) {
  return static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
}

/// check_scenario on `document` finishes in bounded work, with a bounded number of short single-line
/// issues, and parse_scenario agrees with it.
void expect_handled(const Json& document, const std::string& what) {
  SCOPED_TRACE(what);
  const std::clock_t start = std::clock();
  std::vector<ScenarioIssue> issues;
  ASSERT_NO_THROW(issues = check_scenario(document));
  EXPECT_LT(hostile_cpu_seconds_since(start), 2.0);
  EXPECT_LE(issues.size(), static_cast<std::size_t>(kMaxIssues) + 1);
  for (const auto& issue : issues) {
    EXPECT_TRUE(single_line(issue.message)) << issue.message;
    EXPECT_TRUE(single_line(issue.pointer)) << issue.pointer;
    EXPECT_LE(issue.message.size(), 400u) << issue.message.substr(0, 400);
    EXPECT_LE(issue.pointer.size(), 200u);
  }
  if (issues.empty()) {
    EXPECT_NO_THROW(expect_round_trip(parse_scenario(document)));
  } else {
    EXPECT_THROW(parse_scenario(document), std::invalid_argument);
  }
}

TEST(ScenarioHostile, DeepNestingHugeArraysAndHugeStrings) {
  // Nesting at the limit of parse_json, as a body, as the value of an unknown key and as a shape (the
  // checker never descends into a value it does not expect). Deeper documents are not parsed at all
  // (test_json_io.cpp).
  const std::size_t depth = kMaxJsonDepth - 3;
  const std::string deep = std::string(depth, '[') + std::string(depth, ']');
  expect_handled(parse_json(R"({"bodies":[)" + deep + "]}", "deep"), "deep body");
  expect_handled(parse_json(R"({"bodies":[{"name":"a"}],"x":)" + deep + "}", "deep"), "deep unknown key");
  expect_handled(parse_json(R"({"bodies":[{"name":"a","shape":)" + deep + "}]}", "deep"), "deep shape");

  // A million bodies: reported as too many, only the first kMaxBodies read.
  Json many = Json::object();
  many["bodies"] = Json::array();
  for (int i = 0; i < 1000000; ++i) many["bodies"].push_back(i);
  expect_handled(many, "a million bodies");
  EXPECT_EQ(check_scenario(many)[0].message, "too many bodies: 1000000 (at most 256)");

  // A 10 MB string everywhere a string goes, and as a key.
  const std::string huge(10u << 20, 'x');
  Json doc = Json::parse(R"({"bodies":[{"name":"a"}],"planes":[{"name":"p"}]})");
  doc["title"] = huge;
  doc["description"] = huge;
  doc["bodies"][0]["color"] = huge;
  doc["bodies"].push_back({{"name", huge}});
  doc["joints"] = Json::array({{{"body_a", huge}}});
  doc["contacts"] = Json::array({{{"body", "a"}, {"plane", huge}}, {{"type", huge}}});
  doc[huge] = 1;
  expect_handled(doc, "10 MB strings");
  const auto issues = check_scenario(doc);
  EXPECT_TRUE(has_issue(issues, "/title", "is too long: 10485760 bytes (at most 200)"));
  EXPECT_TRUE(has_issue(issues, "/bodies/1/name", "is too long"));
  EXPECT_TRUE(has_issue(issues, "/contacts/0/plane", "unknown plane \"xxxx"));
  // The huge unknown key is reported at the document, with its name cut short.
  bool key_reported = false;
  for (const auto& issue : issues) {
    if (issue.pointer.empty() && issue.message.find("unknown field \"xxxx") != std::string::npos) key_reported = true;
  }
  EXPECT_TRUE(key_reported) << show(issues);

  // Control characters in a key: reported at the object, the message escapes them.
  const Json control = parse_json("{\"bodies\":[{\"name\":\"a\",\"ma\\nss\\u0000\":1}]}", "control");
  expect_handled(control, "control characters");
  EXPECT_TRUE(has_issue(check_scenario(control), "/bodies/0", "unknown field \"ma\\nss\\u0000\""));

  // Deeply nested objects, and an object with more keys than parse_json reads (ordered_json inserts in
  // linear time: a million keys would take minutes).
  std::string nested;
  for (std::size_t i = 0; i < depth; ++i) nested += "{\"a\":";
  nested += "1" + std::string(depth, '}');
  expect_handled(parse_json(R"({"bodies":[{"name":"a"}],"x":)" + nested + "}", "nested"), "nested objects");
  std::string wide = R"({"bodies":[{"name":"a"}])";
  for (std::size_t i = 0; i < kMaxObjectKeys; ++i) wide += ",\"k" + std::to_string(i) + "\":0";
  const std::clock_t start = std::clock();
  try {
    parse_json(wide + "}", "wide");
    ADD_FAILURE() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "wide: an object has more than 10000 keys");
  }
  EXPECT_LT(hostile_cpu_seconds_since(start), 5.0);

  // Invalid UTF-8 can only come from a Json built in C++; it is an issue, not a throw when written back.
  Json bad_text = Json::parse(R"({"bodies":[{"name":"a"}]})");
  bad_text["title"] = std::string("caf\xC3", 4);
  bad_text["bodies"][0]["name"] = std::string("\xFF");
  expect_handled(bad_text, "invalid UTF-8");
  EXPECT_TRUE(has_issue(check_scenario(bad_text), "/title", "must be valid UTF-8 text"));
  EXPECT_TRUE(has_issue(check_scenario(bad_text), "/bodies/0/name", "must be valid UTF-8 text"));

  // Numbers too large for a double are malformed JSON, not a crash.
  EXPECT_THROW(parse_json(R"({"bodies":[{"name":"a","mass":1e400}]})", "big"), std::invalid_argument);
}

/// Pointers to every value of `node` below `at` (not the root itself).
void collect_pointers(const Json& node, const Json::json_pointer& at, std::vector<Json::json_pointer>& out) {
  if (node.is_object()) {
    for (auto it = node.begin(); it != node.end(); ++it) {
      out.push_back(at / it.key());
      collect_pointers(it.value(), at / it.key(), out);
    }
  } else if (node.is_array()) {
    for (std::size_t i = 0; i < node.size(); ++i) {
      out.push_back(at / i);
      collect_pointers(node[i], at / i, out);
    }
  }
}

TEST(ScenarioHostile, WrongTypesEverywhere) {
  // Each value of a full document replaced, one at a time, by each kind of wrong value; then every leaf at once.
  const Json base = read_json(kScenarioDir + "four-bar.json");
  std::vector<Json::json_pointer> pointers;
  collect_pointers(base, Json::json_pointer(), pointers);
  ASSERT_GT(pointers.size(), 100u);
  const std::vector<Json> wrong = {nullptr, true, -1, 0, 1e300, "NaN", "Infinity", "text", "world", Json::array(),
                                   Json::object(), Json::parse("[1,2,3]"), Json::parse(R"({"type":"rod"})")};
  for (const Json& value : wrong) {
    int rejected = 0;
    for (const auto& pointer : pointers) {
      Json doc = base;
      doc[pointer] = value;
      expect_handled(doc, pointer.to_string() + " = " + value.dump());
      rejected += !check_scenario(doc).empty();
    }
    EXPECT_GT(rejected, static_cast<int>(pointers.size()) / 2) << value.dump();
    Json all = base;
    for (const auto& pointer : pointers) {
      if (!all.contains(pointer)) continue;
      if (!all[pointer].is_object() && !all[pointer].is_array()) all[pointer] = value;
    }
    expect_handled(all, "every leaf = " + value.dump());
    EXPECT_FALSE(check_scenario(all).empty());
  }
  expect_handled(Json("a string"), "a string");
  expect_handled(Json(42), "a number");
  expect_handled(Json(nullptr), "null");
}

TEST(ScenarioHostile, RandomMutationsOfEveryBuiltInNeverCrashAndCheckAgreesWithParse) {
  // A fixed-seed fuzzer: replace a random node of a built-in scenario by a random value, many times over.
  std::mt19937 rng(20240229);
  const std::vector<Json> pool = {nullptr, true, false, 0, -1, 0.5, 2, 1e-12, 1e300, "NaN", "-Infinity", "", "x",
                                  "world", "floor", "ball", "disk", "rope", Json::array(), Json::object(),
                                  Json::parse("[0,0]"), Json::parse("[1,2,3]"), Json::parse(R"({"type":"wheel"})"),
                                  Json::parse(R"({"name":"ball"})")};
  int valid = 0, invalid = 0;
  for (const std::string& id : built_in_ids()) {
    const Json base = read_json(kScenarioDir + id + ".json");
    for (int trial = 0; trial < 150; ++trial) {
      Json doc = base;
      for (int edits = 1 + static_cast<int>(rng() % 3); edits > 0; --edits) {
        Json* node = &doc;
        while ((node->is_object() || node->is_array()) && !node->empty() && rng() % 4 != 0) {
          auto it = node->begin();
          std::advance(it, static_cast<long>(rng() % node->size()));
          node = &*it;
        }
        if (rng() % 5 == 0 && node->is_object()) {
          (*node)["extra" + std::to_string(rng() % 3)] = pool[rng() % pool.size()];
        } else {
          *node = pool[rng() % pool.size()];
        }
      }
      const auto issues = check_scenario(doc);
      (issues.empty() ? valid : invalid)++;
      expect_handled(doc, id + " mutation " + std::to_string(trial));
      if (::testing::Test::HasFailure()) return;
    }
  }
  EXPECT_GT(invalid, 0);
  EXPECT_GT(valid, 0);  // some mutations keep the document valid: then it must round-trip
}

// ---- the built-in scenarios -------------------------------------------------------------------------------

TEST(BuiltInScenarios, IndexListsEveryFileOnceInKebabCase) {
  const Json index = read_json(kScenarioDir + "index.json");
  const std::vector<std::string> ids = built_in_ids();
  EXPECT_GE(ids.size(), 13u);
  std::set<std::string> seen;
  for (const Json& entry : index.at("scenarios")) {
    const std::string id = entry.at("id");
    EXPECT_TRUE(seen.insert(id).second) << "listed twice: " << id;
    for (char c : id) EXPECT_TRUE((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-') << id;
    EXPECT_NE(id.front(), '-');
    EXPECT_EQ(entry.at("file"), id + ".json");
    const Json doc = read_json(kScenarioDir + id + ".json");
    EXPECT_EQ(entry.at("title"), doc.at("title")) << id;
  }
  // Every scenario file in the folder is listed.
  for (const std::string& expected :
       {"bouncing-ball", "two-balls", "newtons-cradle", "newtons-cradle-gaps", "falling-rod", "box-corner",
        "box-flat", "double-pendulum", "rimless-wheel", "four-bar", "slider-crank", "chamfered-corner",
        "billiards-break"}) {
    EXPECT_EQ(seen.count(expected), 1u) << expected;
  }
}

TEST(BuiltInScenarios, EachIsValidTitledDescribedFramedAndRoundTrips) {
  for (const std::string& id : built_in_ids()) {
    SCOPED_TRACE(id);
    const Json doc = read_json(kScenarioDir + id + ".json");
    const auto issues = check_scenario(doc);
    ASSERT_TRUE(issues.empty()) << show(issues);
    EXPECT_EQ(doc.at("oblique"), 1);
    EXPECT_TRUE(doc.contains("view")) << "sets no view";
    const Scenario s = parse_scenario(doc);
    EXPECT_FALSE(s.title.empty());
    EXPECT_GT(s.description.size(), 80u);
    expect_round_trip(s);
  }
}

/// World position and velocity of a point fixed at `local` in `body` (or a world point for kWorld).
struct PointState {
  Vec2 position;
  Vec2 velocity;
};
PointState point_state(const Scenario& s, int body, const Vec2& local) {
  if (body == kWorld) return {local, Vec2::Zero()};
  const BodyDef& b = s.bodies[static_cast<std::size_t>(body)];
  const Vec2 arm = Eigen::Rotation2Dd(b.angle) * local;
  return {b.position + arm, b.velocity + b.angular_velocity * Vec2(-arm.y(), arm.x())};
}

/// Contact features of a body against a plane: centres in the body frame and their radius.
std::vector<std::pair<Vec2, double>> plane_features(const Shape& shape) {
  std::vector<std::pair<Vec2, double>> out;
  switch (shape.type) {
    case Shape::Type::Disk:
      out.push_back({Vec2::Zero(), shape.radius});
      break;
    case Shape::Type::Point:
      out.push_back({Vec2::Zero(), 0.0});
      break;
    case Shape::Type::Box:
      for (double sx : {-0.5, 0.5}) {
        for (double sy : {-0.5, 0.5}) out.push_back({Vec2(sx * shape.width, sy * shape.height), 0.0});
      }
      break;
    case Shape::Type::Rod:
      out.push_back({Vec2(-0.5 * shape.length, 0), shape.radius});
      out.push_back({Vec2(0.5 * shape.length, 0), shape.radius});
      break;
    case Shape::Type::Wheel:
      for (int j = 0; j < shape.spokes; ++j) {
        const double a = 2.0 * kPi * j / shape.spokes;
        out.push_back({shape.radius * Vec2(std::cos(a), std::sin(a)), 0.0});
      }
      break;
  }
  return out;
}

TEST(BuiltInScenarios, NothingStartsPenetratingAndEveryJointStartsSatisfied) {
  for (const std::string& id : built_in_ids()) {
    SCOPED_TRACE(id);
    const Scenario s = parse_scenario(read_json(kScenarioDir + id + ".json"));
    // Contacts: every gap ≥ 0 at t = 0 (touching is allowed, overlap is not).
    for (std::size_t c = 0; c < s.contacts.size(); ++c) {
      const ContactDef& contact = s.contacts[c];
      SCOPED_TRACE("contact " + std::to_string(c));
      switch (contact.type) {
        case ContactDef::Type::BodyPlane: {
          const PlaneDef& plane = s.planes[static_cast<std::size_t>(contact.plane)];
          const BodyDef& body = s.bodies[static_cast<std::size_t>(contact.body_a)];
          for (const auto& [local, radius] : plane_features(body.shape)) {
            const Vec2 p = point_state(s, contact.body_a, local).position;
            EXPECT_GE(plane.normal.dot(p - plane.point) - radius, 0.0) << body.name << " in " << plane.name;
          }
          break;
        }
        case ContactDef::Type::DiskDisk: {
          const BodyDef& a = s.bodies[static_cast<std::size_t>(contact.body_a)];
          const BodyDef& b = s.bodies[static_cast<std::size_t>(contact.body_b)];
          EXPECT_GE((b.position - a.position).norm() - a.shape.radius - b.shape.radius, 0.0) << a.name << "–" << b.name;
          break;
        }
        case ContactDef::Type::Rope: {
          const Vec2 pa = point_state(s, contact.body_a, contact.anchor_a).position;
          const Vec2 pb = point_state(s, contact.body_b, contact.anchor_b).position;
          EXPECT_GE(contact.length - (pb - pa).norm(), 0.0);
          break;
        }
      }
    }
    // Joints: positions and velocities consistent.
    for (std::size_t j = 0; j < s.joints.size(); ++j) {
      const JointDef& joint = s.joints[j];
      SCOPED_TRACE("joint " + std::to_string(j));
      const PointState a = point_state(s, joint.body_a, joint.anchor_a);
      const PointState b = point_state(s, joint.body_b, joint.anchor_b);
      const double angle_a = joint.body_a == kWorld ? 0.0 : s.bodies[static_cast<std::size_t>(joint.body_a)].angle;
      const double omega_a =
          joint.body_a == kWorld ? 0.0 : s.bodies[static_cast<std::size_t>(joint.body_a)].angular_velocity;
      const double omega_b =
          joint.body_b == kWorld ? 0.0 : s.bodies[static_cast<std::size_t>(joint.body_b)].angular_velocity;
      switch (joint.type) {
        case JointDef::Type::Pin:
        case JointDef::Type::Weld:
          EXPECT_LT((b.position - a.position).norm(), 1e-12);
          EXPECT_LT((b.velocity - a.velocity).norm(), 1e-12);
          if (joint.type == JointDef::Type::Weld) EXPECT_EQ(omega_a, omega_b);
          break;
        case JointDef::Type::Distance:
          if (joint.length) EXPECT_NEAR((b.position - a.position).norm(), *joint.length, 1e-12);
          EXPECT_NEAR((b.position - a.position).dot(b.velocity - a.velocity), 0.0, 1e-12);
          break;
        case JointDef::Type::Slider: {
          const Vec2 axis = Eigen::Rotation2Dd(angle_a) * joint.axis;
          const Vec2 across(-axis.y(), axis.x());
          EXPECT_NEAR(across.dot(b.position - a.position), 0.0, 1e-12);
          EXPECT_NEAR(omega_a, omega_b, 1e-12);
          // Velocity across the axis (the rotating-axis term vanishes when ω_a = ω_b = 0).
          EXPECT_NEAR(across.dot(b.velocity - a.velocity), 0.0, 1e-12);
          break;
        }
      }
    }
  }
}

TEST(BuiltInScenarios, SpecificSetUpsAreExact) {
  // Bouncing ball: bottom exactly 1 m above the floor, e = 0.8, g = 9.81.
  const Scenario ball = parse_scenario(read_json(kScenarioDir + "bouncing-ball.json"));
  EXPECT_EQ(ball.bodies[0].position.y() - ball.bodies[0].shape.radius, 1.0);
  EXPECT_EQ(ball.contacts[0].restitution.value_or(ball.restitution), 0.8);
  EXPECT_EQ(ball.gravity, Vec2(0, -9.81));
  // Newton's cradle: five disks, e = 1, no gravity, the four targets touching exactly; gaps of 1 µm.
  for (const auto& [id, gap] : {std::pair<std::string, double>{"newtons-cradle", 0.0}, {"newtons-cradle-gaps", 1e-6}}) {
    SCOPED_TRACE(id);
    const Scenario s = parse_scenario(read_json(kScenarioDir + id + ".json"));
    ASSERT_EQ(s.bodies.size(), 5u);
    EXPECT_EQ(s.gravity, Vec2::Zero());
    EXPECT_EQ(s.restitution, 1.0);
    for (std::size_t i = 2; i < 5; ++i) {
      const double g = (s.bodies[i].position - s.bodies[i - 1].position).norm() - 2 * s.bodies[i].shape.radius;
      EXPECT_NEAR(g, gap, 1e-15);
      if (gap == 0.0) EXPECT_EQ(g, 0.0);
    }
    EXPECT_GT(s.bodies[0].velocity.x(), 0.0);  // the striker approaches
  }
  // Falling rod: 30° from the horizontal.
  const Scenario rod = parse_scenario(read_json(kScenarioDir + "falling-rod.json"));
  EXPECT_NEAR(rod.bodies[0].angle, kPi / 6, 1e-15);
  // Rimless wheel: sticking plastic contacts.
  const Scenario wheel = parse_scenario(read_json(kScenarioDir + "rimless-wheel.json"));
  EXPECT_EQ(wheel.bodies[0].shape.type, Shape::Type::Wheel);
  EXPECT_TRUE(wheel.contacts[0].stick);
  EXPECT_EQ(wheel.contacts[0].restitution, 0.0);
  // Billiards: no gravity, 6–10 disks, unequal restitution coefficients.
  const Scenario billiards = parse_scenario(read_json(kScenarioDir + "billiards-break.json"));
  EXPECT_EQ(billiards.gravity, Vec2::Zero());
  EXPECT_GE(billiards.bodies.size(), 6u);
  EXPECT_LE(billiards.bodies.size(), 10u);
  std::set<double> coefficients;
  for (const ContactDef& c : billiards.contacts) coefficients.insert(c.restitution.value_or(billiards.restitution));
  EXPECT_GE(coefficients.size(), 3u);
}

// ---- the JSON Schema ---------------------------------------------------------------------------------------

std::set<std::string> key_set(const Json& object) {
  std::set<std::string> keys;
  for (auto it = object.begin(); it != object.end(); ++it) keys.insert(it.key());
  return keys;
}

class ScenarioSchema : public ::testing::Test {
 protected:
  void SetUp() override {
    schema_ = read_json(kScenarioDir + "scenario.schema.json");
    // One scenario with every shape, joint and contact type, written back with every field.
    const Scenario s = parse_scenario(parse_json(R"({"bodies":[
        {"name":"disk","position":[0,1]},{"name":"disk2"},{"name":"box","shape":{"type":"box"},"position":[1,0]},
        {"name":"rod","shape":{"type":"rod"}},
        {"name":"point","shape":{"type":"point"}},{"name":"wheel","shape":{"type":"wheel"},"position":[3,1]}],
      "planes":[{"name":"floor"}],
      "joints":[{"type":"pin","body_b":"disk"},{"type":"distance","body_b":"box"},{"type":"slider","body_b":"rod"},
                {"type":"weld","body_b":"point"}],
      "contacts":[{"type":"body_plane","body":"wheel","plane":"floor"},
                  {"type":"disk_disk","body_a":"disk","body_b":"disk2"},{"type":"rope","body_b":"disk"}],
      "forces":[{"body":"disk"}],"impulses":[{"body":"disk"}]})",
                                                 "test"));
    written_ = scenario_to_json(s);
  }
  const Json& def(const std::string& name) const { return schema_.at("$defs").at(name); }
  Json schema_;
  Json written_;
};

TEST_F(ScenarioSchema, IsDraft2020WithClosedObjects) {
  EXPECT_EQ(schema_.at("$schema"), "https://json-schema.org/draft/2020-12/schema");
  EXPECT_EQ(schema_.at("additionalProperties"), false);
  for (auto it = schema_.at("$defs").begin(); it != schema_.at("$defs").end(); ++it) {
    if (it->contains("properties")) EXPECT_EQ(it->at("additionalProperties"), false) << it.key();
  }
}

TEST_F(ScenarioSchema, PropertiesAreExactlyTheKeysTheCodeWrites) {
  EXPECT_EQ(key_set(schema_.at("properties")), key_set(written_));
  EXPECT_EQ(key_set(def("body").at("properties")), key_set(written_["bodies"][0]));
  EXPECT_EQ(key_set(def("plane").at("properties")), key_set(written_["planes"][0]));
  EXPECT_EQ(key_set(def("force").at("properties")), key_set(written_["forces"][0]));
  EXPECT_EQ(key_set(def("impulse").at("properties")), key_set(written_["impulses"][0]));
  EXPECT_EQ(key_set(def("integrator").at("properties")), key_set(written_["integrator"]));
  EXPECT_EQ(key_set(def("view").at("properties")), key_set(written_["view"]));
  // One definition per type, named <kind>_<type>, with exactly that type's keys.
  int shapes = 0, joints = 0, contacts = 0;
  for (const Json& body : written_["bodies"]) {
    const std::string type = body["shape"]["type"];
    EXPECT_EQ(key_set(def("shape_" + type).at("properties")), key_set(body["shape"])) << type;
    EXPECT_EQ(def("shape_" + type).at("properties").at("type").at("const"), type);
    ++shapes;
  }
  for (const Json& joint : written_["joints"]) {
    const std::string type = joint["type"];
    EXPECT_EQ(key_set(def("joint_" + type).at("properties")), key_set(joint)) << type;
    ++joints;
  }
  for (const Json& contact : written_["contacts"]) {
    const std::string type = contact["type"];
    EXPECT_EQ(key_set(def("contact_" + type).at("properties")), key_set(contact)) << type;
    ++contacts;
  }
  // Every type is covered, and the schema has no type the code does not know.
  EXPECT_EQ(def("shape").at("oneOf").size(), 5u);
  EXPECT_EQ(def("joint").at("oneOf").size(), 4u);
  EXPECT_EQ(def("contact").at("oneOf").size(), 3u);
  EXPECT_EQ(shapes, 6);  // two disks
  EXPECT_EQ(joints, 4);
  EXPECT_EQ(contacts, 3);
}

TEST_F(ScenarioSchema, DefaultsAreTheDefaultsOfTheCode) {
  // The document of a scenario with one bare body, every default written.
  const Json defaults = scenario_to_json(parse_scenario(parse_json(R"({"bodies":[{"name":"b"}]})", "test")));
  for (auto it = schema_.at("properties").begin(); it != schema_.at("properties").end(); ++it) {
    if (it.key() == "bodies") continue;  // required, no default
    ASSERT_TRUE(it->contains("default")) << it.key();
    EXPECT_EQ(it->at("default"), defaults.at(it.key())) << it.key();
  }
  const Json& body = defaults["bodies"][0];
  for (auto it = def("body").at("properties").begin(); it != def("body").at("properties").end(); ++it) {
    if (it.key() == "name") continue;
    EXPECT_EQ(it->at("default"), body.at(it.key())) << "body " << it.key();
  }
  // Shapes, joints, contacts of each type with nothing but their type set.
  const Json typed = scenario_to_json(parse_scenario(parse_json(R"({"bodies":[{"name":"b","position":[0,1]},
      {"name":"bx","shape":{"type":"box"}},{"name":"r","shape":{"type":"rod"}},{"name":"p","shape":{"type":"point"}},
      {"name":"w","shape":{"type":"wheel"}}],"planes":[{"name":"f"}],
      "joints":[{"body_b":"b"},{"type":"distance","body_b":"b"},{"type":"slider","body_b":"b"},{"type":"weld","body_b":"b"}],
      "contacts":[{"body":"b","plane":"f"},{"type":"rope","body_b":"b"}],
      "forces":[{"body":"b"}],"impulses":[{"body":"b"}]})",
                                                                "test")));
  const auto expect_defaults = [&](const std::string& definition, const Json& written,
                                   const std::set<std::string>& skip) {
    for (auto it = def(definition).at("properties").begin(); it != def(definition).at("properties").end(); ++it) {
      if (skip.count(it.key())) continue;
      ASSERT_TRUE(it->contains("default")) << definition << " " << it.key();
      EXPECT_EQ(it->at("default"), written.at(it.key())) << definition << " " << it.key();
    }
  };
  for (const Json& b : typed["bodies"]) expect_defaults("shape_" + b["shape"]["type"].get<std::string>(), b["shape"], {"type"});
  for (const Json& j : typed["joints"]) {
    expect_defaults("joint_" + j["type"].get<std::string>(), j, {"type", "body_b"});
  }
  expect_defaults("contact_body_plane", typed["contacts"][0], {"type", "body", "plane"});
  expect_defaults("contact_rope", typed["contacts"][1], {"type", "body_b"});
  expect_defaults("force", typed["forces"][0], {"body"});
  expect_defaults("impulse", typed["impulses"][0], {"body"});
  expect_defaults("integrator", defaults["integrator"], {});
  expect_defaults("view", defaults["view"], {});
  expect_defaults("plane", typed["planes"][0], {"name"});
}

TEST_F(ScenarioSchema, LimitsMatchTheCode) {
  EXPECT_EQ(schema_.at("properties").at("bodies").at("maxItems"), kMaxBodies);
  EXPECT_EQ(schema_.at("properties").at("planes").at("maxItems"), kMaxPlanes);
  EXPECT_EQ(schema_.at("properties").at("joints").at("maxItems"), kMaxJoints);
  EXPECT_EQ(schema_.at("properties").at("contacts").at("maxItems"), kMaxContacts);
  EXPECT_EQ(schema_.at("properties").at("forces").at("maxItems"), kMaxForces);
  EXPECT_EQ(schema_.at("properties").at("impulses").at("maxItems"), kMaxImpulses);
  EXPECT_EQ(schema_.at("properties").at("duration").at("maximum"), kMaxDuration);
  EXPECT_EQ(schema_.at("properties").at("mu").at("maximum"), kMaxFrictionCoefficient);
  EXPECT_EQ(def("body").at("properties").at("mu").at("maximum"), kMaxFrictionCoefficient);
  EXPECT_EQ(schema_.at("properties").at("title").at("maxLength"), kMaxTitleLength);
  EXPECT_EQ(schema_.at("properties").at("description").at("maxLength"), kMaxDescriptionLength);
  EXPECT_EQ(def("body").at("properties").at("name").at("maxLength"), kMaxNameLength);
  EXPECT_EQ(def("body").at("properties").at("color").at("maxLength"), kMaxColorLength);
  EXPECT_EQ(def("integrator").at("properties").at("step").at("minimum"), kMinStep);
  EXPECT_EQ(def("integrator").at("properties").at("step").at("maximum"), kMaxStep);
  EXPECT_EQ(def("shape_wheel").at("properties").at("spokes").at("minimum"), kMinSpokes);
  EXPECT_EQ(def("shape_wheel").at("properties").at("spokes").at("maximum"), kMaxSpokes);
}

TEST_F(ScenarioSchema, MagnitudeBoundsMatchTheCode) {
  const Json& body = def("body").at("properties");
  EXPECT_EQ(body.at("mass").at("minimum"), kMinMass);
  EXPECT_EQ(body.at("mass").at("maximum"), kMaxMass);
  EXPECT_EQ(body.at("inertia").at("minimum"), kMinInertia);
  EXPECT_EQ(body.at("inertia").at("maximum"), kMaxInertia);
  EXPECT_EQ(body.at("angle").at("maximum"), kMaxAngle);
  EXPECT_EQ(body.at("angle").at("minimum"), -kMaxAngle);
  EXPECT_EQ(body.at("angular_velocity").at("maximum"), kMaxAngularSpeed);
  EXPECT_EQ(body.at("angular_velocity").at("minimum"), -kMaxAngularSpeed);
  // Sizes and lengths.
  EXPECT_EQ(def("size").at("minimum"), kMinLength);
  EXPECT_EQ(def("size").at("maximum"), kMaxLength);
  for (const char* shape : {"shape_disk", "shape_point", "shape_wheel"}) {
    EXPECT_EQ(def(shape).at("properties").at("radius").at("$ref"), "#/$defs/size") << shape;
  }
  EXPECT_EQ(def("shape_box").at("properties").at("width").at("$ref"), "#/$defs/size");
  EXPECT_EQ(def("shape_box").at("properties").at("height").at("$ref"), "#/$defs/size");
  EXPECT_EQ(def("shape_rod").at("properties").at("length").at("$ref"), "#/$defs/size");
  EXPECT_EQ(def("shape_rod").at("properties").at("radius").at("maximum"), kMaxLength);
  EXPECT_EQ(def("contact_rope").at("properties").at("length").at("$ref"), "#/$defs/size");
  EXPECT_EQ(def("joint_distance").at("properties").at("length").at("minimum"), kMinLength);
  EXPECT_EQ(def("joint_distance").at("properties").at("length").at("maximum"), kMaxLength);
  // Vectors: each component within its bound.
  const auto expect_components = [&](const std::string& name, double max) {
    for (const Json& item : def(name).at("prefixItems")) {
      EXPECT_EQ(item.at("minimum"), -max) << name;
      EXPECT_EQ(item.at("maximum"), max) << name;
    }
  };
  expect_components("coordinates", kMaxCoordinate);
  expect_components("velocity", kMaxSpeed);
  expect_components("gravity", kMaxGravity);
  expect_components("force_vector", kMaxForce);
  expect_components("impulse_vector", kMaxImpulse);
  EXPECT_EQ(body.at("position").at("$ref"), "#/$defs/coordinates");
  EXPECT_EQ(body.at("velocity").at("$ref"), "#/$defs/velocity");
  EXPECT_EQ(schema_.at("properties").at("gravity").at("$ref"), "#/$defs/gravity");
  EXPECT_EQ(def("force").at("properties").at("force").at("$ref"), "#/$defs/force_vector");
  EXPECT_EQ(def("force").at("properties").at("torque").at("maximum"), kMaxForce);
  EXPECT_EQ(def("impulse").at("properties").at("impulse").at("$ref"), "#/$defs/impulse_vector");
  EXPECT_EQ(def("impulse").at("properties").at("angular").at("maximum"), kMaxImpulse);
  EXPECT_EQ(def("view").at("properties").at("width").at("maximum"), kMaxViewWidth);
  // Every anchor and point is a coordinate pair.
  for (const char* definition : {"joint_pin", "joint_distance", "joint_slider", "joint_weld", "contact_rope"}) {
    for (const char* key : {"anchor_a", "anchor_b"}) {
      EXPECT_EQ(def(definition).at("properties").at(key).at("$ref"), "#/$defs/coordinates") << definition << key;
    }
  }
  EXPECT_EQ(def("plane").at("properties").at("point").at("$ref"), "#/$defs/coordinates");
}

}  // namespace
}  // namespace oblique
