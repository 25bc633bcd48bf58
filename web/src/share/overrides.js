// The changes of a run as a share link carries them (link-state.js, `changes`) and as the worker makes them
// (simulation-service.js, `set`), each into the other. Pure.

/**
 * A change as a share link carries it (link-state.js, `changes`): {t, impacts, e} | {t, impacts, contact,
 * e} | {t, impacts, mu} | {t, impacts, contact, mu} | {t, impacts, nu}, from the worker's {time, impactCount,
 * change}.
 */
export function linkChange({ time, impactCount, change }) {
  const at = { t: time, impacts: impactCount };
  if (change.mu !== undefined) return change.contact !== undefined ? { ...at, contact: change.contact, mu: change.mu } : { ...at, mu: change.mu };
  if (change.contact !== undefined) return { ...at, contact: change.contact, e: change.restitution };
  if (change.restitution !== undefined) return { ...at, e: change.restitution };
  return { ...at, nu: change.nu ?? null };
}

/** The worker's change ({restitution} | {contact, restitution} | {nu}) of a link's change. */
export function runChange(change) {
  if (change.mu !== undefined) return change.contact !== undefined ? { contact: change.contact, mu: change.mu } : { mu: change.mu };
  if (change.contact !== undefined) return { contact: change.contact, restitution: change.e };
  if (change.e !== undefined) return { restitution: change.e };
  return { nu: change.nu };
}
