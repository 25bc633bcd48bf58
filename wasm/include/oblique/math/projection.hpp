// Projection operators of Aghili, "Nonsmooth Mechanics Based on Linear Projection Operator", §2.
//
// Given the inertia matrix M (n×n, symmetric positive definite) and a constraint Jacobian A (m×n, any
// rank, m may be 0 or larger than n), this header computes once, and keeps, every matrix the rest of the
// paper is written in:
//
//   A⁺            pseudo-inverse and r = rank A, from a rank-revealing QR (see pseudo_inverse)
//   P  = I − A⁺A = V₂V₂ᵀ              orthogonal projector onto the null space N(A), V₂ an orthonormal basis
//   Mo = P M P                        projected inertia
//   Mc = P M P + ν (I − P)            constraint inertia (always SPD), eigenvalues {ν ×r} ∪ eig≠0(Mo)
//   S  = I − Mc⁻¹ P M                 oblique projector onto N⊥ along N (S² = S, SP = 0)
//   R  = I − 2 S                      reflection (R² = I): the elastic impact map
//   Mo⁺ = Mc⁻¹ P                      pseudo-inverse of Mo
//
// Mo and PM are formed through V₂ (Mo = V₂(V₂ᵀMV₂)V₂ᵀ, whose middle factor also gives the spectrum of the
// appendix); Mc is factorised once by Cholesky and S solved from it, as the paper writes it.
//
// The default virtual mass ν is the geometric mean of λ_min≠0(Mo) and λ_max(Mo): any ν in that interval
// minimises cond(Mc) (paper eq. (9f)); the geometric mean is the point farthest from both ends in ratio.
// A user-set ν > 0 is allowed so that its effect on cond(Mc) can be shown; S, R and every physical result
// are independent of ν.
#pragma once

#include <memory>
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
  int rank = 0;        ///< number of pivots above `tolerance`
  double tolerance = 0.0;  ///< max(m, n)·ε·|R₀₀|: numpy.linalg.pinv's, with the largest pivot for σ_max
  Matrix null_basis;   ///< orthonormal basis V₂ of N(A), n×(n−rank)
  Matrix range_basis;  ///< orthonormal basis V₁ of N(A)⊥ = range(Aᵀ), n×rank
};

/// Pseudo-inverse of `a` (m×n) by a complete orthogonal decomposition: a QR with column pivoting of Aᵀ,
/// AᵀΠ = [V₁ V₂][R₁; 0] (rank r = pivots above the tolerance), then A⁺ = V₁(Wᵀ)⁺ with W = R₁Πᵀ, whose
/// pseudo-inverse comes from a second, thin QR. This is the minimum-norm pseudo-inverse an SVD gives (the
/// rank decision compares pivots instead of singular values, which differ only for singular values within
/// a small factor of the tolerance) at a third of its cost, and it yields orthonormal bases of N(A) and
/// N(A)⊥. A 0×n matrix gives a n×0 pseudo-inverse, rank 0 and the identity as null-space basis.
PseudoInverse pseudo_inverse(const Matrix& a);

/// Throws std::invalid_argument naming `field` unless `m` is a square, finite, symmetric (to 1e-12
/// relative) and positive definite matrix; returns its Cholesky factorisation.
Eigen::LLT<Matrix> check_inertia(const Matrix& m, const char* field = "M");

/// A checked inertia matrix M and its Cholesky factorisation: check and factorise once, project many
/// times (a simulation's M in absolute coordinates is constant). A diagonal M (every model's: m, m, I per
/// body) is positive definite exactly when its diagonal is positive, so its O(n³) factorisation waits for
/// the first solve, which the sparse path never makes; an M given by its diagonal is not even formed as an
/// n×n matrix until matrix() is first called. The copies of an Inertia share both.
class Inertia {
 public:
  /// Checks `m` as check_inertia does (naming `field`, with the same messages) and factorises it (a
  /// diagonal `m` at the first solve, to the same bits).
  explicit Inertia(const Matrix& m, const char* field = "M");
  /// M = diag(d), with the verdicts and messages of Inertia(Matrix(d.asDiagonal()), field) and the same
  /// bits from matrix() and solve(), checked in O(n) (a model's M: the Simulator's construction).
  static Inertia from_diagonal(const Vector& d, const char* field = "M");
  /// The identity of size n (the M̃ = I of mass-scaled coordinates, scaled_projection.hpp), valid by
  /// construction: no check, so that a projection built at every evaluation does not pay for one. Its
  /// Cholesky factor is I, exactly as Inertia(Matrix::Identity(n, n)) gives it.
  static Inertia identity(int n);

  /// M (an M given by its diagonal is formed at the first call).
  const Matrix& matrix() const;
  int size() const { return size_; }
  /// diag(M), without forming M when it was given by its diagonal.
  Vector diagonal() const { return diagonal_.size() == size_ ? diagonal_ : Vector(matrix().diagonal()); }

