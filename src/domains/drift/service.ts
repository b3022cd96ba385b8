import { type Kysely, sql } from 'kysely';
import type { Config } from '../../config';
import { compositeKey, keyParts } from '../../core/composite-key';
import type { DB } from '../../db/schema';
import { getEcosystem } from '../../ecosystems/ecosystem-list';
import type { DependencySource, Ecosystem, Resolution } from '../../ecosystems/types';
import { computeDependencyDrift, type DependencyDrift, totalDrift } from '../../intel/drift/drift';
import { driftFacts } from '../../intel/package-catalogue/facts';
import { emitEvent } from '../events';
import { COUNTED_DEPENDENCY_SQL } from '../repositories/counted-dependencies';
import { type Catalogue, loadCatalogue } from './catalogue';
import { emitDriftChanged } from './events';
import type { DependencyDriftState } from './tables';

/**
 * Drift snapshots per scan (docs/package-intelligence.md#drift): computed when a scan stores its
 * dependencies, recomputed when registry metadata they were waiting for arrives. Every query
 * here runs in the tenant's transaction.
 */

export interface UsedDependency {
  packageId: string;
  ecosystem: string;
  version: string | null;
  resolution: Resolution;
  source: DependencySource;
}

export type DriftOutcome =
  | { state: Exclude<DependencyDriftState, 'measured'> }
  | ({ state: 'measured' } & DependencyDrift);

/** Drift of one used dependency against the catalogue (pending while metadata is missing). */
export function driftOf(
  used: UsedDependency,
  catalogue: Catalogue,
  settings: Config['packageIntel'],
  now: Date,
): DriftOutcome {
  if (used.source.kind !== 'registry') return { state: 'not_in_registry' };
  const metadata = catalogue.metadata.get(used.packageId);
  if (!metadata) return { state: 'pending' };
  if (metadata.status !== 'found') return { state: 'not_in_registry' };
  const drift = computeDependencyDrift(
    driftFacts(metadata, catalogue.versions.get(used.packageId) ?? []),
    { version: used.version, resolution: used.resolution },
    getEcosystem(used.ecosystem as Ecosystem).versioning,
    { now, endOfLifeAfterDays: settings.endOfLifeAfterDays },
  );
  if (drift.state === 'unknown_version') return { state: 'unknown_version' };
  return { ...drift, state: 'measured' };
}

/**
 * Computes and stores the drift snapshot of one repository at one scan. Returns false when the
 * scan's dependencies are no longer the repository's current ones (a newer scan replaced them:
 * its own event computes its own snapshot).
 */
export async function snapshotRepositoryDrift(
  db: Kysely<DB>,
  tenantId: string,
  repositoryId: string,
  scanId: string,
  settings: Config['packageIntel'],
  now = new Date(),
): Promise<boolean> {
  // Serialise recomputations of the same snapshot (enrichment chunks finish concurrently).
  await sql`SELECT pg_advisory_xact_lock(hashtext(${`drift:${scanId}`}))`.execute(db);
  const rows = await scanDependencies(db, repositoryId, scanId);
  if (!rows) return false;
  const used = usedDependencies(rows);
  const catalogue = await loadCatalogue(
    db,
    used.map((u) => u.packageId),
  );
  const outcomes = used.map((u) => driftOf(u, catalogue, settings, now));
  const totals = totalDrift(outcomes.map(totalsInput));
  const snapshot: SnapshotKey = { repositoryId, scanId };
  const updated = await saveRepositoryDrift(db, snapshot, totals, now);
  const changed = await saveDependencyDrift(db, snapshot, used, outcomes, catalogue);
  await emitDriftChanged(db, tenantId, repositoryId, changed);
  // A recomputation with other totals (metadata it waited for arrived) is news of its own; the
  // first computation is part of its scan, whose own events follow.
  if (updated) await emitEvent(db, 'drift.updated', { tenantId, data: { repositoryId, scanId } });
  return true;
}

/** The totals a snapshot reports (what the dashboard sums), to tell a recomputation's change. */
const REPORTED_TOTALS = [
  'libyear_total',
  'major_behind',
  'minor_behind',
  'patch_behind',
  'deprecated_count',
  'end_of_life_count',
] as const;

export type ReportedTotals = Record<(typeof REPORTED_TOTALS)[number], unknown>;

