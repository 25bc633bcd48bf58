// The scenario document, format v1: the reader (structure, types and names; then the rules of
// scenario_check.hpp on each part read) and the writer.
//
// One reader serves check_scenario (every issue) and parse_scenario (the first one, thrown). It looks only
// at the keys the format knows, never descends into a value it does not expect, and stops adding issues
// after kMaxIssues, so any document parse_json returns is read in time and memory bounded by the document.
#include "oblique/io/scenario_json.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "oblique/io/json_reader.hpp"
#include "scenario/scenario_rules.hpp"

namespace oblique {

namespace {

using detail::ScenarioRules;

// Keys of the format, in the order scenario_to_json writes them.
const KeyList kDocumentKeys = {"oblique", "title",  "description", "gravity",  "restitution",
                               "mu",      "nu",       "duration",    "collide",  "bodies",   "planes",
                               "joints",  "contacts", "forces",    "impulses", "integrator",
                               "view"};
/// Values of "collide", in the order of Scenario::collide_all (false, true).
const KeyList kCollideNames = {"declared", "all"};
const KeyList kBodyKeys = {"name",     "shape",    "mass",          "inertia",         "position",
                           "angle",    "velocity", "angular_velocity", "color",
                           "collides", "e",        "stick",            "mu"};
const KeyList kPlaneKeys = {"name", "point", "normal"};
const KeyList kForceKeys = {"body", "force", "torque"};
const KeyList kImpulseKeys = {"time", "body", "impulse", "angular"};
const KeyList kIntegratorKeys = {"step", "event_tolerance", "rest_speed", "projection_tolerance"};
const KeyList kViewKeys = {"center", "width", "trails"};

// Shapes: the keys each type uses.
const KeyList kShapeTypeNames = {"disk", "box", "rod", "point", "wheel"};
const KeyList kShapeKeysByType[] = {{"type", "radius"},
                                    {"type", "width", "height"},
                                    {"type", "length", "radius"},
                                    {"type", "radius"},
                                    {"type", "radius", "spokes"}};
const KeyList kShapeKeys = {"type", "radius", "width", "height", "length", "spokes"};

// Joints: the keys each type uses.
const KeyList kJointTypeNames = {"pin", "distance", "slider", "weld"};
const KeyList kJointKeysByType[] = {{"type", "name", "body_a", "anchor_a", "body_b", "anchor_b"},
                                    {"type", "name", "body_a", "anchor_a", "body_b", "anchor_b", "length"},
                                    {"type", "name", "body_a", "anchor_a", "body_b", "anchor_b", "axis"},
                                    {"type", "name", "body_a", "anchor_a", "body_b", "anchor_b"}};
const KeyList kJointKeys = {"type", "name", "body_a", "anchor_a", "body_b", "anchor_b", "length", "axis"};

// Contacts: the keys each type uses.
const KeyList kContactTypeNames = {"body_plane", "disk_disk", "rope"};
const KeyList kContactKeysByType[] = {{"type", "name", "body", "plane", "e", "stick", "mu"},
                                      {"type", "name", "body_a", "body_b", "e", "stick", "mu"},
                                      {"type", "name", "body_a", "anchor_a", "body_b", "anchor_b", "length", "e"}};
const KeyList kContactKeys = {"type",     "name",   "body",     "plane",  "body_a", "anchor_a",
                              "body_b",   "anchor_b", "length", "e",      "stick", "mu"};

const char* const kWorldName = "world";

/// Whether `list` uses `key`.
bool uses(const KeyList& list, const char* key) {
  return std::find_if(list.begin(), list.end(), [&](const char* k) { return std::string(k) == key; }) != list.end();
}

/// Number of items of `array` to read: all of them up to `max`.
std::size_t items_to_read(const Json* array, std::size_t max) {
  return array == nullptr ? 0 : std::min(array->size(), max);
}

/// A direction made unit, left alone when already unit to rounding (so that reading it again gives the
/// same bits); a zero or non-finite one is left for the rules to report.
void make_unit(Vec2& v) {
  const double largest = std::max(std::abs(v.x()), std::abs(v.y()));
  if (!(largest > 0.0) || !std::isfinite(largest)) return;
  // Scale first so that neither huge nor tiny components overflow or underflow; √ (not hypot, which
  // differs between C libraries) keeps the result the same in every build.
  const Vec2 scaled = v / largest;
  if (std::abs(largest * std::sqrt(scaled.squaredNorm()) - 1.0) > 4.0 * std::numeric_limits<double>::epsilon()) {
    v = scaled / std::sqrt(scaled.squaredNorm());
  }
}

// ---- the document --------------------------------------------------------------------------------------

class DocumentReader {
 public:
  explicit DocumentReader(IssueList& issues, InitialOverlaps overlaps = InitialOverlaps::Refused)
      : r_(issues, PathStyle::Pointer), overlaps_(overlaps) {}

