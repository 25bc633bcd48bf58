// embind: scenario validation and normalisation, JSON text in and out.
#include <emscripten/bind.h>

#include <stdexcept>
#include <string>

#include "binding_support.hpp"
#include "oblique/scenario.hpp"

namespace {

using oblique::Json;
using oblique::bindings::guarded;

/// Every issue of a document as a JSON array of {pointer, message}; malformed JSON is one issue at "".
std::string check_scenario(const std::string& text) {
  return guarded(
      [&] {
        Json issues = Json::array();
        try {
          for (const oblique::ScenarioIssue& issue :
               oblique::check_scenario(oblique::parse_json(text, "scenario"))) {
            issues.push_back({{"pointer", issue.pointer}, {"message", issue.message}});
          }
        } catch (const std::invalid_argument& e) {
          issues.push_back({{"pointer", ""}, {"message", e.what()}});
        }
        return issues.dump();
      },
      std::string());
}

/// The scenario with every default written (empty on error: see takeError).
std::string normalize_scenario(const std::string& text) {
  return guarded(
      [&] {
        return oblique::scenario_to_json(oblique::parse_scenario(oblique::parse_json(text, "scenario"))).dump();
      },
      std::string());
}

}  // namespace

EMSCRIPTEN_BINDINGS(oblique_scenario) {
  emscripten::function("checkScenario", &check_scenario);
  emscripten::function("normalizeScenario", &normalize_scenario);
}
