// embind: scenario validation and normalisation, JSON text in and out.
#include <emscripten/bind.h>

#include <stdexcept>
#include <string>

#include "binding_support.hpp"
#include "oblique/io/scenario_json.hpp"

namespace {

using oblique::Json;
using oblique::bindings::guarded;

/// Every issue of a document as a JSON array of {pointer, message}; text that is not JSON within the limits
/// of parse_json is one issue, at the pointer where reading stopped.
std::string check_scenario(const std::string& text) {
  return guarded(
      [&] {
        Json issues = Json::array();
        try {
          for (const oblique::ScenarioIssue& issue :
               oblique::check_scenario(oblique::parse_json(text, "scenario"))) {
            issues.push_back({{"pointer", issue.pointer}, {"message", issue.message}});
          }
        } catch (const oblique::JsonError& e) {
          issues.push_back({{"pointer", e.pointer()}, {"message", e.reason()}});
        }
        return issues.dump();
      },
      std::string());
}

/// The scenario with every default written (empty on error: see takeError). Overlaps of the initial state
/// are allowed, so that an editor can show the scene whose overlaps checkScenario lists.
std::string normalize_scenario(const std::string& text) {
  return guarded(
      [&] {
        const oblique::Json document = oblique::parse_json(text, "scenario");
        return oblique::scenario_to_json(oblique::parse_scenario(document, oblique::InitialOverlaps::Allowed)).dump();
      },
      std::string());
}

/// The largest document the core reads (bytes), so that the JS side can refuse a larger one before
/// copying it into wasm memory; and the deepest nesting (the JS side names it when a value is too deep
/// for JSON.stringify).
double max_json_bytes() { return static_cast<double>(oblique::kMaxJsonBytes); }
int max_json_depth() { return static_cast<int>(oblique::kMaxJsonDepth); }

}  // namespace

EMSCRIPTEN_BINDINGS(oblique_scenario) {
  emscripten::function("maxJsonBytes", &max_json_bytes);
  emscripten::function("maxJsonDepth", &max_json_depth);
  emscripten::function("checkScenario", &check_scenario);
  emscripten::function("normalizeScenario", &normalize_scenario);
}
