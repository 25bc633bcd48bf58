// The rules of a valid Scenario (scenario_check.hpp), one part at a time (scenario_rules.hpp).
#include "oblique/scenario/scenario_check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <tuple>

#include "oblique/model/model.hpp"
#include "oblique/geometry/scenario_overlaps.hpp"
#include "oblique/math/trigonometry.hpp"
#include "scenario/scenario_rules.hpp"
#include "math/utf8.hpp"

namespace oblique {

namespace {

const char* const kWorldName = "world";
const char* const kShapeNames[] = {"disk", "box", "rod", "point", "wheel"};

/// "/list/i/key" (or "/list/i" without a key).
std::string at(const char* list, std::size_t i, const char* key = nullptr) {
  // Written out in one string of the right size (a scenario of 64 bodies asks for thousands, 5 % of a
  // 64-disk row's first 0.02 s in wasm when each grew by appends): `list` and `key` are this file's names,
  // which hold no "~" or "/" for pointer_child to escape.
  char digits[std::numeric_limits<std::size_t>::digits10 + 1];
  std::size_t count = 0;
  do {
    digits[count++] = static_cast<char>('0' + i % 10);
    i /= 10;
  } while (i > 0);
  const std::size_t list_length = std::strlen(list);
  const std::size_t key_length = key != nullptr ? std::strlen(key) : 0;
  std::string out(2 + list_length + count + (key != nullptr ? 1 + key_length : 0), '/');
  char* write = out.data() + 1;
  write = std::copy(list, list + list_length, write) + 1;
  while (count > 0) *write++ = digits[--count];
  if (key != nullptr) std::copy(key, key + key_length, write + 1);
  return out;
}

/// "U+202E".
std::string code_point(char32_t c) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "U+%04X", static_cast<unsigned>(c));
  return buffer;
}

// ---- scripts of letters (for the one-script rule of names) --------------------------------------------

enum Script { kLatin, kGreek, kCyrillic, kArmenian, kHebrew, kArabic, kIndic, kThai, kLao, kTibetan, kMyanmar,
              kGeorgian, kEthiopic, kCherokee, kKhmer, kMongolian, kCjk, kOtherScript };
const char* const kScriptNames[] = {"Latin",    "Greek",    "Cyrillic", "Armenian", "Hebrew",    "Arabic",
                                    "Indic",    "Thai",     "Lao",      "Tibetan",  "Myanmar",   "Georgian",
                                    "Ethiopic", "Cherokee", "Khmer",    "Mongolian", "Chinese, Japanese or Korean",
                                    "another script"};

struct ScriptRange {
  char32_t lo, hi;
  Script script;
};

// The blocks of the scripts' letters; a character outside them (digits, punctuation, symbols, emoji) has
// no script. The Indic scripts count as one group, as do Han, kana, Bopomofo and Hangul.
const ScriptRange kScriptRanges[] = {
    {0x41, 0x5A, kLatin},       {0x61, 0x7A, kLatin},       {0xC0, 0xD6, kLatin},       {0xD8, 0xF6, kLatin},
    {0xF8, 0x2AF, kLatin},      {0x1D00, 0x1D7F, kLatin},   {0x1E00, 0x1EFF, kLatin},   {0x2C60, 0x2C7F, kLatin},
    {0xA720, 0xA7FF, kLatin},   {0xAB30, 0xAB6F, kLatin},   {0xFF21, 0xFF3A, kLatin},   {0xFF41, 0xFF5A, kLatin},
    {0x370, 0x3FF, kGreek},     {0x1F00, 0x1FFF, kGreek},   {0x400, 0x52F, kCyrillic},  {0x1C80, 0x1C8F, kCyrillic},
    {0x2DE0, 0x2DFF, kCyrillic}, {0xA640, 0xA69F, kCyrillic}, {0x530, 0x58F, kArmenian}, {0xFB13, 0xFB17, kArmenian},
    {0x590, 0x5FF, kHebrew},    {0xFB1D, 0xFB4F, kHebrew},  {0x600, 0x6FF, kArabic},    {0x750, 0x77F, kArabic},
    {0x8A0, 0x8FF, kArabic},    {0xFB50, 0xFDFF, kArabic},  {0xFE70, 0xFEFE, kArabic},  {0x900, 0xDFF, kIndic},
    {0xE00, 0xE7F, kThai},      {0xE80, 0xEFF, kLao},       {0xF00, 0xFFF, kTibetan},   {0x1000, 0x109F, kMyanmar},
    {0x10A0, 0x10FF, kGeorgian}, {0x1C90, 0x1CBF, kGeorgian}, {0x2D00, 0x2D2F, kGeorgian}, {0x1100, 0x11FF, kCjk},
    {0x1200, 0x139F, kEthiopic}, {0x13A0, 0x13FF, kCherokee}, {0xAB70, 0xABBF, kCherokee}, {0x1780, 0x17FF, kKhmer},
    {0x1800, 0x18AF, kMongolian}, {0x2E80, 0x2FDF, kCjk},   {0x3005, 0x3007, kCjk},     {0x3040, 0x30FF, kCjk},
    {0x3100, 0x312F, kCjk},     {0x3130, 0x318F, kCjk},     {0x31A0, 0x31BF, kCjk},     {0x31F0, 0x31FF, kCjk},
    {0x3400, 0x4DBF, kCjk},     {0x4E00, 0x9FFF, kCjk},     {0xA960, 0xA97F, kCjk},     {0xAC00, 0xD7FF, kCjk},
    {0xF900, 0xFAFF, kCjk},     {0xFF66, 0xFF9F, kCjk},     {0xFFA1, 0xFFDC, kCjk},     {0x20000, 0x3134F, kCjk},
};

