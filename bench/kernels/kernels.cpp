#include "kernels.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <stdexcept>

#include <Eigen/Cholesky>

#include "oblique/math/dynamics.hpp"
#include "oblique/math/impact.hpp"
#include "oblique/io/scenario_json.hpp"
#include "oblique/simulation/simulator.hpp"
#include "oblique/sparse/sparse_dynamics.hpp"
#include "scene_families.hpp"
#include "scene_system.hpp"

namespace oblique::bench {

namespace {

/// A fixed random mechanism of n coordinates with m impacting constraint rows.
struct System {
  Matrix inertia;
  Matrix jacobian;
  Vector velocity;
};

System make_system(int n, int m, unsigned seed) {
  std::mt19937 engine(seed);
  std::normal_distribution<double> normal;
  System s;
  Matrix b(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) b(i, j) = normal(engine);
  s.inertia = symmetric_part(b * b.transpose() + 0.05 * n * Matrix::Identity(n, n));
  s.jacobian = Matrix(m, n);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) s.jacobian(i, j) = normal(engine);
  s.velocity = Vector(n);
  for (int i = 0; i < n; ++i) s.velocity(i) = normal(engine);
  return s;
}

/// The projection method: build P, Mc, S, R and solve the impact (what the simulator does per impact).
double projection_impact(const System& s, int iterations) {
  double checksum = 0.0;
  for (int k = 0; k < iterations; ++k) {
    const Projection proj(s.inertia, s.jacobian);
    checksum += solve_impact(proj, s.velocity, Restitution::uniform(0.5)).qd_plus(0);
  }
  return checksum;
}

/// The classical Schur-complement solve q̇⁺ = q̇⁻ − (1 + e)M⁻¹Aᵀ(AM⁻¹Aᵀ)⁻¹Aq̇⁻ (full row rank only).
double classical_impact(const System& s, int iterations) {
  double checksum = 0.0;
  for (int k = 0; k < iterations; ++k) {
    const Eigen::LLT<Matrix> inertia_llt(s.inertia);
    const Matrix m_inv_at = inertia_llt.solve(s.jacobian.transpose());
    const Matrix schur = s.jacobian * m_inv_at;
    const Vector jump = m_inv_at * schur.llt().solve(s.jacobian * s.velocity);
    checksum += (s.velocity - 1.5 * jump)(0);
  }
  return checksum;
}

/// The operators alone (no impact): the cost the smooth phases pay per derivative evaluation.
double projection_only(const System& s, int iterations) {
  double checksum = 0.0;
  for (int k = 0; k < iterations; ++k) checksum += Projection(s.inertia, s.jacobian).oblique_projector()(0, 0);
  return checksum;
}

double worst_advance_ms = 0.0;
std::size_t impact_count = 0;
double simulated_seconds = 0.0;

/// Process CPU seconds so far (all threads).
double process_cpu_seconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

/// Advances `simulator` to `until` in frames of 1/60 s as the page asks for them (the first frame the one
/// after its time), each in calls bounded by the work budget (the trajectory does not depend on the call
/// lengths); returns the longest call in wall-clock milliseconds.
double advance_in_frames(Simulator& simulator, double until) {
  double worst = 0.0;
  const int first_frame = static_cast<int>(std::floor(simulator.time() * 60.0 + 1e-9)) + 1;
  for (int frame = first_frame; simulator.time() < until; ++frame) {
    // One frame of 1/60 s, in as many calls as its work budget takes (each call is timed).
    const double target = std::min(until, frame / 60.0);
    do {
      const auto start = std::chrono::steady_clock::now();
      simulator.advance_to(target);
      const std::chrono::duration<double, std::milli> spent = std::chrono::steady_clock::now() - start;
      worst = std::max(worst, spent.count());
    } while (simulator.work_limit_hit());
  }
  return worst;
}

/// `seconds` of simulated time of a scenario from its initial state, in frames of 1/60 s (advance_in_frames);
/// records the longest call and the impacts logged.
double simulate_in_frames(const Scenario& scenario, double seconds, int iterations) {
  double checksum = 0.0;
  for (int k = 0; k < iterations; ++k) {
    Simulator simulator(scenario);
    worst_advance_ms = advance_in_frames(simulator, seconds);
    impact_count = simulator.dropped_impacts() + simulator.impacts().size();
    simulated_seconds = simulator.time();
    checksum += simulator.positions()(0) + static_cast<double>(simulator.impacts().size());
  }
  return checksum;
}

/// Flops of a call of a capped uninterrupted run: about a tenth of a second natively, so that its CPU cap
/// can stop it between calls (the trajectory does not depend on the call lengths).
constexpr double kCappedBudget = 1e9;

/// A whole run (add_whole_run_kernel): frames of 1/60 s from the start to `seconds`, each in one call (an
/// unbounded budget) or in calls of the default budget, until the process has spent `cpu_cap` seconds
/// (checked between calls).
double whole_run(const Scenario& scenario, double seconds, double cpu_cap, bool page_budget) {
  const double start = process_cpu_seconds();
  Simulator simulator(scenario);
  if (!page_budget) simulator.set_work_budget(cpu_cap > 0.0 ? kCappedBudget : 1e30);
  double worst = 0.0;
  bool stopped = false;
  for (int frame = 1; simulator.time() < seconds && !stopped; ++frame) {
    const double target = std::min(seconds, frame / 60.0);
    do {
      const auto call = std::chrono::steady_clock::now();
      simulator.advance_to(target);
      const std::chrono::duration<double, std::milli> spent = std::chrono::steady_clock::now() - call;
      worst = std::max(worst, spent.count());
      stopped = cpu_cap > 0.0 && process_cpu_seconds() - start >= cpu_cap;
    } while (simulator.work_limit_hit() && !stopped);
  }
  worst_advance_ms = worst;
  impact_count = simulator.dropped_impacts() + simulator.impacts().size();
  simulated_seconds = simulator.time();
  return simulator.positions()(0) + static_cast<double>(impact_count);
}

/// The same from a saved state to `until`, on one simulator kept between runs (restore_state puts it back
/// bit for bit, its log cut back to the state's): records the longest call and the impacts of the window.
double simulate_window(Simulator& simulator, const SimulationState& start, double until, int iterations) {
  double checksum = 0.0;
  for (int k = 0; k < iterations; ++k) {
    simulator.restore_state(start);
    worst_advance_ms = advance_in_frames(simulator, until);
    impact_count = simulator.dropped_impacts() + simulator.impacts().size() - start.impact_count;
    simulated_seconds = simulator.time();
    checksum += simulator.positions()(0) + static_cast<double>(simulator.impacts().size());
  }
  return checksum;
}

/// The latest state saved for a window of each family scene (by kernel suffix), so that windows added in
/// increasing start times share one run from the initial state.
std::map<std::string, SimulationState>& window_starts() {
  static std::map<std::string, SimulationState> starts;
  return starts;
}

/// The state of `scenario` at t = `from`, reached in frames of 1/60 s as the page asks for them, from the
/// latest saved state of the same scene that is not later (restoring it gives the bits of the run it was
/// saved from), else from the initial state.
SimulationState state_at(const Scenario& scenario, const std::string& suffix, double from) {
  Simulator simulator(scenario);
  const auto saved = window_starts().find(suffix);
  if (saved != window_starts().end() && saved->second.shown_time <= from) simulator.restore_state(saved->second);
  advance_in_frames(simulator, from);
  return window_starts()[suffix] = simulator.save_state();
}

/// The system of one scene with every row active, and what each solver keeps between calls.
struct FamilySystem {
  scenes::ConstraintSystem system;
  Inertia inertia;           // M, checked and factorised once, as the simulator holds it
  Vector restitution;        // per row: 0 for joints, the scene's e for contact rows
  DelassusFactorization delassus;  // its symbolic analysis survives from call to call
  SparseRowsBuilder builder;

