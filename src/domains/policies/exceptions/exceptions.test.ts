import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPolicy,
  createTestApp,
  importJsonl,
  npmRange,
  osvRecord,
  scanWith,
  type TestApp,
  type TestTenant,
  tokenWithRole,
  twoTenantsWithRepositories,
} from '../../../../test/support/scenarios';
import { jobDefinitions } from '../../../background-jobs';
import { eventsOfRow } from '../../../jobs/outbox';
import { MATCH_DEPENDENCIES, REMATCH } from '../../exposures/jobs';
import { EVALUATE_POLICY, EVALUATE_REPOSITORY, EXPIRE_EXCEPTIONS } from '../jobs';

const JOBS = [
  MATCH_DEPENDENCIES.name,
  REMATCH.name,
  EVALUATE_REPOSITORY.name,
  EVALUATE_POLICY.name,
];
const DAY_MS = 86_400_000;
const inDays = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString();

interface ViolationBody {
  violationId: string;
  repositoryId: string;
  packageName: string;
  status: string;
  exceptionId: string | null;
}

describe('policy exceptions and the dry run', () => {
  let t: TestApp;
  let a: TestTenant;
  let b: TestTenant;
  let web: string;
  let api: string;
  let policyId: string;
  let viewer: string;

  const violations = async (query = '') => {
    const res = await t.as(a.token, { method: 'GET', url: `/api/v1/policy-violations${query}` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().items as ViolationBody[];
  };
  const violationOf = async (repositoryId: string, name: string) =>
    (await violations(`?repositoryId=${repositoryId}`)).find(
      (v) => v.packageName === name,
    ) as ViolationBody;
  const grant = (token: string, violationId: string, payload: object) =>
    t.as(token, {
      method: 'POST',
      url: `/api/v1/policy-violations/${violationId}/exception`,
      payload,
    });
  const rowCounts = async () => {
    const result = await sql<{
      violations: number;
      outbox: number;
      audit: number;
      exceptions: number;
    }>`
      SELECT (SELECT count(*)::int FROM policy_violations) AS violations,
        (SELECT count(*)::int FROM job_outbox) AS outbox,
        (SELECT count(*)::int FROM audit_log) AS audit,
        (SELECT count(*)::int FROM policy_exceptions) AS exceptions`.execute(t.database.system);
    return result.rows[0];
  };

  beforeAll(async () => {
    t = await createTestApp();
    ({
      a,
      b,
      repositories: [web, api],
    } = await twoTenantsWithRepositories(t, ['web', 'api']));
    await importJsonl(t, [
      osvRecord({
        id: 'GHSA-exc-0001-aaaa',
        severity: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H',
        affected: [npmRange('hole-a', '0', '2.0.0'), npmRange('hole-b', '0', '2.0.0')],
      }),
    ]);
    await scanWith(
      t,
      a.tenantId,
      web,
      [
        { name: 'hole-a', version: '1.0.0' },
        { name: 'hole-b', version: '1.0.0' },
        { name: 'fine', version: '1.0.0' },
      ],
      JOBS,
    );
    policyId = await createPolicy(t, a.token, {
      name: 'Critical',
      condition: 'vulnerabilities.maxSeverityLevel >= 4',
      severity: 'high',
      action: 'warn',
    });
    await t.runJobs({ only: JOBS });
    viewer = await tokenWithRole(t, a, 'viewer', null);
  });
  afterAll(() => t.close());

  it('refuses bad exceptions: reason, expiry, scope, role, plan, tenant', async () => {
    const { violationId } = await violationOf(web, 'hole-a');
    const valid = { reason: 'Patched in our fork', expiresAtUtc: inDays(30) };
    const cases: [object, number, string | null][] = [
      [{ ...valid, reason: '  ' }, 422, 'reason'],
      [{ ...valid, expiresAtUtc: inDays(-1) }, 422, 'expiresAtUtc'],
      [{ ...valid, expiresAtUtc: inDays(400) }, 422, 'expiresAtUtc'],
      [{ reason: 'x' }, 400, null],
      [{ ...valid, scope: 'galaxy' }, 400, 'scope'],
    ];
    for (const [payload, status, field] of cases) {
      const res = await grant(a.token, violationId, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      if (field) expect(Object.keys(res.json().errors)).toEqual([field]);
    }
    expect((await grant(viewer, violationId, valid)).statusCode).toBe(403);
    expect((await grant(b.token, violationId, valid)).statusCode).toBe(404);
    const free = await t.createTenant('free', 'Free');
    expect((await grant(free.token, violationId, valid)).statusCode).toBe(403);
    expect(
      (await t.as(free.token, { method: 'GET', url: '/api/v1/policy-exceptions' })).statusCode,
    ).toBe(403);
    expect((await violationOf(web, 'hole-a')).status).toBe('open');
    expect((await rowCounts())?.exceptions).toBe(0);
  });

  it('excepts one violation, audits who and why, and reopens it when the exception is deleted', async () => {
    const { violationId } = await violationOf(web, 'hole-a');
    const res = await grant(a.token, violationId, {
      reason: 'Patched in our fork',
      expiresAtUtc: inDays(30),
    });
    expect(res.statusCode, res.body).toBe(201);
    const exception = res.json();
    expect(exception).toMatchObject({
      scope: 'violation',
      violationId,
      status: 'active',
      createdByTokenId: a.tokenId,
      version: '1.0.0',
    });
    expect(await violationOf(web, 'hole-a')).toMatchObject({
      status: 'excepted',
      exceptionId: exception.exceptionId,
    });
    expect((await violationOf(web, 'hole-b')).status).toBe('open');
    const patched = await t.as(a.token, {
      method: 'PATCH',
      url: `/api/v1/policy-violations/${violationId}`,
      payload: { status: 'open' },
    });
    expect(patched.statusCode).toBe(422);

    const listed = await t.as(viewer, {
      method: 'GET',
      url: '/api/v1/policy-exceptions?status=Active',
    });
    expect(listed.json().items.map((e: { exceptionId: string }) => e.exceptionId)).toEqual([
      exception.exceptionId,
    ]);
    expect(
      (await t.as(b.token, { method: 'GET', url: '/api/v1/policy-exceptions' })).json().items,
    ).toEqual([]);
    const audit = await t.as(a.token, {
      method: 'GET',
      url: '/api/v1/audit-log?action=policy_exception.grant',
    });
    expect(audit.json().items[0]).toMatchObject({
      actorTokenId: a.tokenId,
      resourceId: exception.exceptionId,
    });
    expect(audit.json().items[0].details.requested.reason).toBe('Patched in our fork');

    const url = `/api/v1/policy-exceptions/${exception.exceptionId}`;
    expect((await t.as(viewer, { method: 'DELETE', url })).statusCode).toBe(403);
    expect((await t.as(b.token, { method: 'DELETE', url })).statusCode).toBe(404);
    expect((await t.as(a.token, { method: 'DELETE', url })).statusCode).toBe(204);
    expect((await t.as(a.token, { method: 'DELETE', url })).statusCode).toBe(404);
    expect(await violationOf(web, 'hole-a')).toMatchObject({ status: 'open', exceptionId: null });
    const reopened = await t.database.system
      .selectFrom('job_outbox')
      .select(['job_name', 'data'])
      .execute();
    const events = reopened
      .flatMap((row) => eventsOfRow(row.job_name, row.data))
      .filter((row) => row.event === 'policy_violation.opened');
    expect(events.map((row) => (row.data as { violationId: string }).violationId)).toContain(
      violationId,
    );
    await t.runJobs({ only: JOBS });
  });

  it('a tenant-wide exception covers the package in repositories scanned later', async () => {
    const { violationId } = await violationOf(web, 'hole-b');
    const res = await grant(a.token, violationId, {
      reason: 'Vendor confirmed unaffected',
      expiresAtUtc: inDays(60),
      scope: 'tenant_package',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      scope: 'tenant_package',
      repositoryId: null,
      version: null,
    });
    await scanWith(
      t,
      a.tenantId,
      api,
      [
        { name: 'hole-b', version: '1.5.0' },
        { name: 'hole-a', version: '1.0.0' },
      ],
      JOBS,
    );
    expect(await violationOf(api, 'hole-b')).toMatchObject({
      status: 'excepted',
      exceptionId: res.json().exceptionId,
    });
    expect((await violationOf(api, 'hole-a')).status).toBe('open');
  });

  it('expiry (the scheduled job) reopens what the exception covered, audited as the system', async () => {
    const { violationId } = await violationOf(api, 'hole-a');
    const res = await grant(a.token, violationId, {
      reason: 'Until the release',
      expiresAtUtc: inDays(1),
      scope: 'repository_package',
    });
    expect(res.statusCode).toBe(201);
    expect((await violationOf(api, 'hole-a')).status).toBe('excepted');
    await t.database.system
      .updateTable('policy_exceptions')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', res.json().exceptionId)
      .execute();
    const job = jobDefinitions(t.jobDeps).find((d) => d.name === EXPIRE_EXCEPTIONS.name);
    await job?.handle({ version: 1, tenantId: null, correlationId: null, data: {} });
    expect(await violationOf(api, 'hole-a')).toMatchObject({ status: 'open', exceptionId: null });
    const listed = await t.as(a.token, {
      method: 'GET',
      url: '/api/v1/policy-exceptions?status=expired',
    });
    expect(listed.json().items).toEqual([
      expect.objectContaining({ exceptionId: res.json().exceptionId, status: 'expired' }),
    ]);
    const audit = await t.as(a.token, {
      method: 'GET',
      url: '/api/v1/audit-log?action=policy_exception.expired',
    });
    expect(audit.json().items[0]).toMatchObject({
      actorTokenId: null,
      resourceId: res.json().exceptionId,
    });
    expect(audit.json().items[0].details.reopened).toEqual([violationId]);
    // Still excepted elsewhere: the tenant-wide exception is untouched.
    expect((await violationOf(api, 'hole-b')).status).toBe('excepted');
    await t.runJobs({ only: JOBS });
  });

  it('refuses an exception for a resolved violation (422)', async () => {
    await scanWith(t, a.tenantId, api, [{ name: 'hole-a', version: '2.0.0' }], JOBS);
    const resolved = (await violations('?status=resolved')).find(
      (v) => v.repositoryId === api && v.packageName === 'hole-a',
    );
    const res = await grant(a.token, resolved?.violationId as string, {
      reason: 'x',
      expiresAtUtc: inDays(1),
    });
    expect(res.statusCode).toBe(422);
    await scanWith(
      t,
      a.tenantId,
      api,
      [
        { name: 'hole-a', version: '1.0.0' },
        { name: 'hole-b', version: '1.5.0' },
      ],
      JOBS,
    );
  });

  it('dry run: would-be violations and counts for the stored or a draft condition, writing nothing', async () => {
    const url = `/api/v1/policies/${policyId}/test`;
    const before = await rowCounts();
    const stored = await t.as(a.token, { method: 'POST', url });
    expect(stored.statusCode, stored.body).toBe(200);
    expect(stored.json().counts).toEqual({
      repositoriesEvaluated: 2,
      dependenciesEvaluated: 5,
      violations: 4,
      new: 0,
      wouldResolve: 0,
    });
    expect(stored.json().violations[0].facts.vulnerabilities.maxSeverity).toBe('critical');

    const draft = await t.as(a.token, {
      method: 'POST',
      url,
      payload: { condition: 'dependency.name == "fine"', take: 1 },
    });
    expect(draft.statusCode, draft.body).toBe(200);
    expect(draft.json()).toMatchObject({
      condition: 'dependency.name == "fine"',
      counts: { violations: 1, new: 1, wouldResolve: 4 },
      truncated: false,
    });
    expect(draft.json().violations[0]).toMatchObject({
      packageName: 'fine',
      existingViolationId: null,
    });
    const one = await t.as(a.token, {
      method: 'POST',
      url,
      payload: { repositoryId: web, take: 1 },
    });
    expect(one.json()).toMatchObject({
      counts: { repositoriesEvaluated: 1, violations: 2 },
      truncated: true,
    });
    expect(one.json().violations).toHaveLength(1);

    const bad = await t.as(a.token, {
      method: 'POST',
      url,
      payload: { condition: 'dependency.nmae == "x"' },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.condition[0]).toMatch(/^line 1, column 12/);
    expect((await t.as(viewer, { method: 'POST', url })).statusCode).toBe(403);
    expect((await t.as(b.token, { method: 'POST', url })).statusCode).toBe(404);
    const elsewhere = await t.as(a.token, {
      method: 'POST',
      url,
      payload: { repositoryId: b.tenantId },
    });
    expect(elsewhere.statusCode).toBe(404);
    expect(await rowCounts()).toEqual(before);
  });
});
