// The run in words: the canvas's text alternative (what is on it, and what is happening) and the sentence
// that announces an impact. Everything is named as the page shows it: bodies, planes and contacts by name.
import { formatGamma } from '../widgets/format.js';
import { bodyName, impactContactNames, namesPhrase } from '../../scenario/names.js';
import { isSliding, slipTolerance } from './sliding.js';

/** Bodies named in the text alternative; more are counted. */
const MAX_BODIES = 12;

/** One impact in a sentence: when, which contacts, γ, and what is not physical about it. */
export function impactText(scenario, summary) {
  const flags = [];
  if (summary.flags?.tensile_impulse?.length) flags.push('a pulling impulse');
  if (summary.flags?.energy_gain) flags.push('energy gained');
  const names = impactContactNames(scenario, summary);
  const contacts = names.length <= 4 ? names.join(' and ') : namesPhrase(names, { noun: 'contacts' });
  return `t = ${summary.t.toFixed(2)} s${names.length ? `, ${contacts}` : ''}, ` +
    `γ = ${formatGamma(summary.gamma, 3).text}` + (flags.length ? `, warning: ${flags.join(', ')}` : '');
}

/** The canvas's text alternative: the scenario's parts, the moment shown, the contacts, the impacts so far. */
export function describeRun({ scenario, frame, impacts, playing }) {
  const s = scenario;
  const bodies = (s.bodies ?? []).map((b, i) => `${bodyName(s, i)} (${b.shape.type})`);
  const points = frame.contacts ?? [];
  const touching = points.filter((p) => p.state !== 'inactive').length;
  const tolerance = slipTolerance(s);
  const sliding = points.filter((p) => isSliding(p, tolerance)).length;
  const count = frame.impactCount;
  const last = impacts[count - 1];
  return `${s.title || 'Scenario'}: ${namesPhrase(bodies, { max: MAX_BODIES, noun: 'bodies' })}` +
    `${s.planes.length ? `, ${s.planes.length} ground plane${s.planes.length > 1 ? 's' : ''}` : ''}` +
    `${s.joints.length ? `, ${s.joints.length} joint${s.joints.length > 1 ? 's' : ''}` : ''}. ` +
    `${playing ? 'Playing' : 'Paused'} at t = ${frame.time.toFixed(2)} s; ` +
    `${touching} of ${points.length} contact points touching${sliding ? ` (${sliding} sliding)` : ''}; ` +
    `${count} impacts so far` +
    (last ? `, the last at t = ${last.t.toFixed(2)} s with γ = ${formatGamma(last.gamma, 3).text}.` : '.');
}
