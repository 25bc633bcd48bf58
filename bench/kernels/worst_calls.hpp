// The longest single call of the JS API over a whole run, in wall-clock milliseconds: what the work budget
// promises a page (no call over kCallTargetMs on this machine for scenes up to kMaxBodies bodies, with or
// without friction), measured on the heaviest scenes there are — a grid of 256 exactly touching disks, the
// same struck by one of them, and 112 disks 1 mm apart, with μ = 0.3 and without friction. Shared by the
// native and the wasm builds.
#pragma once

#include <string>
#include <vector>

namespace oblique::bench {

/// The budget's wall-clock target for one call of the JS API, in ms.
inline constexpr double kCallTargetMs = 50.0;

/// The longest call of each kind over one run, in wall-clock ms.
struct WorstCalls {
  double create_ms = 0.0;   ///< createSimulation: the scenario checked and the simulator built (its settle begun)
  double advance_ms = 0.0;  ///< one advance to the next frame of 1/60 s (a frame takes as many calls as the budget needs)
  double restore_ms = 0.0;  ///< one restore_state of a state saved after a frame (the timeline's scrubbing)
  int calls = 0;            ///< advance calls made
  double simulated = 0.0;   ///< the simulated time reached (s)
  bool complete = false;    ///< the run reached its end before its wall-clock cap
};

/// The scenes measured: "grid256_mu", "grid256" (16 × 16 exactly touching disks, μ = 0.3 or none),
/// "struck256_mu" (15 × 17 touching disks, μ = 0.3, and a 256th falling onto the top row at 1 m/s: one
/// frictional impact of all of them), "slide256_mu" (the touching grid with μ = 0.3, every disk sliding at
/// 1 m/s) and "gaps112_mu", "gaps112" (7 rows of 16 disks 1 mm apart, the lowest on the floor).
const std::vector<std::string>& worst_call_scenes();

/// One run of scene `name` (worst_call_scenes) from its creation to `seconds`, in frames of 1/60 s as the
/// page asks for them (each frame in as many calls as the work budget takes; each call timed), then a
/// restore_state of every `restore_every`-th saved state, in reverse order as a scrub back through the run,
/// each followed by the advance to the next frame (timed with the advances). The run forward stops between
/// two calls once `cap_seconds` of wall clock have passed (and so does each advance after a restore): a
/// scene whose single calls take seconds is measured on the calls it made. Throws std::invalid_argument
/// naming "scene", "seconds", "restore_every" or "cap_seconds".
WorstCalls worst_calls(const std::string& name, double seconds, int restore_every, double cap_seconds);

}  // namespace oblique::bench