/// The script of a letter, or -1 for a character of no script.
int script_of(char32_t c) {
  for (const ScriptRange& range : kScriptRanges) {
    if (c >= range.lo && c <= range.hi) return range.script;
  }
  return -1;
}

// ---- look-alikes of "world" ------------------------------------------------------------------------------

/// The ASCII letter `c` reads as, for the letters of "world" (0 when none).
char world_skeleton(char32_t c) {
  // Full-width ASCII reads as ASCII.
  if (c >= 0xFF01 && c <= 0xFF5E) c -= 0xFEE0;
  if (c < 0x80) {
    if (c == '0') return 'o';
    if (c == '1' || c == 'I' || c == '|') return 'l';
    return static_cast<char>(std::tolower(static_cast<int>(c)));
  }
  switch (c) {
    // w
    case 0x0175: case 0x0174: case 0x03C9: case 0x0461: case 0x0460: case 0x051D: case 0x051C: case 0x1D21:
    case 0x1E81: case 0x1E83: case 0x1E85: case 0x1E87: case 0x1E89: case 0x1E98: case 0x2C73:
      return 'w';
    // o
    case 0x00BA: case 0x00F2: case 0x00F3: case 0x00F4: case 0x00F5: case 0x00F6: case 0x00F8: case 0x00D2:
    case 0x00D3: case 0x00D4: case 0x00D5: case 0x00D6: case 0x00D8: case 0x014D: case 0x014F: case 0x0151:
    case 0x039F: case 0x03BF: case 0x03C3: case 0x041E: case 0x043E: case 0x0555: case 0x0585: case 0x1D0F:
    case 0x2134: case 0x0D20: case 0x0966: case 0x09E6: case 0x0E50: case 0x3007:
      return 'o';
    // r
    case 0x0155: case 0x0157: case 0x0159: case 0x0433: case 0x1D26: case 0x1D63: case 0x2C85: case 0xAB47:
    case 0xAB48: case 0x027C: case 0x027D: case 0x027E:
      return 'r';
    // l
    case 0x013A: case 0x013C: case 0x013E: case 0x0140: case 0x0142: case 0x01C0: case 0x0196: case 0x0399:
    case 0x03B9: case 0x0406: case 0x04C0: case 0x04CF: case 0x05C0: case 0x05D5: case 0x2113: case 0x2160:
    case 0x217C: case 0x2223: case 0x23FD: case 0x2C92: case 0xFFE8:
      return 'l';
    // d
    case 0x010F: case 0x0111: case 0x0256: case 0x0257: case 0x0501: case 0x13E7: case 0x146F: case 0x2146:
    case 0x217E: case 0xA4D2:
      return 'd';
    default:
      return 0;
  }
}

/// Words that every built-in colour keyword and function name is made of: letters and '-'.
bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_hex_digit(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

/// The world point of an anchor at the initial state (the portable cos/sin, so that every build agrees).
Vec2 initial_anchor(const Scenario& s, int body, const Vec2& local) {
  if (body == kWorld) return local;
  const BodyDef& b = s.bodies[static_cast<std::size_t>(body)];
  const CosSin r = cos_sin(b.angle);
  return b.position + Vec2(r.cos * local.x() - r.sin * local.y(), r.sin * local.x() + r.cos * local.y());
}

}  // namespace

// ---- text --------------------------------------------------------------------------------------------------