  /// Solves M x = b (b a vector or a matrix).
  template <typename Rhs>
  typename Rhs::PlainObject solve(const Eigen::MatrixBase<Rhs>& b) const {
    return factor().solve(b);
  }

 private:
  Inertia() = default;
  /// The Cholesky factorisation of M, made now if it was left for the first solve.
  const Eigen::LLT<Matrix>& factor() const;
  // What is made on first use, shared by the copies (a Projection and every impact record keep one): the
  // n×n M of an Inertia given by its diagonal, and the LLᵀ of a diagonal M.
  struct Deferred {
    std::optional<Matrix> matrix;
    std::optional<Eigen::LLT<Matrix>> factor;
  };
  int size_ = 0;
  Vector diagonal_;  // diag(M) when M was given by it (matrix() forms M from it), else empty
  std::shared_ptr<Deferred> deferred_ = std::make_shared<Deferred>();
};

/// The projections of one (M, A) pair. Construction checks the inputs and throws std::invalid_argument
/// with a message naming the field ("M", "A" or "nu") when they are not valid.
class Projection {
 public:
  /// Builds every operator of the header comment. `nu`, when given, must be finite and positive;
  /// otherwise the condition-optimal default is used.
  Projection(const Matrix& inertia, const Matrix& jacobian, std::optional<double> nu = std::nullopt);
  /// The same with M already checked and factorised.
  Projection(const Inertia& inertia, const Matrix& jacobian, std::optional<double> nu = std::nullopt);

  int n() const { return inertia_.size(); }
  int m() const { return static_cast<int>(jacobian_.rows()); }
  int rank() const { return pinv_.rank; }

  const Matrix& inertia() const { return inertia_.matrix(); }   ///< M
  const Matrix& jacobian() const { return jacobian_; }          ///< A
  const Matrix& jacobian_pinv() const { return pinv_.pinv; }    ///< A⁺
  const Matrix& null_projector() const { return null_projector_; }            ///< P
  const Matrix& projected_inertia() const { return projected_inertia_; }      ///< Mo = PMP
  const Matrix& constraint_inertia() const { return constraint_inertia_; }    ///< Mc
  const Matrix& oblique_projector() const { return oblique_projector_; }      ///< S
  const Matrix& reflection() const { return reflection_; }                    ///< R = I − 2S
  /// Mo⁺ = Mc⁻¹P, computed on first use (the smooth phases of a simulation never need it).
  const Matrix& projected_inertia_pinv() const;

  // ν and cond(Mc). With rank A = 0 (Mc = M) or rank A = n (Mc = νI) they need the spectrum of M, which
  // is computed on first use (so an unconstrained phase of a simulation does not pay for it); the
  // interval is then that of M's eigenvalues.
  double nu() const { ensure_spectrum(); return nu_; }               ///< virtual mass ν in use
  bool nu_is_default() const { return nu_is_default_; }
  double nu_lower() const { ensure_spectrum(); return nu_lower_; }   ///< λ_min≠0(Mo): lower end of the optimal ν range
  double nu_upper() const { ensure_spectrum(); return nu_upper_; }   ///< λ_max(Mo): upper end of the optimal ν range
  double cond_constraint_inertia() const { ensure_spectrum(); return cond_constraint_inertia_; }  ///< cond(Mc), 2-norm
  /// The default ν, √(λ_min≠0(Mo) λ_max(Mo)): the middle, in ratio, of the optimal interval (ν() unless the
  /// caller chose another).
  double optimal_nu() const;

  /// cond(Mc) for another ν, from the eigenvalues of the paper's appendix (no refactorisation).
  double cond_constraint_inertia_for(double nu) const;

  /// Solves M x = b (b a vector or a matrix) with the Cholesky factor of M.
  template <typename Rhs>
  typename Rhs::PlainObject solve_inertia(const Eigen::MatrixBase<Rhs>& b) const {
    return inertia_.solve(b);
  }

 private:
  void set_spectrum(double lower, double upper) const;
  void ensure_spectrum() const;

  Inertia inertia_;
  Matrix jacobian_;
  PseudoInverse pinv_;
  Matrix null_projector_;
  Matrix projected_inertia_;
  Matrix constraint_inertia_;
  Eigen::LLT<Matrix> constraint_inertia_factor_;
  Matrix oblique_projector_;
  Matrix reflection_;
  bool nu_is_default_ = true;
  mutable bool projected_inertia_pinv_known_ = false;
  mutable Matrix projected_inertia_pinv_;
  // Filled by set_spectrum, possibly lazily from a const accessor (a Projection is not for concurrent use).
  mutable bool spectrum_known_ = false;
  mutable double nu_ = 1.0;
  mutable double nu_lower_ = 1.0;
  mutable double nu_upper_ = 1.0;
  mutable double cond_constraint_inertia_ = 1.0;
};

}  // namespace oblique
