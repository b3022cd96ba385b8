import { strToU8 } from 'fflate';
import type { Insertable } from 'kysely';
import { newId } from '../../src/db/ids';
import type { DB } from '../../src/db/schema';
import { withTenant } from '../../src/db/tenant-scope';
import { MATCH_DEPENDENCIES, REMATCH } from '../../src/domains/exposures/jobs';
import { ADVISORY_CHANGES } from '../../src/domains/exposures/matching/rematch-request';
import { storeScanDependencies } from '../../src/domains/scans/service';
import { getEcosystem } from '../../src/ecosystems/ecosystem-list';
import type { ExtractedFile } from '../../src/ecosystems/extract-tree';
import { buildPurl } from '../../src/ecosystems/purl';
import type {
  DependencyScope,
  DependencySource,
  Ecosystem,
  Resolution,
} from '../../src/ecosystems/types';
import { importRecords } from '../../src/intel/advisory-store/import';
import { type ReadResult, readRecordsFromBytes } from '../../src/intel/advisory-store/read';
import { jsonl } from './osv-records';
import type { TestApp } from './test-app';

type RepositoryColumns = Partial<
  Pick<
    Insertable<DB['repositories']>,
    'full_name' | 'clone_url' | 'web_url' | 'default_branch' | 'business_criticality'
  >
>;

/** Test helpers shared by the exposure, vulnerability, scan and SBOM tests. */
export async function insertRepository(
  t: TestApp,
  tenantId: string,
  name: string,
  /** Columns as a particular import would leave them (default branch, URLs...). */
  columns: RepositoryColumns = {},
): Promise<string> {
  const id = newId();
  await withTenant(t.database, tenantId, (db) =>
    db
      .insertInto('repositories')
      .values({
        tenant_id: tenantId,
        id,
        provider: 'git',
        name,
        full_name: `acme/${name}`,
        clone_url: `https://git.example.test/acme/${name}.git`,
        ...columns,
      })
      .execute(),
  );
  return id;
}

export interface Dep {
  name: string;
  version: string | null;
  resolution?: Resolution;
  ecosystem?: Ecosystem;
  file?: string;
  scope?: DependencyScope;
  source?: DependencySource;
}

/**
 * Stores a scan's dependencies the way the scan worker does, then runs the matching jobs (or the
 * jobs named in `only`; the others queued meanwhile are dropped).
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
      name: dep.name,
      version: dep.version,
      purl: buildPurl(
        getEcosystem(ecosystem).purlType,
        dep.name,
        resolution === 'resolved' ? dep.version : null,
      ),
      scope: dep.scope ?? 'runtime',
      direct: dep.scope !== 'self',
      resolution,
      line: null,
      parents: [],
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

export async function importJsonl(t: TestApp, records: object[]) {
  const read: ReadResult = { records: [], rejected: [], notAdvisories: [] };
  readRecordsFromBytes(strToU8(jsonl(records)), 'test.jsonl', read);
  return importRecords(t.database, read, ADVISORY_CHANGES);
}
