import { badRequest, ProblemError } from '../../core/problem';
import type { Database } from '../../db/connection';
import { withTenant } from '../../db/tenant-scope';
import type { SecretBox } from '../../security/secret-box';
import { insertAuditEntry } from '../audit-log/store';
import { applyBillingEvent } from './apply';
import { type BillingEvent, parseBillingEvent } from './events';
import { openProviderSecrets } from './secrets';
import { type HeaderBag, readSignatureHeaders, verifyDelivery } from './signature';

/**
 * POST /api/v1/webhooks/billing-provider (docs/billing.md#the-webhook). In this order: the
 * body's size (its parser), the signature headers (before the body is read), the signing time,
 * the signature over the raw bytes (one HMAC pass per secret), and only then the JSON. A
 * verified event is stored and applied in its tenant's transaction; any failure there is a 500,
 * nothing is kept, and the provider's retry applies it.
 */
export interface BillingIngestDeps {
  database: Database;
  secretBox: SecretBox;
  graceDays: number;
  warn: (message: string) => void;
}

export interface BillingDelivery {
  headers: HeaderBag;
  raw: Buffer;
  ip: string;
  correlationId: string;
  now?: Date;
}

export interface IngestResult {
  eventId: string;
  /** applied, stale, ignored, duplicate (a replay: nothing changed) or unmatched. */
  outcome: string;
}

/** Refuses a delivery whose signature headers are missing or malformed (an onRequest check). */
export function requireSignatureHeaders(headers: HeaderBag): void {
  const read = readSignatureHeaders(headers);
  if (typeof read === 'string') throw badRequest(read);
}

async function verified(deps: BillingIngestDeps, delivery: BillingDelivery, now: Date) {
  const signed = readSignatureHeaders(delivery.headers);
  if (typeof signed === 'string') throw badRequest(signed);
  const secrets = await openProviderSecrets(deps.database.system, deps.secretBox);
  if (secrets.length === 0) {
    // Not the provider's fault: a 500 makes it retry until the operator sets a secret.
    deps.warn('billing provider delivery refused: no billing provider secret is configured');
    throw new ProblemError(500, 'No billing provider secret is configured; retry later.');
  }
  const check = verifyDelivery(signed, delivery.raw, secrets, now.getTime());
  if (!check.ok) throw badRequest(check.detail);
}

/** The tenant an event belongs to: its customer's account, else the tenant it names. */
async function tenantOf(
  database: Database,
  event: BillingEvent,
): Promise<{ tenantId: string } | { unmatched: string }> {
  const system = database.system;
  // The routing directory, not a scan of every tenant's accounts (docs/scaling.md).
  const route = await system
    .selectFrom('tenant_routes')
    .select('owner_tenant')
    .where('kind', '=', 'billing-customer')
    .where('key', '=', event.customerId)
    .executeTakeFirst();
  if (route) return { tenantId: route.owner_tenant };
  if (!event.tenantId) return { unmatched: 'unknown customer and no data.tenantId' };
  const tenant = await system
    .selectFrom('tenants')
    .leftJoin('billing_accounts', 'billing_accounts.tenant_id', 'tenants.id')
    .select(['tenants.id', 'billing_accounts.customer_id'])
    .where('tenants.id', '=', event.tenantId)
    .executeTakeFirst();
  if (!tenant) return { unmatched: 'data.tenantId names no tenant' };
  if (tenant.customer_id && tenant.customer_id !== event.customerId) {
    return { unmatched: 'the tenant is linked to another customer' };
  }
  return { tenantId: tenant.id };
}

export async function ingestBillingDelivery(
  deps: BillingIngestDeps,
  delivery: BillingDelivery,
): Promise<IngestResult> {
  const now = delivery.now ?? new Date();
  await verified(deps, delivery, now);
  const event = parseBillingEvent(delivery.raw);
  const payload = delivery.raw.toString('utf8');
  const owner = await tenantOf(deps.database, event);
  if ('unmatched' in owner) {
    const inserted = await deps.database.system
      .insertInto('billing_unmatched_events')
      .values({
        event_id: event.id,
        type: event.providerType,
        customer_id: event.customerId,
        occurred_at: event.occurredAt,
        reason: owner.unmatched,
        payload,
      })
      .onConflict((conflict) => conflict.column('event_id').doNothing())
      .returning('event_id')
      .executeTakeFirst();
    return { eventId: event.id, outcome: inserted ? 'unmatched' : 'duplicate' };
  }
  const applied = await withTenant(deps.database, owner.tenantId, async (db) => {
    const result = await applyBillingEvent(db, event, payload, {
      tenantId: owner.tenantId,
      graceDays: deps.graceDays,
      now,
    });
    if (result.outcome === 'duplicate') return result;
    await insertAuditEntry(db, {
      actorTokenId: null,
      action: 'billing.event',
      resourceType: 'billing_event',
      resourceId: result.eventRowId,
      outcome: 'success',
      statusCode: 202,
      ip: delivery.ip,
      correlationId: delivery.correlationId,
      details: { eventId: event.id, type: event.providerType, outcome: result.outcome },
    });
    if (result.plan) {
      await insertAuditEntry(db, {
        actorTokenId: null,
        action: 'billing.plan_changed',
        resourceType: 'tenant',
        resourceId: owner.tenantId,
        outcome: 'success',
        statusCode: 202,
        ip: delivery.ip,
        correlationId: delivery.correlationId,
        details: { ...result.plan, eventId: event.id },
      });
    }
    return result;
  });
  return { eventId: event.id, outcome: applied.outcome };
}
