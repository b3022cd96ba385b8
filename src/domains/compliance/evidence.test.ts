import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenWithRole } from '../../../test/support/cra';
import { importJsonl, insertRepository, scanWith } from '../../../test/support/exposures';
import { npmRange, osvRecord } from '../../../test/support/osv-records';
import { createTestApp, type TestApp, type TestTenant } from '../../../test/support/test-app';
import { newId } from '../../db/ids';
import { withTenant } from '../../db/tenant-scope';
import { MATCH_DEPENDENCIES, REMATCH } from '../exposures/jobs';
import { markScanEvaluated } from '../policies/evaluation/scan-evaluated';
import { EVALUATE_POLICY, EVALUATE_REPOSITORY } from '../policies/jobs';
import type { EvidenceItem } from './evidence-model';

/**
 * A fixture tenant with a known January 2026 (docs/compliance.md#evidence): the records are made
 * through the real APIs and stores (advisories, matching, a blocking policy and its evaluation,
 * an exception, a risk acceptance, an SBOM export), then their times are moved into January,
 * because the stores stamp now(). Every expected figure below is worked out by hand in comments.
 */
const JOBS = [
  MATCH_DEPENDENCIES.name,
  REMATCH.name,
  EVALUATE_REPOSITORY.name,
  EVALUATE_POLICY.name,
];
const Q = '?periodStart=2026-01-01&periodEnd=2026-01-31';
const at = (day: string) => new Date(`${day.length === 10 ? `${day}T00:00:00` : day}Z`);

let t: TestApp;
let tenant: TestTenant;
let other: TestTenant;
let admin: string;
const repo: Record<string, string> = {};
const scans: Record<string, string> = {};

