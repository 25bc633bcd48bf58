// The page's messages to the page that embeds it, and the requests it takes from that page.
//
//   to the parent    {type: 'oblique:ready'}                       once the engine and the scenario are up
//                    {type: 'oblique:loaded', title}               after every load
//                    {type: 'oblique:impact', index, t, gamma, W_loss}   for every impact (index from 0)
//                    {type: 'oblique:error', message, request?, id?}     a bad request, or any error or
//                                                                  warning the frame shows
//   from the parent  {type: 'oblique:load-scenario', scenario}     a scenario object or its JSON text
//                    {type: 'oblique:set', e?, e_i?, mu?, nu?, speed?}  e sets every contact; e_i {index: e} or [e…];
//                                                                  mu: μ of every contact (a number or "stick")
//                    {type: 'oblique:play' | 'oblique:pause' | 'oblique:reset'}
//
// A request may carry an `id` (a short string or an integer), echoed in the error it causes. Only the
// parent window is listened to; messages are posted to it with target origin '*', as they carry nothing
// private (the scenario and its numbers, which the parent put there).
import { checkMessage, isForOblique } from './message-shapes.js';

/**
 * Starts the message API.
 * @param {import('../share/page-state.js').PageParts & {messages: any}} parts
 * @returns {{ready: () => void, failed: (error: Error) => void}}
 */
export function startMessages({ playground, client, messages }) {
  const parent = window.parent;
  const post = (message) => parent.postMessage(message, '*');
  const error = (message, request) => post({ type: 'oblique:error', message: String(message),
    ...(request ? { request: request.type } : {}), ...(request?.id !== undefined ? { id: request.id } : {}) });

  const handlers = {
    async 'oblique:load-scenario'(request) {
      const issues = await client.request('call', { method: 'checkScenario', args: [request.scenario] });
      if (issues.length) {
        const listed = issues.slice(0, 5).map((i) => `${i.pointer || '(document)'}: ${i.message}`).join('; ');
        throw new Error(`the scenario is not valid: ${listed}${issues.length > 5 ? `; and ${issues.length - 5} more` : ''}`);
      }
      const ok = await playground.load({ document: request.scenario }, { play: playground.playing });
      if (!ok) throw new Error('the scenario could not be loaded; the previous one is still running');
    },
    async 'oblique:set'(request) {
      const count = playground.viewState().scenario?.contacts.length ?? 0;
      for (const key of Object.keys(request.e_i ?? {})) {
        if (Number(key) >= count) throw new Error(`e_i[${key}]: the scenario has ${count} contact${count === 1 ? '' : 's'} (indices 0 … ${count - 1})`);
      }
      const { e, e_i: contacts, mu, nu, speed } = request;
      if (!await playground.applySettings({ e, e_i: contacts, mu, nu, speed })) {
        throw new Error('the engine refused the setting (see the message in the frame)');
      }
    },
    'oblique:play'() {
      playground.play();
    },
    'oblique:pause'() {
      playground.pause();
    },
    async 'oblique:reset'() {
      await playground.reset();
    },
  };

  // One request at a time, in the order sent: a `set` after a `load-scenario` sets the new scenario.
  let queue = Promise.resolve();
  const handle = async (data) => {
    let request;
    try {
      request = checkMessage(data);
    } catch (problem) {
      error(problem.message, { type: data.type, id: typeof data.id === 'string' || Number.isInteger(data.id) ? data.id : undefined });
      return;
    }
    try {
      await handlers[request.type](request);
    } catch (problem) {
      error(`${request.type}: ${problem.message}`, request);
    }
  };
  window.addEventListener('message', (event) => {
    if (event.source !== parent || !isForOblique(event.data)) return;
    const { data } = event;
    queue = queue.then(() => handle(data));
  });

  playground.on('loaded', ({ scenario }) => post({ type: 'oblique:loaded', title: scenario.title ?? '' }));
  playground.on('impacts', (impacts) => {
    for (const impact of impacts) post({ type: 'oblique:impact', index: impact.index, t: impact.t, gamma: impact.gamma, W_loss: impact.W_loss });
  });
  // Errors and warnings go to the parent; a success or a note (“Copied.”) is the reader's only.
  const reported = (kind) => kind === 'error' || kind === 'warning';
  messages.subscribe((text, source, kind) => { if (reported(kind)) error(source ? `${source}: ${text}` : text); });

  return {
    ready() {
      post({ type: 'oblique:ready' });
      const { scenario } = playground.viewState();
      if (scenario) post({ type: 'oblique:loaded', title: scenario.title ?? '' });
      // A notice from before (a bad parameter of the address) goes to the parent too.
      if (messages.current && reported(messages.kind)) error(messages.current);
    },
    failed(problem) {
      error(problem?.message ?? String(problem));
    },
  };
}
