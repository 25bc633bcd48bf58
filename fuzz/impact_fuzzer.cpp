// libFuzzer target: the `oblique impact` document (analyze_impact_json), as the CLI and analyzeImpact read it.
//
// For any bytes: parse_json gives a value or throws std::invalid_argument; analyze_impact_json returns an
// output object or throws std::invalid_argument whose message starts with the field ("M[1][0]: …"). On success the output is checked with
// laws that hold for every valid input (paper §3, docs/engine-api.md):
//   - sizes: n = rows of M, m = rows of A, q̇⁺ and i_f of length n, i_λ of length m; e (or every E_i) in [0, 1];
//   - finite: q̇⁺, i_f, i_λ, K⁻, K⁺ are numbers (a NaN or an overflow is written as null);
//   - momentum balance M(q̇⁺ − q̇⁻) = i_f + i_u, to a rounding error bounded by cond(M)·cond(Mc);
//   - a global e ∈ [0, 1] without external impulse never creates kinetic energy: K⁺ ≤ K⁻.
// The rounding bounds are only asserted on well-conditioned input (cond(M)·cond(Mc) ≤ 1e8), where they are
// tight enough to mean something.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

#include <Eigen/Eigenvalues>

#include "fuzz_support.hpp"
#include "json_mutator.hpp"
#include "oblique/io/impact_io.hpp"
#include "oblique/io/json_io.hpp"
#include "oblique/io/json_reader.hpp"

using oblique::Json;
using oblique::Matrix;
using oblique::Vector;
using oblique::fuzz::require;