/** The stored snapshot's reported totals (undefined: none yet). */
export function reportedTotals(db: Kysely<DB>, { repositoryId, scanId }: SnapshotKey) {
  return db
    .selectFrom('repository_drift')
    .select(REPORTED_TOTALS)
    .where('repository_id', '=', repositoryId)
    .where('scan_id', '=', scanId)
    .executeTakeFirst();
}

/** A snapshot's key within the tenant scope (the database fills tenant_id from the scope). */
export interface SnapshotKey {
  repositoryId: string;
  scanId: string;
}

/**
 * The scan's dependency rows, or null when they are no longer the repository's current ones
 * (or the scan is gone).
 */
export async function scanDependencies(db: Kysely<DB>, repositoryId: string, scanId: string) {
  const rows = await db
    .selectFrom('repository_dependencies')
    .select(['package_id', 'ecosystem', 'version', 'resolution', 'source'])
    .where('repository_id', '=', repositoryId)
    .where('scan_id', '=', scanId)
    // The project's own package cannot drift behind itself; a replaced module is not built.
    .where(sql.raw<boolean>(COUNTED_DEPENDENCY_SQL))
    .execute();
  if (rows.length === 0) {
    const scan = await db
      .selectFrom('scans')
      .select('id')
      .where('id', '=', scanId)
      .executeTakeFirst();
    if (!scan) return null;
    // No rows for this scan: it found nothing, or a newer scan already replaced them (then the
    // snapshot taken while they were current stays as it was).
    const newer = await db
      .selectFrom('repository_dependencies')
      .select('id')
      .where('repository_id', '=', repositoryId)
      .where(sql.raw<boolean>(COUNTED_DEPENDENCY_SQL))
      .limit(1)
      .executeTakeFirst();
    if (newer) return null;
  }
  return rows;
}

export type ScanDependency = NonNullable<Awaited<ReturnType<typeof scanDependencies>>>[number];

/** One entry per package and used version (the same pin in two manifests counts once). */
export function usedDependencies(rows: readonly ScanDependency[]): UsedDependency[] {
  const unique = new Map<string, UsedDependency>();
  for (const row of rows) {
    const key = compositeKey(row.package_id, row.version ?? '');
    if (!unique.has(key)) {
      unique.set(key, {
        packageId: row.package_id,
        ecosystem: row.ecosystem,
        version: row.version,
        resolution: row.resolution,
        source: row.source as DependencySource,
      });
    }
  }
  return [...unique.values()];
}

/** What the repository total counts of one outcome: a version that cannot be compared is unknown. */
export function totalsInput(o: DriftOutcome) {
  return o.state === 'measured'
    ? o
    : o.state === 'pending' || o.state === 'not_in_registry'
      ? o.state
      : ({
          state: 'unknown_version',
          comparedVersion: null,
          latestStable: null,
          libyear: null,
          behind: null,
          deprecated: false,
          deprecationMessage: null,
          yanked: false,
          endOfLife: false,
          endOfLifeReason: null,
          unlisted: false,
        } satisfies DependencyDrift);
}

/** The repository's totals at the scan, dated by when the scan finished (or was queued). */
export async function saveRepositoryDrift(
  db: Kysely<DB>,
  { repositoryId, scanId }: SnapshotKey,
  totals: ReturnType<typeof totalDrift>,
  now: Date,
  earlier?: ReportedTotals | null,
): Promise<boolean> {
  const scan = await db
    .selectFrom('scans')
    .select(['finished_at', 'queued_at'])
    .where('id', '=', scanId)
    .executeTakeFirst();
  const before =
    earlier === undefined ? await reportedTotals(db, { repositoryId, scanId }) : earlier;
  const scannedAt = scan?.finished_at ?? scan?.queued_at ?? now;
  const values = {
    scanned_at: scannedAt,
    computed_at: now,
    dependency_count: totals.dependencyCount,
    measured_count: totals.measuredCount,
    pending_count: totals.pendingCount,
    outdated_count: totals.outdatedCount,
    libyear_total: totals.libyearTotal,
    major_behind: totals.majorBehind,
    minor_behind: totals.minorBehind,
    patch_behind: totals.patchBehind,
    deprecated_count: totals.deprecatedCount,
    yanked_count: totals.yankedCount,
    end_of_life_count: totals.endOfLifeCount,
  };
  await db
    .insertInto('repository_drift')
    .values({ repository_id: repositoryId, scan_id: scanId, ...values })
    .onConflict((oc) => oc.columns(['tenant_id', 'repository_id', 'scan_id']).doUpdateSet(values))
    .execute();
  // numeric columns come back as text: compared as numbers.
  return (
    before !== undefined &&
    before !== null &&
    REPORTED_TOTALS.some((column) => Number(before[column]) !== Number(values[column]))
  );
}

