// The scenario document, format version 1 (`"oblique": 1`): JSON to Scenario with every problem named by
// its JSON pointer, and back.
//
// The format, its defaults and its limits are in docs/scenarios.md (with docs/limits.md) and
// web/scenarios/scenario.schema.json. Reading checks the document's structure and types (json_reader.hpp),
// resolves names to indices, and checks what it read with the rules of scenario_check.hpp, part by part, so
// that the problems come in document order.
#pragma once

#include <vector>

#include "oblique/io/json_io.hpp"
#include "oblique/scenario/scenario.hpp"
#include "oblique/scenario/scenario_check.hpp"

namespace oblique {

/// Every problem in `document`, in document order; empty when it is a valid scenario. Pointers are RFC 6901
/// ("" for the whole document; "~" and "/" in keys escaped as "~0" and "~1"); messages are one line and
/// quote user strings escaped and cut short. At most kMaxIssues, then one more at "" saying so. A version
/// newer than kScenarioVersion is the only issue reported. Never throws for any JSON value.
std::vector<ScenarioIssue> check_scenario(const Json& document);

/// Whether reading a scenario refuses an initial state whose bodies overlap (scenario_overlaps.hpp).
enum class InitialOverlaps {
  Refused,  // what runs: the CLI, the Simulator's documents
  Allowed,  // what an editor shows while the overlaps are being fixed (check_scenario still lists them)
};

/// The validated scenario. Throws std::invalid_argument with "<pointer>: <message>" of the first issue
/// (just "<message>" when the pointer is "", the whole document). With InitialOverlaps::Allowed, every rule
/// but the one on the initial state's overlaps is checked.
Scenario parse_scenario(const Json& document, InitialOverlaps overlaps = InitialOverlaps::Refused);

/// The document of a scenario, every field written (defaults included; an absent optional as null);
/// parse_scenario(scenario_to_json(s)) == s for every s that parse_scenario returned. Only the fields a
/// type uses are written (a disk's radius, not its width), so a field a type ignores does not survive.
Json scenario_to_json(const Scenario& scenario);

}  // namespace oblique
