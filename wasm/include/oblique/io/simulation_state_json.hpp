// A SimulationState as JSON, for the JS engine's saveState / restoreState (docs/engine-api.md): an object
// with the keys of the struct (time, grid_index, q, qd, active, sliding, impacting, next_impulse,
// last_impact_time, impacts_at_instant, shown_time, impact_count; automatic and settling when they apply;
// shown: the views as shown, {q, qd (when shown_time > time), multiplier, friction}), flags as arrays of 0
// and 1. Numbers are
// written in the shortest form that reads back to the same double, so a state survives the round trip
// through JavaScript bit for bit.
#pragma once

#include "oblique/io/json_io.hpp"
#include "oblique/simulation/simulation_state.hpp"

namespace oblique {

/// The state as a JSON object (header comment).
Json state_to_json(const SimulationState& state);

/// The state of a JSON object written by state_to_json. Throws std::invalid_argument naming
/// "state.<field>" for a missing or unknown key, a wrong type or a number that is not finite (sizes are
/// checked by Simulator::restore_state, which knows the scenario).
SimulationState state_from_json(const Json& value);

}  // namespace oblique
