// oblique_scenes: the scene families (scene_families.hpp) as scenario documents, for the CLI and for anyone
// who wants to look at them in the playground.
//
//   oblique_scenes FAMILY BODIES          one document on standard output (any scene: row, chain, column,
//                                         channel, pile, pile_mu, ball)
//   oblique_scenes --out DIR [BODIES...]  every scaling family at each size (default 8 16 32 64) as
//                                         DIR/FAMILY-BODIES.json
//
//   $ build/native/oblique_scenes row 64 | build/native/oblique simulate - --duration 0.5 --impacts-only
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "oblique/scenario/scenario.hpp"
#include "oblique/io/scenario_json.hpp"
#include "scene_families.hpp"

namespace {

int parse_bodies(const std::string& text) {
  char* end = nullptr;
  const long value = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0') throw std::invalid_argument("bodies: must be an integer, got \"" + text + "\"");
  return static_cast<int>(value);
}

std::string document(oblique::scenes::Family family, int bodies) {
  return oblique::format_json(oblique::scenario_to_json(oblique::scenes::make_scene(family, bodies))) + "\n";
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  try {
    if (args.size() >= 2 && args[0] == "--out") {
      std::vector<int> sizes;
      for (std::size_t i = 2; i < args.size(); ++i) sizes.push_back(parse_bodies(args[i]));
      if (sizes.empty()) sizes = {8, 16, 32, 64};
      for (oblique::scenes::Family family : oblique::scenes::all_families()) {
        for (int bodies : sizes) {
          const std::string path = args[1] + "/" + oblique::scenes::name(family) + "-" + std::to_string(bodies) + ".json";
          std::ofstream out(path);
          out << document(family, bodies);
          if (!out) throw std::runtime_error(path + ": cannot be written");
        }
      }
      return 0;
    }
    if (args.size() == 2) {
      std::cout << document(oblique::scenes::family_from_name(args[0]), parse_bodies(args[1]));
      return 0;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "oblique_scenes: %s\n", e.what());
    return 2;
  }
  std::fprintf(stderr, "usage: oblique_scenes FAMILY BODIES | oblique_scenes --out DIR [BODIES...]\n"
                       "  FAMILY: row, chain, column, channel (BODIES 2..64), pile, pile_mu (2..256) or ball (1)\n");
  return 2;
}
