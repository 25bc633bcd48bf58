// The CSV of a sampled run, the format of `oblique simulate --format csv`, written by one class for the
// CLI and the page's export (through the wasm binding) alike, so that both give the same bytes.
//
// Two tables: one row per sample (t, x/y/theta of each body, then vx/vy/omega of each body, kinetic,
// potential, total, violation), a blank line, then one row per impact record (t, contacts, gamma, W_loss,
// K_minus, K_plus, qd_minus[i]..., qd_plus[i]..., i_lambda, tensile_impulse, approach_after_impact,
// energy_gain). Numbers are written as JSON writes them (the shortest text that reads back to the same
// double: 1.0, 0.25, 1e-05), an empty cell for γ when K⁻ = 0, lists inside a cell space-separated. With
// impacts only, the impacts table alone.
#pragma once

#include <string>

#include "oblique/simulation/sampled_run.hpp"
#include "oblique/scenario/scenario.hpp"

namespace oblique {

/// Where the text of a SimulationCsv goes. The impact rows of a CSV with samples come after the samples
/// table, but are logged while it is written: they are held (the CLI in a temporary file, the page in
/// memory) until the samples end.
class CsvOutput {
 public:
  virtual ~CsvOutput() = default;
  /// Text of the document, in order.
  virtual void write(const std::string& text) = 0;
  /// An impact row to keep until write_held().
  virtual void hold(const std::string& row) = 0;
  /// Writes the rows held so far, in order.
  virtual void write_held() = 0;
};

/// A SampleSink that writes the CSV of the run it is handed (SampledRun, run_sampled) to a CsvOutput.
class SimulationCsv : public SampleSink {
 public:
  /// Writes the header of the first table to `output` at once. `output` must outlive this.
  SimulationCsv(const Scenario& scenario, bool impacts_only, CsvOutput& output);

  void sample(const Simulator& sim) override;
  void impact(const ImpactRecord& record) override;
  /// Ends the document: after the samples, a blank line and the impacts table (the held rows).
  void finish();

 private:
  bool impacts_only_;
  int dofs_;
  CsvOutput& output_;
};

}  // namespace oblique
