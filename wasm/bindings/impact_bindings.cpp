// embind: the only C++ that knows about Emscripten. Raw bindings only; web/src/engine wraps them in the
// idiomatic JS API. Every entry point turns a C++ exception into a JS Error carrying what().
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <exception>
#include <string>

#include "oblique/impact_io.hpp"

namespace {

[[noreturn]] void throw_js_error(const std::string& message) {
  emscripten::val::global("Error").new_(emscripten::val(message)).throw_();
  __builtin_unreachable();
}

/// `oblique impact` document in, document out, as JSON text.
std::string analyze_impact(const std::string& input_json) {
  try {
    return oblique::analyze_impact_json(oblique::parse_json(input_json, "input")).dump();
  } catch (const std::exception& e) {
    throw_js_error(e.what());
  }
}

}  // namespace

EMSCRIPTEN_BINDINGS(oblique_impact) {
  emscripten::function("analyzeImpact", &analyze_impact);
}
