#include "oblique/io/json_io.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "oblique/scenario/issues.hpp"

namespace oblique {

JsonError::JsonError(std::string source, std::string pointer, std::string reason)
    : std::invalid_argument(source + (pointer.empty() ? "" : ":" + pointer) + ": " + reason),
      source_(std::move(source)),
      pointer_(std::move(pointer)),
      reason_(std::move(reason)) {}

std::string too_large_reason() { return "too large (more than " + std::to_string(kMaxJsonBytes >> 20) + " MiB)"; }

// ---- reading ---------------------------------------------------------------------------------------------

namespace {

/// Longest pointer named in a JsonError: a deeper place is named by its closest ancestor that fits.
constexpr std::size_t kMaxErrorPointer = 200;

/// The first pass of parse_json: nlohmann-json's SAX parser (iterative, so any nesting is safe) walks the
/// text building nothing, while this counts depth, values and keys against the limits and keeps track of
/// where it is, so that a limit or a syntax error is reported at the pointer of the value being read.
class LimitScan final : public nlohmann::json_sax<Json> {
 public:
  /// Where the scan stopped, and why; empty while the text is fine.
  std::optional<std::pair<std::string, std::string>> error;

  bool null() override { return scalar(); }
  bool boolean(bool) override { return scalar(); }
  bool number_integer(number_integer_t) override { return scalar(); }
  bool number_unsigned(number_unsigned_t) override { return scalar(); }
  bool number_float(number_float_t, const string_t&) override { return scalar(); }
  bool string(string_t&) override { return scalar(); }
  bool binary(binary_t&) override { return scalar(); }

  bool start_object(std::size_t) override { return open(true); }
  bool start_array(std::size_t) override { return open(false); }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }

  bool key(string_t& key) override {
    Frame& object = frames_.back();
    // ordered_json compares a new key with each key before it.
    if (++object.keys > kMaxObjectKeys) {
      return fail("an object has more than " + std::to_string(kMaxObjectKeys) + " keys");
    }
    comparisons_ += static_cast<double>(object.keys - 1);
    if (comparisons_ > kMaxKeyComparisons) {
      return fail("too many keys in its objects: an object of k keys takes about k²/2 key comparisons to "
                  "read, and a document at most " + show_number(kMaxKeyComparisons) + " (one object of " +
                  std::to_string(kMaxObjectKeys) + " keys)");
    }
    object.key = key;
    object.has_key = true;
    return true;
  }

  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e) override {
    // Drop nlohmann's "[json.exception.parse_error.101] " prefix; escape the user bytes it quotes.
    std::string what = e.what();
    const std::size_t start = what.find("] ");
    if (start != std::string::npos) what = what.substr(start + 2);
    std::string reason = "malformed JSON: " + escape_text(what);
    // A number too large for a double (out_of_range.406) comes without a place.
    if (what.find(" line ") == std::string::npos) reason += " at byte " + std::to_string(position);
    if (what.find("surrogate U+") != std::string::npos) {
      reason += " (a \\uD800–\\uDFFF escape must be half of a pair: a lone surrogate is not text)";
    }
    fail(reason);
    return false;
  }

 private:
  struct Frame {
    bool object = false;
    std::size_t items = 0;  // array: completed items (the index of the one being read)
    std::size_t keys = 0;   // object: keys so far
    bool has_key = false;   // object: a key is read and its value not yet complete
    std::string key;
  };

  bool count_value() {
    if (++values_ > kMaxJsonValues) {
      return fail("more than " + std::to_string(kMaxJsonValues) + " values (numbers, strings, arrays, ...)");
    }
    return true;
  }

  bool scalar() {
    if (!count_value()) return false;
    complete();
    return true;
  }

  bool open(bool object) {
    if (!count_value()) return false;
    if (frames_.size() >= kMaxJsonDepth) {
      return fail("nested deeper than " + std::to_string(kMaxJsonDepth) + " levels of arrays and objects");
    }
    Frame frame;
    frame.object = object;
    frames_.push_back(std::move(frame));
    return true;
  }

  bool close() {
    frames_.pop_back();
    complete();
    return true;
  }

  /// A value of the innermost container is complete.
  void complete() {
    if (frames_.empty()) return;
    Frame& parent = frames_.back();
    if (parent.object) {
      parent.has_key = false;
    } else {
      ++parent.items;
    }
  }

  /// The pointer of the value being read (of its container, where its key cannot be shown or is not
  /// read yet), cut back to an ancestor within kMaxErrorPointer bytes.
  std::string where() const {
    std::string pointer;
    for (const Frame& frame : frames_) {
      std::string next;
      if (frame.object) {
        if (!frame.has_key || !is_showable_key(frame.key)) break;
        next = pointer_child(pointer, frame.key);
      } else {
        next = pointer_child(pointer, frame.items);
      }
      if (next.size() > kMaxErrorPointer) break;
      pointer = std::move(next);
    }
    return pointer;
  }

  bool fail(const std::string& reason) {
    if (!error) error.emplace(where(), reason);
    return false;
  }

  std::vector<Frame> frames_;
  std::size_t values_ = 0;
  double comparisons_ = 0.0;
};

}  // namespace

Json parse_json(const std::string& text, const std::string& source) {
  if (text.size() > kMaxJsonBytes) throw JsonError(source, "", too_large_reason());
  // First pass: limits and syntax, nothing built.
  LimitScan scan;
  const bool ok = Json::sax_parse(text, &scan);
  if (scan.error) throw JsonError(source, scan.error->first, scan.error->second);
  if (!ok) throw JsonError(source, "", "malformed JSON");
  // Second pass: the value, within the limits.
  try {
    return Json::parse(text);
  } catch (const Json::exception& e) {
    throw JsonError(source, "", "malformed JSON: " + escape_text(e.what()));
  }
}

// ---- writing ---------------------------------------------------------------------------------------------

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

std::string json_number(double x) { return Json(x).dump(); }

std::string json_numbers_joined(const Vector& v) {
  std::string text;
  for (Eigen::Index i = 0; i < v.size(); ++i) {
    if (i > 0) text += ',';
    text += json_number(v(i));
  }
  return text;
}

}  // namespace oblique
