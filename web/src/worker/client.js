// The page side of the worker protocol (documented at the top of simulation-service.js): each request is a
// Promise that settles with the worker's reply; an engine error rejects with an Error carrying its message.

export class SimulationClient {
  #worker;
  #nextId = 1;
  #pending = new Map();
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
  }

  #settle({ id, value, error }) {
    const pending = this.#pending.get(id);
    if (!pending) return;
    this.#pending.delete(id);
    if (error !== undefined) pending.reject(new Error(error));
    else pending.resolve(value);
  }

  /** Sends one request; resolves with its reply value. */
  request(type, payload = {}) {
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

  /** engine.energyConsistencyMap(Q, resolution, options), in the worker. */
  energyConsistencyMap(Q, resolution, options) {
    return this.request('call', { method: 'energyConsistencyMap', args: [Q, resolution, options] });
  }
}
