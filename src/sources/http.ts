import { type Dispatcher, fetch as undiciFetch } from 'undici';
import { BodyTooLargeError, readCappedText } from '../core/http-client';
import {
  checkUrl,
  type OutboundPolicy,
  OutboundRefusedError,
  pinnedAgent,
  REFUSED_MESSAGE,
} from '../security/outbound-guard';
import { ProviderError } from './types';

/**
 * The one HTTP layer under the four provider clients: undici fetch with a timeout, a response
 * size cap, JSON parsing that treats every body as hostile, one wait-and-retry on 429 when the
 * provider asks for a short pause, and failures mapped onto ProviderError:
 * 401/403 → unauthorized, 404 → not_found, other 4xx/5xx → upstream (status kept),
 * network errors and timeouts → unreachable.
 * With `guard` (a base URL a tenant named rather than the operator), every request goes through
 * the outbound guard and is pinned to the checked address (docs/outbound-guard.md), and
 * failures to connect say nothing about the host.
 */
export interface ProviderHttpOptions {
  timeoutMs: number;
  /** Longest Retry-After (seconds) worth waiting for inside a request; longer → upstream 429. */
  maxRetryAfterSeconds: number;
  maxResponseBytes: number;
  userAgent: string;
  /** The outbound policy for user-given base URLs; null for the operator's configured bases. */
  guard?: OutboundPolicy | null;
}

/**
 * Limits that fit every provider. The timeout is not among them: it is a setting
 * (SCM_REQUEST_TIMEOUT_MS), whose one default is in config.ts.
 */
export const PROVIDER_HTTP_LIMITS: Omit<ProviderHttpOptions, 'timeoutMs'> = {
  maxRetryAfterSeconds: 5,
  maxResponseBytes: 32 * 1024 * 1024,
  userAgent: 'driftwatch',
};

export interface ProviderRequest {
  method?: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** Success statuses that mean "not signed in" for this provider (scm-c answers 203). */
  unauthorizedStatuses?: number[];
}

export interface ProviderResponse {
  status: number;
  headers: Headers;
  json: unknown;
}

/** Retry-After as delta-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterSeconds(value: string | null, nowMs = Date.now()): number | null {
  if (value === null) return null;
  const text = value.trim();
  if (/^\d{1,9}$/.test(text)) return Number(text);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return null;
  return Math.max(0, Math.ceil((date - nowMs) / 1000));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function describeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'the provider';
  }
}

function failureFor(status: number, host: string, detail: string): ProviderError {
  const suffix = detail ? `: ${detail}` : '';
  if (status === 401 || status === 403) {
    return new ProviderError(
      'unauthorized',
      `${host} refused the credential (${status})${suffix}`,
      status,
    );
  }
  if (status === 404)
    return new ProviderError('not_found', `${host} answered 404${suffix}`, status);
  return new ProviderError('upstream', `${host} answered ${status}${suffix}`, status);
}

/** A short, log-safe message from a provider's error body (never the whole body). */
function errorDetail(text: string): string {
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    const message =
      body.message ?? body.error_description ?? body.error ?? (body.errors as unknown[])?.[0];
    const value =
      typeof message === 'string'
        ? message
        : typeof (message as { message?: unknown })?.message === 'string'
          ? (message as { message: string }).message
          : '';
    return value.slice(0, 200);
  } catch {
    return '';
  }
}

/**
 * Sends one request; resolves only for 2xx with the parsed JSON body (null when empty).
 * Credentials travel in `headers` and are never part of an error message.
 */
export async function providerRequest(
  request: ProviderRequest,
  options: ProviderHttpOptions,
): Promise<ProviderResponse> {
  const host = options.guard ? 'the provider' : describeHost(request.url);
  for (let attempt = 0; ; attempt++) {
    const dispatcher = options.guard ? await guardedDispatcher(request.url, options.guard) : null;
    try {
      return await attemptRequest(request, options, host, dispatcher, attempt);
    } catch (error) {
      if (error === RETRY) continue;
      throw error;
    } finally {
      dispatcher?.close().catch(() => {});
    }
  }
}

const RETRY = Symbol('retry');

async function guardedDispatcher(url: string, guard: OutboundPolicy): Promise<Dispatcher> {
  try {
    const { target } = await checkUrl(url, guard, ['https:', 'http:']);
    return pinnedAgent(target);
  } catch (error) {
    if (error instanceof OutboundRefusedError) {
      throw new ProviderError('unreachable', REFUSED_MESSAGE);
    }
    throw error;
  }
}

