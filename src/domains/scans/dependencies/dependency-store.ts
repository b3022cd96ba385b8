import { type Kysely, sql } from 'kysely';
import { chunks } from '../../../core/chunks';
import { compositeKey } from '../../../core/composite-key';
import { newId } from '../../../db/ids';
import type { DB } from '../../../db/schema';
import { getEcosystem } from '../../../ecosystems/ecosystem-list';
import type { ExtractedFile } from '../../../ecosystems/extract-tree';
import { buildPurl } from '../../../ecosystems/purl';
import type { Ecosystem, ExtractedDependency } from '../../../ecosystems/types';

/**
 * The writes of a repository's dependencies (docs/repositories-and-scans.md, "Storing
 * dependencies"): the ONLY code that writes `repository_dependency_rows` and
 * `dependency_generations`. Rows are stored under a generation (the scan id that stored them);
 * readers see the view `repository_dependencies`, which shows each repository's current
 * generation only. Each function runs in the caller's tenant transaction.
 */

/** One file's dependency, the unit the chunked store walks. */
export interface FileDependency {
  file: ExtractedFile;
  dependency: ExtractedDependency;
}

const PACKAGE_STATEMENT_ROWS = 1000;
const DEPENDENCY_STATEMENT_ROWS = 500;

const packageKey = (ecosystem: string, name: string) => compositeKey(ecosystem, name);

