// libFuzzer target: reading a scenario document, as `oblique check`, checkScenario and every loader do.
//
// For any bytes: parse_json either gives a value or throws std::invalid_argument; check_scenario never
// throws; parse_scenario accepts exactly the documents check_scenario finds no issue in, and otherwise
// throws the first issue as "<pointer>: <message>". A parsed scenario written with scenario_to_json,
// formatted as text and read back is a valid document that parses to the same scenario (compared through
// scenario_to_json, which writes every field).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "json_mutator.hpp"
#include "oblique/io/json_io.hpp"
#include "oblique/io/scenario_json.hpp"

using oblique::fuzz::require;

namespace {

/// The message parse_scenario throws for `issue` (scenario.hpp).
std::string thrown_form(const oblique::ScenarioIssue& issue) {
  return issue.pointer.empty() ? issue.message : issue.pointer + ": " + issue.message;
}

/// One input through the readers and the round trip.
void read_scenario(const std::string& text) {
  // Text to JSON: a value, or a documented refusal.
  oblique::Json document;
  try {
    document = oblique::parse_json(text, "scenario");
  } catch (const std::invalid_argument&) {
    return;
  }

  // check_scenario and parse_scenario agree.
  const std::vector<oblique::ScenarioIssue> issues = oblique::check_scenario(document);
  std::optional<oblique::Scenario> scenario;
  try {
    scenario = oblique::parse_scenario(document);
  } catch (const std::invalid_argument& error) {
    require(!issues.empty(), std::string("parse_scenario refused a document check_scenario accepts: ") + error.what());
    require(error.what() == thrown_form(issues.front()),
            std::string("parse_scenario threw \"") + error.what() + "\", the first issue is \"" +
                thrown_form(issues.front()) + "\"");
    return;
  }
  if (!issues.empty()) {
    require(false, "parse_scenario accepted a document with the issue \"" + thrown_form(issues.front()) + "\"");
  }

  // Round trip: written, formatted, read back, the same scenario.
  const oblique::Json written = oblique::scenario_to_json(*scenario);
  const std::string written_text = oblique::format_json(written);
  const oblique::Json reread = oblique::parse_json(written_text, "round trip");
  const std::vector<oblique::ScenarioIssue> reread_issues = oblique::check_scenario(reread);
  if (!reread_issues.empty()) {
    require(false, "the written scenario has the issue \"" + thrown_form(reread_issues.front()) + "\":\n" +
                       written_text);
  }
  const oblique::Json rewritten = oblique::scenario_to_json(oblique::parse_scenario(reread));
  require(rewritten == written, "the scenario read back differs:\n" + written_text + "\nread back as\n" +
                                    oblique::format_json(rewritten));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return oblique::fuzz::run_input(data, size, read_scenario);
}

// Mostly structural mutations (json_mutator.hpp); a share of 0.5 on the bytes, for the text reader.
extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t max_size,
                                               unsigned int seed) {
  return oblique::fuzz::mutate_json(data, size, max_size, seed, 0.5);
}
