import { describe, expect, it } from 'vitest';
import { eventually } from '../../test/support/eventually';
import { startPoller } from './poller';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('startPoller', () => {
  it('runs the next pass at once after one that did work, and waits the interval after an idle one', async () => {
    const passes: number[] = [];
    const work = [3, 2, 0];
    const started = Date.now();
    const poller = startPoller({
      intervalMs: 400,
      pass: async () => {
        passes.push(Date.now());
        return work.shift() ?? 0;
      },
      onError: () => {},
    });
    await eventually(() => passes.length >= 3, { what: 'three passes', intervalMs: 5 });
    const [first, , third] = passes as [number, number, number];
    expect(first - started).toBeGreaterThanOrEqual(399); // the first pass waits one interval
    expect(third - first).toBeLessThan(400); // the two after a busy pass did not wait
    await sleep(150);
    expect(passes).toHaveLength(3); // the pass after an idle one waits the interval
    await poller.stop();
  });

  it('reports a failed pass and goes on polling; stop waits for the pass in flight', async () => {
    const errors: unknown[] = [];
    let calls = 0;
    let finished = false;
    const poller = startPoller({
      intervalMs: 10,
      pass: async () => {
        calls++;
        if (calls === 1) throw new Error('pass failed');
        await sleep(40);
        finished = true;
        return 0;
      },
      onError: (error) => errors.push(error),
    });
    await eventually(() => calls >= 2, { what: 'a second pass', intervalMs: 5 });
    await poller.stop();
    expect(finished).toBe(true);
    expect(errors).toEqual([new Error('pass failed')]);
    const after = calls;
    await sleep(40);
    expect(calls).toBe(after); // nothing runs after stop
  });
});
