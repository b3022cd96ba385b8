import { type Kysely, sql } from 'kysely';
import { Type } from 'typebox';
import { newId } from '../../db/ids';
import type { DB } from '../../db/schema';
import { defineJob, type PayloadOf } from '../../jobs/contract';
import { enqueue } from '../../jobs/outbox';
import type { SendResult } from './send';
import { type DeliveryStatus, SYSTEM_OWNER } from './tables';

/** The job that makes the first attempt of freshly queued deliveries (docs/integrations.md). */
export const ATTEMPT_DELIVERIES = defineJob({
  name: 'outbound-deliveries.attempt',
  payload: Type.Object({ deliveryIds: Type.Array(Type.String()) }),
  // A floor: the delivery jobs read the expiry from the webhook timeout (./jobs.ts).
  expireInSeconds: 60,
  retryLimit: 3,
});

export type AttemptDeliveriesJob = PayloadOf<typeof ATTEMPT_DELIVERIES>;

export interface QueueDeliveriesInput {
  /** Null: system-owned deliveries (written through the system connection). */
  tenantId: string | null;
  targetKind: string;
  targetIds: readonly string[];
  eventType: string;
  payload: Record<string, unknown>;
  correlationId?: string | null;
}

/**
 * One pending delivery per target, and the outbox job that attempts them, in the caller's
 * transaction: they exist exactly when the change that caused them commits. Returns their ids.
 * System-owned deliveries (no tenant) have no outbox job (the job outbox is tenant data): the
 * workers' dispatcher takes them within `webhooks.pollMs`, being due at once.
 */
export async function queueDeliveries(
  db: Kysely<DB>,
  input: QueueDeliveriesInput,
): Promise<string[]> {
  if (input.targetIds.length === 0) return [];
  const payload = JSON.stringify(input.payload);
  const rows = input.targetIds.map((targetId) => ({
    ...(input.tenantId === null ? { tenant_id: SYSTEM_OWNER } : {}),
    id: newId(),
    target_kind: input.targetKind,
    target_id: targetId,
    event_type: input.eventType,
    payload,
    next_attempt_at: sql<Date>`now()`,
  }));
  await db.insertInto('outbound_deliveries').values(rows).execute();
  const deliveryIds = rows.map((row) => row.id);
  if (input.tenantId === null) return deliveryIds;
  await enqueue(db, ATTEMPT_DELIVERIES, {
    tenantId: input.tenantId,
    data: { deliveryIds },
    correlationId: input.correlationId ?? null,
  });
  return deliveryIds;
}

/**
 * Takes a due delivery for one attempt: counts the attempt and holds it until `leaseMs` from
 * now. Null when it is not pending, not yet due, or held by an attempt in flight. A worker that
 * dies mid-attempt holds it until the lease runs out; then any worker takes it again.
 */
export async function claimDelivery(db: Kysely<DB>, deliveryId: string, leaseMs: number) {
  return db
    .updateTable('outbound_deliveries')
    .set({
      attempt_count: sql`attempt_count + 1`,
      lease_until: sql<Date>`now() + ${`${leaseMs} milliseconds`}::interval`,
      updated_at: sql<Date>`now()`,
    })
    .where('id', '=', deliveryId)
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', sql<Date>`now()`)
    .where((eb) =>
      eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', sql<Date>`now()`)]),
    )
    .returningAll()
    .executeTakeFirst();
}

export type ClaimedDelivery = NonNullable<Awaited<ReturnType<typeof claimDelivery>>>;

/** Writes one attempt and moves the delivery on: finished, or pending until `retryAt`. */
export async function recordAttempt(
  db: Kysely<DB>,
  delivery: ClaimedDelivery,
  result: SendResult,
  next: { status: DeliveryStatus; retryAt: Date | null },
): Promise<void> {
  await db
    .insertInto('outbound_delivery_attempts')
    .values({
      // Explicit: the system connection has no scope to default a system-owned attempt's owner.
      tenant_id: delivery.tenant_id,
      delivery_id: delivery.id,
      attempt: delivery.attempt_count,
      started_at: result.startedAt,
      duration_ms: result.durationMs,
      status_code: result.statusCode,
      outcome: result.outcome,
      error: result.error,
    })
    .onConflict((oc) => oc.doNothing())
    .execute();
  const finished = next.status !== 'pending';
  await db
    .updateTable('outbound_deliveries')
    .set({
      status: next.status,
      next_attempt_at: next.retryAt,
      lease_until: null,
      last_status_code: result.statusCode,
      last_error: result.error,
      finished_at: finished ? sql<Date>`now()` : null,
      updated_at: sql<Date>`now()`,
    })
    .where('id', '=', delivery.id)
    // A later claim (this attempt outlived its lease) owns the delivery now.
    .where('attempt_count', '=', delivery.attempt_count)
    .execute();
}