  explicit FamilySystem(const Scenario& scenario)
      : system(scenes::every_row_active(scenario)), inertia(Matrix(system.masses.asDiagonal())) {
    const int joints = static_cast<int>(system.jacobian.rows()) - Model(scenario).contact_point_count();
    restitution = Vector::Constant(system.jacobian.rows(), scenario.restitution);
    restitution.head(joints).setZero();
  }

  /// A assembled row by row into compressed rows, as a model writing its rows would, then factorised.
  const DelassusFactorization& factorize() {
    const SparseJacobian& a = system.sparse;
    builder.start(static_cast<int>(a.cols()));
    for (int i = 0; i < a.outerSize(); ++i) {
      builder.new_row();
      for (SparseJacobian::InnerIterator it(a, i); it; ++it) builder.add(static_cast<int>(it.col()), it.value());
    }
    delassus.factorize(builder.finish(), system.masses);
    return delassus;
  }
};

/// The rows as the simulator writes them today: φ, A and Ȧq̇ of every joint and contact point into a dense
/// m×n ConstraintRows (zeroed, then written row by row).
double assemble_dense(const Scenario& scenario, int iterations) {
  static thread_local ConstraintRows rows;
  const Model model(scenario);
  const Vector q = model.initial_positions(), qd = model.initial_velocities();
  double checksum = 0.0;
  for (int k = 0; k < iterations; ++k) {
    rows.resize(model.joint_row_total() + model.contact_point_count(), model.dofs());
    model.all_joint_rows(q, qd, 0, rows);
    for (int point = 0; point < model.contact_point_count(); ++point) {
      model.contact_normal_row(point, q, qd, model.joint_row_total() + point, rows);
    }
    checksum += rows.adot_qd.sum();
  }
  return checksum;
}

double smooth_dense(FamilySystem& f, int iterations) {
  double checksum = 0.0;
  for (int k = 0; k < iterations; ++k) {
    const Matrix jacobian = f.system.jacobian;  // the simulator refills its dense rows at every evaluation
    const Projection proj(f.inertia, jacobian);
    checksum += constrained_dynamics(proj, f.system.bias, f.system.applied, f.system.adot_qd).qdd(0);
  }
  return checksum;
}

double smooth_sparse(FamilySystem& f, int iterations) {
  double checksum = 0.0;
  for (int k = 0; k < iterations; ++k) {
    checksum += constrained_dynamics_sparse(f.factorize(), f.system.bias, f.system.applied, f.system.adot_qd).qdd(0);
  }
  return checksum;
}

double impact_dense(FamilySystem& f, int iterations) {
  double checksum = 0.0;
  for (int k = 0; k < iterations; ++k) {
    const Matrix jacobian = f.system.jacobian;
    const Projection proj(f.inertia, jacobian);
    checksum += solve_impact(proj, f.system.velocity, Restitution::rows(f.restitution)).energy_ratio;
  }
  return checksum;
}

double impact_sparse(FamilySystem& f, int iterations) {
  double checksum = 0.0;
  for (int k = 0; k < iterations; ++k) {
    checksum += solve_impact_sparse(f.factorize(), f.system.velocity, Restitution::rows(f.restitution)).energy_ratio;
  }
  return checksum;
}

double impact_classical(FamilySystem& f, int iterations) {
  double checksum = 0.0;
  const Matrix& a = f.system.jacobian;
  const Vector inverse_mass = f.system.masses.cwiseInverse();
  for (int k = 0; k < iterations; ++k) {
    // q̇⁺ = q̇⁻ − M⁻¹Aᵀ K⁻¹ (I + E) A q̇⁻ with K = AM⁻¹Aᵀ (pivoted LDLᵀ: the chain's K is singular).
    const Matrix m_inv_at = inverse_mass.asDiagonal() * a.transpose();
    const Matrix schur = a * m_inv_at;
    const Vector approach = a * f.system.velocity;
    const Vector jump = m_inv_at * schur.ldlt().solve(approach + f.restitution.cwiseProduct(approach));
    checksum += (f.system.velocity - jump)(0);
  }
  return checksum;
}

using Kernel = std::function<double(int)>;

std::vector<std::pair<std::string, Kernel>>& kernels() {
  static const System small = make_system(6, 2, 1);
  static const System medium = make_system(24, 8, 2);
  static const System large = make_system(60, 20, 3);
  static std::vector<std::pair<std::string, Kernel>> all = {
      {"projection_impact_n6", [](int it) { return projection_impact(small, it); }},
      {"classical_impact_n6", [](int it) { return classical_impact(small, it); }},
      {"projection_impact_n24", [](int it) { return projection_impact(medium, it); }},
      {"classical_impact_n24", [](int it) { return classical_impact(medium, it); }},
      {"projection_impact_n60", [](int it) { return projection_impact(large, it); }},
      {"classical_impact_n60", [](int it) { return classical_impact(large, it); }},
      {"projection_only_n24", [](int it) { return projection_only(medium, it); }},
  };
  return all;
}

}  // namespace