const evidence = async (control: string, token = admin) => {
  const res = await t.as(token, {
    method: 'GET',
    url: `/api/v1/compliance/controls/${control}/evidence${Q}`,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const item = (body: { evidence: { kind: string }[] }, kind: string) =>
  body.evidence.find((i) => i.kind === kind) as EvidenceItem;

const exposureId = async (repositoryId: string, name: string): Promise<string> => {
  const row = await withTenant(t.database, tenant.tenantId, (db) =>
    db
      .selectFrom('vulnerability_exposures')
      .select('id')
      .where('repository_id', '=', repositoryId)
      .where('package_name', '=', name)
      .executeTakeFirstOrThrow(),
  );
  return row.id;
};

async function setTimes(table: string, id: string, values: Record<string, Date | null>) {
  const sets = sql.join(
    Object.entries(values).map(([column, value]) => sql`${sql.ref(column)} = ${value}`),
  );
  await sql`UPDATE ${sql.table(table)} SET ${sets} WHERE id = ${id}`.execute(t.database.system);
}

/** A scan as the scan worker leaves it, and (optionally) its policy evaluation line. */
async function insertScan(
  name: string,
  repositoryId: string,
  state: 'completed' | 'failed',
  finished: string,
  evaluated: boolean,
) {
  const id = newId();
  const finishedAt = at(finished);
  await withTenant(t.database, tenant.tenantId, async (db) => {
    await db
      .insertInto('scans')
      .values({
        id,
        repository_id: repositoryId,
        state,
        trigger: 'manual',
        counts_by_ecosystem: JSON.stringify({}),
        queued_at: new Date(finishedAt.getTime() - 3_600_000),
        started_at: new Date(finishedAt.getTime() - 3_000_000),
        finished_at: finishedAt,
      })
      .execute();
    if (evaluated)
      await markScanEvaluated(db, id, {
        policies: 1,
        dependencies: 3,
        evaluated: 3,
        held: 0,
        opened: 0,
        reopened: 0,
        excepted: 0,
        resolved: 0,
      });
  });
  await sql`UPDATE scan_logs SET logged_at = ${new Date(finishedAt.getTime() + 300_000)} WHERE scan_id = ${id}`.execute(
    t.database.system,
  );
  scans[name] = id;
}

beforeAll(async () => {
  t = await createTestApp();
  tenant = await t.createTenant('enterprise', 'Fixture');
  other = await t.createTenant('enterprise', 'Other');
  admin = await tokenWithRole(t, tenant, 'admin');
  await importJsonl(t, [
    osvRecord({
      id: 'GHSA-cmp0-0001-crit',
      databaseSeverity: 'CRITICAL',
      affected: [npmRange('crit-pkg', '0', '2.0.0')],
    }),
    osvRecord({
      id: 'GHSA-cmp0-0002-high',
      databaseSeverity: 'HIGH',
      affected: [npmRange('high-pkg', '0', '2.0.0')],
    }),
    osvRecord({
      id: 'GHSA-cmp0-0003-medi',
      databaseSeverity: 'MODERATE',
      affected: [npmRange('med-pkg', '0', '2.0.0')],
    }),
    osvRecord({
      id: 'GHSA-cmp0-0004-lowx',
      databaseSeverity: 'LOW',
      affected: [npmRange('low-pkg', '0', '2.0.0')],
    }),
  ]);
  for (const name of ['alpha', 'beta', 'gamma', 'delta'])
    repo[name] = await insertRepository(t, tenant.tenantId, name);
  await sql`UPDATE repositories SET created_at = ${at('2025-12-01')}`.execute(t.database.system);
  await sql`UPDATE repositories SET lifecycle_status = 'archived' WHERE id = ${repo.delta}`.execute(
    t.database.system,
  );

  const policy = await t.as(admin, {
    method: 'POST',
    url: '/api/v1/policies',
    payload: {
      name: 'No critical',
      condition: 'vulnerabilities.maxSeverityLevel >= 4',
      severity: 'critical',
      action: 'block',
    },
  });
  expect(policy.statusCode, policy.body).toBe(201);
  const v = (name: string) => ({ name, version: '1.0.0' });
  await scanWith(
    t,
    tenant.tenantId,
    repo.alpha as string,
    [v('crit-pkg'), v('high-pkg'), v('med-pkg')],
    JOBS,
  );
  await scanWith(
    t,
    tenant.tenantId,
    repo.beta as string,
    [v('crit-pkg'), v('low-pkg'), v('high-pkg')],
    JOBS,
  );

  const violations = (await t.as(admin, { method: 'GET', url: '/api/v1/policy-violations' })).json()
    .items;
  expect(violations).toHaveLength(2);
  const byRepo = (id: string) =>
    violations.find((x: { repositoryId: string }) => x.repositoryId === id).violationId;
  const granted = await t.as(admin, {
    method: 'POST',
    url: `/api/v1/policy-violations/${byRepo(repo.beta as string)}/exception`,
    payload: {
      reason: 'Fix scheduled for the 26th',
      expiresAtUtc: new Date(Date.now() + 30 * 86_400_000).toISOString(),
    },
  });
  expect(granted.statusCode, granted.body).toBe(201);
  const accepted = await t.as(admin, {
    method: 'PATCH',
    url: `/api/v1/vulnerability-exposures/${await exposureId(repo.beta as string, 'high-pkg')}`,
    payload: {
      status: 'accepted_risk',
      reason: 'Not reachable from the network',
      expiresAtUtc: '2027-06-30T00:00:00.000Z',
    },
  });
  expect(accepted.statusCode, accepted.body).toBe(200);
  const exported = await t.as(admin, {
    method: 'POST',
    url: `/api/v1/repositories/${repo.alpha}/sbom/exports`,
    payload: { format: 'cyclonedx-1.6' },
  });
  expect(exported.statusCode, exported.body).toBe(202);
  await t.runJobs();
  // The fixes: crit-pkg and high-pkg leave alpha, crit-pkg leaves beta.
  await scanWith(t, tenant.tenantId, repo.alpha as string, [v('med-pkg')], JOBS);
  await scanWith(t, tenant.tenantId, repo.beta as string, [v('low-pkg'), v('high-pkg')], JOBS);

  // January, by hand.
  const e = async (r: string, name: string, times: Record<string, Date | null>) =>
    setTimes('vulnerability_exposures', await exposureId(repo[r] as string, name), times);
  await e('alpha', 'crit-pkg', { first_seen_at: at('2026-01-02'), fixed_at: at('2026-01-05') }); // 3 days
  await e('alpha', 'high-pkg', { first_seen_at: at('2026-01-03'), fixed_at: at('2026-01-13') }); // 10 days
  await e('alpha', 'med-pkg', { first_seen_at: at('2026-01-04') }); // open 28 days at 1 Feb
  await e('beta', 'crit-pkg', { first_seen_at: at('2026-01-06'), fixed_at: at('2026-01-26') }); // 20 days > 7
  await e('beta', 'low-pkg', { first_seen_at: at('2025-06-01') }); // open 245 days at 1 Feb > 180
  await e('beta', 'high-pkg', {
    first_seen_at: at('2026-01-10'),
    status_changed_at: at('2026-01-12'),
  }); // accepted
  await sql`UPDATE policy_violations SET detected_at = ${at('2026-01-02')}, resolved_at = ${at('2026-01-05')}, status_changed_at = ${at('2026-01-05')} WHERE repository_id = ${repo.alpha}`.execute(
    t.database.system,
  );
  await sql`UPDATE policy_violations SET detected_at = ${at('2026-01-06')}, resolved_at = ${at('2026-01-26')}, status_changed_at = ${at('2026-01-26')} WHERE repository_id = ${repo.beta}`.execute(
    t.database.system,
  );
  await sql`UPDATE policy_exceptions SET created_at = ${at('2026-01-20')}, expires_at = ${at('2026-02-19')}`.execute(
    t.database.system,
  );
  await sql`UPDATE sbom_exports SET created_at = ${at('2026-01-15')}`.execute(t.database.system);
  await sql`UPDATE audit_log SET occurred_at = ${at('2026-01-01T12:00:00')} WHERE action = 'policy.create'`.execute(
    t.database.system,
  );
  await sql`UPDATE audit_log SET occurred_at = ${at('2026-01-20')} WHERE action = 'policy_exception.grant'`.execute(
    t.database.system,
  );

  // Scans: alpha every six days (the 27th not evaluated); beta on the 2nd and 20th and a failure.
  for (const day of ['03', '09', '15', '21', '27'])
    await insertScan(
      `alpha-${day}`,
      repo.alpha as string,
      'completed',
      `2026-01-${day}`,
      day !== '27',
    );
  await insertScan('beta-02', repo.beta as string, 'completed', '2026-01-02', true);
  await insertScan('beta-10', repo.beta as string, 'failed', '2026-01-10', false);
  await insertScan('beta-20', repo.beta as string, 'completed', '2026-01-20', true);
  await insertScan('gamma-old', repo.gamma as string, 'completed', '2025-12-28', true);
}, 300_000);
afterAll(() => t?.close());

describe('SOC 2 CC7.1 on the fixture tenant', () => {
  it('counts scans run and the share of active repositories scanned at least weekly', async () => {
    const body = await evidence('soc2-cc7.1');
    const coverage = item(body, 'scan_coverage');
    // Queued in January: alpha 5, beta 3 (one failed); gamma's December scan is not.
    expect(coverage.figures).toEqual({
      scansRun: 8,
      scansByState: { completed: 7, failed: 1 },
      activeRepositories: 3, // delta is archived
      repositoriesScannedWeekly: 1, // alpha: 2, 6, 6, 6, 6, 5 days apart
      shareScannedWeekly: 0.3333,
    });
    expect(coverage.status).toBe('failing');
    expect(coverage.gaps).toEqual([
      // beta: from the 2nd to the 20th without a completed scan (the 10th failed)
      'repository acme/beta went 18 days without a completed scan (2026-01-02T00:00:00.000Z to 2026-01-20T00:00:00.000Z)',
      'no scan of repository acme/gamma in the period',
    ]);
    expect(coverage.records).toContainEqual({
      type: 'scan',
      id: scans['beta-10'],
      path: `/api/v1/scans/${scans['beta-10']}`,
      note: expect.stringContaining('failed manual scan'),
    });
    expect(body.result).toBe('non_compliant');
    expect(body.testStatus).toBe('failing');
  });

  it('measures times to fix by severity against the default targets', async () => {
    const remediation = item(await evidence('soc2-cc7.1'), 'vulnerability_remediation');
    expect(remediation.figures).toEqual({
      found: 5, // all but beta's low-pkg, found in June 2025
      fixed: 3,
      fixedWithinTarget: 2,
      shareWithinTarget: 0.6667,
      openPastTarget: 1,
      targets: { critical: 7, high: 30, medium: 90, low: 180 },
      bySeverity: {
        // fixed after 3 and 20 days: median 11.5, one within 7
        critical: {
          targetDays: 7,
          found: 2,
          fixed: 2,
          medianDaysToFix: 11.5,
          fixedWithinTarget: 1,
          shareWithinTarget: 0.5,
          openPastTarget: 0,
        },
        // alpha fixed after 10 days; beta's is an accepted risk, not open
        high: {
          targetDays: 30,
          found: 2,
          fixed: 1,
          medianDaysToFix: 10,
          fixedWithinTarget: 1,
          shareWithinTarget: 1,
          openPastTarget: 0,
        },
        // open 28 days at the end, within 90
        medium: {
          targetDays: 90,
          found: 1,
          fixed: 0,
          medianDaysToFix: null,
          fixedWithinTarget: 0,
          shareWithinTarget: null,
          openPastTarget: 0,
        },
        // open 245 days at the end, over 180
        low: {
          targetDays: 180,
          found: 0,
          fixed: 0,
          medianDaysToFix: null,
          fixedWithinTarget: 0,
          shareWithinTarget: null,
          openPastTarget: 1,
        },
      },
    });
    expect(remediation.gaps).toEqual([
      'GHSA-cmp0-0004-lowx in low-pkg@1.0.0 (low) of repository acme/beta was still open 245 days after detection at the end of the period, over the 180-day target',
      'GHSA-cmp0-0001-crit in crit-pkg@1.0.0 (critical) of repository acme/beta was fixed after 20 days, over the 7-day target',
    ]);
    expect(remediation.records.map((r: { path: string }) => r.path)).toContain(
      `/api/v1/vulnerability-exposures/${await exposureId(repo.beta as string, 'crit-pkg')}`,
    );
  });

  it("judges by the tenant's own targets once set", async () => {
    const put = await t.as(admin, {
      method: 'PUT',
      url: '/api/v1/compliance/settings',
      payload: { remediationTargetDays: { critical: 21, high: 30, medium: 90, low: 365 } },
    });
    expect(put.statusCode).toBe(200);
    const remediation = item(await evidence('iso27001-a.8.8'), 'vulnerability_remediation');
    expect(remediation.figures).toMatchObject({
      fixedWithinTarget: 3,
      shareWithinTarget: 1,
      openPastTarget: 0,
    });
    expect(remediation.status).toBe('passing');
    await t.as(admin, {
      method: 'PUT',
      url: '/api/v1/compliance/settings',
      payload: { remediationTargetDays: { critical: 7, high: 30, medium: 90, low: 180 } },
    });
  });

  it('lists the SBOMs produced and the repositories without one', async () => {
    const sbom = item(await evidence('soc2-cc7.1'), 'sbom');
    expect(sbom.figures).toMatchObject({
      sbomsProduced: 1,
      exported: 1,
      imported: 0,
      activeRepositories: 3,
      repositoriesWithSbom: 1,
      shareWithSbom: 0.3333,
    });
    expect(sbom.gaps).toEqual([
      'no SBOM produced for repository acme/beta in the period',
      'no SBOM produced for repository acme/gamma in the period',
    ]);
    expect(sbom.records[0]?.path).toMatch(/^\/api\/v1\/sbom-exports\//);
  });
});

describe('SOC 2 CC8.1 on the fixture tenant', () => {
  it('reports policy evaluations, blocks and gate results', async () => {
    const body = await evidence('soc2-cc8.1');
    const gates = item(body, 'policy_gates');
    expect(gates.figures).toEqual({
      enabledPolicies: 1,
      blockingPolicies: 1,
      completedScans: 7,
      evaluations: 6, // alpha's 27th was not evaluated
      // blocked: alpha on the 3rd (violation 2nd–5th), beta on the 20th (6th–26th)
      gatesPassed: 4,
      gatesBlocked: 2,
      violationsDetected: 2,
      violationsDetectedByAction: { inform: 0, warn: 0, block: 2 },
    });
    expect(gates.gaps).toEqual([
      `completed scan ${scans['alpha-27']} of repository acme/alpha has no policy evaluation`,
    ]);
    const gate = gates.records.find((r: { id: string }) => r.id === scans['alpha-03']);
    expect(gate).toMatchObject({
      type: 'policy_evaluation',
      path: `/api/v1/scans/${scans['alpha-03']}/logs`,
    });
    expect(gate?.note).toContain('gate blocked by 1 violations');
  });

  it('lists exceptions and risk acceptances with expiries and who granted them', async () => {
    const exceptions = item(await evidence('soc2-cc8.1'), 'exceptions');
    expect(exceptions.figures).toEqual({
      policyExceptionsGranted: 1,
      policyExceptionsExpiringInPeriod: 0,
      riskAcceptancesGranted: 1,
    });
    expect(exceptions.status).toBe('informational');
    const [exception, acceptance] = exceptions.records;
    expect(exception?.path).toMatch(/^\/api\/v1\/policy-exceptions\//);
    expect(exception?.note).toContain('granted 2026-01-20T00:00:00.000Z by token admin');
    expect(exception?.note).toContain('expires 2026-02-19T00:00:00.000Z');
    expect(acceptance?.note).toContain('risk accepted 2026-01-12T00:00:00.000Z by token admin');
    expect(acceptance?.note).toContain('until 2027-06-30T00:00:00.000Z');
  });

  it('excerpts the audit log of the period', async () => {
    const audit = item(await evidence('soc2-cc8.1'), 'audit_log');
    expect(audit.figures.entries).toBe(2);
    expect(audit.figures.byAction).toEqual({ 'policy.create': 1, 'policy_exception.grant': 1 });
    expect(audit.records[0]?.path).toContain('/api/v1/audit-log?action=policy_exception.grant');
  });
});

describe('isolation', () => {
  it("another tenant's evidence for the same period holds none of these records", async () => {
    const body = await evidence('soc2-cc7.1', other.token);
    expect(item(body, 'scan_coverage').figures).toMatchObject({
      scansRun: 0,
      activeRepositories: 0,
    });
    expect(item(body, 'vulnerability_remediation').figures).toMatchObject({ found: 0, fixed: 0 });
    expect(body.evidence.flatMap((i: { records: unknown[] }) => i.records)).toEqual([]);
  });
});
