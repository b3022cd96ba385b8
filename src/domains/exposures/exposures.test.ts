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
  twoTenantsWithRepositories,
} from '../../../test/support/scenarios';
import { EVENT_SUBSCRIPTIONS, jobDefinitions } from '../../background-jobs';
import { withTenant } from '../../db/tenant-scope';
import { MATCH_DEPENDENCIES, REMATCH, REOPEN_EXPIRED } from './jobs';

interface ExposureBody {
  exposureId: string;
  repositoryId: string;
  packageName: string;
  version: string | null;
  possiblyAffected: boolean;
  status: string;
  fixedUtc: string | null;
  fixedReason: string | null;
  firstSeenUtc: string;
  lastSeenUtc: string;
  reintroducedCount: number;
  canonicalId: string;
  advisoryIds: string[];
  fixedVersions: string[];
  severity: string | null;
  affectedRanges: { advisoryId: string }[];
  justification: string | null;
  reason: string | null;
  expiresAtUtc: string | null;
}

describe('vulnerability exposures', () => {
  let t: TestApp;
  let a: TestTenant;
  let b: TestTenant;
  let repo: string;

  const list = async (token: string, query = '') => {
    const res = await t.as(token, {
      method: 'GET',
      url: `/api/v1/vulnerability-exposures${query}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as {
      items: ExposureBody[];
      totalEstimate: number;
      take: number;
      skip: number;
    };
  };
  const byPackage = async (token: string, name: string, query = '') =>
    (await list(token, query)).items.filter((e) => e.packageName === name);
  const patch = (token: string, id: string, payload: object) =>
    t.as(token, {
      method: 'PATCH',
      url: `/api/v1/vulnerability-exposures/${id}`,
      payload,
    });

  beforeAll(async () => {
    t = await createTestApp();
    ({
      a,
      b,
      repositories: [repo],
    } = await twoTenantsWithRepositories(t, ['web']));
    await importJsonl(t, [
      osvRecord({
        id: 'GHSA-life-0001-aaaa',
        aliases: ['CVE-2025-10001'],
        published: '2025-01-10T00:00:00Z',
        severity: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N',
        affected: [npmRange('life-pkg', '0', '4.17.21')],
      }),
      osvRecord({
        id: 'GHSA-life-0002-bbbb',
        published: '2025-02-10T00:00:00Z',
        databaseSeverity: 'MODERATE',
        affected: [npmRange('life-range', '0', '1.5.0')],
      }),
    ]);
  });
  afterAll(() => t.close());

  it('opens exposures from a scan: exact versions affected, declared ranges possibly affected', async () => {
    const ran = await scanWith(t, a.tenantId, repo, [
      { name: 'life-pkg', version: '4.17.20' },
      { name: 'life-range', version: '^1.0.0', resolution: 'declared', file: 'package.json' },
      { name: 'life-safe', version: '1.0.0' },
    ]);
    expect(ran).toEqual([MATCH_DEPENDENCIES.name]);
    const [exact] = await byPackage(a.token, 'life-pkg');
    expect(exact).toMatchObject({
      repositoryId: repo,
      version: '4.17.20',
      possiblyAffected: false,
      status: 'open',
      canonicalId: 'CVE-2025-10001',
      advisoryIds: ['GHSA-life-0001-aaaa'],
      fixedVersions: ['4.17.21'],
      severity: 'high',
      reintroducedCount: 0,
      fixedUtc: null,
    });
    const [possible] = await byPackage(a.token, 'life-range');
    expect(possible).toMatchObject({
      version: '^1.0.0',
      possiblyAffected: true,
      severity: 'medium',
    });
    expect(possible?.affectedRanges[0]?.advisoryId).toBe('GHSA-life-0002-bbbb');
    expect(await byPackage(a.token, 'life-safe')).toEqual([]);
    const exactOnly = await list(a.token, '?possiblyAffected=false');
    expect(exactOnly.items.map((e) => e.packageName)).toEqual(['life-pkg']);
    const possibleOnly = await list(a.token, '?possiblyAffected=true');
    expect(possibleOnly.items.map((e) => e.packageName)).toEqual(['life-range']);
  });

  it('closes an exposure when the version leaves and reopens it when it comes back', async () => {
    const [before] = await byPackage(a.token, 'life-pkg');
    await scanWith(t, a.tenantId, repo, [
      { name: 'life-pkg', version: '4.17.21' },
      { name: 'life-range', version: '^1.0.0', resolution: 'declared', file: 'package.json' },
    ]);
    const [fixed] = await byPackage(a.token, 'life-pkg');
    expect(fixed).toMatchObject({
      exposureId: before?.exposureId,
      status: 'fixed',
      fixedReason: 'dependency_removed',
    });
    expect(fixed?.fixedUtc).not.toBeNull();
    expect((await list(a.token, '?status=Fixed')).items.map((e) => e.exposureId)).toContain(
      before?.exposureId,
    );

    await scanWith(t, a.tenantId, repo, [
      { name: 'life-pkg', version: '4.17.20' },
      { name: 'life-range', version: '^1.0.0', resolution: 'declared', file: 'package.json' },
    ]);
    const [back] = await byPackage(a.token, 'life-pkg');
    expect(back).toMatchObject({
      exposureId: before?.exposureId,
      status: 'open',
      fixedUtc: null,
      fixedReason: null,
      reintroducedCount: 1,
      firstSeenUtc: before?.firstSeenUtc,
    });
    expect(Date.parse(back?.lastSeenUtc ?? '')).toBeGreaterThanOrEqual(
      Date.parse(before?.lastSeenUtc ?? ''),
    );
  });

  it('re-matches after an advisory change: only tenants using the package, withdrawn closes', async () => {
    const other = await insertRepository(t, b.tenantId, 'unrelated');
    await scanWith(t, b.tenantId, other, [{ name: 'left-pad-ish', version: '1.0.0' }]);
    await scanWith(t, a.tenantId, repo, [
      { name: 'life-pkg', version: '4.17.20' },
      { name: 'life-range', version: '^1.0.0', resolution: 'declared', file: 'package.json' },
      { name: 'late-pkg', version: '2.3.0' },
    ]);
    expect(await byPackage(a.token, 'late-pkg')).toEqual([]);

    const imported = await importJsonl(t, [
      osvRecord({
        id: 'GHSA-late-0001-aaaa',
        modified: '2025-03-01T00:00:00Z',
        affected: [npmRange('late-pkg', '2.0.0', '2.4.0')],
      }),
    ]);
    expect(imported.tenantsNotified).toBe(1);
    // The re-match refreshed and opened exposures: every subscriber of both events ran after it.
    expect((await t.runJobs()).sort()).toEqual(
      [
        REMATCH.name,
        ...(EVENT_SUBSCRIPTIONS['exposures.refreshed'] ?? []),
        ...(EVENT_SUBSCRIPTIONS['exposures.opened'] ?? []),
      ].sort(),
    );
    const [late] = await byPackage(a.token, 'late-pkg');
    expect(late).toMatchObject({
      status: 'open',
      version: '2.3.0',
      advisoryIds: ['GHSA-late-0001-aaaa'],
    });

    // A newer record narrows the range: 2.3.0 is no longer affected.
    await importJsonl(t, [
      osvRecord({
        id: 'GHSA-late-0001-aaaa',
        modified: '2025-03-02T00:00:00Z',
        affected: [npmRange('late-pkg', '2.0.0', '2.2.0')],
      }),
    ]);
    await t.runJobs();
    expect((await byPackage(a.token, 'late-pkg'))[0]).toMatchObject({
      status: 'fixed',
      fixedReason: 'no_longer_affected',
    });

    // Widened again (reopens), then withdrawn (closes, saying why).
    await importJsonl(t, [
      osvRecord({
        id: 'GHSA-late-0001-aaaa',
        modified: '2025-03-03T00:00:00Z',
        affected: [npmRange('late-pkg', '2.0.0', '2.4.0')],
      }),
    ]);
    await t.runJobs();
    expect((await byPackage(a.token, 'late-pkg'))[0]).toMatchObject({
      status: 'open',
      reintroducedCount: 1,
    });
    await importJsonl(t, [
      osvRecord({
        id: 'GHSA-late-0001-aaaa',
        modified: '2025-03-04T00:00:00Z',
        withdrawn: '2025-03-04T00:00:00Z',
        affected: [npmRange('late-pkg', '2.0.0', '2.4.0')],
      }),
    ]);
    await t.runJobs();
    expect((await byPackage(a.token, 'late-pkg'))[0]).toMatchObject({
      status: 'fixed',
      fixedReason: 'advisory_withdrawn',
    });
    expect(await byPackage(b.token, 'late-pkg')).toEqual([]);
  });

  it('counts one flaw once: GHSA and PYSEC records of one CVE make one exposure', async () => {
    const py = await insertRepository(t, a.tenantId, 'py-service');
    await importJsonl(t, [
      osvRecord({
        id: 'PYSEC-2025-77',
        aliases: ['CVE-2025-20077'],
        affected: [
          {
            ecosystem: 'PyPI',
            name: 'Alias.Joined',
            ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '3.0' }] }],
          },
        ],
      }),
      osvRecord({
        id: 'GHSA-alia-0001-aaaa',
        aliases: ['CVE-2025-20077', 'PYSEC-2025-77'],
        affected: [
          {
            ecosystem: 'PyPI',
            name: 'alias-joined',
            ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '1.0' }, { fixed: '3.0' }] }],
          },
        ],
      }),
    ]);
    await scanWith(t, a.tenantId, py, [
      { name: 'alias-joined', version: '2.1', ecosystem: 'PyPI' },
    ]);
    const items = await byPackage(a.token, 'alias-joined', `?repositoryId=${py}&ecosystem=pypi`);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      canonicalId: 'CVE-2025-20077',
      advisoryIds: ['GHSA-alia-0001-aaaa', 'PYSEC-2025-77'],
    });
  });

  it('follows an alias merge: two exposures of what turns out to be one flaw become one', async () => {
    const merge = await insertRepository(t, a.tenantId, 'merge-repo');
    await importJsonl(t, [
      osvRecord({ id: 'GHSA-mrg1-0001-aaaa', affected: [npmRange('merge-me', '0', '2.0.0')] }),
      osvRecord({
        id: 'OSV-2025-5555',
        aliases: ['CVE-2025-5555'],
        affected: [npmRange('merge-me', '1.0.0', '2.0.0')],
      }),
    ]);
    await scanWith(t, a.tenantId, merge, [{ name: 'merge-me', version: '1.5.0' }]);
    const before = await byPackage(a.token, 'merge-me');
    expect(before).toHaveLength(2);
    await importJsonl(t, [
      osvRecord({
        id: 'GHSA-mrg1-0001-aaaa',
        modified: '2024-02-01T00:00:00Z',
        aliases: ['CVE-2025-5555'],
        affected: [npmRange('merge-me', '0', '2.0.0')],
      }),
    ]);
    // The exposures changed: the repository's policies are evaluated after the re-match.
    expect(await t.runJobs()).toEqual([
      REMATCH.name,
      ...(EVENT_SUBSCRIPTIONS['exposures.refreshed'] ?? []),
    ]);
    const after = await byPackage(a.token, 'merge-me');
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({
      canonicalId: 'CVE-2025-5555',
      advisoryIds: ['GHSA-mrg1-0001-aaaa', 'OSV-2025-5555'],
      status: 'open',
    });
    expect(before.map((e) => e.exposureId)).toContain(after[0]?.exposureId);
    // The vulnerability that was folded in still resolves, to the one it joined.
    const survivor = after[0] as ExposureBody & { vulnerabilityId: string };
    for (const old of before as (ExposureBody & { vulnerabilityId: string })[]) {
      const res = await t.as(a.token, {
        method: 'GET',
        url: `/api/v1/vulnerabilities/${old.vulnerabilityId}`,
      });
      expect(res.json().vulnerabilityId).toBe(survivor.vulnerabilityId);
    }
  });

  it('triages through the state machine, audits who and why, refuses fixed and bad moves with 422', async () => {
    const [exposure] = await byPackage(a.token, 'life-pkg');
    const id = exposure?.exposureId as string;
    const toFixed = await patch(a.token, id, { status: 'fixed' });
    expect(toFixed.statusCode).toBe(422);
    expect(Object.keys(toFixed.json().errors)).toEqual(['status']);

    const noJustification = await patch(a.token, id, { status: 'not_affected' });
    expect(noJustification.statusCode).toBe(422);
    expect(noJustification.json().errors.justification).toBeDefined();

    const acceptedNoExpiry = await patch(a.token, id, { status: 'accepted_risk' });
    expect(acceptedNoExpiry.statusCode).toBe(422);
    expect(Object.keys(acceptedNoExpiry.json().errors).sort()).toEqual(['expiresAtUtc', 'reason']);

    const confirmed = await patch(a.token, id, {
      status: 'Affected',
      reason: 'reachable from /login',
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toMatchObject({ status: 'affected', reason: 'reachable from /login' });

    const dismiss = await patch(a.token, id, {
      status: 'not_affected',
      justification: 'code_not_reachable',
    });
    expect(dismiss.statusCode).toBe(422);
    expect(dismiss.json().errors.status[0]).toMatch(/affected to not_affected/);

    const expires = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const accept = await patch(a.token, id, {
      status: 'accepted_risk',
      reason: 'WAF blocks it',
      expiresAtUtc: expires,
    });
    expect(accept.statusCode).toBe(200);
    expect(accept.json()).toMatchObject({
      status: 'accepted_risk',
      expiresAtUtc: expires,
      reason: 'WAF blocks it',
    });

    const unknown = await patch(a.token, id, { status: 'done' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors.status).toBeDefined();
    const malformed = await patch(a.token, id, { status: 'investigating', expiresAtUtc: 'soon' });
    expect(malformed.statusCode).toBe(400);

    const audit = await t.as(a.token, {
      method: 'GET',
      url: '/api/v1/audit-log?action=vulnerability_exposure.triage',
    });
    const entries = audit.json().items as {
      resourceId: string;
      outcome: string;
      details: Record<string, unknown>;
      actorTokenId: string;
    }[];
    const accepted = entries.find(
      (e) =>
        e.outcome === 'success' && (e.details as { to?: string } | null)?.to === 'accepted_risk',
    );
    expect(accepted).toMatchObject({ resourceId: id, actorTokenId: a.tokenId });
    expect(accepted?.details).toMatchObject({
      from: 'affected',
      requested: { reason: 'WAF blocks it' },
    });
    expect(
      entries.some(
        (e) =>
          e.outcome === 'invalid' &&
          (e.details as { requested?: { status?: string } } | null)?.requested?.status === 'fixed',
      ),
    ).toBe(true);
  });

  it('reopens an expired acceptance on read and through the scheduled job', async () => {
    const [exposure] = await byPackage(a.token, 'life-pkg');
    const id = exposure?.exposureId as string;
    expect(exposure?.status).toBe('accepted_risk');
    await t.database.pool.query(
      `UPDATE vulnerability_exposures SET accepted_until = now() - interval '1 minute' WHERE id = $1`,
      [id],
    );
    const read = await t.as(a.token, {
      method: 'GET',
      url: `/api/v1/vulnerability-exposures/${id}`,
    });
    expect(read.json()).toMatchObject({ status: 'open' });
    const audit = await t.as(a.token, {
      method: 'GET',
      url: '/api/v1/audit-log?action=vulnerability_exposure.acceptance_expired',
    });
    expect(audit.json().items.map((e: { resourceId: string }) => e.resourceId)).toContain(id);
    // The reopening is an event like any other reopening, so alert rules hear of it.
    const reopenedEvents = await t.database.pool.query(
      `SELECT data FROM job_outbox WHERE job_name LIKE '%exposures.reopened' AND data::text LIKE $1`,
      [`%${id}%`],
    );
    expect(reopenedEvents.rows).toHaveLength(1);
    expect(reopenedEvents.rows[0].data).toMatchObject({
      scanId: null,
      exposures: [{ exposureId: id, packageName: 'life-pkg' }],
    });

    const expires = new Date(Date.now() + 86_400_000).toISOString();
    expect(
      (
        await patch(a.token, id, {
          status: 'accepted_risk',
          reason: 'again',
          expiresAtUtc: expires,
        })
      ).statusCode,
    ).toBe(200);
    await t.database.pool.query(
      `UPDATE vulnerability_exposures SET accepted_until = now() - interval '1 minute' WHERE id = $1`,
      [id],
    );
    const job = jobDefinitions(t.jobDeps).find((d) => d.name === REOPEN_EXPIRED.name);
    await job?.handle({ version: 1, tenantId: null, correlationId: null, data: {} });
    const { rows } = await t.database.pool.query(
      'SELECT status FROM vulnerability_exposures WHERE id = $1',
      [id],
    );
    expect(rows[0].status).toBe('open');
  });

  it('members triage, viewers only read', async () => {
    const [exposure] = await byPackage(a.token, 'life-range');
    const token = await t.as(a.token, {
      method: 'POST',
      url: '/api/v1/api-tokens',
      payload: { name: 'viewer', roleScopeJson: '{"roles":["viewer"]}', expiresAtUtc: null },
    });
    const viewer = token.json().rawSecret as string;
    expect(
      (
        await t.as(viewer, {
          method: 'GET',
          url: `/api/v1/vulnerability-exposures/${exposure?.exposureId}`,
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (await patch(viewer, exposure?.exposureId as string, { status: 'investigating' })).statusCode,
    ).toBe(403);
  });

  it("hides one tenant's exposures from another (404, never listed)", async () => {
    const mine = await list(a.token);
    expect(mine.items.length).toBeGreaterThan(0);
    const id = mine.items[0]?.exposureId as string;
    expect(
      (await t.as(b.token, { method: 'GET', url: `/api/v1/vulnerability-exposures/${id}` }))
        .statusCode,
    ).toBe(404);
    expect((await patch(b.token, id, { status: 'investigating' })).statusCode).toBe(404);
    const theirs = await list(b.token);
    expect(theirs.items.map((e) => e.exposureId)).not.toContain(id);
    expect(theirs.totalEstimate).toBe(0);
    expect((await list(b.token, `?repositoryId=${repo}`)).items).toEqual([]);
    // Row-level security: even a query without a tenant filter sees only its own rows.
    const raw = await withTenant(t.database, b.tenantId, (db) =>
      db.selectFrom('vulnerability_exposures').select('tenant_id').execute(),
    );
    expect(raw.every((row) => row.tenant_id === b.tenantId)).toBe(true);
    expect(
      (
        await t.as(a.token, {
          method: 'GET',
          url: '/api/v1/vulnerability-exposures/01890000-0000-7000-8000-000000000000',
        })
      ).statusCode,
    ).toBe(404);
  });

  it('filters, pages and rejects bad filters with 400', async () => {
    const all = await list(a.token, '?take=1');
    expect(all.take).toBe(1);
    expect(all.items).toHaveLength(1);
    expect(all.totalEstimate).toBeGreaterThan(1);
    const second = await list(a.token, '?take=1&skip=1');
    expect(second.items[0]?.exposureId).not.toBe(all.items[0]?.exposureId);
    expect((await list(a.token, '?severity=High')).items.every((e) => e.severity === 'high')).toBe(
      true,
    );
    expect((await list(a.token, '?ecosystem=Npm')).items.length).toBeGreaterThan(0);
    expect((await list(a.token, '?ecosystem=Maven')).items).toEqual([]);
    const [one] = (await list(a.token)).items;
    const byVulnerability = await list(
      a.token,
      `?vulnerabilityId=${(await t.as(a.token, { method: 'GET', url: `/api/v1/vulnerability-exposures/${one?.exposureId}` })).json().vulnerabilityId}`,
    );
    expect(byVulnerability.items.map((e) => e.exposureId)).toContain(one?.exposureId);
    for (const query of [
      '?severity=severe',
      '?status=closed',
      '?ecosystem=cobol',
      '?repositoryId=not-a-uuid',
      '?packageId=123',
      '?vulnerabilityId=CVE-2025-1',
      '?take=0',
      '?skip=-1',
      '?possiblyAffected=maybe',
    ]) {
      const res = await t.as(a.token, {
        method: 'GET',
        url: `/api/v1/vulnerability-exposures${query}`,
      });
      expect(res.statusCode, query).toBe(400);
    }
    expect(
      (await t.as(a.token, { method: 'GET', url: '/api/v1/vulnerability-exposures/nope' }))
        .statusCode,
    ).toBe(400);
  });
});
