import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  buildQuestionFixture,
  type QuestionFixture,
} from '../../../../test/support/questions-fixture';
import { createTestApp, type TestApp, type TestTenant } from '../../../../test/support/test-app';
import type { AiModelConfig } from '../../../config';
import { withTenant } from '../../../db/tenant-scope';

/**
 * The optional model (docs/questions.md#the-optional-model) against a stand-in OpenAI-compatible
 * server on 127.0.0.1: what it may do (place an unplaced question, word an answer), what is
 * refused (an invalid intent or parameters: the normal 422; a wording with an invented number:
 * the engine's wording), a model that never answers, and what it is sent (one tenant's rows).
 */

interface Seen {
  headers: IncomingHttpHeaders;
  body: { model: string; messages: { role: string; content: string }[] };
}

type Reply = string | 'hang' | { after: Promise<void>; content: string };
type Behaviour = { translate: Reply; phrase: Reply };

const completion = (content: string) =>
  JSON.stringify({
    id: 'x',
    object: 'chat.completion',
    choices: [{ index: 0, message: { role: 'assistant', content } }],
  });

describe('the optional model of POST /api/v1/ai/query', () => {
  let server: Server;
  let baseUrl: string;
  const seen: Seen[] = [];
  let behaviour: Behaviour;
  let t: TestApp;
  let a: TestTenant;
  let b: TestTenant;
  let fixture: QuestionFixture;

  const settings = (overrides: Partial<AiModelConfig> = {}): AiModelConfig => ({
    baseUrl,
    model: 'stand-in',
    apiKey: 'sk-stand-in-key',
    timeoutMs: 400,
    allowCidrs: ['127.0.0.1/32'],
    ...overrides,
  });
  const ask = (app: TestApp, token: string, question: string) =>
    app.as(token, { method: 'POST', url: '/api/v1/ai/query', payload: { question } });

  beforeAll(async () => {
    server = createServer((request, response) => {
      let raw = '';
      request.on('data', (chunk) => {
        raw += chunk;
      });
      request.on('end', () => {
        const body = JSON.parse(raw) as Seen['body'];
        seen.push({ headers: request.headers, body });
        const system = body.messages[0]?.content ?? '';
        const reply = system.startsWith('You map') ? behaviour.translate : behaviour.phrase;
        if (reply === 'hang') return; // never answers; the client's timeout ends it
        const send = (content: string) => {
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(completion(content));
        };
        if (typeof reply === 'string') send(reply);
        else void reply.after.then(() => send(reply.content));
      });
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    t = await createTestApp({ aiModel: settings() });
    a = await t.createTenant('enterprise', 'A');
    b = await t.createTenant('enterprise', 'B');
    fixture = await buildQuestionFixture(t, a, b);
  });
  afterAll(async () => {
    await t.close();
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  });
  beforeEach(() => {
    seen.length = 0;
    behaviour = { translate: '{"intent": null}', phrase: '' };
  });

  it('places a question the parser could not, checked against the intent schema', async () => {
    behaviour.translate = '```json\n{"intent": "counts.inventory", "parameters": {}}\n```';
    const res = await ask(t, a.token, 'Paint me the big picture of our estate');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.intent.name).toBe('counts.inventory');
    expect(body.model).toEqual({ translated: true, phrased: false });
    expect(seen[0]?.headers.authorization).toBe('Bearer sk-stand-in-key');
    expect(seen[0]?.body.model).toBe('stand-in');
    // The translation call carries the catalogue and the question, no tenant data.
    expect(JSON.stringify(seen[0]?.body)).not.toContain(fixture.repositories.web);
  });

  it('refuses an invalid intent or invalid parameters with the normal 422', async () => {
    behaviour.translate = '{"intent": "exposures.drop_table", "parameters": {}}';
    const unknown = await ask(t, a.token, 'Paint me the big picture of our estate');
    expect(unknown.statusCode, unknown.body).toBe(422);
    expect(unknown.json().errors.suggestions.length).toBeGreaterThan(0);
    behaviour.translate =
      '{"intent": "exposures.list", "parameters": {"severity": "apocalyptic", "limit": "all"}}';
    const invalid = await ask(t, a.token, 'Paint me the big picture of our estate');
    expect(invalid.statusCode, invalid.body).toBe(422);
    behaviour.translate = 'Sure! The intent is probably the inventory one.';
    expect((await ask(t, a.token, 'Paint me the big picture of our estate')).statusCode).toBe(422);
  });

  it('words an answer from the rows, and keeps the engine wording over an invented number', async () => {
    const question = 'Which repositories are affected by CVE-2021-23337?';
    behaviour.phrase = 'CVE-2021-23337 reaches 2 of your repositories: acme/api and acme/web.';
    const worded = await ask(t, a.token, question);
    expect(worded.statusCode, worded.body).toBe(200);
    expect(worded.json().answer).toBe(behaviour.phrase);
    expect(worded.json().model).toEqual({ translated: false, phrased: true });
    const sent = JSON.stringify(seen.at(-1)?.body);
    expect(sent).toContain(fixture.repositories.web);

    behaviour.phrase = 'CVE-2021-23337 reaches 7 repositories, 3 of them critical.';
    const invented = await ask(t, a.token, question);
    expect(invented.json().answer).toContain('2 repositories are affected');
    expect(invented.json().model).toEqual({ translated: false, phrased: false });
  });

  it('goes on without a model that never answers', async () => {
    behaviour = { translate: 'hang', phrase: 'hang' };
    const started = Date.now();
    const answered = await ask(t, a.token, 'Which repositories are affected by CVE-2021-23337?');
    expect(answered.statusCode, answered.body).toBe(200);
    expect(answered.json().answer).toContain('2 repositories are affected');
    const refused = await ask(t, a.token, 'Paint me the big picture of our estate');
    expect(refused.statusCode).toBe(422);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("sends only the asking tenant's rows", async () => {
    behaviour.phrase = 'See the rows.';
    const res = await ask(t, b.token, 'Which repositories use lodash?');
    expect(res.statusCode, res.body).toBe(200);
    const sent = seen.map((s) => JSON.stringify(s.body)).join('\n');
    expect(sent).toContain(fixture.otherWeb);
    for (const id of Object.values(fixture.repositories)) expect(sent).not.toContain(id);
    for (const id of Object.values(fixture.exposures)) expect(sent).not.toContain(id);
  });

  it('holds no database connection while a slow model words the answer', async () => {
    const slowApp = await createTestApp({ aiModel: settings({ timeoutMs: 20_000 }) });
    try {
      const tenant = await slowApp.createTenant('enterprise', 'Slow');
      let answerNow = () => {};
      const after = new Promise<void>((done) => {
        answerNow = done;
      });
      behaviour.phrase = { after, content: 'You have no repositories yet.' };
      const slow = ask(slowApp, tenant.token, 'How many repositories do we have?');
      const started = Date.now();
      while (!seen.some((s) => !s.body.messages[0]?.content.startsWith('You map'))) {
        if (Date.now() - started > 10_000) throw new Error('the model was never asked');
        await new Promise((done) => setTimeout(done, 10));
      }
      // The model is working: the rows were read and their transaction closed, so no pooled
      // connection is checked out and another request is served at once.
      const { pool, readPool } = slowApp.database;
      expect(pool.totalCount - pool.idleCount).toBe(0);
      if (readPool) expect(readPool.totalCount - readPool.idleCount).toBe(0);
      const other = await Promise.race([
        slowApp.as(tenant.token, { method: 'GET', url: '/api/v1/repositories' }),
        new Promise<null>((done) => setTimeout(() => done(null), 5_000)),
      ]);
      expect(other?.statusCode).toBe(200);
      answerNow();
      const res = await slow;
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().model).toEqual({ translated: false, phrased: true });
      // Its audit entry was written after the fact, in a transaction of its own.
      const audited = await withTenant(slowApp.database, tenant.tenantId, (db) =>
        db
          .selectFrom('audit_log')
          .select(['details', 'status_code'])
          .where('action', '=', 'ai.query')
          .execute(),
      );
      expect(audited).toMatchObject([
        { status_code: 200, details: { intent: 'counts.inventory' } },
      ]);
    } finally {
      await slowApp.close();
    }
  });

  it('reaches no internal address the operator did not allow (the outbound guard)', async () => {
    const closed = await createTestApp({ aiModel: settings({ allowCidrs: [] }) });
    try {
      const tenant = await closed.createTenant('enterprise', 'C');
      behaviour.translate = '{"intent": "counts.inventory", "parameters": {}}';
      const res = await ask(closed, tenant.token, 'Paint me the big picture of our estate');
      expect(res.statusCode).toBe(422);
      expect(
        (await ask(closed, tenant.token, 'How many repositories do we have?')).statusCode,
      ).toBe(200);
      expect(seen).toEqual([]);
    } finally {
      await closed.close();
    }
  });
});
