import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestTenant } from '../../../test/support/test-app';
import {
  receiverConfig,
  startWebhookReceiver,
  verifyDelivery,
  type WebhookReceiver,
} from '../../../test/support/webhook-receiver';
import { outboundDeliveries } from '../../background-jobs';
import { newId } from '../../db/ids';
import { withTenant } from '../../db/tenant-scope';
import { queueEventDeliveries } from '../integrations/deliver';
import { dispatchDueDeliveries } from './attempt';
import { generateSigningSecret } from './send';

/**
 * DNS rebinding at delivery time (docs/integrations.md#targets): the name is resolved once per
 * attempt and the connection pinned to that answer. `hooks.rebind.test` is known only to the
 * test's resolver, so the first delivery can connect only through the pin (TLS still checks the
 * name); the resolver's next answer is internal and refused, and nothing reaches it.
 */
const NAME = 'hooks.rebind.test';
let t: TestApp;
let receiver: WebhookReceiver;
let tenant: TestTenant;

beforeAll(async () => {
  receiver = await startWebhookReceiver('/hooks', [NAME]);
  t = await createTestApp(receiverConfig(receiver));
  tenant = await t.createTenant('team');
});

afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

it('connects to the checked address only, and refuses the rebound answer', async () => {
  const secret = generateSigningSecret();
  const integrationId = newId();
  const queue = () =>
    withTenant(t.database, tenant.tenantId, async (db) => {
      await queueEventDeliveries(db, {
        integrationIds: [integrationId],
        eventType: 'x',
        payload: {},
      });
    });
  await withTenant(t.database, tenant.tenantId, async (db) => {
    await db
      .insertInto('integrations')
      .values({
        id: integrationId,
        name: 'rebinding',
        url: `https://${NAME}:${receiver.port}/hooks`,
        secret_sealed: t.secretBox.seal(secret),
      })
      .execute();
  });
  const answers = ['127.0.0.1', '10.0.0.1'];
  const asked: string[] = [];
  const context = {
    ...outboundDeliveries(t.jobDeps),
    resolve: async (hostname: string) => {
      asked.push(hostname);
      return [{ address: answers.shift() ?? '10.0.0.1', family: 4 as const }];
    },
  };

  await queue();
  await t.database.system.deleteFrom('job_outbox').execute();
  expect(await dispatchDueDeliveries(context)).toBe(1);
  expect(asked).toEqual([NAME]);
  expect(receiver.received).toHaveLength(1);
  const first = receiver.received[0];
  if (!first) throw new Error('nothing arrived');
  expect(first.headers.host).toBe(`${NAME}:${receiver.port}`);
  verifyDelivery(secret, first);

  await queue();
  await t.database.system.deleteFrom('job_outbox').execute();
  expect(await dispatchDueDeliveries(context)).toBe(1);
  expect(asked).toEqual([NAME, NAME]);
  expect(receiver.received).toHaveLength(1);
  const statuses = await t.database.system
    .selectFrom('outbound_deliveries')
    .select(['status', 'last_error'])
    .where('target_id', '=', integrationId)
    .orderBy('created_at')
    .execute();
  expect(statuses).toEqual([
    { status: 'succeeded', last_error: null },
    { status: 'pending', last_error: 'the address is not allowed' },
  ]);
});
