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
import { withTenant } from '../../../db/tenant-scope';
import { eventsOfRow } from '../../../jobs/outbox';
import { MATCH_DEPENDENCIES, REMATCH } from '../../exposures/jobs';
import { EVALUATE_POLICY, EVALUATE_REPOSITORY } from '../jobs';
import { evaluateRepository } from './evaluate';

const JOBS = [
  MATCH_DEPENDENCIES.name,
  REMATCH.name,
  EVALUATE_REPOSITORY.name,
  EVALUATE_POLICY.name,
];
const CRITICAL_WITH_FIX =
  'vulnerabilities.items.exists(v, v.severity == "critical" && v.fixAvailable)';

interface ViolationBody {
  violationId: string;
  policyId: string;
  packageName: string;
  version: string | null;
  status: string;
  severity: string;
  action: string;
  reason: string | null;
  reopenedCount: number;
  resolvedAtUtc: string | null;
  facts: { vulnerabilities: { maxSeverity: string; ids: string[] }; dependency: { name: string } };
}

describe('policy evaluation and violations', () => {
  let t: TestApp;
  let a: TestTenant;
  let b: TestTenant;
  let repo: string;
  let policyId: string;
  let viewer: string;

  const violations = async (token: string, query = '') => {
    const res = await t.as(token, { method: 'GET', url: `/api/v1/policy-violations${query}` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { items: ViolationBody[]; totalEstimate: number };
  };
  const patch = (token: string, id: string, payload: object) =>
    t.as(token, { method: 'PATCH', url: `/api/v1/policy-violations/${id}`, payload });
  const scan = (versions: Record<string, string>) =>
    scanWith(
      t,
      a.tenantId,
      repo,
      Object.entries(versions).map(([name, version]) => ({ name, version })),
      JOBS,
    );

  beforeAll(async () => {
    t = await createTestApp();
    ({
      a,
      b,
      repositories: [repo],
    } = await twoTenantsWithRepositories(t, ['web']));
    await importJsonl(t, [
      osvRecord({
        id: 'GHSA-crit-0001-aaaa',
        aliases: ['CVE-2025-20001'],
        severity: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H',
        affected: [npmRange('crit-pkg', '0', '2.0.0')],
      }),
      osvRecord({
        id: 'GHSA-crit-0002-bbbb',
        severity: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H',
        affected: [npmRange('crit-nofix', '0')],
      }),
      osvRecord({
        id: 'GHSA-mid-0003-cccc',
        databaseSeverity: 'MODERATE',
        affected: [npmRange('mid-pkg', '0', '1.5.0')],
      }),
    ]);
    await scan({ 'crit-pkg': '1.0.0', 'crit-nofix': '1.0.0', 'mid-pkg': '1.0.0', safe: '3.0.0' });
    viewer = await tokenWithRole(t, a, 'viewer', null);
  });
  afterAll(() => t.close());

  it('opens a violation per matching dependency when a policy is created, with its facts and an event', async () => {
    policyId = await createPolicy(t, a.token, {
      name: 'Critical with a fix',
      condition: CRITICAL_WITH_FIX,
      severity: 'critical',
      action: 'block',
    });
    // The evaluation is queued with the policy; run it directly to see the outbox it writes.
    const counts = await withTenant(t.database, a.tenantId, (db) =>
      evaluateRepository(db, { tenantId: a.tenantId, repositoryId: repo, policyIds: [policyId] }),
    );
    expect(counts).toMatchObject({ policies: 1, dependencies: 4, opened: 1, resolved: 0 });
    const rows = await t.database.system
      .selectFrom('job_outbox')
      .select(['job_name', 'data'])
      .execute();
    const outbox = rows
      .flatMap((row) => eventsOfRow(row.job_name, row.data))
      .filter((row) => row.event === 'policy_violation.opened');
    expect(outbox).toHaveLength(1);
    const page = await violations(a.token);
    expect(page.totalEstimate).toBe(1);
    const [violation] = page.items;
    expect(outbox[0]?.data).toEqual({
      policyId,
      violationId: violation?.violationId,
      repositoryId: repo,
      packageId: expect.any(String),
      severity: 'critical',
      action: 'block',
    });
    expect(violation).toMatchObject({
      packageName: 'crit-pkg',
      version: '1.0.0',
      status: 'open',
      severity: 'critical',
      action: 'block',
    });
    expect(violation?.facts.vulnerabilities.maxSeverity).toBe('critical');
    expect(violation?.facts.vulnerabilities.ids).toContain('CVE-2025-20001');
    // The queued job evaluates again: nothing new.
    await t.runJobs({ only: JOBS });
    expect((await violations(a.token)).totalEstimate).toBe(1);
    const detail = await t.as(viewer, {
      method: 'GET',
      url: `/api/v1/policy-violations/${violation?.violationId}`,
    });
    expect(detail.json()).toMatchObject({
      violationId: violation?.violationId,
      policyName: 'Critical with a fix',
    });
  });

  it('triages by the state table: 422 errors.status for a move it does not allow', async () => {
    const [violation] = (await violations(a.token)).items;
    const id = violation?.violationId as string;
    expect((await patch(viewer, id, { status: 'acknowledged' })).statusCode).toBe(403);
    const acknowledged = await patch(a.token, id, { status: 'acknowledged' });
    expect(acknowledged.statusCode, acknowledged.body).toBe(200);
    expect(acknowledged.json()).toMatchObject({
      status: 'acknowledged',
      statusChangedByTokenId: a.tokenId,
    });
    const noReason = await patch(a.token, id, { status: 'dismissed' });
    expect(noReason.statusCode).toBe(422);
    expect(Object.keys(noReason.json().errors)).toEqual(['reason']);
    for (const status of ['resolved', 'excepted', 'closed']) {
      const refused = await patch(a.token, id, { status });
      expect(refused.statusCode, status).toBe(422);
      expect(refused.json().errors.status).toHaveLength(1);
    }
    const dismissed = await patch(a.token, id, {
      status: 'Dismissed',
      reason: 'Not reachable in prod',
    });
    expect(dismissed.json()).toMatchObject({
      status: 'dismissed',
      reason: 'Not reachable in prod',
    });
    const audit = await t.as(a.token, {
      method: 'GET',
      url: '/api/v1/audit-log?action=policy_violation.triage',
    });
    const entries = audit.json().items as {
      outcome: string;
      details: { to?: string; requested: { reason: string | null } };
    }[];
    expect(
      entries.some(
        (e) =>
          e.details.to === 'dismissed' && e.details.requested.reason === 'Not reachable in prod',
      ),
    ).toBe(true);
  });

  it('resolves when the condition no longer holds and reopens when it holds again', async () => {
    await scan({ 'crit-pkg': '2.0.0', 'crit-nofix': '1.0.0', 'mid-pkg': '1.0.0', safe: '3.0.0' });
    const [resolved] = (await violations(a.token, `?policyId=${policyId}`)).items;
    expect(resolved).toMatchObject({ status: 'resolved', version: '1.0.0' });
    expect(resolved?.resolvedAtUtc).not.toBeNull();
    const refused = await patch(a.token, resolved?.violationId as string, { status: 'open' });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.status[0]).toMatch(/resolved/);

    await scan({ 'crit-pkg': '1.0.0', 'crit-nofix': '1.0.0', 'mid-pkg': '1.0.0', safe: '3.0.0' });
    const [reopened] = (await violations(a.token, '?status=open')).items;
    expect(reopened).toMatchObject({
      violationId: resolved?.violationId,
      status: 'open',
      reopenedCount: 1,
      resolvedAtUtc: null,
    });
  });

  it('filters, and resolves what a disabled policy or a changed condition no longer finds', async () => {
    expect((await violations(a.token, '?severity=Critical&status=open')).totalEstimate).toBe(1);
    expect((await violations(a.token, '?severity=low')).totalEstimate).toBe(0);
    expect(
      (await violations(a.token, `?repositoryId=${repo}&policyId=${policyId}`)).totalEstimate,
    ).toBe(1);
    const bad = await t.as(a.token, {
      method: 'GET',
      url: '/api/v1/policy-violations?status=closed',
    });
    expect(bad.statusCode).toBe(400);

    const url = `/api/v1/policies/${policyId}`;
    await t.as(a.token, {
      method: 'PATCH',
      url,
      payload: { condition: 'vulnerabilities.maxSeverityLevel >= 4' },
    });
    await t.runJobs({ only: JOBS });
    const names = (await violations(a.token, '?status=open')).items
      .map((v) => v.packageName)
      .sort();
    expect(names).toEqual(['crit-nofix', 'crit-pkg']);

    await t.as(a.token, { method: 'PATCH', url, payload: { enabled: false } });
    await t.runJobs({ only: JOBS });
    expect((await violations(a.token, '?status=open')).totalEstimate).toBe(0);
    expect((await violations(a.token, '?status=resolved')).totalEstimate).toBe(2);
  });

  it("keeps tenants apart: another tenant's violation is a 404", async () => {
    const [violation] = (await violations(a.token)).items;
    const url = `/api/v1/policy-violations/${violation?.violationId}`;
    expect((await t.as(b.token, { method: 'GET', url })).statusCode).toBe(404);
    expect(
      (await patch(b.token, violation?.violationId as string, { status: 'acknowledged' }))
        .statusCode,
    ).toBe(404);
    expect((await violations(b.token)).items).toEqual([]);
    const free = await t.createTenant('free', 'Free');
    expect(
      (await t.as(free.token, { method: 'GET', url: '/api/v1/policy-violations' })).statusCode,
    ).toBe(403);
  });
});
