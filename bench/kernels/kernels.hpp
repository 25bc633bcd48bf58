// Benchmark kernels shared by the native and the WebAssembly builds, so that wasm/native ratios compare the
// same code on the same inputs. Each kernel runs `iterations` times and returns a checksum that keeps the
// optimiser from removing the work.
#pragma once

#include <string>
#include <vector>

namespace oblique::bench {

/// Names of every kernel, in report order.
std::vector<std::string> kernel_names();

/// Runs kernel `name` `iterations` times; throws std::invalid_argument for an unknown name.
double run_kernel(const std::string& name, int iterations);

}  // namespace oblique::bench
