import type { Kysely } from 'kysely';
import type { Principal } from '../../core/principal';
import { badRequest, notFound, unprocessable } from '../../core/problem';
import type { DB } from '../../db/schema';
import { parseEnum } from '../../http/query';
import { emitStatusChanged } from './matching/events';
import { applyTransition } from './state-machine';
import {
  type ExposureRow,
  findExposure,
  lockExposure,
  reopenExpiredAcceptances,
  updateExposureStatus,
} from './store';
import { EXPOSURE_STATUSES } from './tables';

export interface TriageBody {
  status: string;
  justification?: string | null;
  reason?: string | null;
  expiresAtUtc?: string | null;
}

export interface TriageOutcome {
  exposure: ExposureRow;
  from: string;
  to: string;
}

/**
 * A person's status change (PATCH). Expired acceptances are reopened first, so the move is
 * checked against the status the exposure really has now. Not allowed → 422 with `errors.status`;
 * missing justification, reason or expiry → 422 keyed by that field. `details` is filled before
 * any check so that refused attempts are audited with what was asked.
 */
export async function triageExposure(
  db: Kysely<DB>,
  principal: Principal,
  exposureId: string,
  body: TriageBody,
  details: Record<string, unknown>,
): Promise<TriageOutcome> {
  details.requested = {
    status: body.status,
    justification: body.justification ?? null,
    reason: body.reason ?? null,
    expiresAtUtc: body.expiresAtUtc ?? null,
  };
  const status = parseEnum('status', body.status, EXPOSURE_STATUSES);
  if (!status) throw badRequest('status is required.', { status: ['is required'] });
  await reopenExpiredAcceptances(db, principal.tenantId);
  const current = await lockExposure(db, exposureId);
  if (!current) throw notFound('The vulnerability exposure');
  details.from = current.status;
  const expiresAt = body.expiresAtUtc ? new Date(body.expiresAtUtc) : null;
  const outcome = applyTransition(
    current.status,
    { status, justification: body.justification, reason: body.reason, expiresAt },
    new Date(),
  );
  if (!outcome.ok) {
    throw unprocessable('The status change is not allowed.', outcome.errors);
  }
  await updateExposureStatus(db, exposureId, {
    status: outcome.outcome.status,
    justification: outcome.outcome.justification,
    reason: outcome.outcome.reason,
    acceptedUntil: outcome.outcome.acceptedUntil,
    actorTokenId: principal.tokenId,
  });
  details.to = outcome.outcome.status;
  if (outcome.outcome.status !== current.status) {
    await emitStatusChanged(db, principal.tenantId, [
      { repositoryId: current.repository_id, packageId: current.package_id },
    ]);
  }
  const exposure = await findExposure(db, exposureId);
  if (!exposure) throw notFound('The vulnerability exposure');
  return { exposure, from: current.status, to: outcome.outcome.status };
}