  Scenario read(const Json& doc) {
    Scenario s;
    ScenarioRules rules(s, r_.issues());
    if (!doc.is_object()) {
      r_.refuse("", "a scenario must be a JSON object, got " + describe_json(doc));
      return s;
    }
    if (!read_version(doc, s)) return s;
    rules.version();
    r_.keys(doc, "", kDocumentKeys, kDocumentKeys, "a scenario");

    // Title, description and the global physics.
    r_.string(doc, "", "title", s.title);
    rules.title();
    r_.string(doc, "", "description", s.description);
    rules.description();
    r_.vec2(doc, "", "gravity", s.gravity);
    rules.gravity();
    r_.number(doc, "", "restitution", s.restitution);
    rules.restitution();
    r_.number(doc, "", "mu", s.mu);
    rules.friction();
    r_.optional_number(doc, "", "nu", s.nu, "null: the condition-optimal virtual mass");
    r_.number(doc, "", "duration", s.duration);
    rules.duration();
    // Which contacts exist: the declared ones only, or every pair found automatically.
    int collide = s.collide_all ? 1 : 0;
    r_.choice(doc, "", "collide", kCollideNames, collide);
    s.collide_all = collide == 1;

    // Bodies and planes first: joints, contacts, forces and impulses refer to them by name. ν is measured
    // against the bodies' masses.
    read_bodies(doc, s, rules);
    rules.nu();
    read_planes(doc, s, rules);
    read_joints(doc, s, rules);
    read_contacts(doc, s, rules);
    if (overlaps_ == InitialOverlaps::Refused) rules.overlaps();
    read_forces(doc, s, rules);
    read_impulses(doc, s, rules);
    read_integrator(doc, s, rules);
    read_view(doc, s, rules);
    return s;
  }

 private:
  /// The format version; false for a newer one (then nothing else is read: its fields may mean things
  /// this build does not know).
  bool read_version(const Json& doc, Scenario& s) {
    const Json* value = JsonReader::find(doc, "oblique");
    if (value == nullptr) return true;
    const std::string expected = "the format version, " + std::to_string(kScenarioVersion);
    const std::string problem = number_problem(*value);
    if (!problem.empty()) {
      r_.refuse("/oblique", problem + " (" + expected + ")");
      return true;
    }
    const double version = value->get<double>();
    if (std::floor(version) != version) {
      r_.refuse("/oblique", "must be a whole number (" + expected + "), got " + show_number(version));
      return true;
    }
    if (version > kScenarioVersion) {
      r_.add("/oblique", "this document is format version " + show_number(version) +
                             "; this build of Oblique reads version " + std::to_string(kScenarioVersion) +
                             " (use a newer Oblique)");
      return false;
    }
    s.version = static_cast<int>(std::max(version, static_cast<double>(INT_MIN)));
    return true;
  }

