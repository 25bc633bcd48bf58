// Determinism pinned, as Box2D's determinism test does: chaotic runs (the double pendulum striking the
// floor, the billiards break, and the seesaw of automatic contacts) hashed bit for bit — q and q̇ after
// every call and the impact log — against golden values in tests/determinism/golden.json, which the wasm
// build (tests/js/determinism.test.js) must match too. Any change to the arithmetic of the core shows here. When a change is meant to alter results,
// update the golden hashes as that file says (the failure message prints the new one).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include "oblique/io/scenario_json.hpp"
#include "oblique/io/simulation_json.hpp"
#include "oblique/simulation/simulator.hpp"
#include "json_files.hpp"

namespace oblique {
namespace {

const std::string kSourceDir = OBLIQUE_SOURCE_DIR;

using testing::read_json;

/// FNV-1a, 64 bits, over the little-endian bytes of doubles.
class Fnv1a {
 public:
  void add(double x) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &x, sizeof bits);
    for (int byte = 0; byte < 8; ++byte) {
      hash_ ^= (bits >> (8 * byte)) & 0xffu;
      hash_ *= 0x100000001b3ull;
    }
  }
  void add(const Vector& v) {
    for (Eigen::Index i = 0; i < v.size(); ++i) add(v(i));
  }
  std::string hex() const {
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash_));
    return text;
  }

 private:
  std::uint64_t hash_ = 0xcbf29ce484222325ull;
};

/// The hash of golden.json's description for one run.
std::string run_hash(const std::string& scenario_file, int calls) {
  Simulator sim(parse_scenario(read_json(scenario_file)));
  Fnv1a hash;
  for (int k = 0; k < calls; ++k) {
    sim.advance(1.0 / 60.0);
    EXPECT_FALSE(sim.work_limit_hit()) << "a light run: no call stops at its work budget";
    hash.add(sim.time());
    hash.add(sim.positions());
    hash.add(sim.velocities());
  }
  EXPECT_EQ(sim.dropped_impacts(), 0u);
  for (const ImpactRecord& record : sim.impacts()) {
    hash.add(record.time);
    hash.add(record.result.qd_minus);
    hash.add(record.result.qd_plus);
    hash.add(record.result.impulse_multipliers);
  }
  return hash.hex();
}

TEST(Determinism, ChaoticRunsMatchTheirGoldenHashes) {
  const Json golden = read_json(kSourceDir + "/tests/determinism/golden.json");
  ASSERT_EQ(golden.at("runs").size(), 3u);  // the double pendulum, the billiards break, the seesaw (collide: "all")
  for (const Json& run : golden.at("runs")) {
    const std::string scenario = run.at("scenario").get<std::string>();
    const int calls = run.at("calls").get<int>();
    const std::string expected = run.at("hash").get<std::string>();
    const std::string actual = run_hash(kSourceDir + "/web/scenarios/" + scenario + ".json", calls);
    EXPECT_EQ(actual, expected) << scenario << ": the arithmetic changed. If that is meant, set its hash in "
                                << "tests/determinism/golden.json to " << actual << " (see the note there).";
    // The same run again in this process: no state leaks between simulators.
    EXPECT_EQ(run_hash(kSourceDir + "/web/scenarios/" + scenario + ".json", calls), actual) << scenario;
  }
}

/// Every number of a JSON document, in document order (booleans as 0 and 1, null as NaN).
void add_numbers(const Json& value, Fnv1a& hash) {
  if (value.is_number()) {
    hash.add(value.get<double>());
  } else if (value.is_boolean()) {
    hash.add(value.get<bool>() ? 1.0 : 0.0);
  } else if (value.is_null()) {
    hash.add(std::nan(""));
  } else if (value.is_array() || value.is_object()) {
    for (const Json& item : value) add_numbers(item, hash);
  }
}

TEST(Determinism, ImpactRecordsAsShownMatchTheirGoldenHashes) {
  // The matrices and identities of a logged impact as the panels show them, bit for bit.
  const Json golden = read_json(kSourceDir + "/tests/determinism/golden.json");
  for (const Json& run : golden.at("records")) {
    const std::string scenario = run.at("scenario").get<std::string>();
    Simulator sim(parse_scenario(read_json(kSourceDir + "/web/scenarios/" + scenario + ".json")));
    const int calls = static_cast<int>(std::lround(run.at("seconds").get<double>() * 60.0));
    for (int k = 0; k < calls; ++k) sim.advance(1.0 / 60.0);
    ASSERT_GT(sim.impacts().size(), 1u) << scenario;
    Fnv1a hash;
    for (const ImpactRecord& record : sim.impacts()) add_numbers(impact_record_to_json(record), hash);
    EXPECT_EQ(hash.hex(), run.at("hash").get<std::string>())
        << scenario << ": the records shown changed. If that is meant, set its hash in "
        << "tests/determinism/golden.json to " << hash.hex() << " (see the note there).";
  }
}

TEST(Determinism, TheHashSeesALastBitChange) {
  // The hash is over bits: one ulp in one coordinate changes it (so a golden match means bit-identity).
  Fnv1a a, b;
  a.add(0.1);
  b.add(std::nextafter(0.1, 1.0));
  EXPECT_NE(a.hex(), b.hex());
}

}  // namespace
}  // namespace oblique
