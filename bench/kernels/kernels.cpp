#include "kernels.hpp"

#include <functional>
#include <map>
#include <random>
#include <stdexcept>

#include <Eigen/Cholesky>

#include "oblique/impact.hpp"
#include "oblique/simulator.hpp"

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

/// One second of simulated time of a scenario, from its initial state (what the page does in 60 frames).
double simulate_one_second(const Scenario& scenario, int iterations) {
  double checksum = 0.0;
  for (int k = 0; k < iterations; ++k) {
    Simulator simulator(scenario);
    do {
      simulator.advance_to(1.0);
    } while (simulator.work_limit_hit());  // a call stops at its work budget: call again
    checksum += simulator.positions()(0) + static_cast<double>(simulator.impacts().size());
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
  kernels().emplace_back("simulate_" + name, [scenario](int it) { return simulate_one_second(scenario, it); });
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
