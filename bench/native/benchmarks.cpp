// Google Benchmark over the shared kernels (bench/kernels): the native side of the wasm/native ratios.
//
//   oblique_bench [--family-seconds=T] [--family-sizes=8,16,32,64]
//                 [--family-windows=LABEL:FROM:UNTIL,...] [--window-sizes=32,64] [Google Benchmark flags]
//                 [--whole-runs=MODE:FAMILY:N:SECONDS:CAP:REPETITIONS,...]
//   oblique_bench --fingerprint [--family-sizes=...]   prints sparse_fingerprint (kernels.hpp) and exits
//   oblique_bench --worst-calls=SECONDS:RESTORE_EVERY     prints, as one JSON object, the longest call of each
//                 kind (worst_calls.hpp) on every scene of worst_call_scenes, and exits
//
// --whole-runs adds, per item, the whole run of one scene (add_whole_run_kernel): MODE "whole" (each frame
// of 1/60 s one uninterrupted call) or "page" (calls of the default work budget), FAMILY any scene of
// bench/scenes, N bodies, SECONDS simulated, CAP seconds of process CPU at most (0: none), timed over
// REPETITIONS runs (process CPU time; counters impacts, simulated_seconds, worst_advance_ms).
//
// --family-windows adds, per window, sim_<family>_n<N>_<LABEL> at each of --window-sizes: the scene from
// t = FROM to UNTIL s (add_family_window_kernels). The sim_ kernels of the scene families run once per
// repetition (three repetitions, process CPU time, the longest advance(1/60 s) as the counter
// worst_advance_ms, the impacts logged as impacts); every other kernel runs for --benchmark_min_time as usual.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "../kernels/kernels.hpp"
#include "../kernels/worst_calls.hpp"

// --- begin: broad phase (contact geometry) ---------------------------------------------------------------
#include <cmath>
#include <random>
#include <vector>

#include "oblique/geometry/broad_phase.hpp"

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

std::vector<int> parse_sizes(const std::string& text) {
  std::vector<int> sizes;
  std::stringstream stream(text);
  std::string item;
  while (std::getline(stream, item, ',')) sizes.push_back(std::atoi(item.c_str()));
  return sizes;
}

/// A window of a scene family: sim_<family>_n<N>_<label> from t = from to until.
struct Window {
  std::string label;
  double from = 0.0, until = 0.0;
};

/// "label:from:until,..." (e.g. "settled:1:1.2"); exits with a message naming the flag when malformed.
std::vector<Window> parse_windows(const std::string& text) {
  std::vector<Window> windows;
  std::stringstream stream(text);
  std::string item;
  while (std::getline(stream, item, ',')) {
    const std::size_t first = item.find(':');
    const std::size_t second = first == std::string::npos ? first : item.find(':', first + 1);
    if (first == std::string::npos || second == std::string::npos) {
      std::fprintf(stderr, "--family-windows: expected label:from:until, got \"%s\"\n", item.c_str());
      std::exit(2);
    }
    windows.push_back({item.substr(0, first), std::atof(item.substr(first + 1, second - first - 1).c_str()),
                       std::atof(item.substr(second + 1).c_str())});
  }
  return windows;
}

/// One whole run of --whole-runs.
struct WholeRun {
  bool page = false;
  std::string family;
  int bodies = 0;
  double seconds = 0.0, cap = 0.0;
  int repetitions = 1;
};

/// "MODE:FAMILY:N:SECONDS:CAP:REPETITIONS,..."; exits with a message naming the flag when malformed.
std::vector<WholeRun> parse_whole_runs(const std::string& text) {
  std::vector<WholeRun> runs;
  std::stringstream stream(text);
  std::string item;
  while (std::getline(stream, item, ',')) {
    std::vector<std::string> parts;
    std::stringstream fields(item);
    std::string field;
    while (std::getline(fields, field, ':')) parts.push_back(field);
    if (parts.size() != 6 || (parts[0] != "whole" && parts[0] != "page")) {
      std::fprintf(stderr, "--whole-runs: expected whole|page:family:bodies:seconds:cap:repetitions, got \"%s\"\n", item.c_str());
      std::exit(2);
    }
    runs.push_back({parts[0] == "page", parts[1], std::atoi(parts[2].c_str()), std::atof(parts[3].c_str()),
                    std::atof(parts[4].c_str()), std::max(1, std::atoi(parts[5].c_str()))});
  }
  return runs;
}

/// Wall clock after which a --worst-calls run stops (between two calls): a scene whose calls take seconds.
constexpr double kWorstCallCapSeconds = 60.0;

/// This program's own flags.
struct Options {
  double family_seconds = 0.1;
  std::vector<int> family_sizes = {8, 16, 32, 64};
  std::vector<Window> windows;
  std::vector<int> window_sizes = {32, 64};
  std::vector<WholeRun> whole_runs;
  bool fingerprint = false;
  double worst_call_seconds = 0.0;  // > 0: --worst-calls
  int worst_call_restore_every = 1;
};

