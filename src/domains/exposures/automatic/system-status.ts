import { type Kysely, sql } from 'kysely';
import { newId } from '../../../db/ids';
import type { DB } from '../../../db/schema';
import type { ExposureStatus } from '../tables';

/**
 * Status changes nobody made by hand: an acceptance that expired (docs/vulnerabilities.md#triage),
 * a triage rule that settles an exposure or whose revocation reopens it (docs/triage.md). This
 * module is the only writer of them; a person's change goes through the state machine and
 * `updateExposureStatus` (./store.ts).
 */
export type SystemStatusAction =
  | 'vulnerability_exposure.acceptance_expired'
  | 'vulnerability_exposure.triage_rule_applied'
  | 'vulnerability_exposure.triage_rule_revoked';

export interface SystemStatusChange {
  id: string;
  /**
   * The status the change was decided on, and its stamp as read (`statusStamp`): an exposure whose
   * status anyone has set since, even to the same value, is left as it is.
   */
  from: ExposureStatus;
  stamp: string | null;
  to: ExposureStatus;
  justification: string | null;
  reason: string | null;
  acceptedUntil: Date | null;
  /** The triage rule that decided the new status, or null (a rule's mark is cleared). */
  triageRuleId: string | null;
  /** The audit entry's details besides `from` and `to`. */
  details: Record<string, unknown>;
}

/**
 * When an exposure's status was last set, exact to the microsecond (text, not a Date, which would
 * keep milliseconds): every write of a status sets it, so it tells whether one happened since a
 * read. Selected as `status_stamp`.
 */
export function statusStamp(table: 'e' | null = null) {
  const column = table ? sql.ref(`${table}.status_changed_at`) : sql.ref('status_changed_at');
  return sql<string | null>`${column}::text`.as('status_stamp');
}

/** Rows per statement (one JSON parameter each). */
const CHUNK = 500;

/**
 * Applies the changes, each with its audit entry (`action`, no actor, one correlation id for the
 * call), the update and the entries of a chunk in one statement, so they are atomic even on a
 * read session. Returns the ids of the exposures it changed.
 */
export async function changeStatusBySystem(
  db: Kysely<DB>,
  action: SystemStatusAction,
  changes: readonly SystemStatusChange[],
): Promise<string[]> {
  const correlationId = newId();
  const changed: string[] = [];
  for (let i = 0; i < changes.length; i += CHUNK) {
    const chunk = changes.slice(i, i + CHUNK).map((change) => ({
      id: change.id,
      audit_id: newId(),
      from_status: change.from,
      stamp: change.stamp,
      to_status: change.to,
      justification: change.justification,
      reason: change.reason,
      accepted_until: change.acceptedUntil,
      triage_rule_id: change.triageRuleId,
      details: change.details,
    }));
    const { rows } = await sql<{ id: string }>`
      WITH x AS (
        SELECT * FROM jsonb_to_recordset(${JSON.stringify(chunk)}::jsonb) AS x(
          id uuid, audit_id uuid, from_status text, stamp timestamptz, to_status text,
          justification text, reason text, accepted_until timestamptz, triage_rule_id uuid,
          details jsonb)
      ), changed AS (
        UPDATE vulnerability_exposures e SET
          status = x.to_status, justification = x.justification, status_reason = x.reason,
          accepted_until = x.accepted_until, status_changed_at = now(),
          status_changed_by_token_id = NULL, triage_rule_id = x.triage_rule_id, updated_at = now()
        FROM x
        WHERE e.id = x.id AND e.status = x.from_status
          AND e.status_changed_at IS NOT DISTINCT FROM x.stamp
        RETURNING e.id
      ), audited AS (
        INSERT INTO audit_log (id, actor_token_id, action, resource_type, resource_id, outcome,
          status_code, ip, correlation_id, details)
        SELECT x.audit_id, NULL, ${action}, 'vulnerability_exposure', x.id::text, 'success', 200,
          NULL, ${correlationId},
          x.details || jsonb_build_object('from', x.from_status, 'to', x.to_status)
        FROM changed c JOIN x ON x.id = c.id
      )
      SELECT id FROM changed`.execute(db);
    changed.push(...rows.map((row) => row.id));
  }
  return changed;
}

/**
 * Withdraws a revoked rule's decisions: the exposures still in the status it gave go back to
 * `open` with their triage cleared (audited `vulnerability_exposure.triage_rule_revoked`), and
 * no exposure keeps the rule's mark. Returns the ids reopened.
 */
export async function reopenRuleDecisions(
  db: Kysely<DB>,
  rule: { id: string; status: ExposureStatus },
): Promise<string[]> {
  const decided = await db
    .selectFrom('vulnerability_exposures')
    .select(['id', statusStamp()])
    .where('triage_rule_id', '=', rule.id)
    .where('status', '=', rule.status)
    .execute();
  const reopened = await changeStatusBySystem(
    db,
    'vulnerability_exposure.triage_rule_revoked',
    decided.map((row) => ({
      id: row.id,
      from: rule.status,
      stamp: row.status_stamp,
      to: 'open',
      justification: null,
      reason: null,
      acceptedUntil: null,
      triageRuleId: null,
      details: { ruleId: rule.id },
    })),
  );
  await db
    .updateTable('vulnerability_exposures')
    .set({ triage_rule_id: null })
    .where('triage_rule_id', '=', rule.id)
    .execute();
  return reopened;
}
