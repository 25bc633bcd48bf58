// Google Benchmark over the shared kernels (bench/kernels): the native side of the wasm/native ratios.
#include <benchmark/benchmark.h>

#include "../kernels/kernels.hpp"

namespace {

void register_kernels() {
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