  /// A body by name, or "world" (kWorld; whether the world is allowed there is the rules' to say).
  /// `allow_world` and `required` shape the messages of a missing or mistyped reference.
  void read_body_ref(const Json& object, const std::string& pointer, const char* key, int& out, bool allow_world,
                     bool required) {
    const Json* value = JsonReader::find(object, key);
    const std::string where = r_.child(pointer, key);
    const std::string what = std::string("the name of a body") + (allow_world ? " or \"world\"" : "");
    if (value == nullptr) {
      if (required) r_.refuse(where, "missing (" + what + ")");
      return;
    }
    if (!value->is_string()) {
      r_.refuse(where, "must be " + what + ", got " + describe_json(*value));
      return;
    }
    const std::string& name = value->get_ref<const std::string&>();
    if (name == kWorldName) {
      out = kWorld;
    } else if (const std::optional<int> index = bodies_.find(r_, name, where)) {
      out = *index;
    }
  }

  /// A required name: "missing (<why>)" when absent.
  void read_required_name(const Json& object, const std::string& pointer, std::string& out, const std::string& why) {
    if (JsonReader::find(object, "name") == nullptr) {
      r_.refuse(r_.child(pointer, "name"), "missing (" + why + ")");
    } else {
      r_.string(object, pointer, "name", out);
    }
  }

  void read_bodies(const Json& doc, Scenario& s, ScenarioRules& rules) {
    if (JsonReader::find(doc, "bodies") == nullptr) {
      r_.refuse("/bodies", "missing (a scenario needs at least one body)");
      bodies_.set_complete(false);
      return;
    }
    const Json* list = r_.array(doc, "", "bodies", kMaxBodies, "bodies");
    if (list == nullptr) {
      bodies_.set_complete(false);
      return;
    }
    bodies_.set_complete(list->size() <= static_cast<std::size_t>(kMaxBodies));
    const std::size_t count = items_to_read(list, kMaxBodies);
    for (std::size_t i = 0; i < count; ++i) {
      const std::string pointer = r_.child("/bodies", i);
      const Json& item = (*list)[i];
      BodyDef body;
      if (r_.object(item, pointer, "a body")) read_body(item, pointer, body);
      s.bodies.push_back(body);
      const std::string name_at = r_.child(pointer, "name");
      if (!r_.issues().skipped(name_at) && body.name != kWorldName) bodies_.insert(body.name, static_cast<int>(i));
      rules.body(i);
    }
    rules.body_count();
  }

  void read_body(const Json& item, const std::string& pointer, BodyDef& body) {
    r_.keys(item, pointer, kBodyKeys, kBodyKeys, "a body");
    read_required_name(item, pointer, body.name, "joints and contacts refer to a body by its name");
    read_shape(item, pointer, body.shape);
    r_.number(item, pointer, "mass", body.mass);
    r_.optional_number(item, pointer, "inertia", body.inertia, "null: from the shape");
    r_.vec2(item, pointer, "position", body.position);
    r_.number(item, pointer, "angle", body.angle);
    r_.vec2(item, pointer, "velocity", body.velocity);
    r_.number(item, pointer, "angular_velocity", body.angular_velocity);
    r_.string(item, pointer, "color", body.color);
    r_.boolean(item, pointer, "collides", body.collides);
    r_.optional_number(item, pointer, "e", body.restitution, "null: the scenario's restitution");
    r_.boolean(item, pointer, "stick", body.stick);
    r_.optional_number(item, pointer, "mu", body.mu, "null: the scenario's mu");
  }

  void read_shape(const Json& body, const std::string& body_pointer, Shape& shape) {
    const Json* value = JsonReader::find(body, "shape");
    if (value == nullptr) return;
    const std::string pointer = r_.child(body_pointer, "shape");
    if (!r_.object(*value, pointer, "a shape")) return;
    int type = static_cast<int>(shape.type);
    const bool type_ok = r_.choice(*value, pointer, "type", kShapeTypeNames, type);
    shape.type = static_cast<Shape::Type>(type);
    const KeyList& used = kShapeKeysByType[static_cast<std::size_t>(type)];
    r_.keys(*value, pointer, type_ok ? used : kShapeKeys, kShapeKeys,
            type_ok ? "a " + std::string(kShapeTypeNames[static_cast<std::size_t>(type)]) + " shape" : "a shape");
    if (!type_ok) {
      r_.issues().mark_unread(pointer);
      return;
    }
    if (uses(used, "radius")) r_.number(*value, pointer, "radius", shape.radius);
    if (uses(used, "width")) r_.number(*value, pointer, "width", shape.width);
    if (uses(used, "height")) r_.number(*value, pointer, "height", shape.height);
    if (uses(used, "length")) r_.number(*value, pointer, "length", shape.length);
    if (uses(used, "spokes")) r_.integer(*value, pointer, "spokes", shape.spokes);
  }

