import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboundDeliveries } from '../../src/background-jobs';
import { newId } from '../../src/db/ids';
import { withTenant } from '../../src/db/tenant-scope';
import { queueRun } from '../../src/domains/analytics-export/service';
import { dispatchDueDeliveries } from '../../src/domains/outbound-deliveries/attempt';
import { queueDeliveries } from '../../src/domains/outbound-deliveries/store';
import { STATUS_WEBHOOK_TARGET } from '../../src/domains/status/subscriptions/service';
import { REFUSED_MESSAGE } from '../../src/security/outbound-guard';
import {
  type CountingListener,
  INTERNAL_HOSTS,
  loopbackNames,
  startCountingListener,
} from '../support/internal-addresses';
import { createTestApp, storeScan, type TestApp, type TestTenant } from '../support/scenarios';
import {
  receiverConfig,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../support/webhook-receiver';

/**
 * The outbound guard's table (docs/outbound-guard.md) through the two delivery paths besides
 * integrations, WITHOUT the test switch that allows loopback: warehouse export destinations
 * (https `url` and postgresql `connectionString`) and status webhook subscriptions. Every form
 * is refused at create and nothing is stored; rows written straight into the database (as if
 * stored before the guard, or by a name that now resolves inside) are refused when the run or
 * the delivery connects; an allowed export receiver's redirect to loopback is not followed. A
 * listener on 127.0.0.1 (and ::1) counts connections and must stay at 0.
 */

const FORMS = [...INTERNAL_HOSTS, ...loopbackNames()];
const EXPORTS = '/api/v1/analytics/export/destinations';

let t: TestApp;
let tenant: TestTenant;
let counter: CountingListener;
let receiver: WebhookReceiver;

beforeAll(async () => {
  counter = await startCountingListener();
  receiver = await startWebhookReceiver('/export');
  t = await createTestApp({
    // No loopback switch here: production rules.
    outbound: { allow: { git: [], webhooks: [] }, tenantAllow: {} },
    // The table makes a few hundred requests from one token and one address within a minute.
    rateLimits: { tenantPerMinute: 100_000, tokenPerMinute: 100_000, ipPerMinute: 100_000 },
    ...receiverConfig(receiver),
  });
  tenant = await t.createTenant('enterprise');
  // Rows to send: an https run with nothing to export would never open a connection.
  await storeScan(t, tenant, 'api', [{ ecosystem: 'npm', name: 'left-pad', version: '1.0.0' }]);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await receiver?.close();
  await counter?.close();
});

const httpsUrl = (host: string) => `https://${host}:${counter.port}/export`;
const connectionString = (host: string) =>
  `postgres://warehouse:pw@${host}:${counter.port}/facts?sslmode=disable`;

async function storedDestinations(tenantId: string): Promise<number> {
  const row = await t.database.system
    .selectFrom('analytics_export_destinations')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('tenant_id', '=', tenantId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function storedStatusHooks(): Promise<number> {
  const row = await t.database.system
    .selectFrom('status_webhook_subscriptions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

function expectRefused(
  res: { statusCode: number; body: string },
  status: number,
  field: string,
  form: string,
): void {
  expect(res.statusCode, form).toBe(status);
  const body = JSON.parse(res.body) as { errors?: Record<string, string[]> };
  expect(body.errors?.[field], form).toEqual([REFUSED_MESSAGE]);
  // Nothing about the target: no port, no connection error.
  expect(res.body).not.toContain(String(counter.port));
  expect(res.body).not.toMatch(/ECONN|refused|timed out/i);
}

describe('export destinations refuse every internal form at create (422, documented)', () => {
  it(`refuses ${FORMS.length} forms as an https url and as a connection string's host`, async () => {
    expect(FORMS.length).toBeGreaterThanOrEqual(50);
    for (const { host } of FORMS) {
      const https = await t.as(tenant.token, {
        method: 'POST',
        url: EXPORTS,
        payload: { name: 'lake', kind: 'https', url: httpsUrl(host) },
      });
      expectRefused(https, 422, 'url', host);
      const postgres = await t.as(tenant.token, {
        method: 'POST',
        url: EXPORTS,
        payload: { name: 'wh', kind: 'postgresql', connectionString: connectionString(host) },
      });
      expectRefused(postgres, 422, 'connectionString', host);
    }
    expect(await storedDestinations(tenant.tenantId)).toBe(0);
    expect(counter.connections()).toBe(0);
  });
});

describe('status webhook subscriptions refuse every internal form (400)', () => {
  it(`refuses ${FORMS.length} forms, nothing stored`, async () => {
    for (const { host } of FORMS) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/status/webhooks',
        payload: { url: `https://${host}:${counter.port}/hook` },
      });
      expectRefused(res, 400, 'url', host);
    }
    expect(await storedStatusHooks()).toBe(0);
    expect(counter.connections()).toBe(0);
  });
});

describe('stored rows are checked again when the run or the delivery connects', () => {
  it('an export run to each stored internal destination fails with the generic reason', async () => {
    const runIds: string[] = [];
    await withTenant(t.database, tenant.tenantId, async (db) => {
      for (const { host } of FORMS) {
        const targets = [
          { kind: 'https' as const, target: httpsUrl(host), secret: 'whsec_c2VjcmV0' },
          { kind: 'postgresql' as const, target: host, secret: connectionString(host) },
        ];
        for (const { kind, target, secret } of targets) {
          const id = newId();
          await db
            .insertInto('analytics_export_destinations')
            .values({
              id,
              kind,
              name: `legacy ${kind}`,
              target,
              secret_sealed: t.secretBox.seal(secret),
            })
            .execute();
          const run = await queueRun(db, {
            tenantId: tenant.tenantId,
            destinationId: id,
            trigger: 'manual',
          });
          runIds.push(run.id);
        }
      }
    });
    await t.runJobs();
    const runs = await t.database.system
      .selectFrom('analytics_export_runs as r')
      .innerJoin('analytics_export_destinations as d', 'd.id', 'r.destination_id')
      .select(['r.id', 'r.state', 'r.errors', 'r.rows', 'd.kind', 'd.target'])
      .where('r.id', 'in', runIds)
      .execute();
    expect(runs).toHaveLength(FORMS.length * 2);
    for (const run of runs) {
      expect(run.state, run.target).toBe('failed');
      expect(run.rows, run.target).toBe(0);
      // postgresql: refused before the connection opens; https: before each batch is sent.
      const expected =
        run.kind === 'postgresql' ? [REFUSED_MESSAGE] : [`scans: ${REFUSED_MESSAGE}`];
      expect(run.errors, run.target).toEqual(expect.arrayContaining(expected));
      for (const error of run.errors)
        expect(error, run.target).toMatch(/the address is not allowed$/);
    }
    expect(counter.connections()).toBe(0);
  });

  it('a status webhook delivery to each stored internal URL fails with the generic reason', async () => {
    const ids: string[] = [];
    for (const { host } of FORMS) {
      const id = newId();
      await t.database.system
        .insertInto('status_webhook_subscriptions')
        .values({
          id,
          url: `https://${host}:${counter.port}/hook`,
          secret_sealed: t.secretBox.seal('whsec_c2VjcmV0'),
          unsubscribe_token_hash: randomBytes(32),
        })
        .execute();
      ids.push(id);
    }
    const deliveryIds = await queueDeliveries(t.database.system, {
      tenantId: null,
      targetKind: STATUS_WEBHOOK_TARGET,
      targetIds: ids,
      eventType: 'status.incident.created',
      payload: { title: 'table test' },
    });
    const attempted = await dispatchDueDeliveries(outboundDeliveries(t.jobDeps), 1000);
    expect(attempted).toBeGreaterThanOrEqual(FORMS.length);
    const attempts = await t.database.system
      .selectFrom('outbound_delivery_attempts')
      .select(['delivery_id', 'outcome', 'status_code', 'error'])
      .where('delivery_id', 'in', deliveryIds)
      .execute();
    expect(attempts).toHaveLength(FORMS.length);
    for (const attempt of attempts) {
      expect(attempt).toMatchObject({
        outcome: 'failed',
        status_code: null,
        error: REFUSED_MESSAGE,
      });
    }
    expect(counter.connections()).toBe(0);
  });
});

describe('an allowed export receiver cannot redirect the run', () => {
  it('307 and 301 to loopback are not followed: the run fails, nothing reaches the listener', async () => {
    const allowed = await t.createTenant('enterprise');
    // The receiver's address (and so the listener's, same address, other port) is allowed for
    // this tenant only: a followed redirect would connect to the listener.
    t.config.outbound.tenantAllow[allowed.tenantId] = { webhooks: ['127.0.0.1/32'] };
    await storeScan(t, allowed, 'web', [{ ecosystem: 'npm', name: 'left-pad', version: '1.1.0' }]);
    const created = await t.as(allowed.token, {
      method: 'POST',
      url: EXPORTS,
      payload: { name: 'lake', kind: 'https', url: receiver.url },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().destinationId;
    const targets = [
      `https://127.0.0.1:${counter.port}/export`,
      `https://2130706433:${counter.port}/export`,
      `https://[::1]:${counter.port}/export`,
    ];
    for (const status of [307, 301]) {
      receiver.received.length = 0;
      // More answers than the run has batches, so every batch meets a redirect.
      receiver.answers = Array.from({ length: 12 }, (_, i) => ({
        status,
        headers: { location: targets[i % targets.length] as string },
      }));
      const trigger = await t.as(allowed.token, { method: 'POST', url: `${EXPORTS}/${id}/runs` });
      expect(trigger.statusCode).toBe(202);
      await t.runJobs();
      const run = (
        await t.as(allowed.token, { method: 'GET', url: `${EXPORTS}/${id}/runs?limit=1` })
      ).json().items[0];
      expect(run).toMatchObject({ state: 'failed', rows: 0 });
      expect(run.errors).toContain(`scans: the endpoint answered ${status}`);
      expect(receiver.received.length).toBeGreaterThan(0);
      expect(receiver.received.every((request) => request.answered === status)).toBe(true);
      expect(counter.connections()).toBe(0);
    }
    receiver.answers = [];
    // The same destination delivers once the receiver answers 2xx: the refusal was the redirect.
    const trigger = await t.as(allowed.token, { method: 'POST', url: `${EXPORTS}/${id}/runs` });
    expect(trigger.statusCode).toBe(202);
    await t.runJobs();
    const ok = (
      await t.as(allowed.token, { method: 'GET', url: `${EXPORTS}/${id}/runs?limit=1` })
    ).json().items[0];
    expect(ok).toMatchObject({ state: 'succeeded', tables: { scans: 1 } });
  });
});
