import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eventually } from '../../../test/support/eventually';
import {
  type CountingListener,
  startCountingListener,
} from '../../../test/support/internal-addresses';
import { createTestApp, type TestApp, type TestTenant } from '../../../test/support/test-app';
import {
  receiverConfig,
  startWebhookReceiver,
  verifyDelivery,
  type WebhookReceiver,
} from '../../../test/support/webhook-receiver';
import { outboundDeliveries } from '../../background-jobs';
import { attemptDelivery, type DeliveryContext, dispatchDueDeliveries } from './attempt';

/**
 * The shared delivery module through integrations (docs/integrations.md#delivery): retries until
 * 2xx, 410 disables, running out of attempts disables, both emit `integration.disabled` and
 * cancel what is pending, redirects are never followed, a crashed attempt is taken again once
 * its lease runs out.
 */
let t: TestApp;
let receiver: WebhookReceiver;
let tenant: TestTenant;
let context: DeliveryContext;
let counter: CountingListener;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  counter = await startCountingListener();
  t = await createTestApp(receiverConfig(receiver, { maxAttempts: 3 }));
  tenant = await t.createTenant('team');
  context = outboundDeliveries(t.jobDeps);
});

afterAll(async () => {
  await t?.close();
  await receiver?.close();
  await counter?.close();
});

beforeEach(() => {
  receiver.received.length = 0;
  receiver.answers = [];
  receiver.fallbackStatus = 200;
  receiver.answerDelayMs = 0;
});

async function createHook(name: string) {
  const response = await t.as(tenant.token, {
    method: 'POST',
    url: '/api/v1/integrations/webhooks',
    payload: { name, url: receiver.url },
  });
  expect(response.statusCode).toBe(201);
  return response.json() as { integrationId: string; secret: string };
}

const sendTest = (id: string) =>
  t.as(tenant.token, { method: 'POST', url: `/api/v1/integrations/${id}/test` });

async function deliveries(id: string) {
  const log = await t.as(tenant.token, { url: `/api/v1/integrations/${id}/deliveries` });
  return log.json().items as Array<Record<string, unknown> & { attempts: unknown[] }>;
}

/** Runs due retries until nothing is pending (the schedule is milliseconds in tests). */
async function drain(rounds = 40): Promise<void> {
  for (let round = 0; round < rounds; round++) {
    await dispatchDueDeliveries(context);
    const pending = await t.database.system
      .selectFrom('outbound_deliveries')
      .select('id')
      .where('status', '=', 'pending')
      .execute();
    if (pending.length === 0) return;
    await sleep(60);
  }
}

async function disabledEvents(): Promise<unknown[]> {
  const rows = await t.database.system
    .selectFrom('job_outbox')
    .select('data')
    .where('job_name', '=', 'event:integration.disabled')
    .execute();
  return rows.map((row) => row.data);
}