  void read_planes(const Json& doc, Scenario& s, ScenarioRules& rules) {
    const Json* list = r_.array(doc, "", "planes", kMaxPlanes, "planes");
    if (list == nullptr) {
      planes_.set_complete(JsonReader::find(doc, "planes") == nullptr);
      return;
    }
    planes_.set_complete(list->size() <= static_cast<std::size_t>(kMaxPlanes));
    const std::size_t count = items_to_read(list, kMaxPlanes);
    for (std::size_t i = 0; i < count; ++i) {
      const std::string pointer = r_.child("/planes", i);
      const Json& item = (*list)[i];
      PlaneDef plane;
      if (r_.object(item, pointer, "a plane")) {
        r_.keys(item, pointer, kPlaneKeys, kPlaneKeys, "a plane");
        read_required_name(item, pointer, plane.name, "contacts refer to a plane by its name");
        r_.vec2(item, pointer, "point", plane.point);
        if (r_.vec2(item, pointer, "normal", plane.normal)) make_unit(plane.normal);
      }
      s.planes.push_back(plane);
      if (!r_.issues().skipped(r_.child(pointer, "name"))) planes_.insert(plane.name, static_cast<int>(i));
      rules.plane(i);
    }
  }

  void read_joints(const Json& doc, Scenario& s, ScenarioRules& rules) {
    const Json* list = r_.array(doc, "", "joints", kMaxJoints, "joints");
    const std::size_t count = items_to_read(list, kMaxJoints);
    for (std::size_t i = 0; i < count; ++i) {
      const std::string pointer = r_.child("/joints", i);
      const Json& item = (*list)[i];
      JointDef joint;
      if (r_.object(item, pointer, "a joint")) read_joint(item, pointer, joint);
      s.joints.push_back(joint);
      rules.joint(i);
    }
  }

  void read_joint(const Json& item, const std::string& pointer, JointDef& joint) {
    int type = static_cast<int>(joint.type);
    const bool type_ok = r_.choice(item, pointer, "type", kJointTypeNames, type);
    joint.type = static_cast<JointDef::Type>(type);
    r_.keys(item, pointer, type_ok ? kJointKeysByType[static_cast<std::size_t>(type)] : kJointKeys, kJointKeys,
            type_ok ? "a " + std::string(kJointTypeNames[static_cast<std::size_t>(type)]) + " joint" : "a joint");
    if (!type_ok) {
      r_.issues().mark_unread(pointer);
      return;
    }
    r_.string(item, pointer, "name", joint.name);
    read_body_ref(item, pointer, "body_a", joint.body_a, true, false);
    read_body_ref(item, pointer, "body_b", joint.body_b, true, false);
    r_.vec2(item, pointer, "anchor_a", joint.anchor_a);
    r_.vec2(item, pointer, "anchor_b", joint.anchor_b);
    if (joint.type == JointDef::Type::Distance) {
      r_.optional_number(item, pointer, "length", joint.length, "null: the initial distance");
    }
    if (joint.type == JointDef::Type::Slider && r_.vec2(item, pointer, "axis", joint.axis)) make_unit(joint.axis);
  }

  void read_contacts(const Json& doc, Scenario& s, ScenarioRules& rules) {
    const Json* list = r_.array(doc, "", "contacts", kMaxContacts, "contacts");
    const std::size_t count = items_to_read(list, kMaxContacts);
    for (std::size_t i = 0; i < count; ++i) {
      const std::string pointer = r_.child("/contacts", i);
      const Json& item = (*list)[i];
      ContactDef contact;
      if (r_.object(item, pointer, "a contact")) read_contact(item, pointer, contact);
      s.contacts.push_back(contact);
      rules.contact(i);
    }
  }

