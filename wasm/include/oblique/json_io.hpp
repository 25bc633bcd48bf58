// Matrices and vectors to and from JSON (arrays of rows), with messages that name the field.
//
// JSON has no NaN or infinity; the JS engine sends them as the strings "NaN", "Infinity" and "-Infinity"
// so that the message can say what was wrong ("qd[1]: must be a finite number, got NaN").
// Doubles are written with the shortest representation that reads back bit-identically (up to 17
// significant digits); a NaN is written as null.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "oblique/projection.hpp"

namespace oblique {

/// JSON value that keeps keys in insertion order, so outputs read in a sensible order (n, m, rank, ...).
using Json = nlohmann::ordered_json;

/// Short description of a JSON value for messages: "a string", "a number", "an array", "an object",
/// "a boolean", "null", or the marker itself for "NaN", "Infinity" and "-Infinity".
std::string describe_json(const Json& value);

/// What keeps `value` from being a finite number ("must be a number, got a string", "must be a finite
/// number, got NaN"); empty when it is one.
std::string number_problem(const Json& value);

/// A finite number at `field`; throws std::invalid_argument naming `field` otherwise.
double number_from_json(const Json& value, const std::string& field);

/// A vector from an array of numbers.
Vector vector_from_json(const Json& value, const std::string& field);

/// A matrix from an array of rows of equal length. An empty array gives a 0×`empty_cols` matrix.
Matrix matrix_from_json(const Json& value, const std::string& field, Eigen::Index empty_cols = 0);

/// Arrays of rows / arrays of numbers.
Json to_json(const Matrix& m);
Json to_json(const Vector& v);

/// `value` as indented JSON text in which arrays of numbers (vectors, matrix rows) stay on one line.
std::string format_json(const Json& value, int indent = 2);

/// Most keys one JSON object may have in parse_json. An ordered_json object finds and inserts keys in
/// linear time, so an object with a million keys would take minutes to read; no input of Oblique comes
/// anywhere near this.
inline constexpr std::size_t kMaxObjectKeys = 10000;

/// Parses `text` as one JSON value; throws std::invalid_argument("<source>: malformed JSON ...") with
/// the byte position on a syntax error, or "<source>: an object has more than 10000 keys".
Json parse_json(const std::string& text, const std::string& source);

}  // namespace oblique
