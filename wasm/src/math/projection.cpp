#include "oblique/math/projection.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include <Eigen/Eigenvalues>
#include <Eigen/QR>

#include "math/checks.hpp"

namespace oblique {

using detail::fail;

namespace {

/// Whether a diagonal entry d is its own symmetric part, ½(d + d), bit for bit: not when d + d overflows.
bool own_symmetric_part(double d) {
  const double symmetric = 0.5 * (d + d);
  return std::memcmp(&symmetric, &d, sizeof(double)) == 0;
}

}  // namespace

PseudoInverse pseudo_inverse(const Matrix& a) {
  const Eigen::Index m = a.rows();
  const Eigen::Index n = a.cols();
  PseudoInverse out;
  // No rows: nothing constrains the motion, every direction is free.
  if (m == 0 || n == 0) {
    out.pinv = Matrix::Zero(n, m);
    out.null_basis = Matrix::Identity(n, n);
    out.range_basis = Matrix(n, 0);
    return out;
  }
  // QR with column pivoting of Aᵀ: AᵀΠ = Q[R₁; 0]; the rank counts pivots above max(m, n)·ε·|R₀₀|.
  Eigen::ColPivHouseholderQR<Matrix> qr(a.transpose());
  qr.setThreshold(static_cast<double>(std::max(m, n)) * std::numeric_limits<double>::epsilon());
  const int r = static_cast<int>(qr.rank());
  out.rank = r;
  out.tolerance = qr.threshold() * qr.maxPivot();
  // Q = [V₁ V₂]: V₁ spans range(Aᵀ) = N(A)⊥, V₂ spans N(A).
  const Matrix q = qr.householderQ() * Matrix::Identity(n, n);
  out.range_basis = q.leftCols(r);
  out.null_basis = q.rightCols(n - r);
  if (r == 0) {
    out.pinv = Matrix::Zero(n, m);
    return out;
  }
  // Aᵀ = V₁W with W = R₁Πᵀ (r×m, full row rank), so A⁺ = V₁(Wᵀ)⁺ and (Wᵀ)⁺ = R₂⁻¹Q₂ᵀ from Wᵀ = Q₂R₂.
  const Matrix w = Matrix(qr.matrixR().topRows(r).triangularView<Eigen::Upper>()) * qr.colsPermutation().transpose();
  const Eigen::HouseholderQR<Matrix> thin(w.transpose());
  const Matrix q2 = thin.householderQ() * Matrix::Identity(m, r);
  const Matrix wt_pinv = thin.matrixQR().topRows(r).triangularView<Eigen::Upper>().solve(q2.transpose());
  out.pinv = out.range_basis * wt_pinv;
  return out;
}

Eigen::LLT<Matrix> check_inertia(const Matrix& m, const char* field) {
  if (m.rows() == 0 || m.rows() != m.cols()) {
    fail(field, "must be a non-empty square matrix, got " + std::to_string(m.rows()) + "×" +
                    std::to_string(m.cols()));
  }
  detail::check_finite(m, field);
  // Symmetric to 1e-12 relative to its largest entry.
  const double scale = m.cwiseAbs().maxCoeff();
  const double asymmetry = (m - m.transpose()).cwiseAbs().maxCoeff();
  if (asymmetry > 1e-12 * scale) {
    fail(field, "must be symmetric (largest |M - Mᵀ| is " + detail::format_number(asymmetry) + ")");
  }
  // Positive definite: the Cholesky factorisation exists.
  Eigen::LLT<Matrix> llt(m);
  if (llt.info() != Eigen::Success || scale == 0.0) fail(field, "must be positive definite");
  return llt;
}

Inertia::Inertia(const Matrix& m, const char* field) : size_(static_cast<int>(m.rows())) {
  // A diagonal M whose symmetric part is itself, bit for bit: check_inertia's checks, positive definite
  // meaning a positive diagonal (its Cholesky pivots are its diagonal entries), the factorisation of the
  // same bits left for the first solve.
  if (m.rows() > 0 && m.rows() == m.cols()) {
    // Every entry finite (check_finite names the first, in its order, when one is not).
    if (!m.allFinite()) detail::check_finite(m, field);
    // Diagonal, and ½(M + Mᵀ) the same bits as M, in one pass over M in its storage order without forming
    // ½(M + Mᵀ): off the diagonal ½(a + b) of two zeros is a's bits unless a is −0 and b is +0; on it,
    // ½(d + d) is d unless d + d overflows.
    bool same = true;
    for (Eigen::Index j = 0; j < m.cols() && same; ++j) {
      for (Eigen::Index i = 0; i < m.rows() && same; ++i) {
        const double entry = m(i, j);
        if (i != j) {
          same = entry == 0.0 && (!std::signbit(entry) || std::signbit(m(j, i)));
        } else {
          same = own_symmetric_part(entry);
        }
      }
    }
    if (same) {
      if (!(m.diagonal().minCoeff() > 0.0)) fail(field, "must be positive definite");
      deferred_->matrix = m;
      return;
    }
  }
  // Otherwise checked and factorised now.
  deferred_->factor = check_inertia(m, field);
  deferred_->matrix = symmetric_part(m);
}

Inertia Inertia::from_diagonal(const Vector& d, const char* field) {
  // The constructor's verdicts on diag(d), in its order: a non-finite entry named by check_finite (off the
  // diagonal every entry is +0, so the first it meets is the first non-finite d_i); then, unless some
  // ½(d_i + d_i) is not d_i's bits (d_i + d_i overflows: the constructor's general path, taken here too),
  // positive definite meaning a positive diagonal.
  bool same = d.size() > 0;
  for (Eigen::Index i = 0; i < d.size() && same; ++i) same = std::isfinite(d(i)) && own_symmetric_part(d(i));
  if (!same) return Inertia(Matrix(d.asDiagonal()), field);
  if (!(d.minCoeff() > 0.0)) fail(field, "must be positive definite");
  Inertia out;
  out.size_ = static_cast<int>(d.size());
  out.diagonal_ = d;
  return out;
}

Inertia Inertia::identity(int n) {
  // I is symmetric positive definite and diagonal: formed and factorised at first use, without the checks.
  Inertia out;
  out.size_ = n;
  out.diagonal_ = Vector::Ones(n);
  return out;
}

const Matrix& Inertia::matrix() const {
  // diag(d) formed once for every copy: +0 off the diagonal, d on it (the bits the constructor keeps).
  if (!deferred_->matrix.has_value()) deferred_->matrix.emplace(diagonal_.asDiagonal());
  return *deferred_->matrix;
}

const Eigen::LLT<Matrix>& Inertia::factor() const {
  // The factorisation left for the first solve: made from M itself (a diagonal M is its symmetric part).
  if (!deferred_->factor.has_value()) deferred_->factor.emplace(matrix());
  return *deferred_->factor;
}

Projection::Projection(const Matrix& inertia, const Matrix& jacobian, std::optional<double> nu)
    : Projection(Inertia(inertia, "M"), jacobian, nu) {}

Projection::Projection(const Inertia& inertia, const Matrix& jacobian, std::optional<double> nu)
    : inertia_(inertia) {
  // Check the inputs where they enter (M was checked by Inertia).
  const Eigen::Index n = inertia_.size();
  if (jacobian.rows() > 0 && jacobian.cols() != n) {
    fail("A", "every row must have " + std::to_string(n) + " entries (the size of M), got " +
                  std::to_string(jacobian.cols()));
  }
  detail::check_finite(jacobian, "A");
  if (nu && !(std::isfinite(*nu) && *nu > 0.0)) fail("nu", "must be a finite positive number");
  jacobian_ = jacobian.rows() > 0 ? jacobian : Matrix(0, n);
  nu_is_default_ = !nu.has_value();
  if (nu) nu_ = *nu;
  const Matrix& mass = inertia_.matrix();
  const Matrix identity = Matrix::Identity(n, n);

  // A⁺, the rank and the bases of N(A) and N(A)⊥.
  pinv_ = pseudo_inverse(jacobian_);
  const int r = pinv_.rank;

  // Unconstrained (no row, or A = 0): P = I, Mc = Mo = M, S = 0, R = I, Mo⁺ = M⁻¹ whatever ν is; the
  // spectrum of M (for cond(Mc) and the default ν) is computed only if asked for.
  if (r == 0) {
    null_projector_ = identity;
    projected_inertia_ = mass;
    constraint_inertia_ = mass;
    oblique_projector_ = Matrix::Zero(n, n);
    reflection_ = identity;
    return;
  }

  // P = V₂V₂ᵀ, the orthogonal projector onto N(A).
  const Matrix& v2 = pinv_.null_basis;
  null_projector_ = v2 * v2.transpose();

  // V₂ᵀM, and Mr = V₂ᵀMV₂ whose eigenvalues are the non-zero eigenvalues of Mo (the ν interval).
  const Matrix v2t_m = v2.transpose() * mass;
  const Matrix reduced = symmetric_part(v2t_m * v2);
  if (r < n) {
    Eigen::SelfAdjointEigenSolver<Matrix> eig(reduced, Eigen::EigenvaluesOnly);
    set_spectrum(eig.eigenvalues().minCoeff(), eig.eigenvalues().maxCoeff());
  } else {
    // Fully constrained: Mo = 0 and cond(Mc) = 1 for every ν; keep ν on the scale of M.
    ensure_spectrum();
  }

  // Mo = PMP = V₂MrV₂ᵀ, and Mc = PMP + ν(I − P), factorised once.
  projected_inertia_ = symmetric_part(v2 * reduced * v2.transpose());
  constraint_inertia_ = symmetric_part(projected_inertia_ + nu_ * (identity - null_projector_));
  constraint_inertia_factor_.compute(constraint_inertia_);

  // S = I − Mc⁻¹PM with PM = V₂(V₂ᵀM), and R = I − 2S.
  oblique_projector_ = identity - constraint_inertia_factor_.solve(v2 * v2t_m);
  reflection_ = identity - 2.0 * oblique_projector_;
}

const Matrix& Projection::projected_inertia_pinv() const {
  if (!projected_inertia_pinv_known_) {
    // Mo⁺ = Mc⁻¹P; without constraints Mc = M and P = I.
    const Matrix identity = Matrix::Identity(n(), n());
    projected_inertia_pinv_ = rank() == 0 ? symmetric_part(inertia_.solve(identity))
                                          : symmetric_part(constraint_inertia_factor_.solve(null_projector_));
    projected_inertia_pinv_known_ = true;
  }
  return projected_inertia_pinv_;
}

void Projection::set_spectrum(double lower, double upper) const {
  nu_lower_ = lower;
  nu_upper_ = upper;
  spectrum_known_ = true;
  // ν: the geometric mean of the optimal interval unless the user chose one.
  if (nu_is_default_) nu_ = optimal_nu();
  cond_constraint_inertia_ = cond_constraint_inertia_for(nu_);
}

void Projection::ensure_spectrum() const {
  if (spectrum_known_) return;
  // Extreme eigenvalues of M: the interval for ν when r = 0 or r = n.
  Eigen::SelfAdjointEigenSolver<Matrix> eig(inertia_.matrix(), Eigen::EigenvaluesOnly);
  set_spectrum(eig.eigenvalues().minCoeff(), eig.eigenvalues().maxCoeff());
}

double Projection::optimal_nu() const {
  ensure_spectrum();
  return std::sqrt(nu_lower_ * nu_upper_);
}

double Projection::cond_constraint_inertia_for(double nu) const {
  ensure_spectrum();
  const int free_dims = n() - rank();
  // Unconstrained: Mc = M, ν plays no part.
  if (rank() == 0) return nu_upper_ / nu_lower_;
  // Fully constrained: Mc = νI.
  if (free_dims == 0) return 1.0;
  return std::max(nu, nu_upper_) / std::min(nu, nu_lower_);
}

}  // namespace oblique
