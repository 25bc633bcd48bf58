// Google Benchmark over the shared kernels (bench/kernels): the native side of the wasm/native ratios.
#include <benchmark/benchmark.h>

#include <fstream>
#include <sstream>
#include <string>

#include "../kernels/kernels.hpp"

// --- begin: broad phase (contact geometry) ---------------------------------------------------------------
#include <cmath>
#include <random>
#include <vector>

#include "oblique/broad_phase.hpp"

namespace {

/// n bodies of mixed shapes (disks, boxes, rods, points, wheels of 3 to 30 cm) at a constant density, side
/// √n · 0.5 m, as a settling pile spreads: the boxes of one step, inflated by a 1 cm margin.
struct BroadPhaseScene {
  std::vector<oblique::Shape> shapes;
  std::vector<oblique::Pose> poses;
};

BroadPhaseScene broad_phase_scene(int n) {
  std::mt19937 engine(static_cast<unsigned>(n));
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const double side = 0.5 * std::sqrt(static_cast<double>(n));
  BroadPhaseScene scene;
  for (int i = 0; i < n; ++i) {
    oblique::Shape s;
    s.type = static_cast<oblique::Shape::Type>(i % 5);  // Disk, Box, Rod, Point, Wheel
    s.radius = 0.03 + 0.12 * unit(engine);
    s.width = 0.05 + 0.25 * unit(engine);
    s.height = 0.05 + 0.25 * unit(engine);
    s.length = 0.1 + 0.3 * unit(engine);
    if (s.type == oblique::Shape::Type::Rod) s.radius *= 0.3;
    scene.shapes.push_back(s);
    scene.poses.push_back(oblique::Pose{oblique::Vec2(side * unit(engine), side * unit(engine)), 6.283 * unit(engine)});
  }
  return scene;
}

/// One step's broad phase: every body's box, then the pairs. Reported per body (items), with the fitted
/// complexity: near-linear growth shows as a flat time per body.
void broad_phase_grid(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const BroadPhaseScene scene = broad_phase_scene(n);
  std::vector<oblique::BroadPhaseProxy> proxies(static_cast<std::size_t>(n));
  std::vector<oblique::BodyPair> pairs;
  oblique::BroadPhase broad;
  for (auto _ : state) {
    for (int i = 0; i < n; ++i) {
      proxies[static_cast<std::size_t>(i)].box =
          oblique::shape_aabb(scene.shapes[static_cast<std::size_t>(i)], scene.poses[static_cast<std::size_t>(i)], 0.01);
    }
    broad.find_pairs(proxies, pairs);
    benchmark::DoNotOptimize(pairs.data());
  }
  state.SetItemsProcessed(state.iterations() * n);
  state.SetComplexityN(n);
  state.counters["pairs"] = static_cast<double>(pairs.size());
}
BENCHMARK(broad_phase_grid)->RangeMultiplier(4)->Range(16, 4096)->Complexity(benchmark::oNLogN);

/// The same pairs by testing every pair of boxes: the quadratic cost the grid avoids.
void broad_phase_all_pairs(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const BroadPhaseScene scene = broad_phase_scene(n);
  std::vector<oblique::Aabb> boxes(static_cast<std::size_t>(n));
  std::vector<oblique::BodyPair> pairs;
  for (auto _ : state) {
    pairs.clear();
    for (int i = 0; i < n; ++i) {
      boxes[static_cast<std::size_t>(i)] =
          oblique::shape_aabb(scene.shapes[static_cast<std::size_t>(i)], scene.poses[static_cast<std::size_t>(i)], 0.01);
    }
    for (int a = 0; a < n; ++a) {
      for (int b = a + 1; b < n; ++b) {
        if (oblique::aabbs_overlap(boxes[static_cast<std::size_t>(a)], boxes[static_cast<std::size_t>(b)])) pairs.push_back({a, b});
      }
    }
    benchmark::DoNotOptimize(pairs.data());
  }
  state.SetItemsProcessed(state.iterations() * n);
  state.SetComplexityN(n);
}
BENCHMARK(broad_phase_all_pairs)->RangeMultiplier(4)->Range(16, 4096)->Complexity(benchmark::oNSquared);

}  // namespace
// --- end: broad phase (contact geometry) -----------------------------------------------------------------

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
