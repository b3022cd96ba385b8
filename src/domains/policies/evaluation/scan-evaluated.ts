import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema';
import { appendScanLog } from '../../scans/store';
import type { EvaluationCounts } from './evaluate';

/**
 * The step of the scan log line that says a scan's policy evaluation is done
 * (docs/policies.md#ci-gate). `driftwatch gate` waits for it on GET /api/v1/scans/{id}/logs
 * instead of guessing how long the evaluation takes.
 */
export const POLICIES_STEP = 'policies';

/** What the line says: the counts, or that nothing applied (still written: nothing to wait for). */
export function evaluatedMessage(counts: EvaluationCounts): string {
  if (counts.policies === 0) return 'policies evaluated: no enabled policy applies';
  return (
    `policies evaluated: ${counts.policies} policies over ${counts.dependencies} dependencies; ` +
    `opened ${counts.opened}, reopened ${counts.reopened}, excepted ${counts.excepted}, ` +
    `resolved ${counts.resolved}`
  );
}

/**
 * Marks the scan evaluated, in the evaluation's own transaction (the line commits with the
 * violations it reports, so whoever reads it reads them too). False when the scan is gone.
 */
export async function markScanEvaluated(
  db: Kysely<DB>,
  scanId: string,
  counts: EvaluationCounts,
): Promise<boolean> {
  const scan = await db
    .selectFrom('scans')
    .select('id')
    .where('id', '=', scanId)
    .executeTakeFirst();
  if (!scan) return false;
  await appendScanLog(db, {
    scanId,
    level: 'info',
    step: POLICIES_STEP,
    message: evaluatedMessage(counts),
  });
  return true;
}
