// The benchmark kernels as a separate wasm module (never shipped with the page): the wasm side of the
// wasm/native ratios, timed from Node by bench/run.js.
#include <emscripten/bind.h>

#include <string>
#include <vector>

#include "../kernels/kernels.hpp"
#include "../kernels/worst_calls.hpp"

EMSCRIPTEN_BINDINGS(oblique_bench) {
  emscripten::value_object<oblique::bench::WorstCalls>("WorstCalls")
      .field("create_ms", &oblique::bench::WorstCalls::create_ms)
      .field("advance_ms", &oblique::bench::WorstCalls::advance_ms)
      .field("restore_ms", &oblique::bench::WorstCalls::restore_ms)
      .field("calls", &oblique::bench::WorstCalls::calls)
      .field("simulated", &oblique::bench::WorstCalls::simulated)
      .field("complete", &oblique::bench::WorstCalls::complete);
  emscripten::register_vector<std::string>("StringList");
  emscripten::register_vector<int>("IntList");
  emscripten::function("kernelNames", &oblique::bench::kernel_names);
  emscripten::function("runKernel", &oblique::bench::run_kernel);
  emscripten::function("addScenarioKernel", &oblique::bench::add_scenario_kernel);
  emscripten::function("addFamilyKernels", &oblique::bench::add_family_kernels);
  emscripten::function("addFamilyWindowKernels", &oblique::bench::add_family_window_kernels);
  emscripten::function("lastWorstAdvanceMs", &oblique::bench::last_worst_advance_ms);
  emscripten::function("lastImpactCount", &oblique::bench::last_impact_count);
  emscripten::function("worstAdvanceMsOverRun", &oblique::bench::worst_advance_ms_over_run);
  emscripten::function("sparseFingerprint", &oblique::bench::sparse_fingerprint);
  emscripten::function("worstCalls", &oblique::bench::worst_calls);
}
