import type { Kysely } from 'kysely';
import type { Config } from '../../config';
import { conflict, FieldErrorCollector, notFound } from '../../core/problem';
import { newId } from '../../db/ids';
import type { DB } from '../../db/schema';
import type { RequestScope } from '../../http/request-scope';
import { checkUrl, OutboundRefusedError, outboundPolicy } from '../../security/outbound-guard';
import type { SecretBox } from '../../security/secret-box';
import { emitEvent } from '../events';
import { generateSigningSecret } from '../outbound-deliveries/send';
import {
  cancelPendingDeliveries,
  deleteDeliveriesOf,
  findDelivery,
  queueDeliveries,
} from '../outbound-deliveries/store';
import type { DeliveryTargetKind } from '../outbound-deliveries/targets';
import { INTEGRATION_TARGET } from './deliver';
import {
  deleteIntegration,
  findIntegration,
  findSealedSecret,
  type IntegrationChanges,
  insertIntegration,
  markDeliveryOutcome,
  type PublicIntegration,
  updateIntegration,
} from './store';
import type { DisabledReason } from './tables';

/**
 * Webhook integrations (docs/integrations.md): the one module that changes an integration's
 * state — created active, disabled by a user, by a 410 or by a delivery out of attempts
 * (which emits `integration.disabled`), re-enabled only by a user.
 */
export const TEST_EVENT_TYPE = 'integration.test';

const MAX_URL_LENGTH = 2048;

function readName(errors: FieldErrorCollector, raw: string): string {
  const name = raw.trim();
  if (name === '' || name.length > 200) errors.add('name', 'must be 1 to 200 characters');
  return name;
}

/** Shape rules of a target URL (no network): https, no credentials, no fragment. */
function readUrl(errors: FieldErrorCollector, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    errors.add('url', 'must be an absolute https URL');
    return raw;
  }
  if (url.protocol !== 'https:') errors.add('url', 'must use https');
  else if (url.username || url.password) errors.add('url', 'must not carry credentials');
  else if (url.hash) errors.add('url', 'must not have a fragment');
  else if (url.href.length > MAX_URL_LENGTH) {
    errors.add('url', `must be at most ${MAX_URL_LENGTH} characters`);
  }
  return url.href;
}

/**
 * The outbound guard's verdict on a target, with no transaction held while the name resolves:
 * an internal address in any spelling, or a name resolving to one, is a 422 on `url`.
 */
async function checkTarget(
  scope: RequestScope,
  config: Config,
  tenantId: string,
  url: string,
): Promise<void> {
  const policy = outboundPolicy(config, 'webhooks', tenantId);
  try {
    await scope.outside(() => checkUrl(url, policy, ['https:']));
  } catch (error) {
    if (!(error instanceof OutboundRefusedError)) throw error;
    const errors = new FieldErrorCollector();
    errors.add('url', error.message);
    errors.throwIfAny(422, 'The target address is not allowed.');
  }
}

export interface CreateWebhookRequest {
  name: string;
  url: string;
}

export async function createWebhookIntegration(
  scope: RequestScope,
  deps: { config: Config; secretBox: SecretBox },
  tenantId: string,
  request: CreateWebhookRequest,
): Promise<{ integration: PublicIntegration; secret: string }> {
  const errors = new FieldErrorCollector();
  const name = readName(errors, request.name);
  const url = readUrl(errors, request.url);
  errors.throwIfAny(422);
  await checkTarget(scope, deps.config, tenantId, url);
  const secret = generateSigningSecret();
  const integration = await insertIntegration(scope.db(), {
    id: newId(),
    name,
    url,
    secretSealed: deps.secretBox.seal(secret),
  });
  return { integration, secret };
}

export interface UpdateIntegrationRequest {
  name?: string;
  url?: string;
  enabled?: boolean;
}

