// The state of a simulation: everything that, with the scenario and its settings (e, ν), determines its
// future. Simulator::save_state copies it out; Simulator::restore_state puts it back, and advancing from
// there gives bit-identical results to advancing the original run (the page's timeline keeps snapshots
// and replays from the nearest one).
//
// What is not in it is recomputed from what is: q̈ and the multipliers λ of the active set (the dynamics at
// (q, q̇)), by the first transaction after a restore, within the work budget of the calls that follow
// (Simulator, "Bounded work"). What the last call showed travels with the state (`shown`): the positions and
// velocities of the partial RK4 step shown when a call ended between grid points, and the contact forces,
// so that a restore shows them at once, without integrating or solving anything. The settings are not part
// of it: restoring a state after set_restitution or set_nu runs the future with the new values.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "oblique/geometry/contact_geometry.hpp"
#include "oblique/math/projection.hpp"

namespace oblique {

/// What a simulation showed when its state was saved (Simulator's views): restored as they are, they are
/// what the views show until the next call computes its own. They describe the state they were saved with:
/// a state changed by hand drops them (shown.reset()), and its restore then computes the views afresh.
struct ShownViews {
  /// Positions and velocities at shown_time, when it lies after the committed time (the partial step);
  /// empty when shown_time = time (the committed q and q̇ are shown).
  Vector q, qd;
  /// Per contact point: the λ of its unilateral row and the tangential force of the committed state
  /// (ContactPoint::multiplier, ContactPoint::friction).
  std::vector<double> multiplier, friction;
};

/// A simulation's state (header comment). Plain data: copy it, keep it, hand it back.
struct SimulationState {
  double time = 0.0;            ///< committed time (s): on the step grid, or at an event or impulse
  long long grid_index = 0;     ///< time ∈ [k·step, (k + 1)·step): the next committed step ends at (k + 1)·step
  Vector q, qd;                 ///< committed positions and velocities (3 per body)
  /// The automatic contact points of a "collide": "all" scenario found at the last step start
  /// (automatic_contacts.hpp), sorted by key; the points are the model's declared ones, then these.
  std::vector<FeaturePair> automatic;
  std::vector<char> active;     ///< per contact point: in resting contact (its rows are in A)
  /// Per active point with friction: its tangential row has left A — 1 (kSlidesForward): a `stick` point
  /// sliding without friction, or a frictional point slipping toward +t; 2 (kSlidesBackward): toward −t
  /// (contact_friction.hpp). 0 for every other point.
  std::vector<char> sliding;
  std::vector<char> impacting;  ///< per contact point: part of the impact just resolved (shown until the next step)
  std::size_t next_impulse = 0; ///< scheduled impulses already applied, in time order
  double last_impact_time = -1.0;  ///< the Zeno guard: time of the last impact ...
  int impacts_at_instant = 0;      ///< ... and impacts in a row within 100·event_tolerance of each other
  double shown_time = 0.0;      ///< time shown (≥ time): the target of the last advance call
  /// The initial state is not settled yet: its touching points (their impact at t = 0 and the settle) are
  /// the first work of the next advance call (Simulator, "Bounded work"). Written only when set.
  bool settling = false;
  std::size_t impact_count = 0; ///< impacts logged up to this state (the log is cut back to it on restore)
  /// The views as shown when saved (save_state always writes them); without them a restore computes the
  /// views whole: the dynamics of the state and the partial step to shown_time.
  std::optional<ShownViews> shown;
};

}  // namespace oblique
