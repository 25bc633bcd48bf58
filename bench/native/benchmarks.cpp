// Google Benchmark over the shared kernels (bench/kernels): the native side of the wasm/native ratios.
#include <benchmark/benchmark.h>

#include <fstream>
#include <sstream>
#include <string>

#include "../kernels/kernels.hpp"

namespace {

/// The built-in scenarios the benchmarks simulate (bench/run.js reads the same list).
const char* const kScenarios[] = {"bouncing-ball", "newtons-cradle-gaps", "billiards-break", "double-pendulum",
                                  "four-bar", "slider-crank", "rimless-wheel"};

std::string read_file(const std::string& path) {
  std::ifstream file(path);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

void register_kernels() {
  for (const char* name : kScenarios) {
    oblique::bench::add_scenario_kernel(name, read_file(std::string(OBLIQUE_SOURCE_DIR) + "/web/scenarios/" + name + ".json"));
  }
  for (const std::string& name : oblique::bench::kernel_names()) {
    benchmark::RegisterBenchmark(name.c_str(), [name](benchmark::State& state) {
      for (auto _ : state) benchmark::DoNotOptimize(oblique::bench::run_kernel(name, 1));
    });
  }
}

}  // namespace

int main(int argc, char** argv) {
  register_kernels();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
