import { setTimeout as sleep } from 'node:timers/promises';

export interface EventuallyOptions<T> {
  /** What is awaited, for the error: "the scan to run". */
  what: string;
  /** Gives up after this long (default 10 s). */
  timeoutMs?: number;
  /** Pause between two probes (default 50 ms). */
  intervalMs?: number;
  /** When the probe's value counts (default: not null, undefined or false). */
  until?: (value: T) => boolean;
  /** Added to the error when it gives up (a service's output). */
  context?: () => string;
}

const settled = (value: unknown) => value !== null && value !== undefined && value !== false;

/**
 * The one wait of the test suite: probes until the value counts, then returns it; after the
 * timeout, fails naming what it waited for and the last value seen (never waits forever, never
 * passes silently).
 */
export async function eventually<T>(
  probe: () => T | Promise<T>,
  options: EventuallyOptions<T>,
): Promise<T> {
  const { what, timeoutMs = 10_000, intervalMs = 50, until = settled } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (until(value)) return value;
    if (Date.now() >= deadline) {
      const last = JSON.stringify(value)?.slice(0, 200);
      const extra = options.context ? `\n${options.context()}` : '';
      throw new Error(`${what} did not happen within ${timeoutMs} ms (last: ${last})${extra}`);
    }
    await sleep(intervalMs);
  }
}
