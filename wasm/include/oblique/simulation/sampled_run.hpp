// A run of a simulation sampled at fixed times, as `oblique simulate` writes it: samples at t = 0, Δ, 2Δ, …
// and at the end, every impact record in order as it is logged, and a say for the caller between calls (to
// stop on a wall-clock limit) — with nothing kept in memory but the simulator itself, so that a run of any
// length streams its output.
#pragma once

#include <cstddef>

#include "oblique/simulation/simulator.hpp"

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

/// A sampled run taken one piece at a time, for a caller that must return to a loop of its own between
/// pieces (the page's worker, which answers the page meanwhile). The first step() hands the records of the
/// initial state and the sample at t = 0; each later one makes one advance call (bounded by the simulator's
/// work budget), hands the records it logged and, once the next sample time is reached with nothing left
/// due there, that sample. The samples are at t = 0, Δ, 2Δ, ... and at `duration`; the pieces change
/// nothing of what is handed over, only when.
class SampledRun {
 public:
  /// Checks the sampling (check_sampling) and keeps `sim`, which must outlive the run, at its current state.
  SampledRun(Simulator& sim, double duration, double sample_interval);

  /// The next piece (see the class). Throws std::runtime_error if a record was dropped from the log before
  /// it was handed over (a log smaller than the impacts of one call), or if the run diverges; std::logic_error
  /// once done().
  void step(SampleSink& sink);

  /// Whether every sample has been handed over.
  bool done() const { return done_; }
  /// Whether the initial sample has been handed over (the first step() was taken).
  bool started() const { return next_ > 0; }
  /// Time of the last sample handed over (0 before the first).
  double sample_time() const { return sample_time_; }
  /// Samples handed over so far.
  long samples() const { return next_; }

 private:
  void hand_new_records(SampleSink& sink);
  /// Sets the target of sample `next_`, or done_ when there is none.
  void aim();

  Simulator& sim_;
  double duration_;
  double interval_;
  long whole_;               ///< samples at kΔ, k = 1 … whole_ (the last capped at duration_)
  long next_ = 0;            ///< the number of the next sample (0: the initial one)
  double target_ = 0.0;      ///< its time
  double sample_time_ = 0.0;
  std::size_t handed_ = 0;   ///< records handed over
  bool done_ = false;
};

/// Runs `sim` from its current state (t = 0) for `duration` seconds, handing `sink` a sample at t = 0,
/// Δ, 2Δ, ... and at `duration`, and every record as it is logged (those of the initial state first): a
/// SampledRun taken to its end, asking sink.stop() before each advance call. Throws as SampledRun::step.
SampledRunEnd run_sampled(Simulator& sim, double duration, double sample_interval, SampleSink& sink);

}  // namespace oblique
