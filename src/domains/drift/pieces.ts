import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { type Kysely, sql } from 'kysely';
import type { Config } from '../../config';
import { compositeKey } from '../../core/composite-key';
import type { Database } from '../../db/connection';
import type { DB } from '../../db/schema';
import { withTenant } from '../../db/tenant-scope';
import { totalDrift } from '../../intel/drift/drift';
import { emitEvent } from '../events';
import { COUNTED_DEPENDENCY_SQL } from '../repositories/counted-dependencies';
import { loadCatalogue } from './catalogue';
import { emitDriftChanged } from './events';
import {
  changedPackages,
  DRIFT_FACT_COLUMNS,
  type DriftOutcome,
  driftOf,
  driftRow,
  type ReportedTotals,
  reportedTotals,
  type SnapshotKey,
  saveRepositoryDrift,
  snapshotRepositoryDrift,
  totalsInput,
  type UsedDependency,
} from './service';

/**
 * A scan's drift snapshot computed in pieces (docs/operations.md, "Long work in pieces"): each
 * piece of the scan's dependencies is read, measured and upserted in its own short transaction,
 * and the repository's totals are written last, in one more. On the embedded database (one
 * connection) requests get the connection between pieces; a snapshot of 158,877 dependencies in
 * one transaction held it for minutes. Readers may see some rows of a recomputation before
 * others; every row is whole, and the totals change once, at the end.
 */

/** Dependency rows per piece: on the embedded database a piece takes about 50-200 ms. */
export const DRIFT_PIECE_ROWS = 500;

interface PieceState {
  snapshot: SnapshotKey;
  tenantId: string;
  /** Package and version keys already measured (the same pin in two manifests counts once). */
  seen: Set<string>;
  outcomes: DriftOutcome[];
  afterId: string | null;
}

/** Whether the scan's dependencies are the repository's current ones. */
async function isCurrent(db: Kysely<DB>, { repositoryId, scanId }: SnapshotKey) {
  const row = await db
    .selectFrom('repositories')
    .select('dependency_scan_id')
    .where('id', '=', repositoryId)
    .executeTakeFirst();
  return row?.dependency_scan_id === scanId;
}

/** The next piece of the scan's counted dependency rows, by row id. */
function nextRows(db: Kysely<DB>, state: PieceState, size: number) {
  let query = db
    .selectFrom('repository_dependencies')
    .select(['id', 'package_id', 'ecosystem', 'version', 'resolution', 'source'])
    .where('repository_id', '=', state.snapshot.repositoryId)
    .where('scan_id', '=', state.snapshot.scanId)
    .where(sql.raw<boolean>(COUNTED_DEPENDENCY_SQL));
  if (state.afterId) query = query.where('id', '>', state.afterId);
  return query.orderBy('id').limit(size).execute();
}

/** One piece: measures and upserts its rows; false when there were none left. */
async function measurePiece(
  db: Kysely<DB>,
  state: PieceState,
  settings: Config['packageIntel'],
  now: Date,
  size: number,
): Promise<boolean> {
  await sql`SELECT pg_advisory_xact_lock(hashtext(${`drift:${state.snapshot.scanId}`}))`.execute(
    db,
  );
  const rows = await nextRows(db, state, size);
  if (rows.length === 0) return false;
  state.afterId = rows.at(-1)?.id ?? null;
  const used: UsedDependency[] = [];
  for (const row of rows) {
    const key = compositeKey(row.package_id, row.version ?? '');
    if (state.seen.has(key)) continue;
    state.seen.add(key);
    used.push({
      packageId: row.package_id,
      ecosystem: row.ecosystem,
      version: row.version,
      resolution: row.resolution,
      source: row.source as UsedDependency['source'],
    });
  }
  if (used.length === 0) return true;
  const packageIds = [...new Set(used.map((u) => u.packageId))];
  const catalogue = await loadCatalogue(db, packageIds);
  const outcomes = used.map((u) => driftOf(u, catalogue, settings, now));
  state.outcomes.push(...outcomes);
  const after = used.map((u, i) =>
    driftRow(state.snapshot, u, outcomes[i] as DriftOutcome, catalogue),
  );
  const keys = new Set(after.map((r) => compositeKey(r.package_id, r.used_version)));
  const before = (
    await db
      .selectFrom('dependency_drift')
      .select(DRIFT_FACT_COLUMNS)
      .where('repository_id', '=', state.snapshot.repositoryId)
      .where('scan_id', '=', state.snapshot.scanId)
      .where('package_id', 'in', packageIds)
      .execute()
  ).filter((r) => keys.has(compositeKey(r.package_id, r.used_version)));
  await upsertDriftRows(db, after);
  const changed = changedPackages(before, after);
  await emitDriftChanged(db, state.tenantId, state.snapshot.repositoryId, changed);
  return true;
}

