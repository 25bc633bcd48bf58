// The page side of the worker protocol (documented at the top of simulation-service.js): each request is a
// Promise that settles with the worker's reply; an engine error rejects with an Error carrying its message.
// A request may be sent ahead of its time (`preload`): the page's first scenario is sent while the engine is
// still loading, and the worker answers it as soon as the engine is there, while the page builds itself.

export class SimulationClient {
  #worker;
  #nextId = 1;
  #pending = new Map();
  /** The request sent ahead, {text, reply}, until a request takes it or another request makes it stale. */
  #ahead = null;
  /** Resolves when the engine has loaded in the worker; rejects with a readable Error if it cannot. */
  ready;

  constructor() {
    this.#worker = new Worker(new URL('./simulation.worker.js', import.meta.url), { type: 'module', name: 'oblique' });
    this.ready = new Promise((resolve, reject) => {
      this.#worker.addEventListener('message', (event) => {
        const message = event.data;
        if (message.type === 'ready') resolve();
        else if (message.type === 'fatal') reject(new Error(message.error));
        else if (message.type === 'reply') this.#settle(message);
      });
      this.#worker.addEventListener('error', (event) => {
        event.preventDefault();
        const error = new Error(`The simulation worker failed: ${event.message || 'could not start'}`);
        reject(error);
        for (const { reject: fail } of this.#pending.values()) fail(error);
        this.#pending.clear();
      });
    });
    // The page awaits `ready` once it is built, which may be after a failed start: not an unhandled rejection
    // meanwhile (the page shows the error).
    this.ready.catch(() => {});
  }

  #settle({ id, value, error }) {
    const pending = this.#pending.get(id);
    if (!pending) return;
    this.#pending.delete(id);
    if (error !== undefined) pending.reject(new Error(error));
    else pending.resolve(value);
  }

  /** Sends one request; resolves with its reply value (the reply of the same request sent ahead, if any). */
  request(type, payload = {}) {
    const ahead = this.#ahead;
    this.#ahead = null;
    if (ahead && ahead.text === requestText(type, payload)) return ahead.reply;
    return this.#send(type, payload);
  }

  /**
   * Sends a request now whose reply is wanted later: the next `request` with the same type and payload
   * (equal as JSON) gets its reply instead of sending it again. Any other request comes after it in the
   * worker and may change what it answered, so it drops the reply (the request is then sent anew).
   */
  preload(type, payload = {}) {
    const reply = this.#send(type, payload);
    reply.catch(() => {});  // a reply nobody takes must not be an unhandled rejection
    this.#ahead = { text: requestText(type, payload), reply };
  }

  #send(type, payload) {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage({ id, type, ...payload });
    });
  }

  /** engine.analyzeImpact(input), in the worker. */
  analyzeImpact(input) {
    return this.request('call', { method: 'analyzeImpact', args: [input] });
  }

  /** engine.conditionCurve(input, nus), in the worker. */
  conditionCurve(input, nus) {
    return this.request('call', { method: 'conditionCurve', args: [input, nus] });
  }

  /** engine.frictionEnergyMap(input, options), in the worker. */
  frictionEnergyMap(input, options) {
    return this.request('call', { method: 'frictionEnergyMap', args: [input, options] });
  }

  /** engine.energyConsistencyMap(Q, resolution, options), in the worker. */
  energyConsistencyMap(Q, resolution, options) {
    return this.request('call', { method: 'energyConsistencyMap', args: [Q, resolution, options] });
  }
}

/** A request as text, to tell whether two are the same. */
function requestText(type, payload) {
  return JSON.stringify([type, payload]);
}
