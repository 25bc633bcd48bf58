// `oblique simulate SCENARIO.json [--duration T] [--format json|csv] [--sample DT] [--impacts-only]`:
// runs a scenario with the event-driven simulator and writes the samples and the impact log
// (simulate_to_json in simulation_json.hpp).
#include <cmath>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>

#include "commands.hpp"
#include "oblique/scenario_json.hpp"
#include "oblique/simulation_json.hpp"

namespace oblique::cli {

namespace {

const char* const kSimulateHelp = R"help(usage: oblique simulate SCENARIO.json [--duration T] [--format json|csv] [--sample DT]
                        [--impacts-only]

Runs a scenario (see "oblique check" and the README, "Scenario format") with the event-driven
simulator of Aghili's projection method: smooth phases integrated by RK4 on the active constraints,
impacts located in time and resolved by q+ = q- - S(E~ + I)q-, contacts switched by the Gamma rule.
SCENARIO.json "-" reads standard input.

  --duration T     seconds to simulate (default: the scenario's "duration")
  --sample DT      seconds between samples (default 0.01); samples at 0, DT, 2 DT, ... and T
  --format F       json (default) or csv
  --impacts-only   write the impact log only

JSON: {title, bodies, dofs, duration, sample, t, q, qd, energy {kinetic, potential, total},
violation, impacts}; q and qd are arrays of samples (x, y, theta per body); each impact has t,
points, contacts, normal_rows, scheduled, iterations, positions, normals and every key of
"oblique impact" but the matrices and identities (n, m, rank, nu, cond_Mc, gamma, W_loss, K_minus,
K_plus, qd_minus, qd_plus, i_f, i_lambda, phid_minus, phid_plus, restitution, flags, ...).
CSV: one row per sample (t, q..., qd..., kinetic, potential, total, violation), then a blank line and
the impacts table (t, contacts, gamma, W_loss, K_minus, K_plus, qd_minus..., qd_plus..., i_lambda,
tensile_impulse, approach_after_impact, energy_gain); lists inside a cell are space-separated.
Exit status 2, with one line on stderr naming the field, on bad input; 1 if the run fails.

example: oblique simulate web/scenarios/bouncing-ball.json --duration 5 --format csv
)help";

/// A number of seconds from an option value; throws naming the option.
double seconds(const std::string& option, const std::string& text) {
  std::size_t used = 0;
  double value = 0.0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || !std::isfinite(value)) {
    throw std::invalid_argument(option + ": must be a number of seconds, got \"" + text + "\"");
  }
  return value;
}

/// A number as JSON writes it (shortest round-trip form); empty for null (γ when K⁻ = 0).
std::string cell(const Json& number) { return number.is_null() ? std::string() : number.dump(); }

/// The numbers of a JSON array, space-separated (one CSV cell).
std::string list_cell(const Json& array) {
  std::string text;
  for (const Json& item : array) {
    if (!text.empty()) text += ' ';
    text += cell(item);
  }
  return text;
}

void write_samples_csv(const Json& doc, std::ostream& out) {
  // Header: t, then q and q̇ named by body, energies, violation.
  out << "t";
  const Json& bodies = doc["bodies"];
  for (const char* kind : {"q", "qd"}) {
    for (std::size_t b = 0; b < bodies.size(); ++b) {
      std::string name = bodies[b].get<std::string>();
      if (name.empty()) name = "body" + std::to_string(b);
      if (std::string(kind) == "q") {
        out << "," << name << ".x," << name << ".y," << name << ".theta";
      } else {
        out << "," << name << ".vx," << name << ".vy," << name << ".omega";
      }
    }
  }
  out << ",kinetic,potential,total,violation\n";
  const Json& energy = doc["energy"];
  for (std::size_t k = 0; k < doc["t"].size(); ++k) {
    out << cell(doc["t"][k]);
    for (const Json& x : doc["q"][k]) out << "," << cell(x);
    for (const Json& x : doc["qd"][k]) out << "," << cell(x);
    out << "," << cell(energy["kinetic"][k]) << "," << cell(energy["potential"][k]) << "," << cell(energy["total"][k])
        << "," << cell(doc["violation"][k]) << "\n";
  }
}

void write_impacts_csv(const Json& doc, std::ostream& out) {
  const int n = doc["dofs"].get<int>();
  out << "t,contacts,gamma,W_loss,K_minus,K_plus";
  for (int i = 0; i < n; ++i) out << ",qd_minus[" << i << "]";
  for (int i = 0; i < n; ++i) out << ",qd_plus[" << i << "]";
  out << ",i_lambda,tensile_impulse,approach_after_impact,energy_gain\n";
  for (const Json& impact : doc["impacts"]) {
    out << cell(impact["t"]) << "," << list_cell(impact["contacts"]) << "," << cell(impact["gamma"]) << ","
        << cell(impact["W_loss"]) << "," << cell(impact["K_minus"]) << "," << cell(impact["K_plus"]);
    for (const Json& x : impact["qd_minus"]) out << "," << cell(x);
    for (const Json& x : impact["qd_plus"]) out << "," << cell(x);
    const Json& flags = impact["flags"];
    out << "," << list_cell(impact["i_lambda"]) << "," << list_cell(flags["tensile_impulse"]) << ","
        << list_cell(flags["approach_after_impact"]) << "," << (flags["energy_gain"].get<bool>() ? "true" : "false")
        << "\n";
  }
}

}  // namespace

