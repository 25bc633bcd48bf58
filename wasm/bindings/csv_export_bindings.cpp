// embind: the CSV of `oblique simulate --format csv` for the page's export and the JS API, written by the
// core's own writer (simulation_csv.hpp) over a sampled run (sampled_run.hpp), so that it is the CLI's CSV
// byte for byte. The run is taken a piece at a time (one advance call each, within the simulator's work
// budget) and its text handed over as it grows, so that a worker stays responsive and wasm memory holds only
// what was not taken yet. A failed call returns a neutral value and leaves its message for takeError().
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "binding_support.hpp"
#include "oblique/simulation/sampled_run.hpp"
#include "oblique/io/scenario_json.hpp"
#include "oblique/io/simulation_csv.hpp"

namespace {

using oblique::bindings::guarded;

/// The CSV in memory: the text not yet taken, and the impact rows held until the samples end.
class MemoryCsvOutput : public oblique::CsvOutput {
 public:
  void write(const std::string& text) override { text_ += text; }
  void hold(const std::string& row) override { held_ += row; }
  void write_held() override {
    text_ += held_;
    held_.clear();
    held_.shrink_to_fit();
  }
  /// The text written since the last call.
  std::string take() { return std::exchange(text_, std::string()); }

 private:
  std::string text_;
  std::string held_;
};

class CsvExportHandle {
 public:
  /// The export of a scenario document run for `duration` seconds (null: the scenario's own) sampled every
  /// `sample` seconds, or null with the message left for takeError() ("/bodies/0/mass: ...", "duration:
  /// ...", "sample: ..."): the checks and messages of `oblique simulate`.
  static std::unique_ptr<CsvExportHandle> create(const std::string& scenario_json, emscripten::val duration,
                                                 double sample, bool impacts_only) {
    return guarded(
        [&] {
          oblique::Scenario scenario = oblique::parse_scenario(oblique::parse_json(scenario_json, "scenario"));
          double run_duration = scenario.duration;
          if (!duration.isNull() && !duration.isUndefined()) {
            if (!duration.isNumber()) throw std::invalid_argument("duration: must be a number of seconds or null");
            run_duration = duration.as<double>();
          }
          oblique::check_sampling(run_duration, sample);
          return std::unique_ptr<CsvExportHandle>(
              new CsvExportHandle(std::move(scenario), run_duration, sample, impacts_only));
        },
        std::unique_ptr<CsvExportHandle>());
  }

  /// One piece of the run (SampledRun::step); once every sample is taken, the end of the document.
  void step() {
    oblique::bindings::guarded_void([&] {
      run_.step(csv_);
      if (run_.done()) csv_.finish();
    });
  }
  bool done() const { return run_.done(); }
  double duration() const { return duration_; }
  double sample_time() const { return run_.sample_time(); }
  double samples() const { return static_cast<double>(run_.samples()); }
  double impacts() const { return static_cast<double>(sim_.dropped_impacts() + sim_.impacts().size()); }
  /// The CSV text written since the last call.
  std::string take_text() { return output_.take(); }

 private:
  CsvExportHandle(oblique::Scenario scenario, double duration, double sample, bool impacts_only)
      : sim_(std::move(scenario)),
        duration_(duration),
        csv_(sim_.scenario(), impacts_only, output_),
        run_(sim_, duration, sample) {}

  oblique::Simulator sim_;
  double duration_;
  MemoryCsvOutput output_;
  oblique::SimulationCsv csv_;
  oblique::SampledRun run_;
};

}  // namespace

EMSCRIPTEN_BINDINGS(oblique_csv_export) {
  emscripten::function("createCsvExport", &CsvExportHandle::create);
  emscripten::class_<CsvExportHandle>("CsvExportHandle")
      .function("step", &CsvExportHandle::step)
      .function("done", &CsvExportHandle::done)
      .function("duration", &CsvExportHandle::duration)
      .function("sampleTime", &CsvExportHandle::sample_time)
      .function("samples", &CsvExportHandle::samples)
      .function("impacts", &CsvExportHandle::impacts)
      .function("takeText", &CsvExportHandle::take_text);
}
