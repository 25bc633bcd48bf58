// Projection operators of Aghili, "Nonsmooth Mechanics Based on Linear Projection Operator", §2.
//
// Given the inertia matrix M (n×n, symmetric positive definite) and a constraint Jacobian A (m×n, any
// rank, m may be 0 or larger than n), this header computes once, and keeps, every matrix the rest of the
// paper is written in:
//
//   A⁺            pseudo-inverse, from an SVD with numpy's tolerance max(m, n)·ε·σ_max;  r = rank A
//   P  = I − A⁺A                      orthogonal projector onto the null space N(A)
//   Mo = P M P                        projected inertia
//   Mc = P M P + ν (I − P)            constraint inertia (always SPD), eigenvalues {ν ×r} ∪ eig≠0(Mo)
//   S  = I − Mc⁻¹ P M                 oblique projector onto N⊥ along N (S² = S, SP = 0)
//   R  = I − 2 S                      reflection (R² = I): the elastic impact map
//   Mo⁺ = Mc⁻¹ P                      pseudo-inverse of Mo
//
// The default virtual mass ν is the geometric mean of λ_min≠0(Mo) and λ_max(Mo): any ν in that interval
// minimises cond(Mc) (paper eq. condMc); the geometric mean is the point farthest from both ends in ratio.
// A user-set ν > 0 is allowed so that its effect on cond(Mc) can be shown; S, R and every physical result
// are independent of ν.
#pragma once

#include <optional>

#include <Eigen/Cholesky>
#include <Eigen/Core>

namespace oblique {

using Matrix = Eigen::MatrixXd;
using Vector = Eigen::VectorXd;

/// ½(X + Xᵀ), evaluated without aliasing.
inline Matrix symmetric_part(const Matrix& x) { return (0.5 * (x + x.transpose())).eval(); }

/// Moore–Penrose pseudo-inverse and numerical rank of a matrix.
struct PseudoInverse {
  Matrix pinv;         ///< A⁺ (n×m)
  int rank = 0;        ///< number of singular values above `tolerance`
  double tolerance = 0.0;  ///< max(m, n)·ε·σ_max, as numpy.linalg.pinv
  Matrix null_basis;   ///< orthonormal basis of N(A), n×(n−rank)
};

/// Pseudo-inverse of `a` by singular value decomposition. A 0×n matrix gives a n×0 pseudo-inverse,
/// rank 0 and the identity as null-space basis.
PseudoInverse pseudo_inverse(const Matrix& a);

/// Throws std::invalid_argument naming `field` unless `m` is a square, finite, symmetric (to 1e-12
/// relative) and positive definite matrix; returns its Cholesky factorisation.
Eigen::LLT<Matrix> check_inertia(const Matrix& m, const char* field = "M");

/// The projections of one (M, A) pair. Construction checks the inputs and throws std::invalid_argument
/// with a message naming the field ("M", "A" or "nu") when they are not valid.
class Projection {
 public:
  /// Builds every operator of the header comment. `nu`, when given, must be finite and positive;
  /// otherwise the condition-optimal default is used.
  Projection(const Matrix& inertia, const Matrix& jacobian, std::optional<double> nu = std::nullopt);

  int n() const { return static_cast<int>(inertia_.rows()); }
  int m() const { return static_cast<int>(jacobian_.rows()); }
  int rank() const { return pinv_.rank; }

  const Matrix& inertia() const { return inertia_; }            ///< M
  const Matrix& jacobian() const { return jacobian_; }          ///< A
  const Matrix& jacobian_pinv() const { return pinv_.pinv; }    ///< A⁺
  const Matrix& null_projector() const { return null_projector_; }            ///< P
  const Matrix& projected_inertia() const { return projected_inertia_; }      ///< Mo = PMP
  const Matrix& constraint_inertia() const { return constraint_inertia_; }    ///< Mc
  const Matrix& oblique_projector() const { return oblique_projector_; }      ///< S
  const Matrix& reflection() const { return reflection_; }                    ///< R = I − 2S
  const Matrix& projected_inertia_pinv() const { return projected_inertia_pinv_; }  ///< Mo⁺ = Mc⁻¹P

  // ν and cond(Mc). With rank A = 0 (Mc = M) or rank A = n (Mc = νI) they need the spectrum of M, which
  // is computed on first use (so an unconstrained phase of a simulation does not pay for it); the
  // interval is then that of M's eigenvalues.
  double nu() const { ensure_spectrum(); return nu_; }               ///< virtual mass ν in use
  bool nu_is_default() const { return nu_is_default_; }
  double nu_lower() const { ensure_spectrum(); return nu_lower_; }   ///< λ_min≠0(Mo): lower end of the optimal ν range
  double nu_upper() const { ensure_spectrum(); return nu_upper_; }   ///< λ_max(Mo): upper end of the optimal ν range
  double cond_constraint_inertia() const { ensure_spectrum(); return cond_constraint_inertia_; }  ///< cond(Mc), 2-norm

  /// cond(Mc) for another ν, from the eigenvalues of the paper's appendix (no refactorisation).
  double cond_constraint_inertia_for(double nu) const;

  /// Solves M x = b (b a vector or a matrix) with the Cholesky factor of M.
  template <typename Rhs>
  typename Rhs::PlainObject solve_inertia(const Eigen::MatrixBase<Rhs>& b) const {
    return inertia_llt_.solve(b);
  }

 private:
  void set_spectrum(double lower, double upper) const;
  void ensure_spectrum() const;

  Matrix inertia_;
  Matrix jacobian_;
  PseudoInverse pinv_;
  Eigen::LLT<Matrix> inertia_llt_;
  Matrix null_projector_;
  Matrix projected_inertia_;
  Matrix constraint_inertia_;
  Matrix oblique_projector_;
  Matrix reflection_;
  Matrix projected_inertia_pinv_;
  bool nu_is_default_ = true;
  // Filled by set_spectrum, possibly lazily from a const accessor (a Projection is not for concurrent use).
  mutable bool spectrum_known_ = false;
  mutable double nu_ = 1.0;
  mutable double nu_lower_ = 1.0;
  mutable double nu_upper_ = 1.0;
  mutable double cond_constraint_inertia_ = 1.0;
};

}  // namespace oblique
