import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { run as gate } from './commands/gate';
import { run as status } from './commands/status';
import { fetchWithRetry } from './retry';
import { serviceUrl } from './service-url';

/** A port nothing listens on: bound, then closed again. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('the online commands find the service where it listens by default', () => {
  let server: Server;
  let port: number;
  const paths: string[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      paths.push(request.url ?? '');
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ description: 'All systems operational', components: [] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('defaults to 127.0.0.1 on PORT, else 8080, the service default; --url and DRIFTWATCH_URL win', () => {
    expect(serviceUrl({})).toBe('http://127.0.0.1:8080');
    expect(serviceUrl({ PORT: '9090' })).toBe('http://127.0.0.1:9090');
    expect(serviceUrl({ PORT: 'abc' })).toBe('http://127.0.0.1:8080');
    expect(serviceUrl({ PORT: '9090', DRIFTWATCH_URL: 'http://h:1/' })).toBe('http://h:1');
    expect(serviceUrl({ DRIFTWATCH_URL: 'http://h:1' }, 'http://u:2')).toBe('http://u:2');
  });

  it('driftwatch status show reaches the service on $PORT without DRIFTWATCH_URL', async () => {
    vi.stubEnv('DRIFTWATCH_URL', undefined);
    vi.stubEnv('PORT', String(port));
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      expect(await status(['show'], { debug: false })).toBe(0);
      expect(log).toHaveBeenCalledWith('All systems operational');
    } finally {
      log.mockRestore();
      vi.unstubAllEnvs();
    }
    expect(paths).toContain('/api/v1/status/public');
  });

  it('driftwatch gate --repository reaches the service on $PORT without DRIFTWATCH_URL', async () => {
    paths.length = 0;
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      await gate(
        ['--repository', '00000000-0000-4000-8000-00000000000b', '--timeout', '0'],
        { debug: false },
        { env: { PORT: String(port), DRIFTWATCH_TOKEN: 'dw_test' }, write: () => {} },
      );
    } finally {
      error.mockRestore();
    }
    expect(paths.some((path) => path.startsWith('/api/v1/'))).toBe(true);
  });

  it('a connection error names the address, for status and for the gate', async () => {
    const closed = `http://127.0.0.1:${await closedPort()}`;
    vi.stubEnv('DRIFTWATCH_URL', closed);
    try {
      await expect(status(['show'], { debug: false })).rejects.toThrow(
        new RegExp(`^cannot reach the service at ${closed} \\(connect ECONNREFUSED`),
      );
    } finally {
      vi.unstubAllEnvs();
    }
    await expect(
      fetchWithRetry(`${closed}/api/v1/scans`, {}, { attempts: 2, baseMs: 1, maxMs: 1 }),
    ).rejects.toThrow(`cannot reach the service at ${closed}`);
    const errors: string[] = [];
    const error = vi
      .spyOn(console, 'error')
      .mockImplementation((...args) => void errors.push(args.join(' ')));
    try {
      const code = await gate(
        ['--repository', '00000000-0000-4000-8000-00000000000b', '--url', closed],
        { debug: false },
        { env: { DRIFTWATCH_TOKEN: 'dw_test' }, write: () => {} },
      );
      expect(code).toBe(2);
    } finally {
      error.mockRestore();
    }
    expect(errors.join('\n')).toContain(`cannot reach the service at ${closed}`);
  }, 30_000);
});
