/**
 * Following work the service does in the background (a scan, an SBOM export): read it again
 * every `intervalMs` while it is still queued or running, and stop once it has finished or the
 * caller is gone (the screen unmounted: `signal` aborted).
 */

/** States of scans and SBOM exports that are still in progress (anything else has finished). */
export const IN_PROGRESS_STATES: readonly string[] = ['queued', 'running'];

export const inProgress = (state: string) => IN_PROGRESS_STATES.includes(state);

export interface PollOptions {
  intervalMs?: number;
  signal?: AbortSignal;
  sleep?: (ms: number) => Promise<void>;
  /** The most reads before giving up (the last value is kept). */
  maxReads?: number;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Reads with `load` until `finished(value)` (or the signal aborts, or maxReads), reporting each
 * value to `onValue`; returns the last value read, or null when aborted before the first.
 */
export async function pollUntil<T>(
  load: () => Promise<T>,
  finished: (value: T) => boolean,
  onValue: (value: T) => void,
  options: PollOptions = {},
): Promise<T | null> {
  const { intervalMs = 1500, signal, sleep = defaultSleep, maxReads = 2400 } = options;
  let last: T | null = null;
  for (let reads = 0; reads < maxReads; reads++) {
    if (signal?.aborted) return last;
    last = await load();
    if (signal?.aborted) return last;
    onValue(last);
    if (finished(last)) return last;
    await sleep(intervalMs);
  }
  return last;
}
