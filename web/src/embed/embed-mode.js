// The page inside a course page's iframe. With `?embed=1` it takes the compact layout (embed.css): the
// scene, the play controls (unless controls=0) and the panels chosen with `panels=`, γ of the impact shown
// and a link "Open in Oblique" under the scene; a frame too narrow to put the panels beside the scene has a
// button that shows them in its place ("Matrices"). It plays while it is scrolled into view (unless
// autoplay=0 or the reader prefers reduced motion) and pauses when it leaves; the mouse wheel scrolls the
// course page unless the scene has focus. In any frame, embed or not, it talks to its parent
// (parent-messages.js). It reaches the playground through its small interface (playground-api.js).
import { el } from '../ui/widgets/dom.js';
import { formatGamma, formatNumber } from '../ui/widgets/format.js';
import { DEFAULT_PANELS } from '../share/query-params.js';
import { startMessages } from './parent-messages.js';
import './embed.css';

let api = null;

/** Sets the layout before the page is built (no flash of the full page). */
export function layout(display, { embedded }) {
  if (!embedded) return;
  const root = document.documentElement;
  root.dataset.embed = '';
  root.dataset.panels = (display.panels ?? DEFAULT_PANELS).join(' ');
  if (display.controls === false) root.dataset.controls = 'off';
}

/** The panels of an impact among the chosen ones (what the "Matrices" button shows). */
const IMPACT_PANELS = ['S', 'R', 'velocity', 'impulses'];

/**
 * The bar under the scene: γ, W_loss and the time of the impact shown, the way to the panels when they are
 * under the scene (a narrow frame), and "Open in Oblique".
 */
function embedBar(playground, { showGamma, panels }) {
  const gamma = el('output', { class: 'embed-gamma-value', 'data-testid': 'embed-gamma' }, '—');
  const detail = el('span', { class: 'embed-gamma-detail', text: 'no impact yet' });
  const bar = el('span', { class: 'gamma-bar embed-gamma-bar', 'aria-hidden': 'true' },
    el('span', { class: 'gamma-kept', style: { width: '0%' } }));
  const open = el('a', { class: 'embed-open', href: `${location.origin}${location.pathname}`, target: '_blank', rel: 'noopener', text: 'Open in Oblique ↗',
    title: 'The full page, with this scenario, its settings and this moment' });
  // The link follows what is on screen: made again whenever the reader reaches for it (pointer down comes
  // before the click, so even a tap opens this moment). The codec is fetched once the embed is idle.
  let modules = null;
  const load = () => (modules ??= Promise.all([import('../share/page-state.js'), import('../share/share-dialog.js'),
    import('../share/link-codec.js')]).then(([state, dialog, codec]) => ({ ...state, ...dialog, ...codec })));
  let made = null;
  const refresh = () => {
    if (!made) return;
    try {
      const { state } = made.captureState({ playground, lab: null, tabs: { current: 'playground' } });
      open.href = `${made.pageBase()}#${made.encodeFragment(state)}`;
    } catch {
      open.href = `${location.origin}${location.pathname}`;
    }
  };
  (window.requestIdleCallback ?? setTimeout)(() => load().then((m) => { made = m; refresh(); }, () => {}));
  for (const type of ['pointerenter', 'pointerdown', 'focus', 'touchstart']) open.addEventListener(type, refresh, { passive: true });
  open.addEventListener('click', (event) => {
    if (made) return;
    // Before the codec has arrived: open the page once it has.
    event.preventDefault();
    load().then((m) => { made = m; refresh(); window.open(open.href, '_blank', 'noopener'); });
  });
  const show = (record, index) => {
    const shown = formatGamma(record.gamma, 4);
    gamma.textContent = shown.text;
    gamma.title = shown.note;
    gamma.dataset.value = String(record.gamma);
    bar.firstChild.style.width = `${Math.max(0, Math.min(1, record.gamma ?? 0)) * 100}%`;
    // W_loss of round-off size (an elastic impact) is printed as 0, as in the panels.
    detail.textContent = `impact ${index + 1} at t = ${record.t.toFixed(3)} s · W_loss ${formatNumber(record.W_loss, 3, 1e-12 * Math.abs(record.K_minus))} J`;
  };
  playground.on('shown', ({ record, index }) => { show(record, index); refresh(); });
  playground.on('playing', (playing) => { if (!playing) refresh(); });
  playground.on('loaded', () => {
    gamma.textContent = '—';
    delete gamma.dataset.value;
    bar.firstChild.style.width = '0%';
    detail.textContent = 'no impact yet';
  });
  // In a frame too narrow for a column of panels they are under the scene: this button shows them instead
  // of the scene, and the scene again (embed.css hides it where the panels fit beside the scene).
  const matrices = panels.some((name) => IMPACT_PANELS.includes(name))
    ? el('button', { type: 'button', class: 'button small embed-panels-toggle', 'data-testid': 'embed-panels-toggle',
      'aria-pressed': 'false', 'aria-controls': 'embed-panels', text: 'Matrices' }) : null;
  matrices?.addEventListener('click', () => {
    const on = matrices.getAttribute('aria-pressed') !== 'true';
    matrices.setAttribute('aria-pressed', String(on));
    matrices.textContent = on ? 'Back to the scene' : 'Matrices';
    document.documentElement.dataset.embedView = on ? 'panels' : 'scene';
    if (on) {
      playground.pause();
      // The matrices at the top of the frame, under the bar.
      document.querySelector('#embed-panels .matrix-panel:not([hidden])')?.scrollIntoView({ block: 'start' });
    } else document.querySelector('main')?.scrollTo(0, 0);
  });
  return el('div', { class: 'embed-bar' },
    showGamma ? [el('div', { class: 'embed-gamma' }, el('span', { class: 'embed-gamma-label' },
      el('span', { class: 'embed-gamma-label-long', text: 'γ = K⁺/K⁻' }), el('span', { class: 'embed-gamma-label-short', text: 'γ =' })),
    gamma, bar), detail]
      : el('span'),
    el('span', { class: 'embed-links' }, matrices, open));
}

