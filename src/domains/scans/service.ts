import type { Kysely } from 'kysely';
import { conflict, notFound } from '../../core/problem';
import { newId } from '../../db/ids';
import type { DB } from '../../db/schema';
import { isDependency } from '../../ecosystems/dependency-list';
import { getEcosystem } from '../../ecosystems/ecosystem-list';
import type { ExtractedFile } from '../../ecosystems/extract-tree';
import { buildPurl } from '../../ecosystems/purl';
import type { Ecosystem } from '../../ecosystems/types';
import { emitEvent, enqueueJob } from '../../jobs/outbox';
import {
  appendScanLog,
  cancelScan,
  FINISHED_STATES,
  findActiveScan,
  findScan,
  insertQueuedScan,
  type ScanRow,
} from './store';
import type { ScanTrigger } from './tables';

export type { ScanRow } from './store';

/** The job that runs one scan (registered by `scanJobs` in ./jobs.ts). data: RunScanJob */
export const RUN_SCAN_JOB = 'scans.run';

export interface RunScanJob {
  scanId: string;
  repositoryId: string;
}

export interface QueueScanInput {
  tenantId: string;
  repositoryId: string;
  trigger: ScanTrigger;
  correlationId: string | null;
  /** Defaults to the repository's default branch. */
  branch?: string | null;
}

/**
 * Queues a scan of a repository: a `queued` scan row and its job, in the caller's transaction.
 * When the repository already has a queued or running scan, that scan is returned with
 * `created: false` (the route answers 409; push ingest treats it as "already queued").
 * Throws 404 when the repository is not the tenant's.
 */
export async function queueScan(
  db: Kysely<DB>,
  input: QueueScanInput,
): Promise<{ scan: ScanRow; created: boolean }> {
  const repository = await db
    .selectFrom('repositories')
    .select(['id', 'default_branch'])
    .where('id', '=', input.repositoryId)
    .executeTakeFirst();
  if (!repository) throw notFound('The repository');

  const existing = await findActiveScan(db, input.repositoryId);
  if (existing) return { scan: existing, created: false };

  // The partial unique index `scans_one_active` settles a race between two triggers: the loser
  // inserts nothing (it waits for the winner's commit) and returns the winner's scan.
  const inserted = await insertQueuedScan(db, {
    tenantId: input.tenantId,
    repositoryId: input.repositoryId,
    trigger: input.trigger,
    branch: input.branch || repository.default_branch,
  });
  if (!inserted) {
    const winner = await findActiveScan(db, input.repositoryId);
    if (winner) return { scan: winner, created: false };
    throw new Error('scan insert conflicted but no active scan was found');
  }
  await enqueueJob<RunScanJob>(db, {
    tenantId: input.tenantId,
    name: RUN_SCAN_JOB,
    data: { scanId: inserted.id, repositoryId: input.repositoryId },
    correlationId: input.correlationId,
  });
  return { scan: inserted, created: true };
}

/**
 * Cancels a queued or running scan (a running run stops at its next step): 404 for an unknown
 * scan, 409 for a finished one. The cancel and its log line are written in the caller's
 * transaction.
 */
export async function requestScanCancel(
  db: Kysely<DB>,
  scanId: string,
  requestId: string,
): Promise<ScanRow> {
  const cancelled = await cancelScan(db, scanId);
  if (!cancelled) {
    const scan = await findScan(db, scanId);
    if (!scan) throw notFound('The scan');
    if (FINISHED_STATES.includes(scan.state)) {
      throw conflict(`The scan has already finished (${scan.state}).`);
    }
    throw conflict(`The scan is ${scan.state} and cannot be cancelled.`);
  }
  await appendScanLog(db, {
    tenantId: cancelled.tenant_id,
    scanId,
    level: 'warn',
    step: 'cancel',
    message: `cancelled by request ${requestId}`,
  });
  return cancelled;
}

export interface StoreDependenciesInput {
  tenantId: string;
  repositoryId: string;
  scanId: string;
  files: ExtractedFile[];
  correlationId?: string | null;
}

export interface StoredDependencies {
  dependencyCount: number;
  fileCount: number;
  countsByEcosystem: Record<string, number>;
}

const PACKAGE_CHUNK = 1000;
const DEPENDENCY_CHUNK = 500;

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

const packageKey = (ecosystem: string, name: string) => `${ecosystem}\u0000${name}`;

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
    .sort((a, b) =>
      a.ecosystem === b.ecosystem
        ? a.name < b.name
          ? -1
          : a.name > b.name
            ? 1
            : 0
        : a.ecosystem < b.ecosystem
          ? -1
          : 1,
    );
  const ids = new Map<string, string>();
  const byPurl = new Map(rows.map((row) => [row.purl, row]));
  for (const chunk of chunks(rows, PACKAGE_CHUNK)) {
    await db
      .insertInto('packages')
      .values(chunk)
      .onConflict((oc) => oc.doNothing())
      .execute();
    const found = await db
      .selectFrom('packages')
      .select(['id', 'ecosystem', 'name', 'purl'])
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
  const missing = rows.filter((row) => !ids.has(packageKey(row.ecosystem, row.name)));
  if (missing.length > 0) {
    // Same purl spelled by another (ecosystem, name): look those up by name instead.
    for (const row of missing) {
      const found = await db
        .selectFrom('packages')
        .select('id')
        .where('ecosystem', '=', row.ecosystem)
        .where('name', '=', row.name)
        .executeTakeFirst();
      if (!found) throw new Error(`package ${row.ecosystem}/${row.name} could not be catalogued`);
      ids.set(packageKey(row.ecosystem, row.name), found.id);
    }
  }
  return ids;
}

/**
 * Replaces a repository's dependencies with what the files list (a scan's extraction, or the
 * synthetic files of an SBOM import), catalogues the packages, and emits
 * `dependencies.changed`. Runs in the caller's tenant transaction: all or nothing.
 */
export async function storeScanDependencies(
  db: Kysely<DB>,
  input: StoreDependenciesInput,
): Promise<StoredDependencies> {
  const wanted = new Map<string, { ecosystem: Ecosystem; name: string }>();
  const countsByEcosystem: Record<string, number> = {};
  let dependencyCount = 0;
  for (const file of input.files) {
    for (const dependency of file.dependencies) {
      wanted.set(packageKey(file.ecosystem, dependency.name), {
        ecosystem: file.ecosystem,
        name: dependency.name,
      });
      // The project's own package is stored (and matched) but is not one of its dependencies.
      if (!isDependency(dependency)) continue;
      countsByEcosystem[file.ecosystem] = (countsByEcosystem[file.ecosystem] ?? 0) + 1;
      dependencyCount++;
    }
  }
  const packageIds = await ensurePackages(db, wanted);

  await db
    .deleteFrom('repository_dependencies')
    .where('repository_id', '=', input.repositoryId)
    .execute();
  const rows = input.files.flatMap((file) =>
    file.dependencies.map((dependency) => ({
      tenant_id: input.tenantId,
      id: newId(),
      repository_id: input.repositoryId,
      scan_id: input.scanId,
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
    })),
  );
  for (const chunk of chunks(rows, DEPENDENCY_CHUNK)) {
    await db.insertInto('repository_dependencies').values(chunk).execute();
  }
  await emitEvent(db, 'dependencies.changed', {
    tenantId: input.tenantId,
    correlationId: input.correlationId ?? null,
    data: { repositoryId: input.repositoryId, scanId: input.scanId },
  });
  return { dependencyCount, fileCount: input.files.length, countsByEcosystem };
}

export { findScan };
