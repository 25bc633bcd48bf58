// Reading a parsed JSON document into C++ values, with a message at the place of every problem: one
// reader for every document of Oblique (the scenario, scenario_json.hpp; the impact document,
// impact_io.hpp; the arguments of the wasm bindings).
//
// A reader checks the document's structure and types — an object where one is expected, known keys only
// (an unknown one gets the likely intended key: "did you mean "mass"?"), numbers, strings, booleans,
// arrays of bounded length, names that refer to other items — and leaves the meaning of the values (ranges,
// references, geometry) to the checks of what it read. It never descends into a value it does not expect,
// so its work is bounded by what it reads, whatever the document holds.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "oblique/scenario/issues.hpp"
#include "oblique/io/json_io.hpp"

namespace oblique {

using Vec2 = Eigen::Vector2d;

/// Short description of a JSON value for messages: "a string", "a number", "an array", "an object",
/// "a boolean", "null", or the marker itself for "NaN", "Infinity" and "-Infinity".
std::string describe_json(const Json& value);

/// What keeps `value` from being a finite number ("must be a number, got a string", "must be a finite
/// number, got NaN"); empty when it is one.
std::string number_problem(const Json& value);

/// The candidate closest to `word` (edit distance, ignoring ASCII case) if it is close enough to be a likely
/// typo — one edit per three letters, at most three — and empty otherwise.
std::string closest_match(const std::string& word, const std::vector<std::string>& candidates);

/// Keys of an object of a document.
using KeyList = std::vector<const char*>;

/// "a, b, c".
std::string join_keys(const KeyList& keys);

/// Reads values of one document into an IssueList. Each method checks one value at `path` (the place of
/// the object holding it, for the methods that take a key), adds an issue when it is wrong — and marks the
/// place unread (IssueList::mark_unread), the output keeping its default — and returns whether it read it.
/// A missing key is not an issue (the output keeps its default) unless said otherwise.
class JsonReader {
 public:
  JsonReader(IssueList& issues, PathStyle style) : issues_(issues), style_(style) {}

  std::string child(const std::string& path, std::string_view key) const { return child_path(style_, path, key); }
  std::string child(const std::string& path, std::size_t index) const { return child_path(style_, path, index); }
  void add(const std::string& path, const std::string& message) { issues_.add(path, message); }
  /// Adds the issue and marks the place unread.
  void refuse(const std::string& path, const std::string& message);
  bool full() const { return issues_.full(); }
  IssueList& issues() { return issues_; }

  /// The value at `key` of `object`, or nullptr when absent.
  static const Json* find(const Json& object, const char* key);

  /// `value` must be an object (`what`: "a body"); refused otherwise.
  bool object(const Json& value, const std::string& path, const std::string& what);

  /// Reports every key of `object` outside `allowed`. `known` holds the keys of every variant (a key known
  /// to another type gets "not a field of <what> (its fields: ...)"); `what` names the object ("a rope
  /// contact"). An unknown key is reported at its own place when is_showable_key, else at the object's.
  void keys(const Json& object, const std::string& path, const KeyList& allowed, const KeyList& known,
            const std::string& what);

  /// A finite number at `key` (a JSON number; the markers "NaN", "Infinity" and "-Infinity" get "must be a
  /// finite number, got NaN").
  bool number(const Json& object, const std::string& path, const char* key, double& out);
  /// number() of a value at `path` itself.
  bool number_value(const Json& value, const std::string& path, double& out);
  /// A number or null (absent and null leave `out` empty); `null_means` explains null in the message.
  bool optional_number(const Json& object, const std::string& path, const char* key, std::optional<double>& out,
                       const std::string& null_means);
  /// A whole number that fits an int.
  bool integer(const Json& object, const std::string& path, const char* key, int& out);
  /// [x, y]: an array of two numbers.
  bool vec2(const Json& object, const std::string& path, const char* key, Vec2& out);
  bool boolean(const Json& object, const std::string& path, const char* key, bool& out);
  /// A string (any content: the checks of values say what text is allowed).
  bool string(const Json& object, const std::string& path, const char* key, std::string& out);
  /// One of `names` (index into it, as an enum), with a suggestion for a near miss.
  bool choice(const Json& object, const std::string& path, const char* key, const KeyList& names, int& out);
  /// The array at `key`, reporting more than `max` items ("too many bodies: 70 (at most 64)"); nullptr
  /// when absent or not an array. `items` names them ("bodies").
  const Json* array(const Json& object, const std::string& path, const char* key, std::size_t max,
                    const char* items);

  /// An array of numbers, finite (markers refused).
  bool vector(const Json& value, const std::string& path, Vector& out);
  /// An array of rows of equal length, finite; an empty array gives 0×`empty_cols`.
  bool matrix(const Json& value, const std::string& path, Matrix& out, Eigen::Index empty_cols = 0);

 private:
  IssueList& issues_;
  PathStyle style_;
};

/// "too many <items>: <count> (at most <max>)", the message of a list over its limit.
std::string too_many_message(const char* items, std::size_t count, std::size_t max);

/// The names of a list of items (bodies, planes) and the lookup of references to them by name.
class NameTable {
 public:
  /// `kind` names one item in messages ("body"), `kinds` several ("bodies").
  NameTable(const char* kind, const char* kinds) : kind_(kind), kinds_(kinds) {}

  /// Records `name` of item `index`; the first item of a name keeps it (duplicates are the checks' to report).
  void insert(const std::string& name, int index);
  /// False when some items were left unread (too many, or the list was not an array), so that an unknown
  /// name may be one that was not read: then it is not reported.
  void set_complete(bool complete) { complete_ = complete; }
  /// Index of `name`; otherwise refuses it at `path` ("unknown body "bal"; did you mean "ball"?").
  std::optional<int> find(JsonReader& reader, const std::string& name, const std::string& path) const;

 private:
  const char* kind_;
  const char* kinds_;
  std::map<std::string, int> index_;
  std::vector<std::string> names_;
  bool complete_ = true;
};

// ---- fail-fast readers: the first problem thrown as std::invalid_argument("<field>: <message>") ---------

/// A finite number at `field`.
double number_from_json(const Json& value, const std::string& field);
/// A vector from an array of numbers.
Vector vector_from_json(const Json& value, const std::string& field);
/// A matrix from an array of rows of equal length. An empty array gives a 0×`empty_cols` matrix.
Matrix matrix_from_json(const Json& value, const std::string& field, Eigen::Index empty_cols = 0);

}  // namespace oblique
