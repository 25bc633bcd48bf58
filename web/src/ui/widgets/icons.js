// Small inline icons (SVG, currentColor) for the playback buttons: every font draws them the same.
import { svg } from './dom.js';

const PATHS = {
  play: 'M4 2.5v11l9-5.5z',
  pause: 'M3.5 2.5h3v11h-3zM9.5 2.5h3v11h-3z',
  next: 'M2.5 2.5v11l7.5-5.5zM11 2.5h2.5v11H11z',
  previous: 'M13.5 2.5v11L6 8zM2.5 2.5H5v11H2.5z',
  expand: 'M2 2h5v2H4v3H2zM9 2h5v5h-2V4H9zM2 9h2v3h3v2H2zM12 9h2v5H9v-2h3z',
  reset: 'M8 2.5a5.5 5.5 0 1 1-5.2 3.7l1.9.6A3.5 3.5 0 1 0 8 4.5v2L4.5 3.5 8 .5z',
};

/** An icon, hidden from assistive technology (the button's text says what it does). */
export function icon(name) {
  return svg('svg', { class: 'icon', viewBox: '0 0 16 16', width: 14, height: 14, 'aria-hidden': 'true', focusable: 'false' },
    svg('path', { d: PATHS[name], fill: 'currentColor' }));
}
