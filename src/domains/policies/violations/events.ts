import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema';
import { emitEvent } from '../../events';

/**
 * `policy_violations.changed`, in the transaction of the change (docs/events.md): once per
 * repository whose violations an evaluation, a person's triage or an exception moved. The
 * dashboard's rollups refresh on it (open violations per day).
 */
export async function emitViolationsChanged(
  db: Kysely<DB>,
  input: {
    tenantId: string;
    repositoryIds: Iterable<string>;
    scanId?: string;
    correlationId?: string | null;
  },
): Promise<void> {
  for (const repositoryId of new Set(input.repositoryIds)) {
    await emitEvent(db, 'policy_violations.changed', {
      tenantId: input.tenantId,
      data: input.scanId ? { repositoryId, scanId: input.scanId } : { repositoryId },
      correlationId: input.correlationId ?? null,
    });
  }
}

/** Whether an evaluation moved any violation in or out of a status (not a fact refresh). */
export const violationsMoved = (counts: {
  opened: number;
  reopened: number;
  excepted: number;
  resolved: number;
}): boolean => counts.opened + counts.reopened + counts.excepted + counts.resolved > 0;
