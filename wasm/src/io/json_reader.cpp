#include "oblique/io/json_reader.hpp"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <limits>

namespace oblique {

// ---- descriptions and suggestions --------------------------------------------------------------------

std::string describe_json(const Json& value) {
  if (value.is_string()) {
    const std::string& s = value.get_ref<const std::string&>();
    if (s == "NaN" || s == "Infinity" || s == "-Infinity") return s;
    return "a string";
  }
  if (value.is_null()) return "null";
  if (value.is_boolean()) return "a boolean";
  if (value.is_array()) return "an array";
  if (value.is_object()) return "an object";
  return "a number";
}

std::string number_problem(const Json& value) {
  if (value.is_string()) {
    const std::string what = describe_json(value);
    if (what != "a string") return "must be a finite number, got " + what;
  }
  if (!value.is_number()) return "must be a number, got " + describe_json(value);
  if (!std::isfinite(value.get<double>())) return "must be a finite number";
  return "";
}

namespace {

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

std::vector<std::string> to_strings(const KeyList& keys) { return std::vector<std::string>(keys.begin(), keys.end()); }

bool contains(const KeyList& keys, const std::string& key) {
  return std::find_if(keys.begin(), keys.end(), [&](const char* k) { return key == k; }) != keys.end();
}

}  // namespace

std::string closest_match(const std::string& word, const std::vector<std::string>& candidates) {
  // Long words are no typo of a name (and would make the distance costly).
  if (word.size() > 64) return "";
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

std::string join_keys(const KeyList& keys) {
  std::string out;
  for (const char* key : keys) out += (out.empty() ? "" : ", ") + std::string(key);
  return out;
}

std::string too_many_message(const char* items, std::size_t count, std::size_t max) {
  return "too many " + std::string(items) + ": " + std::to_string(count) + " (at most " + std::to_string(max) + ")";
}

// ---- the reader ------------------------------------------------------------------------------------------

void JsonReader::refuse(const std::string& path, const std::string& message) {
  issues_.add(path, message);
  issues_.mark_unread(path);
}

const Json* JsonReader::find(const Json& object, const char* key) {
  const auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

bool JsonReader::object(const Json& value, const std::string& path, const std::string& what) {
  if (value.is_object()) return true;
  refuse(path, "must be " + what + " (a JSON object), got " + describe_json(value));
  return false;
}

void JsonReader::keys(const Json& object, const std::string& path, const KeyList& allowed, const KeyList& known,
                      const std::string& what) {
  for (auto it = object.begin(); it != object.end(); ++it) {
    const std::string& key = it.key();
    if (contains(allowed, key)) continue;
    // Once the list is full, do not build messages for thousands of unknown keys.
    if (full()) {
      add(path, "");
      return;
    }
    const std::string where = is_showable_key(key) ? child(path, key) : path;
    if (contains(known, key)) {
      add(where, "not a field of " + what + " (its fields: " + join_keys(allowed) + ")");
      continue;
    }
    const std::string suggestion = closest_match(key, to_strings(allowed));
    add(where, "unknown field " + quote(key) +
                   (suggestion.empty() ? " in " + what + " (allowed: " + join_keys(allowed) + ")"
                                       : "; did you mean " + quote(suggestion) + "?"));
  }
}

bool JsonReader::number(const Json& object, const std::string& path, const char* key, double& out) {
  const Json* value = find(object, key);
  return value == nullptr || number_value(*value, child(path, key), out);
}

bool JsonReader::number_value(const Json& value, const std::string& path, double& out) {
  const std::string problem = number_problem(value);
  if (!problem.empty()) {
    refuse(path, problem);
    return false;
  }
  out = value.get<double>();
  return true;
}

bool JsonReader::optional_number(const Json& object, const std::string& path, const char* key,
                                 std::optional<double>& out, const std::string& null_means) {
  const Json* value = find(object, key);
  if (value == nullptr || value->is_null()) return true;
  if (!value->is_string() && !value->is_number()) {
    refuse(child(path, key), "must be a number or null (" + null_means + "), got " + describe_json(*value));
    return false;
  }
  double x = 0.0;
  if (!number_value(*value, child(path, key), x)) return false;
  out = x;
  return true;
}

bool JsonReader::integer(const Json& object, const std::string& path, const char* key, int& out) {
  const Json* value = find(object, key);
  if (value == nullptr) return true;
  const std::string where = child(path, key);
  double x = 0.0;
  if (!number_value(*value, where, x)) return false;
  if (std::floor(x) != x) {
    refuse(where, "must be a whole number, got " + show_number(x));
    return false;
  }
  if (x < static_cast<double>(INT_MIN) || x > static_cast<double>(INT_MAX)) {
    refuse(where, "must be a whole number between " + std::to_string(INT_MIN) + " and " + std::to_string(INT_MAX) +
                      ", got " + show_number(x));
    return false;
  }
  out = static_cast<int>(x);
  return true;
}

bool JsonReader::vec2(const Json& object, const std::string& path, const char* key, Vec2& out) {
  const Json* value = find(object, key);
  if (value == nullptr) return true;
  const std::string where = child(path, key);
  if (!value->is_array()) {
    refuse(where, "must be an array of two numbers [x, y], got " + describe_json(*value));
    return false;
  }
  if (value->size() != 2) {
    refuse(where, "must have two numbers [x, y], got " + std::to_string(value->size()));
    return false;
  }
  Vec2 v = out;
  const bool x_ok = number_value((*value)[0], child(where, std::size_t{0}), v.x());
  const bool y_ok = number_value((*value)[1], child(where, std::size_t{1}), v.y());
  if (!x_ok || !y_ok) {
    issues_.mark_unread(where);
    return false;
  }
  out = v;
  return true;
}

bool JsonReader::boolean(const Json& object, const std::string& path, const char* key, bool& out) {
  const Json* value = find(object, key);
  if (value == nullptr) return true;
  if (!value->is_boolean()) {
    refuse(child(path, key), "must be true or false, got " + describe_json(*value));
    return false;
  }
  out = value->get<bool>();
  return true;
}

bool JsonReader::string(const Json& object, const std::string& path, const char* key, std::string& out) {
  const Json* value = find(object, key);
  if (value == nullptr) return true;
  if (!value->is_string()) {
    refuse(child(path, key), "must be a string, got " + describe_json(*value));
    return false;
  }
  out = value->get_ref<const std::string&>();
  return true;
}

bool JsonReader::choice(const Json& object, const std::string& path, const char* key, const KeyList& names,
                        int& out) {
  const Json* value = find(object, key);
  if (value == nullptr) return true;
  const std::string where = child(path, key);
  if (!value->is_string()) {
    refuse(where, "must be one of " + join_keys(names) + ", got " + describe_json(*value));
    return false;
  }
  const std::string& s = value->get_ref<const std::string&>();
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (s == names[i]) {
      out = static_cast<int>(i);
      return true;
    }
  }
  const std::string suggestion = closest_match(s, to_strings(names));
  refuse(where, "unknown type " + quote(s) + " (one of " + join_keys(names) + ")" +
                    (suggestion.empty() ? "" : "; did you mean " + quote(suggestion) + "?"));
  return false;
}

const Json* JsonReader::array(const Json& object, const std::string& path, const char* key, std::size_t max,
                              const char* items) {
  const Json* value = find(object, key);
  if (value == nullptr) return nullptr;
  const std::string where = child(path, key);
  if (!value->is_array()) {
    refuse(where, "must be an array of " + std::string(items) + ", got " + describe_json(*value));
    return nullptr;
  }
  if (value->size() > max) add(where, too_many_message(items, value->size(), max));
  return value;
}

bool JsonReader::vector(const Json& value, const std::string& path, Vector& out) {
  if (!value.is_array()) {
    refuse(path, "must be an array of numbers, got " + describe_json(value));
    return false;
  }
  Vector v(static_cast<Eigen::Index>(value.size()));
  bool ok = true;
  for (std::size_t i = 0; i < value.size(); ++i) {
    ok = number_value(value[i], child(path, i), v(static_cast<Eigen::Index>(i))) && ok;
  }
  if (ok) out = std::move(v);
  return ok;
}

bool JsonReader::matrix(const Json& value, const std::string& path, Matrix& out, Eigen::Index empty_cols) {
  if (!value.is_array()) {
    refuse(path, "must be an array of rows, got " + describe_json(value));
    return false;
  }
  if (value.empty()) {
    out = Matrix(0, empty_cols);
    return true;
  }
  const std::size_t cols = value[0].is_array() ? value[0].size() : 0;
  Matrix m(static_cast<Eigen::Index>(value.size()), static_cast<Eigen::Index>(cols));
  bool ok = true;
  for (std::size_t i = 0; i < value.size() && !full(); ++i) {
    const std::string row = child(path, i);
    if (!value[i].is_array()) {
      refuse(row, "must be an array of numbers (a row), got " + describe_json(value[i]));
      ok = false;
      continue;
    }
    if (value[i].size() != cols) {
      refuse(row, "has " + std::to_string(value[i].size()) + " entries but row 0 has " + std::to_string(cols));
      ok = false;
      continue;
    }
    for (std::size_t j = 0; j < cols; ++j) {
      ok = number_value(value[i][j], child(row, j), m(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j))) &&
           ok;
    }
  }
  if (ok) out = std::move(m);
  return ok;
}

// ---- names -----------------------------------------------------------------------------------------------

void NameTable::insert(const std::string& name, int index) {
  if (index_.emplace(name, index).second) names_.push_back(name);
}

std::optional<int> NameTable::find(JsonReader& reader, const std::string& name, const std::string& path) const {
  const auto it = index_.find(name);
  if (it != index_.end()) return it->second;
  reader.issues().mark_unread(path);
  if (!complete_) return std::nullopt;
  std::string message = "unknown " + std::string(kind_) + " " + quote(name);
  const std::string suggestion = closest_match(name, names_);
  if (!suggestion.empty()) {
    message += "; did you mean " + quote(suggestion) + "?";
  } else if (names_.empty()) {
    message += " (there are no " + std::string(kinds_) + ")";
  } else {
    message += " (" + std::string(kinds_) + ": ";
    for (std::size_t i = 0; i < names_.size() && i < 8; ++i) message += (i ? ", " : "") + quote(names_[i]);
    message += names_.size() > 8 ? ", …)" : ")";
  }
  reader.add(path, message);
  return std::nullopt;
}

// ---- fail-fast readers -----------------------------------------------------------------------------------

double number_from_json(const Json& value, const std::string& field) {
  IssueList issues;
  double x = 0.0;
  JsonReader(issues, PathStyle::Field).number_value(value, field, x);
  throw_first(issues.take());
  return x;
}

Vector vector_from_json(const Json& value, const std::string& field) {
  IssueList issues;
  Vector v;
  JsonReader(issues, PathStyle::Field).vector(value, field, v);
  throw_first(issues.take());
  return v;
}

Matrix matrix_from_json(const Json& value, const std::string& field, Eigen::Index empty_cols) {
  IssueList issues;
  Matrix m;
  JsonReader(issues, PathStyle::Field).matrix(value, field, m, empty_cols);
  throw_first(issues.take());
  return m;
}

}  // namespace oblique
