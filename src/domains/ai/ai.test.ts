import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildQuestionFixture,
  type QuestionFixture,
} from '../../../test/support/questions-fixture';
import { createTestApp, type TestApp, type TestTenant } from '../../../test/support/test-app';
import { withTenant } from '../../db/tenant-scope';

interface Body {
  kind: string;
  answer: string;
  intent: { name: string; parameters: Record<string, unknown> };
  rows: Record<string, unknown>[];
  citations: { type: string; id: string; path: string }[];
  choices: { label: string; question: string }[];
}

describe('POST /api/v1/ai/query', () => {
  let t: TestApp;
  let a: TestTenant;
  let b: TestTenant;
  let fixture: QuestionFixture;

  const ask = (token: string, question: string, extra: object = {}) =>
    t.as(token, { method: 'POST', url: '/api/v1/ai/query', payload: { question, ...extra } });

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createTenant('enterprise', 'A');
    b = await t.createTenant('enterprise', 'B');
    fixture = await buildQuestionFixture(t, a, b);
  });
  afterAll(() => t.close());

  it('answers which repositories a vulnerability affects, by alias, with citations', async () => {
    const res = await ask(a.token, 'Which repositories are affected by CVE-2021-23337?');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as Body;
    expect(body.intent.name).toBe('vulnerability.affected_repositories');
    expect(body.intent.parameters.vulnerabilityId).toBe('CVE-2021-23337');
    expect(body.rows.map((r) => r.repository).sort()).toEqual(['acme/api', 'acme/web']);
    expect(body.answer).toContain('2 repositories');
    const cited = body.citations.map((c) => c.id);
    expect(cited).toContain(fixture.repositories.web);
    expect(cited).not.toContain(fixture.otherWeb);
    expect(body.citations.find((c) => c.type === 'exposure')?.path).toMatch(
      /^\/api\/v1\/vulnerability-exposures\//,
    );
  });

  it('refuses what it cannot place with a 422 listing answerable questions', async () => {
    const res = await ask(a.token, 'What is the weather in Paris tomorrow?');
    expect(res.statusCode, res.body).toBe(422);
    const problem = res.json() as { errors: Record<string, string[]> };
    expect(problem.errors.suggestions?.length).toBeGreaterThan(0);
  });

  const tokenWith = async (tenant: TestTenant, role: string) => {
    const res = await t.as(tenant.token, {
      method: 'POST',
      url: '/api/v1/api-tokens',
      payload: {
        name: role,
        roleScopeJson: JSON.stringify({ roles: [role] }),
        expiresAtUtc: new Date(Date.now() + 86_400_000).toISOString(),
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().rawSecret as string;
  };

  const lastAudit = (tenantId: string) =>
    withTenant(t.database, tenantId, (db) =>
      db
        .selectFrom('audit_log')
        .select(['action', 'details', 'status_code'])
        .where('action', '=', 'ai.query')
        .orderBy('occurred_at', 'desc')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow(),
    );

  it('lets a viewer ask; asks back when a name is two packages', async () => {
    const viewer = await tokenWith(a, 'viewer');
    const res = await ask(viewer, 'Which repositories use requests?');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as Body;
    expect(body.kind).toBe('clarification');
    expect(body.choices.map((c) => c.label).sort()).toEqual(['requests (PyPI)', 'requests (npm)']);
    const chosen = await ask(
      viewer,
      body.choices.find((c) => c.label.includes('PyPI'))?.question ?? '',
    );
    expect((chosen.json() as Body).rows.map((r) => r.repository)).toEqual(['acme/api']);
  });

  it('tenant B, with the same package names, sees only its own repository', async () => {
    const res = await ask(b.token, 'Which repositories use lodash?');
    const body = res.json() as Body;
    expect(body.kind, res.body).toBe('answer');
    expect(body.citations.map((c) => c.id)).toContain(fixture.otherWeb);
    for (const id of Object.values(fixture.repositories)) expect(res.body).not.toContain(id);
    const asked = await ask(b.token, 'Is requests vulnerable?');
    expect((asked.json() as Body).answer).toContain('None of your repositories');
  });

  it('audits the intent, and the text unless the tenant turns that off', async () => {
    await ask(a.token, 'Which malicious packages did we find?');
    expect((await lastAudit(a.tenantId)).details).toEqual({
      intent: 'exposures.malicious',
      question: 'Which malicious packages did we find?',
    });
    const off = await t.as(a.token, {
      method: 'PUT',
      url: '/api/v1/tenants/current/question-settings',
      payload: { recordQuestionText: false },
    });
    expect(off.statusCode, off.body).toBe(200);
    await ask(a.token, 'Which malicious packages did we find?');
    expect((await lastAudit(a.tenantId)).details).toEqual({ intent: 'exposures.malicious' });
    await ask(a.token, 'Tell me a joke');
    expect(await lastAudit(a.tenantId)).toMatchObject({
      status_code: 422,
      details: { intent: null },
    });
    const viewer = await tokenWith(a, 'viewer');
    const denied = await t.as(viewer, {
      method: 'PUT',
      url: '/api/v1/tenants/current/question-settings',
      payload: { recordQuestionText: true },
    });
    expect(denied.statusCode).toBe(403);
  });

  it("refuses a question about rows the plan's routes withhold (403), answers the rest", async () => {
    const free = await t.createTenant('free', 'Free');
    for (const question of [
      'Which CRA clocks are due this week?',
      'Show quantum findings that are disallowed after 2035',
      'Which policy violations are open?',
    ]) {
      const res = await ask(free.token, question);
      expect(res.statusCode, `${question}: ${res.body}`).toBe(403);
      expect((res.json() as { detail: string }).detail).toMatch(/^The free plan does not include/);
    }
    const allowed = await ask(free.token, 'Which repositories are affected by CVE-2021-23337?');
    expect(allowed.statusCode, allowed.body).toBe(200);
  });

  it('refuses bad input with 4xx problems and never a 500', async () => {
    expect((await ask(a.token, '')).statusCode).toBe(400);
    expect((await ask(a.token, 'x'.repeat(1001))).statusCode).toBe(400);
    const zone = await ask(a.token, 'What changed since Monday?', { timeZone: 'Mars/Olympus' });
    expect(zone.statusCode).toBe(422);
    expect(Object.keys(zone.json().errors)).toEqual(['timeZone']);
    const write = await ask(a.token, 'Delete all repositories');
    expect(write.statusCode).toBe(422);
    expect(
      (await ask(a.token, 'What changed since Monday?', { timeZone: 'Europe/Berlin' })).statusCode,
    ).toBe(200);
  });
});
