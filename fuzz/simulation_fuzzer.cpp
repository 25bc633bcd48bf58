// libFuzzer target: a short simulation of a scenario document, as `oblique simulate` and the page run one.
//
// A document that check_scenario accepts is simulated for kSteps integrator steps, one advance call each.
// The Simulator either refuses the scenario (std::invalid_argument naming the field), stops with the
// documented "simulation diverged" (std::runtime_error), or keeps a state that is finite after every call:
// time, q, q̇, energies, the constraint violation, and every contact point's values. Time never goes back
// and never passes the requested end.
//
// The work per input is bounded here so that the fuzzer keeps its pace (thousands of inputs per minute):
// kSteps calls, scenarios of at most kMaxBodies bodies and kMaxRows joints plus contacts, and a run stops
// after kMaxImpacts impacts (an elastic body driven into a wall by a huge force bounces every few
// microseconds, legally: thousands of impacts per simulated second). What such inputs cost is the
// benchmarks' business (npm run bench), not a crash search's.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "fuzz_support.hpp"
#include "json_mutator.hpp"
#include "oblique/io/json_io.hpp"
#include "oblique/io/scenario_json.hpp"
#include "oblique/simulation/simulator.hpp"

using oblique::fuzz::require;

namespace {

constexpr int kSteps = 200;
constexpr std::size_t kMaxBodies = 8;
constexpr std::size_t kMaxRows = 16;
constexpr std::size_t kMaxImpacts = 100;

/// Everything the view reads is finite.
void require_finite_state(const oblique::Simulator& sim, int call) {
  const std::string at = " after advance call " + std::to_string(call) + " (t = " + std::to_string(sim.time()) + ")";
  require(std::isfinite(sim.time()), "time is not finite" + at);
  require(sim.positions().allFinite(), "q is not finite" + at);
  require(sim.velocities().allFinite(), "q̇ is not finite" + at);
  const oblique::Energy energy = sim.energy();
  require(std::isfinite(energy.kinetic) && std::isfinite(energy.potential) && std::isfinite(energy.total),
          "an energy is not finite" + at);
  require(std::isfinite(sim.constraint_violation()), "the constraint violation is not finite" + at);
  for (const oblique::ContactPoint& point : sim.contact_points()) {
    require(point.point.allFinite() && point.normal.allFinite() && std::isfinite(point.gap) &&
                std::isfinite(point.normal_velocity) && std::isfinite(point.multiplier),
            "a contact point of contact " + std::to_string(point.contact) + " is not finite" + at);
  }
}

/// One input: read, and if it is a valid scenario of bounded size, simulated.
void simulate(const std::string& text) {
  // A valid scenario of bounded size, or nothing to simulate.
  oblique::Scenario scenario;
  try {
    const oblique::Json document = oblique::parse_json(text, "scenario");
    if (!oblique::check_scenario(document).empty()) return;
    scenario = oblique::parse_scenario(document);
  } catch (const std::invalid_argument&) {
    return;
  }
  if (scenario.bodies.size() > kMaxBodies || scenario.joints.size() + scenario.contacts.size() > kMaxRows) return;

  // Build, then advance step by step: finite after every call, or a documented stop.
  try {
    oblique::Simulator sim(scenario);
    require_finite_state(sim, 0);
    const double step = scenario.integrator.step;
    for (int call = 1; call <= kSteps; ++call) {
      const double before = sim.time();
      sim.advance(step);
      require(sim.time() >= before, "time went back in advance call " + std::to_string(call));
      require(sim.time() <= before + step,
              "advance call " + std::to_string(call) + " went past its end");
      require_finite_state(sim, call);
      if (sim.dropped_impacts() + sim.impacts().size() > kMaxImpacts) break;
    }
  } catch (const std::invalid_argument&) {
    // The scenario cannot be simulated; the message names the field.
  } catch (const std::runtime_error& error) {
    require(std::string(error.what()).find("diverged") != std::string::npos,
            std::string("undocumented runtime_error: ") + error.what());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return oblique::fuzz::run_input(data, size, simulate);
}

// Mostly structural mutations (json_mutator.hpp); a share of 0.1 on the bytes, for the text reader.
extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t max_size,
                                               unsigned int seed) {
  return oblique::fuzz::mutate_json(data, size, max_size, seed, 0.1);
}
