// `oblique impact` with friction (frictional_impact_io.hpp): the friction outputs, μ = 0 and "stick" against
// the frictionless document, the output keys unchanged without `mu`, pairs on one row scale, and bad input
// named by field.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_runner.hpp"
#include "error_message.hpp"
#include "oblique/impact_io.hpp"

namespace oblique {
namespace {

using nlohmann::json;

/// The rod of test_frictional_impact.cpp (m = 2, h = ½, tilted 30°), its end sliding left into the floor.
const char* const kRod =
    R"("M":[[2,0,0],[0,2,0],[0,0,0.16666666666666666]],"A":[[0,1,-0.4330127018922193],[1,0,0.25]],)"
    R"("qd":[-1.5,-2,1])";

json impact(const std::string& fields) { return json::parse(analyze_impact_json(Json::parse("{" + fields + "}")).dump()); }

TEST(CliFriction, ReturnsTheFrictionOutputsOfEachPair) {
  const auto run = testing::run_cli("impact", std::string("{") + kRod + R"(,"e":0.6,"mu":0.5,"pairs":[[0,1]]})");
  ASSERT_EQ(run.status, 0) << run.err;
  const json out = json::parse(run.out);
  for (const char* key : {"qd_plus", "i_f", "i_lambda", "K_minus", "K_plus", "W_loss", "W_constraint", "gamma", "flags",
                          "S", "R", "friction", "identities"}) {
    EXPECT_TRUE(out.contains(key)) << key;
  }
  const json& pair = out["friction"]["pairs"][0];
  for (const char* key : {"normal_row", "tangent_row", "mu", "mode", "direction", "i_n", "i_t", "slip_minus", "slip_plus",
                          "mu_critical", "discriminator", "cone_angle", "sticking_cone_angle", "sticking_impulse",
                          "slip_stopped", "slip_reversed", "W_normal", "W_tangential"}) {
    EXPECT_TRUE(pair.contains(key)) << key;
  }
  // Below μ_crit ≈ 1.081 the end slips on: friction μ i_n against the slip to the left.
  EXPECT_EQ(pair["mode"], "slip");
  EXPECT_EQ(pair["direction"], -1);
  EXPECT_NEAR(pair["mu_critical"].get<double>(), 1.0810, 1e-4);
  EXPECT_NEAR(pair["i_t"].get<double>(), 0.5 * pair["i_n"].get<double>(), 1e-12);
  EXPECT_LT(pair["discriminator"].get<double>(), 0.0);
  EXPECT_EQ(out["friction"]["modes_consistent"], true);
  EXPECT_NEAR(out["W_loss"].get<double>(), out["K_plus"].get<double>() - out["K_minus"].get<double>(), 1e-12);
  for (const auto& [name, value] : out["identities"].items()) EXPECT_LT(value.get<double>(), 1e-9) << name;
  // Above μ_crit it sticks: v_t⁺ = 0, and "stick" is μ = +∞.
  for (const char* mu : {"2", "\"stick\"", "[\"Infinity\"]"}) {
    const json stuck = impact(std::string(kRod) + R"(,"e":0.6,"pairs":[[0,1]],"mu":)" + mu);
    EXPECT_EQ(stuck["friction"]["pairs"][0]["mode"], "stick") << mu;
    EXPECT_NEAR(stuck["friction"]["pairs"][0]["slip_plus"].get<double>(), 0.0, 1e-12);
  }
  EXPECT_EQ(impact(std::string(kRod) + R"(,"e":0.6,"pairs":[[0,1]],"mu":"stick")")["friction"]["pairs"][0]["mu"], "stick");
  EXPECT_TRUE(impact(std::string(kRod) + R"(,"e":0.6,"pairs":[[0,1]],"mu":"stick")")["friction"]["pairs"][0]["discriminator"].is_null());
}

TEST(CliFriction, WithoutMuTheOutputKeysAreUnchanged) {
  const json out = impact(R"("M":[[1,0],[0,2]],"A":[[-1,1]],"qd":[3,-1],"e":0.8)");
  std::vector<std::string> keys;
  for (const auto& [key, value] : out.items()) keys.push_back(key);
  const std::vector<std::string> expected = {
      "n",          "m",         "rank",       "nu",        "nu_range", "nu_optimal",  "cond_Mc",  "P",
      "Mc",         "S",         "R",          "E_tilde",   "Q",        "restitution", "qd_minus", "qd_plus",
      "i_f",        "i_lambda",  "phid_minus", "phid_plus", "K_minus",  "K_plus",      "W_loss",   "W_constraint",
      "gamma",      "qmi_max_eig", "energy_consistent", "newton_residual", "flags", "velocity_plane", "identities"};
  EXPECT_EQ(keys, expected);
}

TEST(CliFriction, MuZeroIsTheFrictionlessDocumentAndStickIsTodaysStickRows) {
  // Two contact pairs behind a joint row: μ = 0 drops their tangential rows, "stick" keeps them plastic.
  const std::string base =
      R"("M":[[2,0.3,0,0],[0.3,1,0.1,0],[0,0.1,1.5,0.2],[0,0,0.2,0.7]],"qd":[0.5,-1,0.3,-0.8],"iu":[0.1,0,0,-0.2])";
  const std::string a = R"("A":[[0.2,0.1,0,0.4],[0,1,0,0.3],[1,0,0.2,0],[0.1,0,1,0.5],[0,0.3,0.1,1]])";
  const json frictionless = impact(base + "," + a + R"(,"E":[0,0.5,0,0.7,0],"mu":0,"pairs":[[1,2],[3,4]])");
  const json reference = impact(base + R"(,"A":[[0.2,0.1,0,0.4],[0,1,0,0.3],[0.1,0,1,0.5]],"E":[0,0.5,0.7])");
  EXPECT_EQ(frictionless["qd_plus"], reference["qd_plus"]);
  EXPECT_EQ(frictionless["i_f"], reference["i_f"]);
  EXPECT_EQ(frictionless["W_loss"], reference["W_loss"]);
  const json stuck = impact(base + "," + a + R"(,"E":[0,0.5,0,0.7,0],"mu":"stick","pairs":[[1,2],[3,4]])");
  const json today = impact(base + "," + a + R"(,"E":[0,0.5,0,0.7,0],"unilateral":[true,true,false,true,false])");
  EXPECT_EQ(stuck["qd_plus"], today["qd_plus"]);
  EXPECT_EQ(stuck["i_lambda"], today["i_lambda"]);
  EXPECT_EQ(stuck["W_loss"], today["W_loss"]);
  EXPECT_EQ(stuck["friction"]["sticking"]["qmi_max_eig"], today["qmi_max_eig"]);
}

TEST(CliFriction, BothRowsOfAPairKeepOneScale) {
  // A pair whose normal row is 10⁻⁸ long: equilibrate_rows would rescale it alone; the pair is rescaled as
  // one (by the factor of its longer row), so the cone |i_t| ≤ μ i_n means what it meant.
  const json out = impact(R"("M":[[1,0],[0,1]],"A":[[0,1e-8],[1e-6,0]],"qd":[1e-6,-1e-8],"e":0,"mu":0.25,"pairs":[[0,1]])");
  ASSERT_TRUE(out.contains("row_scale"));
  EXPECT_EQ(out["row_scale"][0], out["row_scale"][1]);
  const json& pair = out["friction"]["pairs"][0];
  EXPECT_EQ(pair["mode"], "slip");
  EXPECT_NEAR(pair["i_t"].get<double>(), -0.25 * pair["i_n"].get<double>(), 1e-12 * std::abs(pair["i_n"].get<double>()));
}

TEST(CliFriction, BadInputIsNamedByField) {
  const std::string rod = std::string(kRod) + R"(,"e":0.6)";
  const std::pair<std::string, std::string> cases[] = {
      {R"(,"mu":0.5)", "pairs: missing (with mu: the [normal row, tangential row] of each frictional contact point)"},
      {R"(,"pairs":[[0,1]])", "mu: missing (with pairs: Coulomb's coefficient, a number ≥ 0 or one per pair)"},
      {R"(,"mu":-0.5,"pairs":[[0,1]])", "mu: must be ≥ 0, got -0.5"},
      {R"(,"mu":"lots","pairs":[[0,1]])", "mu: must be a number, got a string (a coefficient ≥ 0, or \"stick\" for a point that never slips)"},
      {R"(,"mu":"NaN","pairs":[[0,1]])", "mu: must be a finite number, got NaN (a coefficient ≥ 0, or \"stick\" for a point that never slips)"},
      {R"(,"mu":[0.5,0.2],"pairs":[[0,1]])", "mu: has 2 entries; one per pair (1)"},
      {R"(,"mu":[true],"pairs":[[0,1]])", "mu[0]: must be a number, got a boolean (a coefficient ≥ 0, or \"stick\" for a point that never slips)"},
      {R"(,"mu":0.5,"pairs":{"0":1})", "pairs: must be an array of [normal row, tangential row] pairs, got an object"},
      {R"(,"mu":0.5,"pairs":[[0,1,2]])", "pairs[0]: must be [normal row, tangential row], two rows of A, got an array of 3 entries"},
      {R"(,"mu":0.5,"pairs":[[0,1.5]])", "pairs[0][1]: must be a whole number (a row of A), got 1.5"},
      {R"(,"mu":0.5,"pairs":[[0,"1"]])", "pairs[0][1]: must be a number, got a string"},
      {R"(,"mu":0.5,"pairs":[[0,3]])", "pairs[0]: its tangential row 3 is not a row of A (0..1)"},
      {R"(,"mu":0.5,"pairs":[[0,1],[1,0],[0,1]])", "pairs: has 3 pairs; A has 2 rows"},
      {R"(,"mu":0.5,"pairs":[[1,1]])", "pairs[0]: its normal and tangential rows are both row 1"},
  };
  for (const auto& [fields, message] : cases) {
    const auto run = testing::run_cli("impact", "{" + rod + fields + "}");
    EXPECT_EQ(run.status, 2) << fields;
    EXPECT_EQ(run.err, "oblique impact: " + message + "\n") << fields;
    EXPECT_TRUE(run.out.empty());
  }
  EXPECT_EQ(testing::message_of([&] {
              analyze_impact_json(Json::parse("{" + std::string(kRod) + R"(,"E":[0.6,0.3],"mu":0.5,"pairs":[[0,1]]})"));
            }),
            "E[1]: row 1 is the tangential row of pairs[0]: its restitution must be 0 (a sticking point's slip is "
            "stopped), got 0.3");
}

}  // namespace
}  // namespace oblique
