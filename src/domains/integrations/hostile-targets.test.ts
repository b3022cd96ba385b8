import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CountingListener,
  INTERNAL_HOSTS,
  loopbackNames,
  startCountingListener,
} from '../../../test/support/internal-addresses';
import { createTestApp, type TestApp, type TestTenant } from '../../../test/support/test-app';
import { outboundDeliveries } from '../../background-jobs';
import { newId } from '../../db/ids';
import { withTenant } from '../../db/tenant-scope';
import { dispatchDueDeliveries } from '../outbound-deliveries/attempt';
import { queueEventDeliveries } from './deliver';

/**
 * Hostile webhook targets (docs/integrations.md#targets) with the production rules — no loopback
 * switch: every spelling of an internal address, localhost names and names this machine
 * resolves to loopback are refused at creation (422 errors.url, nothing stored) and, stored
 * anyway (written before the rules, or a name that resolves inward now), at delivery time.
 * A listener on 127.0.0.1 and ::1 counts connections: it must stay at 0.
 */
const FORMS = [...INTERNAL_HOSTS, ...loopbackNames()];

let t: TestApp;
let tenant: TestTenant;
let counter: CountingListener;

beforeAll(async () => {
  counter = await startCountingListener();
  t = await createTestApp({ outbound: { allow: { git: [], webhooks: [] }, tenantAllow: {} } });
  tenant = await t.createTenant('enterprise');
});

afterAll(async () => {
  await t?.close();
  await counter?.close();
});

const urlOf = (host: string) => `https://${host}:${counter.port}/hook`;

async function storedIntegrations(): Promise<number> {
  const row = await t.database.system
    .selectFrom('integrations')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('tenant_id', '=', tenant.tenantId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('hostile webhook targets', () => {
  it('has at least 40 forms, loopback names among them', () => {
    expect(FORMS.length).toBeGreaterThanOrEqual(40);
    expect(FORMS.filter((form) => form.loopback).length).toBeGreaterThan(20);
  });

  it.each(FORMS.map((form) => [form.what, form.host] as const))(
    'refuses %s (%s) at creation and on a changed url',
    async (_what, host) => {
      const created = await t.as(tenant.token, {
        method: 'POST',
        url: '/api/v1/integrations/webhooks',
        payload: { name: 'hostile', url: urlOf(host) },
      });
      expect(created.statusCode).toBe(422);
      expect(created.json().errors.url).toEqual(['the address is not allowed']);
      // Nothing about the target: no port, no resolver or connection error.
      expect(created.body).not.toContain(String(counter.port));
      expect(created.body).not.toMatch(/ECONN|ENOTFOUND|resolve/i);
      expect(await storedIntegrations()).toBe(0);
      expect(counter.connections()).toBe(0);
    },
  );

  it('refuses every form again at delivery time when the url was stored anyway', async () => {
    const ids: string[] = [];
    await withTenant(t.database, tenant.tenantId, async (db) => {
      for (const form of FORMS) {
        const id = newId();
        ids.push(id);
        await db
          .insertInto('integrations')
          .values({
            id,
            name: form.what,
            url: urlOf(form.host),
            secret_sealed: t.secretBox.seal('whsec_AAAA'),
          })
          .execute();
      }
      const queued = await queueEventDeliveries(db, {
        integrationIds: ids,
        eventType: 'integration.test',
        payload: {},
      });
      expect(queued).toBe(FORMS.length);
    });
    await t.runJobs();
    await dispatchDueDeliveries(outboundDeliveries(t.jobDeps));
    const attempts = await t.database.system
      .selectFrom('outbound_delivery_attempts')
      .select(['status_code', 'outcome', 'error'])
      .where('tenant_id', '=', tenant.tenantId)
      .execute();
    expect(attempts.length).toBeGreaterThanOrEqual(FORMS.length);
    for (const attempt of attempts) {
      expect(attempt).toEqual({
        status_code: null,
        outcome: 'failed',
        error: 'the address is not allowed',
      });
    }
    expect(counter.connections()).toBe(0);
  });

  it('refuses a name that resolves to loopback only when the delivery is made', async () => {
    const id = newId();
    await withTenant(t.database, tenant.tenantId, async (db) => {
      await db
        .insertInto('integrations')
        .values({
          id,
          name: 'rebinding',
          url: `https://hooks.example.net:${counter.port}/`,
          secret_sealed: t.secretBox.seal('whsec_AAAA'),
        })
        .execute();
      await queueEventDeliveries(db, { integrationIds: [id], eventType: 'x', payload: {} });
    });
    await t.database.system.deleteFrom('job_outbox').execute();
    const context = {
      ...outboundDeliveries(t.jobDeps),
      resolve: async () => [{ address: '127.0.0.1', family: 4 as const }],
    };
    expect(await dispatchDueDeliveries(context)).toBe(1);
    const [attempt] = await t.database.system
      .selectFrom('outbound_delivery_attempts as a')
      .innerJoin('outbound_deliveries as d', 'd.id', 'a.delivery_id')
      .select(['a.error', 'a.status_code'])
      .where('d.target_id', '=', id)
      .execute();
    expect(attempt).toEqual({ error: 'the address is not allowed', status_code: null });
    expect(counter.connections()).toBe(0);
  });
});
