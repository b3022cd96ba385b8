import { newId } from '../../src/db/ids';
import { withTenant } from '../../src/db/tenant-scope';
import { DEPENDENCIES_CHANGED, DRIFT_SNAPSHOT, ENRICH } from '../../src/domains/packages/jobs';
import { storeScanDependencies } from '../../src/domains/scans/service';
import { getEcosystem } from '../../src/ecosystems/ecosystem-list';
import type { ExtractedFile } from '../../src/ecosystems/extract-tree';
import { buildPurl } from '../../src/ecosystems/purl';
import type { DependencySource, Ecosystem, Resolution } from '../../src/ecosystems/types';
import { insertRepository } from './exposures';
import type { TestApp, TestTenant } from './test-app';

/** Scans with given dependencies for the package and drift tests, without a git checkout. */

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

/** The tenant's repository of this name, created on first use. */
export async function testRepository(
  t: TestApp,
  tenant: TestTenant,
  name: string,
): Promise<string> {
  const existing = await withTenant(t.database, tenant.tenantId, (db) =>
    db.selectFrom('repositories').select('id').where('name', '=', name).executeTakeFirst(),
  );
  if (existing) return existing.id;
  return insertRepository(t, tenant.tenantId, name, {
    clone_url: `https://git.example.test/${tenant.tenantId}/${name}.git`,
  });
}

/**
 * Stores a completed scan's dependencies the way the scan worker does, then runs the package
 * jobs (drift snapshot, enrichment) unless `runJobs` is false.
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
  const byEcosystem = new Map<Ecosystem, ScannedDependency[]>();
  for (const dep of deps)
    byEcosystem.set(dep.ecosystem, [...(byEcosystem.get(dep.ecosystem) ?? []), dep]);
  const files: ExtractedFile[] = [...byEcosystem.entries()].map(([ecosystem, list]) => ({
    path: `${ecosystem}/manifest`,
    ecosystem,
    format: 'test',
    extractor: 'test',
    errors: [],
    dependencies: list.map((dep) => {
      const module = getEcosystem(dep.ecosystem);
      const name = module.normaliseName(dep.name);
      const resolution = dep.resolution ?? 'resolved';
      return {
        name,
        version: dep.version,
        purl: buildPurl(module.purlType, name, resolution === 'resolved' ? dep.version : null),
        scope: 'runtime' as const,
        direct: dep.direct ?? true,
        resolution,
        line: 1,
        parents: [],
        source: dep.source ?? { kind: 'registry' as const },
      };
    }),
  }));
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