  void read_contact(const Json& item, const std::string& pointer, ContactDef& contact) {
    int type = static_cast<int>(contact.type);
    const bool type_ok = r_.choice(item, pointer, "type", kContactTypeNames, type);
    contact.type = static_cast<ContactDef::Type>(type);
    r_.keys(item, pointer, type_ok ? kContactKeysByType[static_cast<std::size_t>(type)] : kContactKeys, kContactKeys,
            type_ok ? "a " + std::string(kContactTypeNames[static_cast<std::size_t>(type)]) + " contact" : "a contact");
    if (!type_ok) {
      r_.issues().mark_unread(pointer);
      return;
    }
    r_.string(item, pointer, "name", contact.name);
    r_.optional_number(item, pointer, "e", contact.restitution, "null: the scenario's restitution");
    switch (contact.type) {
      case ContactDef::Type::BodyPlane: {
        r_.boolean(item, pointer, "stick", contact.stick);
        r_.optional_number(item, pointer, "mu", contact.mu, "null: the scenario's mu");
        // The document's "body" is the struct's body_a.
        read_body_ref(item, pointer, "body", contact.body_a, false, true);
        const Json* plane = JsonReader::find(item, "plane");
        const std::string where = r_.child(pointer, "plane");
        if (plane == nullptr) {
          r_.refuse(where, "missing (the name of a plane)");
        } else if (!plane->is_string()) {
          r_.refuse(where, "must be the name of a plane, got " + describe_json(*plane));
        } else if (const auto index = planes_.find(r_, plane->get_ref<const std::string&>(), where)) {
          contact.plane = *index;
        }
        break;
      }
      case ContactDef::Type::DiskDisk:
        r_.boolean(item, pointer, "stick", contact.stick);
        r_.optional_number(item, pointer, "mu", contact.mu, "null: the scenario's mu");
        read_body_ref(item, pointer, "body_a", contact.body_a, false, true);
        read_body_ref(item, pointer, "body_b", contact.body_b, false, true);
        break;
      case ContactDef::Type::Rope:
        read_body_ref(item, pointer, "body_a", contact.body_a, true, false);
        read_body_ref(item, pointer, "body_b", contact.body_b, true, false);
        r_.vec2(item, pointer, "anchor_a", contact.anchor_a);
        r_.vec2(item, pointer, "anchor_b", contact.anchor_b);
        r_.number(item, pointer, "length", contact.length);
        break;
    }
  }

  void read_forces(const Json& doc, Scenario& s, ScenarioRules& rules) {
    const Json* list = r_.array(doc, "", "forces", kMaxForces, "forces");
    const std::size_t count = items_to_read(list, kMaxForces);
    for (std::size_t i = 0; i < count; ++i) {
      const std::string pointer = r_.child("/forces", i);
      const Json& item = (*list)[i];
      ForceDef force;
      if (r_.object(item, pointer, "a force")) {
        r_.keys(item, pointer, kForceKeys, kForceKeys, "a force");
        read_body_ref(item, pointer, "body", force.body, false, true);
        r_.vec2(item, pointer, "force", force.force);
        r_.number(item, pointer, "torque", force.torque);
      }
      s.forces.push_back(force);
      rules.force(i);
    }
  }

  void read_impulses(const Json& doc, Scenario& s, ScenarioRules& rules) {
    const Json* list = r_.array(doc, "", "impulses", kMaxImpulses, "impulses");
    const std::size_t count = items_to_read(list, kMaxImpulses);
    for (std::size_t i = 0; i < count; ++i) {
      const std::string pointer = r_.child("/impulses", i);
      const Json& item = (*list)[i];
      ImpulseDef impulse;
      if (r_.object(item, pointer, "an impulse")) {
        r_.keys(item, pointer, kImpulseKeys, kImpulseKeys, "an impulse");
        r_.number(item, pointer, "time", impulse.time);
        read_body_ref(item, pointer, "body", impulse.body, false, true);
        r_.vec2(item, pointer, "impulse", impulse.impulse);
        r_.number(item, pointer, "angular", impulse.angular);
      }
      s.impulses.push_back(impulse);
      rules.impulse(i);
    }
  }

