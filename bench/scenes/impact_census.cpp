// oblique_impact_census: a scene of bench/scenes run frame by frame (1/60 s), its impacts counted by span of
// time — how many, how many of one point or with a point nearly resting in a stack, and their approaching
// rows (A q̇⁻ < 0) by speed, plastic or not, and those of sequential sub-impacts at the instant of the impact
// before. The census of bench/README.md, "The pour of 200".
//
//   oblique_impact_census FAMILY BODIES SECONDS [SPAN] [CPU_CAP] [REST_SPEED]
//
//   FAMILY BODIES   a scene of scene_families.hpp (row, chain, column, channel, pile, pile_mu, ball)
//   SECONDS         simulated time to run, > 0
//   SPAN            the census's spans of time, s (default 0.05)
//   CPU_CAP         stop after this much process CPU, s (default: none)
//   REST_SPEED      integrator.rest_speed instead of the scene's, m/s (default: the scene's)
//
// Each span is one line; a last line gives the time reached, the impacts and the CPU.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <deque>
#include <stdexcept>
#include <string>

#include "oblique/simulation/simulator.hpp"
#include "scene_families.hpp"

namespace {

using namespace oblique;

/// Approach speeds binned at these bounds (m/s): faster than the first, then between each and the next.
constexpr std::array<double, 5> kSpeedBounds = {0.1, 0.044, 0.01, 0.001, 1e-4};
/// A row approaches below −this (m/s); impacts within this of the one before are at the same instant (s).
constexpr double kApproach = 1e-9;
constexpr double kSameInstant = 1e-11;

/// What one span of time holds.
struct Span {
  long impacts = 0, one_point = 0, nearly_resting = 0, most_points = 0, same_instant = 0;
  long elastic_rows = 0, plastic_rows = 0;
  std::array<long, kSpeedBounds.size() + 1> rows_by_speed{};
};

double number(const char* text, const char* field) {
  char* end = nullptr;
  const double value = std::strtod(text, &end);
  if (*text == '\0' || *end != '\0' || !std::isfinite(value)) {
    throw std::invalid_argument(std::string(field) + ": must be a number, got \"" + text + "\"");
  }
  return value;
}

double cpu_seconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

void print(int index, double span, const Span& s, long total) {
  std::printf("[%.3f, %.3f) s: %ld impacts (%ld of one point, %ld nearly resting, at most %ld points, %ld at the "
              "instant before); approaching rows %ld elastic, %ld plastic; by speed >0.1 %ld, 0.044-0.1 %ld, "
              "0.01-0.044 %ld, 0.001-0.01 %ld, 1e-4-0.001 %ld, <1e-4 %ld m/s; %ld impacts so far, CPU %.1f s\n",
              index * span, (index + 1) * span, s.impacts, s.one_point, s.nearly_resting, s.most_points, s.same_instant,
              s.elastic_rows, s.plastic_rows, s.rows_by_speed[0], s.rows_by_speed[1], s.rows_by_speed[2],
              s.rows_by_speed[3], s.rows_by_speed[4], s.rows_by_speed[5], total, cpu_seconds());
}

/// Adds one record to its span.
void count(const ImpactRecord& record, bool same_instant, Span& span) {
  ++span.impacts;
  span.one_point += record.points.size() == 1 ? 1 : 0;
  span.nearly_resting += std::any_of(record.nearly_resting.begin(), record.nearly_resting.end(), [](char c) { return c != 0; });
  span.most_points = std::max<long>(span.most_points, static_cast<long>(record.points.size()));
  span.same_instant += same_instant ? 1 : 0;
  for (int row : record.normal_rows) {
    const double speed = -record.result.normal_velocity_minus(row);
    if (!(speed > kApproach)) continue;
    ++(record.result.restitution(row) > 0.0 ? span.elastic_rows : span.plastic_rows);
    std::size_t bin = 0;
    while (bin < kSpeedBounds.size() && speed <= kSpeedBounds[bin]) ++bin;
    ++span.rows_by_speed[bin];
  }
}

}  // namespace

int main(int argc, char** argv) {
  try {
    if (argc < 4) throw std::invalid_argument("usage: oblique_impact_census FAMILY BODIES SECONDS [SPAN] [CPU_CAP] [REST_SPEED]");
    Scenario scene = scenes::make_scene(scenes::family_from_name(argv[1]), static_cast<int>(number(argv[2], "BODIES")));
    const double seconds = number(argv[3], "SECONDS");
    const double span = argc > 4 ? number(argv[4], "SPAN") : 0.05;
    const double cap = argc > 5 ? number(argv[5], "CPU_CAP") : 0.0;
    if (!(seconds > 0.0)) throw std::invalid_argument("SECONDS: must be positive");
    if (!(span > 0.0)) throw std::invalid_argument("SPAN: must be positive");
    if (argc > 6) scene.integrator.rest_speed = number(argv[6], "REST_SPEED");
    Simulator sim(scene);
    // The records not yet counted: the log keeps the latest ones, so the count goes by records ever logged.
    std::size_t counted = 0;
    long total = 0;
    int index = 0;
    double previous_time = -1.0;
    Span current;
    while (sim.time() < seconds && (cap <= 0.0 || cpu_seconds() < cap)) {
      sim.advance_to(std::min(seconds, sim.time() + 1.0 / 60.0));
      const std::deque<ImpactRecord>& log = sim.impacts();
      const std::size_t dropped = sim.dropped_impacts();
      for (std::size_t r = counted > dropped ? counted - dropped : 0; r < log.size(); ++r) {
        const ImpactRecord& record = log[r];
        const int at = static_cast<int>(record.time / span);
        if (at != index) {
          if (current.impacts > 0) print(index, span, current, total);
          current = Span();
          index = at;
        }
        count(record, std::abs(record.time - previous_time) < kSameInstant, current);
        previous_time = record.time;
        ++total;
      }
      counted = dropped + log.size();
    }
    if (current.impacts > 0) print(index, span, current, total);
    std::printf("reached t = %.4f s: %ld impacts, CPU %.1f s\n", sim.time(), total, cpu_seconds());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "oblique_impact_census: %s\n", e.what());
    return 2;
  }
}
