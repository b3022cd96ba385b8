import createClient, { type Client } from 'openapi-fetch';
import { ApiError, problemOf } from './problem';
import type { paths } from './schema';
import type { TokenStore } from './session';
import { createStore, type Watchable } from './store';

/**
 * The typed API client of the web app (web/README.md "Data layer"): openapi-fetch over the
 * `paths` generated from the service's own OpenAPI document, the bearer token from the session
 * store on every call, and the spec's retry rule for 429 (wait Retry-After, then retry), with
 * the wait exposed so the UI can say "waiting N s".
 */

export type ApiClient = Client<paths>;

/** While a 429 is being waited out: seconds left, or null when not waiting. */
export type RateLimitWait = { seconds: number } | null;

export interface Api {
  client: ApiClient;
  tokens: TokenStore;
  waiting: Watchable<RateLimitWait>;
  /** Signals a 401: the token is gone or revoked (the shell signs out). */
  unauthorized: Watchable<number>;
}

export interface ApiOptions {
  tokens: TokenStore;
  baseUrl?: string;
  fetch?: (request: Request) => Promise<Response>;
  /** Waits `ms`; tests pass one that does not. */
  sleep?: (ms: number) => Promise<void>;
  /** Retries of one call after 429s; the last 429 is returned as it is. */
  maxRetries?: number;
  /** The longest single wait honoured, in seconds (a longer Retry-After fails the call). */
  maxWaitSeconds?: number;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Retry-After in whole seconds (the spec sends integers; an HTTP date is honoured too). */
export function retryAfterSeconds(header: string | null, now = Date.now()): number {
  if (header === null) return 1;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Math.max(0, Number.parseInt(trimmed, 10));
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? 1 : Math.max(0, Math.ceil((date - now) / 1000));
}

export function createApi(options: ApiOptions): Api {
  const baseFetch = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const sleep = options.sleep ?? defaultSleep;
  const maxRetries = options.maxRetries ?? 3;
  const maxWaitSeconds = options.maxWaitSeconds ?? 120;
  const waiting = createStore<RateLimitWait>(null);
  const unauthorized = createStore(0);

  const countDown = async (seconds: number) => {
    for (let left = seconds; left > 0; left--) {
      waiting.set({ seconds: left });
      await sleep(1000);
    }
    waiting.set(null);
  };

  const retryingFetch = async (request: Request): Promise<Response> => {
    for (let attempt = 0; ; attempt++) {
      const response = await baseFetch(request.clone());
      if (response.status === 401) unauthorized.set(unauthorized.get() + 1);
      if (response.status !== 429 || attempt >= maxRetries) return response;
      const seconds = retryAfterSeconds(response.headers.get('retry-after'));
      if (seconds > maxWaitSeconds) return response;
      await countDown(seconds);
    }
  };

  const client = createClient<paths>({ baseUrl: options.baseUrl ?? '', fetch: retryingFetch });
  client.use({
    onRequest: ({ request }) => {
      const token = options.tokens.read();
      if (token) request.headers.set('authorization', `Bearer ${token}`);
      return request;
    },
  });
  return { client, tokens: options.tokens, waiting, unauthorized };
}

interface Result<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The data of a successful call, or an ApiError carrying its problem document. */
export async function ok<T>(pending: Promise<Result<T>>): Promise<T> {
  const { data, error, response } = await pending;
  if (!response.ok) throw new ApiError(problemOf(response, error));
  if (data === undefined) {
    throw new ApiError(
      problemOf(response, { title: 'Empty response', detail: 'The service sent no body' }),
    );
  }
  return data;
}

/** For calls answered 202/204: success or an ApiError. */
export async function done(pending: Promise<Result<unknown>>): Promise<void> {
  const { error, response } = await pending;
  if (!response.ok) throw new ApiError(problemOf(response, error));
}
