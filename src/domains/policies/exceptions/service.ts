import type { Kysely } from 'kysely';
import type { Principal } from '../../../core/principal';
import { badRequest, notFound, unprocessable } from '../../../core/problem';
import { newId } from '../../../db/ids';
import type { DB } from '../../../db/schema';
import { parseEnum } from '../../../http/query';
import { emitEvents, type PolicyViolationOpened } from '../../events';
import { EXCEPTION_SCOPES } from '../tables';
import { emitViolationsChanged } from '../violations/events';
import { MAX_REASON_LENGTH, systemMove } from '../violations/state-machine';
import { applySystemUpdates, lockViolation, type SystemUpdate } from '../violations/store';
import { coveringException } from './coverage';
import {
  activeExceptions,
  deleteException,
  type ExceptionRow,
  expireExceptions,
  insertException,
} from './store';

/**
 * Exceptions (docs/policies.md#exceptions): granting one moves the unresolved violations it
 * covers to `excepted`; its expiry or deletion releases them (`open`, unless another active
 * exception still covers them).
 */

const DAY_MS = 86_400_000;

export interface GrantBody {
  reason: string;
  expiresAtUtc: string;
  scope?: string;
}

function checkGrant(body: GrantBody, maxDays: number, now: Date) {
  const errors: Record<string, string[]> = {};
  const reason = body.reason.trim();
  if (!reason) errors.reason = ['is required'];
  else if (reason.length > MAX_REASON_LENGTH) {
    errors.reason = [`must be at most ${MAX_REASON_LENGTH} characters`];
  }
  const expiresAt = new Date(body.expiresAtUtc);
  if (Number.isNaN(expiresAt.getTime())) errors.expiresAtUtc = ['must be a date-time'];
  else if (expiresAt <= now) errors.expiresAtUtc = ['must be in the future'];
  else if (expiresAt.getTime() - now.getTime() > maxDays * DAY_MS) {
    errors.expiresAtUtc = [`must be at most ${maxDays} days ahead`];
  }
  if (Object.keys(errors).length > 0) throw unprocessable('The exception is not valid.', errors);
  return { reason, expiresAt };
}

export async function grantException(
  db: Kysely<DB>,
  principal: Principal,
  request: { violationId: string; body: GrantBody; maxDays: number },
  details: Record<string, unknown>,
): Promise<ExceptionRow> {
  const { body } = request;
  details.requested = { ...body };
  const scope = parseEnum('scope', body.scope, EXCEPTION_SCOPES) ?? 'violation';
  if (body.scope !== undefined && body.scope.trim() === '') {
    throw badRequest('scope must not be empty.', { scope: ['must not be empty'] });
  }
  const violation = await lockViolation(db, request.violationId);
  if (!violation) throw notFound('The policy violation');
  const now = new Date();
  const { reason, expiresAt } = checkGrant(body, request.maxDays, now);
  if (violation.status === 'resolved') {
    throw unprocessable('A resolved violation needs no exception: its condition no longer holds.');
  }
  const exception = await insertException(db, {
    id: newId(),
    policy_id: violation.policy_id,
    violation_id: violation.id,
    scope,
    repository_id: scope === 'tenant_package' ? null : violation.repository_id,
    package_id: violation.package_id,
    version: scope === 'violation' ? violation.version : null,
    reason,
    expires_at: expiresAt,
    created_by_token_id: principal.tokenId,
  });
  let candidates = db
    .selectFrom('policy_violations')
    .select(['id', 'status', 'repository_id'])
    .where('policy_id', '=', violation.policy_id)
    .where('package_id', '=', violation.package_id)
    .where('status', 'in', ['open', 'acknowledged', 'dismissed']);
  if (scope === 'violation') candidates = candidates.where('id', '=', violation.id);
  if (scope === 'repository_package') {
    candidates = candidates.where('repository_id', '=', violation.repository_id);
  }
  const updates: SystemUpdate[] = [];
  const repositoryIds: string[] = [];
  for (const candidate of await candidates.execute()) {
    const next = systemMove(candidate.status, { kind: 'exception_granted' });
    if (!next) continue;
    updates.push({ ...unchangedFacts(candidate.id, next), exceptionId: exception.id });
    repositoryIds.push(candidate.repository_id);
  }
  await applySystemUpdates(db, updates);
  await emitViolationsChanged(db, { tenantId: principal.tenantId, repositoryIds });
  details.exceptionId = exception.id;
  details.scope = scope;
  details.excepted = updates.map((u) => u.id);
  return exception;
}

