// The non-negative split of a generalized force over the constraint rows (nonnegative_split.hpp, internal
// to the simulator): min ‖Aᵀλ − f‖ with λ_i ≥ 0 on the unilateral rows. It decides whether a statically
// indeterminate set of contacts can carry a load without any of them pulling, so it must find the optimum,
// not a split: checked against an enumeration of every support on small random systems.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/LU>
#include <Eigen/QR>

#include "json_files.hpp"
#include "simulation/nonnegative_split.hpp"
#include "random_systems.hpp"

namespace oblique {
namespace {

/// min ‖Aᵀλ − f‖ over λ with λ_i ≥ 0 on the unilateral rows, by enumeration: an optimum exists whose
/// support has independent columns of Aᵀ (moving along a null vector of a dependent support zeroes an
/// entry without changing Aᵀλ), and there it is the support's unique least-squares solution.
double optimal_residual(const Matrix& a, const Vector& f, const std::vector<bool>& unilateral) {
  const int m = static_cast<int>(a.rows());
  double best = f.norm();  // the empty support
  for (int subset = 1; subset < (1 << m); ++subset) {
    std::vector<int> rows;
    for (int i = 0; i < m; ++i) {
      if (subset & (1 << i)) rows.push_back(i);
    }
    Matrix columns(a.cols(), static_cast<Eigen::Index>(rows.size()));
    for (std::size_t j = 0; j < rows.size(); ++j) columns.col(static_cast<Eigen::Index>(j)) = a.row(rows[j]).transpose();
    if (Eigen::FullPivLU<Matrix>(columns).rank() < static_cast<Eigen::Index>(rows.size())) continue;
    const Vector x = Eigen::ColPivHouseholderQR<Matrix>(columns).solve(f);
    bool feasible = true;
    for (std::size_t j = 0; j < rows.size(); ++j) {
      feasible = feasible && (!unilateral[static_cast<std::size_t>(rows[j])] || x(static_cast<Eigen::Index>(j)) >= 0.0);
    }
    if (feasible) best = std::min(best, (columns * x - f).norm());
  }
  return best;
}

struct Problem {
  Matrix a;
  Vector f;
  std::vector<bool> unilateral;
};

/// Rows of a small mechanism-like A (some repeated or dependent, as redundant contacts make them), a
/// unilateral mask with a free row now and then, and a load f = Aᵀλ₀ whose λ₀ pulls on some rows.
Problem random_problem(testing::RandomSystems& random) {
  const int n = random.integer(3, 6);
  const int m = random.integer(2, 7);
  Problem p;
  p.a = random.matrix(m, n);
  if (m >= 3 && random.uniform(0.0, 1.0) < 0.6) p.a.row(m - 1) = 0.6 * p.a.row(0) + 0.9 * p.a.row(1);
  if (m >= 4 && random.uniform(0.0, 1.0) < 0.3) p.a.row(m - 2) = p.a.row(2);
  Vector lambda0(m);
  for (int i = 0; i < m; ++i) {
    p.unilateral.push_back(random.uniform(0.0, 1.0) < 0.85);
    lambda0(i) = random.uniform(0.0, 1.0) < 0.7 ? random.uniform(0.1, 2.0) : random.uniform(-2.0, -0.1);
  }
  p.f = p.a.transpose() * lambda0;
  if (random.uniform(0.0, 1.0) < 0.3) p.f += 0.5 * random.vector(n);  // not in the range of Aᵀ
  return p;
}

/// Random problems through nonnegative_split (dense solves, or sparse ones with `sparse`; with
/// `compressed_only`, A given as compressed rows alone): each answer is the optimum's, and every kind of
/// case occurs.
void expect_optimal_splits(const detail::SparseSplitWorkspace* sparse, bool compressed_only = false) {
  testing::RandomSystems random(20261127);
  int carried = 0, refused = 0, minimum_norm_pulls_but_carried = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const Problem p = random_problem(random);
    const double optimum = optimal_residual(p.a, p.f, p.unilateral);
    // Away from the decision's edge, so that round-off cannot flip it.
    const double tolerance = 1e-9 * std::max(1.0, p.f.norm());
    if (optimum > tolerance && optimum < 1e-6) continue;
    Vector lambda;
    const bool is_carried =
        compressed_only ? detail::nonnegative_split(to_sparse(p.a), p.f, p.unilateral, tolerance, lambda, *sparse)
                        : detail::nonnegative_split(p.a, p.f, p.unilateral, tolerance, lambda, sparse);
    SCOPED_TRACE("trial " + std::to_string(trial));
    // Feasible, optimal, and the answer of the optimum.
    for (Eigen::Index i = 0; i < lambda.size(); ++i) {
      if (p.unilateral[static_cast<std::size_t>(i)]) EXPECT_GE(lambda(i), 0.0) << "row " << i;
    }
    EXPECT_NEAR((p.a.transpose() * lambda - p.f).norm(), optimum, 1e-9 * std::max(1.0, p.f.norm()));
    EXPECT_EQ(is_carried, optimum <= tolerance);
    // Count the cases the simulator calls it for: the minimum-norm split pulls, another one does not.
    if (is_carried) {
      ++carried;
      const Vector minimum_norm = Eigen::CompleteOrthogonalDecomposition<Matrix>(p.a.transpose()).solve(p.f);
      bool pulls = false;
      for (Eigen::Index i = 0; i < minimum_norm.size(); ++i) {
        pulls = pulls || (p.unilateral[static_cast<std::size_t>(i)] && minimum_norm(i) < -1e-9);
      }
      if (pulls) ++minimum_norm_pulls_but_carried;
    } else {
      ++refused;
    }
  }
  // Both answers, and the redundant case, occur often enough to be tested.
  EXPECT_GT(carried, 50);
  EXPECT_GT(refused, 50);
  EXPECT_GT(minimum_norm_pulls_but_carried, 10);
}

TEST(NonnegativeSplit, FindsTheNonnegativeLeastSquaresOptimumOfRandomRedundantSystems) {
  expect_optimal_splits(nullptr);
}

TEST(NonnegativeSplit, TheSparseSolvesOfTheSparsePathFindTheSameOptimum) {
  // The passive least squares through Delassus factorisations with W = I, kept between calls as the
  // simulator keeps them (their symbolic analyses reused).
  DelassusFactorization all_rows, passive_rows;
  const detail::SparseSplitWorkspace sparse{&all_rows, &passive_rows};
  expect_optimal_splits(&sparse);
}

TEST(NonnegativeSplit, GivenCompressedRowsAloneItFindsTheSameOptimum) {
  // The form the simulator uses for large systems: A never made dense (its products over its entries).
  DelassusFactorization all_rows, passive_rows;
  const detail::SparseSplitWorkspace sparse{&all_rows, &passive_rows};
  expect_optimal_splits(&sparse, true);
}

TEST(NonnegativeSplit, ADiskPressedBetweenTwoWallsAndAFloorIsCarriedWithoutPulling) {
  // One disk (x, y, θ), three contact normals: floor (0, 1, 0), left wall (1, 0, 0), right wall (−1, 0, 0).
  // The walls are redundant along x: the minimum-norm split of a push to the right, f = (2, 9.81, 0),
  // spreads it as +1 on the left wall and −1 on the right one; the split (2, 0) does not pull.
  Matrix a(3, 3);
  a << 0, 1, 0,
       1, 0, 0,
      -1, 0, 0;
  const Vector f = (Vector(3) << 2.0, 9.81, 0.0).finished();
  Vector lambda;
  ASSERT_TRUE(detail::nonnegative_split(a, f, {true, true, true}, 1e-12, lambda));
  EXPECT_DOUBLE_EQ(lambda(0), 9.81);
  EXPECT_GE(lambda(1), 0.0);
  EXPECT_GE(lambda(2), 0.0);
  EXPECT_NEAR(lambda(1) - lambda(2), 2.0, 1e-12);
  // Pulled upward, the floor would have to pull: refused.
  EXPECT_FALSE(detail::nonnegative_split(a, -f, {true, true, true}, 1e-12, lambda));
}

/// The Γ rule's split of an impulse over 80 rows (40 unilateral) of the pile of thirty (n = 90) at
/// t = 0.572 s, as the simulator asked it: one row lies 1e-12 from the span of others. With the tolerance
/// the simulator gave it.
std::pair<Problem, double> pile_of_30_cycling_split() {
  const Json instance =
      testing::read_json(std::string(OBLIQUE_SOURCE_DIR) + "/tests/cpp/fixtures/pile-of-30-cycling-split.json");
  Problem p;
  p.a.resize(static_cast<Eigen::Index>(instance.at("A").size()), static_cast<Eigen::Index>(instance.at("f").size()));
  for (Eigen::Index i = 0; i < p.a.rows(); ++i) {
    for (Eigen::Index j = 0; j < p.a.cols(); ++j) p.a(i, j) = instance.at("A").at(i).at(j).get<double>();
  }
  p.f.resize(p.a.cols());
  for (Eigen::Index j = 0; j < p.f.size(); ++j) p.f(j) = instance.at("f").at(j).get<double>();
  p.unilateral = instance.at("unilateral").get<std::vector<bool>>();
  return {std::move(p), instance.at("tolerance").get<double>()};
}

TEST(NonnegativeSplit, StopsWhenItsPassiveSetComesRoundAgain) {
  // Round-off on the nearly dependent row made Lawson–Hanson go round its passive sets (66 → 69 → 66 rows)
  // to its cap of 3m + 3 entries, 484 solves.
  const auto [p, tolerance] = pile_of_30_cycling_split();
  const Matrix& a = p.a;
  const Vector& f = p.f;
  const std::vector<bool>& unilateral = p.unilateral;
  const int m = static_cast<int>(a.rows());
  // Through the sparse path's factorisations, as the simulator solved it, and densely.
  DelassusFactorization all_rows, passive_rows;
  const detail::SparseSplitWorkspace workspace{&all_rows, &passive_rows};
  for (const detail::SparseSplitWorkspace* sparse : {&workspace, static_cast<const detail::SparseSplitWorkspace*>(nullptr)}) {
    const char* path = sparse ? "sparse" : "dense";
    detail::SplitStats stats;
    Vector lambda;
    const bool carried = detail::nonnegative_split(a, f, unilateral, tolerance, lambda, sparse, &stats);
    // It stops where it met a passive set again, long before the cap.
    EXPECT_LT(stats.passive_solves, 3 * m + 3) << path;
    if (sparse) EXPECT_TRUE(stats.cycle_stopped) << path;
    // What it returns is a split: no unilateral row pulls; the impulse cannot be carried without a pull.
    for (int i = 0; i < m; ++i) {
      if (unilateral[static_cast<std::size_t>(i)]) EXPECT_GE(lambda(i), 0.0) << path << " row " << i;
    }
    EXPECT_FALSE(carried) << path;
    EXPECT_GT((a.transpose() * lambda - f).norm(), tolerance) << path;
  }
}

TEST(NonnegativeSplit, StoppedBeforeAnyPassiveSolveAndRunAgainItGivesTheSameSplitBitForBit) {
  // The simulator's work budget stops a split before a passive solve (PassiveSolveMemory::recall throws) and
  // runs it again from its start, with the solves made before taken from memory. Here each run makes one
  // solve and is stopped before the next, the most a budget can stop it: every run ends at the same split.
  // The pile's split, which the sparse path solves partly densely, and random ones; sparse and dense solves.
  struct Stopped {};
  std::vector<std::pair<Problem, double>> problems = {pile_of_30_cycling_split()};
  testing::RandomSystems random(20261128);
  for (int trial = 0; trial < 40; ++trial) {
    Problem p = random_problem(random);
    const double tolerance = 1e-9 * std::max(1.0, p.f.norm());
    problems.emplace_back(std::move(p), tolerance);
  }
  DelassusFactorization all_rows, passive_rows;
  const detail::SparseSplitWorkspace workspace{&all_rows, &passive_rows};
  int most_runs = 0;
  for (std::size_t k = 0; k < problems.size(); ++k) {
    const auto& [p, tolerance] = problems[k];
    for (const detail::SparseSplitWorkspace* sparse : {&workspace, static_cast<const detail::SparseSplitWorkspace*>(nullptr)}) {
      SCOPED_TRACE(std::string("problem ") + std::to_string(k) + (sparse ? " sparse" : " dense"));
      Vector whole;
      const bool whole_carried = detail::nonnegative_split(p.a, p.f, p.unilateral, tolerance, whole, sparse);
      // Runs of one solve each, the memory kept between them.
      std::vector<Vector> made;
      int fresh = 0;
      detail::PassiveSolveMemory memory;
      memory.recall = [&](int index, int, Vector& z) {
        if (index < static_cast<int>(made.size())) {
          z = made[static_cast<std::size_t>(index)];
          return true;
        }
        if (fresh > 0) throw Stopped{};
        ++fresh;
        return false;
      };
      memory.keep = [&](int index, const Vector& z, bool) {
        EXPECT_EQ(index, static_cast<int>(made.size()));
        made.push_back(z);
      };
      Vector sliced;
      bool sliced_carried = false;
      int runs = 0;
      for (bool done = false; !done && runs < 10000; ++runs) {
        fresh = 0;
        try {
          sliced_carried = detail::nonnegative_split(p.a, p.f, p.unilateral, tolerance, sliced, sparse, nullptr, &memory);
          done = true;
        } catch (const Stopped&) {
        }
      }
      EXPECT_EQ(sliced_carried, whole_carried);
      ASSERT_EQ(sliced.size(), whole.size());
      EXPECT_EQ(std::memcmp(sliced.data(), whole.data(), static_cast<std::size_t>(whole.size()) * sizeof(double)), 0);
      // One run per solve made (the last one finishing the split).
      EXPECT_EQ(runs, std::max(1, static_cast<int>(made.size())));
      most_runs = std::max(most_runs, runs);
    }
  }
  // The pile's split was stopped many times.
  EXPECT_GE(most_runs, 10);
}

TEST(NonnegativeSplit, StoppedInsideItsFactorisationsAndRunAgainItGivesTheSameSplitBitForBit) {
  // The simulator's gate may also stop a split inside a passive solve's factorisation, before one of its
  // pieces (a dependent row's search, the null basis): the factorisation stays in progress and the split,
  // run again with its solves made before taken from memory, takes it up there. Here every run does one
  // piece: the pile's rank-deficient split ends at the bits of the split made whole, given its A dense or
  // as compressed rows alone, and the compressed rows' split is the dense one's to round-off.
  struct Stopped {};
  // (Named, not a structured binding: the lambdas below capture them.)
  const std::pair<Problem, double> pile = pile_of_30_cycling_split();
  const Problem& p = pile.first;
  const double tolerance = pile.second;
  const SparseJacobian compressed = to_sparse(p.a);
  Vector dense_whole;
  for (const bool compressed_only : {false, true}) {
    SCOPED_TRACE(compressed_only ? "compressed rows" : "dense A");
    const auto split = [&](const detail::SparseSplitWorkspace& sparse, Vector& lambda,
                           const detail::PassiveSolveMemory* memory) {
      return compressed_only
                 ? detail::nonnegative_split(compressed, p.f, p.unilateral, tolerance, lambda, sparse, nullptr, memory)
                 : detail::nonnegative_split(p.a, p.f, p.unilateral, tolerance, lambda, &sparse, nullptr, memory);
    };
    // Made whole, with no gate.
    DelassusFactorization whole_all, whole_passive;
    Vector whole;
    const bool whole_carried = split({&whole_all, &whole_passive}, whole, nullptr);
    // Runs of one piece each: the gate lets the first piece of a run through and stops before the next.
    DelassusFactorization all_rows, passive_rows;
    int pieces = 0;
    detail::SparseSplitWorkspace gated{&all_rows, &passive_rows};
    gated.gate = [&](double) {
      if (pieces++ > 0) throw Stopped{};
    };
    std::vector<Vector> made;
    detail::PassiveSolveMemory memory;
    memory.recall = [&](int index, int, Vector& z) {
      if (index >= static_cast<int>(made.size())) return false;
      z = made[static_cast<std::size_t>(index)];
      return true;
    };
    memory.keep = [&](int, const Vector& z, bool) { made.push_back(z); };
    Vector sliced;
    bool sliced_carried = false;
    int runs = 0;
    for (bool done = false; !done && runs < 100000; ++runs) {
      pieces = 0;
      try {
        sliced_carried = split(gated, sliced, &memory);
        done = true;
      } catch (const Stopped&) {
      }
    }
    EXPECT_EQ(sliced_carried, whole_carried);
    ASSERT_EQ(sliced.size(), whole.size());
    EXPECT_EQ(std::memcmp(sliced.data(), whole.data(), static_cast<std::size_t>(whole.size()) * sizeof(double)), 0);
    // Its factorisations were stopped inside: more runs than passive solves.
    EXPECT_GT(runs, static_cast<int>(made.size()) + 10);
    if (!compressed_only) {
      dense_whole = whole;
    } else {
      EXPECT_LE((whole - dense_whole).lpNorm<Eigen::Infinity>(), 1e-9 * std::max(1.0, dense_whole.lpNorm<Eigen::Infinity>()));
    }
  }
}

}  // namespace
}  // namespace oblique
