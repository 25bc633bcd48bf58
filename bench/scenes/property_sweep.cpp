// oblique_property_sweep: the symmetric scenes of property_scenes.hpp (and random ones, when asked) run one by
// one, with a table of which properties of scene_properties.hpp hold — the sweep of issue 30, to run again on
// any branch (`npm run sweep -- [options]`).
//
//   oblique_property_sweep [--filter TEXT] [--random N] [--seed S] [--failing] [--no-invariance]
//   oblique_property_sweep --json NAME       the scenario document of scene NAME, for `oblique simulate`
//   oblique_property_sweep --trace NAME      its run step by step: t, K, momentum, angular momentum, impacts
//
//   --filter TEXT    only the scenes whose name contains TEXT ("thin-rod", "/touching", "line/")
//   --random N       also N random scenes and N random symmetric ones, drawn from --seed (default 1)
//   --failing        only the rows of scenes that break a property
//   --no-invariance  skip the translated, rotated, mirrored and boosted runs (five times faster)
//   --margins        cells of the laws show the worst ratio of measured to allowed (> 1 breaks it)
//
// A cell is "ok", "-" when the property does not apply (angular momentum against planes), or the amount by
// which it fails (the units of the details listed after the table). Exits 1 when a scene breaks a property.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "oblique/io/scenario_json.hpp"
#include "property_scenes.hpp"
#include "scene_properties.hpp"

namespace {

using namespace oblique::scenes;

struct Options {
  std::string filter;
  int random = 0;
  std::uint64_t seed = 1;
  bool failing = false;
  bool invariance = true;
  bool margins = false;
  std::string json;
  std::string trace;
};

Options parse(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(arg + ": missing its value");
      return argv[++i];
    };
    if (arg == "--filter") {
      options.filter = value();
    } else if (arg == "--random") {
      options.random = std::stoi(value());
    } else if (arg == "--seed") {
      options.seed = std::stoull(value());
    } else if (arg == "--failing") {
      options.failing = true;
    } else if (arg == "--margins") {
      options.margins = true;
    } else if (arg == "--no-invariance") {
      options.invariance = false;
    } else if (arg == "--json") {
      options.json = value();
    } else if (arg == "--trace") {
      options.trace = value();
    } else {
      throw std::invalid_argument(arg + ": unknown option (see the comment at the top of property_sweep.cpp)");
    }
  }
  return options;
}

/// The scenes asked for: the symmetric ones, then the random ones.
std::vector<PropertyScene> scenes(const Options& options) {
  std::vector<PropertyScene> all = symmetric_scenes();
  SeededChoices choices(options.seed);
  for (int i = 0; i < options.random; ++i) {
    PropertyScene scene = random_scene(choices);
    scene.name = "random/" + std::to_string(options.seed) + "-" + std::to_string(i);
    all.push_back(std::move(scene));
    PropertyScene symmetric = random_symmetric_scene(choices);
    symmetric.name = "random-symmetric/" + std::to_string(options.seed) + "-" + std::to_string(i) + "/" + symmetric.name;
    all.push_back(std::move(symmetric));
  }
  std::vector<PropertyScene> kept;
  for (PropertyScene& scene : all) {
    if (scene.name.find(options.filter) != std::string::npos) kept.push_back(std::move(scene));
  }
  return kept;
}

std::string cell(const PropertyReport& report, Property property, bool margins) {
  char buffer[32];
  const double worst = report.worst[static_cast<std::size_t>(property)];
  if (const PropertyFailure* failure = report.failure(property)) {
    std::snprintf(buffer, sizeof buffer, "%.2g", margins && worst > 0.0 ? worst : failure->amount);
    return buffer;
  }
  for (Property p : report.checked) {
    if (p != property) continue;
    if (!margins || worst == 0.0) return "ok";
    std::snprintf(buffer, sizeof buffer, "%.1e", worst);
    return buffer;
  }
  return "-";
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Options options = parse(argc, argv);
    const std::vector<PropertyScene> list = scenes(options);
    for (const std::string* asked : {&options.json, &options.trace}) {
      if (asked->empty()) continue;
      for (const PropertyScene& scene : list) {
        if (scene.name != *asked) continue;
        if (asked == &options.json) {
          std::cout << oblique::format_json(oblique::scenario_to_json(scene.scenario)) << "\n";
        } else {
          std::cout << trace_table(scene);
        }
        return 0;
      }
      throw std::invalid_argument("no scene is named \"" + *asked + "\" (with these --random and --seed)");
    }

    // The table, a row per scene as it is run.
    std::printf("%-44s", "scene");
    for (Property property : all_properties()) std::printf(" %-8.8s", name(property));
    std::printf(" impacts\n");
    std::string details;
    int broken = 0;
    PropertyOptions check;
    for (std::size_t i = 0; i < list.size(); ++i) {
      check.transforms = options.invariance ? transforms_for(i) : std::vector<Transform>{};
      const PropertyReport report = check_properties(list[i], check);
      if (!report.holds()) {
        ++broken;
        details += describe(list[i], report);
      }
      if (options.failing && report.holds()) continue;
      std::printf("%-44s", list[i].name.c_str());
      for (Property property : all_properties()) std::printf(" %-8s", cell(report, property, options.margins).c_str());
      std::printf(" %d\n", report.impacts);
      std::fflush(stdout);
    }
    std::printf("\n%zu scenes: %zu hold every property, %d break one or more\n", list.size(), list.size() - static_cast<std::size_t>(broken),
                broken);
    if (!details.empty()) std::printf("\n%s", details.c_str());
    return broken > 0 ? 1 : 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "oblique_property_sweep: %s\n", error.what());
    return 2;
  }
}