const unchangedFacts = (id: string, status: SystemUpdate['status']): SystemUpdate => ({
  id,
  status,
  facts: null,
  severity: null,
  action: null,
  policyVersion: null,
});

/**
 * Releases what ended exceptions covered: to another active exception that covers it, else
 * `open` (with `policy_violation.opened`). Returns the ids that reopened.
 */
export async function releaseCovered(
  db: Kysely<DB>,
  tenantId: string,
  exceptionIds: readonly string[],
  correlationId: string | null,
): Promise<string[]> {
  if (exceptionIds.length === 0) return [];
  const covered = await db
    .selectFrom('policy_violations')
    .select(['id', 'status', 'policy_id', 'repository_id', 'package_id', 'severity', 'action'])
    .where('exception_id', 'in', exceptionIds)
    .where('status', '=', 'excepted')
    .execute();
  const others = await activeExceptions(
    db,
    [...new Set(covered.map((v) => v.policy_id))],
    new Date(),
  );
  const remaining = others.filter((e) => !exceptionIds.includes(e.id));
  const updates: SystemUpdate[] = [];
  const events: PolicyViolationOpened[] = [];
  for (const violation of covered) {
    const cover = coveringException(remaining, {
      policyId: violation.policy_id,
      repositoryId: violation.repository_id,
      packageId: violation.package_id,
      violationId: violation.id,
    });
    if (cover) {
      updates.push({ ...unchangedFacts(violation.id, 'excepted'), exceptionId: cover.id });
      continue;
    }
    const next = systemMove(violation.status, { kind: 'exception_ended' }) ?? violation.status;
    updates.push({ ...unchangedFacts(violation.id, next), exceptionId: null });
    events.push({
      policyId: violation.policy_id,
      violationId: violation.id,
      repositoryId: violation.repository_id,
      packageId: violation.package_id,
      severity: violation.severity,
      action: violation.action,
    });
  }
  await applySystemUpdates(db, updates);
  await emitEvents(db, 'policy_violation.opened', { tenantId, data: events, correlationId });
  await emitViolationsChanged(db, {
    tenantId,
    repositoryIds: events.map((e) => e.repositoryId),
    correlationId,
  });
  return events.map((e) => e.violationId);
}

export async function removeException(
  db: Kysely<DB>,
  principal: Principal,
  request: { exceptionId: string; correlationId: string },
  details: Record<string, unknown>,
): Promise<void> {
  const removed = await deleteException(db, request.exceptionId);
  if (!removed) throw notFound('The policy exception');
  details.exception = {
    policyId: removed.policy_id,
    scope: removed.scope,
    packageId: removed.package_id,
    repositoryId: removed.repository_id,
    reason: removed.reason,
    expiresAtUtc: removed.expires_at.toISOString(),
  };
  details.reopened = await releaseCovered(
    db,
    principal.tenantId,
    [removed.id],
    request.correlationId,
  );
}

/** The expiry job's work for one tenant: expire, release, and audit each as the system's. */
export async function expireTenantExceptions(
  db: Kysely<DB>,
  tenantId: string,
  audit: (exception: ExceptionRow, reopened: string[]) => Promise<void>,
): Promise<number> {
  const expired = await expireExceptions(db);
  for (const exception of expired) {
    const reopened = await releaseCovered(db, tenantId, [exception.id], null);
    await audit(exception, reopened);
  }
  return expired.length;
}