describe('outbound deliveries', () => {
  it('retries a failed attempt after a backoff and succeeds, with the same webhook-id', async () => {
    const hook = await createHook('retried');
    receiver.answers = [500];
    const queued = (await sendTest(hook.integrationId)).json();
    await t.runJobs();
    const [first] = await deliveries(hook.integrationId);
    expect(first).toMatchObject({ status: 'pending', attemptCount: 1, lastStatusCode: 500 });
    expect(first?.lastError).toBe('the receiver answered 500');
    expect(Date.parse(String(first?.nextAttemptAtUtc))).toBeGreaterThan(
      Date.parse(String(first?.createdAtUtc)),
    );
    await drain();
    const [done] = await deliveries(hook.integrationId);
    expect(done).toMatchObject({ status: 'succeeded', attemptCount: 2, lastStatusCode: 200 });
    expect(done?.attempts).toMatchObject([
      { attempt: 1, statusCode: 500, outcome: 'failed' },
      { attempt: 2, statusCode: 200, outcome: 'succeeded' },
    ]);
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([
      queued.deliveryId,
      queued.deliveryId,
    ]);
    for (const request of receiver.received) verifyDelivery(hook.secret, request);
  });

  it('disables the integration on 410, cancels what is pending, emits integration.disabled', async () => {
    const hook = await createHook('gone');
    receiver.answers = [410];
    await sendTest(hook.integrationId);
    await sendTest(hook.integrationId);
    await t.database.system.deleteFrom('job_outbox').execute();
    // One pass: the first delivery meets 410; the second is cancelled (or never attempted).
    await dispatchDueDeliveries(context, 100, 1);
    const integration = (
      await t.as(tenant.token, { url: `/api/v1/integrations/${hook.integrationId}` })
    ).json();
    expect(integration).toMatchObject({ status: 'disabled', disabledReason: 'gone' });
    const log = await deliveries(hook.integrationId);
    expect(log.map((d) => d.status).sort()).toEqual(['cancelled', 'failed']);
    expect(log.find((d) => d.status === 'failed')).toMatchObject({ lastStatusCode: 410 });
    expect(receiver.received).toHaveLength(1);
    expect(await disabledEvents()).toEqual([
      { integrationId: hook.integrationId, name: 'gone', reason: 'gone' },
    ]);
    await t.runJobs();
  });

  it('disables the integration when a delivery runs out of attempts', async () => {
    const hook = await createHook('failing');
    receiver.fallbackStatus = 503;
    await sendTest(hook.integrationId);
    await t.database.system.deleteFrom('job_outbox').execute();
    await drain();
    const [delivery] = await deliveries(hook.integrationId);
    expect(delivery).toMatchObject({ status: 'failed', attemptCount: 3, nextAttemptAtUtc: null });
    expect(delivery?.attempts.map((a) => (a as { statusCode: number }).statusCode)).toEqual([
      503, 503, 503,
    ]);
    const integration = (
      await t.as(tenant.token, { url: `/api/v1/integrations/${hook.integrationId}` })
    ).json();
    expect(integration).toMatchObject({ status: 'disabled', disabledReason: 'failing' });
    expect(integration.lastFailureAtUtc).not.toBeNull();
    expect(await disabledEvents()).toEqual([
      { integrationId: hook.integrationId, name: 'failing', reason: 'failing' },
    ]);
    await t.runJobs();
  });

  it.each([
    [307, 'https://127.0.0.1:{port}/internal'],
    [302, 'https://localhost:{port}/'],
    [301, 'https://169.254.169.254/latest/meta-data/'],
    [308, 'https://[::ffff:127.0.0.1]:{port}/'],
  ])('never follows a %s redirect from an allowed address to %s', async (status, target) => {
    const hook = await createHook(`redirected ${status}`);
    const location = target.replace('{port}', String(counter.port));
    receiver.answers = [{ status, headers: { location } }];
    await sendTest(hook.integrationId);
    await t.runJobs();
    const [delivery] = await deliveries(hook.integrationId);
    expect(delivery).toMatchObject({
      status: 'pending',
      lastStatusCode: status,
      lastError: 'redirects are not followed',
    });
    // Loopback is reachable in this file (the test switch): a followed redirect would land here.
    expect(counter.connections()).toBe(0);
    expect(receiver.received).toHaveLength(1);
    await drain();
  });

  it('takes a delivery again once the lease of a crashed attempt runs out', async () => {
    const hook = await createHook('crashed');
    const queued = (await sendTest(hook.integrationId)).json();
    await t.database.system.deleteFrom('job_outbox').execute();
    // A worker claimed it and died before recording anything (kill -9).
    await t.database.system
      .updateTable('outbound_deliveries')
      .set({ attempt_count: 1, lease_until: new Date(Date.now() + 60_000) })
      .where('id', '=', queued.deliveryId)
      .execute();
    expect(await dispatchDueDeliveries(context)).toBe(0);
    expect(receiver.received).toHaveLength(0);
    await t.database.system
      .updateTable('outbound_deliveries')
      .set({ lease_until: new Date(Date.now() - 1) })
      .where('id', '=', queued.deliveryId)
      .execute();
    expect(await dispatchDueDeliveries(context)).toBe(1);
    const [delivery] = await deliveries(hook.integrationId);
    expect(delivery).toMatchObject({ status: 'succeeded', attemptCount: 2 });
    expect(receiver.received).toHaveLength(1);
  });

  it('records nothing, and fails nothing, for a delivery deleted while its request was out', async () => {
    const hook = await createHook('deleted mid-flight');
    const queued = (await sendTest(hook.integrationId)).json();
    await t.database.system.deleteFrom('job_outbox').execute();
    receiver.answerDelayMs = 500;
    const attempt = attemptDelivery(context, tenant.tenantId, queued.deliveryId);
    await eventually(() => receiver.received.length > 0, { what: 'the attempt', intervalMs: 10 });
    const deleted = await t.as(tenant.token, {
      method: 'DELETE',
      url: `/api/v1/integrations/${hook.integrationId}`,
    });
    expect(deleted.statusCode).toBe(204);
    await expect(attempt).resolves.toBe(true);
    const left = await t.database.system
      .selectFrom('outbound_delivery_attempts')
      .select('attempt')
      .where('delivery_id', '=', queued.deliveryId)
      .execute();
    expect(left).toEqual([]);
  });
});