void add_scenario_kernel(const std::string& name, const std::string& json_text) {
  const Scenario scenario = parse_scenario(parse_json(json_text, name));
  kernels().emplace_back("simulate_" + name, [scenario](int it) { return simulate_in_frames(scenario, 1.0, it); });
}

void add_family_kernels(const std::vector<int>& sizes, double seconds) {
  if (!(seconds > 0.0)) throw std::invalid_argument("seconds: must be positive");
  for (scenes::Family family : scenes::all_families()) {
    for (int bodies : sizes) {
      const Scenario scenario = scenes::make_scene(family, bodies);
      const std::string suffix = std::string(scenes::name(family)) + "_n" + std::to_string(bodies);
      auto system = std::make_shared<FamilySystem>(scenario);
      kernels().emplace_back("sim_" + suffix, [scenario, seconds](int it) { return simulate_in_frames(scenario, seconds, it); });
      kernels().emplace_back("assemble_dense_" + suffix, [scenario](int it) { return assemble_dense(scenario, it); });
      kernels().emplace_back("smooth_dense_" + suffix, [system](int it) { return smooth_dense(*system, it); });
      kernels().emplace_back("smooth_sparse_" + suffix, [system](int it) { return smooth_sparse(*system, it); });
      kernels().emplace_back("impact_dense_" + suffix, [system](int it) { return impact_dense(*system, it); });
      kernels().emplace_back("impact_sparse_" + suffix, [system](int it) { return impact_sparse(*system, it); });
      kernels().emplace_back("impact_classical_" + suffix, [system](int it) { return impact_classical(*system, it); });
    }
  }
}

