import { newId } from '../../../src/db/ids';
import { withTenant } from '../../../src/db/tenant-scope';
import { MATCH_DEPENDENCIES, REMATCH } from '../../../src/domains/exposures/jobs';
import { DEPENDENCIES_CHANGED, DRIFT_SNAPSHOT, ENRICH } from '../../../src/domains/packages/jobs';
import { queueScan, storeScanDependencies } from '../../../src/domains/scans/service';
import { getEcosystem } from '../../../src/ecosystems/ecosystem-list';
import type { ExtractedFile } from '../../../src/ecosystems/extract-tree';
import { buildPurl } from '../../../src/ecosystems/purl';
import type {
  DependencyScope,
  DependencySource,
  Ecosystem,
  ExtractedDependency,
  Resolution,
} from '../../../src/ecosystems/types';
import type { GitFixture } from '../git-fixtures';
import type { TestApp, TestTenant } from '../test-app';
import { insertFixtureRepository, testRepository } from './repositories';

/**
 * Scans. Two ways: store a scan's dependencies directly (`scanWith`, `storeScan`: no git
 * checkout, then the follow-up jobs), or queue a real scan of a file:// git fixture and run the
 * worker inline (`scanRepository`, `scanFixture`).
 */

export interface Dep {
  name: string;
  version: string | null;
  resolution?: Resolution;
  ecosystem?: Ecosystem;
  file?: string;
  scope?: DependencyScope;
  source?: DependencySource;
}

/** One stored dependency as an extractor reports it (purl from the ecosystem's purl type). */
function extracted(
  ecosystem: Ecosystem,
  name: string,
  version: string | null,
  resolution: Resolution,
): Pick<ExtractedDependency, 'name' | 'version' | 'purl' | 'resolution' | 'parents'> {
  const purl = buildPurl(
    getEcosystem(ecosystem).purlType,
    name,
    resolution === 'resolved' ? version : null,
  );
  return { name, version, purl, resolution, parents: [] };
}

/**
 * Stores a scan's dependencies the way the scan worker does, then runs the matching jobs (or the
 * jobs named in `jobs`; the others queued meanwhile are dropped).
 */
export async function scanWith(
  t: TestApp,
  tenantId: string,
  repositoryId: string,
  deps: Dep[],
  /** The jobs to run afterwards (others queued meanwhile are dropped); 'all' runs every one. */
  jobs: string[] | 'all' = [MATCH_DEPENDENCIES.name, REMATCH.name],
): Promise<string[]> {
  const files = new Map<string, ExtractedFile>();
  for (const dep of deps) {
    const ecosystem = dep.ecosystem ?? 'npm';
    const path = dep.file ?? (ecosystem === 'npm' ? 'package-lock.json' : `${ecosystem}.lock`);
    const file = files.get(path) ?? {
      path,
      ecosystem,
      format: 'test',
      extractor: 'test',
      errors: [],
      dependencies: [],
    };
    const resolution = dep.resolution ?? (dep.version === null ? 'unpinned' : 'resolved');
    file.dependencies.push({
      ...extracted(ecosystem, dep.name, dep.version, resolution),
      scope: dep.scope ?? 'runtime',
      direct: dep.scope !== 'self',
      line: null,
      source: dep.source ?? { kind: 'registry' },
    });
    files.set(path, file);
  }
  await withTenant(t.database, tenantId, (db) =>
    storeScanDependencies(db, {
      tenantId,
      repositoryId,
      scanId: newId(),
      files: [...files.values()],
    }),
  );
  return t.runJobs(jobs === 'all' ? {} : { only: jobs });
}

/** A dependency for the package and drift tests (`storeScan`). */
export interface ScannedDependency {
  ecosystem: Ecosystem;
  name: string;
  version: string | null;
  resolution?: Resolution;
  source?: DependencySource;
  /** false: a transitive dependency (default: direct). */
  direct?: boolean;
}

const PACKAGE_JOBS = [DEPENDENCIES_CHANGED.name, ENRICH.name, DRIFT_SNAPSHOT.name];

/** The files of a `storeScan` scan: one manifest per ecosystem, names normalised. */
function filesByEcosystem(deps: ScannedDependency[]): ExtractedFile[] {
  const byEcosystem = new Map<Ecosystem, ScannedDependency[]>();
  for (const dep of deps)
    byEcosystem.set(dep.ecosystem, [...(byEcosystem.get(dep.ecosystem) ?? []), dep]);
  return [...byEcosystem.entries()].map(([ecosystem, list]) => ({
    path: `${ecosystem}/manifest`,
    ecosystem,
    format: 'test',
    extractor: 'test',
    errors: [],
    dependencies: list.map((dep) => ({
      ...extracted(
        ecosystem,
        getEcosystem(ecosystem).normaliseName(dep.name),
        dep.version,
        dep.resolution ?? 'resolved',
      ),
      scope: 'runtime' as const,
      direct: dep.direct ?? true,
      line: 1,
      source: dep.source ?? { kind: 'registry' as const },
    })),
  }));
}

/**
 * Stores a completed scan of the tenant's repository `repoName` (created on first use) the way
 * the scan worker does, then runs the package jobs (drift snapshot, enrichment) unless
 * `runJobs` is false.
 */
export async function storeScan(
  t: TestApp,
  tenant: TestTenant,
  repoName: string,
  deps: ScannedDependency[],
  finishedAt = new Date(),
  runJobs = true,
) {
  const repositoryId = await testRepository(t, tenant, repoName);
  const scanId = newId();
  const files = filesByEcosystem(deps);
  await withTenant(t.database, tenant.tenantId, async (db) => {
    await db
      .insertInto('scans')
      .values({
        tenant_id: tenant.tenantId,
        id: scanId,
        repository_id: repositoryId,
        state: 'completed',
        trigger: 'manual',
        queued_at: finishedAt,
        finished_at: finishedAt,
        counts_by_ecosystem: JSON.stringify({}),
      })
      .execute();
    await storeScanDependencies(db, { tenantId: tenant.tenantId, repositoryId, scanId, files });
  });
  if (runJobs) await t.runJobs({ only: PACKAGE_JOBS });
  return { repositoryId, scanId };
}

/** `storeScan`'s arguments after the test app, for a file's own `scan(...)` shorthand. */
export type StoreScanArgs =
  Parameters<typeof storeScan> extends [TestApp, ...infer Rest] ? Rest : never;

/** Queues a manual scan of the repository the way the API does; returns the scan row. */
export async function queueManualScan(
  t: TestApp,
  tenantId: string,
  repositoryId: string,
  correlationId = 'test',
) {
  const queued = await withTenant(t.database, tenantId, (db) =>
    queueScan(db, { tenantId, repositoryId, trigger: 'manual', correlationId }),
  );
  return queued.scan;
}

/** Queues a manual scan and runs the jobs inline until none are left: the scan and the jobs run. */
export async function scanRepository(t: TestApp, tenantId: string, repositoryId: string) {
  const scan = await queueManualScan(t, tenantId, repositoryId);
  const ran = await t.runJobs();
  return { scan, ran };
}

/** A repository `name` cloned from the git fixture, scanned to completion. */
export async function scanFixture(t: TestApp, tenantId: string, name: string, fixture: GitFixture) {
  const repositoryId = await insertFixtureRepository(t, tenantId, name, fixture);
  return { repositoryId, ...(await scanRepository(t, tenantId, repositoryId)) };
}
