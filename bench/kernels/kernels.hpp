// Benchmark kernels shared by the native and the WebAssembly builds, so that wasm/native ratios compare the
// same code on the same inputs. Each kernel runs `iterations` times and returns a checksum that keeps the
// optimiser from removing the work.
#pragma once

#include <string>
#include <vector>

namespace oblique::bench {

/// Adds the kernel "simulate_<name>": one second of simulated time of the scenario document `json_text`
/// (the built-in scenarios, read by each driver from web/scenarios). Throws std::invalid_argument when the
/// document is not a valid scenario.
void add_scenario_kernel(const std::string& name, const std::string& json_text);

/// Names of every kernel, in report order.
std::vector<std::string> kernel_names();

/// Runs kernel `name` `iterations` times; throws std::invalid_argument for an unknown name.
double run_kernel(const std::string& name, int iterations);

}  // namespace oblique::bench
