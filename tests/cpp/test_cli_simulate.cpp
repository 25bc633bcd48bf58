// `oblique simulate` as a user runs it: the contract's JSON keys, the CSV layout, --impacts-only, and exit
// status 2 with one line naming the field on bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_runner.hpp"

namespace oblique {
namespace {

using testing::line_count;
using testing::run_cli;

const std::string kBall = std::string(OBLIQUE_SOURCE_DIR) + "/web/scenarios/bouncing-ball.json";

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
