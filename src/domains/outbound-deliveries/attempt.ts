import { readFileSync } from 'node:fs';
import type { Kysely } from 'kysely';
import type { Config } from '../../config';
import type { Database } from '../../db/connection';
import type { DB } from '../../db/schema';
import { withTenant } from '../../db/tenant-scope';
import { outboundPolicy, type Resolver } from '../../security/outbound-guard';
import { retryDelayMs } from './schedule';
import { type SendResult, sendSigned } from './send';
import {
  type ClaimedDelivery,
  cancelPendingDeliveries,
  claimDelivery,
  deliveryTargetOf,
  dueDeliveries,
  lockDelivery,
  recordAttempt,
} from './store';
import type { DeliveryTarget, DeliveryTargetKinds } from './targets';

/** What attempting deliveries needs; built once by deliveryContext. */
export interface DeliveryContext {
  database: Database;
  config: Pick<Config, 'outbound' | 'webhooks'>;
  targets: DeliveryTargetKinds;
  ca: string | null;
  log: (message: string, details?: object) => void;
  /** The name resolver of the outbound guard (tests inject one; default: the system's). */
  resolve?: Resolver;
}

export function deliveryContext(
  deps: Omit<DeliveryContext, 'ca'> & { config: Pick<Config, 'outbound' | 'webhooks'> },
): DeliveryContext {
  const ca = deps.config.webhooks.caFile ? readFileSync(deps.config.webhooks.caFile, 'utf8') : null;
  return { ...deps, ca };
}

/** An attempt may outlive its request timeout by this much before another worker takes over. */
const LEASE_MARGIN_MS = 30_000;

type Claimed = { delivery: ClaimedDelivery; target: DeliveryTarget } | null;

/** A transaction in the delivery's scope: its tenant's, or the system connection's (no tenant). */
function inScope<T>(
  context: DeliveryContext,
  tenantId: string | null,
  work: (db: Kysely<DB>) => Promise<T>,
): Promise<T> {
  if (tenantId === null) return context.database.system.transaction().execute(work);
  return withTenant(context.database, tenantId, work);
}

async function claim(context: DeliveryContext, tenantId: string | null, deliveryId: string) {
  const leaseMs = context.config.webhooks.timeoutMs + LEASE_MARGIN_MS;
  return inScope(context, tenantId, async (db): Promise<Claimed> => {
    // The target first, then the delivery (the lock order in targets.ts).
    const owned = await deliveryTargetOf(db, deliveryId);
    const owner = owned ? context.targets[owned.target_kind] : undefined;
    if (owned && owner) await owner.lock(db, owned.target_id);
    const delivery = await claimDelivery(db, deliveryId, leaseMs);
    if (!delivery) return null;
    const target = owner ? await owner.load(db, delivery.target_id) : null;
    if (!target?.active) {
      const reason = target ? 'the target is disabled' : 'the target was deleted';
      await cancelPendingDeliveries(db, delivery.target_kind, delivery.target_id, reason);
      return null;
    }
    return { delivery, target };
  });
}

async function record(
  context: DeliveryContext,
  tenantId: string | null,
  claimed: NonNullable<Claimed>,
  result: SendResult,
): Promise<void> {
  const { delivery } = claimed;
  const settings = context.config.webhooks;
  const exhausted = result.outcome === 'failed' && delivery.attempt_count >= settings.maxAttempts;
  const next =
    result.outcome === 'succeeded'
      ? { status: 'succeeded' as const, retryAt: null }
      : result.outcome === 'gone' || exhausted
        ? { status: 'failed' as const, retryAt: null }
        : {
            status: 'pending' as const,
            retryAt: new Date(Date.now() + retryDelayMs(settings, delivery.attempt_count)),
          };
  const owner = context.targets[delivery.target_kind];
  await inScope(context, tenantId, async (db) => {
    // The target first, then the delivery (the lock order in targets.ts). Deleted with its
    // target while the request was out: nothing left to record.
    if (owner && !(await owner.lock(db, delivery.target_id))) return;
    if (!(await lockDelivery(db, delivery.id))) return;
    await recordAttempt(db, delivery, result, next);
    await owner?.attempted(db, {
      tenantId,
      targetId: delivery.target_id,
      deliveryId: delivery.id,
      outcome: result.outcome,
      exhausted,
    });
  });
}

/**
 * One attempt of one delivery if it is due and free: claim (short transaction), send with no
 * transaction held, record the outcome and tell the target's owner (second transaction).
 * Returns whether an attempt was made.
 */
export async function attemptDelivery(
  context: DeliveryContext,
  tenantId: string | null,
  deliveryId: string,
): Promise<boolean> {
  const claimed = await claim(context, tenantId, deliveryId);
  if (!claimed) return false;
  const { delivery, target } = claimed;
  const result = await sendSigned(
    target.url,
    target.secret,
    {
      id: delivery.id,
      type: delivery.event_type,
      occurredAt: delivery.created_at,
      data: delivery.payload,
    },
    {
      policy: outboundPolicy(context.config, target.outboundKind, tenantId, context.resolve),
      timeoutMs: context.config.webhooks.timeoutMs,
      ...(context.ca ? { ca: context.ca } : {}),
    },
  );
  await record(context, tenantId, claimed, result);
  context.log('outbound delivery attempted', {
    deliveryId: delivery.id,
    attempt: delivery.attempt_count,
    outcome: result.outcome,
    statusCode: result.statusCode,
  });
  return true;
}

/** Attempts every due delivery of every tenant, a few at a time. Returns how many were tried. */
export async function dispatchDueDeliveries(
  context: DeliveryContext,
  limit = 100,
  concurrency = 8,
): Promise<number> {
  const due = await dueDeliveries(context.database.system, limit);
  let next = 0;
  let attempted = 0;
  const lane = async () => {
    while (next < due.length) {
      const row = due[next++];
      if (!row) return;
      try {
        if (await attemptDelivery(context, row.tenant_id, row.id)) attempted++;
      } catch (error) {
        // The delivery keeps its state; its lease runs out and the next pass tries again.
        context.log('outbound delivery attempt failed', { deliveryId: row.id, err: error });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, due.length) }, lane));
  return attempted;
}
