// SimulationState: a saved state restored — into the same simulator or into a new one of the same
// scenario — replays the run bit for bit (positions, velocities, contact states and multipliers, impact
// records), whether it was saved on the step grid, between grid points or right after an impact; the log
// is cut back to the state; a state that does not fit is refused naming its field, changing nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "oblique/simulation/simulator.hpp"
#include "error_message.hpp"
#include "scenario_builders.hpp"
#include "comparisons.hpp"

namespace oblique {
namespace {

using testing::append;
using testing::message_of;

/// The calls of a run: advance by odd amounts (ending between grid points) and to the next impact.
void call(Simulator& sim, int k) {
  if (k % 4 == 3) {
    sim.advance_to_next_impact(0.2);
  } else {
    sim.advance(k % 3 == 0 ? 0.0123 : 1.0 / 60.0);
  }
}

/// Everything a call shows, as doubles (compared bit for bit), with the impact records numbered from
/// `since` on.
std::vector<double> observe(const Simulator& sim, std::size_t since = 0) {
  std::vector<double> out = {sim.time(), sim.energy().total, sim.constraint_violation(),
                             static_cast<double>(sim.dropped_impacts() + sim.impacts().size())};
  append(out, sim.positions());
  append(out, sim.velocities());
  for (const ContactPoint& p : sim.contact_points()) {
    out.insert(out.end(), {p.gap, p.normal_velocity, p.multiplier, static_cast<double>(p.state)});
  }
  for (std::size_t i = std::max(since, sim.dropped_impacts()) - sim.dropped_impacts(); i < sim.impacts().size(); ++i) {
    const ImpactRecord& record = sim.impacts()[i];
    out.push_back(record.time);
    append(out, record.result.qd_plus);
    append(out, record.result.impulse_multipliers);
  }
  return out;
}

using testing::same_bits;

struct Case {
  const char* name;
  Scenario scenario;
};

std::vector<Case> cases() {
  const Scenario kicked = testing::with_kick(testing::pendulum_and_box(0.6), 0.9, 1, Vec2(0.5, 2.0));
  return {{"billiards", testing::billiards(0.9)},
          {"newton's cradle", testing::newtons_cradle(1e-6, 0.9)},
          {"double pendulum", testing::double_pendulum()},
          {"rimless wheel", testing::rimless_wheel(8, 0.1, 1.5)},
          {"kicked pendulum and box", kicked}};
}

TEST(SimulationState, RestoringASavedStateReplaysTheRunBitForBit) {
  constexpr int kCalls = 80;
  for (const Case& c : cases()) {
    for (int saved_at : {0, 37, 58}) {
      // The original run, saving its state after call `saved_at`.
      Simulator original(c.scenario);
      SimulationState saved;
      std::vector<std::vector<double>> reference;
      for (int k = 0; k < kCalls; ++k) {
        call(original, k);
        if (k == saved_at) saved = original.save_state();
        if (k > saved_at) reference.push_back(observe(original, saved.impact_count));
      }
      const std::size_t records = original.impacts().size();
      // A new simulator of the scenario, and the original itself, restored and replayed.
      Simulator fresh(c.scenario);
      fresh.advance(0.3);  // whatever it did before does not matter
      for (Simulator* sim : {&fresh, &original}) {
        sim->restore_state(saved);
        EXPECT_EQ(sim->dropped_impacts() + sim->impacts().size(), saved.impact_count) << c.name;
        for (int k = saved_at + 1; k < kCalls; ++k) {
          call(*sim, k);
          ASSERT_TRUE(same_bits(observe(*sim, saved.impact_count), reference[static_cast<std::size_t>(k - saved_at - 1)]))
              << c.name << ", saved after call " << saved_at << ", differs after call " << k
              << (sim == &fresh ? " (new simulator)" : " (same simulator)");
        }
      }
      // The original's log was cut back to the state and refilled: as many records as before.
      EXPECT_EQ(original.impacts().size(), records) << c.name;
    }
  }
}

TEST(SimulationState, TheLogIsCutBackToTheState) {
  Simulator sim(testing::bouncing_ball(1.0, 0.8));
  sim.advance(1.0);
  const SimulationState early = sim.save_state();
  ASSERT_EQ(early.impact_count, 1u);  // the first bounce, at 0.45 s
  sim.advance(2.0);
  ASSERT_GT(sim.impacts().size(), 3u);
  const double second = sim.impacts()[1].time;
  // Back to t = 1: the records after it are gone, and the run logs them again, identically.
  sim.restore_state(early);
  EXPECT_EQ(sim.time(), 1.0);
  EXPECT_EQ(sim.impacts().size(), 1u);
  sim.advance(1.0);
  ASSERT_GE(sim.impacts().size(), 2u);
  EXPECT_EQ(sim.impacts()[1].time, second);
  // A state later than the log's end (here: after a reset) empties it; its impacts count as dropped.
  const SimulationState late = sim.save_state();
  sim.reset();
  sim.restore_state(late);
  EXPECT_TRUE(sim.impacts().empty());
  EXPECT_EQ(sim.dropped_impacts(), late.impact_count);
  EXPECT_EQ(sim.time(), late.shown_time);
}

TEST(SimulationState, AStateThatDoesNotFitIsRefusedNamingItsField) {
  Simulator sim(testing::pendulum_and_box(0.5));
  sim.advance(0.5);
  const SimulationState good = sim.save_state();
  const std::vector<double> before = observe(sim);
  const std::vector<std::pair<std::function<void(SimulationState&)>, std::string>> bad = {
      {[](SimulationState& s) { s.q.resize(3); }, "state.q: must have 6 entries"},
      {[](SimulationState& s) { s.qd(1) = std::nan(""); }, "state.qd[1]: must be a finite number"},
      {[](SimulationState& s) { s.active.pop_back(); }, "state.active: must have 5 entries"},
      {[](SimulationState& s) { s.time = -1.0; }, "state.time: "},
      {[](SimulationState& s) { s.shown_time = s.time - 0.1; }, "state.shown_time: "},
      {[](SimulationState& s) { s.grid_index += 3; }, "state.grid_index: "},
      {[](SimulationState& s) { s.next_impulse = 4; }, "state.next_impulse: "},
  };
  for (const auto& [spoil, message] : bad) {
    SimulationState state = good;
    spoil(state);
    EXPECT_EQ(message_of([&] { sim.restore_state(state); }).rfind(message, 0), 0u) << message;
    EXPECT_TRUE(same_bits(observe(sim), before)) << message;  // nothing changed
  }
}

}  // namespace
}  // namespace oblique
