import type { Kysely } from 'kysely';
import { isUuid } from '../../core/uuid';
import type { DB } from '../../db/schema';
import { queueDeliveries } from '../outbound-deliveries/store';
import { activeIntegrationsAmong } from './store';

/** The delivery module's target kind for webhook integrations. */
export const INTEGRATION_TARGET = 'integration';

/**
 * Queues one signed delivery of `eventType` per enabled integration of the current tenant among
 * `integrationIds`, inside the caller's tenant-scoped transaction (they exist exactly when the
 * caller's change commits; docs/integrations.md#delivery). Ids of other tenants, deleted or
 * disabled integrations, and ids that are not UUIDs are skipped. Returns how many were queued.
 */
export async function queueEventDeliveries(
  db: Kysely<DB>,
  input: {
    integrationIds: readonly string[];
    eventType: string;
    payload: Record<string, unknown>;
  },
): Promise<number> {
  const ids = [...new Set(input.integrationIds)].filter((id) => isUuid(id));
  const targets = await activeIntegrationsAmong(db, ids);
  const tenantId = targets[0]?.tenant_id;
  if (!tenantId) return 0;
  const queued = await queueDeliveries(db, {
    tenantId,
    targetKind: INTEGRATION_TARGET,
    targetIds: targets.map((target) => target.id),
    eventType: input.eventType,
    payload: input.payload,
  });
  return queued.length;
}