void add_family_window_kernels(const std::string& label, const std::vector<int>& sizes, double from, double until) {
  if (label.empty() || label.find_first_not_of("abcdefghijklmnopqrstuvwxyz") != std::string::npos) {
    throw std::invalid_argument("label: must be lower-case letters, got \"" + label + "\"");
  }
  if (!(from >= 0.0) || !std::isfinite(from)) throw std::invalid_argument("from: must be a finite time ≥ 0");
  if (!(until > from) || !std::isfinite(until)) throw std::invalid_argument("until: must be a finite time after from");
  for (scenes::Family family : scenes::all_families()) {
    for (int bodies : sizes) {
      const Scenario scenario = scenes::make_scene(family, bodies);
      const std::string suffix = std::string(scenes::name(family)) + "_n" + std::to_string(bodies);
      // The start, reached once here (not timed), and the simulator the runs restore it into.
      const SimulationState start = state_at(scenario, suffix, from);
      auto simulator = std::make_shared<Simulator>(scenario);
      kernels().emplace_back("sim_" + suffix + "_" + label, [simulator, start, until](int it) {
        return simulate_window(*simulator, start, until, it);
      });
    }
  }
}

void add_whole_run_kernel(const std::string& family, int bodies, double seconds, double cpu_cap_seconds, bool page_budget) {
  const Scenario scenario = scenes::make_scene(scenes::family_from_name(family), bodies);
  if (!(seconds > 0.0) || !std::isfinite(seconds)) throw std::invalid_argument("seconds: must be a finite positive time");
  if (!(cpu_cap_seconds >= 0.0) || !std::isfinite(cpu_cap_seconds)) {
    throw std::invalid_argument("cpu_cap_seconds: must be a finite time ≥ 0 (0: no cap)");
  }
  const std::string name = std::string(page_budget ? "page_" : "whole_") + family + "_n" + std::to_string(bodies);
  kernels().emplace_back(name, [scenario, seconds, cpu_cap_seconds, page_budget](int it) {
    double checksum = 0.0;
    for (int k = 0; k < it; ++k) checksum += whole_run(scenario, seconds, cpu_cap_seconds, page_budget);
    return checksum;
  });
}

double last_simulated_seconds() { return simulated_seconds; }

double last_worst_advance_ms() { return worst_advance_ms; }

double worst_advance_ms_over_run(const std::string& json_text, double seconds) {
  const Scenario scenario = parse_scenario(parse_json(json_text, "scenario"));
  simulate_in_frames(scenario, seconds > 0.0 ? seconds : scenario.duration, 1);
  return worst_advance_ms;
}

int last_impact_count() { return static_cast<int>(impact_count); }

std::string sparse_fingerprint(const std::vector<int>& sizes) {
  std::uint64_t hash = 14695981039346656037ull;
  auto mix = [&hash](const Vector& values) {
    for (Eigen::Index i = 0; i < values.size(); ++i) {
      std::uint64_t bits;
      const double value = values(i);
      std::memcpy(&bits, &value, sizeof bits);
      for (int byte = 0; byte < 8; ++byte) {
        hash ^= (bits >> (8 * byte)) & 0xffu;
        hash *= 1099511628211ull;
      }
    }
  };
  for (scenes::Family family : scenes::all_families()) {
    for (int bodies : sizes) {
      FamilySystem f(scenes::make_scene(family, bodies));
      const DelassusFactorization& k = f.factorize();
      const SparseDynamics d = constrained_dynamics_sparse(k, f.system.bias, f.system.applied, f.system.adot_qd);
      mix(d.qdd);
      mix(d.force);
      mix(d.multipliers);
      mix(project_velocity_sparse(k, f.system.velocity));
      const ImpactResult r = solve_impact_sparse(k, f.system.velocity, Restitution::rows(f.restitution));
      mix(r.qd_plus);
      mix(r.impulse_multipliers);
      mix(Vector::Constant(1, r.energy_ratio));
    }
  }
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
  return text;
}

std::vector<std::string> kernel_names() {
  std::vector<std::string> names;
  for (const auto& [name, kernel] : kernels()) names.push_back(name);
  return names;
}

double run_kernel(const std::string& name, int iterations) {
  for (const auto& [kernel_name, kernel] : kernels()) {
    if (kernel_name == name) return kernel(iterations);
  }
  throw std::invalid_argument("kernel: unknown name " + name);
}

}  // namespace oblique::bench
