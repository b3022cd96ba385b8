import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createPolicy,
  createTestApp,
  importJsonl,
  insertRepository,
  npmRange,
  osvRecord,
  scanWith,
  type TestApp,
  type TestTenant,
} from '../../../../test/support/scenarios';
import { loadConfig } from '../../../config';
import { withTenant } from '../../../db/tenant-scope';
import { eventRowName } from '../../../jobs/outbox';
import { snapshotRepositoryDrift } from '../../drift/service';
import { emitEvent } from '../../events';
import { MATCH_DEPENDENCIES, REMATCH } from '../../exposures/jobs';
import { EVALUATE_PACKAGE, EVALUATE_POLICY, EVALUATE_REPOSITORY } from '../jobs';
import { evaluateRepository } from './evaluate';
import { POLICY_FACT_EVENTS } from './requests';

/**
 * What re-evaluates policies besides scans and policy changes (docs/policies.md#evaluation): an
 * exposure's status, a package's health, a drift snapshot; each evaluates only the dependencies
 * whose facts changed.
 */

const JOBS = [
  MATCH_DEPENDENCIES.name,
  REMATCH.name,
  EVALUATE_REPOSITORY.name,
  EVALUATE_POLICY.name,
  EVALUATE_PACKAGE.name,
];
const FILLERS = Array.from({ length: 6 }, (_, i) => ({ name: `filler-${i}`, version: '1.0.0' }));

