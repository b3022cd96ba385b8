import Fastify from 'fastify';
import { describe, expect, test } from 'vitest';
import { createServiceLogger } from '../logger';
import { OneLinePerRequest } from './request-log';

describe('the request log', () => {
  test('is one line per request, written when it completes', async () => {
    const lines: string[] = [];
    const app = Fastify({
      loggerInstance: createServiceLogger(
        { logLevel: 'info', logFormat: 'json' },
        { write: (text) => lines.push(text) },
      ),
      logController: new OneLinePerRequest(),
    });
    app.get('/ok', async () => ({ ok: true }));
    await app.inject({ method: 'GET', url: '/ok?x=1' });
    await app.inject({ method: 'GET', url: '/missing' });
    await app.close();
    const entries = lines.map((line) => JSON.parse(line)).filter((entry) => entry.method);
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({ method: 'GET', url: '/ok?x=1', statusCode: 200 });
    expect(entries[0].msg).toMatch(/^GET \/ok\?x=1 200 [\d.]+ ms$/);
    expect(entries[1]).toMatchObject({ statusCode: 404 });
    expect(lines).toHaveLength(2);
  });
});
