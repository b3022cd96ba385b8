import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema';
import type { Watermark } from './facts';
import type { DestinationKind, RunState, RunTrigger } from './tables';

/** Destinations as callers see them (never the sealed secret). */
const DESTINATION_COLUMNS = ['id', 'kind', 'name', 'target', 'created_at', 'last_run_at'] as const;

const RUN_COLUMNS = [
  'id',
  'destination_id',
  'state',
  'trigger',
  'rows',
  'bytes',
  'duration_ms',
  'tables',
  'errors',
  'created_at',
  'started_at',
  'finished_at',
] as const;

export async function insertDestination(
  db: Kysely<DB>,
  values: { id: string; kind: DestinationKind; name: string; target: string; sealed: string },
) {
  return db
    .insertInto('analytics_export_destinations')
    .values({
      id: values.id,
      kind: values.kind,
      name: values.name,
      target: values.target,
      secret_sealed: values.sealed,
    })
    .returning(DESTINATION_COLUMNS)
    .executeTakeFirstOrThrow();
}

export type PublicDestination = Awaited<ReturnType<typeof insertDestination>>;

export async function listDestinations(db: Kysely<DB>): Promise<PublicDestination[]> {
  return db
    .selectFrom('analytics_export_destinations')
    .select(DESTINATION_COLUMNS)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function findDestination(db: Kysely<DB>, id: string) {
  return db
    .selectFrom('analytics_export_destinations')
    .select(DESTINATION_COLUMNS)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function findSealedDestination(db: Kysely<DB>, id: string) {
  return db
    .selectFrom('analytics_export_destinations')
    .select(['id', 'kind', 'target', 'secret_sealed'])
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function deleteDestination(db: Kysely<DB>, id: string): Promise<boolean> {
  const deleted = await db
    .deleteFrom('analytics_export_destinations')
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0;
}

export async function insertRun(
  db: Kysely<DB>,
  values: { id: string; destinationId: string; trigger: RunTrigger },
) {
  return db
    .insertInto('analytics_export_runs')
    .values({ id: values.id, destination_id: values.destinationId, trigger: values.trigger })
    .returning(RUN_COLUMNS)
    .executeTakeFirstOrThrow();
}

export type ExportRun = Awaited<ReturnType<typeof insertRun>>;

export async function recentRuns(
  db: Kysely<DB>,
  destinationId: string,
  limit: number,
): Promise<ExportRun[]> {
  return db
    .selectFrom('analytics_export_runs')
    .select(RUN_COLUMNS)
    .where('destination_id', '=', destinationId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** Marks a queued run running; undefined when it is gone or already finished. */
export async function claimRun(db: Kysely<DB>, runId: string) {
  return db
    .updateTable('analytics_export_runs')
    .set({ state: 'running', started_at: sql<Date>`now()` })
    .where('id', '=', runId)
    .where('state', 'in', ['queued', 'running'])
    .returning(['id', 'destination_id'])
    .executeTakeFirst();
}

export interface RunOutcome {
  state: Extract<RunState, 'succeeded' | 'failed'>;
  rows: number;
  bytes: number;
  durationMs: number;
  tables: Record<string, number>;
  errors: string[];
}

export async function finishRun(
  db: Kysely<DB>,
  run: { id: string; destinationId: string },
  outcome: RunOutcome,
): Promise<void> {
  await db
    .updateTable('analytics_export_runs')
    .set({
      state: outcome.state,
      rows: outcome.rows,
      bytes: outcome.bytes,
      duration_ms: outcome.durationMs,
      tables: JSON.stringify(outcome.tables),
      errors: outcome.errors,
      finished_at: sql<Date>`now()`,
    })
    .where('id', '=', run.id)
    .execute();
  await db
    .updateTable('analytics_export_destinations')
    .set({ last_run_at: sql<Date>`now()` })
    .where('id', '=', run.destinationId)
    .execute();
}

export async function readWatermark(
  db: Kysely<DB>,
  destinationId: string,
  fact: string,
): Promise<Watermark | null> {
  const row = await db
    .selectFrom('analytics_export_watermarks')
    .select([sql<string>`last_at::text`.as('last_at'), 'last_id'])
    .where('destination_id', '=', destinationId)
    .where('fact', '=', fact)
    .executeTakeFirst();
  return row ? { at: row.last_at, id: row.last_id } : null;
}

export async function writeWatermark(
  db: Kysely<DB>,
  destinationId: string,
  fact: string,
  mark: Watermark,
): Promise<void> {
  await db
    .insertInto('analytics_export_watermarks')
    .values({
      destination_id: destinationId,
      fact,
      last_at: sql<Date>`${mark.at}::timestamptz`,
      last_id: mark.id,
    })
    .onConflict((oc) =>
      oc.columns(['tenant_id', 'destination_id', 'fact']).doUpdateSet({
        last_at: sql<Date>`${mark.at}::timestamptz`,
        last_id: mark.id,
        updated_at: sql<Date>`now()`,
      }),
    )
    .execute();
}