describe('policy re-evaluation triggers', () => {
  let t: TestApp;
  let a: TestTenant;
  let repo: string;
  const packageIds = new Map<string, string>();
  const settings = loadConfig({}).packageIntel;

  const violationsOf = async (name: string) => {
    const res = await t.as(a.token, {
      method: 'GET',
      url: `/api/v1/policy-violations?repositoryId=${repo}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    const items = res.json().items as {
      violationId: string;
      policyId: string;
      packageName: string;
      status: string;
    }[];
    return items.filter((v) => v.packageName === name);
  };

  /** The evaluation jobs waiting in the outbox: which packages each would evaluate. */
  const queuedEvaluations = async () => {
    const rows = await t.database.system
      .selectFrom('job_outbox')
      .select('data')
      .where('job_name', 'in', POLICY_FACT_EVENTS.map(eventRowName))
      .execute();
    return rows.map((row) => (row.data as { packageIds?: string[] | null }).packageIds);
  };
  /** The drift snapshot of the repository's current scan, computed as enrichment does. */
  const snapshotDrift = () =>
    withTenant(t.database, a.tenantId, async (db) => {
      const scan = await db
        .selectFrom('repository_dependencies')
        .select('scan_id')
        .where('repository_id', '=', repo)
        .executeTakeFirstOrThrow();
      await snapshotRepositoryDrift(db, a.tenantId, repo, scan.scan_id, settings);
    });
  /** Runs the queued jobs and returns the counts each repository evaluation logged. */
  const runAndCount = async () => {
    const log = vi.spyOn(t.jobDeps, 'log');
    await t.runJobs({ only: JOBS });
    const counts = log.mock.calls
      .filter(([message]) => message.startsWith('policies evaluated'))
      .map(([, fields]) => fields as { dependencies: number; opened: number; resolved: number });
    log.mockRestore();
    return counts;
  };

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createTenant('enterprise', 'A');
    repo = await insertRepository(t, a.tenantId, 'web');
    await importJsonl(t, [
      osvRecord({
        id: 'GHSA-trig-0001-aaaa',
        databaseSeverity: 'HIGH',
        affected: [npmRange('vuln-pkg', '0', '2.0.0')],
      }),
    ]);
    await scanWith(
      t,
      a.tenantId,
      repo,
      [
        { name: 'vuln-pkg', version: '1.0.0' },
        { name: 'sick-pkg', version: '1.0.0' },
        { name: 'old-pkg', version: '1.0.0' },
        ...FILLERS,
      ],
      JOBS,
    );
    const rows = await t.database.system.selectFrom('packages').select(['id', 'name']).execute();
    for (const row of rows) packageIds.set(row.name, row.id);
    // The scan's drift snapshot, every package still pending (no registry metadata yet).
    await snapshotDrift();
    await createPolicy(t, a.token, { name: 'Vulnerable', condition: 'vulnerabilities.count > 0' });
    await createPolicy(t, a.token, {
      name: 'Unhealthy',
      condition: 'health.known && health.score < 40.0',
    });
    await createPolicy(t, a.token, {
      name: 'A major behind',
      condition: 'drift.known && drift.majorsBehind >= 1',
    });
    await t.runJobs({ only: JOBS });
  });
  afterAll(() => t.close());

  it('evaluates only the named packages and leaves the violations of others as they are', async () => {
    expect(await violationsOf('vuln-pkg')).toMatchObject([{ status: 'open' }]);
    const counts = await withTenant(t.database, a.tenantId, (db) =>
      evaluateRepository(db, {
        tenantId: a.tenantId,
        repositoryId: repo,
        packageIds: [packageIds.get('filler-0') as string],
      }),
    );
    expect(counts).toMatchObject({ policies: 3, dependencies: 1, opened: 0, resolved: 0 });
    expect(await violationsOf('vuln-pkg')).toMatchObject([{ status: 'open' }]);
  });

  it("an exposure's status change re-evaluates that dependency only", async () => {
    const list = await t.as(a.token, {
      method: 'GET',
      url: `/api/v1/vulnerability-exposures?repositoryId=${repo}`,
    });
    const [exposure] = list.json().items as { exposureId: string }[];
    const patched = await t.as(a.token, {
      method: 'PATCH',
      url: `/api/v1/vulnerability-exposures/${exposure?.exposureId}`,
      payload: { status: 'not_affected', justification: 'code_not_reachable' },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(await queuedEvaluations()).toEqual([[packageIds.get('vuln-pkg')]]);
    // The CI gate sees the evaluation as pending until it commits (docs/policies.md#ci-gate).
    const progressUrl = `/api/v1/repositories/${repo}/policy-evaluation`;
    const waiting = (await t.as(a.token, { method: 'GET', url: progressUrl })).json();
    expect(waiting).toMatchObject({
      state: 'pending',
      pendingPolicies: [],
      pendingRequests: [{ reason: 'facts of 1 package(s) changed' }],
    });
    const counts = await runAndCount();
    expect(counts).toMatchObject([{ dependencies: 1, resolved: 1 }]);
    expect((await t.as(a.token, { method: 'GET', url: progressUrl })).json()).toMatchObject({
      state: 'current',
      pendingRequests: [],
    });
    expect(await violationsOf('vuln-pkg')).toMatchObject([{ status: 'resolved' }]);

    await t.as(a.token, {
      method: 'PATCH',
      url: `/api/v1/vulnerability-exposures/${exposure?.exposureId}`,
      payload: { status: 'open' },
    });
    expect(await runAndCount()).toMatchObject([{ dependencies: 1, opened: 0 }]);
    expect(await violationsOf('vuln-pkg')).toMatchObject([{ status: 'open' }]);
  });

  it('rewrites a held violation only when its facts changed (the stored digest)', async () => {
    const list = await t.as(a.token, {
      method: 'GET',
      url: `/api/v1/vulnerability-exposures?repositoryId=${repo}`,
    });
    const [exposure] = list.json().items as { exposureId: string }[];
    const stored = async () => {
      const [violation] = await violationsOf('vuln-pkg');
      const res = await t.as(a.token, {
        method: 'GET',
        url: `/api/v1/policy-violations/${violation?.violationId}`,
      });
      return res.json() as {
        status: string;
        lastEvaluatedAtUtc: string;
        facts: { vulnerabilities: { items: { status: string }[] } };
      };
    };
    const before = await stored();
    await t.as(a.token, {
      method: 'PATCH',
      url: `/api/v1/vulnerability-exposures/${exposure?.exposureId}`,
      payload: { status: 'investigating' },
    });
    await runAndCount();
    const changed = await stored();
    expect(changed.status).toBe('open');
    expect(changed.facts.vulnerabilities.items[0]?.status).toBe('investigating');
    expect(changed.lastEvaluatedAtUtc > before.lastEvaluatedAtUtc).toBe(true);
    // Evaluated again with nothing changed: held, not written.
    const counts = await withTenant(t.database, a.tenantId, (db) =>
      evaluateRepository(db, { tenantId: a.tenantId, repositoryId: repo }),
    );
    expect(counts).toMatchObject({ opened: 0, resolved: 0 });
    expect((await stored()).lastEvaluatedAtUtc).toBe(changed.lastEvaluatedAtUtc);
  });

  it("a package's health change re-evaluates the dependencies on it", async () => {
    const sick = packageIds.get('sick-pkg') as string;
    await t.database.system
      .insertInto('package_health_snapshots')
      .values({
        package_id: sick,
        snapshot_date: '2026-11-26',
        computed_at: new Date(),
        signals: JSON.stringify([]),
        default_score: 25,
      })
      .execute();
    expect(await violationsOf('sick-pkg')).toEqual([]);
    // As the health snapshot emits it for every tenant using the package.
    await emitEvent(t.database.system, 'package.health_changed', {
      tenantId: a.tenantId,
      data: { packageId: sick, ecosystem: 'npm', name: 'sick-pkg', previousScore: null, score: 25 },
    });
    expect(await runAndCount()).toMatchObject([{ dependencies: 1, opened: 1 }]);
    expect(await violationsOf('sick-pkg')).toMatchObject([{ status: 'open' }]);
  });

  it('a drift snapshot that changes re-evaluates the dependencies whose drift changed', async () => {
    const old = packageIds.get('old-pkg') as string;
    await t.database.system
      .insertInto('package_metadata')
      .values({
        package_id: old,
        status: 'found',
        latest_stable: '2.0.0',
        latest: '2.0.0',
        maintainers: [],
        maintainer_changes: JSON.stringify([]),
        notes: JSON.stringify([]),
        raw: null,
        fetched_at: new Date(),
        changed_at: new Date(),
      })
      .execute();
    await t.database.system
      .insertInto('package_versions')
      .values(
        ['1.0.0', '2.0.0'].map((version, ordinal) => ({
          package_id: old,
          version,
          ordinal,
          published_at: new Date(Date.UTC(2024 + ordinal, 0, 1)),
          yanked: false,
          prerelease: false,
        })),
      )
      .execute();
    // As enrichment does once the metadata it fetched is stored.
    await snapshotDrift();
    expect(await queuedEvaluations()).toEqual([[old]]);
    expect(await runAndCount()).toMatchObject([{ dependencies: 1, opened: 1 }]);
    expect(await violationsOf('old-pkg')).toMatchObject([{ status: 'open' }]);
  });

  it('an advisory change re-evaluates only the dependencies on the packages it names', async () => {
    expect(await violationsOf('filler-3')).toEqual([]);
    // A new advisory for one package: the import fans a re-match out to the tenant.
    await importJsonl(t, [
      osvRecord({
        id: 'GHSA-trig-0002-bbbb',
        databaseSeverity: 'HIGH',
        affected: [npmRange('filler-3', '0', '2.0.0')],
      }),
    ]);
    const counts = await runAndCount();
    expect(counts).toMatchObject([{ dependencies: 1, evaluated: 1, opened: 1, resolved: 0 }]);
    expect(await violationsOf('filler-3')).toMatchObject([{ status: 'open' }]);
  });
});