function byEcosystemAndName(
  a: { ecosystem: string; name: string },
  b: { ecosystem: string; name: string },
): number {
  if (a.ecosystem !== b.ecosystem) return a.ecosystem < b.ecosystem ? -1 : 1;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/**
 * Makes sure the shared catalogue has a row per (ecosystem, normalised name) and returns their
 * ids. Inserts in a fixed order (ecosystem, name) so that two tenants storing overlapping sets
 * at once cannot deadlock; ON CONFLICT DO NOTHING waits for a concurrent inserter's commit.
 */
async function ensurePackages(
  db: Kysely<DB>,
  wanted: Map<string, { ecosystem: Ecosystem; name: string }>,
): Promise<Map<string, string>> {
  const rows = [...wanted.values()]
    .map((p) => ({
      id: newId(),
      ecosystem: p.ecosystem,
      name: p.name,
      purl: buildPurl(getEcosystem(p.ecosystem).purlType, p.name, null),
    }))
    .sort(byEcosystemAndName);
  const ids = new Map<string, string>();
  const byPurl = new Map(rows.map((row) => [row.purl, row]));
  for (const chunk of chunks(rows, PACKAGE_STATEMENT_ROWS)) {
    await db
      .insertInto('packages')
      .values(chunk)
      .onConflict((oc) => oc.doNothing())
      .execute();
    const found = await db
      .selectFrom('packages')
      .select(['id', 'purl'])
      .where(
        'purl',
        'in',
        chunk.map((row) => row.purl),
      )
      .execute();
    for (const row of found) {
      const asked = byPurl.get(row.purl);
      if (asked) ids.set(packageKey(asked.ecosystem, asked.name), row.id);
    }
  }
  // Same purl spelled by another (ecosystem, name): look those up by name instead.
  for (const row of rows.filter((r) => !ids.has(packageKey(r.ecosystem, r.name)))) {
    const found = await db
      .selectFrom('packages')
      .select('id')
      .where('ecosystem', '=', row.ecosystem)
      .where('name', '=', row.name)
      .executeTakeFirst();
    if (!found) throw new Error(`package ${row.ecosystem}/${row.name} could not be catalogued`);
    ids.set(packageKey(row.ecosystem, row.name), found.id);
  }
  return ids;
}

/**
 * Catalogues the packages of `entries` and inserts them as rows of generation `scanId` (not
 * visible to readers until the repository switches to that generation). Runs in the tenant scope:
 * the database fills tenant_id from it.
 */
export async function insertGenerationRows(
  db: Kysely<DB>,
  target: { repositoryId: string; scanId: string },
  entries: readonly FileDependency[],
): Promise<void> {
  const wanted = new Map<string, { ecosystem: Ecosystem; name: string }>();
  for (const { file, dependency } of entries) {
    wanted.set(packageKey(file.ecosystem, dependency.name), {
      ecosystem: file.ecosystem,
      name: dependency.name,
    });
  }
  const packageIds = await ensurePackages(db, wanted);
  const rows = entries.map(({ file, dependency }) => ({
    id: newId(),
    repository_id: target.repositoryId,
    scan_id: target.scanId,
    package_id: packageIds.get(packageKey(file.ecosystem, dependency.name)) as string,
    ecosystem: file.ecosystem,
    name: dependency.name,
    version: dependency.version,
    resolution: dependency.resolution,
    purl: dependency.purl,
    scope: dependency.scope,
    direct: dependency.direct,
    file: file.path,
    line: dependency.line,
    source: JSON.stringify(dependency.source),
    parents: dependency.parents,
  }));
  for (const chunk of chunks(rows, DEPENDENCY_STATEMENT_ROWS)) {
    await db.insertInto('repository_dependency_rows').values(chunk).execute();
  }
}

/** Records generation `scanId` as being stored (again, after a run that died mid-store). */
export async function beginGeneration(
  db: Kysely<DB>,
  target: { repositoryId: string; scanId: string },
): Promise<void> {
  await db
    .insertInto('dependency_generations')
    .values({ scan_id: target.scanId, repository_id: target.repositoryId, state: 'storing' })
    .onConflict((oc) =>
      oc.columns(['tenant_id', 'scan_id']).doUpdateSet({
        state: 'storing',
        updated_at: sql<Date>`now()`,
      }),
    )
    .execute();
}

/**
 * Makes generation `scanId` the repository's current one (readers see it from this commit on)
 * and retires the one it replaces. Returns the replaced generation's scan id, if any.
 */
export async function switchGeneration(
  db: Kysely<DB>,
  target: { repositoryId: string; scanId: string },
): Promise<string | null> {
  const repository = await db
    .selectFrom('repositories')
    .select('dependency_scan_id')
    .where('id', '=', target.repositoryId)
    .forUpdate()
    .executeTakeFirst();
  if (!repository) throw new Error('the repository no longer exists');
  await db
    .updateTable('repositories')
    .set({ dependency_scan_id: target.scanId })
    .where('id', '=', target.repositoryId)
    .execute();
  await db.deleteFrom('dependency_generations').where('scan_id', '=', target.scanId).execute();
  const previous = repository.dependency_scan_id;
  if (previous && previous !== target.scanId)
    await retireGeneration(db, target.repositoryId, previous);
  return previous === target.scanId ? null : previous;
}

/** Marks a generation that is not current for deletion (the sweep finishes what is left). */
export async function retireGeneration(
  db: Kysely<DB>,
  repositoryId: string,
  scanId: string,
): Promise<void> {
  await db
    .insertInto('dependency_generations')
    .values({ scan_id: scanId, repository_id: repositoryId, state: 'retired' })
    .onConflict((oc) =>
      oc.columns(['tenant_id', 'scan_id']).doUpdateSet({
        state: 'retired',
        updated_at: sql<Date>`now()`,
      }),
    )
    .execute();
}

/**
 * Deletes up to `limit` rows of generation `scanId`, never of a current generation. Returns
 * how many went; when none are left the ledger row goes too (0 means the generation is gone).
 */
export async function deleteGenerationChunk(
  db: Kysely<DB>,
  scanId: string,
  limit: number,
): Promise<number> {
  const current = await db
    .selectFrom('repositories')
    .select('id')
    .where('dependency_scan_id', '=', scanId)
    .executeTakeFirst();
  if (current) {
    await db.deleteFrom('dependency_generations').where('scan_id', '=', scanId).execute();
    return 0;
  }
  const deleted = await db
    .deleteFrom('repository_dependency_rows')
    .where(({ eb, selectFrom }) =>
      eb(
        'id',
        'in',
        selectFrom('repository_dependency_rows')
          .select('id')
          .where('scan_id', '=', scanId)
          .limit(limit),
      ),
    )
    .where('scan_id', '=', scanId)
    .executeTakeFirst();
  const count = Number(deleted.numDeletedRows);
  if (count === 0) {
    await db.deleteFrom('dependency_generations').where('scan_id', '=', scanId).execute();
  }
  return count;
}

export interface LeftoverGeneration {
  tenant_id: string;
  scan_id: string;
  repository_id: string;
}

/**
 * Generations whose rows must go, across tenants (the system connection, read only): retired
 * ones, and those being stored by a scan that is no longer running (its run died or stopped
 * before the switch). A scan running again (a new attempt) starts its store by clearing them.
 */
export async function findLeftoverGenerations(
  system: Kysely<DB>,
  limit = 100,
): Promise<LeftoverGeneration[]> {
  return system
    .selectFrom('dependency_generations as g')
    .leftJoin('scans as s', (join) =>
      join.onRef('s.tenant_id', '=', 'g.tenant_id').onRef('s.id', '=', 'g.scan_id'),
    )
    .select(['g.tenant_id', 'g.scan_id', 'g.repository_id'])
    .where((eb) =>
      eb.or([
        eb('g.state', '=', 'retired'),
        eb('s.state', 'is', null),
        eb('s.state', '!=', 'running'),
      ]),
    )
    .orderBy('g.updated_at')
    .limit(limit)
    .execute();
}

/** True while generation `scanId` is being stored by its running scan (sweep: leave it). */
export async function isGenerationStoring(db: Kysely<DB>, scanId: string): Promise<boolean> {
  const row = await db
    .selectFrom('dependency_generations as g')
    .innerJoin('scans as s', (join) =>
      join.onRef('s.tenant_id', '=', 'g.tenant_id').onRef('s.id', '=', 'g.scan_id'),
    )
    .select('g.scan_id')
    .where('g.scan_id', '=', scanId)
    .where('g.state', '=', 'storing')
    .where('s.state', '=', 'running')
    // Locks the scan row: a claim of a new attempt waits until this chunk's transaction ends.
    .forShare('s')
    .executeTakeFirst();
  return row !== undefined;
}
