#include "oblique/simulation_state_json.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "checks.hpp"
#include "oblique/json_reader.hpp"

namespace oblique {

using detail::fail;

namespace {

const char* const kStateFields[] = {"time",         "grid_index",       "q",
                                    "qd",           "active",           "sliding",
                                    "impacting",    "next_impulse",     "last_impact_time",
                                    "impacts_at_instant", "shown_time", "impact_count"};

Json flags_to_json(const std::vector<char>& flags) {
  Json out = Json::array();
  for (char flag : flags) out.push_back(flag ? 1 : 0);
  return out;
}

const Json& field(const Json& value, const char* key) {
  if (!value.contains(key)) fail(std::string("state.") + key, "missing");
  return value.at(key);
}

/// A whole number in [0, 2^53] (exact as a double, so it crosses JavaScript unchanged).
double whole_number(const Json& value, const char* key) {
  const double x = number_from_json(field(value, key), std::string("state.") + key);
  if (x < 0.0 || x > 9007199254740992.0 || std::floor(x) != x) {
    fail(std::string("state.") + key, "must be a whole number ≥ 0");
  }
  return x;
}

std::vector<char> flags_from_json(const Json& value, const char* key) {
  const Json& array = field(value, key);
  const std::string name = std::string("state.") + key;
  if (!array.is_array()) fail(name, "must be an array of 0 and 1, got " + describe_json(array));
  std::vector<char> flags;
  for (std::size_t i = 0; i < array.size(); ++i) {
    const Json& item = array[i];
    if (item.is_boolean()) {
      flags.push_back(item.get<bool>() ? 1 : 0);
    } else if (item.is_number() && (item.get<double>() == 0.0 || item.get<double>() == 1.0)) {
      flags.push_back(item.get<double>() == 1.0 ? 1 : 0);
    } else {
      fail(name + "[" + std::to_string(i) + "]", "must be 0 or 1, got " + describe_json(item));
    }
  }
  return flags;
}

}  // namespace

Json state_to_json(const SimulationState& state) {
  Json out;
  out["time"] = state.time;
  out["grid_index"] = state.grid_index;
  out["q"] = to_json(state.q);
  out["qd"] = to_json(state.qd);
  out["active"] = flags_to_json(state.active);
  out["sliding"] = flags_to_json(state.sliding);
  out["impacting"] = flags_to_json(state.impacting);
  out["next_impulse"] = state.next_impulse;
  out["last_impact_time"] = state.last_impact_time;
  out["impacts_at_instant"] = state.impacts_at_instant;
  out["shown_time"] = state.shown_time;
  out["impact_count"] = state.impact_count;
  return out;
}

SimulationState state_from_json(const Json& value) {
  if (!value.is_object()) fail("state", "must be an object (a state saved by saveState), got " + describe_json(value));
  for (const auto& item : value.items()) {
    bool known = false;
    for (const char* key : kStateFields) known = known || item.key() == key;
    if (!known) fail("state." + item.key(), "unknown field (a state has the keys saveState writes)");
  }
  SimulationState state;
  state.time = number_from_json(field(value, "time"), "state.time");
  state.grid_index = static_cast<long long>(whole_number(value, "grid_index"));
  state.q = vector_from_json(field(value, "q"), "state.q");
  state.qd = vector_from_json(field(value, "qd"), "state.qd");
  state.active = flags_from_json(value, "active");
  state.sliding = flags_from_json(value, "sliding");
  state.impacting = flags_from_json(value, "impacting");
  state.next_impulse = static_cast<std::size_t>(whole_number(value, "next_impulse"));
  state.last_impact_time = number_from_json(field(value, "last_impact_time"), "state.last_impact_time");
  state.impacts_at_instant = static_cast<int>(std::min(whole_number(value, "impacts_at_instant"), 1e9));
  state.shown_time = number_from_json(field(value, "shown_time"), "state.shown_time");
  state.impact_count = static_cast<std::size_t>(whole_number(value, "impact_count"));
  return state;
}

}  // namespace oblique
