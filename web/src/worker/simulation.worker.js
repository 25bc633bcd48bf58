// The simulation worker: the page's one thread for the core, so that the page never blocks on it. It
// binds the simulation service (simulation-service.js, where the protocol is documented; timeline.js, the
// run with its snapshots and replays) to the worker's messages; client.js is the page side.
import { loadOblique } from '../engine/index.js';
import { createSimulationService } from './simulation-service.js';

// The core's first file only: its rest is fetched when the page asks (`loadAll`, after its first frame).
const service = createSimulationService({
  loadEngine: () => loadOblique({ lazyCode: true }),
  post: (message, transfer) => self.postMessage(message, transfer),
});

self.addEventListener('message', (event) => { service.receive(event.data); });

// Tell the page whether the core loaded (the page shows a message if not).
service.ready.then(
  () => self.postMessage({ type: 'ready' }),
  (error) => self.postMessage({ type: 'fatal', error: `The physics engine failed to load: ${error?.message ?? error}` }),
);
