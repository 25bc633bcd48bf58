#include "oblique/io/simulation_state_json.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "math/checks.hpp"
#include "oblique/io/json_reader.hpp"
#include "oblique/geometry/narrow_phase.hpp"

namespace oblique {

using detail::fail;

namespace {

const char* const kStateFields[] = {"time",         "grid_index",       "q",
                                    "qd",           "active",           "sliding",
                                    "impacting",    "next_impulse",     "last_impact_time",
                                    "impacts_at_instant", "shown_time", "impact_count",
                                    "automatic",    "settling",         "shown"};
const char* const kShownFields[] = {"q", "qd", "multiplier", "friction"};

/// Fails naming the first key of `object` that is not in `keys` (`path` + key), with `which` saying which
/// keys there are.
template <std::size_t N>
void reject_unknown_fields(const Json& object, const char* const (&keys)[N], const std::string& path, const char* which) {
  for (const auto& item : object.items()) {
    bool known = false;
    for (const char* key : keys) known = known || item.key() == key;
    if (!known) fail(path + item.key(), std::string("unknown field (") + which + ")");
  }
}

Json flags_to_json(const std::vector<char>& flags) {
  Json out = Json::array();
  for (char flag : flags) out.push_back(flag ? 1 : 0);
  return out;
}

const Json& field(const Json& value, const char* key) {
  if (!value.contains(key)) fail(std::string("state.") + key, "missing");
  return value.at(key);
}

/// The sliding codes: 0, 1 or 2 (contact_friction.hpp), or booleans (false 0, true 1).
std::vector<char> sliding_from_json(const Json& value) {
  const Json& array = field(value, "sliding");
  if (!array.is_array()) fail("state.sliding", "must be an array of 0, 1 and 2, got " + describe_json(array));
  std::vector<char> codes;
  for (std::size_t i = 0; i < array.size(); ++i) {
    const Json& item = array[i];
    if (item.is_boolean()) {
      codes.push_back(item.get<bool>() ? 1 : 0);
    } else if (item.is_number() && (item.get<double>() == 0.0 || item.get<double>() == 1.0 || item.get<double>() == 2.0)) {
      codes.push_back(static_cast<char>(item.get<double>()));
    } else {
      fail("state.sliding[" + std::to_string(i) + "]", "must be 0, 1 or 2, got " + describe_json(item));
    }
  }
  return codes;
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
  // Sliding codes: 0, 1 (toward +t), 2 (toward −t: contact_friction.hpp).
  Json sliding = Json::array();
  for (char code : state.sliding) sliding.push_back(static_cast<int>(code));
  out["sliding"] = std::move(sliding);
  out["impacting"] = flags_to_json(state.impacting);
  out["next_impulse"] = state.next_impulse;
  out["last_impact_time"] = state.last_impact_time;
  out["impacts_at_instant"] = state.impacts_at_instant;
  out["shown_time"] = state.shown_time;
  out["impact_count"] = state.impact_count;
  // The automatic contact points by their keys [body_a, body_b, feature_a, feature_b] (only when there are
  // any: a state of a scenario without "collide": "all" has exactly the keys it had before); `settling`
  // only when set, for the same reason.
  if (state.settling) out["settling"] = true;
  // The views as shown (q and q̇ only when the time shown lies inside a step).
  if (state.shown) {
    Json shown = Json::object();
    if (state.shown->q.size() > 0 || state.shown->qd.size() > 0) {
      shown["q"] = to_json(state.shown->q);
      shown["qd"] = to_json(state.shown->qd);
    }
    shown["multiplier"] = state.shown->multiplier;
    shown["friction"] = state.shown->friction;
    out["shown"] = std::move(shown);
  }
  if (!state.automatic.empty()) {
    Json keys = Json::array();
    for (const FeaturePair& pair : state.automatic) {
      const ContactKey key = contact_key(pair);
      keys.push_back(Json::array({key.body_a, key.body_b, key.feature_a, key.feature_b}));
    }
    out["automatic"] = std::move(keys);
  }
  return out;
}

SimulationState state_from_json(const Json& value) {
  if (!value.is_object()) fail("state", "must be an object (a state saved by saveState), got " + describe_json(value));
  reject_unknown_fields(value, kStateFields, "state.", "a state has the keys saveState writes");
  SimulationState state;
  state.time = number_from_json(field(value, "time"), "state.time");
  state.grid_index = static_cast<long long>(whole_number(value, "grid_index"));
  state.q = vector_from_json(field(value, "q"), "state.q");
  state.qd = vector_from_json(field(value, "qd"), "state.qd");
  state.active = flags_from_json(value, "active");
  state.sliding = sliding_from_json(value);
  state.impacting = flags_from_json(value, "impacting");
  state.next_impulse = static_cast<std::size_t>(whole_number(value, "next_impulse"));
  state.last_impact_time = number_from_json(field(value, "last_impact_time"), "state.last_impact_time");
  state.impacts_at_instant = static_cast<int>(std::min(whole_number(value, "impacts_at_instant"), 1e9));
  state.shown_time = number_from_json(field(value, "shown_time"), "state.shown_time");
  state.impact_count = static_cast<std::size_t>(whole_number(value, "impact_count"));
  if (value.contains("settling")) {
    const Json& settling = value.at("settling");
    if (!settling.is_boolean()) fail("state.settling", "must be true or false, got " + describe_json(settling));
    state.settling = settling.get<bool>();
  }
  // The views as shown: q and q̇ optional (none when the committed state is shown), the forces required.
  if (value.contains("shown")) {
    const Json& shown = value.at("shown");
    if (!shown.is_object()) fail("state.shown", "must be an object (the views a saved state showed), got " + describe_json(shown));
    reject_unknown_fields(shown, kShownFields, "state.shown.", "the views have q, qd, multiplier and friction");
    ShownViews views;
    if (shown.contains("q")) views.q = vector_from_json(shown.at("q"), "state.shown.q");
    if (shown.contains("qd")) views.qd = vector_from_json(shown.at("qd"), "state.shown.qd");
    for (const char* key : {"multiplier", "friction"}) {
      const std::string name = std::string("state.shown.") + key;
      if (!shown.contains(key)) fail(name, "missing");
      const Vector values = vector_from_json(shown.at(key), name);
      (std::string(key) == "multiplier" ? views.multiplier : views.friction).assign(values.data(), values.data() + values.size());
    }
    state.shown = std::move(views);
  }
  // Automatic points: only their keys here; the simulator rebuilds each pair from its scenario's shapes.
  if (value.contains("automatic")) {
    const Json& keys = value.at("automatic");
    if (!keys.is_array()) fail("state.automatic", "must be an array of keys, got " + describe_json(keys));
    for (std::size_t i = 0; i < keys.size(); ++i) {
      const std::string name = "state.automatic[" + std::to_string(i) + "]";
      const Json& key = keys[i];
      if (!key.is_array() || key.size() != 4) fail(name, "must be [body_a, body_b, feature_a, feature_b]");
      int ids[4];
      for (std::size_t c = 0; c < 4; ++c) {
        const double x = number_from_json(key[c], name);
        if (std::floor(x) != x || x < -1.0 || x > 1e6) fail(name, "must hold whole numbers");
        ids[c] = static_cast<int>(x);
      }
      FeaturePair pair;
      pair.body_a = ids[0];
      pair.body_b = ids[1];
      // The ids, as contact_key reads them back (narrow_phase.hpp): faces from kFaceFeatureId on.
      pair.a.kind = ids[2] >= kFaceFeatureId ? Feature::Kind::Face : Feature::Kind::Circle;
      pair.a.index = ids[2] >= kFaceFeatureId ? ids[2] - kFaceFeatureId : ids[2];
      pair.b.kind = ids[3] >= kFaceFeatureId ? Feature::Kind::Face : Feature::Kind::Circle;
      pair.b.index = ids[3] >= kFaceFeatureId ? ids[3] - kFaceFeatureId : ids[3];
      state.automatic.push_back(pair);
    }
  }
  return state;
}

}  // namespace oblique