namespace {

/// The output's `key` as a vector of `size` finite numbers.
Vector finite_vector(const Json& out, const char* key, Eigen::Index size) {
  require(out.contains(key) && out.at(key).is_array(), std::string("output has no array ") + key);
  const Json& values = out.at(key);
  require(static_cast<Eigen::Index>(values.size()) == size,
          std::string(key) + " has " + std::to_string(values.size()) + " entries, expected " + std::to_string(size));
  Vector v(size);
  for (Eigen::Index i = 0; i < size; ++i) {
    const Json& x = values[static_cast<std::size_t>(i)];
    require(x.is_number() && std::isfinite(x.get<double>()),
            std::string(key) + "[" + std::to_string(i) + "] is " + x.dump() + ", not a finite number");
    v(i) = x.get<double>();
  }
  return v;
}

/// The output's `key` as a finite number.
double finite_number(const Json& out, const char* key) {
  require(out.contains(key) && out.at(key).is_number() && std::isfinite(out.at(key).get<double>()),
          std::string(key) + " is " + (out.contains(key) ? out.at(key).dump() : "missing") + ", not a finite number");
  return out.at(key).get<double>();
}

/// cond₂ of a symmetric positive definite matrix.
double spd_condition(const Matrix& m) {
  const Eigen::SelfAdjointEigenSolver<Matrix> eig(m, Eigen::EigenvaluesOnly);
  return eig.eigenvalues().maxCoeff() / eig.eigenvalues().minCoeff();
}

/// True when `message` starts with a field of the document ("M[1][0]: …", "iu: …", "input: …"), or names
/// an unknown one (`key: unknown field "key"…`, or `unknown field "…" in the impact document` for a key
/// that cannot be shown as a place).
bool names_a_field(const std::string& message) {
  static const char* const fields[] = {"M", "A", "qd", "e", "E", "iu", "nu", "unilateral", "mu", "pairs", "input"};
  for (const char* field : fields) {
    const std::string f = field;
    if (message.rfind(f + ": ", 0) == 0 || message.rfind(f + "[", 0) == 0) return true;
  }
  return message.rfind("unknown field \"", 0) == 0 || message.find(": unknown field \"") != std::string::npos;
}

/// One input through analyze_impact_json, and the laws its output obeys.
void analyze_impact(const std::string& text) {
  // Text to JSON, JSON to the output document: a result, or a refusal that names the field.
  Json input, out;
  try {
    input = oblique::parse_json(text, "impact");
  } catch (const std::invalid_argument&) {
    return;
  }
  try {
    out = oblique::analyze_impact_json(input);
  } catch (const std::invalid_argument& error) {
    require(names_a_field(error.what()), std::string("a refusal that names no field: ") + error.what());
    return;
  }

  // The input as the solver read it (it was accepted, so these conversions succeed).
  const Matrix mass = oblique::matrix_from_json(input.at("M"), "M");
  const Eigen::Index n = mass.rows();
  const Eigen::Index m = input.at("A").size();
  const Vector qd_minus = oblique::vector_from_json(input.at("qd"), "qd");
  const Vector iu = input.contains("iu") ? oblique::vector_from_json(input.at("iu"), "iu") : Vector::Zero(n);
  require(qd_minus.size() == n && iu.size() == n, "qd or iu accepted with a size other than n");
  const bool global = input.contains("e");
  const Vector restitution = global ? Vector::Constant(1, oblique::number_from_json(input.at("e"), "e"))
                                    : oblique::vector_from_json(input.at("E"), "E");
  require(restitution.size() == 0 || (restitution.minCoeff() >= 0.0 && restitution.maxCoeff() <= 1.0),
          "a restitution outside [0, 1] was accepted");

  // Sizes and finiteness of the output.
  require(out.at("n") == n && out.at("m") == m, "n or m differs from the input's sizes");
  const Vector qd_plus = finite_vector(out, "qd_plus", n);
  const Vector impulse = finite_vector(out, "i_f", n);
  finite_vector(out, "i_lambda", m);
  const double kinetic_minus = finite_number(out, "K_minus");
  const double kinetic_plus = finite_number(out, "K_plus");
  const double cond_mc = finite_number(out, "cond_Mc");
  require(kinetic_minus >= 0.0 && kinetic_plus >= 0.0, "a negative kinetic energy");

  // A condition number is at least 1 (to round-off).
  require(cond_mc >= 1.0 - 1e-6, "cond(Mc) = " + std::to_string(cond_mc) + " is below 1");
  // The rounding bound of the identities: n ε cond(M) cond(Mc), asserted where it is small. M is symmetric
  // to 1e-12 of its largest entry; the solver uses its symmetric part, and so does this bound.
  const double conditioning = spd_condition(0.5 * (mass + mass.transpose())) * cond_mc;
  if (!(conditioning >= 1.0 && conditioning <= 1e8)) return;
  const double tolerance = 1e3 * static_cast<double>(n) * std::numeric_limits<double>::epsilon() * conditioning;

  // Momentum balance M(q̇⁺ − q̇⁻) = i_f + i_u, relative to the size of its terms.
  // Norms that do not overflow on their way (an entry of 5e307 squared is infinite, times a zero q̇ NaN).
  const double momentum_scale = mass.stableNorm() * (qd_minus.stableNorm() + qd_plus.stableNorm()) +
                                impulse.stableNorm() + iu.stableNorm();
  const double momentum_gap = (mass * (qd_plus - qd_minus) - impulse - iu).norm();
  require(momentum_gap <= tolerance * momentum_scale + std::numeric_limits<double>::min(),
          "momentum balance off by " + std::to_string(momentum_gap) + " (scale " + std::to_string(momentum_scale) +
              ", tolerance " + std::to_string(tolerance) + ")");

  // Global e in [0, 1] without i_u: the impact dissipates (γ ≤ 1).
  if (global && iu.isZero(0.0)) {
    require(kinetic_plus <= kinetic_minus * (1.0 + tolerance) + std::numeric_limits<double>::min(),
            "a global e created energy: K⁺ = " + std::to_string(kinetic_plus) + " > K⁻ = " +
                std::to_string(kinetic_minus));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return oblique::fuzz::run_input(data, size, analyze_impact);
}

// Mostly structural mutations (json_mutator.hpp); a share of 0.3 on the bytes, for the text reader.
extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t max_size,
                                               unsigned int seed) {
  return oblique::fuzz::mutate_json(data, size, max_size, seed, 0.3);
}
