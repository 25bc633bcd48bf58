// `oblique check` as a user runs it: the summary of a valid scenario, one "<file>:<pointer>: <message>" line
// per issue on stderr with exit status 2, standard input as "-", usage errors.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_runner.hpp"
#include "json_files.hpp"

namespace oblique {
namespace {

using testing::kScenarioDir;
using testing::line_count;
using testing::run_cli;

std::string temp_file(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

TEST(CliCheck, AValidScenarioPrintsItsSummaryAndExitsZero) {
  const auto run = run_cli("check " + kScenarioDir + "bouncing-ball.json");
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.out, "ok: Bouncing ball (1 body, 1 plane, 0 joints, 1 contact)\n");
  EXPECT_TRUE(run.err.empty());
  const auto rope = run_cli("check " + kScenarioDir + "rope-pendulum.json");
  EXPECT_EQ(rope.out, "ok: Ball on a rope (1 body, 0 planes, 0 joints, 1 contact, 1 impulse)\n");
}

TEST(CliCheck, EveryBuiltInScenarioPasses) {
  const auto index = nlohmann::json::parse(testing::slurp(kScenarioDir + "index.json"));
  for (const auto& entry : index.at("scenarios")) {
    const auto run = run_cli("check " + kScenarioDir + entry.at("file").get<std::string>());
    EXPECT_EQ(run.status, 0) << entry.at("id") << ": " << run.err;
    EXPECT_EQ(run.out, "ok: " + entry.at("title").get<std::string>() + " (" + run.out.substr(run.out.find('(') + 1));
  }
}

TEST(CliCheck, ReadsStandardInputForDash) {
  const auto run = run_cli("check -", R"({"title":"From stdin","bodies":[{"name":"a"}]})");
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.out, "ok: From stdin (1 body, 0 planes, 0 joints, 0 contacts)\n");
  const auto untitled = run_cli("check -", R"({"bodies":[{"name":"a"},{"name":"b"}]})");
  EXPECT_EQ(untitled.out, "ok: (untitled) (2 bodies, 0 planes, 0 joints, 0 contacts)\n");
}

TEST(CliCheck, EveryIssueIsOneLineWithFileAndPointerAndExitTwo) {
  const std::string path = temp_file("oblique_check_bad.json", R"({
    "restitution": 1.5,
    "bodies": [{"name": "ball", "mass": -2, "positon": [0, 1]}],
    "joints": [{"body_a": "bal"}]
  })");
  const auto run = run_cli("check " + path);
  EXPECT_EQ(run.status, 2);
  EXPECT_TRUE(run.out.empty());
  EXPECT_EQ(run.err, path + ":/restitution: must be in [0, 1], got 1.5\n" +
                         path + ":/bodies/0/positon: unknown field \"positon\"; did you mean \"position\"?\n" +
                         path + ":/bodies/0/mass: must be positive, got -2\n" +
                         path + ":/joints/0/body_a: unknown body \"bal\"; did you mean \"ball\"?\n");
}

TEST(CliCheck, StdinIssuesAreNamedStdinAndDocumentIssuesHaveNoPointer) {
  const auto run = run_cli("check -", R"({"bodies":[{"name":"a","angle":"NaN"}]})");
  EXPECT_EQ(run.status, 2);
  EXPECT_EQ(run.err, "<stdin>:/bodies/0/angle: must be a finite number, got NaN\n");
  const auto array = run_cli("check -", "[1, 2]");
  EXPECT_EQ(array.status, 2);
  EXPECT_EQ(array.err, "<stdin>: a scenario must be a JSON object, got an array\n");
  const auto future = run_cli("check -", R"({"oblique": 3, "bodies": []})");
  EXPECT_EQ(future.status, 2);
  EXPECT_EQ(future.err,
            "<stdin>:/oblique: this document is format version 3; this build of Oblique reads version 1 "
            "(use a newer Oblique)\n");
}

TEST(CliCheck, MalformedJsonAndMissingFilesAreOneLine) {
  // Where the parser stopped, by its JSON pointer: the first item of "bodies", the number of "mass".
  const auto malformed = run_cli("check -", R"({"bodies": [)");
  EXPECT_EQ(malformed.status, 2);
  EXPECT_EQ(malformed.err.rfind("<stdin>:/bodies/0: malformed JSON", 0), 0u) << malformed.err;
  EXPECT_EQ(line_count(malformed.err), 1);
  const auto overflow = run_cli("check -", R"({"bodies": [{"name": "a", "mass": 1e999}]})");
  EXPECT_EQ(overflow.status, 2);
  EXPECT_EQ(overflow.err.rfind("<stdin>:/bodies/0/mass: malformed JSON: number overflow", 0), 0u) << overflow.err;
  const auto garbage = run_cli("check -", R"({"bodies": []} x)");
  EXPECT_EQ(garbage.err.rfind("<stdin>: malformed JSON", 0), 0u) << garbage.err;
  const auto missing = run_cli("check /nonexistent/scenario.json");
  EXPECT_EQ(missing.status, 2);
  EXPECT_EQ(missing.err, "/nonexistent/scenario.json: cannot open file\n");
}

TEST(CliCheck, ManyIssuesAreCappedWithANote) {
  std::string text = R"({"bodies":[{"name":"a"}])";
  for (int i = 0; i < 500; ++i) text += ",\"junk" + std::to_string(i) + "\":0";
  const auto run = run_cli("check -", text + "}");
  EXPECT_EQ(run.status, 2);
  EXPECT_EQ(line_count(run.err), 101);
  EXPECT_NE(run.err.find("<stdin>: more issues not listed"), std::string::npos);
}

TEST(CliCheck, AnObjectWithTooManyKeysIsRefusedQuickly) {
  std::string text = R"({"bodies":[{"name":"a"}])";
  for (int i = 0; i < 200000; ++i) text += ",\"k" + std::to_string(i) + "\":0";
  const auto run = run_cli("check -", text + "}");
  EXPECT_EQ(run.status, 2);
  EXPECT_EQ(run.err, "<stdin>: an object has more than 10000 keys\n");
}

TEST(CliCheck, HelpAndUsageErrors) {
  const auto help = run_cli("check --help");
  EXPECT_EQ(help.status, 0);
  EXPECT_EQ(help.out.rfind("usage: oblique check FILE", 0), 0u) << help.out;
  EXPECT_NE(help.out.find("<file>:<pointer>: <message>"), std::string::npos);
  const auto none = run_cli("check");
  EXPECT_EQ(none.status, 2);
  EXPECT_NE(none.err.find("expected a FILE"), std::string::npos) << none.err;
  const auto option = run_cli("check --strict x.json");
  EXPECT_EQ(option.status, 2);
  EXPECT_EQ(option.err, "oblique check: unknown option --strict (see oblique check --help)\n");
  const auto two = run_cli("check a.json b.json");
  EXPECT_EQ(two.status, 2);
  EXPECT_EQ(line_count(two.err), 1);
  // The command is listed in the top-level usage.
  EXPECT_NE(run_cli("--help").out.find("check FILE"), std::string::npos);
}

}  // namespace
}  // namespace oblique
