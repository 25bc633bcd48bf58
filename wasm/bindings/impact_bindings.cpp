// embind: the only C++ that knows about Emscripten. Raw bindings only, no physics; web/src/engine wraps
// them in the idiomatic JS API. Documents cross as JSON text, the same documents as the CLI's. A failed
// call returns a neutral value and leaves its message for takeError() (see binding_support.hpp).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>
#include <vector>

#include "binding_support.hpp"
#include "oblique/io/frictional_impact_io.hpp"
#include "oblique/io/impact_io.hpp"
#include "oblique/io/json_reader.hpp"

namespace {

using oblique::bindings::guarded;

/// `oblique impact` document in, document out.
std::string analyze_impact(const std::string& input_json) {
  return guarded([&] { return oblique::analyze_impact_json(oblique::parse_json(input_json, "input")).dump(); },
                 std::string());
}

/// cond(Mc) of the input's M and A at each ν of a JSON array: the condition_curve_json document.
std::string condition_curve(const std::string& input_json, const std::string& nus_json) {
  return guarded(
      [&] {
        const oblique::Vector nus = oblique::vector_from_json(oblique::parse_json(nus_json, "nu"), "nu");
        return oblique::condition_curve_json(oblique::parse_json(input_json, "input"), nus).dump();
      },
      std::string());
}

/// The (μ, e) map of frictional pair `pair` of an `oblique impact` document: friction_energy_map_json.
std::string friction_energy_map(const std::string& input_json, int pair, double mu_max, int resolution) {
  return guarded(
      [&] {
        return oblique::friction_energy_map_json(oblique::parse_json(input_json, "input"), pair, mu_max, resolution)
            .dump();
      },
      std::string());
}

/// λ_max(EQE − Q) over the (e₁, e₂) square of rows a and b, as a fresh Float64Array (empty on error).
emscripten::val energy_consistency_map(const std::string& qmi_json, const std::string& restitution_json, int row_a,
                                       int row_b, int resolution) {
  const std::vector<double> values = guarded(
      [&] {
        const oblique::Matrix qmi = oblique::matrix_from_json(oblique::parse_json(qmi_json, "Q"), "Q");
        const oblique::Vector e = oblique::vector_from_json(oblique::parse_json(restitution_json, "E"), "E");
        return oblique::energy_consistency_map(qmi, e, row_a, row_b, resolution);
      },
      std::vector<double>());
  return emscripten::val::global("Float64Array")
      .new_(emscripten::typed_memory_view(values.size(), values.data()));
}

}  // namespace

EMSCRIPTEN_BINDINGS(oblique_impact) {
  emscripten::function("hasError", &oblique::bindings::has_error);
  emscripten::function("takeError", &oblique::bindings::take_error);
  emscripten::function("analyzeImpact", &analyze_impact);
  emscripten::function("energyConsistencyMap", &energy_consistency_map);
  emscripten::function("conditionCurve", &condition_curve);
  emscripten::function("frictionEnergyMap", &friction_energy_map);
}
