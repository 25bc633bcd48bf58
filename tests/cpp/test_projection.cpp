// The identities of the paper's projections (§2, appendix) on random systems of every Jacobian kind.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include <Eigen/Eigenvalues>

#include "oblique/math/impact.hpp"
#include "oblique/math/projection.hpp"
#include "error_message.hpp"
#include "random_systems.hpp"
#include "comparisons.hpp"

namespace oblique {
namespace {

using testing::JacobianKind;
using testing::RandomSystems;

/// ‖a − b‖_F ≤ tol·max(1, ‖a‖_F, ‖b‖_F).
::testing::AssertionResult Near(const Matrix& a, const Matrix& b, double tol) {
  const double scale = std::max({1.0, a.norm(), b.norm()});
  const double gap = (a - b).norm();
  if (gap <= tol * scale) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "gap " << gap << " > " << tol << " × " << scale;
}

double eigen_cond(const Matrix& symmetric) {
  Eigen::SelfAdjointEigenSolver<Matrix> eig(symmetric, Eigen::EigenvaluesOnly);
  return eig.eigenvalues().maxCoeff() / eig.eigenvalues().minCoeff();
}

class ProjectionKinds : public ::testing::TestWithParam<JacobianKind> {};

TEST_P(ProjectionKinds, PaperIdentitiesHold) {
  RandomSystems rng(1234 + static_cast<int>(GetParam()));
  for (int trial = 0; trial < 25; ++trial) {
    const int n = rng.integer(4, 9);
    const Matrix m = rng.inertia(n);
    const Matrix a = rng.jacobian(GetParam(), n);
    const Projection proj(m, a);
    const Matrix id = Matrix::Identity(n, n);
    const Matrix& p = proj.null_projector();
    const Matrix& s = proj.oblique_projector();
    const Matrix& r = proj.reflection();
    const double tol = 1e-10;

    // P is the orthogonal projector onto N(A).
    EXPECT_TRUE(Near(p * p, p, tol));
    EXPECT_TRUE(Near(p, p.transpose(), tol));
    if (a.rows() > 0) EXPECT_TRUE(Near(a * p, Matrix::Zero(a.rows(), n), tol));
    // S² = S, SP = 0, (I − P)S = I − P, S(I − P) = S.
    EXPECT_TRUE(Near(s * s, s, tol));
    EXPECT_TRUE(Near(s * p, Matrix::Zero(n, n), tol));
    EXPECT_TRUE(Near((id - p) * s, id - p, tol));
    EXPECT_TRUE(Near(s * (id - p), s, tol));
    // MS = SᵀM = SᵀMS.
    EXPECT_TRUE(Near(m * s, s.transpose() * m, tol));
    EXPECT_TRUE(Near(s.transpose() * m * s, m * s, tol));
    // (I − S)M⁻¹ = M⁻¹(I − Sᵀ) = Mo⁺, and Mo⁺ is the pseudo-inverse of Mo.
    const Matrix m_inv = m.inverse();
    EXPECT_TRUE(Near((id - s) * m_inv, proj.projected_inertia_pinv(), tol));
    EXPECT_TRUE(Near(m_inv * (id - s.transpose()), proj.projected_inertia_pinv(), tol));
    const Matrix& mo = proj.projected_inertia();
    EXPECT_TRUE(Near(mo * proj.projected_inertia_pinv() * mo, mo, tol));
    // PMc = McP = PMP and M Mc⁻¹ P = P.
    const Matrix& mc = proj.constraint_inertia();
    EXPECT_TRUE(Near(p * mc, mo, tol));
    EXPECT_TRUE(Near(mc * p, mo, tol));
    EXPECT_TRUE(Near(p * m * mc.inverse() * p, p, tol));
    // R² = I.
    EXPECT_TRUE(Near(r * r, id, tol));
    // The reported residuals agree.
    for (const auto& [name, value] : projection_identities(proj)) EXPECT_LT(value, 1e-10) << name;
    // The rank is that of A.
    if (a.rows() > 0) {
      Eigen::FullPivLU<Matrix> lu(a);
      EXPECT_EQ(proj.rank(), static_cast<int>(lu.rank()));
    } else {
      EXPECT_EQ(proj.rank(), 0);
      EXPECT_TRUE(Near(s, Matrix::Zero(n, n), tol));
    }
  }
}

TEST_P(ProjectionKinds, DefaultNuMinimisesConditionNumber) {
  RandomSystems rng(77 + static_cast<int>(GetParam()));
  for (int trial = 0; trial < 10; ++trial) {
    const int n = rng.integer(4, 8);
    const Matrix m = rng.inertia(n);
    const Matrix a = rng.jacobian(GetParam(), n);
    const Projection proj(m, a);
    // The reported cond(Mc) is the 2-norm condition number of the matrix in use.
    EXPECT_NEAR(proj.cond_constraint_inertia(), eigen_cond(proj.constraint_inertia()),
                1e-8 * proj.cond_constraint_inertia());
    // No ν of a wide logarithmic sweep does better.
    for (double exponent = -4.0; exponent <= 4.0; exponent += 0.05) {
      const double nu = proj.nu() * std::pow(10.0, exponent);
      const Projection other(m, a, nu);
      const double cond = eigen_cond(other.constraint_inertia());
      EXPECT_GE(cond, proj.cond_constraint_inertia() * (1.0 - 1e-9)) << "nu = " << nu;
      EXPECT_NEAR(other.cond_constraint_inertia(), cond, 1e-7 * cond);
      EXPECT_NEAR(proj.cond_constraint_inertia_for(nu), cond, 1e-7 * cond);
    }
    // The default lies in the optimal interval [λ_min≠0(Mo), λ_max(Mo)], at its geometric middle, and a
    // projection built with another ν still knows it.
    EXPECT_GE(proj.nu(), proj.nu_lower() * (1 - 1e-12));
    EXPECT_LE(proj.nu(), proj.nu_upper() * (1 + 1e-12));
    EXPECT_EQ(proj.optimal_nu(), proj.nu());
    EXPECT_NEAR(proj.optimal_nu() * proj.optimal_nu(), proj.nu_lower() * proj.nu_upper(),
                1e-14 * proj.nu_lower() * proj.nu_upper());
    EXPECT_EQ(Projection(m, a, 123.0).optimal_nu(), proj.nu());
  }
}

TEST_P(ProjectionKinds, ProjectorsDoNotDependOnNu) {
  RandomSystems rng(991 + static_cast<int>(GetParam()));
  const int n = 6;
  const Matrix m = rng.inertia(n);
  const Matrix a = rng.jacobian(GetParam(), n);
  const Projection reference(m, a);
  for (double nu : {1e-3, 0.37, 1.0, 55.0, 1e3}) {
    const Projection other(m, a, nu);
    EXPECT_FALSE(other.nu_is_default());
    EXPECT_TRUE(Near(other.oblique_projector(), reference.oblique_projector(), 1e-8)) << "nu = " << nu;
    EXPECT_TRUE(Near(other.projected_inertia_pinv(), reference.projected_inertia_pinv(), 1e-8));
  }
}

INSTANTIATE_TEST_SUITE_P(AllJacobianKinds, ProjectionKinds, ::testing::ValuesIn(testing::all_jacobian_kinds()),
                         [](const auto& info) { return std::string(testing::name(info.param)); });

TEST(PseudoInverse, MatchesPenroseConditions) {
  RandomSystems rng(5);
  for (JacobianKind kind : testing::all_jacobian_kinds()) {
    const Matrix a = rng.jacobian(kind, 7);
    const PseudoInverse pi = pseudo_inverse(a);
    if (a.rows() == 0) {
      EXPECT_EQ(pi.pinv.rows(), 7);
      EXPECT_EQ(pi.pinv.cols(), 0);
      continue;
    }
    const Matrix& x = pi.pinv;
    EXPECT_TRUE(Near(a * x * a, a, 1e-10));
    EXPECT_TRUE(Near(x * a * x, x, 1e-10));
    EXPECT_TRUE(Near(a * x, (a * x).transpose(), 1e-10));
    EXPECT_TRUE(Near(x * a, (x * a).transpose(), 1e-10));
    // The null basis is orthonormal and annihilated by A.
    EXPECT_TRUE(Near(pi.null_basis.transpose() * pi.null_basis,
                     Matrix::Identity(pi.null_basis.cols(), pi.null_basis.cols()), 1e-12));
    EXPECT_TRUE(Near(a * pi.null_basis, Matrix::Zero(a.rows(), pi.null_basis.cols()), 1e-10));
  }
}

TEST(Projection, FullyConstrainedSystemHasIdentityS) {
  // n independent rows: no free direction, every velocity is stopped or reflected.
  RandomSystems rng(9);
  const Matrix m = rng.inertia(3);
  const Matrix a = rng.matrix(3, 3);
  const Projection proj(m, a);
  EXPECT_EQ(proj.rank(), 3);
  EXPECT_TRUE(Near(proj.oblique_projector(), Matrix::Identity(3, 3), 1e-10));
  EXPECT_DOUBLE_EQ(proj.cond_constraint_inertia(), 1.0);
}

// --- entry-point checks ---------------------------------------------------------------------------------

using testing::message_of;

using testing::same_bits;

TEST(ProjectionInput, RejectsBadInertia) {
  const Matrix a = Matrix::Ones(1, 2);
  Matrix asym(2, 2);
  asym << 1, 0.5, 0.4, 1;
  EXPECT_EQ(message_of([&] { Projection(asym, a); }).rfind("M: must be symmetric", 0), 0u);
  Matrix indefinite(2, 2);
  indefinite << 1, 2, 2, 1;
  EXPECT_EQ(message_of([&] { Projection(indefinite, a); }), "M: must be positive definite");
  Matrix with_nan = Matrix::Identity(2, 2);
  with_nan(1, 0) = std::nan("");
  EXPECT_EQ(message_of([&] { Projection(with_nan, a); }), "M[1][0]: must be a finite number");
  EXPECT_EQ(message_of([&] { Projection(Matrix::Identity(2, 3), a); }).rfind("M: must be a non-empty square", 0), 0u);
  EXPECT_EQ(message_of([&] { Projection(Matrix(0, 0), a); }).rfind("M: must be a non-empty square", 0), 0u);
}

TEST(ProjectionInput, AnInertiaIsItsSymmetricPartWhicheverWayItIsChecked) {
  // A diagonal M is checked without forming ½(M + Mᵀ) or factorising it; whatever way it goes, an Inertia
  // holds ½(M + Mᵀ) bit for bit and solves as the Cholesky factorisation of M does (the diagonal one at its
  // first solve, of the same bits).
  std::vector<Matrix> cases;
  Vector d(4);
  d << 2.0, 0.5, 3e-7, 1e9;
  cases.push_back(d.asDiagonal());  // diagonal: checked without a factorisation
  Matrix negative_zero = d.asDiagonal();
  negative_zero(0, 1) = -0.0;  // facing +0: ½(−0 + 0) is +0, so not its own symmetric part
  cases.push_back(negative_zero);
  Matrix both_negative_zero = negative_zero;
  both_negative_zero(1, 0) = -0.0;  // −0 facing −0: its own symmetric part
  cases.push_back(both_negative_zero);
  Matrix huge = d.asDiagonal();
  huge(3, 3) = std::numeric_limits<double>::max();  // d + d overflows
  cases.push_back(huge);
  Matrix full = d.asDiagonal();
  full(0, 1) = full(1, 0) = 0.25;  // not diagonal
  cases.push_back(full);
  const Vector b = Vector::LinSpaced(4, -1.0, 2.0);
  for (std::size_t k = 0; k < cases.size(); ++k) {
    const Inertia inertia(cases[k]);
    const Matrix symmetric = symmetric_part(cases[k]);
    EXPECT_TRUE(same_bits(inertia.matrix(), symmetric)) << "case " << k;
    const Vector x = inertia.solve(b);
    const Vector expected = Eigen::LLT<Matrix>(cases[k]).solve(b);
    EXPECT_TRUE(same_bits(x, expected)) << "case " << k;
  }
  // The messages of check_inertia: the first non-finite entry row by row, then a diagonal not positive.
  Matrix two_bad = Matrix::Identity(3, 3);
  two_bad(2, 0) = INFINITY;
  two_bad(0, 2) = std::nan("");
  EXPECT_EQ(message_of([&] { Inertia bad(two_bad); }), "M[0][2]: must be a finite number");
  Matrix zero_mass = Matrix::Identity(3, 3);
  zero_mass(1, 1) = 0.0;
  EXPECT_EQ(message_of([&] { Inertia bad(zero_mass); }), "M: must be positive definite");
  Matrix negative_mass = zero_mass;
  negative_mass(1, 1) = -1.0;
  EXPECT_EQ(message_of([&] { Inertia bad(negative_mass); }), "M: must be positive definite");
}

TEST(ProjectionInput, AnInertiaFromItsDiagonalIsTheOneFromTheMatrix) {
  // Inertia::from_diagonal(d) never forms diag(d) to check it; its verdict, its message, M, diag(M) and its
  // solves must be those of Inertia(diag(d)), bit for bit, over every kind of diagonal entry (including
  // −0, subnormals, and d_i + d_i overflowing, which takes the constructor's general path).
  const double kinds[] = {2.0, 0.5, 3e-7, 1e9, 4.9e-324, std::numeric_limits<double>::max(),
                          0.5 * std::numeric_limits<double>::max(), 0.0, -0.0, -1.0, INFINITY, -INFINITY,
                          std::nan("")};
  const int count = static_cast<int>(std::size(kinds));
  const Vector b = Vector::LinSpaced(3, -1.0, 2.0);
  int accepted = 0;
  int rejected = 0;
  // Every diagonal of three entries drawn from the kinds (13³ of them).
  for (int code = 0; code < count * count * count; ++code) {
    Vector d(3);
    d << kinds[code % count], kinds[(code / count) % count], kinds[code / (count * count)];
    const std::string from_matrix = message_of([&] { Inertia check(Matrix(d.asDiagonal()), "bodies"); });
    const std::string from_diagonal = message_of([&] { Inertia check = Inertia::from_diagonal(d, "bodies"); });
    ASSERT_EQ(from_diagonal, from_matrix) << "d = " << d.transpose();
    if (from_matrix != "no error") {
      ++rejected;
      continue;
    }
    ++accepted;
    const Inertia dense(Matrix(d.asDiagonal()), "bodies");
    const Inertia diagonal = Inertia::from_diagonal(d, "bodies");
    const Inertia copy = diagonal;  // a copy forms M once for both
    EXPECT_TRUE(same_bits(diagonal.diagonal(), dense.diagonal())) << "d = " << d.transpose();
    EXPECT_TRUE(same_bits(copy.matrix(), dense.matrix())) << "d = " << d.transpose();
    EXPECT_EQ(&copy.matrix(), &diagonal.matrix());
    EXPECT_EQ(diagonal.size(), 3);
    EXPECT_TRUE(same_bits(diagonal.solve(b), dense.solve(b))) << "d = " << d.transpose();
  }
  // Both outcomes were met: positive finite diagonals (with the overflowing ones) and every kind of refusal.
  EXPECT_EQ(accepted, 7 * 7 * 7);
  EXPECT_GT(rejected, 0);
  EXPECT_EQ(message_of([&] { Inertia::from_diagonal(Vector(0), "bodies"); }).rfind("bodies: must be a non-empty square", 0), 0u);
  EXPECT_EQ(message_of([&] { Inertia::from_diagonal(Vector::Constant(2, NAN), "bodies"); }), "bodies[0][0]: must be a finite number");
}

TEST(ProjectionInput, RejectsBadJacobianAndNu) {
  const Matrix m = Matrix::Identity(3, 3);
  EXPECT_EQ(message_of([&] { Projection(m, Matrix::Ones(1, 2)); }).rfind("A: every row must have 3 entries", 0), 0u);
  Matrix a = Matrix::Ones(2, 3);
  a(1, 2) = INFINITY;
  EXPECT_EQ(message_of([&] { Projection(m, a); }), "A[1][2]: must be a finite number");
  EXPECT_EQ(message_of([&] { Projection(m, Matrix::Ones(1, 3), -1.0); }), "nu: must be a finite positive number");
  EXPECT_EQ(message_of([&] { Projection(m, Matrix::Ones(1, 3), 0.0); }), "nu: must be a finite positive number");
}

}  // namespace
}  // namespace oblique
