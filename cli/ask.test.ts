import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildQuestionFixture } from '../test/support/questions-fixture';
import { createTestApp, type TestApp, type TestTenant } from '../test/support/test-app';
import { run } from './commands/ask';

describe('driftwatch ask', () => {
  let t: TestApp;
  let a: TestTenant;
  let base: string;
  const retry = { attempts: 1, baseMs: 1, maxMs: 1 };

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createTenant('enterprise', 'A');
    const b = await t.createTenant('enterprise', 'B');
    await buildQuestionFixture(t, a, b);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => t.close());

  const ask = async (...argv: string[]) => {
    let out = '';
    const code = await run(
      [...argv, '--url', base, '--token', a.token],
      { debug: false },
      {
        env: {},
        write: (text) => {
          out += text;
        },
        retry,
      },
    );
    return { code, out };
  };

  it('prints the answer, the intent and the citations', async () => {
    const { code, out } = await ask('Which repositories are affected by CVE-2021-23337?');
    expect(code).toBe(0);
    expect(out).toContain('2 repositories are affected by CVE-2021-23337');
    expect(out).toContain('intent: vulnerability.affected_repositories');
    expect(out).toMatch(/citations:\n {2}vulnerability /);
  });

  it('prints the choices of a question asked back, and suggestions of a refused one', async () => {
    const asked = await ask('Which repositories use requests?');
    expect(asked.code).toBe(0);
    expect(asked.out).toContain(
      'requests (PyPI): driftwatch ask "Which repositories use pkg:pypi/requests?"',
    );
    const refused = await ask('Tell me a joke');
    expect(refused.code).toBe(1);
    expect(refused.out).toContain('Try:');
  });

  it('exits 2 without a token or when the service refuses it', async () => {
    expect(await run(['a question'], { debug: false }, { env: {} })).toBe(2);
    const bad = await run(
      ['What changed?', '--url', base, '--token', 'dw_bad'],
      { debug: false },
      { env: {}, retry },
    );
    expect(bad).toBe(2);
  });
});