/** Each dependency's drift at the scan, replacing an earlier computation of the same scan. */
async function saveDependencyDrift(
  db: Kysely<DB>,
  { repositoryId, scanId }: SnapshotKey,
  used: readonly UsedDependency[],
  outcomes: readonly DriftOutcome[],
  catalogue: Catalogue,
): Promise<string[]> {
  const before = await db
    .deleteFrom('dependency_drift')
    .where('repository_id', '=', repositoryId)
    .where('scan_id', '=', scanId)
    .returning(DRIFT_FACT_COLUMNS)
    .execute();
  const driftRows = used.map((u, i) =>
    driftRow({ repositoryId, scanId }, u, outcomes[i] as DriftOutcome, catalogue),
  );
  for (let i = 0; i < driftRows.length; i += 1000) {
    await db
      .insertInto('dependency_drift')
      .values(driftRows.slice(i, i + 1000))
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
  return changedPackages(before, driftRows);
}

/** The stored row of one dependency's drift at the scan. */
export function driftRow(
  { repositoryId, scanId }: SnapshotKey,
  u: UsedDependency,
  o: DriftOutcome,
  catalogue: Catalogue,
) {
  const measured = o.state === 'measured' ? o : null;
  return {
    repository_id: repositoryId,
    scan_id: scanId,
    package_id: u.packageId,
    used_version: (u.version ?? '').slice(0, 256),
    resolution: u.resolution,
    state: o.state,
    compared_version: measured?.comparedVersion ?? null,
    latest_stable:
      measured?.latestStable ?? catalogue.metadata.get(u.packageId)?.latest_stable ?? null,
    libyear: measured?.libyear ?? null,
    major_behind: measured?.behind?.major ?? null,
    minor_behind: measured?.behind?.minor ?? null,
    patch_behind: measured?.behind?.patch ?? null,
    deprecated: measured?.deprecated ?? false,
    yanked: measured?.yanked ?? false,
    end_of_life: measured?.endOfLife ?? false,
  };
}

/** What policies read of a drift row (docs/policies.md#facts, `drift`). */
export const DRIFT_FACT_COLUMNS = [
  'package_id',
  'used_version',
  'state',
  'latest_stable',
  'libyear',
  'major_behind',
  'minor_behind',
  'patch_behind',
  'deprecated',
  'yanked',
  'end_of_life',
] as const;
export type DriftFactRow = Record<(typeof DRIFT_FACT_COLUMNS)[number], unknown>;

/** The packages whose drift facts differ between two versions of a snapshot (new, gone, changed). */
export function changedPackages(
  before: readonly DriftFactRow[],
  after: readonly DriftFactRow[],
): string[] {
  // numeric columns come back as text from the database and as numbers from the computation.
  const fingerprint = (row: DriftFactRow) =>
    DRIFT_FACT_COLUMNS.map((column) => {
      const value = row[column];
      return value === null || value === undefined
        ? ''
        : String(Number.isNaN(Number(value)) ? value : Number(value));
    }).join('\u0000');
  const key = (row: DriftFactRow) =>
    compositeKey(String(row.package_id), String(row.used_version ?? ''));
  const old = new Map(before.map((row) => [key(row), fingerprint(row)]));
  const changed = new Set<string>();
  for (const row of after) {
    if (old.get(key(row)) !== fingerprint(row)) changed.add(String(row.package_id));
    old.delete(key(row));
  }
  for (const gone of old.keys()) changed.add(keyParts(gone)[0] ?? '');
  return [...changed];
}

/** Snapshots still waiting for metadata of these packages, across tenants (system connection). */
export async function pendingSnapshots(
  system: Kysely<DB>,
  packageIds: readonly string[],
): Promise<{ tenant_id: string; repository_id: string; scan_id: string }[]> {
  if (packageIds.length === 0) return [];
  return system
    .selectFrom('dependency_drift')
    .select(['tenant_id', 'repository_id', 'scan_id'])
    .distinct()
    .where('state', '=', 'pending')
    .where('package_id', 'in', packageIds)
    .limit(1000)
    .execute();
}
