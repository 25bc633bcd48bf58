// Painlevé's check from compressed rows (painleve_check.hpp): W = A_S (M⁻¹ − M⁻¹A_Rᵀ F_R⁺ A_R M⁻¹) B_Sᵀ
// against its definition, the Schur complement K_SS − K_SR K_RR⁺ K_RS of K = A M⁻¹Bᵀ, for every kind of
// Jacobian (held rows repeated, dependent, more than the coordinates), and against the closed form of rods
// sliding on their ends, W = (1 + 3c² − 3μ c s)/m, whose sign change is Painlevé's paradox.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include <Eigen/QR>

#include "oblique/friction/contact_friction.hpp"
#include "oblique/friction/painleve_check.hpp"
#include "oblique/math/trigonometry.hpp"
#include "oblique/sparse/delassus.hpp"
#include "oblique/sparse/sparse_path.hpp"
#include "random_systems.hpp"

namespace oblique {
namespace {

using testing::JacobianKind;
using testing::RandomSystems;

/// W by its definition, densely: K = A M⁻¹Bᵀ, then the Schur complement of the sliding rows.
Matrix schur_complement_by_definition(const Vector& mass, const Matrix& a, const Matrix& tangents,
                                      const std::vector<SlidingContact>& sliding) {
  Matrix b = a;
  for (std::size_t k = 0; k < sliding.size(); ++k) {
    b.row(sliding[k].normal_row) -= sliding[k].mu * sliding[k].direction * tangents.row(static_cast<Eigen::Index>(k));
  }
  const Matrix k_matrix = a * mass.cwiseInverse().asDiagonal() * b.transpose();
  std::vector<int> s_rows, r_rows;
  for (const SlidingContact& c : sliding) s_rows.push_back(c.normal_row);
  for (int i = 0; i < a.rows(); ++i) {
    if (std::find(s_rows.begin(), s_rows.end(), i) == s_rows.end()) r_rows.push_back(i);
  }
  const auto block = [&](const std::vector<int>& rows, const std::vector<int>& cols) {
    Matrix out(rows.size(), cols.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
      for (std::size_t j = 0; j < cols.size(); ++j) out(i, j) = k_matrix(rows[i], cols[j]);
    }
    return out;
  };
  Matrix w = block(s_rows, s_rows);
  if (!r_rows.empty()) {
    w -= block(s_rows, r_rows) * Eigen::CompleteOrthogonalDecomposition<Matrix>(block(r_rows, r_rows)).solve(block(r_rows, s_rows));
  }
  return w;
}

TEST(PainleveCheck, SparseWIsTheSchurComplementOfKForEveryKindOfHeldRows) {
  // Held rows R of each kind, sliding rows S mixed in among them at random positions, μ up to 1.5 in
  // both directions: the compressed-row W is the definition's to round-off, and so is the verdict's margin
  // (sliding_friction_dynamics, the dense form).
  RandomSystems rng(20261203);
  for (JacobianKind kind : testing::all_jacobian_kinds()) {
    for (int trial = 0; trial < 6; ++trial) {
      SCOPED_TRACE(std::string(testing::name(kind)) + " trial " + std::to_string(trial));
      const int n = 12;
      const Matrix held = rng.jacobian(kind, n);
      const int sliding_count = rng.integer(1, 6);
      const int m = static_cast<int>(held.rows()) + sliding_count;
      // The rows' order: S at random positions among R.
      std::vector<int> order(static_cast<std::size_t>(m));
      std::iota(order.begin(), order.end(), 0);
      for (int i = m - 1; i > 0; --i) std::swap(order[static_cast<std::size_t>(i)], order[static_cast<std::size_t>(rng.integer(0, i))]);
      Matrix a(m, n);
      const Matrix tangents = rng.matrix(sliding_count, n);
      std::vector<SlidingContact> sliding;
      for (int i = 0; i < m; ++i) {
        const int row = order[static_cast<std::size_t>(i)];
        if (i < held.rows()) {
          a.row(row) = held.row(i);
        } else {
          a.row(row) = rng.matrix(1, n);
          sliding.push_back({i, row, rng.uniform(0.0, 1.5), rng.integer(0, 1) == 0 ? -1 : 1});
        }
      }
      const Vector mass = testing::random_masses(rng, n);
      const Matrix expected = schur_complement_by_definition(mass, a, tangents, sliding);
      const std::optional<Matrix> w = sliding_schur_complement_sparse(mass, to_sparse(a), to_sparse(tangents), sliding);
      // Nothing only where the factorisation of A_R (its rows in A's order) is not one the sparse path trusts:
      // rows a few ε·cond from dependent without lying in the span (more rows than coordinates, 2 of 6 here).
      if (!w) {
        Matrix held_in_order(m - sliding_count, n);
        for (int row = 0, i = 0; row < m; ++row) {
          if (std::none_of(sliding.begin(), sliding.end(), [&](const SlidingContact& c) { return c.normal_row == row; })) {
            held_in_order.row(i++) = a.row(row);
          }
        }
        DelassusFactorization rest;
        rest.factorize(to_sparse(held_in_order), mass);
        EXPECT_FALSE(sparse_solve_accurate(rest));
        EXPECT_EQ(kind, JacobianKind::MoreRowsThanColumns);
        continue;
      }
      EXPECT_LT((*w - expected).norm(), 1e-10 * expected.norm());
      const SlidingDynamics dense = sliding_friction_dynamics(mass, a, tangents, sliding, Vector::Zero(m), Vector::Zero(n));
      EXPECT_EQ(painleve_verdict(*w).painleve, dense.painleve);
      EXPECT_NEAR(painleve_verdict(*w).margin, dense.painleve_margin, 1e-8 * std::max(1.0, std::abs(dense.painleve_margin)));
    }
  }
}

TEST(PainleveCheck, RodsSlidingOnTheirEndsHaveTheClosedFormWAndPainleveExactlyBeyondMuStar) {
  // Twelve rods (m = 2, half-length h = ½, I = m h²/3), each tilted by its own φ with its lower end on the
  // floor, n = (0, 1, −h c), t = (1, 0, h s), sliding toward −t: W is diagonal, W_jj = (1 + 3c² − 3μ c s)/m,
  // and one rod beyond its μ* = (1 + 3c²)/(3cs) makes the whole set a Painlevé state. The rods are joined
  // in pairs by a held row (their centres' heights equal), which W sees through F_R⁺ (and which makes a pair
  // a Painlevé state well below μ*: each rod at a tenth of its μ* here).
  const int rods = 12;
  const double mass_of_rod = 2.0, h = 0.5;
  const int n = 3 * rods;
  Vector mass(n);
  Matrix a = Matrix::Zero(rods + rods / 2, n), tangents = Matrix::Zero(rods, n);
  std::vector<double> c(rods), s(rods);
  for (int j = 0; j < rods; ++j) {
    const double phi = kPi / 18.0 * (1 + 0.5 * j);
    c[j] = std::cos(phi);
    s[j] = std::sin(phi);
    mass.segment(3 * j, 3) << mass_of_rod, mass_of_rod, mass_of_rod * h * h / 3.0;
    a.block(j, 3 * j, 1, 3) << 0.0, 1.0, -h * c[j];
    tangents.block(j, 3 * j, 1, 3) << 1.0, 0.0, h * s[j];
  }
  for (int p = 0; p < rods / 2; ++p) {
    a(rods + p, 3 * (2 * p) + 1) = 1.0;
    a(rods + p, 3 * (2 * p + 1) + 1) = -1.0;
  }
  // W of the held pairs by hand: the rows y_j − y_k held, the pair's normal rows share the vertical motion.
  const auto closed_form = [&](const std::vector<double>& mu) {
    Matrix w = Matrix::Zero(rods, rods);
    for (int j = 0; j < rods; ++j) {
      const int k = j ^ 1;
      // Without the held row: 1/m + h²c(c − μ s)/I on the diagonal. Holding y_j = y_k removes the
      // difference of the two vertical motions: ½(1/m)(e_j − e_k) from each vertical column.
      w(j, j) = 1.0 / mass_of_rod + h * h * c[j] * (c[j] - mu[j] * s[j]) / (mass_of_rod * h * h / 3.0) - 0.5 / mass_of_rod;
      w(j, k) = 0.5 / mass_of_rod;
    }
    return w;
  };
  std::vector<double> mu(rods);
  std::vector<SlidingContact> sliding;
  for (int j = 0; j < rods; ++j) {
    const double mu_star = (1.0 + 3.0 * c[j] * c[j]) / (3.0 * c[j] * s[j]);
    mu[j] = 0.1 * mu_star;
    sliding.push_back({j, j, mu[j], -1});
  }
  std::optional<Matrix> w = sliding_schur_complement_sparse(mass, to_sparse(a), to_sparse(tangents), sliding);
  ASSERT_TRUE(w.has_value());
  EXPECT_LT((*w - closed_form(mu)).norm(), 1e-12 * closed_form(mu).norm());
  EXPECT_FALSE(painleve_verdict(*w).painleve);
  // Rod 5 beyond its μ*: its own W_55 turns negative.
  mu[5] = 1.5 * (1.0 + 3.0 * c[5] * c[5]) / (3.0 * c[5] * s[5]);
  sliding[5].mu = mu[5];
  w = sliding_schur_complement_sparse(mass, to_sparse(a), to_sparse(tangents), sliding);
  ASSERT_TRUE(w.has_value());
  EXPECT_LT((*w - closed_form(mu)).norm(), 1e-12 * closed_form(mu).norm());
  EXPECT_TRUE(painleve_verdict(*w).painleve);
}

}  // namespace
}  // namespace oblique
