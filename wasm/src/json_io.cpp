#include "oblique/json_io.hpp"

#include <cmath>
#include <string>
#include <vector>

#include "checks.hpp"

namespace oblique {

using detail::fail;

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

double number_from_json(const Json& value, const std::string& field) {
  const std::string problem = number_problem(value);
  if (!problem.empty()) fail(field, problem);
  return value.get<double>();
}

Vector vector_from_json(const Json& value, const std::string& field) {
  if (!value.is_array()) fail(field, "must be an array of numbers, got " + describe_json(value));
  Vector v(static_cast<Eigen::Index>(value.size()));
  for (std::size_t i = 0; i < value.size(); ++i) {
    v(static_cast<Eigen::Index>(i)) = number_from_json(value[i], field + "[" + std::to_string(i) + "]");
  }
  return v;
}

Matrix matrix_from_json(const Json& value, const std::string& field, Eigen::Index empty_cols) {
  if (!value.is_array()) fail(field, "must be an array of rows, got " + describe_json(value));
  if (value.empty()) return Matrix(0, empty_cols);
  const std::size_t cols = value[0].is_array() ? value[0].size() : 0;
  Matrix m(static_cast<Eigen::Index>(value.size()), static_cast<Eigen::Index>(cols));
  for (std::size_t i = 0; i < value.size(); ++i) {
    const std::string row = field + "[" + std::to_string(i) + "]";
    if (!value[i].is_array()) fail(row, "must be an array of numbers (a row), got " + describe_json(value[i]));
    if (value[i].size() != cols) {
      fail(row, "has " + std::to_string(value[i].size()) + " entries but row 0 has " + std::to_string(cols));
    }
    for (std::size_t j = 0; j < cols; ++j) {
      m(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) =
          number_from_json(value[i][j], row + "[" + std::to_string(j) + "]");
    }
  }
  return m;
}

Json to_json(const Vector& v) {
  Json out = Json::array();
  for (Eigen::Index i = 0; i < v.size(); ++i) out.push_back(v(i));
  return out;
}

Json to_json(const Matrix& m) {
  Json out = Json::array();
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    Json row = Json::array();
    for (Eigen::Index j = 0; j < m.cols(); ++j) row.push_back(m(i, j));
    out.push_back(std::move(row));
  }
  return out;
}

namespace {

bool is_flat_array(const Json& value) {
  if (!value.is_array()) return false;
  for (const Json& item : value) {
    if (item.is_array() || item.is_object()) return false;
  }
  return true;
}

void format_into(const Json& value, int indent, int depth, std::string& out) {
  const std::string pad(static_cast<std::size_t>(indent * (depth + 1)), ' ');
  const std::string close_pad(static_cast<std::size_t>(indent * depth), ' ');
  // Scalars and flat arrays: one line.
  if ((!value.is_array() && !value.is_object()) || is_flat_array(value) || value.empty()) {
    out += value.dump();
    return;
  }
  const bool object = value.is_object();
  out += object ? "{\n" : "[\n";
  std::size_t i = 0;
  for (auto it = value.begin(); it != value.end(); ++it, ++i) {
    out += pad;
    if (object) out += Json(it.key()).dump() + ": ";
    format_into(*it, indent, depth + 1, out);
    out += i + 1 < value.size() ? ",\n" : "\n";
  }
  out += close_pad + (object ? "}" : "]");
}

}  // namespace

std::string format_json(const Json& value, int indent) {
  std::string out;
  format_into(value, indent, 0, out);
  return out;
}

Json parse_json(const std::string& text, const std::string& source) {
  // Count the keys of each open object; stop at kMaxObjectKeys (see json_io.hpp).
  std::vector<std::size_t> keys;
  const auto guard = [&](int /*depth*/, Json::parse_event_t event, Json& /*parsed*/) {
    if (event == Json::parse_event_t::object_start) {
      keys.push_back(0);
    } else if (event == Json::parse_event_t::object_end) {
      keys.pop_back();
    } else if (event == Json::parse_event_t::key && ++keys.back() > kMaxObjectKeys) {
      fail(source, "an object has more than " + std::to_string(kMaxObjectKeys) + " keys");
    }
    return true;
  };
  try {
    return Json::parse(text, guard);
  } catch (const Json::exception& e) {
    // A syntax error (parse_error) or a number too large for a double (out_of_range 406, "1e400").
    // Drop nlohmann's "[json.exception.parse_error.101] " prefix; keep line, column and reason.
    const std::string what = e.what();
    const std::size_t start = what.find("] ");
    fail(source, "malformed JSON: " + (start == std::string::npos ? what : what.substr(start + 2)));
  }
}

}  // namespace oblique
