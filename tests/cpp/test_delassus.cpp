// The Delassus factorisation (delassus.hpp) against dense linear algebra on random systems of every
// Jacobian kind: rank, the basic solve, Π = AA⁺, K⁺ and A⁺; the reuse of its symbolic analysis; the row
// builder; and its input checks.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <tuple>

#include <Eigen/OrderingMethods>
#include <Eigen/SVD>

#include "error_message.hpp"
#include "oblique/sparse/delassus.hpp"
#include "random_systems.hpp"
#include "comparisons.hpp"

namespace oblique {
namespace {

using testing::JacobianKind;
using testing::RandomSystems;
using testing::random_masses;

using testing::rel_gap;

/// A Jacobian of the given kind with at most `per_row` non-zeros in each independent row (dependent rows
/// are combinations of two rows, as a pin and two contacts at one point are).
Matrix sparse_jacobian_of_kind(RandomSystems& rng, JacobianKind kind, int n, int per_row) {
  Matrix a = rng.jacobian(kind, n);
  if (kind == JacobianKind::MoreRowsThanColumns || a.rows() == 0) return a;
  for (Eigen::Index i = 0; i < a.rows(); ++i) {
    // Keep `per_row` random columns of each row; dependent rows are rebuilt below.
    Vector keep = Vector::Zero(n);
    for (int k = 0; k < per_row; ++k) keep(rng.integer(0, n - 1)) = 1.0;
    a.row(i) = a.row(i).cwiseProduct(keep.transpose());
    if (a.row(i).squaredNorm() == 0.0) a(i, rng.integer(0, n - 1)) = 1.0;
  }
  if (kind == JacobianKind::RepeatedRow) a.row(a.rows() - 1) = a.row(0);
  if (kind == JacobianKind::DependentRows) a.row(a.rows() - 1) = 0.7 * a.row(0) - 1.3 * a.row(1);
  return a;
}

constexpr double kEpsilon = 2.220446049250313e-16;

/// σ_max / σ_min≠0 of a matrix (1 for a zero or empty one).
double condition(const Matrix& a) {
  if (a.rows() == 0 || a.cols() == 0) return 1.0;
  const Vector s = Eigen::JacobiSVD<Matrix>(a).singularValues();
  double smallest = s(0);
  for (Eigen::Index i = 0; i < s.size(); ++i) {
    if (s(i) > 1e-12 * s(0)) smallest = s(i);
  }
  return s(0) > 0.0 ? s(0) / smallest : 1.0;
}

/// K⁺ by a dense SVD, for reference.
Matrix dense_pinv(const Matrix& k) {
  if (k.rows() == 0) return k;
  Eigen::JacobiSVD<Matrix> svd(k, Eigen::ComputeFullU | Eigen::ComputeFullV);
  svd.setThreshold(1e-12);
  return svd.solve(Matrix::Identity(k.rows(), k.rows()));
}

class DelassusKinds : public ::testing::TestWithParam<JacobianKind> {};

TEST_P(DelassusKinds, AgreesWithDenseLinearAlgebra) {
  RandomSystems rng(1400 + static_cast<int>(GetParam()));
  for (int trial = 0; trial < 40; ++trial) {
    const int n = rng.integer(4, 12);
    const Vector masses = random_masses(rng, n);
    const Matrix a = trial % 2 == 0 ? rng.jacobian(GetParam(), n) : sparse_jacobian_of_kind(rng, GetParam(), n, 3);
    const int m = static_cast<int>(a.rows());
    DelassusFactorization delassus;
    delassus.factorize(to_sparse(a), masses);
    const Matrix k = a * masses.cwiseInverse().asDiagonal() * a.transpose();
    const PseudoInverse pinv = pseudo_inverse(a);

    // The rank is the dense one; the dependent rows are as many as the rank lacks.
    EXPECT_EQ(delassus.rank(), pinv.rank) << "trial " << trial;
    EXPECT_EQ(static_cast<int>(delassus.dependent_rows().size()), m - pinv.rank);
    // Z spans N(K): K Z = 0.
    const Matrix z = delassus.null_basis();
    EXPECT_EQ(z.cols(), m - pinv.rank);
    if (z.cols() > 0) EXPECT_LT((k * z).norm(), 1e-12 * std::max(1.0, k.norm()) * z.norm());

    // Round-off relative to the problem: ε times the condition of K = (W^(−1/2)-scaled A)(…)ᵀ, κ².
    const Matrix scaled = a * masses.cwiseSqrt().cwiseInverse().asDiagonal();
    const double kappa = condition(scaled), tol_a = 100 * kEpsilon * kappa * kappa, tol_k = tol_a;

    // The basic solve of a consistent system: K x = c (backward error), zero on the dependent rows.
    const Vector c = a * rng.vector(n);
    const Vector x = delassus.solve(c);
    EXPECT_LE((k * x - c).norm(), 100 * kEpsilon * k.norm() * x.norm());
    for (int d : delassus.dependent_rows()) EXPECT_EQ(x(d), 0.0);
    // Π = AA⁺, K⁺ and A⁺ (W = M: the M-weighted minimum-norm solution) for any right-hand side.
    const Vector v = rng.vector(m);
    EXPECT_LT(rel_gap(delassus.project_to_range(v), a * (pinv.pinv * v)), tol_a) << "κ = " << kappa;
    EXPECT_LT(rel_gap(delassus.pseudo_solve(v), dense_pinv(k) * v), tol_k) << "κ = " << kappa;
    const Vector weighted = delassus.least_squares(v);
    const Matrix m_half_inv = masses.cwiseSqrt().cwiseInverse().asDiagonal();
    EXPECT_LT(rel_gap(weighted, m_half_inv * (pseudo_inverse(scaled).pinv * v)), tol_a) << "κ = " << kappa;
    // With W = I, least_squares is A⁺y itself.
    DelassusFactorization euclidean;
    euclidean.factorize(to_sparse(a), Vector::Ones(n));
    const double kappa_a = condition(a);
    EXPECT_LT(rel_gap(euclidean.least_squares(v), pinv.pinv * v), 100 * kEpsilon * kappa_a * kappa_a) << "κ(A) = " << kappa_a;
  }
}

INSTANTIATE_TEST_SUITE_P(AllJacobianKinds, DelassusKinds, ::testing::ValuesIn(testing::all_jacobian_kinds()),
                         [](const auto& info) { return std::string(testing::name(info.param)); });

TEST(Delassus, SymbolicAnalysisIsReusedWhileThePatternHolds) {
  RandomSystems rng(77);
  const int n = 9;
  const Vector masses = random_masses(rng, n);
  Matrix a = Matrix::Zero(4, n);
  a(0, 0) = 1, a(0, 3) = -1, a(1, 1) = 2, a(1, 4) = 0.5, a(2, 5) = 1, a(3, 2) = -1, a(3, 8) = 3;
  DelassusFactorization delassus;
  delassus.factorize(to_sparse(a), masses);
  EXPECT_EQ(delassus.analyses(), 1);
  // New values on the same pattern (the next stage of a step): no new analysis, and the new K is solved.
  Matrix b = a;
  b(0, 0) = 0.3, b(1, 4) = -2, b(3, 8) = 0.1;
  delassus.factorize(to_sparse(b), 2.0 * masses);
  EXPECT_EQ(delassus.analyses(), 1);
  const Vector c = b * rng.vector(n);
  const Matrix k = b * (2.0 * masses).cwiseInverse().asDiagonal() * b.transpose();
  EXPECT_LT(rel_gap(k * delassus.solve(c), c), 1e-14);
  // A row more (a contact becomes active): analysed again.
  Matrix grown(5, n);
  grown << b, Matrix::Zero(1, n);
  grown(4, 6) = 1;
  delassus.factorize(to_sparse(grown), masses);
  EXPECT_EQ(delassus.analyses(), 2);
  EXPECT_EQ(delassus.rank(), 5);
}

TEST(Delassus, FactorizeAsNewWithTheSameInputsSolvesTheSameSystemAndWithOthersTheNewOne) {
  // factorize_as_new keeps its factorisation when A and W are bit for bit the last ones: K λ = c must
  // hold for the system given at every call, whether it was kept, changed in a value, in W or in the
  // pattern, or came back after another.
  RandomSystems rng(1128);
  const int n = 9;
  const Vector masses = random_masses(rng, n);
  Matrix a = Matrix::Zero(4, n);
  a(0, 0) = 1, a(0, 3) = -1, a(1, 1) = 2, a(1, 4) = 0.5, a(2, 5) = 1, a(3, 2) = -1, a(3, 8) = 3;
  Matrix changed = a;
  changed(1, 4) = -2;
  Matrix grown(5, n);
  grown << a, Matrix::Zero(1, n);
  grown(4, 6) = 1;
  const std::vector<std::pair<Matrix, Vector>> calls = {{a, masses},       {a, masses},      {changed, masses},
                                                        {changed, masses}, {a, 2.0 * masses}, {grown, masses},
                                                        {a, masses},       {a, masses}};
  DelassusFactorization delassus;
  for (std::size_t call = 0; call < calls.size(); ++call) {
    const Matrix& jacobian = calls[call].first;
    const Vector& weights = calls[call].second;
    delassus.factorize_as_new(to_sparse(jacobian), weights);
    const Matrix k = jacobian * weights.cwiseInverse().asDiagonal() * jacobian.transpose();
    const Vector c = jacobian * rng.vector(n);
    EXPECT_EQ(delassus.rank(), jacobian.rows()) << "call " << call;
    EXPECT_LT(rel_gap(k * delassus.solve(c), c), 1e-14) << "call " << call;
    EXPECT_LT(rel_gap(delassus.apply_jacobian(weights), jacobian * weights), 1e-15) << "call " << call;
  }
}

TEST(Delassus, FactorizeAsNewGivesTheBitsOfAFreshFactorisation) {
  // The simulator's smooth phase keeps one factorisation and calls factorize_as_new at every evaluation:
  // whatever came before (other values on the pattern, dependencies found, a weak-basis re-ordering, another
  // pattern), each call must give exactly what a newly constructed factorisation gives — the same rank,
  // dependent rows, pivot ratio and solves, bit for bit — so that a run depends on its state alone.
  RandomSystems rng(2026);
  DelassusFactorization kept;
  long fresh_analyses = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const JacobianKind kind = static_cast<JacobianKind>(trial % 5);
    const int n = 6 + trial % 7;
    const Matrix pattern = sparse_jacobian_of_kind(rng, kind, n, 3);
    const Vector masses = random_masses(rng, n);
    // Three sets of values on one pattern (the stages of a step), the dependent rows kept dependent.
    for (int stage = 0; stage < 3; ++stage) {
      Matrix a = pattern;
      for (Eigen::Index i = 0; i < a.rows(); ++i) {
        for (Eigen::Index j = 0; j < a.cols(); ++j) {
          if (a(i, j) != 0.0) a(i, j) *= 1.0 + 0.1 * stage * rng.uniform(-1.0, 1.0);
        }
      }
      if (kind == JacobianKind::RepeatedRow) a.row(a.rows() - 1) = a.row(0);
      if (kind == JacobianKind::DependentRows) a.row(a.rows() - 1) = 0.7 * a.row(0) - 1.3 * a.row(1);
      const SparseJacobian sparse = to_sparse(a);
      DelassusFactorization fresh;
      fresh.factorize(sparse, masses);
      fresh_analyses += fresh.analyses();
      kept.factorize_as_new(sparse, masses);
      ASSERT_EQ(kept.rank(), fresh.rank()) << name(kind) << " trial " << trial << " stage " << stage;
      EXPECT_EQ(kept.dependent_rows(), fresh.dependent_rows());
      EXPECT_EQ(kept.smallest_pivot_ratio(), fresh.smallest_pivot_ratio());
      EXPECT_EQ(kept.largest_dropped_distance(), fresh.largest_dropped_distance());
      const Vector c = a * rng.vector(n);
      const Vector y = rng.vector(static_cast<int>(a.rows()));
      EXPECT_EQ(kept.solve(c), fresh.solve(c));
      EXPECT_EQ(kept.pseudo_solve(y), fresh.pseudo_solve(y));
      EXPECT_EQ(kept.project_to_range(y), fresh.project_to_range(y));
      EXPECT_EQ(Matrix(kept.null_basis()), Matrix(fresh.null_basis()));
    }
  }
  // The analysis was reused within each pattern: far fewer analyses than the fresh factorisations made.
  EXPECT_LT(kept.analyses(), fresh_analyses / 2);
}

TEST(Delassus, AnEstimateBeforeFactorizeAsNewChangesNoBit) {
  // The simulator asks for the estimate of each evaluation's factorisation, then makes it
  // (factorization_estimate loads and analyses A, factorize_as_new takes them as loaded): the result must
  // be a fresh factorisation's bit for bit, and an estimate of other inputs must not stand in for them.
  RandomSystems rng(1130);
  DelassusFactorization kept;
  for (int trial = 0; trial < 20; ++trial) {
    const JacobianKind kind = static_cast<JacobianKind>(trial % 5);
    const int n = 6 + trial % 5;
    Matrix a = sparse_jacobian_of_kind(rng, kind, n, 3);
    if (kind == JacobianKind::RepeatedRow) a.row(a.rows() - 1) = a.row(0);
    const Vector masses = random_masses(rng, n);
    Matrix other = a;
    for (Eigen::Index i = 0; i < other.size(); ++i) {
      if (other(i) != 0.0) other(i) *= 1.5;
    }
    const SparseJacobian sparse = to_sparse(a);
    // The estimate of these inputs (every second trial, first that of other values on the pattern).
    if (trial % 2 == 1) kept.factorization_estimate(to_sparse(other), masses);
    kept.factorization_estimate(trial % 4 == 3 ? to_sparse(other) : sparse, masses);
    kept.factorize_as_new(sparse, masses);
    DelassusFactorization fresh;
    fresh.factorize(sparse, masses);
    ASSERT_EQ(kept.rank(), fresh.rank()) << name(kind) << " trial " << trial;
    EXPECT_EQ(kept.dependent_rows(), fresh.dependent_rows());
    EXPECT_EQ(kept.smallest_pivot_ratio(), fresh.smallest_pivot_ratio());
    const Vector c = a * rng.vector(n);
    const Vector y = rng.vector(static_cast<int>(a.rows()));
    EXPECT_EQ(kept.solve(c), fresh.solve(c)) << "trial " << trial;
    EXPECT_EQ(kept.least_squares(y), fresh.least_squares(y));
    // The refined solve's residual is formed as multiply() forms K x.
    const Vector x = rng.vector(static_cast<int>(a.rows()));
    EXPECT_EQ(kept.multiply(x), fresh.multiply(x));
  }
}

TEST(Delassus, AnEarlierPatternTakenBackGivesTheBitsOfAFreshFactorisation) {
  // The non-negative split of a resting pile factorises the same few passive sets at every step, one after
  // another: their analyses are kept (the last kRememberedPatterns) and taken back, which must change no
  // bit. Four patterns of every kind, visited round and round with new values, against fresh
  // factorisations; analysed once each.
  RandomSystems rng(1127);
  const int n = 9;
  const Vector masses = random_masses(rng, n);
  std::vector<Matrix> patterns;
  for (int k = 0; k < 4; ++k) {
    Matrix a = sparse_jacobian_of_kind(rng, static_cast<JacobianKind>(k % 5), n, 3);
    if (k == 1) a.row(a.rows() - 1) = a.row(0);
    if (k == 2) a.row(a.rows() - 1) = 0.7 * a.row(0) - 1.3 * a.row(1);
    patterns.push_back(a);
  }
  DelassusFactorization kept;
  for (int visit = 0; visit < 12; ++visit) {
    Matrix a = patterns[static_cast<std::size_t>(visit % 4)];
    for (Eigen::Index i = 0; i < a.rows(); ++i) {
      for (Eigen::Index j = 0; j < a.cols(); ++j) {
        if (a(i, j) != 0.0) a(i, j) *= 1.0 + 0.05 * rng.uniform(-1.0, 1.0);
      }
    }
    if (visit % 4 == 1) a.row(a.rows() - 1) = a.row(0);
    if (visit % 4 == 2) a.row(a.rows() - 1) = 0.7 * a.row(0) - 1.3 * a.row(1);
    const SparseJacobian sparse = to_sparse(a);
    DelassusFactorization fresh;
    fresh.factorize(sparse, masses);
    kept.factorize_as_new(sparse, masses);
    ASSERT_EQ(kept.rank(), fresh.rank()) << "visit " << visit;
    EXPECT_EQ(kept.dependent_rows(), fresh.dependent_rows());
    EXPECT_EQ(kept.smallest_pivot_ratio(), fresh.smallest_pivot_ratio());
    const Vector c = a * rng.vector(n);
    const Vector y = rng.vector(static_cast<int>(a.rows()));
    EXPECT_EQ(kept.solve(c), fresh.solve(c)) << "visit " << visit;
    EXPECT_EQ(kept.pseudo_solve(y), fresh.pseudo_solve(y));
    EXPECT_EQ(kept.least_squares(y), fresh.least_squares(y));
    EXPECT_EQ(Matrix(kept.null_basis()), Matrix(fresh.null_basis()));
  }
  EXPECT_EQ(kept.analyses(), 4);
}

TEST(Delassus, AKeptAnalysisGivesAFreshOnesBitsAndIsMadeAgainWhenThePatternChanges) {
  // The symbolic analysis kept by factorize_as_new (the pattern of K, its ordering, the plan of K's
  // products) is a function of A's pattern alone: on a repeated pattern it must give a fresh
  // factorisation's bits, and any change of the pattern — one entry more, as many entries in other
  // columns, another row count — must be analysed anew (and give a fresh factorisation's bits too).
  RandomSystems rng(1202);
  const int n = 12;
  const Vector masses = random_masses(rng, n);
  // Rows sharing columns two by two (a chain of contacts), the last the sum of the first two (dependent).
  Matrix base = Matrix::Zero(7, n);
  for (int i = 0; i < 6; ++i) {
    base(i, 2 * i) = rng.uniform(0.5, 2.0);
    base(i, 2 * i + 1) = rng.uniform(-2.0, -0.5);
    base(i, (2 * i + 2) % n) = rng.uniform(0.5, 2.0);
  }
  base.row(6) = base.row(0) + base.row(1);
  const auto values_of = [&](const Matrix& pattern) {
    // New values on the same pattern, the last row kept dependent.
    Matrix a = pattern;
    for (Eigen::Index i = 0; i < a.size(); ++i) {
      if (a(i) != 0.0) a(i) *= rng.uniform(0.8, 1.2);
    }
    a.row(6) = a.row(0) + a.row(1);
    return a;
  };
  Matrix one_more = base;  // an entry where there was none
  one_more(3, 9) = 0.4;
  Matrix moved = base;  // as many entries, one in another column
  moved(4, 10) = 0.0;
  moved(4, 11) = 1.5;
  ASSERT_EQ((moved.array() != 0.0).count(), (base.array() != 0.0).count());
  Matrix grown(8, n);  // a row more
  grown << base, Matrix::Zero(1, n);
  grown(7, 5) = 1.0;
  grown(7, 7) = -0.3;
  // Each call and the analyses the kept factorisation has made after it.
  const std::vector<std::pair<Matrix, long>> calls = {
      {base, 1}, {values_of(base), 1}, {one_more, 2}, {values_of(one_more), 2}, {moved, 3},
      {grown, 4}, {values_of(base), 4}, {values_of(moved), 4}, {values_of(grown), 4}};
  DelassusFactorization kept;
  for (std::size_t call = 0; call < calls.size(); ++call) {
    Matrix a = calls[call].first;
    if (a.rows() == 8) a.row(6) = a.row(0) + a.row(1);
    const SparseJacobian sparse = to_sparse(a);
    kept.factorize_as_new(sparse, masses);
    EXPECT_EQ(kept.analyses(), calls[call].second) << "call " << call;
    DelassusFactorization fresh;
    fresh.factorize(sparse, masses);
    ASSERT_EQ(kept.rank(), fresh.rank()) << "call " << call;
    EXPECT_EQ(kept.rank(), static_cast<int>(a.rows()) - 1) << "call " << call;
    EXPECT_EQ(kept.dependent_rows(), fresh.dependent_rows()) << "call " << call;
    EXPECT_EQ(kept.smallest_pivot_ratio(), fresh.smallest_pivot_ratio()) << "call " << call;
    const Vector c = a * rng.vector(n);
    const Vector y = rng.vector(static_cast<int>(a.rows()));
    EXPECT_EQ(kept.solve(c), fresh.solve(c)) << "call " << call;
    EXPECT_EQ(kept.pseudo_solve(y), fresh.pseudo_solve(y)) << "call " << call;
    EXPECT_EQ(Matrix(kept.null_basis()), Matrix(fresh.null_basis())) << "call " << call;
    // And it is the solve of this K: K x = c for c in range(A).
    const Matrix k = a * masses.cwiseInverse().asDiagonal() * a.transpose();
    EXPECT_LT(rel_gap(k * kept.solve(c), c), 1e-12) << "call " << call;
  }
}

TEST(Delassus, MinimumDegreeOnKsOwnPatternIsAmdOrderingsOrder) {
  // analyze() orders K by Eigen's minimum degree routine on K's pattern directly, where AMDOrdering would
  // first form the pattern of Kᵀ + K: for a symmetric pattern with every diagonal entry, sorted in
  // compressed columns, the two must give the same permutation — random Jacobians of every kind, and a
  // large one with rows coupled to many others (the routine's dense-row branch).
  RandomSystems rng(1203);
  for (int trial = 0; trial < 41; ++trial) {
    Matrix a;
    if (trial < 40) {
      const JacobianKind kind = static_cast<JacobianKind>(trial % 5);
      a = sparse_jacobian_of_kind(rng, kind, 6 + trial % 11, 3);
    } else {
      a = Matrix::Zero(300, 200);
      for (int i = 0; i < 300; ++i) {
        a(i, rng.integer(0, 199)) = 1.0;
        a(i, rng.integer(0, 199)) = 1.0;
      }
      a.col(7).head(60).setOnes();  // sixty rows share column 7
    }
    const Matrix coupled = a.cwiseAbs() * a.cwiseAbs().transpose() + Matrix::Identity(a.rows(), a.rows());
    Eigen::SparseMatrix<double, Eigen::ColMajor, int> pattern = coupled.sparseView();
    pattern.makeCompressed();
    Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int> by_amd, by_routine;
    Eigen::AMDOrdering<int>()(pattern, by_amd);
    Eigen::SparseMatrix<double, Eigen::ColMajor, int> work = pattern;
    Eigen::internal::minimum_degree_ordering(work, by_routine);
    ASSERT_EQ(by_routine.size(), by_amd.size()) << "trial " << trial;
    EXPECT_TRUE(by_routine.indices() == by_amd.indices()) << "trial " << trial;
  }
}

TEST(Delassus, FlatRodOnThreeContactsDropsOneRow) {
  // A rod (m = 1, I = 1/12) lying on three points s = −½, 0, ½: rank 2, one dependent row.
  Matrix a(3, 3);
  a << 0, 1, -0.5, 0, 1, 0, 0, 1, 0.5;
  DelassusFactorization delassus;
  delassus.factorize(to_sparse(a), Eigen::Vector3d(1.0, 1.0, 1.0 / 12.0));
  EXPECT_EQ(delassus.rank(), 2);
  ASSERT_EQ(delassus.dependent_rows().size(), 1u);
  // The null vector is (1, −2, 1) up to scale: the middle contact is the mean of the ends.
  const Vector z = Matrix(delassus.null_basis()).col(0);
  EXPECT_LT(rel_gap(z / z(0), Eigen::Vector3d(1, -2, 1)), 1e-14);
}

TEST(Delassus, APreviousDependencyIsReusedOnlyWhileItHolds) {
  // A rod (m = 1, I = 1/12) on three contacts s = −½, 0, ½, rows (0, 1, s cos θ): flat, then tilted by
  // 1e-3 rad — the middle row stays the mean of the end rows, null vector (1, −2, 1) — then the middle
  // contact on a slanted patch (its row (0.2, 1, 0.2 cos θ): independent, rank 3), then flat again. Each
  // factorisation must find its own rank whatever the previous one found.
  const Vector masses = Eigen::Vector3d(1.0, 1.0, 1.0 / 12.0);
  auto rod_rows = [](double c, double middle) {
    return (Matrix(3, 3) << 0, 1, -0.5 * c, middle, 1, middle * c, 0, 1, 0.5 * c).finished();
  };
  const Vector dependency = Eigen::Vector3d(1.0, -2.0, 1.0) / std::sqrt(6.0);
  const Vector v = Eigen::Vector3d(0.3, -1.0, 2.0);
  DelassusFactorization delassus;
  for (const auto& [cosine, middle, rank] : {std::tuple{1.0, 0.0, 2}, std::tuple{std::cos(1e-3), 0.0, 2},
                                             std::tuple{std::cos(1e-3), 0.2, 3}, std::tuple{1.0, 0.0, 2}}) {
    const Matrix a = rod_rows(cosine, middle);
    delassus.factorize(to_sparse(a), masses);
    ASSERT_EQ(delassus.rank(), rank);
    const Matrix z = delassus.null_basis();
    if (rank == 2) {
      // Z spans the dependency, and Π removes exactly its component.
      EXPECT_LT((a.transpose() * z).norm(), 1e-15 * z.norm());
      EXPECT_LT(rel_gap(delassus.project_to_range(v), v - dependency * dependency.dot(v)), 1e-15);
    } else {
      EXPECT_EQ(z.cols(), 0);
      EXPECT_EQ(delassus.project_to_range(v), v);
    }
  }
  // The middle row has exact zeros on the line: two patterns, met in the order line, slanted, line: two
  // analyses (the line's was kept, and taken back the second time).
  EXPECT_EQ(delassus.analyses(), 2);
}

TEST(Delassus, NoRowsIsTheFreeSystem) {
  DelassusFactorization delassus;
  delassus.factorize(SparseJacobian(0, 3), Eigen::Vector3d(1, 2, 3));
  EXPECT_EQ(delassus.rows(), 0);
  EXPECT_EQ(delassus.rank(), 0);
  EXPECT_EQ(delassus.solve(Vector(0)).size(), 0);
  EXPECT_EQ(delassus.least_squares(Vector(0)), Vector::Zero(3));
}

TEST(Delassus, ZeroRowIsDependent) {
  Matrix a = Matrix::Zero(2, 3);
  a(0, 1) = 1;
  DelassusFactorization delassus;
  delassus.factorize(to_sparse(a), Eigen::Vector3d(1, 1, 1));
  EXPECT_EQ(delassus.rank(), 1);
  EXPECT_EQ(delassus.dependent_rows(), std::vector<int>{1});
  EXPECT_LT(rel_gap(delassus.project_to_range(Eigen::Vector2d(3, 4)), Eigen::Vector2d(3, 0)), 1e-15);
}

TEST(SparseRowsBuilder, SortsColumnsAndSumsDuplicates) {
  SparseRowsBuilder builder;
  builder.start(6);
  builder.new_row();
  builder.add(4, 1.0);
  builder.add(1, 2.0);
  builder.add(4, 0.5);  // a slider adds to a body's angle column twice
  builder.new_row();    // an empty row stays a row
  builder.new_row();
  builder.add(5, -1.0);
  builder.add(0, 3.0);
  const SparseJacobian& a = builder.finish();
  Matrix expected = Matrix::Zero(3, 6);
  expected(0, 1) = 2.0, expected(0, 4) = 1.5, expected(2, 0) = 3.0, expected(2, 5) = -1.0;
  EXPECT_EQ(Matrix(a), expected);
  EXPECT_EQ(a.nonZeros(), 4);
  EXPECT_TRUE(a.isCompressed());
  // The storage is reused by the next assembly.
  builder.start(2);
  builder.new_row();
  builder.add(1, 7.0);
  EXPECT_EQ(Matrix(builder.finish()), (Matrix(1, 2) << 0, 7).finished());
}

TEST(Delassus, BadInputNamesTheField) {
  using testing::message_of;
  DelassusFactorization delassus;
  const SparseJacobian a = to_sparse((Matrix(1, 3) << 1, 0, 1).finished());
  EXPECT_EQ(message_of([&] { delassus.factorize(a, Eigen::Vector3d(1, -2, 1)); }),
            "M[1][1]: must be a finite positive number (a diagonal inertia), got -2");
  EXPECT_EQ(message_of([&] { delassus.factorize(a, Eigen::Vector2d(1, 1)); }),
            "A: every row must have 2 entries (the size of M), got 3");
  const SparseJacobian bad = to_sparse((Matrix(1, 3) << 1, 0, std::nan("")).finished());
  EXPECT_EQ(message_of([&] { delassus.factorize(bad, Eigen::Vector3d(1, 1, 1)); }), "A[0][2]: must be a finite number");
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(message_of([&] { delassus.factorize(a, Eigen::Vector3d(1, 1, std::nan(""))); }),
            "M[2][2]: must be a finite positive number (a diagonal inertia), got nan");
  EXPECT_EQ(message_of([&] { delassus.factorize(a, Eigen::Vector3d(inf, 1, 1)); }),
            "M[0][0]: must be a finite positive number (a diagonal inertia), got inf");
  const SparseJacobian infinite = to_sparse((Matrix(2, 3) << 1, 0, 1, -inf, 0, 0).finished());
  EXPECT_EQ(message_of([&] { delassus.factorize_as_new(infinite, Eigen::Vector3d(1, 1, 1)); }),
            "A[1][0]: must be a finite number");
  EXPECT_EQ(message_of([&] { delassus.factorization_estimate(infinite, Eigen::Vector3d(1, 1, 1)); }),
            "A[1][0]: must be a finite number");
  SparseRowsBuilder builder;
  builder.start(3);
  EXPECT_EQ(message_of([&] { builder.add(3, 1.0); }), "A: column 3 is outside 0..2");
}

}  // namespace
}  // namespace oblique
