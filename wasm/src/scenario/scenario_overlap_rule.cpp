// The rule of scenario_check.hpp that names the overlaps of the initial state (scenario_overlaps.hpp) by the
// names of their bodies, planes and ropes, at the pointer the editor marks: the body's position (a rope's
// length).
#include <cmath>
#include <cstdio>
#include <string>

#include "oblique/scenario/scenario_check.hpp"
#include "oblique/geometry/scenario_overlaps.hpp"
#include "scenario/scenario_rules.hpp"

namespace oblique::detail {

namespace {

const char* const kShapeWords[] = {"disk", "box", "rod", "point", "wheel"};

/// "/list/i/key".
std::string item_at(const char* list, std::size_t i, const char* key) {
  return pointer_child(pointer_child(pointer_child("", list), i), key);
}

/// A length for a message, to three significant digits ("0.45", "0.0201", "1.5e-06").
std::string length_text(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3g", x);
  return buffer;
}

/// A body by its shape and name ("disk "ball""), or by its shape and index when it has no name ("disk 3").
std::string body_words(const Scenario& s, int i) {
  const BodyDef& body = s.bodies[static_cast<std::size_t>(i)];
  return std::string(kShapeWords[static_cast<std::size_t>(body.shape.type)]) + " " +
         (body.name.empty() ? std::to_string(i) : quote(body.name));
}

/// "plane "floor"", or "plane 2" without a name; the same for a rope.
std::string item_words(const char* kind, const std::string& name, int i) {
  return std::string(kind) + " " + (name.empty() ? std::to_string(i) : quote(name));
}

/// The tolerance, said beside an amount small enough to be mistaken for rounding.
std::string tolerance_note(double amount, const char* what) {
  if (amount >= 1e-4) return "";
  return std::string(" (an initial state may ") + what + " by at most " + length_text(kInitialPenetration) + " m)";
}

bool within(double x, double lo, double hi) { return std::isfinite(x) && x >= lo && x <= hi; }

bool within(const Vec2& v, double max) { return within(v.x(), -max, max) && within(v.y(), -max, max); }

}  // namespace

bool ScenarioRules::body_geometry_valid(std::size_t i) const {
  const BodyDef& body = s_.bodies[i];
  const std::string item = pointer_child(pointer_child("", "bodies"), i);
  if (skipped(item) || skipped(pointer_child(item, "shape")) || skipped(pointer_child(item, "position")) ||
      skipped(pointer_child(item, "angle"))) {
    return false;
  }
  if (!within(body.position, kMaxCoordinate) || !within(body.angle, -kMaxAngle, kMaxAngle)) return false;
  const Shape& shape = body.shape;
  switch (shape.type) {
    case Shape::Type::Disk:
    case Shape::Type::Point: return within(shape.radius, kMinLength, kMaxLength);
    case Shape::Type::Box: return within(shape.width, kMinLength, kMaxLength) && within(shape.height, kMinLength, kMaxLength);
    case Shape::Type::Rod: return within(shape.length, kMinLength, kMaxLength) && within(shape.radius, 0.0, kMaxLength);
    case Shape::Type::Wheel:
      return within(shape.radius, kMinLength, kMaxLength) && shape.spokes >= kMinSpokes && shape.spokes <= kMaxSpokes;
  }
  return false;
}

bool ScenarioRules::plane_valid(std::size_t i) const {
  const PlaneDef& plane = s_.planes[i];
  const std::string item = pointer_child(pointer_child("", "planes"), i);
  return !skipped(item) && !skipped(pointer_child(item, "point")) && !skipped(pointer_child(item, "normal")) &&
         within(plane.point, kMaxCoordinate) && plane.normal.allFinite() && (plane.normal.x() != 0.0 || plane.normal.y() != 0.0);
}

bool ScenarioRules::ref_valid(const std::string& pointer, int body, bool allow_world) const {
  if (skipped(pointer)) return false;
  if (body == kWorld) return allow_world;
  return body >= 0 && body < static_cast<int>(s_.bodies.size());
}

bool ScenarioRules::joint_valid(std::size_t i) const {
  const JointDef& joint = s_.joints[i];
  const std::string item = pointer_child(pointer_child("", "joints"), i);
  return !skipped(item) && ref_valid(pointer_child(item, "body_a"), joint.body_a, true) &&
         ref_valid(pointer_child(item, "body_b"), joint.body_b, true);
}

bool ScenarioRules::contact_valid(std::size_t i) const {
  const ContactDef& contact = s_.contacts[i];
  const std::string item = pointer_child(pointer_child("", "contacts"), i);
  if (skipped(item)) return false;
  switch (contact.type) {
    case ContactDef::Type::BodyPlane:
      return ref_valid(pointer_child(item, "body"), contact.body_a, false) && !skipped(pointer_child(item, "plane")) &&
             contact.plane >= 0 && contact.plane < static_cast<int>(s_.planes.size());
    case ContactDef::Type::DiskDisk: {
      // Two disks (or points): a disk_disk contact of another shape is refused by its own rule.
      const auto round = [this](int body) {
        const Shape::Type type = s_.bodies[static_cast<std::size_t>(body)].shape.type;
        return type == Shape::Type::Disk || type == Shape::Type::Point;
      };
      return ref_valid(pointer_child(item, "body_a"), contact.body_a, false) &&
             ref_valid(pointer_child(item, "body_b"), contact.body_b, false) && contact.body_a != contact.body_b &&
             round(contact.body_a) && round(contact.body_b);
    }
    case ContactDef::Type::Rope:
      return ref_valid(pointer_child(item, "body_a"), contact.body_a, true) &&
             ref_valid(pointer_child(item, "body_b"), contact.body_b, true) && contact.body_a != contact.body_b &&
             !skipped(pointer_child(item, "anchor_a")) && !skipped(pointer_child(item, "anchor_b")) &&
             !skipped(pointer_child(item, "length")) && within(contact.anchor_a, kMaxCoordinate) &&
             within(contact.anchor_b, kMaxCoordinate) && within(contact.length, kMinLength, kMaxLength);
  }
  return false;
}

void ScenarioRules::overlaps() {
  if (!overlaps_ || issues_.full() || skipped("/bodies")) return;
  // What the search may measure with.
  OverlapInputs usable;
  for (std::size_t i = 0; i < s_.bodies.size(); ++i) usable.bodies.push_back(body_geometry_valid(i) ? 1 : 0);
  for (std::size_t i = 0; i < s_.planes.size(); ++i) usable.planes.push_back(plane_valid(i) ? 1 : 0);
  for (std::size_t i = 0; i < s_.contacts.size(); ++i) usable.contacts.push_back(contact_valid(i) ? 1 : 0);
  for (std::size_t i = 0; i < s_.joints.size(); ++i) usable.joints.push_back(joint_valid(i) ? 1 : 0);
  const OverlapSearch search = find_initial_overlaps(s_, usable);

  // The first kMaxOverlapIssues by name, then how many more.
  std::size_t listed = 0;
  for (const InitialOverlap& overlap : search.overlaps) {
    if (listed == kMaxOverlapIssues) break;
    ++listed;
    const std::string amount = length_text(overlap.amount);
    switch (overlap.kind) {
      case InitialOverlap::Kind::Plane: {
        const PlaneDef& plane = s_.planes[static_cast<std::size_t>(overlap.other)];
        add(item_at("bodies", static_cast<std::size_t>(overlap.body), "position"),
            body_words(s_, overlap.body) + " starts " + amount + " m inside " +
                item_words("plane", plane.name, overlap.other) + tolerance_note(overlap.amount, "overlap"));
        break;
      }
      case InitialOverlap::Kind::Body:
        add(item_at("bodies", static_cast<std::size_t>(overlap.body), "position"),
            body_words(s_, overlap.body) + " starts " + amount + " m inside " + body_words(s_, overlap.other) +
                tolerance_note(overlap.amount, "overlap"));
        break;
      case InitialOverlap::Kind::ThinRods:
        add(item_at("bodies", static_cast<std::size_t>(overlap.body), "position"),
            body_words(s_, overlap.body) + " lies on " + body_words(s_, overlap.other) + " over " + amount +
                " m: two thin rods (radius 0) on one line have no side to touch each other from (move one off the "
                "other's line, or give one a radius)");
        break;
      case InitialOverlap::Kind::Rope: {
        const ContactDef& rope = s_.contacts[static_cast<std::size_t>(overlap.other)];
        add(item_at("contacts", static_cast<std::size_t>(overlap.other), "length"),
            item_words("rope", rope.name, overlap.other) + " starts stretched " + amount + " m beyond its length (its "
                "anchors are " + length_text(rope.length + overlap.amount) + " m apart at t = 0)" +
                tolerance_note(overlap.amount, "stretch a rope"));
        break;
      }
    }
  }
  if (search.overlaps.size() > listed) {
    const std::size_t more = search.overlaps.size() - listed;
    add("/bodies", std::to_string(more) + " more overlap" + (more == 1 ? "" : "s") + " at the start not listed (the "
                   "first " + std::to_string(listed) + " are)");
  }
}

}  // namespace oblique::detail