async function upsertDriftRows(db: Kysely<DB>, rows: readonly ReturnType<typeof driftRow>[]) {
  for (let i = 0; i < rows.length; i += 1000) {
    await db
      .insertInto('dependency_drift')
      .values(rows.slice(i, i + 1000))
      .onConflict((oc) =>
        oc
          .columns(['tenant_id', 'repository_id', 'scan_id', 'package_id', 'used_version'])
          .doUpdateSet((eb) => ({
            resolution: eb.ref('excluded.resolution'),
            state: eb.ref('excluded.state'),
            compared_version: eb.ref('excluded.compared_version'),
            latest_stable: eb.ref('excluded.latest_stable'),
            libyear: eb.ref('excluded.libyear'),
            major_behind: eb.ref('excluded.major_behind'),
            minor_behind: eb.ref('excluded.minor_behind'),
            patch_behind: eb.ref('excluded.patch_behind'),
            deprecated: eb.ref('excluded.deprecated'),
            yanked: eb.ref('excluded.yanked'),
            end_of_life: eb.ref('excluded.end_of_life'),
          })),
      )
      .execute();
  }
}

/**
 * The first piece: the totals stored before (to tell a recomputation's change) and, for a first
 * computation, the snapshot's row, all pending, which the rows refer to. Null: the scan's
 * dependencies are not the repository's current ones.
 */
async function beginSnapshot(db: Kysely<DB>, snapshot: SnapshotKey, now: Date) {
  if (!(await isCurrent(db, snapshot))) return null;
  const before = (await reportedTotals(db, snapshot)) ?? null;
  if (before) return { before };
  const pending = totalDrift([]);
  await saveRepositoryDrift(db, snapshot, pending, now, null);
  return { before };
}

/**
 * Computes and stores the drift snapshot of one repository at one scan, piece by piece. Returns
 * false when the scan's dependencies are no longer the repository's current ones.
 */
export async function snapshotDriftInPieces(
  database: Database,
  target: { tenantId: string; repositoryId: string; scanId: string },
  settings: Config['packageIntel'],
  now = new Date(),
  size = DRIFT_PIECE_ROWS,
): Promise<boolean> {
  const { tenantId, repositoryId, scanId } = target;
  const snapshot = { repositoryId, scanId };
  const begun = await withTenant(database, tenantId, (db) => beginSnapshot(db, snapshot, now));
  // Not current (replaced, or a scan that stored nothing): the one-transaction path decides.
  if (!begun)
    return withTenant(database, tenantId, (db) =>
      snapshotRepositoryDrift(db, tenantId, repositoryId, scanId, settings, now),
    );
  const state: PieceState = { snapshot, tenantId, seen: new Set(), outcomes: [], afterId: null };
  for (;;) {
    const more = await withTenant(database, tenantId, (db) =>
      measurePiece(db, state, settings, now, size),
    );
    if (!more) break;
    await yieldToEventLoop();
  }
  return withTenant(database, tenantId, (db) => finishSnapshot(db, state, begun.before, now));
}

/** The last piece: the totals, and `drift.updated` when a recomputation moved them. */
async function finishSnapshot(
  db: Kysely<DB>,
  state: PieceState,
  before: ReportedTotals | null,
  now: Date,
): Promise<boolean> {
  // Replaced meanwhile: its rows stay as measured, the newer scan has its own snapshot.
  if (!(await isCurrent(db, state.snapshot))) return false;
  const totals = totalDrift(state.outcomes.map(totalsInput));
  const updated = await saveRepositoryDrift(db, state.snapshot, totals, now, before);
  // The first computation is part of its scan, whose own events follow.
  if (updated)
    await emitEvent(db, 'drift.updated', { tenantId: state.tenantId, data: state.snapshot });
  return true;
}