  void read_integrator(const Json& doc, Scenario& s, ScenarioRules& rules) {
    const Json* value = JsonReader::find(doc, "integrator");
    if (value == nullptr || !r_.object(*value, "/integrator", "the integrator settings")) return;
    IntegratorDef& integrator = s.integrator;
    r_.keys(*value, "/integrator", kIntegratorKeys, kIntegratorKeys, "the integrator settings");
    r_.number(*value, "/integrator", "step", integrator.step);
    r_.number(*value, "/integrator", "event_tolerance", integrator.event_tolerance);
    r_.number(*value, "/integrator", "rest_speed", integrator.rest_speed);
    r_.number(*value, "/integrator", "projection_tolerance", integrator.projection_tolerance);
    rules.integrator();
  }

  void read_view(const Json& doc, Scenario& s, ScenarioRules& rules) {
    const Json* value = JsonReader::find(doc, "view");
    if (value == nullptr || !r_.object(*value, "/view", "the view settings")) return;
    r_.keys(*value, "/view", kViewKeys, kViewKeys, "the view settings");
    r_.vec2(*value, "/view", "center", s.view.center);
    r_.number(*value, "/view", "width", s.view.width);
    r_.boolean(*value, "/view", "trails", s.view.trails);
    rules.view();
  }

  JsonReader r_;
  InitialOverlaps overlaps_;
  NameTable bodies_{"body", "bodies"};
  NameTable planes_{"plane", "planes"};
};

// ---- back to JSON --------------------------------------------------------------------------------------

Json vec2_json(const Vec2& v) { return Json::array({v.x(), v.y()}); }

Json optional_json(const std::optional<double>& x) { return x ? Json(*x) : Json(nullptr); }

/// A body reference: its name, or "world".
Json body_ref_json(const Scenario& s, int body) {
  if (body < 0 || body >= static_cast<int>(s.bodies.size())) return kWorldName;
  return s.bodies[static_cast<std::size_t>(body)].name;
}

Json plane_ref_json(const Scenario& s, int plane) {
  if (plane < 0 || plane >= static_cast<int>(s.planes.size())) return nullptr;
  return s.planes[static_cast<std::size_t>(plane)].name;
}

Json shape_json(const Shape& shape) {
  Json out;
  out["type"] = kShapeTypeNames[static_cast<std::size_t>(shape.type)];
  switch (shape.type) {
    case Shape::Type::Disk:
    case Shape::Type::Point:
      out["radius"] = shape.radius;
      break;
    case Shape::Type::Box:
      out["width"] = shape.width;
      out["height"] = shape.height;
      break;
    case Shape::Type::Rod:
      out["length"] = shape.length;
      out["radius"] = shape.radius;
      break;
    case Shape::Type::Wheel:
      out["radius"] = shape.radius;
      out["spokes"] = shape.spokes;
      break;
  }
  return out;
}

}  // namespace

std::vector<ScenarioIssue> check_scenario(const Json& document) {
  IssueList issues;
  DocumentReader(issues).read(document);
  return issues.take();
}

Scenario parse_scenario(const Json& document, InitialOverlaps overlaps) {
  IssueList issues;
  Scenario scenario = DocumentReader(issues, overlaps).read(document);
  throw_first(issues.take());
  return scenario;
}

Json scenario_to_json(const Scenario& s) {
  Json doc;
  doc["oblique"] = s.version;
  doc["title"] = s.title;
  doc["description"] = s.description;
  doc["gravity"] = vec2_json(s.gravity);
  doc["restitution"] = s.restitution;
  doc["mu"] = s.mu;
  doc["nu"] = optional_json(s.nu);
  doc["duration"] = s.duration;
  doc["collide"] = s.collide_all ? "all" : "declared";

  // Bodies and planes.
  Json bodies = Json::array();
  for (const BodyDef& body : s.bodies) {
    Json b;
    b["name"] = body.name;
    b["shape"] = shape_json(body.shape);
    b["mass"] = body.mass;
    b["inertia"] = optional_json(body.inertia);
    b["position"] = vec2_json(body.position);
    b["angle"] = body.angle;
    b["velocity"] = vec2_json(body.velocity);
    b["angular_velocity"] = body.angular_velocity;
    b["color"] = body.color;
    b["collides"] = body.collides;
    b["e"] = optional_json(body.restitution);
    b["stick"] = body.stick;
    b["mu"] = optional_json(body.mu);
    bodies.push_back(std::move(b));
  }
  doc["bodies"] = std::move(bodies);
  Json planes = Json::array();
  for (const PlaneDef& plane : s.planes) {
    planes.push_back({{"name", plane.name}, {"point", vec2_json(plane.point)}, {"normal", vec2_json(plane.normal)}});
  }
  doc["planes"] = std::move(planes);

  // Joints: the keys of their type.
  Json joints = Json::array();
  for (const JointDef& joint : s.joints) {
    Json j;
    j["type"] = kJointTypeNames[static_cast<std::size_t>(joint.type)];
    j["name"] = joint.name;
    j["body_a"] = body_ref_json(s, joint.body_a);
    j["anchor_a"] = vec2_json(joint.anchor_a);
    j["body_b"] = body_ref_json(s, joint.body_b);
    j["anchor_b"] = vec2_json(joint.anchor_b);
    if (joint.type == JointDef::Type::Distance) j["length"] = optional_json(joint.length);
    if (joint.type == JointDef::Type::Slider) j["axis"] = vec2_json(joint.axis);
    joints.push_back(std::move(j));
  }
  doc["joints"] = std::move(joints);

  // Contacts: the keys of their type (a body-plane contact's body_a is written as "body").
  Json contacts = Json::array();
  for (const ContactDef& contact : s.contacts) {
    Json c;
    c["type"] = kContactTypeNames[static_cast<std::size_t>(contact.type)];
    c["name"] = contact.name;
    switch (contact.type) {
      case ContactDef::Type::BodyPlane:
        c["body"] = body_ref_json(s, contact.body_a);
        c["plane"] = plane_ref_json(s, contact.plane);
        break;
      case ContactDef::Type::DiskDisk:
        c["body_a"] = body_ref_json(s, contact.body_a);
        c["body_b"] = body_ref_json(s, contact.body_b);
        break;
      case ContactDef::Type::Rope:
        c["body_a"] = body_ref_json(s, contact.body_a);
        c["anchor_a"] = vec2_json(contact.anchor_a);
        c["body_b"] = body_ref_json(s, contact.body_b);
        c["anchor_b"] = vec2_json(contact.anchor_b);
        c["length"] = contact.length;
        break;
    }
    c["e"] = optional_json(contact.restitution);
    if (contact.type != ContactDef::Type::Rope) {
      c["stick"] = contact.stick;
      c["mu"] = optional_json(contact.mu);
    }
    contacts.push_back(std::move(c));
  }
  doc["contacts"] = std::move(contacts);

  // Forces and impulses.
  Json forces = Json::array();
  for (const ForceDef& force : s.forces) {
    forces.push_back({{"body", body_ref_json(s, force.body)}, {"force", vec2_json(force.force)}, {"torque", force.torque}});
  }
  doc["forces"] = std::move(forces);
  Json impulses = Json::array();
  for (const ImpulseDef& impulse : s.impulses) {
    impulses.push_back({{"time", impulse.time},
                        {"body", body_ref_json(s, impulse.body)},
                        {"impulse", vec2_json(impulse.impulse)},
                        {"angular", impulse.angular}});
  }
  doc["impulses"] = std::move(impulses);

  // Integrator and view.
  doc["integrator"] = {{"step", s.integrator.step},
                       {"event_tolerance", s.integrator.event_tolerance},
                       {"rest_speed", s.integrator.rest_speed},
                       {"projection_tolerance", s.integrator.projection_tolerance}};
  doc["view"] = {{"center", vec2_json(s.view.center)}, {"width", s.view.width}, {"trails", s.view.trails}};
  return doc;
}

}  // namespace oblique
