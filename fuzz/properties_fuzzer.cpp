// libFuzzer target: the properties of free bodies (scene_properties.hpp) on scenes drawn from the input's
// bytes (property_scenes.hpp), the fuzzing side of the property test (tests/cpp/test_scene_properties.cpp):
// `npm run fuzz` draws new scenes each run, where the test keeps a fixed seed.
//
// The first byte chooses a random scene (even) or a symmetric set-up with random shapes, sizes, masses, e
// and μ (odd); the second the rotation of the invariance check (90°, 180° or 270°); the rest are the draws,
// eight bytes each (zeros past the end). A property that does not hold is a finding, named by the property
// and the scene (its set-up), so that one run keeps an input of each kind.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_support.hpp"
#include "property_scenes.hpp"
#include "scene_properties.hpp"

using oblique::fuzz::require;

namespace {

void check(const std::string& input) {
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(input.data());
  const std::size_t skip = input.size() < 2 ? input.size() : 2;
  oblique::scenes::ByteChoices choices(bytes + skip, input.size() - skip);
  const bool symmetric = !input.empty() && (bytes[0] & 1) != 0;
  const oblique::scenes::PropertyScene scene =
      symmetric ? oblique::scenes::random_symmetric_scene(choices) : oblique::scenes::random_scene(choices);
  oblique::scenes::PropertyOptions options;
  options.transforms = oblique::scenes::transforms_for(input.size() > 1 ? bytes[1] % 3 : 0);
  const oblique::scenes::PropertyReport report = oblique::scenes::check_properties(scene, options);
  for (const oblique::scenes::PropertyFailure& failure : report.failures) {
    require(false, std::string(oblique::scenes::name(failure.property)) + " broken in " + scene.name + " at t = " +
                       std::to_string(failure.time) + " s: " + failure.detail);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return oblique::fuzz::run_input(data, size, check);
}
