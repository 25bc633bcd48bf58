#include "oblique/io/simulation_csv.hpp"

#include "oblique/io/json_io.hpp"
#include "oblique/io/simulation_json.hpp"

namespace oblique {

namespace {

/// A number as JSON writes it (shortest round-trip form).

/// A number as a CSV cell: as JSON writes it, empty for null (γ when K⁻ = 0).
std::string cell(const Json& value) { return value.is_null() ? std::string() : value.dump(); }

/// The numbers of a JSON array, space-separated (one CSV cell).
std::string list_cell(const Json& array) {
  std::string text;
  for (const Json& item : array) {
    if (!text.empty()) text += ' ';
    text += cell(item);
  }
  return text;
}


/// The header of the impacts table, for `dofs` coordinates.
std::string impacts_header(int dofs) {
  std::string text = "t,contacts,gamma,W_loss,K_minus,K_plus";
  for (int i = 0; i < dofs; ++i) text += ",qd_minus[" + std::to_string(i) + "]";
  for (int i = 0; i < dofs; ++i) text += ",qd_plus[" + std::to_string(i) + "]";
  return text + ",i_lambda,tensile_impulse,approach_after_impact,energy_gain\n";
}

/// The header of the samples table: t, then q and q̇ named by body (body<k> for a body without a name),
/// the energies, the violation.
std::string samples_header(const Scenario& scenario) {
  std::string text = "t";
  for (const bool velocity : {false, true}) {
    for (std::size_t b = 0; b < scenario.bodies.size(); ++b) {
      std::string name = scenario.bodies[b].name;
      if (name.empty()) name = "body" + std::to_string(b);
      text += velocity ? "," + name + ".vx," + name + ".vy," + name + ".omega"
                       : "," + name + ".x," + name + ".y," + name + ".theta";
    }
  }
  return text + ",kinetic,potential,total,violation\n";
}

}  // namespace

SimulationCsv::SimulationCsv(const Scenario& scenario, bool impacts_only, CsvOutput& output)
    : impacts_only_(impacts_only), dofs_(3 * static_cast<int>(scenario.bodies.size())), output_(output) {
  output_.write(impacts_only_ ? impacts_header(dofs_) : samples_header(scenario));
}

void SimulationCsv::sample(const Simulator& sim) {
  if (impacts_only_) return;
  const Energy energy = sim.energy();
  output_.write(json_number(sim.time()) + "," + json_numbers_joined(sim.positions()) + "," +
                json_numbers_joined(sim.velocities()) + "," + json_number(energy.kinetic) + "," +
                json_number(energy.potential) + "," + json_number(energy.total) + "," +
                json_number(sim.constraint_violation()) + "\n");
}

void SimulationCsv::impact(const ImpactRecord& record) {
  // No column shows the projections' scalars: they are not computed (O(n³) per impact).
  const Json impact = impact_record_summary_to_json(record, SummaryScalars::Omitted);
  std::string row = cell(impact["t"]) + "," + list_cell(impact["contacts"]) + "," + cell(impact["gamma"]) + "," +
                    cell(impact["W_loss"]) + "," + cell(impact["K_minus"]) + "," + cell(impact["K_plus"]);
  for (const Json& x : impact["qd_minus"]) row += "," + cell(x);
  for (const Json& x : impact["qd_plus"]) row += "," + cell(x);
  const Json& flags = impact["flags"];
  row += "," + list_cell(impact["i_lambda"]) + "," + list_cell(flags["tensile_impulse"]) + "," +
         list_cell(flags["approach_after_impact"]) + "," + (flags["energy_gain"].get<bool>() ? "true" : "false") +
         "\n";
  if (impacts_only_) {
    output_.write(row);
  } else {
    output_.hold(row);
  }
}

void SimulationCsv::finish() {
  if (impacts_only_) return;
  output_.write("\n" + impacts_header(dofs_));
  output_.write_held();
}

}  // namespace oblique