std::string text_problem(std::string_view text, bool multiline) {
  for (std::size_t i = 0; i < text.size();) {
    char32_t c = 0;
    if (!utf8::decode(text, i, c)) return "must be valid UTF-8 text";
    if (utf8::is_control(c)) {
      if (multiline && (c == '\n' || c == '\t')) continue;
      return multiline ? "must not contain control characters other than newline and tab (" + code_point(c) + ")"
                       : "must be one line without control characters (" + code_point(c) + ")";
    }
    if (utf8::is_line_separator(c)) {
      return multiline ? "must break lines with newlines, not " + code_point(c)
                       : "must be one line (" + code_point(c) + " is a line separator)";
    }
    if (utf8::is_bidi_control(c)) {
      return "must not contain bidirectional control characters (" + code_point(c) +
             "), which reorder the text shown around them";
    }
  }
  return "";
}

std::string name_problem(std::string_view name) {
  if (!name.empty() && (name.front() == ' ' || name.back() == ' ')) return "must not begin or end with a space";
  std::set<int> scripts;
  std::map<int, std::pair<char32_t, std::string>> first_of;  // each script's first letter, for the message
  for (std::size_t i = 0; i < name.size();) {
    const std::size_t start = i;
    char32_t c = 0;
    if (!utf8::decode(name, i, c)) return "must be valid UTF-8 text";
    if (utf8::is_other_space(c)) {
      return "must not contain " + code_point(c) + ", a space that is not a plain space (U+0020)";
    }
    if (utf8::is_invisible(c)) return "must not contain invisible characters (" + code_point(c) + ")";
    if (utf8::is_generic_combining_mark(c)) {
      return "must not contain combining accents (" + code_point(c) + "): write the accented letter itself";
    }
    const int script = script_of(c);
    if (script >= 0 && scripts.insert(script).second) {
      first_of[script] = {c, std::string(name.substr(start, i - start))};
    }
  }
  // One script; Latin may go with Chinese, Japanese or Korean.
  const bool latin_and_cjk = scripts.size() == 2 && scripts.count(kLatin) && scripts.count(kCjk);
  if (scripts.size() > 1 && !latin_and_cjk) {
    const int a = *scripts.begin();
    const int b = *std::next(scripts.begin());
    return "mixes " + std::string(kScriptNames[a]) + " and " + kScriptNames[b] + " letters (" + quote(first_of[b].second) +
           " is " + code_point(first_of[b].first) + "): the letters of a name come from one script, so that it "
           "cannot pass for another name";
  }
  return "";
}

bool looks_like_world(std::string_view name) {
  std::string skeleton;
  for (std::size_t i = 0; i < name.size();) {
    char32_t c = 0;
    if (!utf8::decode(name, i, c)) return false;
    const char letter = world_skeleton(c);
    if (letter == 0) return false;
    skeleton += letter;
    if (skeleton.size() > 5) return false;
  }
  return skeleton == kWorldName;
}

bool has_css_color_syntax(std::string_view color) {
  if (color.empty()) return true;
  // #rgb, #rgba, #rrggbb, #rrggbbaa.
  if (color.front() == '#') {
    const std::string_view digits = color.substr(1);
    return (digits.size() == 3 || digits.size() == 4 || digits.size() == 6 || digits.size() == 8) &&
           std::all_of(digits.begin(), digits.end(), is_hex_digit);
  }
  // A keyword, or a function name: letters and '-'.
  std::size_t i = 0;
  while (i < color.size() && (is_letter(color[i]) || (i > 0 && color[i] == '-'))) ++i;
  if (i == 0) return false;
  if (i == color.size()) return true;
  // A function: name(arguments), the arguments numbers, letters, spaces and . , % / + -.
  if (color[i] != '(' || color.back() != ')') return false;
  const std::string_view arguments = color.substr(i + 1, color.size() - i - 2);
  return std::all_of(arguments.begin(), arguments.end(), [](char c) {
    return is_letter(c) || (c >= '0' && c <= '9') || c == ' ' || c == '.' || c == ',' || c == '%' || c == '/' ||
           c == '+' || c == '-';
  });
}

// ---- the rules ---------------------------------------------------------------------------------------------

