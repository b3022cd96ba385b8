import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  importJsonl,
  insertRepository,
  npmRange,
  osvRecord,
  scanWith,
  type TestApp,
  type TestTenant,
  tokenWithRole,
  twoTenantsWithRepositories,
} from '../../../test/support/scenarios';
import { MATCH_DEPENDENCIES, REMATCH } from '../exposures/jobs';

const URL = '/api/v1/ide/verdicts:batch';
const CRITICAL = 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H';

interface Item {
  index: number;
  name: string;
  version: string | null;
  purl: string;
  seen: boolean;
  verdict: string;
  reasons: string[];
  policies: {
    name: string;
    action: string;
    status: string;
    blocking: boolean;
    exceptionId: string | null;
  }[];
  vulnerabilities: { id: string; status: string; match: string; malicious: boolean }[];
  health: { known: boolean; score: number | null };
  knowledge: Record<string, boolean>;
}

describe('IDE verdicts', () => {
  let t: TestApp;
  let a: TestTenant;
  let b: TestTenant;
  let web: string;
  let viewer: string;

  const ask = (token: string, payload: object) =>
    t.as(token, { method: 'POST', url: URL, payload });
  const items = async (token: string, payload: object) => {
    const res = await ask(token, payload);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().items as Item[];
  };
  const policy = (token: string, payload: object) =>
    t.as(token, {
      method: 'POST',
      url: '/api/v1/policies',
      payload: { severity: 'high', ...payload },
    });

  beforeAll(async () => {
    t = await createTestApp({
      policies: { exceptionMaxDays: 365, verdictMaxPackages: 10, verdictBodyLimitBytes: 4096 },
    });
    ({
      a,
      b,
      repositories: [web],
    } = await twoTenantsWithRepositories(t, ['web']));
    await importJsonl(t, [
      osvRecord({
        id: 'GHSA-ide-0001-aaaa',
        severity: CRITICAL,
        affected: [npmRange('hole', '0', '2.0.0')],
      }),
      osvRecord({ id: 'MAL-2026-0001', affected: [npmRange('evil-pkg', '0')] }),
    ]);
    await scanWith(
      t,
      a.tenantId,
      web,
      [
        { name: 'hole', version: '1.0.0' },
        { name: 'fine', version: '1.0.0' },
      ],
      [MATCH_DEPENDENCIES.name, REMATCH.name],
    );
    await sql`
      INSERT INTO package_health_snapshots (package_id, snapshot_date, computed_at, signals, default_score)
      SELECT id, current_date, now(), '[{"key":"popularity","score":0.9}]'::jsonb, 87
      FROM packages WHERE ecosystem = 'npm' AND name = 'fine'`.execute(t.database.system);
    for (const payload of [
      { name: 'Critical', condition: 'vulnerabilities.maxSeverityLevel >= 4', action: 'block' },
      {
        name: 'Healthy is noted',
        condition: 'health.known && health.score > 80.0',
        action: 'inform',
      },
      {
        name: 'Only in web',
        condition: 'dependency.name == "fine"',
        action: 'warn',
        scope: { repositoryIds: [web] },
      },
      { name: 'Disabled', condition: 'true', action: 'block', enabled: false },
    ]) {
      expect((await policy(a.token, payload)).statusCode).toBe(201);
    }
    expect(
      (await policy(b.token, { name: 'B blocks all', condition: 'true', action: 'block' }))
        .statusCode,
    ).toBe(201);
    viewer = await tokenWithRole(t, a, 'viewer', null);
  }, 300_000);
  afterAll(() => t.close());

  it('judges each package by the policies that fire, its vulnerabilities and its health', async () => {
    const res = await ask(a.token, {
      packages: [
        { purl: 'pkg:npm/hole@1.0.0' },
        { ecosystem: 'npm', name: 'hole', version: '2.1.0' },
        { ecosystem: 'NPM', name: 'fine', version: '1.0.0' },
        { purl: 'pkg:npm/never-seen-here@1.0.0' },
        { ecosystem: 'npm', name: 'evil-pkg', version: '3.0.0' },
        { ecosystem: 'npm', name: 'hole', version: '^1.2.0' },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().policiesEvaluated).toBe(2);
    const [vulnerable, fixed, fine, unseen, evil, range] = res.json().items as Item[];
    expect(vulnerable).toMatchObject({
      index: 0,
      name: 'hole',
      version: '1.0.0',
      seen: true,
      verdict: 'block',
    });
    expect(vulnerable?.policies.map((p) => p.name)).toEqual(['Critical']);
    expect(vulnerable?.vulnerabilities).toEqual([
      expect.objectContaining({
        id: 'GHSA-ide-0001-aaaa',
        status: 'open',
        match: 'affected',
        malicious: false,
      }),
    ]);
    expect(fixed).toMatchObject({ verdict: 'allow', policies: [], vulnerabilities: [] });
    expect(fine).toMatchObject({ verdict: 'allow', health: { known: true, score: 87 } });
    expect(fine?.policies.map((p) => p.name)).toEqual(['Healthy is noted']);
    expect(unseen).toMatchObject({
      seen: false,
      verdict: 'allow',
      purl: 'pkg:npm/never-seen-here@1.0.0',
    });
    expect(unseen?.reasons[0]).toMatch(/never seen/);
    expect(unseen?.knowledge).toEqual({
      advisories: true,
      registryMetadata: false,
      versionListed: false,
      health: false,
    });
    expect(evil).toMatchObject({ seen: false, verdict: 'block' });
    expect(evil?.vulnerabilities[0]).toMatchObject({ id: 'MAL-2026-0001', malicious: true });
    // A range is possibly affected: a warning, not the block policy's exact match.
    expect(range?.vulnerabilities[0]?.match).toBe('possibly_affected');
  });

  it('applies repository-scoped policies, and exposure triage, when a repository is given', async () => {
    const [fine] = await items(a.token, {
      repositoryId: web,
      packages: [{ ecosystem: 'npm', name: 'fine', version: '1.0.0' }],
    });
    expect(fine?.verdict).toBe('warn');
    expect(fine?.policies.map((p) => p.name).sort()).toEqual(['Healthy is noted', 'Only in web']);
    await sql`UPDATE vulnerability_exposures SET status = 'not_affected'`.execute(
      t.database.system,
    );
    const [hole] = await items(a.token, {
      repositoryId: web,
      packages: [{ purl: 'pkg:npm/hole@1.0.0' }],
    });
    expect(hole).toMatchObject({ verdict: 'allow', policies: [] });
    expect(hole?.vulnerabilities[0]?.status).toBe('not_affected');
    await sql`UPDATE vulnerability_exposures SET status = 'open'`.execute(t.database.system);
  });

  it("keeps tenants apart: another tenant's policies never fire, its repository is a 404", async () => {
    const [forA] = await items(a.token, {
      packages: [{ ecosystem: 'npm', name: 'fine', version: '1.0.0' }],
    });
    expect(forA?.policies.map((p) => p.name)).not.toContain('B blocks all');
    const [forB] = await items(b.token, {
      packages: [{ ecosystem: 'npm', name: 'fine', version: '1.0.0' }],
    });
    expect(forB).toMatchObject({ verdict: 'block', policies: [{ name: 'B blocks all' }] });
    const other = await ask(b.token, {
      repositoryId: web,
      packages: [{ purl: 'pkg:npm/fine@1.0.0' }],
    });
    expect(other.statusCode).toBe(404);
    expect(other.headers['content-type']).toMatch(/application\/problem\+json/);
  });

  it('answers as the gate does: an exception or a dismissal in the repository stops the block', async () => {
    await t.runJobs();
    const violations = await t.as(a.token, {
      method: 'GET',
      url: `/api/v1/policy-violations?repositoryId=${web}`,
    });
    const held = violations
      .json()
      .items.find((v: { policyName: string }) => v.policyName === 'Critical');
    expect(held).toMatchObject({ packageName: 'hole', status: 'open', blocking: true });
    const hole = { repositoryId: web, packages: [{ purl: 'pkg:npm/hole@1.0.0' }] };
    const critical = (item: Item | undefined) => item?.policies.find((p) => p.name === 'Critical');
    const [before] = await items(a.token, hole);
    expect(before?.verdict).toBe('block');
    expect(critical(before)).toMatchObject({ status: 'open', blocking: true });

    const url = `/api/v1/policy-violations/${held.violationId}`;
    const granted = await t.as(a.token, {
      method: 'POST',
      url: `${url}/exception`,
      payload: { reason: 'fix planned', expiresAtUtc: new Date(Date.now() + 86_400_000) },
    });
    expect(granted.statusCode, granted.body).toBe(201);
    const gate = (await t.as(a.token, { method: 'GET', url })).json();
    expect(gate).toMatchObject({ status: 'excepted', blocking: false });
    const [excepted] = await items(a.token, hole);
    // Still vulnerable (a warning), no longer blocked, and it says why.
    expect(excepted?.verdict).toBe('warn');
    expect(critical(excepted)).toMatchObject({
      status: 'excepted',
      blocking: false,
      exceptionId: granted.json().exceptionId,
    });
    expect(excepted?.reasons.join('\n')).toMatch(/Critical.*excepted here/);
    // Another repository of the tenant is not covered by an exception of this one.
    const api = await insertRepository(t, a.tenantId, 'api');
    const [elsewhere] = await items(a.token, { ...hole, repositoryId: api });
    expect(elsewhere?.verdict).toBe('block');

    const removed = await t.as(a.token, {
      method: 'DELETE',
      url: `/api/v1/policy-exceptions/${granted.json().exceptionId}`,
    });
    expect(removed.statusCode).toBe(204);
    expect((await items(a.token, hole))[0]?.verdict).toBe('block');
    const dismissed = await t.as(a.token, {
      method: 'PATCH',
      url,
      payload: { status: 'dismissed', reason: 'not shipped' },
    });
    expect(dismissed.statusCode, dismissed.body).toBe(200);
    expect(dismissed.json().blocking).toBe(false);
    const [afterDismissal] = await items(a.token, hole);
    expect(afterDismissal?.verdict).toBe('warn');
    expect(critical(afterDismissal)).toMatchObject({ status: 'dismissed', blocking: false });
    await t.as(a.token, { method: 'PATCH', url, payload: { status: 'open' } });
  });

  it('a tenant_package exception covers other versions and repositories, without a repository too', async () => {
    const held = (
      await t.as(a.token, {
        method: 'GET',
        url: `/api/v1/policy-violations?repositoryId=${web}&status=open`,
      })
    )
      .json()
      .items.find((v: { policyName: string }) => v.policyName === 'Critical');
    const granted = await t.as(a.token, {
      method: 'POST',
      url: `/api/v1/policy-violations/${held.violationId}/exception`,
      payload: {
        reason: 'vendored fork',
        scope: 'tenant_package',
        expiresAtUtc: new Date(Date.now() + 86_400_000),
      },
    });
    expect(granted.statusCode, granted.body).toBe(201);
    const [anywhere, otherVersion] = await items(a.token, {
      packages: [{ purl: 'pkg:npm/hole@1.0.0' }, { purl: 'pkg:npm/hole@1.5.0' }],
    });
    expect(anywhere).toMatchObject({ verdict: 'warn' });
    expect(otherVersion?.policies[0]).toMatchObject({ status: 'excepted', blocking: false });
    await t.as(a.token, {
      method: 'DELETE',
      url: `/api/v1/policy-exceptions/${granted.json().exceptionId}`,
    });
    expect((await items(a.token, { packages: [{ purl: 'pkg:npm/hole@1.5.0' }] }))[0]?.verdict).toBe(
      'block',
    );
  });

  it('a malicious package the repository dismissed (false_positive) does not block there', async () => {
    const lab = await insertRepository(t, a.tenantId, 'lab');
    await scanWith(t, a.tenantId, lab, [{ name: 'evil-pkg', version: '3.0.0' }], 'all');
    const evil = { repositoryId: lab, packages: [{ purl: 'pkg:npm/evil-pkg@3.0.0' }] };
    expect((await items(a.token, evil))[0]?.verdict).toBe('block');
    await sql`UPDATE vulnerability_exposures SET status = 'false_positive'
      WHERE repository_id = ${lab}`.execute(t.database.system);
    const [dismissed] = await items(a.token, evil);
    expect(dismissed?.verdict).toBe('allow');
    expect(dismissed?.vulnerabilities[0]).toMatchObject({
      malicious: true,
      status: 'false_positive',
    });
    // Elsewhere it still blocks.
    expect(
      (await items(a.token, { packages: [{ purl: 'pkg:npm/evil-pkg@3.0.0' }] }))[0]?.verdict,
    ).toBe('block');
  });

  it('refuses bodies over the size limit and batches over the maximum with 413', async () => {
    const big = await ask(a.token, {
      packages: [
        { purl: `pkg:npm/${'x'.repeat(3000)}@1.0.0` },
        { purl: `pkg:npm/${'y'.repeat(3000)}@1.0.0` },
      ],
    });
    expect(big.statusCode).toBe(413);
    expect(big.headers['content-type']).toMatch(/application\/problem\+json/);
    const many = await ask(a.token, {
      packages: Array.from({ length: 11 }, (_, i) => ({ ecosystem: 'npm', name: `p${i}` })),
    });
    expect(many.statusCode).toBe(413);
    expect(many.json().errors.packages).toBeDefined();
  });

  it('refuses unreadable packages with 400 and field errors, and callers below member', async () => {
    const cases: [object, string][] = [
      [{ packages: [] }, 'packages'],
      [{ packages: [{ name: 'lodash' }] }, 'packages[0]'],
      [{ packages: [{ purl: 'pkg:npm/ok@1.0.0' }, { purl: 'not a purl' }] }, 'packages[1].purl'],
      [{ packages: [{ purl: 'pkg:deb/debian/curl@7' }] }, 'packages[0].purl'],
      [{ packages: [{ ecosystem: 'cobol', name: 'x' }] }, 'packages[0].ecosystem'],
      [{ packages: [{ purl: 'pkg:npm/a', name: 'a', ecosystem: 'npm' }] }, 'packages[0]'],
      [{ packages: [{ purl: 'pkg:npm/a', colour: 'red' }] }, 'packages[0]'],
    ];
    for (const [payload, field] of cases) {
      const res = await ask(a.token, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(Object.keys(res.json().errors ?? {}), JSON.stringify(payload)).toContain(field);
    }
    expect((await ask(viewer, { packages: [{ purl: 'pkg:npm/a@1.0.0' }] })).statusCode).toBe(403);
  });
});
