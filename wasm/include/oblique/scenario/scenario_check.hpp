// What makes a Scenario valid, written once: the ranges and magnitude bounds of its values, its
// references (body and plane indices, two different ends of a joint or rope, disks for a disk–disk
// contact), its text (names, titles, colours) and its degenerate geometry (anchors that coincide, lengths
// of zero). The document reader (scenario_json.hpp) checks a document's structure and types and then these
// rules on what it read; the Model checks them again on any Scenario a C++ user builds, so both report the
// same problem with the same JSON pointer ("/bodies/2/mass") and message.
//
// The initial state's overlaps are checked here too, named by the bodies, planes and ropes they concern
// ("disk "b" starts 0.45 m inside plane "right"", at /bodies/i/position; scenario_overlaps.hpp says which
// contacts and how they are measured), so that the CLI, the editor and the Simulator refuse such a scene
// with the same message (the Model, a function of any configuration, does not check the initial state).
// What needs the simulation itself — an unsatisfied joint — is checked by the Simulator when it starts.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "oblique/scenario/issues.hpp"
#include "oblique/scenario/scenario.hpp"

namespace oblique {

/// One problem of a scenario: the JSON pointer of the offending value in the scenario's document (of where
/// it should be when it is missing; "" for the whole document) and a one-line message.
using ScenarioIssue = Issue;

/// What a scenario is checked for. A document refers to bodies and planes by name and is shown to people:
/// its names, title, description and colours follow the text rules below. The simulator refers to them by
/// index and shows nothing: a scenario built in C++ to be simulated needs no names, but its initial state
/// must not overlap (scenario_overlaps.hpp). The Model is a function of the configuration q, whatever the
/// initial one: it needs the values and references only.
enum class ScenarioUse { Document, Simulation, Model };

/// Overlaps of the initial state listed one by one; beyond them one issue at "/bodies" says how many more.
inline constexpr std::size_t kMaxOverlapIssues = 20;

/// Every problem of the values of `scenario` for `use`, in document order, at most kMaxIssues (then a note).
std::vector<ScenarioIssue> check_scenario_values(const Scenario& scenario, ScenarioUse use = ScenarioUse::Document);

/// Throws std::invalid_argument("<pointer>: <message>") with the first problem of check_scenario_values.
void require_valid_scenario(const Scenario& scenario, ScenarioUse use = ScenarioUse::Document);

/// What keeps `text` from being allowed in a scenario, or "" (the rule of titles, descriptions and names):
/// well-formed UTF-8 without control characters — newline and tab allowed when `multiline` — without line
/// or paragraph separators (U+2028, U+2029) in one-line text, and without bidirectional controls (U+202A–
/// U+202E, U+2066–U+2069, U+200E, U+200F, U+061C), which reorder what is shown around them.
std::string text_problem(std::string_view text, bool multiline);

/// What keeps `name` (already allowed text) from being a name, or "": no space at either end and no space
/// other than U+0020, no invisible character (zero-width space, soft hyphen, ...), no combining accent of
/// the generic blocks (write "é", not "e" + U+0301), and letters from one script only — Latin may go with
/// Chinese, Japanese and Korean, as in Unicode's "highly restrictive" level (UTS #39) — so that a name
/// cannot pass for another ("wοrld" with a Greek omicron).
std::string name_problem(std::string_view name);

/// Whether `name` reads as "world": in any case, or with look-alike characters (0 for o, I or 1 for l,
/// Greek and Cyrillic letters, full-width forms). Such a body name is refused: references say "world" for
/// the fixed world.
bool looks_like_world(std::string_view name);

/// Whether `color` has the form of a CSS colour: "" (automatic), #rgb, #rgba, #rrggbb or #rrggbbaa, a
/// keyword of letters ("steelblue"), or a colour function of numbers, letters, spaces and . , % / + -
/// ("rgb(200, 60, 40)", "hsl(10 80% 50% / 0.5)"). The page draws a colour the browser does not know in the
/// automatic colour; this form keeps anything else (";", quotes, "url(") out of a colour.
bool has_css_color_syntax(std::string_view color);

}  // namespace oblique
