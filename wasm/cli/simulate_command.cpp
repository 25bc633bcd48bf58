// `oblique simulate SCENARIO.json [--duration T] [--format json|csv] [--sample DT] [--impacts-only]
// [--no-projection-scalars] [--max-seconds S]`: runs a scenario with the event-driven simulator and writes
// the samples and the impact log (the document of simulate_to_json in simulation_json.hpp), as the run
// goes, with bounded memory.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>

#include "commands.hpp"
#include "oblique/simulation/sampled_run.hpp"
#include "oblique/io/scenario_json.hpp"
#include "oblique/io/simulation_csv.hpp"
#include "oblique/io/simulation_json.hpp"

namespace oblique::cli {

namespace {

const char* const kSimulateHelp = R"help(usage: oblique simulate SCENARIO.json [--duration T] [--format json|csv] [--sample DT]
                        [--impacts-only] [--no-projection-scalars] [--max-seconds S]

Runs a scenario (see "oblique check" and docs/scenarios.md) with the event-driven
simulator of Aghili's projection method: smooth phases integrated by RK4 on the active constraints,
impacts located in time and resolved by q+ = q- - S(E~ + I)q-, contacts switched by the Gamma rule.
SCENARIO.json "-" reads standard input.

  --duration T     seconds to simulate (default: the scenario's "duration")
  --sample DT      seconds between samples (default 0.01); samples at 0, DT, 2 DT, ... and T
  --format F       json (default) or csv
  --impacts-only   write the impact log only
  --no-projection-scalars
                   leave rank, nu, nu_range, nu_optimal and cond_Mc out of each impact (and
                   qmi_max_eig, energy_consistent where the run's solve left them: null);
                   they cost O(n^3) per impact, most of a JSON run's time with many bodies
  --max-seconds S  stop after S seconds of wall-clock time, the output closed and valid (exit status 3)

JSON: {title, bodies, dofs, duration, sample, t, q, qd, energy {kinetic, potential, total},
violation, impacts, complete}; q and qd are arrays of samples (x, y, theta per body); each impact has
t, points, contacts, normal_rows, scheduled, iterations, positions, normals and every key of
"oblique impact" but the matrices and identities (n, m, rank, nu, cond_Mc, gamma, W_loss, K_minus,
K_plus, qd_minus, qd_plus, i_f, i_lambda, phid_minus, phid_plus, restitution, flags, ...); complete is
false when --max-seconds stopped the run (or it failed: then error says why).
CSV: one row per sample (t, q..., qd..., kinetic, potential, total, violation), then a blank line and
the impacts table (t, contacts, gamma, W_loss, K_minus, K_plus, qd_minus..., qd_plus..., i_lambda,
tensile_impulse, approach_after_impact, energy_gain); lists inside a cell are space-separated.
The output is written as the run goes (samples and impacts wait in temporary files until their place
in the document comes): memory stays bounded however long the run.
Exit status 2, with one line on stderr naming the field, on bad input; 1 if the run fails; 3 when
--max-seconds stopped it.

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

/// A number as JSON writes it (shortest round-trip form).

/// A number for a message: the shortest decimal that reads back to it ("1", "0.25", not "1.0").
std::string plain(double x) {
  char buffer[32];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(buffer, sizeof buffer, "%.*g", digits, x);
    if (std::strtod(buffer, nullptr) == x) break;
  }
  return buffer;
}


/// Text that grows in a temporary file until it is copied to the output: a column of the JSON document, or
/// the impacts, which come after the samples. Memory stays bounded however long the run.
class Spool {
 public:
  Spool() : file_(std::tmpfile()) {
    if (!file_) throw std::runtime_error("cannot create a temporary file for the output");
  }
  ~Spool() { std::fclose(file_); }
  Spool(const Spool&) = delete;
  Spool& operator=(const Spool&) = delete;

  /// Appends `text`, preceded by `separator` unless it is the first piece.
  void append(const std::string& text, const char* separator = "") {
    if (!empty_) std::fputs(separator, file_);
    std::fwrite(text.data(), 1, text.size(), file_);
    empty_ = false;
  }
  bool empty() const { return empty_; }
  void copy_to(std::ostream& out) {
    std::rewind(file_);
    char buffer[1 << 16];
    std::size_t read = 0;
    while ((read = std::fread(buffer, 1, sizeof buffer, file_)) > 0) out.write(buffer, static_cast<std::streamsize>(read));
  }

 private:
  std::FILE* file_;
  bool empty_ = true;
};

/// The options that shape the output.
struct Output {
  bool json = true;
  bool impacts_only = false;
  /// --no-projection-scalars: the impacts without the scalars of their projections (a CSV has none).
  SummaryScalars scalars = SummaryScalars::Included;
  std::optional<double> max_seconds;
};

/// What every writer shares: the wall-clock limit, and flushing as the run goes so that output shows.
class StreamingSink : public SampleSink {
 public:
  StreamingSink(std::ostream& out, std::optional<double> max_seconds) : out_(out), max_seconds_(max_seconds) {}
  bool stop() override {
    const double elapsed = seconds_since(start_);
    if (elapsed - last_flush_ > 0.25) {
      out_.flush();
      last_flush_ = elapsed;
    }
    return max_seconds_ && elapsed >= *max_seconds_;
  }

 protected:
  static double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  std::ostream& out_;

 private:
  std::optional<double> max_seconds_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  double last_flush_ = 0.0;
};

/// The impact as one element of the document's "impacts" array (two levels deep, as format_json lays out).
std::string impact_element(const ImpactRecord& record, SummaryScalars scalars) {
  const std::string text = format_json(impact_record_summary_to_json(record, scalars));
  std::string out = "    ";
  for (char c : text) {
    out += c;
    if (c == '\n') out += "    ";
  }
  return out;
}

/// The JSON document of simulate_to_json, written as the run goes: the header and t straight to the
/// output, the other columns and the impacts through spools, the whole laid out as format_json lays out
/// the document (a complete run writes exactly format_json(simulate_to_json(...))).
class JsonWriter : public StreamingSink {
 public:
  JsonWriter(std::ostream& out, std::optional<double> max_seconds, const Json& header, bool impacts_only,
             SummaryScalars scalars)
      : StreamingSink(out, max_seconds), impacts_only_(impacts_only), scalars_(scalars) {
    // The header object without its closing brace.
    const std::string text = format_json(header);
    out_ << text.substr(0, text.size() - 2) << ",\n";
    if (impacts_only_) {
      out_ << "  \"impacts\": [";
    } else {
      out_ << "  \"t\": [";
    }
  }
  void sample(const Simulator& sim) override {
    if (impacts_only_) return;
    out_ << (samples_++ > 0 ? "," : "") << json_number(sim.time());
    q_.append("    [" + json_numbers_joined(sim.positions()) + "]", ",\n");
    qd_.append("    [" + json_numbers_joined(sim.velocities()) + "]", ",\n");
    const Energy energy = sim.energy();
    kinetic_.append(json_number(energy.kinetic), ",");
    potential_.append(json_number(energy.potential), ",");
    total_.append(json_number(energy.total), ",");
    violation_.append(json_number(sim.constraint_violation()), ",");
  }
  void impact(const ImpactRecord& record) override {
    if (impacts_only_) {
      out_ << (written_impacts_++ > 0 ? ",\n" : "\n") << impact_element(record, scalars_);
    } else {
      impacts_.append(impact_element(record, scalars_), ",\n");
    }
  }
  /// Closes the document; `error` (a run that failed) is written as a key of its own.
  void finish(bool complete, const std::string& error = "") {
    if (!impacts_only_) {
      out_ << "],\n  \"q\": [\n";
      q_.copy_to(out_);
      out_ << "\n  ],\n  \"qd\": [\n";
      qd_.copy_to(out_);
      out_ << "\n  ],\n  \"energy\": {\n    \"kinetic\": [";
      kinetic_.copy_to(out_);
      out_ << "],\n    \"potential\": [";
      potential_.copy_to(out_);
      out_ << "],\n    \"total\": [";
      total_.copy_to(out_);
      out_ << "]\n  },\n  \"violation\": [";
      violation_.copy_to(out_);
      out_ << "],\n  \"impacts\": ";
      if (impacts_.empty()) {
        out_ << "[]";
      } else {
        out_ << "[\n";
        impacts_.copy_to(out_);
        out_ << "\n  ]";
      }
    } else {
      out_ << (written_impacts_ > 0 ? "\n  ]" : "]");
    }
    out_ << ",\n  \"complete\": " << (complete ? "true" : "false");
    if (!error.empty()) out_ << ",\n  \"error\": " << Json(error).dump();
    out_ << "\n}\n";
  }

 private:
  bool impacts_only_;
  SummaryScalars scalars_;
  long samples_ = 0;
  long written_impacts_ = 0;  // with --impacts-only, straight to the output
  Spool q_, qd_, kinetic_, potential_, total_, violation_;
  Spool impacts_;
};

/// The CSV of a run (simulation_csv.hpp), rows as they come; the impact rows of a CSV with samples wait in
/// a temporary file until the samples end.
class CsvWriter : public StreamingSink, private CsvOutput {
 public:
  CsvWriter(std::ostream& out, std::optional<double> max_seconds, const Scenario& scenario, bool impacts_only)
      : StreamingSink(out, max_seconds), csv_(scenario, impacts_only, *this) {}
  void sample(const Simulator& sim) override { csv_.sample(sim); }
  void impact(const ImpactRecord& record) override { csv_.impact(record); }
  void finish() { csv_.finish(); }

 private:
  void write(const std::string& text) override { out_ << text; }
  void hold(const std::string& row) override { impacts_.append(row); }
  void write_held() override { impacts_.copy_to(out_); }

  Spool impacts_;
  SimulationCsv csv_;  // last: it writes its header through the members above
};

}  // namespace

int run_simulate(const Args& args, std::istream& in, std::ostream& out, std::ostream& err) {
  std::string path;
  std::optional<double> duration;
  double sample = 0.01;
  Output output;
  try {
    // Arguments: FILE and options, "--name value" or "--name=value".
    for (std::size_t i = 0; i < args.size(); ++i) {
      std::string arg = args[i];
      if (arg == "-h" || arg == "--help") {
        out << kSimulateHelp;
        return 0;
      }
      if (arg == "--impacts-only") {
        output.impacts_only = true;
        continue;
      }
      if (arg == "--no-projection-scalars") {
        output.scalars = SummaryScalars::Omitted;
        continue;
      }
      if (arg.rfind("--", 0) == 0) {
        std::string value;
        const std::size_t equals = arg.find('=');
        if (equals != std::string::npos) {
          value = arg.substr(equals + 1);
          arg = arg.substr(0, equals);
        } else if (arg == "--duration" || arg == "--sample" || arg == "--format" || arg == "--max-seconds") {
          if (i + 1 >= args.size()) throw std::invalid_argument(arg + ": missing value");
          value = args[++i];
        }
        if (arg == "--duration") {
          duration = seconds(arg, value);
        } else if (arg == "--sample") {
          sample = seconds(arg, value);
        } else if (arg == "--max-seconds") {
          output.max_seconds = seconds(arg, value);
          if (!(*output.max_seconds > 0.0)) {
            throw std::invalid_argument("--max-seconds: must be a positive number of seconds, got \"" + value + "\"");
          }
        } else if (arg == "--format") {
          if (value != "json" && value != "csv") {
            throw std::invalid_argument("--format: must be json or csv, got \"" + value + "\"");
          }
          output.json = value == "json";
        } else {
          throw std::invalid_argument(arg + ": unknown option (see oblique simulate --help)");
        }
        continue;
      }
      if (!path.empty()) throw std::invalid_argument("SCENARIO: expected one file, got " + path + " and " + arg);
      path = arg;
    }
    if (path.empty()) throw std::invalid_argument("SCENARIO: missing (a scenario file, or - for standard input)");
  } catch (const std::invalid_argument& e) {
    err << "oblique simulate: " << e.what() << "\n";
    return 2;
  }

  // Read, validate and set up the run: anything wrong is reported before a byte is written.
  std::optional<Scenario> scenario;
  std::optional<Simulator> sim;
  double run_duration = 0.0;
  try {
    const std::string source = path == "-" ? "scenario" : path;
    scenario = parse_scenario(parse_json(read_input(path, in), source));
    run_duration = duration.value_or(scenario->duration);
    check_sampling(run_duration, sample);
    sim.emplace(*scenario);
  } catch (const std::invalid_argument& e) {
    err << "oblique simulate: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    err << "oblique simulate: " << e.what() << "\n";
    return 1;
  }

  // Run, writing as it goes; the document is closed whatever happens.
  std::optional<JsonWriter> json;
  std::optional<CsvWriter> csv;
  SampleSink* sink = nullptr;
  if (output.json) {
    Json header = simulation_header_json(*scenario, run_duration, sample);
    if (output.impacts_only) {
      Json short_header;
      short_header["title"] = header["title"];
      short_header["bodies"] = header["bodies"];
      header = std::move(short_header);
    }
    sink = &json.emplace(out, output.max_seconds, header, output.impacts_only, output.scalars);
  } else {
    sink = &csv.emplace(out, output.max_seconds, *scenario, output.impacts_only);
  }
  auto finish = [&](bool complete, const std::string& error) {
    if (json) json->finish(complete, error);
    if (csv) csv->finish();
    out.flush();
  };
  SampledRunEnd end;
  try {
    end = run_sampled(*sim, run_duration, sample, *sink);
  } catch (const std::exception& e) {
    finish(false, e.what());
    err << "oblique simulate: " << e.what() << "\n";
    return 1;
  }
  finish(end.complete, "");
  if (!end.complete) {
    err << "oblique simulate: stopped by --max-seconds " << plain(*output.max_seconds) << " (wall clock) at t = "
        << plain(end.time) << " s of " << plain(run_duration) << " s; the output holds the samples up to there"
        << "\n";
    return 3;
  }
  return 0;
}

}  // namespace oblique::cli
