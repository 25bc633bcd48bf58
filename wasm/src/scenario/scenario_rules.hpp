// The rules of scenario_check.hpp one part at a time, so that the document reader can check each part
// right after reading it and report every problem in document order (private to the core).
//
// A rule skips a value its reader could not read (IssueList::mark_unread): that field kept its default,
// and its problem is reported already.
#pragma once

#include <cstddef>
#include <string>

#include "oblique/scenario/issues.hpp"
#include "oblique/scenario/scenario.hpp"
#include "oblique/scenario/scenario_check.hpp"

namespace oblique::detail {

class ScenarioRules {
 public:
  ScenarioRules(const Scenario& scenario, IssueList& issues, ScenarioUse use = ScenarioUse::Document)
      : s_(scenario), issues_(issues), text_(use == ScenarioUse::Document), overlaps_(use != ScenarioUse::Model) {}

  // The document's own fields, in document order (nu comes after the bodies: it is measured against them).
  void version();
  void title();
  void description();
  void gravity();
  void restitution();
  void friction();
  void duration();
  void nu();

  // The lists: their sizes, then each item (which may refer back to earlier lists, never forward).
  void body_count();
  void body(std::size_t i);
  void list_count(const char* key, std::size_t count, std::size_t max);
  void plane(std::size_t i);
  void joint(std::size_t i);
  void contact(std::size_t i);
  void force(std::size_t i);
  void impulse(std::size_t i);
  void integrator();
  void view();
  /// Overlaps of the initial state (scenario_overlaps.hpp): after the bodies, planes, joints and contacts.
  void overlaps();

  /// Every rule, in document order.
  void all();

 private:
  void add(const std::string& pointer, const std::string& message);
  bool skipped(const std::string& pointer) const { return issues_.skipped(pointer); }

  // Values.
  bool finite(const std::string& pointer, double x);
  void magnitude(const std::string& pointer, double x, double max, const char* unit);
  void vector_magnitude(const std::string& pointer, const Vec2& v, double max, const char* unit);
  void positive(const std::string& pointer, double x, double min, bool min_open, double max, const char* unit);
  void interval(const std::string& pointer, double x, double lo, bool lo_open, double hi, bool hi_open);
  void direction(const std::string& pointer, const Vec2& v, const char* meaning);

  // Text.
  bool text(const std::string& pointer, const std::string& value, std::size_t max_bytes, bool multiline);
  void name(const std::string& pointer, const std::string& value, bool required, const std::string& why);

  // References and geometry.
  bool body_ref(const std::string& pointer, int body, bool allow_world);
  bool two_ends(const std::string& pointer, int a, int b, bool a_ok, bool b_ok, const char* what);
  void anchors_apart(const std::string& pointer, int body_a, const Vec2& anchor_a, int body_b, const Vec2& anchor_b,
                     const char* what);
  void shape(const std::string& pointer, const Shape& shape);
  // Whether the values a rule measures with are valid (for the overlaps).
  bool body_geometry_valid(std::size_t i) const;
  bool plane_valid(std::size_t i) const;
  bool contact_valid(std::size_t i) const;
  bool joint_valid(std::size_t i) const;
  bool ref_valid(const std::string& pointer, int body, bool allow_world) const;

  const Scenario& s_;
  IssueList& issues_;
  bool text_;      // the rules of names, titles, descriptions and colours (ScenarioUse::Document)
  bool overlaps_;  // the overlaps of the initial state (not for ScenarioUse::Model)
};

}  // namespace oblique::detail
