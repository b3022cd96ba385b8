import { describe, expect, it } from 'vitest';
import { createApi, done, ok, retryAfterSeconds } from './client';
import { ApiError, asProblem } from './problem';
import { sessionTokenStore, type TokenStorage } from './session';

/** A Map-backed sessionStorage. */
function memoryStorage(): TokenStorage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, value),
    removeItem: (key) => void map.delete(key),
  };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: {
      'content-type': status >= 400 ? 'application/problem+json' : 'application/json',
      ...headers,
    },
  });

/** A scripted service: answers in order, recording each request. */
function scripted(answers: Response[]) {
  const requests: Request[] = [];
  return {
    requests,
    fetch: async (request: Request) => {
      requests.push(request);
      const next = answers.shift();
      if (!next) throw new Error('no more answers');
      return next;
    },
  };
}

const FLAGS = {
  plan: 'team',
  items: [],
  limits: { repositories: 5, tenantRequestsPerMinute: null, tokenRequestsPerMinute: null },
};

describe('the API client', () => {
  it('sends the session token as a bearer header, never in the URL', async () => {
    const storage = memoryStorage();
    const tokens = sessionTokenStore(storage);
    tokens.write('  dw_secret_123  ');
    const service = scripted([json(200, FLAGS)]);
    const api = createApi({ tokens, baseUrl: 'http://service.test', fetch: service.fetch });
    const flags = await ok(api.client.GET('/api/v1/feature-flags'));
    expect(flags.plan).toBe('team');
    const request = service.requests[0];
    expect(request?.headers.get('authorization')).toBe('Bearer dw_secret_123');
    expect(request?.url).toBe('http://service.test/api/v1/feature-flags');
    expect(request?.url).not.toContain('dw_secret');
    expect([...storage.map.values()]).toEqual(['dw_secret_123']);
  });

  it('sends no authorization header when signed out', async () => {
    const service = scripted([json(200, FLAGS)]);
    const api = createApi({
      tokens: sessionTokenStore(memoryStorage()),
      fetch: service.fetch,
      baseUrl: 'http://s.test',
    });
    await ok(api.client.GET('/api/v1/feature-flags'));
    expect(service.requests[0]?.headers.has('authorization')).toBe(false);
  });

  it('waits Retry-After on a 429, says so, then retries the same request', async () => {
    const slept: number[] = [];
    const seen: ({ seconds: number } | null)[] = [];
    const service = scripted([
      json(429, { title: 'Too Many Requests', status: 429 }, { 'retry-after': '3' }),
      json(200, FLAGS),
    ]);
    const api = createApi({
      tokens: sessionTokenStore(memoryStorage()),
      baseUrl: 'http://s.test',
      fetch: service.fetch,
      sleep: async (ms) => {
        slept.push(ms);
      },
    });
    api.waiting.subscribe((wait) => seen.push(wait));
    const flags = await ok(api.client.GET('/api/v1/feature-flags'));
    expect(flags.plan).toBe('team');
    expect(service.requests).toHaveLength(2);
    expect(slept).toEqual([1000, 1000, 1000]);
    expect(seen).toEqual([{ seconds: 3 }, { seconds: 2 }, { seconds: 1 }, null]);
    expect(api.waiting.get()).toBeNull();
  });

  it('gives up after maxRetries and surfaces the 429 problem', async () => {
    const service = scripted([
      json(
        429,
        { title: 'Too Many Requests', detail: 'slow down', correlationId: 'c-1' },
        { 'retry-after': '0' },
      ),
      json(
        429,
        { title: 'Too Many Requests', detail: 'slow down', correlationId: 'c-2' },
        { 'retry-after': '0' },
      ),
    ]);
    const api = createApi({
      tokens: sessionTokenStore(memoryStorage()),
      baseUrl: 'http://s.test',
      fetch: service.fetch,
      maxRetries: 1,
      sleep: async () => {},
    });
    const error = await ok(api.client.GET('/api/v1/feature-flags')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(asProblem(error)).toEqual({
      status: 429,
      title: 'Too Many Requests',
      detail: 'slow down',
      correlationId: 'c-2',
      errors: null,
    });
  });

  it('turns a problem document into title, detail, correlation id and field errors', async () => {
    const service = scripted([
      json(400, {
        type: 'about:blank',
        title: 'Bad Request',
        status: 400,
        detail: 'take must be at least 1',
        correlationId: 'corr-42',
        errors: { take: ['must be >= 1'] },
      }),
    ]);
    const api = createApi({
      tokens: sessionTokenStore(memoryStorage()),
      baseUrl: 'http://s.test',
      fetch: service.fetch,
    });
    const error = await ok(
      api.client.GET('/api/v1/repositories', { params: { query: { take: 0 } } }),
    ).catch((e: unknown) => e);
    expect(asProblem(error)).toEqual({
      status: 400,
      title: 'Bad Request',
      detail: 'take must be at least 1',
      correlationId: 'corr-42',
      errors: { take: ['must be >= 1'] },
    });
  });

  it('falls back to the X-Correlation-Id header and the status text for a non-problem error', async () => {
    const service = scripted([
      new Response('<html>bad gateway</html>', {
        status: 502,
        statusText: 'Bad Gateway',
        headers: { 'content-type': 'text/html', 'x-correlation-id': 'hdr-7' },
      }),
    ]);
    const api = createApi({
      tokens: sessionTokenStore(memoryStorage()),
      baseUrl: 'http://s.test',
      fetch: service.fetch,
    });
    const error = await done(
      api.client.DELETE('/api/v1/repositories/{repositoryId}', {
        params: { path: { repositoryId: '00000000-0000-7000-8000-000000000000' } },
      }),
    ).catch((e: unknown) => e);
    expect(asProblem(error)).toMatchObject({
      status: 502,
      title: 'Bad Gateway',
      detail: null,
      correlationId: 'hdr-7',
    });
  });

  it('counts 401s so the shell can sign out', async () => {
    const service = scripted([json(401, { title: 'Unauthorized', status: 401 })]);
    const api = createApi({
      tokens: sessionTokenStore(memoryStorage()),
      baseUrl: 'http://s.test',
      fetch: service.fetch,
    });
    await ok(api.client.GET('/api/v1/feature-flags')).catch(() => null);
    expect(api.unauthorized.get()).toBe(1);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(retryAfterSeconds('7')).toBe(7);
    expect(retryAfterSeconds(null)).toBe(1);
    expect(
      retryAfterSeconds('Wed, 21 Oct 2015 07:28:10 GMT', Date.parse('2015-10-21T07:28:00Z')),
    ).toBe(10);
    expect(retryAfterSeconds('soon')).toBe(1);
  });

  it('never stores a blank token, and clears it on sign-out', () => {
    const storage = memoryStorage();
    const tokens = sessionTokenStore(storage);
    expect(() => tokens.write('   ')).toThrow();
    tokens.write('abc');
    expect(tokens.read()).toBe('abc');
    tokens.clear();
    expect(tokens.read()).toBeNull();
    expect(storage.map.size).toBe(0);
  });
});
