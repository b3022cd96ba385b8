import type { Kysely } from 'kysely';
import type { Principal } from '../../../core/principal';
import { notFound, unprocessable } from '../../../core/problem';
import type { DB } from '../../../db/schema';
import { emitViolationsChanged } from './events';
import { triage } from './state-machine';
import { findViolation, lockViolation, setTriage, type ViolationRow } from './store';

/**
 * A person's move of a violation (PATCH). A move the state table does not allow is a 422 with
 * `errors.status`; `details` is filled before any check so refused attempts are audited too.
 */
export async function triageViolation(
  db: Kysely<DB>,
  principal: Principal,
  request: { violationId: string; status: string; reason?: string | null },
  details: Record<string, unknown>,
): Promise<ViolationRow> {
  details.requested = { status: request.status, reason: request.reason ?? null };
  const current = await lockViolation(db, request.violationId);
  if (!current) throw notFound('The policy violation');
  details.from = current.status;
  const outcome = triage(current.status, request.status.trim().toLowerCase(), request.reason);
  if (!outcome.ok) throw unprocessable('The status change is not allowed.', outcome.errors);
  await setTriage(db, current.id, {
    status: outcome.status,
    reason: outcome.reason,
    actorTokenId: principal.tokenId,
  });
  details.to = outcome.status;
  if (outcome.status !== current.status) {
    await emitViolationsChanged(db, {
      tenantId: principal.tenantId,
      repositoryIds: [current.repository_id],
    });
  }
  const row = await findViolation(db, current.id);
  if (!row) throw notFound('The policy violation');
  return row;
}
