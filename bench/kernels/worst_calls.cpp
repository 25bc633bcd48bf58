#include "worst_calls.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <stdexcept>

#include "oblique/io/scenario_json.hpp"
#include "oblique/simulation/simulator.hpp"
#include "scene_families.hpp"

namespace oblique::bench {

namespace {

/// Wall-clock milliseconds of `action`.
template <typename Action>
double timed_ms(Action&& action) {
  const auto start = std::chrono::steady_clock::now();
  action();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

Scenario scene(const std::string& name) {
  if (name == "grid256_mu") return scenes::disk_grid(16, 16, 0.0, 0.3);
  if (name == "grid256") return scenes::disk_grid(16, 16, 0.0, 0.0);
  if (name == "struck256_mu") {
    // 15 rows of 17 touching disks and a 256th falling onto the middle of the top row: one frictional
    // impact of every disk at once.
    Scenario s = scenes::disk_grid(15, 17, 0.0, 0.3);
    BodyDef striker = s.bodies.back();
    striker.name = "striker";
    striker.position = Vec2(8 * 0.1, 0.05 + 15 * 0.1 + 1e-3);
    striker.velocity = Vec2(0.3, -1.0);
    s.bodies.push_back(striker);
    return s;
  }
  if (name == "slide256_mu") {
    // The touching grid with μ = 0.3, every disk sliding at 1 m/s along its floor: hundreds of sliding points.
    Scenario s = scenes::disk_grid(16, 16, 0.0, 0.3);
    for (BodyDef& body : s.bodies) body.velocity = Vec2(1.0, 0.0);
    return s;
  }
  if (name == "box256" || name == "box256_mu") {
    // The touching grid as square boxes of the disks' width: a wall whose face contacts are two points
    // each, far more rows than A's rank, so the smooth phase splits its load at every evaluation.
    Scenario s = scenes::disk_grid(16, 16, 0.0, name == "box256_mu" ? 0.3 : 0.0);
    for (BodyDef& body : s.bodies) {
      body.shape.type = Shape::Type::Box;
      body.shape.width = body.shape.height = 2.0 * body.shape.radius;
    }
    return s;
  }
  if (name == "rods256_mu") {
    // Capsules of the disks' radius and length 2r lying end to end in 16 touching rows, with μ = 0.3.
    Scenario s = scenes::disk_grid(16, 16, 0.0, 0.3);
    for (BodyDef& body : s.bodies) {
      body.shape.type = Shape::Type::Rod;
      body.shape.length = 2.0 * body.shape.radius;
      body.position.x() *= 2.0;
    }
    return s;
  }
  if (name == "gaps112_mu") return scenes::disk_grid(7, 16, 1e-3, 0.3);
  if (name == "gaps112") return scenes::disk_grid(7, 16, 1e-3, 0.0);
  throw std::invalid_argument("scene: unknown name " + name);
}

/// Advances to `target` in as many calls as the budget takes, each timed into `worst`, until `cap_seconds`
/// of wall clock from `start` have passed (checked between calls).
void advance_timed(Simulator& sim, double target, WorstCalls& worst, std::chrono::steady_clock::time_point start,
                   double cap_seconds) {
  do {
    worst.advance_ms = std::max(worst.advance_ms, timed_ms([&] { sim.advance_to(target); }));
    ++worst.calls;
  } while (sim.work_limit_hit() &&
           std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < cap_seconds);
}

}  // namespace

const std::vector<std::string>& worst_call_scenes() {
  static const std::vector<std::string> names = {"grid256_mu", "grid256",  "struck256_mu", "slide256_mu", "box256",
                                                 "box256_mu",  "rods256_mu", "gaps112_mu",  "gaps112"};
  return names;
}

WorstCalls worst_calls(const std::string& name, double seconds, int restore_every, double cap_seconds) {
  if (!(seconds > 0.0) || !std::isfinite(seconds)) throw std::invalid_argument("seconds: must be a finite positive time");
  if (restore_every < 1) throw std::invalid_argument("restore_every: must be at least 1");
  if (!(cap_seconds > 0.0)) throw std::invalid_argument("cap_seconds: must be a positive time");
  // createSimulation reads the scenario document: its text is written outside the timed call.
  const std::string text = scenario_to_json(scene(name)).dump();
  WorstCalls worst;
  std::optional<Simulator> sim;
  worst.create_ms = timed_ms([&] { sim.emplace(parse_scenario(parse_json(text, "scenario"))); });
  std::vector<SimulationState> saved;
  const int frames = static_cast<int>(std::ceil(seconds * 60.0 - 1e-9));
  const auto start = std::chrono::steady_clock::now();
  const auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  for (int frame = 1; frame <= frames && elapsed() < cap_seconds; ++frame) {
    advance_timed(*sim, frame / 60.0, worst, start, cap_seconds);
    saved.push_back(sim->save_state());
  }
  worst.simulated = sim->time();
  worst.complete = worst.simulated >= frames / 60.0;
  // Scrubbing back through the timeline: each restore, then the frame after it.
  for (int k = static_cast<int>(saved.size()) - 1; k >= 0; k -= restore_every) {
    worst.restore_ms = std::max(worst.restore_ms, timed_ms([&] { sim->restore_state(saved[static_cast<std::size_t>(k)]); }));
    advance_timed(*sim, (k + 2) / 60.0, worst, std::chrono::steady_clock::now(), cap_seconds);
  }
  return worst;
}

}  // namespace oblique::bench