/**
 * Plays while at least half the scene is in view and pauses when it leaves. It resumes only what it
 * paused: after a pause by the reader (or the parent page) it waits for them to press play.
 */
function playWhenVisible(playground, target) {
  let started = false;
  let pausedByView = false;
  let viewing = false;  // the observer itself is starting or stopping playback
  playground.on('playing', (playing) => {
    if (viewing) return;
    started = true;
    if (!playing) pausedByView = false;
  });
  const observer = new IntersectionObserver(([entry]) => {
    viewing = true;
    if (entry.isIntersecting) {
      if (!started || pausedByView) playground.play();
      started = true;
      pausedByView = false;
    } else if (playground.playing) {
      playground.pause();
      pausedByView = true;
    }
    viewing = false;
  }, { threshold: 0.5 });
  observer.observe(target);
}

/** The wheel zooms the scene only while it has focus (a click gives it); otherwise the course page scrolls. */
function wheelScrollsPage(layout) {
  const canvas = layout.sceneCanvas;
  canvas.tabIndex = 0;
  canvas.addEventListener('pointerdown', () => canvas.focus({ preventScroll: true }));
  const hint = el('p', { class: 'embed-wheel-hint', hidden: true, text: 'Click the scene to zoom with the wheel' });
  layout.sceneElement.append(hint);
  let timer = null;
  layout.setWheelPolicy(() => {
    if (document.activeElement === canvas) return true;
    hint.hidden = false;
    clearTimeout(timer);
    timer = setTimeout(() => { hint.hidden = true; }, 1500);
    return false;
  });
}

/**
 * Starts embed mode once the page is up.
 * @param {import('../share/page-state.js').PageParts & {messages: any}} parts
 * @param {object} display the address's display options
 * @param {{embedded: boolean, reducedMotion: boolean}} options
 */
export function start(parts, display, { embedded, reducedMotion }) {
  const { playground } = parts;
  const { layout } = playground;
  if (embedded) {
    const panels = display.panels ?? DEFAULT_PANELS;
    layout.underScene(embedBar(playground, { showGamma: panels.includes('gamma'), panels }));
    // The chosen panels in a column of their own, beside the scene or under it (embed.css).
    const elements = layout.panels();
    const order = [['impact', IMPACT_PANELS], ['energy', ['energy']], ['log', ['log']], ['restitution', ['restitution']]];
    const aside = el('div', { class: 'embed-panels', id: 'embed-panels' },
      order.filter(([, names]) => names.some((n) => panels.includes(n))).map(([key]) => elements[key]));
    for (const [key] of order) if (!aside.contains(elements[key])) elements[key].hidden = true;
    layout.besideScene(aside);
    document.documentElement.classList.toggle('embed-wide-panels', aside.childElementCount > 0);
    wheelScrollsPage(layout);
    if (display.autoplay !== false && !reducedMotion) playWhenVisible(playground, layout.sceneElement);
  }
  if (window.parent !== window) {
    api = startMessages(parts);
    api.ready();
  }
}

/** The engine could not start: tell the parent. */
export function failed(error) {
  if (window.parent === window) return;
  api ??= { failed: (problem) => window.parent.postMessage({ type: 'oblique:error', message: String(problem?.message ?? problem) }, '*') };
  api.failed(error);
}