/// Takes this program's own flags out of argv (Google Benchmark rejects flags it does not know).
void take_own_flags(int& argc, char** argv, Options& options) {
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--fingerprint") {
      options.fingerprint = true;
    } else if (arg.rfind("--worst-calls=", 0) == 0) {
      const std::string value = arg.substr(14);
      const std::size_t colon = value.find(':');
      options.worst_call_seconds = std::atof(value.substr(0, colon).c_str());
      options.worst_call_restore_every = colon == std::string::npos ? 1 : std::atoi(value.substr(colon + 1).c_str());
      if (!(options.worst_call_seconds > 0.0) || options.worst_call_restore_every < 1) {
        std::fprintf(stderr, "--worst-calls: expected seconds:restore_every (seconds > 0, restore_every ≥ 1), got \"%s\"\n",
                     value.c_str());
        std::exit(2);
      }
    } else if (arg.rfind("--family-windows=", 0) == 0) {
      options.windows = parse_windows(arg.substr(17));
    } else if (arg.rfind("--whole-runs=", 0) == 0) {
      options.whole_runs = parse_whole_runs(arg.substr(13));
    } else if (arg.rfind("--window-sizes=", 0) == 0) {
      options.window_sizes = parse_sizes(arg.substr(15));
    } else if (arg.rfind("--family-seconds=", 0) == 0) {
      options.family_seconds = std::atof(arg.c_str() + 17);
    } else if (arg.rfind("--family-sizes=", 0) == 0) {
      options.family_sizes = parse_sizes(arg.substr(15));
    } else {
      argv[kept++] = argv[i];
    }
  }
  argc = kept;
}

void register_kernels(const Options& options) {
  for (const char* name : kScenarios) {
    oblique::bench::add_scenario_kernel(name, read_file(std::string(OBLIQUE_SOURCE_DIR) + "/web/scenarios/" + name + ".json"));
  }
  oblique::bench::add_family_kernels(options.family_sizes, options.family_seconds);
  for (const Window& window : options.windows) {
    oblique::bench::add_family_window_kernels(window.label, options.window_sizes, window.from, window.until);
  }
  std::map<std::string, int> repetitions;
  for (const WholeRun& run : options.whole_runs) {
    try {
      oblique::bench::add_whole_run_kernel(run.family, run.bodies, run.seconds, run.cap, run.page);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "--whole-runs: %s\n", e.what());
      std::exit(2);
    }
    repetitions[std::string(run.page ? "page_" : "whole_") + run.family + "_n" + std::to_string(run.bodies)] = run.repetitions;
  }
  for (const std::string& name : oblique::bench::kernel_names()) {
    const bool whole = repetitions.count(name) > 0;
    const bool simulation = whole || name.rfind("sim_", 0) == 0;
    auto* benchmark = benchmark::RegisterBenchmark(name.c_str(), [name, simulation](benchmark::State& state) {
      for (auto _ : state) benchmark::DoNotOptimize(oblique::bench::run_kernel(name, 1));
      if (simulation) {
        state.counters["worst_advance_ms"] = oblique::bench::last_worst_advance_ms();
        state.counters["impacts"] = oblique::bench::last_impact_count();
        state.counters["simulated_seconds"] = oblique::bench::last_simulated_seconds();
      }
    });
    if (simulation) {
      benchmark->Iterations(1)->Repetitions(whole ? repetitions[name] : 3)->MeasureProcessCPUTime()->Unit(benchmark::kMillisecond);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  take_own_flags(argc, argv, options);
  if (options.fingerprint) {
    std::printf("%s\n", oblique::bench::sparse_fingerprint(options.family_sizes).c_str());
    return 0;
  }
  if (options.worst_call_seconds > 0.0) {
    // {"grid256_mu": {"create_ms": …, "advance_ms": …, "restore_ms": …, "calls": …, "simulated": …}, …}
    std::printf("{");
    const char* separator = "";
    for (const std::string& scene : oblique::bench::worst_call_scenes()) {
      const oblique::bench::WorstCalls w =
          oblique::bench::worst_calls(scene, options.worst_call_seconds, options.worst_call_restore_every, kWorstCallCapSeconds);
      std::printf("%s\"%s\": {\"create_ms\": %.3f, \"advance_ms\": %.3f, \"restore_ms\": %.3f, \"calls\": %d, "
                  "\"simulated\": %.6f, \"complete\": %s}",
                  separator, scene.c_str(), w.create_ms, w.advance_ms, w.restore_ms, w.calls, w.simulated,
                  w.complete ? "true" : "false");
      std::fflush(stdout);
      separator = ", ";
    }
    std::printf("}\n");
    return 0;
  }
  register_kernels(options);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
