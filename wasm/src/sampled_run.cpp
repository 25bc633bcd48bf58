#include "oblique/sampled_run.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "checks.hpp"

namespace oblique {

using detail::fail;
using detail::format_number;

void check_sampling(double duration, double sample_interval) {
  if (!std::isfinite(duration) || duration < 0.0 || duration > kMaxDuration) {
    fail("duration", "must be a number of seconds in [0, " + format_number(kMaxDuration) + "], got " +
                         format_number(duration));
  }
  if (!std::isfinite(sample_interval) || !(sample_interval > 0.0)) {
    fail("sample", "must be a positive number of seconds, got " + format_number(sample_interval));
  }
  const double whole = std::floor(duration / sample_interval * (1.0 + 1e-12));
  if (whole + 2.0 > kMaxSamples) {
    fail("sample", format_number(sample_interval) + " s over " + format_number(duration) + " s gives more than " +
                       format_number(kMaxSamples) + " samples");
  }
}

SampledRunEnd run_sampled(Simulator& sim, double duration, double sample_interval, SampleSink& sink) {
  check_sampling(duration, sample_interval);
  // Every record the simulator logs, in order: one advance call may log several (an impact and its plastic
  // follow-up), and the bounded log must not have dropped any before it is handed over.
  std::size_t handed = 0;
  auto hand_new_records = [&]() {
    if (sim.dropped_impacts() > handed) {
      throw std::runtime_error("impact log: records " + std::to_string(handed) + " to " +
                               std::to_string(sim.dropped_impacts() - 1) + " were dropped before they were written");
    }
    const std::size_t logged = sim.dropped_impacts() + sim.impacts().size();
    for (; handed < logged; ++handed) sink.impact(sim.impacts()[handed - sim.dropped_impacts()]);
  };

  // Impacts of the initial state (touching and approaching at t = 0), then sample by sample.
  hand_new_records();
  sink.sample(sim);
  SampledRunEnd end{true, sim.time()};
  const long samples = static_cast<long>(std::floor(duration / sample_interval * (1.0 + 1e-12)));
  for (long k = 1; k <= samples + 1; ++k) {
    const double target = k <= samples ? std::min(duration, static_cast<double>(k) * sample_interval) : duration;
    if (k == samples + 1 && !(sim.time() < duration)) break;
    // Until the target is reached with nothing left due there: a call stops after an impact, or at its work
    // budget (work_limit_hit: then it makes progress all the same, though a long step may take several
    // calls before time moves). The sink may stop the run between two calls.
    do {
      if (sink.stop()) {
        end.complete = false;
        return end;
      }
      sim.advance_to_next_impact_before(target);
      hand_new_records();
    } while (sim.time() < target || sim.work_limit_hit());
    sink.sample(sim);
    end.time = sim.time();
  }
  return end;
}

}  // namespace oblique
