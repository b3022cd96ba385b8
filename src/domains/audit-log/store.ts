import type { Kysely } from 'kysely';
import { storableText } from '../../core/storable-text';
import { newId } from '../../db/ids';
import { type TakeSkip, takeSkipPage } from '../../db/paging';
import type { DB } from '../../db/schema';

export type AuditOutcome =
  | 'success'
  | 'invalid'
  | 'denied'
  | 'not_found'
  | 'conflict'
  | 'aborted'
  | 'error';

export interface AuditEntry {
  actorTokenId: string | null;
  action: string;
  resourceType: string;
  resourceId: string | null;
  outcome: AuditOutcome;
  statusCode: number;
  ip: string | null;
  correlationId: string;
  details: Record<string, unknown> | null;
}

export function outcomeFor(status: number): AuditOutcome {
  if (status < 400) return 'success';
  if (status === 403) return 'denied';
  if (status === 404) return 'not_found';
  if (status === 409) return 'conflict';
  // 499: the client closed the connection before a response (the pipeline's abort status).
  if (status === 499) return 'aborted';
  if (status >= 500) return 'error';
  return 'invalid';
}

/** NUL and unpaired surrogates cannot be stored as text; they become U+FFFD. */
function storable(text: string): string;
function storable(text: string | null): string | null;
function storable(text: string | null): string | null {
  return text === null ? null : storableText(text);
}

/**
 * The details as jsonb-safe JSON text. JSON.stringify escapes NUL as \u0000 and an unpaired
 * surrogate as \udXXX (a paired one is written as is); an escape preceded by an odd number of
 * backslashes is a literal backslash in the value, not an escape, and is kept.
 */
function storableDetails(details: Record<string, unknown> | null): string | null {
  if (!details) return null;
  return JSON.stringify(details).replace(
    /(?<!\\)((?:\\\\)*)\\u(?:0000|d[89a-f][0-9a-f]{2})/gi,
    '$1\\ufffd',
  );
}

/**
 * Writes one entry; `db` is a tenant-scoped connection, so the row belongs to that tenant (the
 * column defaults to the scope, migration 0009; row-level security refuses any other). Text
 * from the request (a resource id taken from a path that failed validation) is made storable, so
 * that the entry of a refused request is never lost to the text it was refused for.
 */
export async function insertAuditEntry(db: Kysely<DB>, entry: AuditEntry): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      id: newId(),
      actor_token_id: entry.actorTokenId,
      action: storable(entry.action),
      resource_type: storable(entry.resourceType),
      resource_id: storable(entry.resourceId),
      outcome: entry.outcome,
      status_code: entry.statusCode,
      ip: entry.ip,
      correlation_id: storable(entry.correlationId),
      details: storableDetails(entry.details),
    })
    .execute();
}

export interface AuditFilter {
  action?: string;
  resourceType?: string;
  actorTokenId?: string;
  from?: Date;
  to?: Date;
}

function filtered(db: Kysely<DB>, filter: AuditFilter) {
  let query = db.selectFrom('audit_log');
  if (filter.action) query = query.where('action', '=', filter.action);
  if (filter.resourceType) query = query.where('resource_type', '=', filter.resourceType);
  if (filter.actorTokenId) query = query.where('actor_token_id', '=', filter.actorTokenId);
  if (filter.from) query = query.where('occurred_at', '>=', filter.from);
  if (filter.to) query = query.where('occurred_at', '<=', filter.to);
  return query;
}

export async function listAuditEntries(db: Kysely<DB>, filter: AuditFilter, page: TakeSkip) {
  return takeSkipPage(
    filtered(db, filter),
    (query) => query.selectAll().orderBy('occurred_at', 'desc').orderBy('id', 'desc'),
    page,
  );
}

/** Keyset batches, newest first, for the NDJSON export (runs inside one repeatable-read snapshot). */
export async function* auditEntriesInBatches(db: Kysely<DB>, batchSize = 500) {
  let after: { occurredAt: Date; id: string } | null = null;
  for (;;) {
    let query = db.selectFrom('audit_log').selectAll();
    if (after) {
      const cursor: { occurredAt: Date; id: string } = after;
      query = query.where((eb) =>
        eb.or([
          eb('occurred_at', '<', cursor.occurredAt),
          eb.and([eb('occurred_at', '=', cursor.occurredAt), eb('id', '<', cursor.id)]),
        ]),
      );
    }
    const rows = await query
      .orderBy('occurred_at', 'desc')
      .orderBy('id', 'desc')
      .limit(batchSize)
      .execute();
    if (rows.length === 0) return;
    yield rows;
    const last = rows[rows.length - 1];
    if (!last || rows.length < batchSize) return;
    after = { occurredAt: last.occurred_at, id: last.id };
  }
}