namespace detail {

void ScenarioRules::add(const std::string& pointer, const std::string& message) {
  if (!skipped(pointer)) issues_.add(pointer, message);
}

bool ScenarioRules::finite(const std::string& pointer, double x) {
  if (std::isfinite(x)) return true;
  add(pointer, "must be a finite number, got " + show_number(x));
  return false;
}

void ScenarioRules::magnitude(const std::string& pointer, double x, double max, const char* unit) {
  if (!finite(pointer, x)) return;
  if (std::abs(x) > max) {
    add(pointer, "must be at most " + show_number(max) + " " + unit + " in magnitude, got " + show_number(x));
  }
}

void ScenarioRules::vector_magnitude(const std::string& pointer, const Vec2& v, double max, const char* unit) {
  if (skipped(pointer)) return;
  magnitude(pointer_child(pointer, std::size_t{0}), v.x(), max, unit);
  magnitude(pointer_child(pointer, std::size_t{1}), v.y(), max, unit);
}

void ScenarioRules::positive(const std::string& pointer, double x, double min, bool min_open, double max,
                             const char* unit) {
  if (!finite(pointer, x)) return;
  // The value as the messages quote it, written only for one (a scenario of 64 bodies checks thousands).
  const auto got = [x] { return ", got " + show_number(x); };
  if (!(x > 0.0) && min >= 0.0 && (min > 0.0 || min_open)) {
    add(pointer, "must be positive" + got());
  } else if (min_open ? !(x > min) : !(x >= min)) {
    add(pointer, (min == 0.0 ? std::string("must not be negative") : "must be at least " + show_number(min) + " " + unit) +
                     got());
  } else if (x > max) {
    add(pointer, "must be at most " + show_number(max) + " " + unit + got());
  }
}

void ScenarioRules::interval(const std::string& pointer, double x, double lo, bool lo_open, double hi, bool hi_open) {
  if (!finite(pointer, x)) return;
  const bool below = lo_open ? !(x > lo) : !(x >= lo);
  const bool above = hi_open ? !(x < hi) : !(x <= hi);
  if (below || above) {
    add(pointer, "must be in " + std::string(lo_open ? "(" : "[") + show_number(lo) + ", " + show_number(hi) +
                     (hi_open ? ")" : "]") + ", got " + show_number(x));
  }
}

void ScenarioRules::direction(const std::string& pointer, const Vec2& v, const char* meaning) {
  if (skipped(pointer)) return;
  const bool x_ok = finite(pointer_child(pointer, std::size_t{0}), v.x());
  const bool y_ok = finite(pointer_child(pointer, std::size_t{1}), v.y());
  if (x_ok && y_ok && v.x() == 0.0 && v.y() == 0.0) add(pointer, std::string("must not be zero (") + meaning + ")");
}

bool ScenarioRules::text(const std::string& pointer, const std::string& value, std::size_t max_bytes,
                         bool multiline) {
  if (!text_ || skipped(pointer)) return false;
  if (value.size() > max_bytes) {
    add(pointer, "is too long: " + std::to_string(value.size()) + " bytes (at most " + std::to_string(max_bytes) + ")");
    return false;
  }
  const std::string problem = text_problem(value, multiline);
  if (!problem.empty()) add(pointer, problem);
  return problem.empty();
}

void ScenarioRules::name(const std::string& pointer, const std::string& value, bool required,
                         const std::string& why) {
  if (!text_ || skipped(pointer)) return;
  if (value.empty()) {
    if (required) add(pointer, "must not be empty (" + why + ")");
    return;
  }
  if (!text(pointer, value, kMaxNameLength, false)) return;
  const std::string problem = name_problem(value);
  if (!problem.empty()) add(pointer, problem);
}

bool ScenarioRules::body_ref(const std::string& pointer, int body, bool allow_world) {
  if (skipped(pointer)) return false;
  if (body == kWorld) {
    if (!allow_world) add(pointer, "must be a body, not the world");
    return allow_world;
  }
  if (body < 0 || body >= static_cast<int>(s_.bodies.size())) {
    add(pointer, "must be a body index in 0.." + std::to_string(static_cast<int>(s_.bodies.size()) - 1) +
                     (allow_world ? " or -1 (the world)" : "") + ", got " + std::to_string(body));
    return false;
  }
  return true;
}

bool ScenarioRules::two_ends(const std::string& pointer, int a, int b, bool a_ok, bool b_ok, const char* what) {
  if (!a_ok || !b_ok) return false;
  const std::string where = pointer_child(pointer, "body_b");
  if (a == kWorld && b == kWorld) {
    add(where, std::string(what) + " needs at least one body (body_a and body_b are both the world; absent means "
                                   "\"world\")");
    return false;
  }
  if (a == b) {
    add(where, std::string(what) + " must join two different bodies (body_a is the same body)");
    return false;
  }
  return true;
}

void ScenarioRules::anchors_apart(const std::string& pointer, int body_a, const Vec2& anchor_a, int body_b,
                                  const Vec2& anchor_b, const char* what) {
  const double separation = (initial_anchor(s_, body_b, anchor_b) - initial_anchor(s_, body_a, anchor_a)).norm();
  if (separation < kMinLength) {
    add(pointer, "is " + show_number(separation) + " m from anchor_a at t = 0: " + what + " needs its anchors at least " +
                     show_number(kMinLength) + " m apart (its direction is undefined where they meet)");
  }
}

void ScenarioRules::shape(const std::string& pointer, const Shape& shape) {
  if (skipped(pointer)) return;
  switch (shape.type) {
    case Shape::Type::Disk:
    case Shape::Type::Point:
      positive(pointer_child(pointer, "radius"), shape.radius, kMinLength, false, kMaxLength, "m");
      break;
    case Shape::Type::Box:
      positive(pointer_child(pointer, "width"), shape.width, kMinLength, false, kMaxLength, "m");
      positive(pointer_child(pointer, "height"), shape.height, kMinLength, false, kMaxLength, "m");
      break;
    case Shape::Type::Rod:
      // A rod may be thin (end radius 0): its inertia comes from its length.
      positive(pointer_child(pointer, "length"), shape.length, kMinLength, false, kMaxLength, "m");
      positive(pointer_child(pointer, "radius"), shape.radius, 0.0, false, kMaxLength, "m");
      break;
    case Shape::Type::Wheel:
      positive(pointer_child(pointer, "radius"), shape.radius, kMinLength, false, kMaxLength, "m");
      if (!skipped(pointer_child(pointer, "spokes")) && (shape.spokes < kMinSpokes || shape.spokes > kMaxSpokes)) {
        add(pointer_child(pointer, "spokes"), "must be in [" + std::to_string(kMinSpokes) + ", " +
                                                   std::to_string(kMaxSpokes) + "], got " + std::to_string(shape.spokes));
      }
      break;
  }
}

// ---- the document's own fields ----------------------------------------------------------------------------

void ScenarioRules::version() {
  if (s_.version != kScenarioVersion && !skipped("/oblique")) {
    add("/oblique", "must be " + std::to_string(kScenarioVersion) + " (the format version), got " +
                        std::to_string(s_.version));
  }
}

void ScenarioRules::title() { text("/title", s_.title, kMaxTitleLength, false); }
void ScenarioRules::description() { text("/description", s_.description, kMaxDescriptionLength, true); }
void ScenarioRules::gravity() { vector_magnitude("/gravity", s_.gravity, kMaxGravity, "m/s²"); }
void ScenarioRules::restitution() { interval("/restitution", s_.restitution, 0.0, false, 1.0, false); }
void ScenarioRules::friction() { interval("/mu", s_.mu, 0.0, false, kMaxFrictionCoefficient, false); }
void ScenarioRules::duration() { interval("/duration", s_.duration, 0.0, true, kMaxDuration, false); }

void ScenarioRules::nu() {
  if (!s_.nu || skipped("/nu")) return;
  const double nu = *s_.nu;
  if (!finite("/nu", nu)) return;
  if (!(nu > 0.0)) {
    add("/nu", "must be positive, got " + show_number(nu));
    return;
  }
  // Within kMaxNuFactor of the entries of M = diag(m, m, I) of the bodies whose values are valid.
  double lo = std::numeric_limits<double>::infinity();
  double hi = 0.0;
  for (const BodyDef& body : s_.bodies) {
    const double inertia = body.inertia ? *body.inertia : shape_inertia(body.shape, body.mass);
    for (double x : {body.mass, inertia}) {
      if (!(x >= kMinInertia && x <= kMaxInertia)) continue;
      lo = std::min(lo, x);
      hi = std::max(hi, x);
    }
  }
  if (!(hi > 0.0)) return;
  lo /= kMaxNuFactor;
  hi *= kMaxNuFactor;
  if (nu < lo || nu > hi) {
    add("/nu", "must be within a factor " + show_number(kMaxNuFactor) + " of the masses and inertias, in [" +
                   show_number(lo) + ", " + show_number(hi) + "] for this scenario, got " + show_number(nu) +
                   " (null: the condition-optimal ν)");
  }
}

// ---- the lists -------------------------------------------------------------------------------------------

void ScenarioRules::body_count() {
  if (skipped("/bodies")) return;
  if (s_.bodies.empty()) add("/bodies", "must have at least one body");
  list_count("bodies", s_.bodies.size(), kMaxBodies);
}

void ScenarioRules::list_count(const char* key, std::size_t count, std::size_t max) {
  if (count > max) add(pointer_child("", key), "too many " + std::string(key) + ": " + std::to_string(count) +
                                                   " (at most " + std::to_string(max) + ")");
}

void ScenarioRules::body(std::size_t i) {
  const BodyDef& body = s_.bodies[i];
  if (skipped(at("bodies", i))) return;

  // The name: unique, not the world's.
  const std::string name_at = at("bodies", i, "name");
  name(name_at, body.name, true, "joints and contacts refer to a body by its name");
  if (text_ && !skipped(name_at) && !body.name.empty()) {
    if (body.name == kWorldName) {
      add(name_at, "\"world\" is reserved for the fixed world; choose another name");
    } else if (looks_like_world(body.name)) {
      add(name_at, "looks like \"world\", which is reserved for the fixed world; choose another name");
    } else {
      for (std::size_t j = 0; j < i; ++j) {
        if (s_.bodies[j].name == body.name && !skipped(at("bodies", j, "name"))) {
          add(name_at, "duplicate body name " + quote(body.name) + " (also " + at("bodies", j, "name") + ")");
          break;
        }
      }
    }
  }

  // Shape, inertia and the initial state.
  shape(at("bodies", i, "shape"), body.shape);
  positive(at("bodies", i, "mass"), body.mass, kMinMass, false, kMaxMass, "kg");
  if (body.inertia) positive(at("bodies", i, "inertia"), *body.inertia, kMinInertia, false, kMaxInertia, "kg m²");
  vector_magnitude(at("bodies", i, "position"), body.position, kMaxCoordinate, "m");
  magnitude(at("bodies", i, "angle"), body.angle, kMaxAngle, "rad");
  vector_magnitude(at("bodies", i, "velocity"), body.velocity, kMaxSpeed, "m/s");
  magnitude(at("bodies", i, "angular_velocity"), body.angular_velocity, kMaxAngularSpeed, "rad/s");
  // e of its automatic contacts.
  if (body.restitution) interval(at("bodies", i, "e"), *body.restitution, 0.0, false, 1.0, false);
  // μ of its automatic contacts; `stick` is μ = +∞ already.
  if (body.mu) {
    interval(at("bodies", i, "mu"), *body.mu, 0.0, false, kMaxFrictionCoefficient, false);
    if (body.stick) add(at("bodies", i, "mu"), "must be null when stick is true (stick is μ = +∞)");
  }

  // The colour: a hint for the page, of the form of a CSS colour.
  const std::string color_at = at("bodies", i, "color");
  if (text(color_at, body.color, kMaxColorLength, false) && !has_css_color_syntax(body.color)) {
    add(color_at, "must be a CSS colour such as \"#d04030\", \"steelblue\" or \"rgb(200, 60, 40)\", or \"\" for "
                  "automatic");
  }
}

void ScenarioRules::plane(std::size_t i) {
  const PlaneDef& plane = s_.planes[i];
  if (skipped(at("planes", i))) return;
  const std::string name_at = at("planes", i, "name");
  name(name_at, plane.name, true, "contacts refer to a plane by its name");
  if (text_ && !skipped(name_at) && !plane.name.empty()) {
    for (std::size_t j = 0; j < i; ++j) {
      if (s_.planes[j].name == plane.name && !skipped(at("planes", j, "name"))) {
        add(name_at, "duplicate plane name " + quote(plane.name) + " (also " + at("planes", j, "name") + ")");
        break;
      }
    }
  }
  vector_magnitude(at("planes", i, "point"), plane.point, kMaxCoordinate, "m");
  direction(at("planes", i, "normal"), plane.normal, "the direction out of the plane, into free space");
}

void ScenarioRules::joint(std::size_t i) {
  const JointDef& joint = s_.joints[i];
  if (skipped(at("joints", i))) return;
  name(at("joints", i, "name"), joint.name, false, "");
  const bool a_ok = body_ref(at("joints", i, "body_a"), joint.body_a, true);
  const bool b_ok = body_ref(at("joints", i, "body_b"), joint.body_b, true);
  const bool ends_ok = two_ends(at("joints", i), joint.body_a, joint.body_b, a_ok, b_ok, "a joint");
  vector_magnitude(at("joints", i, "anchor_a"), joint.anchor_a, kMaxCoordinate, "m");
  vector_magnitude(at("joints", i, "anchor_b"), joint.anchor_b, kMaxCoordinate, "m");

  // A distance joint: a length in bounds, given or the initial distance, and anchors apart.
  if (joint.type == JointDef::Type::Distance) {
    const std::string length_at = at("joints", i, "length");
    if (joint.length) positive(length_at, *joint.length, kMinLength, false, kMaxLength, "m");
    const bool anchors_read = !skipped(at("joints", i, "anchor_a")) && !skipped(at("joints", i, "anchor_b")) &&
                              joint.anchor_a.allFinite() && joint.anchor_b.allFinite();
    if (ends_ok && anchors_read) {
      const Vec2 d = initial_anchor(s_, joint.body_b, joint.anchor_b) - initial_anchor(s_, joint.body_a, joint.anchor_a);
      const double separation = d.norm();
      if (!joint.length && separation < kMinLength) {
        add(length_at, "null means the initial distance between the anchors, which is " + show_number(separation) +
                           " m: a distance joint needs its anchors at least " + show_number(kMinLength) +
                           " m apart (give a length and move an anchor, or use a pin joint)");
      } else if (!joint.length && separation > kMaxLength) {
        add(length_at, "null means the initial distance between the anchors, which is " + show_number(separation) +
                           " m: at most " + show_number(kMaxLength) + " m");
      } else if (joint.length) {
        anchors_apart(at("joints", i, "anchor_b"), joint.body_a, joint.anchor_a, joint.body_b, joint.anchor_b,
                      "a distance joint");
      }
    }
  }
  if (joint.type == JointDef::Type::Slider) {
    direction(at("joints", i, "axis"), joint.axis, "the sliding direction in body_a's frame");
  }
}

void ScenarioRules::contact(std::size_t i) {
  const ContactDef& contact = s_.contacts[i];
  if (skipped(at("contacts", i))) return;
  name(at("contacts", i, "name"), contact.name, false, "");
  if (contact.restitution) interval(at("contacts", i, "e"), *contact.restitution, 0.0, false, 1.0, false);
  // Coulomb's μ (not for ropes; `stick` is μ = +∞ already).
  if (contact.mu) {
    interval(at("contacts", i, "mu"), *contact.mu, 0.0, false, kMaxFrictionCoefficient, false);
    if (contact.type == ContactDef::Type::Rope) {
      add(at("contacts", i, "mu"), "must be null for a rope (a rope has no friction)");
    } else if (contact.stick) {
      add(at("contacts", i, "mu"), "must be null when stick is true (stick is μ = +∞)");
    }
  }
  switch (contact.type) {
    case ContactDef::Type::BodyPlane: {
      // The document calls body_a "body".
      body_ref(at("contacts", i, "body"), contact.body_a, false);
      const std::string plane_at = at("contacts", i, "plane");
      if (!skipped(plane_at) && (contact.plane < 0 || contact.plane >= static_cast<int>(s_.planes.size()))) {
        add(plane_at, s_.planes.empty() ? "there is no plane (planes is empty)"
                                        : "must be a plane index in 0.." + std::to_string(s_.planes.size() - 1) +
                                              ", got " + std::to_string(contact.plane));
      }
      break;
    }
    case ContactDef::Type::DiskDisk: {
      const bool a_ok = body_ref(at("contacts", i, "body_a"), contact.body_a, false);
      const bool b_ok = body_ref(at("contacts", i, "body_b"), contact.body_b, false);
      // A point counts as a disk of radius 0.
      for (const auto& [key, body, ok] : {std::tuple<const char*, int, bool>{"body_a", contact.body_a, a_ok},
                                          std::tuple<const char*, int, bool>{"body_b", contact.body_b, b_ok}}) {
        if (!ok || skipped(at("bodies", static_cast<std::size_t>(body), "shape"))) continue;
        const BodyDef& b = s_.bodies[static_cast<std::size_t>(body)];
        if (b.shape.type != Shape::Type::Disk && b.shape.type != Shape::Type::Point) {
          add(at("contacts", i, key), "must be a disk (a disk_disk contact joins two disks, or points as disks of "
                                      "radius 0); " + quote(b.name) + " is a " +
                                          kShapeNames[static_cast<std::size_t>(b.shape.type)]);
        }
      }
      two_ends(at("contacts", i), contact.body_a, contact.body_b, a_ok, b_ok, "a disk_disk contact");
      break;
    }
    case ContactDef::Type::Rope: {
      const bool a_ok = body_ref(at("contacts", i, "body_a"), contact.body_a, true);
      const bool b_ok = body_ref(at("contacts", i, "body_b"), contact.body_b, true);
      const bool ends_ok = two_ends(at("contacts", i), contact.body_a, contact.body_b, a_ok, b_ok, "a rope");
      vector_magnitude(at("contacts", i, "anchor_a"), contact.anchor_a, kMaxCoordinate, "m");
      vector_magnitude(at("contacts", i, "anchor_b"), contact.anchor_b, kMaxCoordinate, "m");
      positive(at("contacts", i, "length"), contact.length, kMinLength, false, kMaxLength, "m");
      const bool anchors_read = !skipped(at("contacts", i, "anchor_a")) && !skipped(at("contacts", i, "anchor_b")) &&
                                contact.anchor_a.allFinite() && contact.anchor_b.allFinite();
      if (ends_ok && anchors_read) {
        anchors_apart(at("contacts", i, "anchor_b"), contact.body_a, contact.anchor_a, contact.body_b,
                      contact.anchor_b, "a rope");
      }
      break;
    }
  }
}

void ScenarioRules::force(std::size_t i) {
  const ForceDef& force = s_.forces[i];
  if (skipped(at("forces", i))) return;
  body_ref(at("forces", i, "body"), force.body, false);
  vector_magnitude(at("forces", i, "force"), force.force, kMaxForce, "N");
  magnitude(at("forces", i, "torque"), force.torque, kMaxForce, "N m");
}

void ScenarioRules::impulse(std::size_t i) {
  const ImpulseDef& impulse = s_.impulses[i];
  if (skipped(at("impulses", i))) return;
  positive(at("impulses", i, "time"), impulse.time, 0.0, false, std::numeric_limits<double>::max(), "s");
  body_ref(at("impulses", i, "body"), impulse.body, false);
  vector_magnitude(at("impulses", i, "impulse"), impulse.impulse, kMaxImpulse, "N s");
  magnitude(at("impulses", i, "angular"), impulse.angular, kMaxImpulse, "N m s");
}

void ScenarioRules::integrator() {
  if (skipped("/integrator")) return;
  const IntegratorDef& integrator = s_.integrator;
  interval("/integrator/step", integrator.step, kMinStep, false, kMaxStep, false);
  positive("/integrator/event_tolerance", integrator.event_tolerance, 0.0, true, std::numeric_limits<double>::max(),
           "s");
  if (std::isfinite(integrator.event_tolerance) && std::isfinite(integrator.step) &&
      integrator.event_tolerance > integrator.step && !skipped("/integrator/step")) {
    add("/integrator/event_tolerance", "must not exceed the step (" + show_number(integrator.step) + "), got " +
                                           show_number(integrator.event_tolerance));
  }
  positive("/integrator/rest_speed", integrator.rest_speed, 0.0, true, std::numeric_limits<double>::max(), "m/s");
  interval("/integrator/projection_tolerance", integrator.projection_tolerance, 0.0, true, 1e-3, false);
}

void ScenarioRules::view() {
  if (skipped("/view")) return;
  vector_magnitude("/view/center", s_.view.center, kMaxCoordinate, "m");
  positive("/view/width", s_.view.width, 0.0, true, kMaxViewWidth, "m");
}

void ScenarioRules::all() {
  version();
  title();
  description();
  gravity();
  restitution();
  friction();
  duration();
  body_count();
  for (std::size_t i = 0; i < s_.bodies.size(); ++i) body(i);
  nu();
  list_count("planes", s_.planes.size(), kMaxPlanes);
  for (std::size_t i = 0; i < s_.planes.size(); ++i) plane(i);
  list_count("joints", s_.joints.size(), kMaxJoints);
  for (std::size_t i = 0; i < s_.joints.size(); ++i) joint(i);
  list_count("contacts", s_.contacts.size(), kMaxContacts);
  for (std::size_t i = 0; i < s_.contacts.size(); ++i) contact(i);
  overlaps();
  list_count("forces", s_.forces.size(), kMaxForces);
  for (std::size_t i = 0; i < s_.forces.size(); ++i) force(i);
  list_count("impulses", s_.impulses.size(), kMaxImpulses);
  for (std::size_t i = 0; i < s_.impulses.size(); ++i) impulse(i);
  integrator();
  view();
}

}  // namespace detail

std::vector<ScenarioIssue> check_scenario_values(const Scenario& scenario, ScenarioUse use) {
  IssueList issues;
  detail::ScenarioRules(scenario, issues, use).all();
  return issues.take();
}

void require_valid_scenario(const Scenario& scenario, ScenarioUse use) {
  throw_first(check_scenario_values(scenario, use));
}

}  // namespace oblique
