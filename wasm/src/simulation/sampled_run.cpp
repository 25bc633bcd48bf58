#include "oblique/simulation/sampled_run.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "math/checks.hpp"

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

SampledRun::SampledRun(Simulator& sim, double duration, double sample_interval)
    : sim_(sim), duration_(duration), interval_(sample_interval) {
  check_sampling(duration, sample_interval);
  whole_ = static_cast<long>(std::floor(duration / sample_interval * (1.0 + 1e-12)));
}

void SampledRun::hand_new_records(SampleSink& sink) {
  // Every record the simulator logs, in order: one advance call may log several (an impact and its plastic
  // follow-up), and the bounded log must not have dropped any before it is handed over.
  if (sim_.dropped_impacts() > handed_) {
    throw std::runtime_error("impact log: records " + std::to_string(handed_) + " to " +
                             std::to_string(sim_.dropped_impacts() - 1) + " were dropped before they were written");
  }
  const std::size_t logged = sim_.dropped_impacts() + sim_.impacts().size();
  for (; handed_ < logged; ++handed_) sink.impact(sim_.impacts()[handed_ - sim_.dropped_impacts()]);
}

void SampledRun::aim() {
  // Samples at kΔ up to the duration, and one at the duration itself unless the last kΔ reached it.
  if (next_ <= whole_) {
    target_ = std::min(duration_, static_cast<double>(next_) * interval_);
  } else if (next_ == whole_ + 1 && sim_.time() < duration_) {
    target_ = duration_;
  } else {
    done_ = true;
  }
}

void SampledRun::step(SampleSink& sink) {
  if (done_) throw std::logic_error("sampled run: every sample was handed over");
  if (next_ == 0) {
    // Impacts of the initial state (touching and approaching at t = 0), then its sample.
    hand_new_records(sink);
  } else {
    // One call toward the target: it stops after an impact, or at its work budget (work_limit_hit: then it
    // makes progress all the same, though a long step may take several calls before time moves). The
    // target is reached once time is there with nothing left due.
    sim_.advance_to_next_impact_before(target_);
    hand_new_records(sink);
    if (sim_.time() < target_ || sim_.work_limit_hit()) return;
  }
  sink.sample(sim_);
  sample_time_ = sim_.time();
  ++next_;
  aim();
}

SampledRunEnd run_sampled(Simulator& sim, double duration, double sample_interval, SampleSink& sink) {
  SampledRun run(sim, duration, sample_interval);
  run.step(sink);  // the initial state: no advance call
  while (!run.done()) {
    if (sink.stop()) return {false, run.sample_time()};
    run.step(sink);
  }
  return {true, run.sample_time()};
}

}  // namespace oblique
