// “Next impact” pressed while a step is in flight (web/src/ui/playground/step-queue.js): each press finds
// one more impact, in order, never two steps at once; a step that finds none, or a run no longer shown,
// ends the queue; a held key queues at most MAX_WAITING_STEPS.
import { describe, expect, it } from 'vitest';
import { MAX_WAITING_STEPS, StepQueue } from '../../web/src/ui/playground/step-queue.js';

/** A worker that finds impact after impact, each step taking a few milliseconds. */
function fakeRun({ impacts = Infinity } = {}) {
  const run = { found: 0, inFlight: 0, mostInFlight: 0 };
  run.stepOnce = async () => {
    run.inFlight += 1;
    run.mostInFlight = Math.max(run.mostInFlight, run.inFlight);
    await new Promise((resolve) => setTimeout(resolve, 5));
    run.inFlight -= 1;
    if (run.found >= impacts) return false;
    run.found += 1;
    return true;
  };
  return run;
}

describe('the steps of Next impact', () => {
  it('takes four quick presses as four steps, one after another', async () => {
    const run = fakeRun();
    const queue = new StepQueue(run.stepOnce);
    const pressed = [];
    for (let k = 0; k < 4; k++) pressed.push(queue.push(() => true));
    await Promise.all(pressed);
    expect(run.found).toBe(4);
    expect(run.mostInFlight).toBe(1);
    // A press after they ended is a step of its own.
    await queue.push(() => true);
    expect(run.found).toBe(5);
  });

  it('stops at a step that finds no impact, and drops the presses waiting', async () => {
    const run = fakeRun({ impacts: 2 });
    const queue = new StepQueue(run.stepOnce);
    const pressed = [];
    for (let k = 0; k < 5; k++) pressed.push(queue.push(() => true));
    await Promise.all(pressed);
    expect(run.found).toBe(2);
    await queue.push(() => true);
    expect(run.found).toBe(2);
  });

  it('takes no waiting step once the run shown changed or the reader moved elsewhere', async () => {
    const run = fakeRun();
    const queue = new StepQueue(run.stepOnce);
    let current = true;
    const first = queue.push(() => current);
    queue.push(() => current);
    queue.push(() => current);
    current = false;
    await first;
    expect(run.found).toBe(1);

    current = true;
    const again = queue.push(() => current);
    queue.push(() => current);
    queue.drop();
    await again;
    expect(run.found).toBe(2);
  });

  it('queues at most MAX_WAITING_STEPS behind the step in flight (a held key)', async () => {
    const run = fakeRun();
    const queue = new StepQueue(run.stepOnce);
    const pressed = [];
    for (let k = 0; k < 50; k++) pressed.push(queue.push(() => true));
    await Promise.all(pressed);
    expect(run.found).toBe(1 + MAX_WAITING_STEPS);
  });
});
