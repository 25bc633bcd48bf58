// `oblique simulate` as a user runs it: the contract's JSON keys, the CSV layout, --impacts-only, every
// record of the simulator's log in the output, and exit status 2 with one line naming the field on bad
// input.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_runner.hpp"
#include "oblique/simulator.hpp"

namespace oblique {
namespace {

using testing::line_count;
using testing::run_cli;

const std::string kBall = std::string(OBLIQUE_SOURCE_DIR) + "/web/scenarios/bouncing-ball.json";
const std::string kChamferedCorner = std::string(OBLIQUE_SOURCE_DIR) + "/web/scenarios/chamfered-corner.json";

TEST(CliSimulate, WritesSamplesEnergiesDriftAndTheImpactLog) {
  const auto run = run_cli("simulate " + kBall + " --duration 1 --sample 0.25");
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_TRUE(run.err.empty());
  const auto out = nlohmann::json::parse(run.out);
  for (const char* key : {"t", "q", "qd", "energy", "violation", "impacts"}) EXPECT_TRUE(out.contains(key)) << key;
  ASSERT_EQ(out["t"].size(), 5u);
  EXPECT_DOUBLE_EQ(out["t"][4].get<double>(), 1.0);
  EXPECT_EQ(out["q"][0].size(), 3u);
  for (const char* key : {"kinetic", "potential", "total"}) EXPECT_EQ(out["energy"][key].size(), 5u) << key;
  ASSERT_GE(out["impacts"].size(), 1u);
  const auto& impact = out["impacts"][0];
  for (const char* key : {"t", "contacts", "gamma", "W_loss", "qd_minus", "qd_plus", "i_lambda", "flags"}) {
    EXPECT_TRUE(impact.contains(key)) << key;
  }
  // The built-in ball drops 1 m: first impact at √(2h/g).
  EXPECT_NEAR(impact["t"].get<double>(), std::sqrt(2.0 / 9.81), 1e-9);
  EXPECT_EQ(impact["contacts"][0].get<int>(), 0);
}

TEST(CliSimulate, CsvHasOneRowPerSampleThenTheImpacts) {
  const auto run = run_cli("simulate " + kBall + " --duration 1 --sample 0.1 --format csv");
  ASSERT_EQ(run.status, 0) << run.err;
  std::istringstream lines(run.out);
  std::string header;
  std::getline(lines, header);
  EXPECT_EQ(header, "t,ball.x,ball.y,ball.theta,ball.vx,ball.vy,ball.omega,kinetic,potential,total,violation");
  int samples = 0;
  std::string line;
  while (std::getline(lines, line) && !line.empty()) ++samples;
  EXPECT_EQ(samples, 11);
  std::getline(lines, line);
  EXPECT_EQ(line.rfind("t,contacts,gamma,W_loss", 0), 0u) << line;
  int impacts = 0;
  while (std::getline(lines, line)) impacts += !line.empty();
  EXPECT_EQ(impacts, 1);  // at √(2/g) = 0.45 s; the next one is at 1.17 s
}

TEST(CliSimulate, ImpactsOnly) {
  const auto csv = run_cli("simulate " + kBall + " --duration=3 --format=csv --impacts-only");
  ASSERT_EQ(csv.status, 0) << csv.err;
  EXPECT_EQ(csv.out.rfind("t,contacts,gamma", 0), 0u);
  EXPECT_GT(line_count(csv.out), 3);
  const auto json = run_cli("simulate --impacts-only --duration 3 " + kBall);
  ASSERT_EQ(json.status, 0) << json.err;
  const auto out = nlohmann::json::parse(json.out);
  EXPECT_TRUE(out.contains("impacts"));
  EXPECT_FALSE(out.contains("q"));
  EXPECT_EQ(static_cast<int>(out["impacts"].size()), line_count(csv.out) - 1);
}

TEST(CliSimulate, ReadsStandardInputAndPrintsHelp) {
  const auto run = run_cli("simulate - --duration 0.5",
                           R"({"oblique":1,"bodies":[{"name":"b","shape":{"type":"disk","radius":0.1},"position":[0,1]}]})");
  ASSERT_EQ(run.status, 0) << run.err;
  const auto out = nlohmann::json::parse(run.out);
  EXPECT_NEAR(out["q"].back()[1].get<double>(), 1.0 - 0.5 * 9.81 * 0.25, 1e-12);
  const auto help = run_cli("simulate --help");
  EXPECT_EQ(help.status, 0);
  EXPECT_NE(help.out.find("usage: oblique simulate"), std::string::npos);
}

/// Impact times of the simulator's own log over `duration` seconds, advancing in one go.
std::vector<double> logged_times(const nlohmann::json& doc, double duration) {
  Simulator sim(parse_scenario(doc));
  while (sim.time() < duration) sim.advance(duration - sim.time());
  EXPECT_EQ(sim.dropped_impacts(), 0u);
  std::vector<double> times;
  for (const ImpactRecord& record : sim.impacts()) times.push_back(record.time);
  return times;
}

/// The first cell (t) of every row of the impacts table of a CSV run with --impacts-only.
std::vector<double> csv_times(const std::string& csv) {
  std::istringstream lines(csv);
  std::string line;
  std::getline(lines, line);  // header
  std::vector<double> times;
  while (std::getline(lines, line)) {
    if (!line.empty()) times.push_back(std::stod(line.substr(0, line.find(','))));
  }
  return times;
}

TEST(CliSimulate, EveryRecordOfTheLogReachesTheOutput) {
  // The chamfered corner (two walls and a floor struck at once) with every combination of e per contact:
  // an impact with a rank-deficient A and unequal e_i is followed by a plastic follow-up record at the same
  // instant, and both must be written (one advance call logs two records), in JSON and in CSV.
  std::ifstream file(kChamferedCorner);
  const nlohmann::json base = nlohmann::json::parse(file);
  const std::vector<double> values = {0.0, 0.3, 0.5, 0.7, 0.9, 1.0};
  int follow_ups = 0;
  for (double e0 : values) {
    for (double e1 : values) {
      for (double e2 : values) {
        nlohmann::json doc = base;
        doc["contacts"][0]["e"] = e0;
        doc["contacts"][1]["e"] = e1;
        doc["contacts"][2]["e"] = e2;
        const std::string label = "e = (" + std::to_string(e0) + ", " + std::to_string(e1) + ", " + std::to_string(e2) + ")";
        const std::vector<double> expected = logged_times(doc, 2.0);
        const auto json = run_cli("simulate - --duration 2 --impacts-only", doc.dump());
        ASSERT_EQ(json.status, 0) << label << json.err;
        const auto out = nlohmann::json::parse(json.out);
        std::vector<double> written;
        for (const auto& impact : out["impacts"]) written.push_back(impact["t"].get<double>());
        EXPECT_EQ(written, expected) << label;  // the same records, to the bit of their times
        // CSV where a call logs two records (the cases at risk; all of them would make the test slow).
        bool two_at_once = false;
        for (std::size_t k = 1; k < expected.size(); ++k) two_at_once = two_at_once || expected[k] == expected[k - 1];
        if (!two_at_once) continue;
        ++follow_ups;
        const auto csv = run_cli("simulate - --duration 2 --impacts-only --format csv", doc.dump());
        ASSERT_EQ(csv.status, 0) << label << csv.err;
        EXPECT_EQ(csv_times(csv.out), expected) << label;
      }
    }
  }
  EXPECT_GE(follow_ups, 20);  // the case the test is about does occur (32 of the 216)
}

TEST(CliSimulate, TheLargestImpactOfTheChamferedCornerIsWritten) {
  // Issue 13.2: with e = (0, 0.3, 0) the run logs 3 records in 2 s; the one once lost (t = 0.38237 s,
  // K⁻ = 7.04 J) is the largest of the run.
  std::ifstream file(kChamferedCorner);
  nlohmann::json doc = nlohmann::json::parse(file);
  doc["contacts"][0]["e"] = 0.0;
  doc["contacts"][1]["e"] = 0.3;
  doc["contacts"][2]["e"] = 0.0;
  const auto run = run_cli("simulate - --duration 2", doc.dump());
  ASSERT_EQ(run.status, 0) << run.err;
  const auto impacts = nlohmann::json::parse(run.out)["impacts"];
  ASSERT_EQ(impacts.size(), 3u);
  bool found = false;
  for (const auto& impact : impacts) {
    if (std::abs(impact["t"].get<double>() - 0.38237) < 1e-5) found = found || std::abs(impact["K_minus"].get<double>() - 7.04) < 0.01;
  }
  EXPECT_TRUE(found) << impacts.dump();
}

struct BadRun {
  std::string arguments;
  std::string input;
  std::string message_start;  // after "oblique simulate: "
};

TEST(CliSimulate, BadInputExitsTwoWithOneLineNamingTheField) {
  const std::vector<BadRun> cases = {
      {"simulate", "", "SCENARIO: missing"},
      {"simulate /nonexistent/scenario.json", "", "/nonexistent/scenario.json: cannot open file"},
      {"simulate " + kBall + " --duration abc", "", "--duration: must be a number of seconds"},
      {"simulate " + kBall + " --duration -1", "", "duration: must be a number of seconds in"},
      {"simulate " + kBall + " --sample 0", "", "sample: must be a positive number"},
      {"simulate " + kBall + " --format xml", "", "--format: must be json or csv"},
      {"simulate " + kBall + " --speed 2", "", "--speed: unknown option"},
      {"simulate -", "{not json", "scenario: malformed JSON"},
      {"simulate -", R"({"oblique":1,"bodies":[{"name":"b","mass":-1}]})", "/bodies/0/mass:"},
      {"simulate -",
       R"({"oblique":1,"bodies":[{"name":"b","position":[0,0.05]}],"planes":[{"name":"floor"}],)"
       R"("contacts":[{"type":"body_plane","body":"b","plane":"floor"}]})",
       "contacts[0]: penetrates"},
  };
  for (const BadRun& c : cases) {
    const auto run = run_cli(c.arguments, c.input);
    EXPECT_EQ(run.status, 2) << c.arguments << "\n" << run.err;
    EXPECT_TRUE(run.out.empty()) << c.arguments;
    EXPECT_EQ(line_count(run.err), 1) << run.err;
    EXPECT_EQ(run.err.rfind("oblique simulate: " + c.message_start, 0), 0u) << run.err;
  }
}

}  // namespace
}  // namespace oblique
