// JSON text in and out: reading a document within bounded work (the same limits natively and in wasm),
// matrices and vectors as arrays of rows, and indented output.
//
// JSON has no NaN or infinity; the JS engine sends them as the strings "NaN", "Infinity" and "-Infinity"
// so that a message can say what was wrong (json_reader.hpp reads them). Doubles are written with the
// shortest representation that reads back bit-identically (up to 17 significant digits); a NaN is
// written as null.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "oblique/math/projection.hpp"

namespace oblique {

/// JSON value that keeps keys in insertion order, so outputs read in a sensible order (n, m, rank, ...).
using Json = nlohmann::ordered_json;

// ---- limits of parse_json (docs/limits.md, "Reading documents") ------------------------
//
// Checked by a streaming pass over the text before any value is built, so that no document — deeply
// nested, wide, huge — can exhaust the stack, the memory or the time of the CLI or of a browser tab.

/// Largest document (bytes of UTF-8 text).
inline constexpr std::size_t kMaxJsonBytes = 32u << 20;
/// Deepest nesting of arrays and objects (a scenario needs 5 levels, an impact document 3).
inline constexpr std::size_t kMaxJsonDepth = 64;
/// Most values (numbers, strings, booleans, nulls, arrays and objects, counted alike) in one document.
inline constexpr std::size_t kMaxJsonValues = 1000000;
/// Most keys in one object.
inline constexpr std::size_t kMaxObjectKeys = 10000;
/// Most key comparisons over the document: an ordered_json object finds and inserts each key in linear
/// time, so an object of k keys costs about k²/2; the sum of k²/2 over the objects is bounded by this
/// (one object of kMaxObjectKeys keys uses all of it).
inline constexpr double kMaxKeyComparisons = 0.5 * static_cast<double>(kMaxObjectKeys) * kMaxObjectKeys;

/// A document that is not JSON, or is beyond the limits above: where (`pointer()`, RFC 6901, of the value
/// being read, or of the object or array that holds it; "" for the whole document) and why (`reason()`).
/// what() is "<source>:<pointer>: <reason>", or "<source>: <reason>" without a pointer — the form of
/// `oblique check`'s lines.
class JsonError : public std::invalid_argument {
 public:
  JsonError(std::string source, std::string pointer, std::string reason);
  const std::string& source() const { return source_; }
  const std::string& pointer() const { return pointer_; }
  const std::string& reason() const { return reason_; }

 private:
  std::string source_, pointer_, reason_;
};

/// The reason of a document larger than kMaxJsonBytes, shared by every reader of documents.
std::string too_large_reason();

/// Parses `text` as one JSON value within the limits above. Throws JsonError naming `source`: "too large
/// (more than 32 MiB)"; "malformed JSON: <what the parser found> at line L, column C" (user bytes in it
/// escaped, at the pointer of the value being read: a lone surrogate in a string is reported at that
/// string); "nested deeper than 64 levels"; "more than 1000000 values"; "an object has more than 10000
/// keys"; "too many keys in its objects ...".
Json parse_json(const std::string& text, const std::string& source);

/// Arrays of rows / arrays of numbers.
Json to_json(const Matrix& m);
Json to_json(const Vector& v);

/// `value` as indented JSON text in which arrays of numbers (vectors, matrix rows) stay on one line.
std::string format_json(const Json& value, int indent = 2);

/// `x` as JSON writes it: the shortest text that reads back as the same double.
std::string json_number(double x);

/// The entries of `v` as JSON writes them, joined by commas: a flat array's inside, or a CSV row's cells.
std::string json_numbers_joined(const Vector& v);

}  // namespace oblique