/** Cancels a target's pending deliveries (it was disabled or deleted). Returns how many. */
export async function cancelPendingDeliveries(
  db: Kysely<DB>,
  targetKind: string,
  targetId: string,
  reason: string,
): Promise<number> {
  const result = await db
    .updateTable('outbound_deliveries')
    .set({
      status: 'cancelled',
      next_attempt_at: null,
      lease_until: null,
      last_error: reason,
      finished_at: sql<Date>`now()`,
      updated_at: sql<Date>`now()`,
    })
    .where('target_kind', '=', targetKind)
    .where('target_id', '=', targetId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Removes a target's deliveries and their attempts (the target itself is deleted). */
export async function deleteDeliveriesOf(
  db: Kysely<DB>,
  targetKind: string,
  targetId: string,
): Promise<void> {
  await db
    .deleteFrom('outbound_deliveries')
    .where('target_kind', '=', targetKind)
    .where('target_id', '=', targetId)
    .execute();
}

/** Which target a delivery belongs to (never changes, so read without a lock). */
export async function deliveryTargetOf(db: Kysely<DB>, deliveryId: string) {
  return db
    .selectFrom('outbound_deliveries')
    .select(['target_kind', 'target_id'])
    .where('id', '=', deliveryId)
    .executeTakeFirst();
}

/** Locks a delivery for recording an attempt; undefined when it was deleted meanwhile. */
export async function lockDelivery(db: Kysely<DB>, deliveryId: string) {
  return db
    .selectFrom('outbound_deliveries')
    .select('id')
    .where('id', '=', deliveryId)
    .forUpdate()
    .executeTakeFirst();
}

export async function findDelivery(db: Kysely<DB>, deliveryId: string) {
  return db
    .selectFrom('outbound_deliveries')
    .selectAll()
    .where('id', '=', deliveryId)
    .executeTakeFirst();
}

export type DeliveryRow = NonNullable<Awaited<ReturnType<typeof findDelivery>>>;

export interface DeliveryWithAttempts {
  delivery: DeliveryRow;
  attempts: Array<{
    attempt: number;
    started_at: Date;
    duration_ms: number;
    status_code: number | null;
    outcome: string;
    error: string | null;
  }>;
}

/** A target's deliveries, newest first, each with its attempts in order. */
export async function listDeliveries(
  db: Kysely<DB>,
  targetKind: string,
  targetId: string,
  page: { take: number; skip: number },
): Promise<{ rows: DeliveryWithAttempts[]; total: number }> {
  const base = db
    .selectFrom('outbound_deliveries')
    .where('target_kind', '=', targetKind)
    .where('target_id', '=', targetId);
  const [deliveries, count] = await Promise.all([
    base
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.take)
      .offset(page.skip)
      .execute(),
    base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  const ids = deliveries.map((row) => row.id);
  const attempts =
    ids.length === 0
      ? []
      : await db
          .selectFrom('outbound_delivery_attempts')
          .select(['delivery_id', 'attempt', 'started_at', 'duration_ms', 'status_code'])
          .select(['outcome', 'error'])
          .where('delivery_id', 'in', ids)
          .orderBy('attempt')
          .execute();
  const rows = deliveries.map((delivery) => ({
    delivery,
    attempts: attempts.filter((attempt) => attempt.delivery_id === delivery.id),
  }));
  return { rows, total: Number(count.n) };
}

/**
 * Due deliveries of every tenant and the system-owned ones (the system connection; each is then
 * claimed in its own scope).
 */
export async function dueDeliveries(
  system: Kysely<DB>,
  limit: number,
): Promise<Array<{ tenant_id: string | null; id: string }>> {
  const rows = await system
    .selectFrom('outbound_deliveries')
    .select(['tenant_id', 'id'])
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', sql<Date>`now()`)
    .where((eb) =>
      eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', sql<Date>`now()`)]),
    )
    .orderBy('next_attempt_at')
    .limit(limit)
    .execute();
  // Null names the system connection's scope to the attempt (./attempt.ts).
  return rows.map((row) => ({
    tenant_id: row.tenant_id === SYSTEM_OWNER ? null : row.tenant_id,
    id: row.id,
  }));
}
