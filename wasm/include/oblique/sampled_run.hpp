// A run of a simulation sampled at fixed times, as `oblique simulate` writes it: samples at t = 0, Δ, 2Δ, …
// and at the end, every impact record in order as it is logged, and a say for the caller between calls (to
// stop on a wall-clock limit) — with nothing kept in memory but the simulator itself, so that a run of any
// length streams its output.
#pragma once

#include <cstddef>

#include "oblique/simulator.hpp"

namespace oblique {

/// Most samples of one run (t = 0, Δ, ..., duration).
inline constexpr double kMaxSamples = 1e6;

/// What a sampled run hands its caller, in time order.
class SampleSink {
 public:
  virtual ~SampleSink() = default;
  /// The simulator's state at a sample time (time(), positions(), velocities(), energy(), ...).
  virtual void sample(const Simulator& sim) = 0;
  /// An impact record, as soon as it is logged (the first impact is number 0).
  virtual void impact(const ImpactRecord& record) = 0;
  /// Asked between two advance calls (each a few tens of milliseconds at most): true stops the run there.
  virtual bool stop() { return false; }
};

/// How a sampled run ended.
struct SampledRunEnd {
  bool complete = true;  ///< every sample was taken (false: stop() ended it)
  double time = 0.0;     ///< time of the last sample
};

/// Throws std::invalid_argument naming "duration" (finite, in [0, kMaxDuration]) or "sample" (finite,
/// positive, at most kMaxSamples samples over the duration).
void check_sampling(double duration, double sample_interval);

/// Runs `sim` from its current state (t = 0) for `duration` seconds, handing `sink` a sample at t = 0,
/// Δ, 2Δ, ... and at `duration`, and every record as it is logged (those of the initial state first). Throws
/// std::runtime_error if a record was dropped from the log before it was handed over (a log smaller than
/// the impacts of one call), or if the run diverges.
SampledRunEnd run_sampled(Simulator& sim, double duration, double sample_interval, SampleSink& sink);

}  // namespace oblique
