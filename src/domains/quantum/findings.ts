import { type Kysely, type Selectable, sql } from 'kysely';
import { iso } from '../../core/iso-time';
import type { Principal } from '../../core/principal';
import { badRequest, notFound, unprocessable } from '../../core/problem';
import type { DB } from '../../db/schema';
import { parseEnum } from '../../http/query';
import { applyTransition } from '../exposures/state-machine';
import { EXPOSURE_STATUSES, type ExposureStatus } from '../exposures/tables';
import type { QuantumFindingTable } from './tables';

/**
 * Quantum findings of a repository (docs/quantum.md#findings-in-source-code): listing and
 * triage. Triage follows the exposures' state machine (the same statuses, justification and
 * acceptance rules); `fixed` is the system's word for a finding the latest scan no longer saw.
 */

type FindingRow = Selectable<QuantumFindingTable>;

export async function repositoryExists(db: Kysely<DB>, repositoryId: string): Promise<boolean> {
  const row = await db
    .selectFrom('repositories')
    .select('id')
    .where('id', '=', repositoryId)
    .executeTakeFirst();
  return row !== undefined;
}

/** An acceptance past its expiry reopens (as for exposures), before anything reads statuses. */
export async function reopenExpiredFindings(db: Kysely<DB>, repositoryId: string): Promise<void> {
  await db
    .updateTable('quantum_findings')
    .set({
      status: 'open',
      accepted_until: null,
      status_reason: 'the risk acceptance expired',
      status_changed_at: sql<Date>`now()`,
      status_changed_by_token_id: null,
    })
    .where('repository_id', '=', repositoryId)
    .where('status', '=', 'accepted_risk')
    .where('accepted_until', '<=', sql<Date>`now()`)
    .execute();
}

export function statusOf(row: Pick<FindingRow, 'present' | 'status'>): ExposureStatus {
  return row.present ? row.status : 'fixed';
}

export function presentFinding(row: FindingRow) {
  return {
    findingId: row.id,
    repositoryId: row.repository_id,
    scanId: row.scan_id,
    firstSeenScanId: row.first_seen_scan_id,
    file: row.file,
    line: row.line,
    language: row.language,
    primitive: row.primitive,
    algorithm: row.algorithm,
    curve: row.curve,
    keySize: row.key_size,
    classification: row.classification,
    severity: row.severity,
    status: statusOf(row),
    justification: row.justification,
    statusReason: row.status_reason,
    acceptedUntilUtc: iso(row.accepted_until),
    recommendation: row.recommendation,
    snippet: row.snippet,
    api: row.api,
    purl: row.purl,
    firstSeenAtUtc: row.created_at.toISOString(),
    updatedAtUtc: row.updated_at.toISOString(),
  };
}

export interface FindingFilter {
  status?: ExposureStatus | undefined;
  severity?: string | undefined;
  scanId?: string | undefined;
}

export async function listFindings(
  db: Kysely<DB>,
  repositoryId: string,
  filter: FindingFilter,
  page: { take: number; skip: number },
): Promise<{ rows: FindingRow[]; total: number }> {
  let query = db.selectFrom('quantum_findings').where('repository_id', '=', repositoryId);
  if (filter.status === 'fixed') query = query.where('present', '=', false);
  else if (filter.status) {
    query = query.where('present', '=', true).where('status', '=', filter.status);
  }
  if (filter.severity) query = query.where('severity', '=', filter.severity);
  if (filter.scanId) query = query.where('scan_id', '=', filter.scanId);
  const rows = await query
    .selectAll()
    // Worst first within what the latest scan saw, then by place in the repository.
    .orderBy('present', 'desc')
    .orderBy(sql`array_position(array['high','medium','low','info'], severity)`)
    .orderBy('file')
    .orderBy('line')
    .orderBy('id')
    .limit(page.take)
    .offset(page.skip)
    .execute();
  const counted = await query.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirst();
  return { rows, total: Number(counted?.n ?? 0) };
}

export interface FindingTriageBody {
  status: string;
  justification?: string | null | undefined;
  reason?: string | null | undefined;
  expiresAtUtc?: string | null | undefined;
}

/** A person's triage of one finding: 404 for another repository's, 422 for a move not allowed. */
export async function triageFinding(
  db: Kysely<DB>,
  principal: Principal,
  target: { repositoryId: string; findingId: string },
  body: FindingTriageBody,
): Promise<{ row: FindingRow; from: ExposureStatus }> {
  const status = parseEnum('status', body.status, EXPOSURE_STATUSES);
  if (!status) throw badRequest('status is required.', { status: ['is required'] });
  await reopenExpiredFindings(db, target.repositoryId);
  const current = await db
    .selectFrom('quantum_findings')
    .selectAll()
    .where('repository_id', '=', target.repositoryId)
    .where('id', '=', target.findingId)
    .forUpdate()
    .executeTakeFirst();
  if (!current) throw notFound('The quantum finding');
  const from = statusOf(current);
  const expiresAt = body.expiresAtUtc ? new Date(body.expiresAtUtc) : null;
  const outcome = applyTransition(
    from,
    { status, justification: body.justification, reason: body.reason, expiresAt },
    new Date(),
  );
  if (!outcome.ok) throw unprocessable('The status change is not allowed.', outcome.errors);
  const row = await db
    .updateTable('quantum_findings')
    .set({
      status: outcome.outcome.status,
      justification: outcome.outcome.justification,
      status_reason: outcome.outcome.reason,
      accepted_until: outcome.outcome.acceptedUntil,
      status_changed_at: sql<Date>`now()`,
      status_changed_by_token_id: principal.tokenId,
      updated_at: sql<Date>`now()`,
    })
    .where('id', '=', current.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return { row, from };
}
