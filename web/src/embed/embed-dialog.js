// The Embed dialog: an iframe snippet for what is on screen, with the panels, the size, autoplay and the
// play controls chosen by check boxes, ready to paste into a course page's HTML (Moodle, Canvas, a blog).
import { el, uniqueId } from '../ui/widgets/dom.js';
import { copyText } from '../ui/widgets/clipboard.js';
import { openDialog } from '../share/dialog.js';
import { captureState } from '../share/page-state.js';
import { pageBase } from '../share/share-dialog.js';
import { embedSnippet, embedUrl } from './embed-snippet.js';
import { DEFAULT_PANELS, PANELS } from '../share/query-params.js';

const PANEL_NAMES = {
  gamma: 'γ of the impact', S: 'S', R: 'R', velocity: 'velocity picture', impulses: 'velocities and impulses',
  log: 'impact log', energy: 'energy plot', restitution: 'restitution sliders',
};
const SIZES = [
  { id: '640', label: '640 × 480', width: 640, height: 480 },
  { id: '400', label: '400 × 300 (small)', width: 400, height: 300 },
  { id: 'full', label: 'full width × 520', width: '100%', height: 520 },
];

/**
 * Opens the Embed dialog.
 * @param {import('../share/page-state.js').PageParts & {messages: any}} parts
 */
export function openEmbedDialog(parts) {
  const wasPlaying = parts.playground.playing;
  parts.playground.pause();
  const { state, notes, title } = captureState(parts);
  const moment = state.t > 0;
  const atMoment = el('input', { type: 'checkbox', checked: moment && !wasPlaying, disabled: !moment });
  const panels = PANELS.map((name) => {
    const box = el('input', { type: 'checkbox', value: name, checked: DEFAULT_PANELS.includes(name) });
    return { name, box, label: el('label', { class: 'check' }, box, ` ${PANEL_NAMES[name]}`) };
  });
  const sizeName = uniqueId('size');
  const sizes = SIZES.map((size, i) => {
    const radio = el('input', { type: 'radio', name: sizeName, value: size.id, checked: i === 0 });
    return { ...size, radio, label: el('label', { class: 'check' }, radio, ` ${size.label}`) };
  });
  const autoplay = el('input', { type: 'checkbox', checked: true });
  const controls = el('input', { type: 'checkbox', checked: true });
  const snippetId = uniqueId('snippet');
  const snippet = el('textarea', { id: snippetId, readonly: true, rows: 5, class: 'embed-snippet', 'data-testid': 'embed-snippet',
    spellcheck: 'false' });
  const status = el('p', { class: 'small muted copy-status', role: 'status' });
  const preview = el('a', { href: '#', target: '_blank', rel: 'noopener', text: 'Preview the embed in a new tab' });
  const copy = el('button', { type: 'button', class: 'button primary', text: 'Copy snippet' });

  const refresh = () => {
    const chosen = panels.filter((p) => p.box.checked).map((p) => p.name);
    const size = sizes.find((s) => s.radio.checked) ?? sizes[0];
    const display = { panels: chosen.length ? chosen : DEFAULT_PANELS };
    // Not at this moment: the same run (its changes included), from its start.
    const { t, impacts, impact, horizon, horizon_impacts: horizonImpacts, ...start } = state;
    const shown = atMoment.checked ? state : start;
    if (!autoplay.checked) display.autoplay = false;
    if (!controls.checked) display.controls = false;
    try {
      const url = embedUrl(pageBase(), shown, display);
      snippet.value = embedSnippet({ url, title, width: size.width, height: size.height });
      preview.href = url;
    } catch (error) {
      snippet.value = '';
      status.textContent = error.message;
      return;
    }
    status.textContent = '';
  };
  for (const control of [...panels.map((p) => p.box), ...sizes.map((s) => s.radio), autoplay, controls, atMoment]) {
    control.addEventListener('change', refresh);
  }
  copy.addEventListener('click', async () => { status.textContent = (await copyText(snippet.value, snippet)).message; });
  snippet.addEventListener('focus', () => snippet.select());

  const dialog = openDialog({
    title: 'Embed in a course page',
    className: 'embed-dialog',
    content: [
      el('p', { class: 'small', text: `“${title || 'Untitled scenario'}” with its settings, as on screen now. Paste the ` +
        'snippet into the HTML (source) view of your page: Moodle’s and Canvas’s editors have one.' }),
      el('fieldset', { class: 'option-group' }, el('legend', { text: 'Panels beside the scene' }), panels.map((p) => p.label)),
      el('fieldset', { class: 'option-group' }, el('legend', { text: 'Size' }), sizes.map((s) => s.label)),
      el('fieldset', { class: 'option-group' }, el('legend', { text: 'Behaviour' }),
        el('label', { class: 'check' }, atMoment, moment ? ` Open at this moment (t = ${state.t.toFixed(3)} s${state.impact !== undefined ? `, impact ${state.impact + 1}` : ''})` : ' Open at this moment (t = 0)'),
        el('label', { class: 'check' }, autoplay, ' Play when scrolled into view'),
        el('label', { class: 'check' }, controls, ' Show play, next impact and reset')),
      el('label', { for: snippetId, class: 'field-label', text: 'Snippet' }),
      snippet,
      el('div', { class: 'copy-row' }, copy, preview),
      status,
      notes.map((note) => el('p', { class: 'notice notice-note', text: note })),
      el('p', { class: 'small muted', text: 'The page inside the frame sends its parent the messages oblique:ready, ' +
        'oblique:loaded, oblique:impact and oblique:error, and obeys oblique:play, pause, reset, set and load-scenario ' +
        '(docs/embedding.md).' }),
    ],
  });
  refresh();
  return dialog;
}
