// Driving a Simulation of the engine API in the tests, as the page's worker does.

/** Advances `sim` to time `t`, calling again while a call stops at the work budget. */
export function runTo(sim, t) {
  do sim.advanceTo(t);
  while (sim.workLimitHit);
}
