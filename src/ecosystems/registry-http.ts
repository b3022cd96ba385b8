import type { fetch as undiciFetch } from 'undici';
import { BodyTooLargeError, readCappedText } from '../core/http-client';
import { asObject } from '../core/json-values';
import {
  type RegistryCache,
  type RegistryCacheEntry,
  RegistryError,
  type RegistryHttp,
  type RegistryRequest,
  type RegistryResponse,
  RetryableRegistryError,
} from './registry-types';

/**
 * The one HTTP layer under all nine registry clients: undici fetch with a timeout, conditional
 * requests (ETag / Last-Modified; a 304 reuses the cached or previous answer), a small LRU of raw
 * responses, a response size cap, 404/410 → null, and 429/5xx/network failures → a
 * RetryableRegistryError carrying the Retry-After the registry sent (the job honours it).
 */

/** Timeouts and limits come from the configuration (config.registries, the one place for defaults). */
export interface RegistryHttpOptions {
  timeoutMs: number;
  maxResponseBytes: number;
  /** Shared response cache; `createMemoryCache(n)` or the caller's own (e.g. backed by the DB). */
  cache?: RegistryCache | null;
  userAgent?: string;
  /** For tests: the fetch to use (defaults to undici's). */
  fetch?: typeof undiciFetch;
  now?: () => number;
}

const DEFAULT_RETRY_429 = 60;
const DEFAULT_RETRY_5XX = 30;
const DEFAULT_RETRY_NETWORK = 15;
const MAX_RETRY_AFTER = 24 * 3600;

/** Retry-After is either delta-seconds or an HTTP date; anything else gives the fallback. */
export function parseRetryAfter(
  value: string | null,
  fallback: number,
  nowMs = Date.now(),
): number {
  if (value === null) return fallback;
  const text = value.trim();
  if (/^\d{1,10}$/.test(text)) return clampRetry(Number(text));
  const date = Date.parse(text);
  if (Number.isNaN(date)) return fallback;
  return clampRetry(Math.ceil((date - nowMs) / 1000));
}

function clampRetry(seconds: number): number {
  return Math.min(MAX_RETRY_AFTER, Math.max(1, seconds));
}

/** Least-recently-used cache of raw responses, bounded by entries and total body characters. */
export function createMemoryCache(maxEntries: number, maxChars = 64 * 1024 * 1024): RegistryCache {
  const entries = new Map<string, RegistryCacheEntry>();
  let chars = 0;
  return {
    get(url) {
      const entry = entries.get(url);
      if (entry === undefined) return undefined;
      entries.delete(url);
      entries.set(url, entry);
      return entry;
    },
    set(url, entry) {
      if (maxEntries <= 0 || entry.body.length > maxChars) return;
      const old = entries.get(url);
      if (old !== undefined) {
        chars -= old.body.length;
        entries.delete(url);
      }
      entries.set(url, entry);
      chars += entry.body.length;
      while (entries.size > maxEntries || chars > maxChars) {
        const oldest = entries.keys().next();
        if (oldest.done) break;
        chars -= entries.get(oldest.value)?.body.length ?? 0;
        entries.delete(oldest.value);
      }
    },
  };
}

