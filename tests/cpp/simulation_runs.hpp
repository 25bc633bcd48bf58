// Driving a Simulator in the tests: to a time whatever the work budget, and on the dense or the default path.
#pragma once

#include <climits>

#include "oblique/scenario/scenario.hpp"
#include "oblique/simulation/simulator.hpp"

namespace oblique::testing {

/// Advances to `t`, calling again while a call stops at the work budget (as the page's worker does).
inline void run_to(Simulator& sim, double t) {
  do {
    sim.advance_to(t);
  } while (sim.work_limit_hit());
}

/// A simulation of `scenario` on the dense path (forced: every solve by the dense projections) or on the
/// default one.
inline Simulator simulator_on_path(const Scenario& scenario, bool force_dense) {
  Simulator sim(scenario);
  if (force_dense) {
    sim.set_sparse_smooth_phase_threshold(INT_MAX);
    sim.reset();
  }
  return sim;
}

}  // namespace oblique::testing
