import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildQuestionFixture,
  type QuestionFixture,
} from '../../../test/support/questions-fixture';
import { createTestApp, type TestApp, type TestTenant } from '../../../test/support/test-app';

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
});
