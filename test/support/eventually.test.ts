import { describe, expect, it } from 'vitest';
import { eventually } from './eventually';

describe('eventually', () => {
  it('returns the first value that counts', async () => {
    let calls = 0;
    const value = await eventually(() => (++calls >= 3 ? calls : null), {
      what: 'three calls',
      intervalMs: 1,
    });
    expect(value).toBe(3);
  });

  it('takes its own rule of what counts', async () => {
    let n = 0;
    expect(await eventually(() => n++, { what: 'n', intervalMs: 1, until: (v) => v === 2 })).toBe(
      2,
    );
  });

  it('fails naming what it waited for and the last value', async () => {
    await expect(
      eventually(() => 'queued', {
        what: 'the scan to finish',
        timeoutMs: 20,
        intervalMs: 5,
        until: (state) => state === 'completed',
        context: () => 'service output',
      }),
    ).rejects.toThrow(
      /the scan to finish did not happen within 20 ms \(last: "queued"\)\nservice output/,
    );
  });
});
