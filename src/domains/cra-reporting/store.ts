import { type Insertable, type Kysely, type Selectable, sql } from 'kysely';
import { type TakeSkip, type TakeSkipPage, takeSkipPage } from '../../db/paging';
import type { DB } from '../../db/schema';
import type { ClockKind } from './clocks/rules';
import type { CraClockTable, CraIncidentTable, CraReportPackTable } from './tables';

export type ClockRow = Selectable<CraClockTable>;
export type IncidentRow = Selectable<CraIncidentTable>;

/** A report pack without its stored documents (listing, status). */
export type PackSummaryRow = Omit<Selectable<CraReportPackTable>, 'content' | 'pdf'>;

const PACK_SUMMARY = [
  'id',
  'tenant_id',
  'product_id',
  'state',
  'requested_by_token_id',
  'error',
  'created_at',
  'started_at',
  'finished_at',
] as const;

export async function productExists(db: Kysely<DB>, productId: string): Promise<boolean> {
  const row = await db
    .selectFrom('cra_products')
    .select('id')
    .where('id', '=', productId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Inserts clocks; one of a kind that already exists for the same trigger is left alone. */
export async function insertClocks(
  db: Kysely<DB>,
  clocks: Insertable<CraClockTable>[],
): Promise<ClockRow[]> {
  if (clocks.length === 0) return [];
  return db
    .insertInto('cra_clocks')
    .values(clocks)
    .onConflict((oc) => oc.doNothing())
    .returningAll()
    .execute();
}

export async function findClock(
  db: Kysely<DB>,
  clockId: string,
  lock = false,
): Promise<ClockRow | undefined> {
  let query = db.selectFrom('cra_clocks').selectAll().where('id', '=', clockId);
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

/** The clocks of one vulnerability in one product (every kind). */
export async function vulnerabilityClocks(
  db: Kysely<DB>,
  productId: string,
  vulnerabilityId: string,
): Promise<ClockRow[]> {
  return db
    .selectFrom('cra_clocks')
    .selectAll()
    .where('product_id', '=', productId)
    .where('trigger', '=', 'vulnerability')
    .where('vulnerability_id', '=', vulnerabilityId)
    .forUpdate()
    .execute();
}

export async function listProductClocks(db: Kysely<DB>, productId: string): Promise<ClockRow[]> {
  return db
    .selectFrom('cra_clocks')
    .selectAll()
    .where('product_id', '=', productId)
    .orderBy('started_at')
    .orderBy('due_at')
    .orderBy('id')
    .execute();
}

/** Running clocks due at or before `until` (overdue ones included), soonest first. */
export async function listDueClocks(db: Kysely<DB>, until: Date): Promise<ClockRow[]> {
  return db
    .selectFrom('cra_clocks')
    .selectAll()
    .where('state', '=', 'running')
    .where('due_at', '<=', until)
    .orderBy('due_at')
    .orderBy('id')
    .execute();
}

export async function recordClockSubmission(
  db: Kysely<DB>,
  clockId: string,
  values: {
    state: 'met' | 'missed';
    submittedAt: Date;
    reference: string;
    note: string | null;
    tokenId: string;
  },
): Promise<ClockRow> {
  return db
    .updateTable('cra_clocks')
    .set({
      state: values.state,
      submitted_at: values.submittedAt,
      submission_reference: values.reference,
      submission_note: values.note,
      submitted_by_token_id: values.tokenId,
      missed_at: sql`CASE WHEN ${values.state} = 'missed' THEN coalesce(missed_at, due_at) END`,
      updated_at: sql`now()`,
    })
    .where('id', '=', clockId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function insertIncident(
  db: Kysely<DB>,
  values: Insertable<CraIncidentTable>,
): Promise<IncidentRow> {
  return db.insertInto('cra_incidents').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function findIncident(
  db: Kysely<DB>,
  incidentId: string,
): Promise<IncidentRow | undefined> {
  return db.selectFrom('cra_incidents').selectAll().where('id', '=', incidentId).executeTakeFirst();
}

export async function listIncidents(
  db: Kysely<DB>,
  filter: { productId?: string },
  page: TakeSkip,
): Promise<TakeSkipPage<IncidentRow>> {
  let query = db.selectFrom('cra_incidents');
  if (filter.productId) query = query.where('product_id', '=', filter.productId);
  return takeSkipPage(
    query,
    (filtered) => filtered.selectAll().orderBy('aware_at', 'desc').orderBy('id', 'desc'),
    page,
  );
}

export async function clocksOfIncidents(
  db: Kysely<DB>,
  incidentIds: readonly string[],
): Promise<ClockRow[]> {
  if (incidentIds.length === 0) return [];
  return db
    .selectFrom('cra_clocks')
    .selectAll()
    .where('incident_id', 'in', incidentIds)
    .orderBy('started_at')
    .orderBy('due_at')
    .execute();
}

/** Tenants with running clocks that passed their due time or their warning time. */
export async function tenantsWithClocksToSweep(system: Kysely<DB>, now: Date): Promise<string[]> {
  const rows = await system
    .selectFrom('cra_clocks')
    .select('tenant_id')
    .distinct()
    .where('state', '=', 'running')
    .where((eb) =>
      eb.or([
        eb('due_at', '<=', now),
        eb.and([eb('due_alerted_at', 'is', null), eb(warnTime(), '<=', now)]),
      ]),
    )
    .execute();
  return rows.map((row) => row.tenant_id);
}

/** A quarter of the clock's span before its due time, at most 24 h (clocks/rules.ts warnAt). */
function warnTime() {
  return sql<Date>`due_at - least((due_at - started_at) / 4, interval '24 hours')`;
}

/** Running clocks past due become missed; returns them. */
export async function markMissed(db: Kysely<DB>, now: Date): Promise<ClockRow[]> {
  return db
    .updateTable('cra_clocks')
    .set({ state: 'missed', missed_at: now, updated_at: sql`now()` })
    .where('state', '=', 'running')
    .where('due_at', '<=', now)
    .returningAll()
    .execute();
}

/** Running clocks past their warning time not yet alerted: marks and returns them. */
export async function claimDueSoon(db: Kysely<DB>, now: Date): Promise<ClockRow[]> {
  return db
    .updateTable('cra_clocks')
    .set({ due_alerted_at: now, updated_at: sql`now()` })
    .where('state', '=', 'running')
    .where('due_alerted_at', 'is', null)
    .where(warnTime(), '<=', now)
    .returningAll()
    .execute();
}

export async function hasClockOfKind(
  db: Kysely<DB>,
  incidentId: string,
  kind: ClockKind,
): Promise<boolean> {
  const row = await db
    .selectFrom('cra_clocks')
    .select('id')
    .where('incident_id', '=', incidentId)
    .where('kind', '=', kind)
    .executeTakeFirst();
  return row !== undefined;
}

// Report packs

export async function insertPack(
  db: Kysely<DB>,
  values: { id: string; productId: string; tokenId: string | null },
): Promise<PackSummaryRow> {
  return db
    .insertInto('cra_report_packs')
    .values({
      id: values.id,
      product_id: values.productId,
      requested_by_token_id: values.tokenId,
      content: null,
      pdf: null,
      error: null,
      started_at: null,
      finished_at: null,
    })
    .returning(PACK_SUMMARY)
    .executeTakeFirstOrThrow();
}

export async function findPackSummary(
  db: Kysely<DB>,
  packId: string,
): Promise<PackSummaryRow | undefined> {
  return db
    .selectFrom('cra_report_packs')
    .select(PACK_SUMMARY)
    .where('id', '=', packId)
    .executeTakeFirst();
}

export async function findPackDocuments(
  db: Kysely<DB>,
  packId: string,
): Promise<{ content: object | null; pdf: Buffer | null } | undefined> {
  return db
    .selectFrom('cra_report_packs')
    .select(['content', 'pdf'])
    .where('id', '=', packId)
    .executeTakeFirst();
}

export async function listPacks(
  db: Kysely<DB>,
  filter: { productId?: string },
  page: TakeSkip,
): Promise<TakeSkipPage<PackSummaryRow>> {
  let query = db.selectFrom('cra_report_packs');
  if (filter.productId) query = query.where('product_id', '=', filter.productId);
  return takeSkipPage(
    query,
    (filtered) => filtered.select(PACK_SUMMARY).orderBy('created_at', 'desc').orderBy('id', 'desc'),
    page,
  );
}

/** queued → generating; undefined when the pack is gone or not queued (a retry after a crash). */
export async function claimPack(
  db: Kysely<DB>,
  packId: string,
): Promise<PackSummaryRow | undefined> {
  return db
    .updateTable('cra_report_packs')
    .set({ state: 'generating', started_at: sql`now()` })
    .where('id', '=', packId)
    .where('state', 'in', ['queued', 'generating'])
    .returning(PACK_SUMMARY)
    .executeTakeFirst();
}

export async function finishPack(
  db: Kysely<DB>,
  packId: string,
  result: { content: object; pdf: Buffer } | { error: string },
): Promise<void> {
  const values =
    'error' in result
      ? { state: 'failed' as const, error: result.error }
      : { state: 'ready' as const, content: JSON.stringify(result.content), pdf: result.pdf };
  await db
    .updateTable('cra_report_packs')
    .set({ ...values, finished_at: sql`now()` })
    .where('id', '=', packId)
    .execute();
}