async function attemptRequest(
  request: ProviderRequest,
  options: ProviderHttpOptions,
  host: string,
  dispatcher: Dispatcher | null,
  attempt: number,
): Promise<ProviderResponse> {
  let response: Response;
  try {
    response = (await undiciFetch(request.url, {
      ...(dispatcher ? { dispatcher } : {}),
      method: request.method ?? 'GET',
      headers: {
        accept: 'application/json',
        'user-agent': options.userAgent,
        ...(request.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...request.headers,
      },
      body: request.body !== undefined ? JSON.stringify(request.body) : undefined,
      redirect: 'error',
      signal: AbortSignal.timeout(options.timeoutMs),
    })) as unknown as Response;
  } catch (error) {
    const name = (error as Error).name;
    const cause = (error as { cause?: { message?: string } }).cause?.message ?? '';
    if (cause.includes('redirect')) {
      // API calls are never redirected; following one could carry credentials elsewhere.
      throw new ProviderError('upstream', `${host} answered with a redirect`, 502);
    }
    const reason =
      name === 'TimeoutError' || name === 'AbortError'
        ? `no answer within ${options.timeoutMs} ms`
        : ((error as { cause?: { code?: string } }).cause?.code ?? 'connection failed');
    // A tenant's own base URL: how the connection failed would be a port probe.
    if (options.guard) throw new ProviderError('unreachable', `${host} could not be reached`);
    throw new ProviderError('unreachable', `${host} could not be reached (${reason})`);
  }

  if (response.status === 429) {
    const wait = retryAfterSeconds(response.headers.get('retry-after'));
    await response.body?.cancel().catch(() => {});
    if (attempt === 0 && wait !== null && wait <= options.maxRetryAfterSeconds) {
      await sleep(wait * 1000);
      throw RETRY;
    }
    const after = wait === null ? '' : `; retry after ${wait} s`;
    throw new ProviderError('upstream', `${host} is rate limiting requests (429${after})`, 429);
  }

  if (request.unauthorizedStatuses?.includes(response.status)) {
    await response.body?.cancel().catch(() => {});
    throw new ProviderError(
      'unauthorized',
      `${host} refused the credential (${response.status})`,
      response.status,
    );
  }
  let text: string;
  try {
    text = await readCappedText(response, options.maxResponseBytes);
  } catch (error) {
    if (error instanceof BodyTooLargeError) {
      const cap = options.maxResponseBytes;
      throw new ProviderError('upstream', `the provider's answer exceeds ${cap} bytes`, 502);
    }
    throw new ProviderError('unreachable', `${host} closed the connection mid-answer`);
  }
  if (response.status < 200 || response.status >= 300) {
    throw failureFor(response.status, host, errorDetail(text));
  }
  if (text.trim() === '') return { status: response.status, headers: response.headers, json: null };
  try {
    return { status: response.status, headers: response.headers, json: JSON.parse(text) };
  } catch {
    throw new ProviderError('upstream', `${host} answered with a body that is not JSON`, 502);
  }
}

/** The URL of rel="next" in an RFC 8288 Link header, or null. */
export function nextLink(header: string | null): string | null {
  if (!header) return null;
  for (const part of header.split(',')) {
    const match = /^\s*<([^>]*)>\s*;(.*)$/.exec(part);
    if (match && /(^|;)\s*rel="?([^";]*\s)?next(\s[^";]*)?"?\s*(;|$)/.test(match[2] ?? '')) {
      return match[1] ?? null;
    }
  }
  return null;
}

/**
 * A follow-up URL the provider handed us (Link header, `next` field) must stay on the same
 * origin as the API base: a hostile or compromised upstream must not redirect credentials.
 */
export function sameOrigin(base: string, candidate: string): string {
  let resolved: URL;
  try {
    resolved = new URL(candidate, base);
  } catch {
    throw new ProviderError('upstream', 'the provider sent an unreadable next-page link', 502);
  }
  if (resolved.origin !== new URL(base).origin) {
    throw new ProviderError('upstream', 'the provider sent a next-page link to another host', 502);
  }
  return resolved.toString();
}

/** Hard stop for paging loops, so a provider that always says "more" cannot hold a request. */
export const MAX_PAGES = 200;

export function malformed(what: string): ProviderError {
  return new ProviderError('upstream', `the provider answered with a malformed ${what}`, 502);
}

/** Clone URLs come as https://org@host/...: the user part is the provider's hint, not ours. */
export function withoutUserInfo(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return url;
  }
}
