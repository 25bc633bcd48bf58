#include "oblique/math/dynamics.hpp"

#include <string>

#include "math/checks.hpp"

namespace oblique {

namespace {

void check_vector(const Vector& v, Eigen::Index size, const char* field, const char* size_name) {
  if (v.size() != size) {
    detail::fail(field, "must have " + std::to_string(size) + " entries (" + size_name + "), got " +
                            std::to_string(v.size()));
  }
  detail::check_finite(v, field);
}

}  // namespace

ConstrainedDynamics constrained_dynamics(const Projection& proj, const Vector& h, const Vector& u,
                                         const Vector& adot_qd) {
  check_vector(h, proj.n(), "h", "the size of M");
  check_vector(u, proj.n(), "u", "the size of M");
  check_vector(adot_qd, proj.m(), "adot_qd", "the rows of A");
  const Matrix& s = proj.oblique_projector();
  ConstrainedDynamics out;

  // Unconstrained acceleration q̈* = M⁻¹(u − h).
  out.qdd_free = proj.solve_inertia(u - h);
  // Normal acceleration from d/dt(Aq̇) = 0: q̈⊥ = −A⁺Ȧq̇.
  out.qdd_normal = -proj.jacobian_pinv() * adot_qd;
  // q̈ = (I − S)q̈* + Sq̈⊥.
  out.qdd = out.qdd_free - s * out.qdd_free + s * out.qdd_normal;
  // f = Sᵀ(h − u) + SᵀMq̈⊥ and the minimum-norm multipliers.
  out.force = s.transpose() * ((h - u) + proj.inertia() * out.qdd_normal);
  out.multipliers = proj.jacobian_pinv().transpose() * out.force;
  return out;
}

}  // namespace oblique
