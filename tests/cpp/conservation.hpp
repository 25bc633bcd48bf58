// Runs a simulation for a while and tracks what a conservative system must keep: its total energy, relative
// to the largest kinetic energy seen, and its constraint drift.
#pragma once

#include <algorithm>
#include <cmath>

#include "oblique/simulation/simulator.hpp"

namespace oblique::testing {

struct ConservationReport {
  double energy_error = 0.0;  ///< max |E(t) − E(0)| / max(|E(0)|, K(t)) over the run
  double violation = 0.0;     ///< max constraint_violation() over the run
};

/// Advances `sim` `steps` times by `dt`, checking energy and drift after each.
inline ConservationReport track_conservation(Simulator& sim, int steps, double dt) {
  const double energy0 = sim.energy().total;
  double scale = std::max({std::abs(energy0), sim.energy().kinetic, 1e-12});
  double worst_energy = 0.0;
  ConservationReport report;
  for (int k = 0; k < steps; ++k) {
    const double target = sim.time() + dt;
    do {
      sim.advance_to(target);
    } while (sim.work_limit_hit());  // calls may stop at their work budget: call again
    scale = std::max(scale, sim.energy().kinetic);
    worst_energy = std::max(worst_energy, std::abs(sim.energy().total - energy0));
    report.violation = std::max(report.violation, sim.constraint_violation());
  }
  report.energy_error = worst_energy / scale;
  return report;
}

}  // namespace oblique::testing
