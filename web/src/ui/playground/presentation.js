// The presentation mode: the page full screen (when the browser allows it) with larger type, for a projector.
// Leaving full screen (Escape, the browser's own control) leaves the mode too.

export class Presentation {
  /** @param {{onChange: (on: boolean) => void}} options told when the mode starts or ends */
  constructor({ onChange }) {
    this.onChange = onChange;
    this.on = false;
    document.addEventListener('fullscreenchange', () => {
      if (!document.fullscreenElement && this.on) this.#set(false);
    });
    document.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && this.on && !document.fullscreenElement) this.#set(false);
    });
  }

  async toggle() {
    const on = !this.on;
    this.#set(on);
    try {
      if (on) await document.documentElement.requestFullscreen?.();
      else if (document.fullscreenElement) await document.exitFullscreen();
    } catch {
      // Full screen refused (an iframe without allowfullscreen): the larger type fills the frame anyway.
    }
  }

  #set(on) {
    this.on = on;
    document.documentElement.classList.toggle('presenting', on);
    this.onChange(on);
    if (on) window.scrollTo(0, 0);
  }
}