int run_simulate(const Args& args, std::istream& in, std::ostream& out, std::ostream& err) {
  std::string path;
  std::optional<double> duration;
  double sample = 0.01;
  std::string format = "json";
  bool impacts_only = false;
  try {
    // Arguments: FILE and options, "--name value" or "--name=value".
    for (std::size_t i = 0; i < args.size(); ++i) {
      std::string arg = args[i];
      if (arg == "-h" || arg == "--help") {
        out << kSimulateHelp;
        return 0;
      }
      if (arg == "--impacts-only") {
        impacts_only = true;
        continue;
      }
      if (arg.rfind("--", 0) == 0) {
        std::string value;
        const std::size_t equals = arg.find('=');
        if (equals != std::string::npos) {
          value = arg.substr(equals + 1);
          arg = arg.substr(0, equals);
        } else if (arg == "--duration" || arg == "--sample" || arg == "--format") {
          if (i + 1 >= args.size()) throw std::invalid_argument(arg + ": missing value");
          value = args[++i];
        }
        if (arg == "--duration") {
          duration = seconds(arg, value);
        } else if (arg == "--sample") {
          sample = seconds(arg, value);
        } else if (arg == "--format") {
          if (value != "json" && value != "csv") {
            throw std::invalid_argument("--format: must be json or csv, got \"" + value + "\"");
          }
          format = value;
        } else {
          throw std::invalid_argument(arg + ": unknown option (see oblique simulate --help)");
        }
        continue;
      }
      if (!path.empty()) throw std::invalid_argument("SCENARIO: expected one file, got " + path + " and " + arg);
      path = arg;
    }
    if (path.empty()) throw std::invalid_argument("SCENARIO: missing (a scenario file, or - for standard input)");

    // Read, validate, run.
    const std::string source = path == "-" ? "scenario" : path;
    const Scenario scenario = parse_scenario(parse_json(read_input(path, in), source));
    Json doc = simulate_to_json(scenario, duration.value_or(scenario.duration), sample);

    // Write.
    if (format == "json") {
      if (impacts_only) {
        Json impacts;
        impacts["title"] = doc["title"];
        impacts["bodies"] = doc["bodies"];
        impacts["impacts"] = std::move(doc["impacts"]);
        doc = std::move(impacts);
      }
      out << format_json(doc) << "\n";
    } else {
      if (!impacts_only) {
        write_samples_csv(doc, out);
        out << "\n";
      }
      write_impacts_csv(doc, out);
    }
    return 0;
  } catch (const std::invalid_argument& e) {
    err << "oblique simulate: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    err << "oblique simulate: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace oblique::cli
