// Live settings of a run (e of every contact, e of one contact, μ of every contact, μ of one, ν) written
// into its scenario document, so that a fresh run of the document is the run the settings were made on, and
// the settings after one change of the run. The restitution slider "all contacts" sets e of every contact
// (and the document's default); a per-contact e comes after it. Pure: the playground, the share links, the
// editor and the export use it.

/**
 * @typedef {{e?: number, e_i?: Object<string, number>, mu?: number|'stick', mu_i?: Object<string, number|'stick'>,
 *   nu?: number}} Overrides
 *   e: every contact; e_i: contact index (0-based) → e, applied after e; mu, mu_i: Coulomb's μ likewise
 *   ("stick": μ = +∞); nu: virtual mass
 */

/** Writes μ (a number or "stick") into a contact or body object, as the core's setFriction does. */
function writeFriction(item, mu, { keepUnset = false } = {}) {
  if (mu === 'stick') {
    item.stick = true;
    delete item.mu;
  } else {
    item.stick = false;
    if (!keepUnset || item.mu !== undefined && item.mu !== null) item.mu = mu;
  }
}

/**
 * The document with the overrides written in (a copy), and notices for overrides it has no place for.
 * @param {object} doc a scenario document
 * @param {Overrides} overrides
 * @returns {{doc: object, notices: string[]}}
 */
export function applyOverrides(doc, overrides = {}) {
  const out = structuredClone(doc);
  const notices = [];
  const contacts = Array.isArray(out.contacts) ? out.contacts : [];
  if (overrides.e !== undefined) {
    out.restitution = overrides.e;
    for (const contact of contacts) if (contact && typeof contact === 'object') contact.e = overrides.e;
  }
  for (const [key, e] of Object.entries(overrides.e_i ?? {})) {
    const contact = contacts[Number(key)];
    if (contact && typeof contact === 'object') contact.e = e;
    else notices.push(`e${Number(key) + 1}: the scenario has no contact ${Number(key) + 1} (it has ${contacts.length}); ignored`);
  }
  // μ of every contact (ropes have none), the document's default and every body's, as setFriction sets them.
  if (overrides.mu !== undefined) {
    if (overrides.mu !== 'stick') out.mu = overrides.mu;
    for (const contact of contacts) if (contact && typeof contact === 'object' && contact.type !== 'rope') writeFriction(contact, overrides.mu);
    for (const body of Array.isArray(out.bodies) ? out.bodies : []) {
      if (body && typeof body === 'object') writeFriction(body, overrides.mu, { keepUnset: true });
    }
  }
  for (const [key, mu] of Object.entries(overrides.mu_i ?? {})) {
    const contact = contacts[Number(key)];
    if (contact && typeof contact === 'object' && contact.type !== 'rope') writeFriction(contact, mu);
    else notices.push(`mu${Number(key) + 1}: the scenario has no contact ${Number(key) + 1} with friction; ignored`);
  }
  if (overrides.nu !== undefined) out.nu = overrides.nu;
  return { doc: out, notices };
}

/** True when the overrides set nothing. */
export function noOverrides(overrides = {}) {
  return overrides.e === undefined && overrides.nu === undefined && !Object.keys(overrides.e_i ?? {}).length &&
    overrides.mu === undefined && !Object.keys(overrides.mu_i ?? {}).length;
}

/** The document that runs now: a playground's viewState() document with its overrides written in. */
export function runningDocument(view) {
  return applyOverrides(view.document, view.overrides).doc;
}

/**
 * The overrides after one change of the run (a `set` of the worker: {restitution} for every contact, which
 * drops the per-contact ones as the slider "all contacts" does; {contact, restitution}; {nu}, null for the
 * optimal ν). A copy.
 * @param {Overrides} overrides
 * @param {{restitution?: number, contact?: number, nu?: number|null}} change
 * @returns {Overrides}
 */
export function withChange(overrides, change) {
  const next = { ...overrides, e_i: { ...(overrides.e_i ?? {}) } };
  if (change.mu !== undefined) {
    // μ of every contact drops the per-contact ones, as e does.
    if (change.contact !== undefined) next.mu_i = { ...(overrides.mu_i ?? {}), [change.contact]: change.mu };
    else {
      next.mu = change.mu;
      next.mu_i = {};
    }
  } else if (change.contact !== undefined) next.e_i[change.contact] = change.restitution;
  else if (change.restitution !== undefined) {
    next.e = change.restitution;
    next.e_i = {};
  }
  if (change.nu === null) delete next.nu;
  else if (change.nu !== undefined) next.nu = change.nu;
  return next;
}
