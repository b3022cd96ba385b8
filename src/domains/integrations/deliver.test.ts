import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestTenant } from '../../../test/support/test-app';
import {
  receiverConfig,
  startWebhookReceiver,
  verifyDelivery,
  type WebhookReceiver,
} from '../../../test/support/webhook-receiver';
import { withTenant } from '../../db/tenant-scope';
import { queueEventDeliveries } from './deliver';

let t: TestApp;
let receiver: WebhookReceiver;
let tenant: TestTenant;
let other: TestTenant;

async function createWebhook(as: TestTenant, name: string) {
  const response = await t.as(as.token, {
    method: 'POST',
    url: '/api/v1/integrations/webhooks',
    payload: { name, url: receiver.url },
  });
  expect(response.statusCode).toBe(201);
  return response.json() as { integrationId: string; secret: string };
}

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  t = await createTestApp(receiverConfig(receiver));
  tenant = await t.createTenant('team');
  other = await t.createTenant('team', 'Other');
});

afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

describe('queueEventDeliveries', () => {
  it('queues one signed delivery per enabled integration of the current tenant, in the caller transaction', async () => {
    const first = await createWebhook(tenant, 'first');
    const second = await createWebhook(tenant, 'second');
    const disabled = await createWebhook(tenant, 'disabled');
    const foreign = await createWebhook(other, 'foreign');
    const patched = await t.as(tenant.token, {
      method: 'PATCH',
      url: `/api/v1/integrations/${disabled.integrationId}`,
      payload: { enabled: false },
    });
    expect(patched.statusCode).toBe(200);
    await t.runJobs();
    receiver.received.length = 0;

    const payload = { alertId: 'a1', severity: 'critical', nested: { list: [1, 2] } };
    const queued = await withTenant(t.database, tenant.tenantId, (db) =>
      queueEventDeliveries(db, {
        integrationIds: [
          first.integrationId,
          second.integrationId,
          first.integrationId,
          disabled.integrationId,
          foreign.integrationId,
          'not-a-uuid',
        ],
        eventType: 'alert.raised',
        payload,
      }),
    );
    expect(queued).toBe(2);
    expect(receiver.received).toHaveLength(0);

    await t.runJobs();
    expect(receiver.received).toHaveLength(2);
    const secrets = new Map([
      [first.integrationId, first.secret],
      [second.integrationId, second.secret],
    ]);
    const verified = receiver.received.map((request) => {
      // Each delivery verifies with exactly one of the two secrets.
      const matches = [...secrets.values()].filter((secret) => {
        try {
          verifyDelivery(secret, request);
          return true;
        } catch {
          return false;
        }
      });
      expect(matches).toHaveLength(1);
      return verifyDelivery(matches[0] as string, request);
    });
    for (const envelope of verified) {
      expect(envelope.type).toBe('alert.raised');
      expect(envelope.data).toEqual(payload);
      expect(Number.isNaN(Date.parse(envelope.timestamp))).toBe(false);
    }
  });

  it('queues nothing when the caller rolls back, and nothing for no ids', async () => {
    const hook = await createWebhook(tenant, 'rollback');
    receiver.received.length = 0;
    await expect(
      withTenant(t.database, tenant.tenantId, async (db) => {
        await queueEventDeliveries(db, {
          integrationIds: [hook.integrationId],
          eventType: 'alert.raised',
          payload: {},
        });
        throw new Error('the caller fails');
      }),
    ).rejects.toThrow('the caller fails');
    const none = await withTenant(t.database, tenant.tenantId, (db) =>
      queueEventDeliveries(db, { integrationIds: [], eventType: 'alert.raised', payload: {} }),
    );
    expect(none).toBe(0);
    await t.runJobs();
    expect(receiver.received).toHaveLength(0);
    const log = await t.as(tenant.token, {
      url: `/api/v1/integrations/${hook.integrationId}/deliveries`,
    });
    expect(log.json().items).toEqual([]);
  });
});
