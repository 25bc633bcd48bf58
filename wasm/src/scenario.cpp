// The scenario document, format v1: validation with JSON pointers, defaults, and the way back to JSON.
//
// One reader serves check_scenario (every issue) and parse_scenario (the first one, thrown). It looks only
// at the keys the format knows, never recurses into a value it does not expect, and stops adding issues
// after kMaxIssues, so any input — deeply nested, huge arrays, wrong types everywhere — is read in time and
// memory bounded by the document itself.
#include "oblique/scenario.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "checks.hpp"

namespace oblique {

namespace {

using detail::format_number;
using Keys = std::vector<const char*>;

// Keys of the format, in the order scenario_to_json writes them.
const Keys kDocumentKeys = {"oblique", "title",  "description", "gravity",  "restitution",
                            "nu",      "duration", "bodies",    "planes",   "joints",
                            "contacts", "forces",  "impulses",  "integrator", "view"};
const Keys kBodyKeys = {"name",     "shape",    "mass",          "inertia",         "position",
                        "angle",    "velocity", "angular_velocity", "color"};
const Keys kPlaneKeys = {"name", "point", "normal"};
const Keys kForceKeys = {"body", "force", "torque"};
const Keys kImpulseKeys = {"time", "body", "impulse", "angular"};
const Keys kIntegratorKeys = {"step", "event_tolerance", "rest_speed", "projection_tolerance"};
const Keys kViewKeys = {"center", "width", "trails"};

// Shapes: the keys each type uses.
const char* const kShapeTypeNames[] = {"disk", "box", "rod", "point", "wheel"};
const Keys kShapeKeysByType[] = {{"type", "radius"},
                                 {"type", "width", "height"},
                                 {"type", "length", "radius"},
                                 {"type", "radius"},
                                 {"type", "radius", "spokes"}};
const Keys kShapeKeys = {"type", "radius", "width", "height", "length", "spokes"};

// Joints: the keys each type uses.
const char* const kJointTypeNames[] = {"pin", "distance", "slider", "weld"};
const Keys kJointKeysByType[] = {{"type", "name", "body_a", "anchor_a", "body_b", "anchor_b"},
                                 {"type", "name", "body_a", "anchor_a", "body_b", "anchor_b", "length"},
                                 {"type", "name", "body_a", "anchor_a", "body_b", "anchor_b", "axis"},
                                 {"type", "name", "body_a", "anchor_a", "body_b", "anchor_b"}};
const Keys kJointKeys = {"type", "name", "body_a", "anchor_a", "body_b", "anchor_b", "length", "axis"};

// Contacts: the keys each type uses.
const char* const kContactTypeNames[] = {"body_plane", "disk_disk", "rope"};
const Keys kContactKeysByType[] = {{"type", "name", "body", "plane", "e", "stick"},
                                   {"type", "name", "body_a", "body_b", "e", "stick"},
                                   {"type", "name", "body_a", "anchor_a", "body_b", "anchor_b", "length", "e"}};
const Keys kContactKeys = {"type",     "name",   "body",     "plane",  "body_a", "anchor_a",
                           "body_b",   "anchor_b", "length", "e",      "stick"};

const char* const kWorldName = "world";

// ---- messages ------------------------------------------------------------------------------------------

/// RFC 6901: "~" → "~0", "/" → "~1".
std::string escape_pointer_token(const std::string& key) {
  std::string out;
  out.reserve(key.size());
  for (char c : key) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

std::string child(const std::string& pointer, const std::string& key) {
  return pointer + "/" + escape_pointer_token(key);
}

std::string child(const std::string& pointer, std::size_t index) { return pointer + "/" + std::to_string(index); }

bool has_control_character(const std::string& s, bool allow_newline_and_tab = false) {
  for (unsigned char c : s) {
    if (allow_newline_and_tab && (c == '\n' || c == '\t')) continue;
    if (c < 0x20 || c == 0x7f) return true;
  }
  return false;
}

/// Well-formed UTF-8, as strict as nlohmann-json's writer (text parsed from JSON always is; a Json built
/// in C++ may not be, and scenario_to_json could not write it). For short strings: it copies.
bool is_utf8(const std::string& s) {
  try {
    (void)Json(s).dump();
    return true;
  } catch (const Json::exception&) {
    return false;
  }
}

/// A user string inside a message: JSON-quoted (so it stays on one line), cut to 40 bytes.
std::string quote(const std::string& s) {
  constexpr std::size_t kShown = 40;
  std::string shown = s;
  bool cut = false;
  if (shown.size() > kShown) {
    std::size_t end = kShown;
    // Do not cut a UTF-8 sequence: back up to the start of a character.
    while (end > 0 && (static_cast<unsigned char>(shown[end]) & 0xC0) == 0x80) --end;
    shown.resize(end);
    cut = true;
  }
  std::string out = Json(shown).dump(-1, ' ', false, Json::error_handler_t::replace);
  if (cut) out.insert(out.size() - 1, "…");
  return out;
}

std::string join(const Keys& keys) {
  std::string out;
  for (const char* key : keys) out += (out.empty() ? "" : ", ") + std::string(key);
  return out;
}

int edit_distance(const std::string& a, const std::string& b) {
  std::vector<int> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = static_cast<int>(j);
  for (std::size_t i = 1; i <= a.size(); ++i) {
    int diagonal = row[0];
    row[0] = static_cast<int>(i);
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const int above = row[j];
      const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                        std::tolower(static_cast<unsigned char>(b[j - 1]));
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

/// The candidate closest to `word` if it is close enough to be a likely typo; empty otherwise.
std::string closest(const std::string& word, const std::vector<std::string>& candidates) {
  if (word.size() > kMaxNameLength) return "";
  std::string best;
  int best_distance = std::numeric_limits<int>::max();
  for (const std::string& candidate : candidates) {
    const int d = edit_distance(word, candidate);
    if (d < best_distance) {
      best_distance = d;
      best = candidate;
    }
  }
  // One edit per three letters (at most three); short words only match up to case.
  const int allowed = std::min(3, static_cast<int>(best.size()) / 3);
  return best_distance <= allowed ? best : "";
}

std::vector<std::string> to_strings(const Keys& keys) { return std::vector<std::string>(keys.begin(), keys.end()); }

// ---- the issue list ------------------------------------------------------------------------------------

class Issues {
 public:
  void add(const std::string& pointer, const std::string& message) {
    if (list_.size() < static_cast<std::size_t>(kMaxIssues)) {
      list_.push_back({pointer, message});
    } else {
      more_ = true;
    }
  }
  bool empty() const { return list_.empty(); }
  /// No more issues will be listed: work that only builds messages can stop.
  bool full() const { return list_.size() >= static_cast<std::size_t>(kMaxIssues); }
  std::vector<ScenarioIssue> take() {
    if (more_) {
      list_.push_back({"", "more issues not listed: check stops after " + std::to_string(kMaxIssues)});
    }
    return std::move(list_);
  }

 private:
  std::vector<ScenarioIssue> list_;
  bool more_ = false;
};

// ---- value readers: each checks one field, reports what is wrong, and keeps the default when absent ---

/// Allowed interval of a number; open ends exclude the bound.
struct Range {
  double lo = -std::numeric_limits<double>::infinity();
  double hi = std::numeric_limits<double>::infinity();
  bool lo_open = true;
  bool hi_open = true;
};
const Range kAnyNumber{};
const Range kPositive{0.0, std::numeric_limits<double>::infinity(), true, true};
const Range kNonNegative{0.0, std::numeric_limits<double>::infinity(), false, true};
const Range kUnitInterval{0.0, 1.0, false, false};

/// A number for a message: whole numbers in full ("3600", not "3.6e+03"), others in their shortest form.
std::string show_number(double x) {
  if (std::floor(x) == x && std::abs(x) < 1e15) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.0f", x);
    return buffer;
  }
  return format_number(x);
}

std::string range_problem(double x, const Range& r) {
  const bool below = r.lo_open ? !(x > r.lo) : !(x >= r.lo);
  const bool above = r.hi_open ? !(x < r.hi) : !(x <= r.hi);
  if (!below && !above) return "";
  const std::string got = ", got " + show_number(x);
  if (std::isinf(r.hi)) {
    if (r.lo == 0.0) return (r.lo_open ? "must be positive" : "must not be negative") + got;
    return "must be " + std::string(r.lo_open ? "greater than " : "at least ") + show_number(r.lo) + got;
  }
  return "must be in " + std::string(r.lo_open ? "(" : "[") + show_number(r.lo) + ", " + show_number(r.hi) +
         (r.hi_open ? ")" : "]") + got;
}

class Reader {
 public:
  explicit Reader(Issues& issues) : issues_(issues) {}

  void add(const std::string& pointer, const std::string& message) { issues_.add(pointer, message); }
  bool full() const { return issues_.full(); }

  /// `value` must be an object; reports it otherwise.
  bool object(const Json& value, const std::string& pointer, const std::string& what) {
    if (value.is_object()) return true;
    add(pointer, "must be " + what + " (a JSON object), got " + describe_json(value));
    return false;
  }

  /// Reports every key of `object` outside `allowed`. `known` holds the keys of every variant (a key known
  /// to another type gets "not a field of <what>"); `what` names the object ("a rope contact").
  void keys(const Json& object, const std::string& pointer, const Keys& allowed, const Keys& known,
            const std::string& what) {
    for (auto it = object.begin(); it != object.end(); ++it) {
      const std::string& key = it.key();
      if (std::find_if(allowed.begin(), allowed.end(), [&](const char* k) { return key == k; }) != allowed.end()) {
        continue;
      }
      // Once the list is full, do not build messages for a million unknown keys.
      if (full()) {
        add(pointer, "");
        return;
      }
      // A pointer to the key itself unless the key is too long or unprintable to show; then to its object.
      const bool showable = key.size() <= kMaxNameLength && !has_control_character(key);
      const std::string where = showable ? child(pointer, key) : pointer;
      if (std::find_if(known.begin(), known.end(), [&](const char* k) { return key == k; }) != known.end()) {
        add(where, "not a field of " + what + " (its fields: " + join(allowed) + ")");
        continue;
      }
      const std::string suggestion = closest(key, to_strings(allowed));
      add(where, "unknown field " + quote(key) +
                     (suggestion.empty() ? " in " + what + " (allowed: " + join(allowed) + ")"
                                         : "; did you mean " + quote(suggestion) + "?"));
    }
  }

  /// The value at `key`, or nullptr when absent.
  static const Json* find(const Json& object, const char* key) {
    const auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
  }

  /// A finite number within `range`; `out` keeps its default when absent.
  bool number(const Json& object, const std::string& pointer, const char* key, double& out,
              const Range& range = kAnyNumber) {
    const Json* value = find(object, key);
    if (value == nullptr) return true;
    return number_value(*value, child(pointer, key), out, range);
  }

  bool number_value(const Json& value, const std::string& pointer, double& out, const Range& range) {
    const std::string problem = number_problem(value);
    if (!problem.empty()) {
      add(pointer, problem);
      return false;
    }
    const double x = value.get<double>();
    const std::string outside = range_problem(x, range);
    if (!outside.empty()) {
      add(pointer, outside);
      return false;
    }
    out = x;
    return true;
  }

  /// A number or null (absent and null leave `out` empty).
  bool optional_number(const Json& object, const std::string& pointer, const char* key,
                       std::optional<double>& out, const Range& range, const std::string& null_means) {
    const Json* value = find(object, key);
    if (value == nullptr || value->is_null()) return true;
    double x = 0.0;
    if (value->is_string() || value->is_number()) {
      if (!number_value(*value, child(pointer, key), x, range)) return false;
      out = x;
      return true;
    }
    add(child(pointer, key), "must be a number or null (" + null_means + "), got " + describe_json(*value));
    return false;
  }

  /// A whole number in [lo, hi].
  bool integer(const Json& object, const std::string& pointer, const char* key, int& out, int lo, int hi) {
    const Json* value = find(object, key);
    if (value == nullptr) return true;
    const std::string where = child(pointer, key);
    const std::string problem = number_problem(*value);
    if (!problem.empty()) {
      add(where, problem);
      return false;
    }
    const double x = value->get<double>();
    if (std::floor(x) != x) {
      add(where, "must be a whole number, got " + show_number(x));
      return false;
    }
    if (x < lo || x > hi) {
      add(where, "must be in [" + std::to_string(lo) + ", " + std::to_string(hi) + "], got " + show_number(x));
      return false;
    }
    out = static_cast<int>(x);
    return true;
  }

  /// [x, y], both finite.
  bool vec2(const Json& object, const std::string& pointer, const char* key, Vec2& out) {
    const Json* value = find(object, key);
    if (value == nullptr) return true;
    const std::string where = child(pointer, key);
    if (!value->is_array()) {
      add(where, "must be an array of two numbers [x, y], got " + describe_json(*value));
      return false;
    }
    if (value->size() != 2) {
      add(where, "must have two numbers [x, y], got " + std::to_string(value->size()));
      return false;
    }
    Vec2 v = out;
    const bool x_ok = number_value((*value)[0], child(where, 0), v.x(), kAnyNumber);
    const bool y_ok = number_value((*value)[1], child(where, 1), v.y(), kAnyNumber);
    if (!x_ok || !y_ok) return false;
    out = v;
    return true;
  }

  /// A direction: non-zero [x, y], made unit (left alone when already unit to rounding, so that reading
  /// it again gives the same bits).
  bool direction(const Json& object, const std::string& pointer, const char* key, Vec2& out,
                 const std::string& meaning) {
    Vec2 v = out;
    if (!vec2(object, pointer, key, v)) return false;
    if (find(object, key) == nullptr) return true;
    const double largest = std::max(std::abs(v.x()), std::abs(v.y()));
    if (!(largest > 0.0)) {
      add(child(pointer, key), "must not be zero (" + meaning + ")");
      return false;
    }
    // Scale first so that neither huge nor tiny components overflow or underflow; √ (not hypot, which
    // differs between C libraries) keeps the result the same in every build.
    const Vec2 scaled = v / largest;
    if (std::abs(largest * std::sqrt(scaled.squaredNorm()) - 1.0) > 4.0 * std::numeric_limits<double>::epsilon()) {
      v = scaled / std::sqrt(scaled.squaredNorm());
    }
    out = v;
    return true;
  }

  bool boolean(const Json& object, const std::string& pointer, const char* key, bool& out) {
    const Json* value = find(object, key);
    if (value == nullptr) return true;
    if (!value->is_boolean()) {
      add(child(pointer, key), "must be true or false, got " + describe_json(*value));
      return false;
    }
    out = value->get<bool>();
    return true;
  }

  /// A string of at most `max_bytes`, without control characters (newline and tab allowed when
  /// `multiline`).
  bool text(const Json& object, const std::string& pointer, const char* key, std::string& out,
            std::size_t max_bytes, bool multiline = false) {
    const Json* value = find(object, key);
    if (value == nullptr) return true;
    const std::string where = child(pointer, key);
    if (!value->is_string()) {
      add(where, "must be a string, got " + describe_json(*value));
      return false;
    }
    const std::string& s = value->get_ref<const std::string&>();
    if (s.size() > max_bytes) {
      add(where, "is too long: " + std::to_string(s.size()) + " bytes (at most " + std::to_string(max_bytes) + ")");
      return false;
    }
    if (!is_utf8(s)) {
      add(where, "must be valid UTF-8 text");
      return false;
    }
    if (has_control_character(s, multiline)) {
      add(where, multiline ? "must not contain control characters other than newline and tab"
                           : "must be one line without control characters");
      return false;
    }
    out = s;
    return true;
  }

  /// One of `names` (index into it); `out` keeps its default when absent.
  template <typename Enum, std::size_t N>
  bool choice(const Json& object, const std::string& pointer, const char* key, const char* const (&names)[N],
              Enum& out) {
    const Json* value = find(object, key);
    if (value == nullptr) return true;
    const std::string where = child(pointer, key);
    Keys all(std::begin(names), std::end(names));
    if (!value->is_string()) {
      add(where, "must be one of " + join(all) + ", got " + describe_json(*value));
      return false;
    }
    const std::string& s = value->get_ref<const std::string&>();
    for (std::size_t i = 0; i < N; ++i) {
      if (s == names[i]) {
        out = static_cast<Enum>(i);
        return true;
      }
    }
    const std::string suggestion = closest(s, to_strings(all));
    add(where, "unknown type " + quote(s) + " (one of " + join(all) + ")" +
                   (suggestion.empty() ? "" : "; did you mean " + quote(suggestion) + "?"));
    return false;
  }

  /// The array at `key` with at most `max` items; nullptr when absent or wrong.
  const Json* array(const Json& object, const std::string& pointer, const char* key, int max, const char* items) {
    const Json* value = find(object, key);
    if (value == nullptr) return nullptr;
    const std::string where = child(pointer, key);
    if (!value->is_array()) {
      add(where, "must be an array of " + std::string(items) + ", got " + describe_json(*value));
      return nullptr;
    }
    if (value->size() > static_cast<std::size_t>(max)) {
      add(where, "too many " + std::string(items) + ": " + std::to_string(value->size()) + " (at most " +
                     std::to_string(max) + ")");
    }
    return value;
  }

 private:
  Issues& issues_;
};

/// Number of items of `array` to read: all of them up to `max`.
std::size_t items_to_read(const Json* array, int max) {
  return array == nullptr ? 0 : std::min(array->size(), static_cast<std::size_t>(max));
}

// ---- names and references ------------------------------------------------------------------------------

/// Unique names of a list (bodies or planes) and the lookups of references to them.
class NameTable {
 public:
  NameTable(const char* kind, const char* kinds, const char* list_pointer)
      : kind_(kind), kinds_(kinds), list_pointer_(list_pointer) {}

  /// Records `name` of item `index`; reports a duplicate.
  void insert(Reader& reader, const std::string& name, int index, const std::string& pointer) {
    const auto [it, inserted] = index_.emplace(name, index);
    if (!inserted) {
      reader.add(pointer, "duplicate " + std::string(kind_) + " name " + quote(name) + " (also " + list_pointer_ +
                              "/" + std::to_string(it->second) + "/name)");
      return;
    }
    names_.push_back(name);
  }

  /// False when some items were left unread (too many), so an unknown name may just be unread.
  void set_complete(bool complete) { complete_ = complete; }

  /// Index of `name`, or reports it unknown and returns nullopt.
  std::optional<int> find(Reader& reader, const std::string& name, const std::string& pointer) const {
    const auto it = index_.find(name);
    if (it != index_.end()) return it->second;
    if (!complete_) return std::nullopt;
    std::string message = "unknown " + std::string(kind_) + " " + quote(name);
    const std::string suggestion = closest(name, names_);
    if (!suggestion.empty()) {
      message += "; did you mean " + quote(suggestion) + "?";
    } else if (names_.empty()) {
      message += " (there are no " + std::string(kinds_) + ")";
    } else {
      message += " (" + std::string(kinds_) + ": ";
      for (std::size_t i = 0; i < names_.size() && i < 8; ++i) message += (i ? ", " : "") + quote(names_[i]);
      message += names_.size() > 8 ? ", …)" : ")";
    }
    reader.add(pointer, message);
    return std::nullopt;
  }

 private:
  const char* kind_;
  const char* kinds_;
  std::string list_pointer_;
  std::map<std::string, int> index_;
  std::vector<std::string> names_;
  bool complete_ = true;
};

// ---- the document --------------------------------------------------------------------------------------

class DocumentReader {
 public:
  explicit DocumentReader(Issues& issues) : r_(issues) {}

  Scenario read(const Json& doc) {
    Scenario s;
    if (!doc.is_object()) {
      r_.add("", "a scenario must be a JSON object, got " + describe_json(doc));
      return s;
    }
    if (!read_version(doc, s)) return s;
    r_.keys(doc, "", kDocumentKeys, kDocumentKeys, "a scenario");

    // Title, description and the global physics.
    r_.text(doc, "", "title", s.title, kMaxTitleLength);
    r_.text(doc, "", "description", s.description, kMaxDescriptionLength, true);
    r_.vec2(doc, "", "gravity", s.gravity);
    r_.number(doc, "", "restitution", s.restitution, kUnitInterval);
    r_.optional_number(doc, "", "nu", s.nu, kPositive, "null: the condition-optimal virtual mass");
    r_.number(doc, "", "duration", s.duration, Range{0.0, kMaxDuration, true, false});

    // Bodies and planes first: joints, contacts, forces and impulses refer to them by name.
    read_bodies(doc, s);
    read_planes(doc, s);
    read_joints(doc, s);
    read_contacts(doc, s);
    read_forces(doc, s);
    read_impulses(doc, s);
    read_integrator(doc, s);
    read_view(doc, s);
    return s;
  }

 private:
  bool read_version(const Json& doc, Scenario& s) {
    const Json* value = Reader::find(doc, "oblique");
    if (value == nullptr) return true;
    const std::string expected = "the format version, " + std::to_string(kScenarioVersion);
    const std::string problem = number_problem(*value);
    if (!problem.empty()) {
      r_.add("/oblique", problem + " (" + expected + ")");
      return true;
    }
    if (std::floor(value->get<double>()) != value->get<double>()) {
      r_.add("/oblique", "must be a whole number (" + expected + "), got " + show_number(value->get<double>()));
      return true;
    }
    const double version = value->get<double>();
    if (version > kScenarioVersion) {
      // A newer format: its other fields may mean things this build does not know; say only this.
      r_.add("/oblique", "this document is format version " + show_number(version) +
                             "; this build of Oblique reads version " + std::to_string(kScenarioVersion) +
                             " (use a newer Oblique)");
      return false;
    }
    if (version < 1) {
      r_.add("/oblique", "must be " + std::to_string(kScenarioVersion) + " (the format version), got " +
                             show_number(version));
      return true;
    }
    s.version = static_cast<int>(version);
    return true;
  }

  /// A name: non-empty, one line, at most kMaxNameLength bytes.
  bool read_name(const Json& object, const std::string& pointer, std::string& out, bool required,
                 const std::string& why) {
    if (Reader::find(object, "name") == nullptr) {
      if (required) r_.add(child(pointer, "name"), "missing (" + why + ")");
      return !required;
    }
    if (!r_.text(object, pointer, "name", out, kMaxNameLength)) return false;
    if (required && out.empty()) {
      r_.add(child(pointer, "name"), "must not be empty (" + why + ")");
      return false;
    }
    return true;
  }

  /// A body by name; "world" (kWorld) when `allow_world`. Absent: keeps `out` and reports it when required.
  bool read_body_ref(const Json& object, const std::string& pointer, const char* key, int& out, bool allow_world,
                     bool required) {
    const Json* value = Reader::find(object, key);
    const std::string where = child(pointer, key);
    if (value == nullptr) {
      if (required) r_.add(where, std::string("missing (the name of a body") + (allow_world ? " or \"world\")" : ")"));
      return !required;
    }
    if (!value->is_string()) {
      r_.add(where, std::string("must be the name of a body") + (allow_world ? " or \"world\"" : "") + ", got " +
                        describe_json(*value));
      return false;
    }
    const std::string& name = value->get_ref<const std::string&>();
    if (name == kWorldName) {
      if (!allow_world) {
        r_.add(where, "must be a body, not the world");
        return false;
      }
      out = kWorld;
      return true;
    }
    const std::optional<int> index = bodies_.find(r_, name, where);
    if (!index) return false;
    out = *index;
    return true;
  }

  void read_bodies(const Json& doc, Scenario& s) {
    if (Reader::find(doc, "bodies") == nullptr) {
      r_.add("/bodies", "missing (a scenario needs at least one body)");
      return;
    }
    const Json* list = r_.array(doc, "", "bodies", kMaxBodies, "bodies");
    if (list == nullptr) {
      bodies_.set_complete(false);
      return;
    }
    if (list->empty()) r_.add("/bodies", "must have at least one body");
    bodies_.set_complete(list->size() <= static_cast<std::size_t>(kMaxBodies));
    const std::size_t count = items_to_read(list, kMaxBodies);
    for (std::size_t i = 0; i < count; ++i) {
      const std::string pointer = child("/bodies", i);
      const Json& item = (*list)[i];
      BodyDef body;
      if (!r_.object(item, pointer, "a body")) {
        body_ok_.push_back(false);
        s.bodies.push_back(body);
        continue;
      }
      r_.keys(item, pointer, kBodyKeys, kBodyKeys, "a body");
      if (read_name(item, pointer, body.name, true, "joints and contacts refer to a body by its name")) {
        if (body.name == kWorldName) {
          r_.add(child(pointer, "name"), "\"world\" is reserved for the fixed world; choose another name");
        } else {
          bodies_.insert(r_, body.name, static_cast<int>(i), child(pointer, "name"));
        }
      }
      read_shape(item, pointer, body.shape);
      r_.number(item, pointer, "mass", body.mass, kPositive);
      r_.optional_number(item, pointer, "inertia", body.inertia, kPositive, "null: from the shape");
      r_.vec2(item, pointer, "position", body.position);
      r_.number(item, pointer, "angle", body.angle);
      r_.vec2(item, pointer, "velocity", body.velocity);
      r_.number(item, pointer, "angular_velocity", body.angular_velocity);
      if (r_.text(item, pointer, "color", body.color, kMaxColorLength) && !is_css_color(body.color)) {
        r_.add(child(pointer, "color"), "must be a CSS colour such as \"#d04030\", \"steelblue\" or "
                                        "\"rgb(200, 60, 40)\", or \"\" for automatic");
      }
      body_ok_.push_back(true);
      s.bodies.push_back(body);
    }
  }

  static bool is_css_color(const std::string& color) {
    for (unsigned char c : color) {
      const bool ok = std::isalnum(c) || c == '#' || c == '(' || c == ')' || c == ',' || c == '.' || c == '%' ||
                      c == ' ' || c == '-';
      if (!ok) return false;
    }
    return true;
  }

  void read_shape(const Json& body, const std::string& body_pointer, Shape& shape) {
    const Json* value = Reader::find(body, "shape");
    if (value == nullptr) return;
    const std::string pointer = child(body_pointer, "shape");
    if (!r_.object(*value, pointer, "a shape")) return;
    const bool type_ok = r_.choice(*value, pointer, "type", kShapeTypeNames, shape.type);
    const auto type = static_cast<std::size_t>(shape.type);
    r_.keys(*value, pointer, type_ok ? kShapeKeysByType[type] : kShapeKeys, kShapeKeys,
            type_ok ? "a " + std::string(kShapeTypeNames[type]) + " shape" : "a shape");
    if (!type_ok) return;
    const Keys& used = kShapeKeysByType[type];
    const auto uses = [&](const char* key) {
      return std::find_if(used.begin(), used.end(), [&](const char* k) { return std::string(k) == key; }) !=
             used.end();
    };
    // A rod may be thin (end radius 0); its inertia comes from its length.
    if (uses("radius")) {
      r_.number(*value, pointer, "radius", shape.radius, shape.type == Shape::Type::Rod ? kNonNegative : kPositive);
    }
    if (uses("width")) r_.number(*value, pointer, "width", shape.width, kPositive);
    if (uses("height")) r_.number(*value, pointer, "height", shape.height, kPositive);
    if (uses("length")) r_.number(*value, pointer, "length", shape.length, kPositive);
    if (uses("spokes")) r_.integer(*value, pointer, "spokes", shape.spokes, kMinSpokes, kMaxSpokes);
  }

  void read_planes(const Json& doc, Scenario& s) {
    const Json* list = r_.array(doc, "", "planes", kMaxPlanes, "planes");
    if (list == nullptr) {
      planes_.set_complete(Reader::find(doc, "planes") == nullptr);
      return;
    }
    planes_.set_complete(list->size() <= static_cast<std::size_t>(kMaxPlanes));
    const std::size_t count = items_to_read(list, kMaxPlanes);
    for (std::size_t i = 0; i < count; ++i) {
      const std::string pointer = child("/planes", i);
      const Json& item = (*list)[i];
      PlaneDef plane;
      if (r_.object(item, pointer, "a plane")) {
        r_.keys(item, pointer, kPlaneKeys, kPlaneKeys, "a plane");
        if (read_name(item, pointer, plane.name, true, "contacts refer to a plane by its name")) {
          planes_.insert(r_, plane.name, static_cast<int>(i), child(pointer, "name"));
        }
        r_.vec2(item, pointer, "point", plane.point);
        r_.direction(item, pointer, "normal", plane.normal, "the direction out of the plane, into free space");
      }
      s.planes.push_back(plane);
    }
  }

  void read_joints(const Json& doc, Scenario& s) {
    const Json* list = r_.array(doc, "", "joints", kMaxJoints, "joints");
    const std::size_t count = items_to_read(list, kMaxJoints);
    for (std::size_t i = 0; i < count; ++i) {
      const std::string pointer = child("/joints", i);
      const Json& item = (*list)[i];
      JointDef joint;
      if (r_.object(item, pointer, "a joint")) read_joint(item, pointer, joint);
      s.joints.push_back(joint);
    }
  }

  void read_joint(const Json& item, const std::string& pointer, JointDef& joint) {
    const bool type_ok = r_.choice(item, pointer, "type", kJointTypeNames, joint.type);
    const auto type = static_cast<std::size_t>(joint.type);
    r_.keys(item, pointer, type_ok ? kJointKeysByType[type] : kJointKeys, kJointKeys,
            type_ok ? "a " + std::string(kJointTypeNames[type]) + " joint" : "a joint");
    read_name(item, pointer, joint.name, false, "");
    const bool a_ok = read_body_ref(item, pointer, "body_a", joint.body_a, true, false);
    const bool b_ok = read_body_ref(item, pointer, "body_b", joint.body_b, true, false);
    if (a_ok && b_ok) check_two_ends(pointer, joint.body_a, joint.body_b, "a joint");
    r_.vec2(item, pointer, "anchor_a", joint.anchor_a);
    r_.vec2(item, pointer, "anchor_b", joint.anchor_b);
    if (!type_ok) return;
    if (joint.type == JointDef::Type::Distance) {
      r_.optional_number(item, pointer, "length", joint.length, kPositive, "null: the initial distance");
    }
    if (joint.type == JointDef::Type::Slider) {
      r_.direction(item, pointer, "axis", joint.axis, "the sliding direction in body_a's frame");
    }
  }

  /// Two ends of a joint or rope: not both the world, not the same body. Reported at body_b.
  void check_two_ends(const std::string& pointer, int a, int b, const std::string& what) {
    if (a == kWorld && b == kWorld) {
      r_.add(child(pointer, "body_b"), what + " needs at least one body (body_a and body_b are both the world; "
                                              "absent means \"world\")");
    } else if (a == b) {
      r_.add(child(pointer, "body_b"), what + " must join two different bodies (body_a is the same body)");
    }
  }

  void read_contacts(const Json& doc, Scenario& s) {
    const Json* list = r_.array(doc, "", "contacts", kMaxContacts, "contacts");
    const std::size_t count = items_to_read(list, kMaxContacts);
    for (std::size_t i = 0; i < count; ++i) {
      const std::string pointer = child("/contacts", i);
      const Json& item = (*list)[i];
      ContactDef contact;
      if (r_.object(item, pointer, "a contact")) read_contact(item, pointer, s, contact);
      s.contacts.push_back(contact);
    }
  }

  void read_contact(const Json& item, const std::string& pointer, const Scenario& s, ContactDef& contact) {
    const bool type_ok = r_.choice(item, pointer, "type", kContactTypeNames, contact.type);
    const auto type = static_cast<std::size_t>(contact.type);
    r_.keys(item, pointer, type_ok ? kContactKeysByType[type] : kContactKeys, kContactKeys,
            type_ok ? "a " + std::string(kContactTypeNames[type]) + " contact" : "a contact");
    read_name(item, pointer, contact.name, false, "");
    r_.optional_number(item, pointer, "e", contact.restitution, kUnitInterval,
                       "null: the scenario's restitution");
    if (!type_ok) return;
    switch (contact.type) {
      case ContactDef::Type::BodyPlane: {
        r_.boolean(item, pointer, "stick", contact.stick);
        read_body_ref(item, pointer, "body", contact.body_a, false, true);
        const Json* plane = Reader::find(item, "plane");
        const std::string where = child(pointer, "plane");
        if (plane == nullptr) {
          r_.add(where, "missing (the name of a plane)");
        } else if (!plane->is_string()) {
          r_.add(where, "must be the name of a plane, got " + describe_json(*plane));
        } else if (const auto index = planes_.find(r_, plane->get_ref<const std::string&>(), where)) {
          contact.plane = *index;
        }
        break;
      }
      case ContactDef::Type::DiskDisk: {
        r_.boolean(item, pointer, "stick", contact.stick);
        const bool a_ok = read_body_ref(item, pointer, "body_a", contact.body_a, false, true);
        const bool b_ok = read_body_ref(item, pointer, "body_b", contact.body_b, false, true);
        if (a_ok) check_disk(pointer, "body_a", contact.body_a, s);
        if (b_ok) check_disk(pointer, "body_b", contact.body_b, s);
        if (a_ok && b_ok) check_two_ends(pointer, contact.body_a, contact.body_b, "a disk_disk contact");
        break;
      }
      case ContactDef::Type::Rope: {
        const bool a_ok = read_body_ref(item, pointer, "body_a", contact.body_a, true, false);
        const bool b_ok = read_body_ref(item, pointer, "body_b", contact.body_b, true, false);
        if (a_ok && b_ok) check_two_ends(pointer, contact.body_a, contact.body_b, "a rope");
        r_.vec2(item, pointer, "anchor_a", contact.anchor_a);
        r_.vec2(item, pointer, "anchor_b", contact.anchor_b);
        r_.number(item, pointer, "length", contact.length, kPositive);
        break;
      }
    }
  }

  void check_disk(const std::string& pointer, const char* key, int body, const Scenario& s) {
    if (body < 0 || body >= static_cast<int>(s.bodies.size()) || !body_ok_[static_cast<std::size_t>(body)]) return;
    const Shape::Type type = s.bodies[static_cast<std::size_t>(body)].shape.type;
    if (type != Shape::Type::Disk) {
      r_.add(child(pointer, key), "must be a disk (a disk_disk contact joins two disks); " +
                                      quote(s.bodies[static_cast<std::size_t>(body)].name) + " is a " +
                                      kShapeTypeNames[static_cast<std::size_t>(type)]);
    }
  }

  void read_forces(const Json& doc, Scenario& s) {
    const Json* list = r_.array(doc, "", "forces", kMaxForces, "forces");
    const std::size_t count = items_to_read(list, kMaxForces);
    for (std::size_t i = 0; i < count; ++i) {
      const std::string pointer = child("/forces", i);
      const Json& item = (*list)[i];
      ForceDef force;
      if (r_.object(item, pointer, "a force")) {
        r_.keys(item, pointer, kForceKeys, kForceKeys, "a force");
        read_body_ref(item, pointer, "body", force.body, false, true);
        r_.vec2(item, pointer, "force", force.force);
        r_.number(item, pointer, "torque", force.torque);
      }
      s.forces.push_back(force);
    }
  }

  void read_impulses(const Json& doc, Scenario& s) {
    const Json* list = r_.array(doc, "", "impulses", kMaxImpulses, "impulses");
    const std::size_t count = items_to_read(list, kMaxImpulses);
    for (std::size_t i = 0; i < count; ++i) {
      const std::string pointer = child("/impulses", i);
      const Json& item = (*list)[i];
      ImpulseDef impulse;
      if (r_.object(item, pointer, "an impulse")) {
        r_.keys(item, pointer, kImpulseKeys, kImpulseKeys, "an impulse");
        r_.number(item, pointer, "time", impulse.time, kNonNegative);
        read_body_ref(item, pointer, "body", impulse.body, false, true);
        r_.vec2(item, pointer, "impulse", impulse.impulse);
        r_.number(item, pointer, "angular", impulse.angular);
      }
      s.impulses.push_back(impulse);
    }
  }

  void read_integrator(const Json& doc, Scenario& s) {
    const Json* value = Reader::find(doc, "integrator");
    if (value == nullptr || !r_.object(*value, "/integrator", "the integrator settings")) return;
    IntegratorDef& integrator = s.integrator;
    r_.keys(*value, "/integrator", kIntegratorKeys, kIntegratorKeys, "the integrator settings");
    const bool step_ok = r_.number(*value, "/integrator", "step", integrator.step, Range{kMinStep, kMaxStep, false, false});
    if (r_.number(*value, "/integrator", "event_tolerance", integrator.event_tolerance, kPositive) && step_ok &&
        integrator.event_tolerance > integrator.step) {
      r_.add("/integrator/event_tolerance", "must not exceed the step (" + show_number(integrator.step) +
                                                "), got " + show_number(integrator.event_tolerance));
    }
    r_.number(*value, "/integrator", "rest_speed", integrator.rest_speed, kPositive);
    r_.number(*value, "/integrator", "projection_tolerance", integrator.projection_tolerance,
              Range{0.0, 1e-3, true, false});
  }

  void read_view(const Json& doc, Scenario& s) {
    const Json* value = Reader::find(doc, "view");
    if (value == nullptr || !r_.object(*value, "/view", "the view settings")) return;
    r_.keys(*value, "/view", kViewKeys, kViewKeys, "the view settings");
    r_.vec2(*value, "/view", "center", s.view.center);
    r_.number(*value, "/view", "width", s.view.width, kPositive);
    r_.boolean(*value, "/view", "trails", s.view.trails);
  }

  Reader r_;
  NameTable bodies_{"body", "bodies", "/bodies"};
  NameTable planes_{"plane", "planes", "/planes"};
  std::vector<bool> body_ok_;  ///< per body read: an object (its shape is known)
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
  Issues issues;
  DocumentReader(issues).read(document);
  return issues.take();
}

Scenario parse_scenario(const Json& document) {
  Issues issues;
  Scenario scenario = DocumentReader(issues).read(document);
  if (!issues.empty()) {
    const ScenarioIssue first = issues.take().front();
    throw std::invalid_argument(first.pointer.empty() ? first.message : first.pointer + ": " + first.message);
  }
  return scenario;
}

Json scenario_to_json(const Scenario& s) {
  Json doc;
  doc["oblique"] = s.version;
  doc["title"] = s.title;
  doc["description"] = s.description;
  doc["gravity"] = vec2_json(s.gravity);
  doc["restitution"] = s.restitution;
  doc["nu"] = optional_json(s.nu);
  doc["duration"] = s.duration;

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

  // Contacts: the keys of their type.
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
    if (contact.type != ContactDef::Type::Rope) c["stick"] = contact.stick;
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

double shape_inertia(const Shape& shape, double mass) {
  switch (shape.type) {
    case Shape::Type::Disk:
    case Shape::Type::Point:
      return 0.5 * mass * shape.radius * shape.radius;
    case Shape::Type::Box:
      return mass * (shape.width * shape.width + shape.height * shape.height) / 12.0;
    case Shape::Type::Rod:
      return mass * shape.length * shape.length / 12.0;
    case Shape::Type::Wheel:
      return mass * shape.radius * shape.radius / 3.0;
  }
  return 0.0;
}

}  // namespace oblique