export function createRegistryHttp(options: RegistryHttpOptions): RegistryHttp {
  const timeoutMs = options.timeoutMs;
  const maxBytes = options.maxResponseBytes;
  const cache = options.cache ?? null;
  // undici is loaded on the first request: the offline audit and extraction import this module
  // (through the ecosystem registry) but never fetch, and undici is a megabyte of code to load.
  const doFetch: typeof undiciFetch =
    options.fetch ?? (async (...args) => (await import('undici')).fetch(...args));
  const now = options.now ?? Date.now;
  const userAgent = options.userAgent ?? 'driftwatch-registry-client';

  async function send(
    request: RegistryRequest,
    extraHeaders: Record<string, string>,
  ): Promise<{ status: number; headers: Headers; body: string }> {
    const signals = [AbortSignal.timeout(timeoutMs)];
    if (request.signal) signals.push(request.signal);
    let response: Awaited<ReturnType<typeof undiciFetch>>;
    try {
      response = await doFetch(request.url, {
        method: request.method ?? 'GET',
        headers: { 'user-agent': userAgent, ...request.headers, ...extraHeaders },
        signal: AbortSignal.any(signals),
        redirect: 'follow',
      });
    } catch (error) {
      if (request.signal?.aborted) throw new RegistryError('request aborted by the caller');
      throw new RetryableRegistryError(
        `registry unreachable: ${describe(error)}`,
        DEFAULT_RETRY_NETWORK,
      );
    }
    const headers = response.headers as unknown as Headers;
    if (response.status === 429 || response.status >= 500) {
      await response.body?.cancel().catch(() => {});
      const fallback = response.status === 429 ? DEFAULT_RETRY_429 : DEFAULT_RETRY_5XX;
      throw new RetryableRegistryError(
        `registry answered ${response.status}`,
        parseRetryAfter(headers.get('retry-after'), fallback, now()),
        response.status,
      );
    }
    const body = await readCapped(response, maxBytes, request.url);
    return { status: response.status, headers, body };
  }

  return {
    async get(request) {
      const useCache = cache !== null && request.cache !== false && request.method !== 'HEAD';
      const cached = useCache ? cache.get(request.url) : undefined;
      if (cached !== undefined && request.immutable) {
        return fromEntry(cached, 200, true);
      }
      const callerValidators = Boolean(request.etag || request.lastModified);
      const etag = callerValidators ? request.etag : cached?.etag;
      const lastModified = callerValidators ? request.lastModified : cached?.lastModified;
      const conditional: Record<string, string> = {};
      if (etag) conditional['if-none-match'] = etag;
      if (lastModified) conditional['if-modified-since'] = lastModified;

      const answer = await send(request, conditional);
      if (answer.status === 404 || answer.status === 410) return null;
      if (answer.status === 304) {
        if (callerValidators) {
          // The caller's previous answer is still current; the cached body is only a bonus.
          const sameDocument =
            cached !== undefined &&
            ((etag && cached.etag === etag) ||
              (lastModified && cached.lastModified === lastModified));
          return {
            status: 304,
            body: sameDocument ? cached.body : '',
            etag: etag ?? null,
            lastModified: lastModified ?? null,
            headers: answer.headers,
            fromCache: Boolean(sameDocument),
          };
        }
        if (cached === undefined) {
          throw new RegistryError('registry answered 304 to an unconditional request');
        }
        const refreshed = { ...cached, storedAtMs: now() };
        cache?.set(request.url, refreshed);
        return fromEntry(refreshed, 200, true, answer.headers);
      }
      if (answer.status < 200 || answer.status >= 300) {
        throw new RegistryError(
          `registry answered ${answer.status} for ${request.url}`,
          null,
          answer.status,
        );
      }
      const entry: RegistryCacheEntry = {
        etag: answer.headers.get('etag'),
        lastModified: answer.headers.get('last-modified'),
        body: answer.body,
        storedAtMs: now(),
      };
      if (useCache && (entry.etag || entry.lastModified || request.immutable)) {
        cache?.set(request.url, entry);
      }
      return fromEntry(entry, 200, false, answer.headers);
    },
    raw(request) {
      return send(request, {});
    },
  };
}

function fromEntry(
  entry: RegistryCacheEntry,
  status: 200 | 304,
  fromCache: boolean,
  headers: Headers = new Headers(),
): RegistryResponse {
  return {
    status,
    body: entry.body,
    etag: entry.etag,
    lastModified: entry.lastModified,
    headers,
    fromCache,
  };
}

/** The body as UTF-8, refusing more than `maxBytes` (by Content-Length or while streaming). */
async function readCapped(
  response: Awaited<ReturnType<typeof undiciFetch>>,
  maxBytes: number,
  url: string,
): Promise<string> {
  try {
    return await readCappedText(response, maxBytes);
  } catch (error) {
    if (error instanceof BodyTooLargeError) {
      throw new RegistryError(`registry response for ${url} exceeds ${maxBytes} bytes`);
    }
    throw new RetryableRegistryError(
      `registry response interrupted: ${describe(error)}`,
      DEFAULT_RETRY_NETWORK,
    );
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
  }
  return String(error);
}

/** Parses a JSON document, or throws a RegistryError: registries are outside input. */
export function parseJson(body: string, what: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    throw new RegistryError(`unusable ${what}: not JSON`);
  }
}

/** Parses a JSON document that must be an object. */
export function parseJsonObject(body: string, what: string): Record<string, unknown> {
  const object = asObject(parseJson(body, what));
  if (object === null) throw new RegistryError(`unusable ${what}: not a JSON object`);
  return object;
}

/** An own property of a plain object (never one inherited through `__proto__`). */
export function own(object: Record<string, unknown> | null, key: string): unknown {
  if (object === null || !Object.hasOwn(object, key)) return undefined;
  return object[key];
}

/** A timestamp as ISO 8601 with `Z`, or null when unparseable or absurd. */
export function isoTime(value: unknown): string | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const ms = typeof value === 'number' ? value : Date.parse(value);
  if (!Number.isFinite(ms)) return null;
  const year = new Date(ms).getUTCFullYear();
  if (year < 1990 || year > 9999) return null;
  return new Date(ms).toISOString();
}

/** A non-negative safe integer, or null. */
export function count(value: unknown): number | null {
  const n = typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : null;
}
