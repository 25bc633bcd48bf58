// The CSV of a sampled run (simulation_csv.hpp) over a run taken a piece at a time (SampledRun): the
// pieces and the work budget change nothing written; every cell is the number of simulate_to_json's
// document; the impacts table follows the samples; a stop between advance calls leaves the samples so
// far; and the numbers obey the laws of the run they record (momentum kept through a two-ball impact,
// Newton's law with e).
#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "oblique/simulation/sampled_run.hpp"
#include "oblique/io/simulation_csv.hpp"
#include "oblique/io/simulation_json.hpp"
#include "oblique/simulation/simulator.hpp"
#include "scenario_builders.hpp"

namespace oblique {
namespace {

/// A CsvOutput into a string, the impact rows held aside as the CLI's temporary file holds them.
struct StringOutput : CsvOutput {
  std::string text, held;
  void write(const std::string& t) override { text += t; }
  void hold(const std::string& row) override { held += row; }
  void write_held() override {
    text += held;
    held.clear();
  }
};

/// The CSV of `scenario` run for `duration` s, sampled every `sample` s, with the simulator's work budget
/// `budget` (0: its default), taken through SampledRun::step one piece at a time.
std::string csv_in_pieces(const Scenario& scenario, double duration, double sample, double budget, long* pieces = nullptr) {
  Simulator sim(scenario);
  if (budget > 0) sim.set_work_budget(budget);
  StringOutput out;
  SimulationCsv csv(scenario, false, out);
  SampledRun run(sim, duration, sample);
  long steps = 0;
  while (!run.done()) {
    run.step(csv);
    ++steps;
  }
  csv.finish();
  if (pieces) *pieces = steps;
  EXPECT_THROW(run.step(csv), std::logic_error);
  return out.text;
}

/// The CSV of the same run through run_sampled at the default budget.
std::string csv_at_once(const Scenario& scenario, double duration, double sample, bool impacts_only = false) {
  Simulator sim(scenario);
  StringOutput out;
  SimulationCsv csv(scenario, impacts_only, out);
  EXPECT_TRUE(run_sampled(sim, duration, sample, csv).complete);
  csv.finish();
  return out.text;
}

/// Rows of cells of one table: the lines from `at` up to a blank one (or the end); `at` moves past them.
std::vector<std::vector<std::string>> table(const std::string& text, std::size_t& at) {
  std::vector<std::vector<std::string>> rows;
  while (at < text.size()) {
    const std::size_t end = text.find('\n', at);
    const std::string line = text.substr(at, end - at);
    at = end + 1;
    if (line.empty()) break;
    std::vector<std::string> cells;
    std::stringstream stream(line);
    std::string cell;
    while (std::getline(stream, cell, ',')) cells.push_back(cell);
    if (!line.empty() && line.back() == ',') cells.emplace_back();
    rows.push_back(cells);
  }
  return rows;
}

double number(const std::string& cell) { return std::strtod(cell.c_str(), nullptr); }

TEST(SimulationCsv, PiecesAndWorkBudgetChangeNothingWritten) {
  const Scenario ball = testing::bouncing_ball(1.0, 0.8);
  const std::string whole = csv_at_once(ball, 2.0, 0.05);
  long coarse = 0;
  long fine = 0;
  EXPECT_EQ(csv_in_pieces(ball, 2.0, 0.05, 0.0, &coarse), whole);
  // A tiny budget: many calls stop at it, short of their target, each making a little progress.
  EXPECT_EQ(csv_in_pieces(ball, 2.0, 0.05, 2e3, &fine), whole);
  EXPECT_GT(fine, coarse);
  EXPECT_GE(coarse, 2.0 / 0.05 + 1);  // one piece at least per sample
}

TEST(SimulationCsv, EveryCellIsTheNumberOfTheJsonDocument) {
  const Scenario ball = testing::bouncing_ball(1.0, 0.8);
  const std::string text = csv_at_once(ball, 2.0, 0.1);
  const Json doc = simulate_to_json(ball, 2.0, 0.1);
  std::size_t at = 0;
  const auto samples = table(text, at);
  const auto impacts = table(text, at);
  ASSERT_EQ(at, text.size());
  ASSERT_EQ(samples.size(), doc["t"].size() + 1);
  ASSERT_EQ(impacts.size(), doc["impacts"].size() + 1);
  EXPECT_EQ(samples[0].size(), 11u);  // t, x/y/θ, vx/vy/ω, kinetic, potential, total, violation
  for (std::size_t k = 0; k < doc["t"].size(); ++k) {
    const auto& row = samples[k + 1];
    ASSERT_EQ(row.size(), 11u) << k;
    EXPECT_EQ(number(row[0]), doc["t"][k].get<double>());
    for (int c = 0; c < 3; ++c) {
      EXPECT_EQ(number(row[1 + c]), doc["q"][k][c].get<double>());
      EXPECT_EQ(number(row[4 + c]), doc["qd"][k][c].get<double>());
    }
    EXPECT_EQ(number(row[7]), doc["energy"]["kinetic"][k].get<double>());
    EXPECT_EQ(number(row[9]), doc["energy"]["total"][k].get<double>());
  }
  for (std::size_t k = 0; k < doc["impacts"].size(); ++k) {
    const auto& row = impacts[k + 1];
    const Json& impact = doc["impacts"][k];
    EXPECT_EQ(number(row[0]), impact["t"].get<double>());
    EXPECT_EQ(number(row[2]), impact["gamma"].get<double>());
    EXPECT_EQ(number(row[3]), impact["W_loss"].get<double>());
  }
}

TEST(SimulationCsv, RecordsMomentumAndNewtonsLawOfATwoBallImpact) {
  // Masses 1 and 2 approaching at 3 and −1 m/s, e = 0.5: closed form q̇⁺ = (−1, 1) along x.
  const Scenario balls = testing::two_balls(3.0, -1.0, 0.5);
  const std::string text = csv_at_once(balls, 0.5, 0.05);
  std::size_t at = 0;
  table(text, at);
  const auto impacts = table(text, at);
  ASSERT_EQ(impacts.size(), 2u);
  const auto& head = impacts[0];
  const auto& row = impacts[1];
  auto cell = [&](const std::string& name) {
    for (std::size_t c = 0; c < head.size(); ++c) {
      if (head[c] == name) return number(row[c]);
    }
    ADD_FAILURE() << "no column " << name;
    return 0.0;
  };
  EXPECT_NEAR(cell("qd_minus[0]") + 2 * cell("qd_minus[3]"), cell("qd_plus[0]") + 2 * cell("qd_plus[3]"), 1e-12);
  EXPECT_NEAR(cell("qd_plus[3]") - cell("qd_plus[0]"), -0.5 * (cell("qd_minus[3]") - cell("qd_minus[0]")), 1e-12);
  EXPECT_NEAR(cell("qd_plus[0]"), -1.0, 1e-12);
  EXPECT_NEAR(cell("qd_plus[3]"), 1.0, 1e-12);
  EXPECT_EQ(row.back(), "false");  // no energy gain
}

TEST(SimulationCsv, ImpactsOnlyIsTheImpactsTableOfTheFullDocument) {
  const Scenario ball = testing::bouncing_ball(1.0, 0.8);
  const std::string full = csv_at_once(ball, 3.0, 0.01);
  const std::string only = csv_at_once(ball, 3.0, 0.01, true);
  EXPECT_EQ(full.substr(full.find("\n\n") + 2), only);
  EXPECT_EQ(only.rfind("t,contacts,gamma,W_loss,K_minus,K_plus,qd_minus[0],", 0), 0u);
}

TEST(SimulationCsv, AStopBetweenCallsLeavesTheSamplesSoFar) {
  const Scenario ball = testing::bouncing_ball(1.0, 0.8);
  struct Stopping : SampleSink {
    int samples = 0, asked = 0;
    double last = -1.0;
    void sample(const Simulator& sim) override {
      ++samples;
      last = sim.time();
    }
    void impact(const ImpactRecord&) override {}
    bool stop() override { return ++asked > 25; }
  } sink;
  Simulator sim(ball);
  const SampledRunEnd end = run_sampled(sim, 2.0, 0.05, sink);
  EXPECT_FALSE(end.complete);
  EXPECT_EQ(end.time, sink.last);
  EXPECT_EQ(sink.asked, 26);
  EXPECT_GE(sink.samples, 2);
  EXPECT_LE(sink.samples, 26);  // the initial one, then at most one per advance call
}

TEST(SimulationCsv, ChecksTheSamplingWhereTheRunIsMade) {
  const Scenario ball = testing::bouncing_ball(1.0, 0.8);
  Simulator sim(ball);
  EXPECT_THROW(SampledRun(sim, 4000.0, 0.01), std::invalid_argument);
  EXPECT_THROW(SampledRun(sim, 1.0, 0.0), std::invalid_argument);
  // A duration shorter than one sample: t = 0 and the duration.
  StringOutput out;
  SimulationCsv csv(ball, false, out);
  SampledRun run(sim, 0.004, 0.01);
  while (!run.done()) run.step(csv);
  EXPECT_EQ(run.samples(), 2);
  EXPECT_EQ(run.sample_time(), 0.004);
}

}  // namespace
}  // namespace oblique
