// Whether a contact point is shown sliding: an active frictional point whose slip speed v_t (the core's
// slipSpeed) exceeds the run's tolerance. The core keeps a point that has reached the edge of its friction
// cone in its sliding mode even while it does not move (a block held at μ = tan θ on a slope): such a point
// is drawn and counted as holding, not sliding.

/** The slip speed below which a point is shown as not sliding: the scenario's rest speed (m/s). */
export function slipTolerance(scenario) {
  return scenario?.integrator?.rest_speed ?? 0;
}

/** True when contact point `p` (sim.contactPoints()) slides faster than `tolerance`. */
export function isSliding(p, tolerance) {
  return p.state === 'active' && p.slip !== 0 && Math.abs(p.slipSpeed ?? 0) > tolerance;
}
