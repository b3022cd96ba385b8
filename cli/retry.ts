import { ServiceUnreachableError } from './service-url';

/**
 * Retries for the online CLI commands (docs/policies.md#ci-gate): exponential backoff with full
 * jitter, honouring a server's Retry-After (seconds or an HTTP date), on network errors, 429 and
 * 502/503/504. Everything else is an answer, returned as is.
 */

export interface RetryOptions {
  /** Attempts in all (the first included). */
  attempts: number;
  baseMs: number;
  maxMs: number;
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

export const RETRY_DEFAULTS: RetryOptions = { attempts: 5, baseMs: 500, maxMs: 30_000 };

const RETRIED_STATUSES = new Set([429, 502, 503, 504]);

/** Milliseconds a Retry-After header asks for, or null when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (header === null || header.trim() === '') return null;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/**
 * The wait before retry number `retry` (0 for the first retry): full jitter over
 * `base * 2^retry` capped at `maxMs`; a Retry-After is a floor (capped at `maxMs` too).
 */
export function backoffDelay(
  retry: number,
  options: Pick<RetryOptions, 'baseMs' | 'maxMs' | 'random'>,
  retryAfter: number | null = null,
): number {
  const random = options.random ?? Math.random;
  const ceiling = Math.min(options.maxMs, options.baseMs * 2 ** retry);
  const jittered = Math.floor(random() * ceiling);
  return retryAfter === null ? jittered : Math.min(options.maxMs, Math.max(retryAfter, jittered));
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** `fetch` with retries; the last answer is returned, a last network error thrown naming the URL. */
export async function fetchWithRetry(
  url: string,
  init: RequestInit,
  options: RetryOptions = RETRY_DEFAULTS,
  fetcher: typeof fetch = fetch,
): Promise<Response> {
  const sleep = options.sleep ?? defaultSleep;
  for (let attempt = 0; ; attempt++) {
    const last = attempt >= options.attempts - 1;
    let response: Response;
    try {
      response = await fetcher(url, init);
    } catch (error) {
      if (last) throw new ServiceUnreachableError(url, error);
      await sleep(backoffDelay(attempt, options));
      continue;
    }
    if (last || !RETRIED_STATUSES.has(response.status)) return response;
    const wait = retryAfterMs(response.headers.get('retry-after'), options.now?.() ?? Date.now());
    await response.body?.cancel();
    await sleep(backoffDelay(attempt, options, wait));
  }
}
