#include "oblique/projection.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include <Eigen/Eigenvalues>
#include <Eigen/SVD>

#include "checks.hpp"

namespace oblique {

using detail::fail;

PseudoInverse pseudo_inverse(const Matrix& a) {
  const Eigen::Index m = a.rows();
  const Eigen::Index n = a.cols();
  PseudoInverse out;
  // No rows: nothing constrains the motion, every direction is free.
  if (m == 0 || n == 0) {
    out.pinv = Matrix::Zero(n, m);
    out.null_basis = Matrix::Identity(n, n);
    return out;
  }
  // Full V gives the null-space basis as the trailing right singular vectors.
  Eigen::JacobiSVD<Matrix> svd(a, Eigen::ComputeThinU | Eigen::ComputeFullV);
  const Vector& sigma = svd.singularValues();
  out.tolerance = static_cast<double>(std::max(m, n)) * std::numeric_limits<double>::epsilon() *
                  (sigma.size() > 0 ? sigma(0) : 0.0);
  // Keep the singular values above numpy's pinv tolerance.
  int r = 0;
  while (r < sigma.size() && sigma(r) > out.tolerance) ++r;
  out.rank = r;
  const Matrix& u = svd.matrixU();
  const Matrix& v = svd.matrixV();
  // A⁺ = V_r Σ_r⁻¹ U_rᵀ.
  out.pinv = v.leftCols(r) * sigma.head(r).cwiseInverse().asDiagonal() * u.leftCols(r).transpose();
  out.null_basis = v.rightCols(n - r);
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

Projection::Projection(const Matrix& inertia, const Matrix& jacobian, std::optional<double> nu) {
  // Check the inputs where they enter.
  inertia_llt_ = check_inertia(inertia, "M");
  const Eigen::Index n = inertia.rows();
  if (jacobian.rows() > 0 && jacobian.cols() != n) {
    fail("A", "every row must have " + std::to_string(n) + " entries (the size of M), got " +
                  std::to_string(jacobian.cols()));
  }
  detail::check_finite(jacobian, "A");
  if (nu && !(std::isfinite(*nu) && *nu > 0.0)) fail("nu", "must be a finite positive number");

  inertia_ = symmetric_part(inertia);
  jacobian_ = jacobian.rows() > 0 ? jacobian : Matrix(0, n);
  const Matrix identity = Matrix::Identity(n, n);

  // P = I − A⁺A, the orthogonal projector onto N(A).
  pinv_ = pseudo_inverse(jacobian_);
  const int r = pinv_.rank;
  nu_is_default_ = !nu.has_value();
  if (nu) nu_ = *nu;

  // Unconstrained (no row, or A = 0): P = I, Mc = Mo = M, S = 0, R = I, Mo⁺ = M⁻¹ whatever ν is; the
  // spectrum of M (for cond(Mc) and the default ν) is computed only if asked for.
  if (r == 0) {
    null_projector_ = identity;
    projected_inertia_ = inertia_;
    constraint_inertia_ = inertia_;
    oblique_projector_ = Matrix::Zero(n, n);
    reflection_ = identity;
    projected_inertia_pinv_ = symmetric_part(inertia_llt_.solve(identity));
    return;
  }
  null_projector_ = symmetric_part(identity - pinv_.pinv * jacobian_);

  // Mo = PMP; its non-zero eigenvalues are those of V₂ᵀMV₂ with V₂ a basis of N(A).
  projected_inertia_ = symmetric_part(null_projector_ * inertia_ * null_projector_);
  if (r < n) {
    const Matrix reduced = pinv_.null_basis.transpose() * inertia_ * pinv_.null_basis;
    Eigen::SelfAdjointEigenSolver<Matrix> eig(reduced, Eigen::EigenvaluesOnly);
    set_spectrum(eig.eigenvalues().minCoeff(), eig.eigenvalues().maxCoeff());
  } else {
    // Fully constrained: Mo = 0 and cond(Mc) = 1 for every ν; keep ν on the scale of M.
    ensure_spectrum();
  }

  // Mc = PMP + ν(I − P), factorised once.
  constraint_inertia_ = symmetric_part(projected_inertia_ + nu_ * (identity - null_projector_));
  Eigen::LLT<Matrix> mc_llt(constraint_inertia_);

  // S = I − Mc⁻¹PM, R = I − 2S, Mo⁺ = Mc⁻¹P.
  oblique_projector_ = identity - mc_llt.solve(null_projector_ * inertia_);
  reflection_ = identity - 2.0 * oblique_projector_;
  projected_inertia_pinv_ = symmetric_part(mc_llt.solve(null_projector_));
}

void Projection::set_spectrum(double lower, double upper) const {
  nu_lower_ = lower;
  nu_upper_ = upper;
  spectrum_known_ = true;
  // ν: the geometric mean of the optimal interval unless the user chose one.
  if (nu_is_default_) nu_ = std::sqrt(lower * upper);
  cond_constraint_inertia_ = cond_constraint_inertia_for(nu_);
}

void Projection::ensure_spectrum() const {
  if (spectrum_known_) return;
  // Extreme eigenvalues of M: the interval for ν when r = 0 or r = n.
  Eigen::SelfAdjointEigenSolver<Matrix> eig(inertia_, Eigen::EigenvaluesOnly);
  set_spectrum(eig.eigenvalues().minCoeff(), eig.eigenvalues().maxCoeff());
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
