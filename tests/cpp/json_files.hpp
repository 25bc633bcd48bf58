// Reading the repository's JSON files (built-in scenarios, golden hashes) in the C++ tests.
#pragma once

#include <fstream>
#include <sstream>
#include <string>

#include "oblique/io/json_io.hpp"

namespace oblique::testing {

/// The folder of the built-in scenarios (web/scenarios/), with its trailing slash.
inline const std::string kScenarioDir = std::string(OBLIQUE_SOURCE_DIR) + "/web/scenarios/";

/// The JSON document of the file at `path`; a problem is reported with the path (parse_json).
inline Json read_json(const std::string& path) {
  std::ifstream file(path);
  std::ostringstream text;
  text << file.rdbuf();
  return parse_json(text.str(), path);
}

}  // namespace oblique::testing
