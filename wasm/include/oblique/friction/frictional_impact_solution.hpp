// A frictional impact of a simulation run, kept as the simulator keeps every impact (impact_solution.hpp):
// solve_frictional_impact (frictional_impact.hpp; docs/friction.md) on the run's M and A, its result in the
// fields of ImpactResult and, per frictional point, the compact ContactFriction of the record.
//
// The fields of ImpactResult mean what they mean for a frictionless impact: q̇⁺, i_f = Aᵀi_λ + …, i_λ per
// row (a slipping point's tangential row carries −μ s i_n), A q̇± (normal rows φ̇, tangential rows v_t), the
// energies, γ, the flags (tensile impulse and approach on the normal rows, energy gain). The energetic
// consistency test λ_max(EQE − Q) is the sticking mode's (E over the whole A, tangential rows plastic), the
// only mode that has a Q; `energy_consistent` is also false when the impact gains energy (Kane's paradox).
#pragma once

#include <optional>
#include <vector>

#include "oblique/friction/frictional_impact.hpp"
#include "oblique/math/impact_solution.hpp"

namespace oblique {

/// Solves the impact of q̇⁻ and i_u on A with per-row restitution E (0 on tangential rows) and Coulomb
/// friction at `pairs` (each 0 < μ; a kNoSlip pair sticks), with the projections of (M, A) at ν.
ImpactSolution solve_frictional_impact_summarised(const Inertia& inertia, const Matrix& jacobian,
                                                  std::optional<double> nu, const Vector& qd_minus,
                                                  const Vector& restitution, const Vector& external_impulse,
                                                  const std::vector<bool>& unilateral,
                                                  const std::vector<FrictionPair>& pairs);

/// The ImpactSolution of a solved frictional impact (header comment).
ImpactSolution summarise_frictional_impact(FrictionalImpactResult&& result);

}  // namespace oblique
