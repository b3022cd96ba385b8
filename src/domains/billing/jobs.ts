import { Type } from 'typebox';
import type { Database } from '../../db/connection';
import { withTenant } from '../../db/tenant-scope';
import { defineJob, jobDefinition } from '../../jobs/contract';
import type { JobDefinition } from '../../jobs/queue';
import { insertAuditEntry } from '../audit-log/store';
import type { JobDeps } from '../job-deps';
import { FALLBACK_PLAN, settlePlan } from './state';

/**
 * Ends the grace periods that ran out (docs/billing.md#grace-period): every five minutes, each
 * tenant whose unpaid invoice's grace ended and that is not yet on the fallback plan falls back
 * to it. Its data stays; the lower plan's features and limits apply from its next request.
 */
export const GRACE_EXPIRED = defineJob({
  name: 'billing.grace-expired',
  payload: Type.Object({}),
  expireInSeconds: 300,
  retryLimit: 3,
  schedule: '*/5 * * * *',
});

export async function endExpiredGracePeriods(
  database: Database,
  now = new Date(),
): Promise<number> {
  const due = await database.system
    .selectFrom('billing_accounts')
    .innerJoin('tenants', 'tenants.id', 'billing_accounts.tenant_id')
    .select('billing_accounts.tenant_id')
    .where('billing_accounts.grace_ends_at', '<=', now)
    .where('tenants.plan', '<>', FALLBACK_PLAN)
    .execute();
  let fellBack = 0;
  for (const { tenant_id: tenantId } of due) {
    await withTenant(database, tenantId, async (db) => {
      const account = await db
        .selectFrom('billing_accounts')
        .selectAll()
        .forUpdate()
        .executeTakeFirst();
      if (!account) return;
      const change = await settlePlan(db, tenantId, account, now);
      if (!change) return;
      fellBack++;
      await insertAuditEntry(db, {
        actorTokenId: null,
        action: 'billing.plan_changed',
        resourceType: 'tenant',
        resourceId: tenantId,
        outcome: 'success',
        statusCode: 200,
        ip: null,
        correlationId: `billing.grace-expired ${now.toISOString()}`,
        details: { ...change, graceEndedAtUtc: account.grace_ends_at?.toISOString() ?? null },
      });
    });
  }
  return fellBack;
}

export function billingJobs(deps: JobDeps): JobDefinition[] {
  return [
    jobDefinition(GRACE_EXPIRED, async () => {
      const fellBack = await endExpiredGracePeriods(deps.database);
      if (fellBack > 0) deps.log('billing grace periods ended', { tenants: fellBack });
    }),
  ];
}
