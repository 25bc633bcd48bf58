// `oblique impact` with friction (frictional_impact_io.hpp): the rod end striking the floor through the CLI
// against its hand-derived stick and slip solutions on both sides of μ_crit (mode, μ_crit, discriminator,
// angle to the cone, energy, γ), μ = 0 and "stick" against the frictionless document bit for bit, the output
// keys unchanged without `mu`, pairs on one row scale, the (μ, e) map against its closed form, and bad
// input named by field.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_runner.hpp"
#include "error_message.hpp"
#include "friction_systems.hpp"
#include "oblique/friction/friction_consistency.hpp"
#include "oblique/io/frictional_impact_io.hpp"
#include "oblique/io/impact_io.hpp"

namespace oblique {
namespace {

using nlohmann::json;

/// The rod of test_frictional_impact.cpp (m = 2, h = ½, tilted 30°), its end sliding left into the floor.
const char* const kRod =
    R"("M":[[2,0,0],[0,2,0],[0,0,0.16666666666666666]],"A":[[0,1,-0.4330127018922193],[1,0,0.25]],)"
    R"("qd":[-1.5,-2,1])";

json analyzed_impact(const std::string& fields) { return json::parse(analyze_impact_json(Json::parse("{" + fields + "}")).dump()); }

/// A number as JSON text, to the last bit.
std::string exact(double x) {
  std::ostringstream out;
  out << std::setprecision(17) << x;
  return out.str();
}

/// The rod document of a RodCase at μ (a number, or "stick").
std::string rod_document(const testing::RodCase& rod, const std::string& mu) {
  const double c = rod.c(), s = rod.s();
  return "{\"M\":[[" + exact(rod.m) + ",0,0],[0," + exact(rod.m) + ",0],[0,0," + exact(rod.inertia()) + "]]," +
         "\"A\":[[0,1," + exact(-rod.h * c) + "],[1,0," + exact(rod.h * s) + "]]," + "\"qd\":[" + exact(rod.qd(0)) +
         "," + exact(rod.qd(1)) + "," + exact(rod.qd(2)) + "],\"e\":" + exact(rod.e) + ",\"pairs\":[[0,1]],\"mu\":" +
         mu + "}";
}

void expect_near_vector(const json& actual, const Vector& expected, double tolerance) {
  ASSERT_EQ(actual.size(), static_cast<std::size_t>(expected.size()));
  for (Eigen::Index i = 0; i < expected.size(); ++i) EXPECT_NEAR(actual[i].get<double>(), expected(i), tolerance) << i;
}

// The rod end (testing::RodCase: m = 2, h = ½, tilted 30°, e = 0.6) sliding left into the floor at
// v_t⁻ = −1.25; μ_crit = |i_t^st|/i_n^st ≈ 1.081. Every output against the hand-derived solution.
TEST(CliFriction, RodEndOnTheFloorMatchesTheClosedFormOnBothSidesOfTheCriticalMu) {
  testing::RodCase rod;
  rod.qd = testing::vec({-1.5, -2.0, 1.0});
  const double i_n_st = rod.stick_n(), i_t_st = rod.stick_t();
  const double mu_crit = std::abs(i_t_st) / i_n_st;
  const Eigen::Vector3d mass_diagonal(rod.m, rod.m, rod.inertia());
  const auto kinetic = [&](const Vector& v) { return 0.5 * v.dot(mass_diagonal.asDiagonal() * v); };
  const double k_minus = kinetic(rod.qd);

  // Above μ_crit: stick. v_t⁺ = 0, φ̇⁺ = e u, the sticking impulse inside the cone by its angle.
  for (const double mu : {1.5 * mu_crit, 10.0}) {
    const auto run = testing::run_cli("impact", rod_document(rod, exact(mu)));
    ASSERT_EQ(run.status, 0) << run.err;
    const json out = json::parse(run.out);
    const json& pair = out["friction"]["pairs"][0];
    EXPECT_EQ(pair["mode"], "stick");
    EXPECT_EQ(pair["direction"], 0);
    expect_near_vector(out["qd_plus"], rod.stick_velocity(), 1e-12);
    EXPECT_NEAR(pair["i_n"].get<double>(), i_n_st, 1e-12 * i_n_st);
    EXPECT_NEAR(pair["i_t"].get<double>(), i_t_st, 1e-12 * i_n_st);
    EXPECT_NEAR(pair["mu_critical"].get<double>(), mu_crit, 1e-12);
    EXPECT_NEAR(pair["discriminator"].get<double>(), mu * mu * i_n_st * i_n_st - i_t_st * i_t_st, 1e-9 * mu * mu * i_n_st * i_n_st);
    EXPECT_NEAR(pair["cone_angle"].get<double>(), std::atan2(std::abs(i_t_st), i_n_st) - std::atan(mu), 1e-12);
    EXPECT_LT(pair["cone_angle"].get<double>(), 0.0);
    EXPECT_NEAR(pair["slip_plus"].get<double>(), 0.0, 1e-12);
    EXPECT_NEAR(pair["phid_plus"].get<double>(), rod.e * rod.u(), 1e-12);
    const double k_plus = kinetic(rod.stick_velocity());
    EXPECT_NEAR(out["K_plus"].get<double>(), k_plus, 1e-12 * k_minus);
    EXPECT_NEAR(out["W_loss"].get<double>(), k_plus - k_minus, 1e-12 * k_minus);
    EXPECT_NEAR(out["gamma"].get<double>(), k_plus / k_minus, 1e-12);
    EXPECT_EQ(out["flags"]["energy_gain"], false);
    EXPECT_EQ(out["friction"]["modes_consistent"], true);
    for (const auto& [name, value] : out["identities"].items()) EXPECT_LT(value.get<double>(), 1e-9) << name;
  }
  // Below μ_crit: slip on (s = −1), the impulse on the cone's surface (angle 0), friction μ i_n to the right.
  for (const double mu : {0.5 * mu_crit, 0.1}) {
    const auto run = testing::run_cli("impact", rod_document(rod, exact(mu)));
    ASSERT_EQ(run.status, 0) << run.err;
    const json out = json::parse(run.out);
    const json& pair = out["friction"]["pairs"][0];
    const double i_n = rod.slip_n(mu, -1);
    EXPECT_EQ(pair["mode"], "slip");
    EXPECT_EQ(pair["direction"], -1);
    expect_near_vector(out["qd_plus"], rod.slip_velocity(mu, -1), 1e-12);
    EXPECT_NEAR(pair["i_n"].get<double>(), i_n, 1e-12 * i_n);
    EXPECT_NEAR(pair["i_t"].get<double>(), mu * i_n, 1e-12 * i_n);
    EXPECT_NEAR(pair["mu_critical"].get<double>(), mu_crit, 1e-12);
    EXPECT_NEAR(pair["discriminator"].get<double>(), mu * mu * i_n_st * i_n_st - i_t_st * i_t_st, 1e-9 * i_t_st * i_t_st);
    EXPECT_LT(pair["discriminator"].get<double>(), 0.0);
    EXPECT_NEAR(pair["cone_angle"].get<double>(), 0.0, 1e-12);
    EXPECT_NEAR(pair["sticking_cone_angle"].get<double>(), std::atan2(std::abs(i_t_st), i_n_st) - std::atan(mu), 1e-12);
    const double k_plus = kinetic(rod.slip_velocity(mu, -1));
    EXPECT_NEAR(out["K_plus"].get<double>(), k_plus, 1e-12 * k_minus);
    EXPECT_NEAR(out["W_loss"].get<double>(), k_plus - k_minus, 1e-12 * k_minus);
    EXPECT_NEAR(out["gamma"].get<double>(), k_plus / k_minus, 1e-12);
    EXPECT_EQ(out["friction"]["modes_consistent"], true);
    for (const auto& [name, value] : out["identities"].items()) EXPECT_LT(value.get<double>(), 1e-9) << name;
  }
  // "stick" and "Infinity" are μ = +∞: the sticking impact, written back as "stick", no discriminator.
  for (const char* mu : {"\"stick\"", "[\"Infinity\"]"}) {
    const json stuck = analyzed_impact(rod_document(rod, mu).substr(1, rod_document(rod, mu).size() - 2));
    EXPECT_EQ(stuck["friction"]["pairs"][0]["mode"], "stick") << mu;
    EXPECT_EQ(stuck["friction"]["pairs"][0]["mu"], "stick") << mu;
    EXPECT_TRUE(stuck["friction"]["pairs"][0]["discriminator"].is_null()) << mu;
    expect_near_vector(stuck["qd_plus"], rod.stick_velocity(), 1e-12);
  }
}

TEST(CliFriction, WithoutMuTheOutputKeysAreUnchanged) {
  const json out = analyzed_impact(R"("M":[[1,0],[0,2]],"A":[[-1,1]],"qd":[3,-1],"e":0.8)");
  std::vector<std::string> keys;
  for (const auto& [key, value] : out.items()) keys.push_back(key);
  const std::vector<std::string> expected = {
      "n",          "m",         "rank",       "nu",        "nu_range", "nu_optimal",  "cond_Mc",  "P",
      "Mc",         "S",         "R",          "E_tilde",   "Q",        "restitution", "qd_minus", "qd_plus",
      "i_f",        "i_lambda",  "phid_minus", "phid_plus", "K_minus",  "K_plus",      "W_loss",   "W_constraint",
      "gamma",      "qmi_max_eig", "energy_consistent", "newton_residual", "flags", "velocity_plane", "identities"};
  std::vector<std::string> sorted = expected;
  std::sort(sorted.begin(), sorted.end());
  std::sort(keys.begin(), keys.end());
  EXPECT_EQ(keys, sorted);
}

TEST(CliFriction, MuZeroIsTheFrictionlessDocumentAndStickIsTodaysStickRows) {
  // Two contact pairs behind a joint row: μ = 0 drops their tangential rows, "stick" keeps them plastic.
  const std::string base =
      R"("M":[[2,0.3,0,0],[0.3,1,0.1,0],[0,0.1,1.5,0.2],[0,0,0.2,0.7]],"qd":[0.5,-1,0.3,-0.8],"iu":[0.1,0,0,-0.2])";
  const std::string a = R"("A":[[0.2,0.1,0,0.4],[0,1,0,0.3],[1,0,0.2,0],[0.1,0,1,0.5],[0,0.3,0.1,1]])";
  const json frictionless = analyzed_impact(base + "," + a + R"(,"E":[0,0.5,0,0.7,0],"mu":0,"pairs":[[1,2],[3,4]])");
  const json reference = analyzed_impact(base + R"(,"A":[[0.2,0.1,0,0.4],[0,1,0,0.3],[0.1,0,1,0.5]],"E":[0,0.5,0.7])");
  EXPECT_EQ(frictionless["qd_plus"], reference["qd_plus"]);
  EXPECT_EQ(frictionless["i_f"], reference["i_f"]);
  EXPECT_EQ(frictionless["W_loss"], reference["W_loss"]);
  const json stuck = analyzed_impact(base + "," + a + R"(,"E":[0,0.5,0,0.7,0],"mu":"stick","pairs":[[1,2],[3,4]])");
  const json today = analyzed_impact(base + "," + a + R"(,"E":[0,0.5,0,0.7,0],"unilateral":[true,true,false,true,false])");
  EXPECT_EQ(stuck["qd_plus"], today["qd_plus"]);
  EXPECT_EQ(stuck["i_lambda"], today["i_lambda"]);
  EXPECT_EQ(stuck["W_loss"], today["W_loss"]);
  EXPECT_EQ(stuck["friction"]["sticking"]["qmi_max_eig"], today["qmi_max_eig"]);
}

TEST(CliFriction, BothRowsOfAPairKeepOneScale) {
  // A pair whose normal row is 10⁻⁸ long: equilibrate_rows would rescale it alone; the pair is rescaled as
  // one (by the factor of its longer row), so the cone |i_t| ≤ μ i_n means what it meant.
  const json out = analyzed_impact(R"("M":[[1,0],[0,1]],"A":[[0,1e-8],[1e-6,0]],"qd":[1e-6,-1e-8],"e":0,"mu":0.25,"pairs":[[0,1]])");
  ASSERT_TRUE(out.contains("row_scale"));
  EXPECT_EQ(out["row_scale"][0], out["row_scale"][1]);
  EXPECT_EQ(out["row_scale"][0].get<double>(), std::ldexp(1.0, 19));  // the longer row, 10⁻⁶ = 0.52·2⁻¹⁹
  const json& pair = out["friction"]["pairs"][0];
  EXPECT_EQ(pair["mode"], "slip");
  EXPECT_NEAR(pair["i_t"].get<double>(), -0.25 * pair["i_n"].get<double>(), 1e-12 * std::abs(pair["i_n"].get<double>()));
}

/// An impact document of a FrictionSystem at global e, with its pairs and μ.
Json friction_document(const testing::FrictionSystem& system, double e, double mu) {
  Json pairs = Json::array();
  for (const FrictionPair& pair : system.pairs) pairs.push_back({pair.normal_row, pair.tangent_row});
  return Json{{"M", to_json(system.inertia)}, {"A", to_json(system.jacobian)}, {"qd", to_json(system.qd_minus)},
              {"e", e}, {"mu", mu}, {"pairs", pairs}};
}

// Kane and Levinson's double pendulum (θ1 = 30°, θ2 = 0.3 rad, ω1 = −1): its end strikes the floor sliding,
// and the sticking impulse's friction works along the slip, so Newton's law with Coulomb friction gains
// energy above e_stick ≈ 0.63 wherever the point sticks (μ ≥ μ_crit). The map of the document against
// the closed form of one contact point (friction_consistency.hpp), point by point.
TEST(CliFriction, TheMuEMapOfADocumentIsTheClosedFormRegion) {
  const testing::FrictionSystem pendulum = testing::kane_double_pendulum(1.0, 1.0, M_PI / 6, 0.3, -1.0, 0.0, 0.5);
  const Json document = friction_document(pendulum, 0.8, 0.5);
  const int resolution = 41;
  const double mu_max = 1.0;
  const Json map = friction_energy_map_json(document, 0, mu_max, resolution);
  const Projection proj(pendulum.inertia, pendulum.jacobian);
  const SingleContactFriction contact = SingleContactFriction::of(proj, pendulum.qd_minus, pendulum.pairs[0]);
  ASSERT_EQ(map["energy_change"].size(), static_cast<std::size_t>(resolution * resolution));
  EXPECT_NEAR(map["e_stick"].get<double>(), contact.sticking_restitution_bound(), 1e-12);
  EXPECT_NEAR(map["e_stick"].get<double>(), 0.630, 5e-4);
  int gains = 0, compared = 0;
  for (int row = 0; row < resolution; ++row) {
    const double e = map["e"][row].get<double>();
    EXPECT_NEAR(map["mu_critical"][row].get<double>(), contact.critical_mu(e), 1e-9);
    for (int col = 0; col < resolution; ++col) {
      const double mu = map["mu"][col].get<double>();
      const std::size_t at = static_cast<std::size_t>(row * resolution + col);
      // Away from the mode boundary (where round-off may pick either mode), the mode and the energy
      // change are the closed form's.
      if (std::abs(mu - contact.critical_mu(e)) < 1e-9) continue;
      ++compared;
      EXPECT_EQ(map["mode"][at].get<int>() == 0, contact.sticks(mu, e)) << "mu " << mu << " e " << e;
      const double k_minus = 0.5 * pendulum.qd_minus.dot(pendulum.inertia * pendulum.qd_minus);
      EXPECT_NEAR(map["energy_change"][at].get<double>(), contact.energy_change(mu, e) / k_minus, 1e-9);
      if (std::abs(contact.energy_change(mu, e)) > 1e-9 * k_minus) {
        EXPECT_EQ(map["energy_gain"][at].get<bool>(), !contact.admissible(mu, e)) << "mu " << mu << " e " << e;
      }
      gains += map["energy_gain"][at].get<bool>() ? 1 : 0;
    }
  }
  EXPECT_GT(compared, resolution * resolution - resolution);
  EXPECT_GT(gains, 0);  // Kane's paradox is on the map
  // The document's own pair: μ = 0.5 > μ_crit, e = 0.8 > e_stick: it sticks and gains energy.
  EXPECT_EQ(map["at"]["mode"], "stick");
  EXPECT_EQ(map["at"]["energy_gain"], true);
  EXPECT_EQ(map["at"]["mu"].get<double>(), 0.5);
  EXPECT_EQ(map["at"]["e"].get<double>(), 0.8);
  // Its input is named: the pair, the range, the grid, a document without friction, an applied impulse.
  const std::pair<std::function<void()>, std::string> cases[] = {
      {[&] { friction_energy_map_json(document, 1, mu_max, resolution); }, "pair: must be one of the pairs (0..0)"},
      {[&] { friction_energy_map_json(document, 0, 0.0, resolution); }, "mu_max: must be a finite number > 0, got 0"},
      {[&] { friction_energy_map_json(document, 0, mu_max, 1); }, "resolution: must be an integer in [2, 256]"},
      {[&] {
         Json without = document;
         without.erase("mu");
         without.erase("pairs");
         friction_energy_map_json(without, 0, mu_max, resolution);
       },
       "mu: missing (the map is over the μ of a frictional pair: give mu and pairs)"},
      {[&] {
         Json pushed = document;
         pushed["iu"] = {0, 0, 0, 0, 0.1, 0};
         friction_energy_map_json(pushed, 0, mu_max, resolution);
       },
       "iu: the (μ, e) map is of an impact without an applied impulse; remove iu"},
      {[&] {
         Json bad = document;
         bad["e"] = 1.5;
         friction_energy_map_json(bad, 0, mu_max, resolution);
       },
       "e: must be in [0, 1], got 1.5"},
  };
  for (const auto& [call, message] : cases) EXPECT_EQ(testing::message_of(call), message);
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
