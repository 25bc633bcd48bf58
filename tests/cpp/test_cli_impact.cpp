// `oblique impact` as a user runs it: the contract's output keys, and exit status 2 with one line naming
// the field for each kind of bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_runner.hpp"

namespace oblique {
namespace {

using testing::run_cli;

TEST(CliImpact, SolvesTheTwoParticleCaseWithEveryContractKey) {
  const auto run = run_cli("impact", R"({"M":[[1,0],[0,2]],"A":[[-1,1]],"qd":[3,-1],"e":0.8})");
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_TRUE(run.err.empty());
  const auto out = nlohmann::json::parse(run.out);
  for (const char* key : {"n", "m", "rank", "nu", "cond_Mc", "P", "Mc", "S", "R", "qd_plus", "i_f", "i_lambda",
                          "K_minus", "K_plus", "W_loss", "gamma", "qmi_max_eig", "energy_consistent", "flags",
                          "identities"}) {
    EXPECT_TRUE(out.contains(key)) << key;
  }
  EXPECT_NEAR(out["qd_plus"][0].get<double>(), -1.8, 1e-12);
  EXPECT_NEAR(out["qd_plus"][1].get<double>(), 1.4, 1e-12);
  EXPECT_NEAR(out["gamma"].get<double>(), 0.650909, 1e-6);
  EXPECT_EQ(out["S"].size(), 2u);
  EXPECT_EQ(out["S"][0].size(), 2u);
  // W_loss = K⁺ − K⁻ in the document too.
  EXPECT_NEAR(out["W_loss"].get<double>(), out["K_plus"].get<double>() - out["K_minus"].get<double>(), 1e-12);
}

TEST(CliImpact, ReadsAFileAndAcceptsPerRowRestitution) {
  const std::string path = ::testing::TempDir() + "oblique_impact_input.json";
  std::ofstream(path) << R"({"M":[[1,0,0],[0,1,0],[0,0,1]],"A":[[-1,1,0],[0,-1,1]],"qd":[1,0,0],"E":[0.9,0.9]})";
  const auto run = run_cli("impact " + path);
  ASSERT_EQ(run.status, 0) << run.err;
  const auto out = nlohmann::json::parse(run.out);
  EXPECT_NEAR(out["qd_plus"][0].get<double>(), -0.8 / 3, 1e-12);
  EXPECT_NEAR(out["gamma"].get<double>(), 0.873333, 1e-6);
}

TEST(CliImpact, RankDeficientRodWithNoRows) {
  // A = [] is a free body: nothing changes, S = 0.
  const auto run = run_cli("impact", R"({"M":[[2,0],[0,3]],"A":[],"qd":[1,-2],"e":0.5})");
  ASSERT_EQ(run.status, 0) << run.err;
  const auto out = nlohmann::json::parse(run.out);
  EXPECT_EQ(out["m"].get<int>(), 0);
  EXPECT_NEAR(out["qd_plus"][1].get<double>(), -2.0, 1e-12);
  EXPECT_NEAR(out["gamma"].get<double>(), 1.0, 1e-12);
}

struct BadInput {
  const char* input;
  const char* message_start;  // after "oblique impact: "
};

TEST(CliImpact, BadInputExitsTwoWithOneLineNamingTheField) {
  const BadInput cases[] = {
      {R"({"M":[[1,0],[0,2]],"A":[[-1,1]],"qd":[3,-1]})", "e: missing"},
      {R"({"M":[[1,0],[0,2]],"A":[[-1,1]],"qd":[3,-1],"e":1.5})", "e: must be in [0, 1], got 1.5"},
      {R"({"M":[[1,0],[0,2]],"A":[[-1,1]],"qd":[3,-1],"e":-0.2})", "e: must be in [0, 1]"},
      {R"({"M":[[1,0],[0,2]],"A":[[-1,1]],"qd":[3,-1],"E":[0.5,2]})", "E: must have one coefficient per row"},
      {R"({"M":[[1,0],[0,2]],"A":[[-1,1]],"qd":[3,-1],"E":[1.1]})", "E[0]: must be in [0, 1]"},
      {R"({"M":[[1,0],[0,2]],"A":[[-1,1]],"qd":[3,-1],"e":0.5,"E":[0.5]})", "E: give either e or E"},
      {R"({"M":[[1,0.3],[0,2]],"A":[[-1,1]],"qd":[3,-1],"e":0.5})", "M: must be symmetric"},
      {R"({"M":[[1,2],[2,1]],"A":[[-1,1]],"qd":[3,-1],"e":0.5})", "M: must be positive definite"},
      {R"({"M":[[1,0],[0]],"A":[[-1,1]],"qd":[3,-1],"e":0.5})", "M[1]: has 1 entries but row 0 has 2"},
      {R"({"M":[[1,0],[0,2]],"A":[[-1,1,0]],"qd":[3,-1],"e":0.5})", "A: every row must have 2 entries"},
      {R"({"M":[[1,0],[0,2]],"A":[[-1,1]],"qd":[3,-1,0],"e":0.5})", "qd: must have 2 entries"},
      {R"({"M":[[1,0],[0,2]],"A":[[-1,1]],"qd":[3,"NaN"],"e":0.5})", "qd[1]: must be a finite number, got NaN"},
      {R"({"M":[[1,0],[0,2]],"A":[[-1,"x"]],"qd":[3,-1],"e":0.5})", "A[0][1]: must be a number, got a string"},
      {R"({"M":[[1,0],[0,2]],"A":[[-1,1]],"qd":[3,-1],"e":0.5,"nu":-2})", "nu: must be a finite positive number"},
      {R"({"M":[[1,0],[0,2]],"A":[[-1,1]],"qd":[3,-1],"e":0.5,"iu":[1]})", "iu: must have 2 entries"},
      {R"({"M":[[1,0],[0,2]],"A":[[-1,1]],"qd":[3,-1],"e":0.5,"qdot":[1]})", "qdot: unknown field"},
      {R"({"M":[[1,0],[0,2]],"A":[[-1,1]],"qd":[3,-1],"e":0.5,"unilatral":[true]})",
       "unilatral: unknown field \"unilatral\"; did you mean \"unilateral\"?"},
      {R"({"M":[[1e308,0],[0,1e308]],"A":[[-1,1]],"qd":[3,-1],"e":0.8})", "M: K⁻ = ½q̇⁻ᵀMq̇⁻ overflows"},
      {R"({"M":[[1,0],[0,2]],"A":[[-1,1]],"qd":[3e155,-1e155],"e":0.8})", "qd: K⁻ = ½q̇⁻ᵀMq̇⁻ overflows"},
      // Found by fuzzing (fuzz/regressions/impact/): an empty i_u, and each input of extreme size named.
      {R"({"M":[[0.5,0],[0,1]],"A":[],"qd":[3,2],"e":0.5,"iu":[]})", "iu: must have 2 entries (the size of M), got 0"},
      {R"({"M":[[8,0],[0,1]],"A":[],"qd":[1,2],"e":0.5,"iu":[1e300,-2]})", "iu: q̇⁺ and K⁺ overflows"},
      {R"({"M":[[1e-8,0],[0,1e8]],"A":[[0,-1.243]],"qd":[500,-0.001],"e":0,"nu":5e-324})",
       "nu: ν and cond(Mc) overflows double precision (ν = 5e-324"},
      {R"({"M":[[1.7e23,0],[0,25e-324]],"A":[],"qd":[4,-1],"e":0.8})",
       "M: ν and cond(Mc) overflows double precision (|M| entries from 2.5e-323 to 1.7e+23)"},
      {R"({"M":[[1,1,-0.565],[-1,1e300,0],[0,0,8]],"A":[[-11,1.378,1.378]],"qd":[5e-324,1,6],"e":1,"nu":10})",
       "M: cond(Mc) = "},
      {R"({"M":[[1,0,0],[0,1,0],[0,0,0.0833]],"A":[[0,1,-0.5],[0,0.952,0.5]],"qd":[0.3,-2,1e300],"E":[0.2,0.9]})",
       "qd: K⁻ = ½q̇⁻ᵀMq̇⁻ overflows"},
      {R"({"M":[[1,0],[0,2]],"A":[[-1,1]],"qd":[3,-1],"e":0.5)", "input: malformed JSON"},
      {R"([1,2,3])", "input: must be a JSON object"},
      {"", "input: malformed JSON"},
  };
  for (const BadInput& bad : cases) {
    const auto run = run_cli("impact", bad.input);
    EXPECT_EQ(run.status, 2) << bad.input;
    EXPECT_TRUE(run.out.empty()) << bad.input;
    EXPECT_EQ(testing::line_count(run.err), 1) << run.err;
    const std::string expected = std::string("oblique impact: ") + bad.message_start;
    EXPECT_EQ(run.err.rfind(expected, 0), 0u) << "got: " << run.err << "expected start: " << expected;
  }
}

TEST(CliImpact, TheSizesOfMAndAAreBoundedBeforeAnythingIsComputed) {
  // Issue #13.5: 4000 rows of A took 104 s and 843 MB (the m×m Q and its eigenvalues).
  const auto document = [](int n, int m) {
    nlohmann::json doc;
    doc["M"] = nlohmann::json::array();
    for (int i = 0; i < n; ++i) {
      nlohmann::json row = nlohmann::json::array();
      for (int j = 0; j < n; ++j) row.push_back(i == j ? 1.0 : 0.0);
      doc["M"].push_back(row);
    }
    doc["A"] = nlohmann::json::array();
    for (int k = 0; k < m; ++k) {
      nlohmann::json row = nlohmann::json::array();
      for (int j = 0; j < n; ++j) row.push_back(j == k % n ? 1.0 : 0.5);
      doc["A"].push_back(row);
    }
    doc["qd"] = std::vector<double>(static_cast<std::size_t>(n), -1.0);
    doc["e"] = 0.5;
    return doc.dump();
  };
  const auto rows = run_cli("impact", document(1, 4000));
  EXPECT_EQ(rows.status, 2);
  EXPECT_EQ(rows.err, "oblique impact: A: has 4000 rows; at most 512 (the cost grows as their cube)\n");
  const auto coordinates = run_cli("impact", document(300, 1));
  EXPECT_EQ(coordinates.status, 2);
  EXPECT_EQ(coordinates.err, "oblique impact: M: has 300 rows; at most 256 (coordinates; the cost grows as their cube)\n");
  // At the bound of rows: solved.
  const auto at_bound = run_cli("impact", document(4, 512));
  EXPECT_EQ(at_bound.status, 0) << at_bound.err;
  EXPECT_EQ(nlohmann::json::parse(at_bound.out)["m"], 512);
}

TEST(CliImpact, RowsOfExtremeLengthAreStillConstraintsAndTheScalingIsReported) {
  // The two particles with A scaled by 1e-300, by 1e300, and with a second row 1e-30 times the first: the
  // same constraints, so the same q̇⁺ = (−1.8, 1.4), momentum kept, and `row_scale` says what was done.
  for (double scale : {1e-300, 1e300}) {
    const nlohmann::json input = {{"M", {{1, 0}, {0, 2}}}, {"A", {{-scale, scale}}}, {"qd", {3, -1}}, {"e", 0.8}};
    const auto run = run_cli("impact", input.dump());
    ASSERT_EQ(run.status, 0) << run.err;
    const auto out = nlohmann::json::parse(run.out);
    EXPECT_EQ(out["rank"], 1) << scale;
    EXPECT_NEAR(out["qd_plus"][0].get<double>(), -1.8, 1e-12) << scale;
    EXPECT_NEAR(out["qd_plus"][1].get<double>(), 1.4, 1e-12) << scale;
    EXPECT_NEAR(out["gamma"].get<double>(), 0.650909, 1e-6) << scale;
    ASSERT_TRUE(out.contains("row_scale")) << scale;
    // The row was multiplied by a power of two to a length in [½, 1); φ̇⁻ = −4 times that factor.
    const double factor = out["row_scale"][0].get<double>();
    EXPECT_EQ(std::exp2(std::round(std::log2(factor))), factor);
    const double length = factor * scale * std::sqrt(2.0);
    EXPECT_GE(length, 0.5);
    EXPECT_LT(length, 1.0);
    EXPECT_NEAR(out["phid_minus"][0].get<double>(), -4.0 * factor * scale, 1e-12);
  }
  const auto mixed = run_cli("impact", R"({"M":[[1,0,0],[0,2,0],[0,0,1]],"A":[[-1,1,0],[0,-1e-30,1e-30]],)"
                                       R"("qd":[3,-1,-2],"e":0.5})");
  ASSERT_EQ(mixed.status, 0) << mixed.err;
  const auto out = nlohmann::json::parse(mixed.out);
  EXPECT_EQ(out["rank"], 2);  // the short row is not dropped as round-off of the long one
  EXPECT_EQ(out["row_scale"][0], 1.0);
  EXPECT_GT(out["row_scale"][1].get<double>(), 1e29);
  // Ordinary rows are left alone: no row_scale, bit-identical results.
  const auto plain = run_cli("impact", R"({"M":[[1,0],[0,2]],"A":[[-1,1]],"qd":[3,-1],"e":0.8})");
  EXPECT_FALSE(nlohmann::json::parse(plain.out).contains("row_scale"));
}

TEST(CliImpact, HelpAndUsageErrors) {
  const auto help = run_cli("impact --help");
  EXPECT_EQ(help.status, 0);
  EXPECT_NE(help.out.find("usage: oblique impact"), std::string::npos);
  const auto missing = run_cli("impact /nonexistent/file.json");
  EXPECT_EQ(missing.status, 2);
  EXPECT_EQ(missing.err, "oblique impact: /nonexistent/file.json: cannot open file\n");
  EXPECT_EQ(run_cli("impact --bogus").status, 2);
  EXPECT_EQ(run_cli("frobnicate").status, 2);
  EXPECT_EQ(run_cli("--help").status, 0);
}

}  // namespace
}  // namespace oblique