export async function changeIntegration(
  scope: RequestScope,
  config: Config,
  tenantId: string,
  integrationId: string,
  request: UpdateIntegrationRequest,
): Promise<PublicIntegration> {
  // Locked first: its deliveries are touched below (lock order, outbound-deliveries/targets.ts).
  if (!(await findIntegration(scope.db(), integrationId, true))) throw notFound('The integration');
  const errors = new FieldErrorCollector();
  const changes: IntegrationChanges = {};
  if (request.name !== undefined) changes.name = readName(errors, request.name);
  if (request.url !== undefined) changes.url = readUrl(errors, request.url);
  errors.throwIfAny(422);
  if (changes.url !== undefined) await checkTarget(scope, config, tenantId, changes.url);
  if (request.enabled !== undefined) changes.status = request.enabled ? 'active' : 'disabled';
  const db = scope.db();
  const updated = await updateIntegration(db, integrationId, changes);
  if (!updated) throw notFound('The integration');
  if (changes.status === 'disabled') {
    await cancelPendingDeliveries(db, INTEGRATION_TARGET, integrationId, 'the target is disabled');
  }
  return updated;
}

export async function rotateSigningSecret(
  db: Kysely<DB>,
  secretBox: SecretBox,
  integrationId: string,
): Promise<{ integration: PublicIntegration; secret: string }> {
  const secret = generateSigningSecret();
  const integration = await updateIntegration(db, integrationId, {
    secretSealed: secretBox.seal(secret),
  });
  if (!integration) throw notFound('The integration');
  return { integration, secret };
}

export async function removeIntegration(db: Kysely<DB>, integrationId: string): Promise<void> {
  // The integration before its deliveries (lock order, outbound-deliveries/targets.ts).
  if (!(await findIntegration(db, integrationId, true))) throw notFound('The integration');
  await deleteDeliveriesOf(db, INTEGRATION_TARGET, integrationId);
  if (!(await deleteIntegration(db, integrationId))) throw notFound('The integration');
}

/** Queues a test event to one integration (409 when it is disabled); returns the delivery. */
export async function sendTestEvent(
  db: Kysely<DB>,
  tenantId: string,
  integrationId: string,
  correlationId: string | null,
) {
  const integration = await findIntegration(db, integrationId, true);
  if (!integration) throw notFound('The integration');
  if (integration.status !== 'active') {
    throw conflict('The integration is disabled; enable it (PATCH enabled: true) first.');
  }
  const [deliveryId] = await queueDeliveries(db, {
    tenantId,
    targetKind: INTEGRATION_TARGET,
    targetIds: [integrationId],
    eventType: TEST_EVENT_TYPE,
    payload: {
      integrationId,
      message: 'A test event from Driftwatch: the integration receives and verifies deliveries.',
    },
    correlationId,
  });
  const delivery = deliveryId ? await findDelivery(db, deliveryId) : undefined;
  if (!delivery) throw new Error('the queued test delivery is missing');
  return delivery;
}

/** The system disables an integration: pending deliveries cancelled, the event emitted once. */
async function disableAutomatically(
  db: Kysely<DB>,
  tenantId: string,
  integrationId: string,
  reason: Exclude<DisabledReason, 'manual'>,
): Promise<void> {
  const current = await findIntegration(db, integrationId, true);
  if (current?.status !== 'active') return;
  await updateIntegration(db, integrationId, { status: 'disabled', disabledReason: reason });
  await cancelPendingDeliveries(db, INTEGRATION_TARGET, integrationId, 'the target is disabled');
  await emitEvent(db, 'integration.disabled', {
    tenantId,
    data: { integrationId, name: current.name, reason },
  });
}

/** The delivery module's view of integrations (registered by the composition root). */
export function integrationDeliveryTarget(secretBox: SecretBox): DeliveryTargetKind {
  return {
    load: async (db, targetId) => {
      const row = await findSealedSecret(db, targetId);
      if (!row) return null;
      return {
        url: row.url,
        secret: secretBox.open(row.secret_sealed),
        active: row.status === 'active',
        outboundKind: 'webhooks',
      };
    },
    lock: async (db, targetId) => (await findIntegration(db, targetId, true)) !== undefined,
    attempted: async (db, report) => {
      await markDeliveryOutcome(db, report.targetId, report.outcome === 'succeeded');
      // Integrations are tenant-owned: their deliveries always carry the tenant.
      if (report.tenantId === null) return;
      if (report.outcome === 'gone') {
        await disableAutomatically(db, report.tenantId, report.targetId, 'gone');
      } else if (report.exhausted) {
        await disableAutomatically(db, report.tenantId, report.targetId, 'failing');
      }
    },
  };
}
