import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BillingProviderSimulator,
  type SimulatedEvent,
} from '../../../test/support/billing-provider-simulator';
import { insertRepository } from '../../../test/support/exposures';
import {
  createTestApp,
  openTestDatabase,
  type TestApp,
  type TestTenant,
} from '../../../test/support/test-app';
import { jobDefinitions } from '../../background-jobs';
import { withTenant } from '../../db/tenant-scope';
import { GRACE_EXPIRED } from './jobs';

/**
 * Billing end to end (docs/billing.md): the provider simulator signs deliveries as the provider
 * does; every signature case, replays, reordering, the store failing once, plans and feature
 * flags following events, plan-change requests, invoices with cursor paging, roles and tenants.
 */
const OPERATOR_TOKEN = 'operator-token-for-billing-tests';
const SECRET = 'whsec_billing_secret_one_0001';
const NEXT_SECRET = 'whsec_billing_secret_two_0002';
const WEBHOOK = '/api/v1/webhooks/billing-provider';

describe('billing', () => {
  let t: TestApp;
  let a: TestTenant;
  let b: TestTenant;
  let sim: BillingProviderSimulator;
  const roleTokens: Record<string, string> = {};

  const operator = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } });
  const count = async (table: 'billing_events' | 'billing_invoices' | 'audit_log') => {
    const row = await t.database.system
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
  const planOf = async (tenantId: string) =>
    (
      await t.database.system
        .selectFrom('tenants')
        .select('plan')
        .where('id', '=', tenantId)
        .executeTakeFirstOrThrow()
    ).plan;
  const flags = async (tenant: TestTenant) => {
    const res = await t.as(tenant.token, { method: 'GET', url: '/api/v1/feature-flags' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { plan: string; items: { key: string; enabled: boolean }[] };
    return { plan: body.plan, enabled: body.items.filter((i) => i.enabled).map((i) => i.key) };
  };
  const subscription = async (tenant: TestTenant) => {
    const res = await t.as(tenant.token, { method: 'GET', url: '/api/v1/billing/subscription' });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const tokenWith = async (tenant: TestTenant, role: string) => {
    const res = await t.as(tenant.token, {
      method: 'POST',
      url: '/api/v1/api-tokens',
      payload: {
        name: role,
        roleScopeJson: JSON.stringify({ roles: [role] }),
        expiresAtUtc: new Date(Date.now() + 86_400_000).toISOString(),
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().rawSecret as string;
  };
  const subscriptionEvent = (
    type: string,
    tenant: TestTenant,
    customerId: string,
    subscriptionFields: Record<string, unknown>,
    at?: Date,
  ) =>
    sim.event(
      type,
      {
        customerId,
        tenantId: tenant.tenantId,
        subscription: { id: `sub_${customerId}`, ...subscriptionFields },
      },
      at,
    );
  const invoiceEvent = (
    type: string,
    customerId: string,
    invoiceId: string,
    issuedAt: string,
    at?: Date,
  ) =>
    sim.event(
      type,
      {
        customerId,
        invoice: {
          id: invoiceId,
          number: `INV-${invoiceId}`,
          currency: 'eur',
          amountDue: 4900,
          issuedAt,
          periodStart: issuedAt,
          periodEnd: new Date(Date.parse(issuedAt) + 30 * 86_400_000).toISOString(),
          dueAt: new Date(Date.parse(issuedAt) + 14 * 86_400_000).toISOString(),
        },
      },
      at,
    );
  const accepted = async (event: SimulatedEvent) => {
    const res = await sim.deliver(event);
    expect(res.statusCode, res.body).toBe(202);
    return JSON.parse(res.body) as { outcome: string; eventId: string };
  };

  beforeAll(async () => {
    // The embedded database gets one connection, as the service opens it (src/service.ts):
    // PGlite is one session, and concurrent transactions on several connections would interleave.
    const database = await openTestDatabase(process.env.TEST_DATABASE_URL ? 10 : 1);
    t = await createTestApp({ operatorToken: OPERATOR_TOKEN }, { database });
    a = await t.createTenant('free', 'A');
    b = await t.createTenant('free', 'B');
    sim = new BillingProviderSimulator(
      async ({ headers, payload }) => {
        const res = await t.app.inject({ method: 'POST', url: WEBHOOK, headers, payload });
        return { statusCode: res.statusCode, body: res.body };
      },
      [SECRET],
    );
    for (const role of ['viewer', 'member', 'admin']) roleTokens[role] = await tokenWith(a, role);
    roleTokens.owner = a.token;
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('the provider secret', () => {
    it('is refused with a 500 (so the provider retries) while none is configured', async () => {
      const res = await sim.deliver(
        subscriptionEvent('subscription.created', a, 'cus_early', { plan: 'team' }),
      );
      expect(res.statusCode, res.body).toBe(500);
      expect(await count('billing_events')).toBe(0);
    });

    it('is set by the operator only, kept sealed and never shown', async () => {
      const anonymous = await t.app.inject({
        method: 'POST',
        url: '/api/v1/billing/provider-secrets',
        payload: { secret: SECRET },
      });
      expect(anonymous.statusCode).toBe(401);
      const tenantToken = await t.as(a.token, {
        method: 'POST',
        url: '/api/v1/billing/provider-secrets',
        payload: { secret: SECRET },
      });
      expect(tenantToken.statusCode).toBe(401);
      const short = await operator('POST', '/api/v1/billing/provider-secrets', { secret: 'short' });
      expect(short.statusCode).toBe(400);
      const created = await operator('POST', '/api/v1/billing/provider-secrets', {
        secret: SECRET,
      });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.body).not.toContain(SECRET);
      const listed = await operator('GET', '/api/v1/billing/provider-secrets');
      expect(listed.json().items).toHaveLength(1);
      expect(listed.body).not.toContain(SECRET);
      const stored = await t.database.system
        .selectFrom('billing_provider_secrets')
        .select('secret_sealed')
        .execute();
      expect(stored[0]?.secret_sealed).not.toContain(SECRET);
      expect(t.secretBox.open(stored[0]?.secret_sealed ?? '')).toBe(SECRET);
    });
  });

  describe('signature cases', () => {
    const event = () => subscriptionEvent('subscription.created', a, 'cus_a', { plan: 'team' });

    it('refuses bad, stale, future, missing and one-byte-changed deliveries with 400, storing nothing', async () => {
      const before = await count('billing_events');
      const cases: [string, Parameters<BillingProviderSimulator['deliver']>[1], RegExp][] = [
        ['bad', { secrets: ['whsec_not_the_configured_one'] }, /No signature/],
        ['stale', { skewSeconds: -301 }, /signed 30\d seconds ago/],
        ['future', { skewSeconds: 301 }, /in the future/],
        ['no timestamp', { omit: 'timestamp' }, /lacks its x-billing-provider-timestamp/],
        ['no signature', { omit: 'signature' }, /lacks its x-billing-provider-signature/],
        ['malformed', { signatureHeader: 'sha256=deadbeef' }, /v1=/],
        ['one byte changed', { flipByteAt: 20 }, /No signature/],
      ];
      for (const [name, options, detail] of cases) {
        const res = await sim.deliver(event(), options);
        expect(res.statusCode, name).toBe(400);
        expect(JSON.parse(res.body).detail, name).toMatch(detail);
      }
      expect(await count('billing_events')).toBe(before);
      expect(await planOf(a.tenantId)).toBe('free');
    });

    it('accepts a good signature, and several during a rotation on either side', async () => {
      expect((await accepted(event())).outcome).toBe('applied');
      // The provider rotates first: it signs with the old and the new secret.
      expect(
        (await sim.deliver(event(), { secrets: ['whsec_new_provider_side', SECRET] })).statusCode,
      ).toBe(202);
      // The operator adds the new secret; the provider moves to it; the old one is removed.
      const added = await operator('POST', '/api/v1/billing/provider-secrets', {
        secret: NEXT_SECRET,
      });
      expect(added.statusCode).toBe(201);
      expect((await sim.deliver(event(), { secrets: [NEXT_SECRET] })).statusCode).toBe(202);
      expect((await sim.deliver(event(), { secrets: [SECRET] })).statusCode).toBe(202);
      const listed = (await operator('GET', '/api/v1/billing/provider-secrets')).json() as {
        items: { secretId: string }[];
      };
      const oldId = listed.items[0]?.secretId;
      expect(
        (await operator('DELETE', `/api/v1/billing/provider-secrets/${oldId}`)).statusCode,
      ).toBe(204);
      expect(
        (await operator('DELETE', `/api/v1/billing/provider-secrets/${oldId}`)).statusCode,
      ).toBe(404);
      expect((await sim.deliver(event(), { secrets: [SECRET] })).statusCode).toBe(400);
      sim.secrets = [NEXT_SECRET];
      expect((await sim.deliver(event())).statusCode).toBe(202);
    });

    it('refuses a malformed body only after its signature held, with the fields named', async () => {
      const notJson = await sim.deliver(event(), { rawBody: Buffer.from('{"id": nope') });
      expect(notJson.statusCode).toBe(400);
      expect(JSON.parse(notJson.body).detail).toMatch(/not JSON/);
      const missing = await sim.deliver(event(), {
        rawBody: Buffer.from(JSON.stringify({ id: 'evt_x', type: 'invoice.paid', data: {} })),
      });
      expect(missing.statusCode).toBe(400);
      expect(Object.keys(JSON.parse(missing.body).errors)).toEqual(
        expect.arrayContaining(['body.created', 'body.data.customerId']),
      );
      const noInvoice = await sim.deliver(sim.event('invoice.paid', { customerId: 'cus_a' }));
      expect(noInvoice.statusCode).toBe(400);
      expect(JSON.parse(noInvoice.body).errors).toHaveProperty(['body.data.invoice']);
      const huge = await sim.deliver(event(), { rawBody: Buffer.alloc(300 * 1024, 0x20) });
      expect(huge.statusCode).toBe(400);
      expect(JSON.parse(huge.body).detail).toMatch(/exceeds/);
    });

    it('is exempt from rate limiting', async () => {
      const statuses = new Set<number>();
      for (let i = 0; i < 70; i++) {
        statuses.add((await sim.deliver(event(), { omit: 'signature' })).statusCode);
      }
      expect([...statuses]).toEqual([400]);
    });
  });

  describe('plans follow the events', () => {
    let repositoryIds: string[] = [];

    it('a created and updated subscription sets the plan, its features and limits at once', async () => {
      const policies = async () =>
        (await t.as(b.token, { method: 'GET', url: '/api/v1/policies' })).statusCode;
      expect(await policies()).toBe(403);
      const created = subscriptionEvent('subscription.created', b, 'cus_b', { plan: 'team' });
      expect((await accepted(created)).outcome).toBe('applied');
      // The very next request sees the new plan: a gated route opens.
      expect(await policies()).toBe(200);
      expect(await flags(b)).toMatchObject({ plan: 'team' });
      expect((await flags(b)).enabled).toContain('integrations');
      expect((await flags(b)).enabled).not.toContain('cra');
      const updated = subscriptionEvent('subscription.updated', b, 'cus_b', { plan: 'business' });
      await accepted(updated);
      const now = await flags(b);
      expect(now.plan).toBe('business');
      expect(now.enabled).toContain('cra');
      // Later events find the tenant by its customer id alone.
      const byCustomer = sim.event('subscription.trial_ending', {
        customerId: 'cus_b',
        subscription: { id: 'sub_cus_b', trialEndsAt: '2027-01-01T00:00:00.000Z' },
      });
      expect((await accepted(byCustomer)).outcome).toBe('applied');
      expect(await subscription(b)).toMatchObject({
        plan: 'business',
        status: 'active',
        customerId: 'cus_b',
        trialEndsAtUtc: '2027-01-01T00:00:00.000Z',
      });
      repositoryIds = [];
      for (let i = 0; i < 7; i++)
        repositoryIds.push(await insertRepository(t, b.tenantId, `r${i}`));
    });

    it('a replayed event is a 202 that changes nothing', async () => {
      const updated = subscriptionEvent('subscription.updated', b, 'cus_b', { plan: 'enterprise' });
      await accepted(updated);
      const events = await count('billing_events');
      const audit = await count('audit_log');
      // Meanwhile the plan moved on; the replay of the older event must not move it back.
      await accepted(subscriptionEvent('subscription.updated', b, 'cus_b', { plan: 'business' }));
      const replay = await sim.replay(updated);
      expect(replay.statusCode).toBe(202);
      expect(JSON.parse(replay.body).outcome).toBe('duplicate');
      expect(await planOf(b.tenantId)).toBe('business');
      expect(await count('billing_events')).toBe(events + 1);
      expect(await count('audit_log')).toBe(audit + 2); // the event and its plan change
    });

    it('the same event delivered twice at once is applied once', async () => {
      const events = await count('billing_events');
      const event = subscriptionEvent('subscription.updated', b, 'cus_b', { plan: 'business' });
      const answers = await Promise.all([
        sim.deliver(event),
        sim.deliver(event),
        sim.deliver(event),
      ]);
      expect(answers.map((r) => r.statusCode)).toEqual([202, 202, 202]);
      expect(answers.map((r) => JSON.parse(r.body).outcome).sort()).toEqual([
        'applied',
        'duplicate',
        'duplicate',
      ]);
      expect(await count('billing_events')).toBe(events + 1);
    });

    it('a failed payment starts the grace period; its end lowers the plan; payment restores it', async () => {
      const issued = new Date(Date.now() - 86_400_000).toISOString();
      await accepted(invoiceEvent('invoice.finalized', 'cus_b', 'in_b1', issued));
      const failedEvent = invoiceEvent('invoice.payment_failed', 'cus_b', 'in_b1', issued);
      await accepted(failedEvent);
      const during = await subscription(b);
      expect(during.plan).toBe('business');
      expect(during.unpaidInvoices).toBe(1);
      expect(Date.parse(during.graceEndsAtUtc) - Date.parse(failedEvent.created)).toBe(
        7 * 86_400_000,
      );
      expect(during.planAfterGrace).toBe('free');
      // The job before the grace ends changes nothing; after it, the plan falls back.
      const job = jobDefinitions(t.jobDeps).find((d) => d.name === GRACE_EXPIRED.name);
      if (!job) throw new Error('no grace job');
      const run = () =>
        job.handle({ version: 1, tenantId: null, correlationId: 'grace', data: {} } as never);
      await run();
      expect(await planOf(b.tenantId)).toBe('business');
      await t.database.system
        .updateTable('billing_accounts')
        .set({ grace_ends_at: sql<Date>`now() - interval '1 minute'` })
        .where('tenant_id', '=', b.tenantId)
        .execute();
      await run();
      expect(await flags(b)).toMatchObject({ plan: 'free', enabled: ['api_tokens'] });
      expect((await subscription(b)).planReason).toBe('grace_period_ended');
      // Nothing was deleted: the seven repositories are there, over the free plan's five.
      const listed = await t.as(b.token, { method: 'GET', url: '/api/v1/repositories?take=50' });
      expect(listed.json().items).toHaveLength(7);
      await accepted(invoiceEvent('invoice.paid', 'cus_b', 'in_b1', issued));
      expect(await flags(b)).toMatchObject({ plan: 'business' });
      expect(await subscription(b)).toMatchObject({ graceEndsAtUtc: null, unpaidInvoices: 0 });
    });

    it('a cancelled subscription lowers the plan and keeps every row', async () => {
      const before = await count('billing_invoices');
      await accepted(subscriptionEvent('subscription.cancelled', b, 'cus_b', {}));
      expect(await subscription(b)).toMatchObject({
        plan: 'free',
        status: 'cancelled',
        planReason: 'subscription_cancelled',
      });
      expect(await count('billing_invoices')).toBe(before);
      const listed = await t.as(b.token, { method: 'GET', url: '/api/v1/repositories?take=50' });
      expect(listed.json().items).toHaveLength(7);
      // A new repository beyond the free plan's limit is refused by the import's own check.
      expect((await flags(b)).plan).toBe('free');
    });
  });

  describe('ordering', () => {
    it('events delivered in reverse never move state back', async () => {
      const c = await t.createTenant('free', 'C');
      const base = Date.now() - 600_000;
      const events = [
        subscriptionEvent('subscription.created', c, 'cus_c', { plan: 'team' }, new Date(base)),
        subscriptionEvent(
          'subscription.updated',
          c,
          'cus_c',
          { plan: 'business' },
          new Date(base + 1000),
        ),
        subscriptionEvent(
          'subscription.updated',
          c,
          'cus_c',
          { plan: 'enterprise' },
          new Date(base + 2000),
        ),
      ];
      for (const event of events) sim.hold(event);
      const answers = await sim.flush('reverse');
      expect(answers.map((r) => JSON.parse(r.body).outcome)).toEqual(['applied', 'stale', 'stale']);
      expect(await planOf(c.tenantId)).toBe('enterprise');
      // An invoice paid before its finalisation arrives stays paid; a late failure is stale.
      const issued = new Date(base).toISOString();
      const finalized = invoiceEvent(
        'invoice.finalized',
        'cus_c',
        'in_c1',
        issued,
        new Date(base + 3000),
      );
      const failed = invoiceEvent(
        'invoice.payment_failed',
        'cus_c',
        'in_c1',
        issued,
        new Date(base + 4000),
      );
      const paid = invoiceEvent('invoice.paid', 'cus_c', 'in_c1', issued, new Date(base + 5000));
      for (const event of [paid, finalized, failed]) await accepted(event);
      expect(await subscription(c)).toMatchObject({ unpaidInvoices: 0, graceEndsAtUtc: null });
      const invoices = await t.as(c.token, { method: 'GET', url: '/api/v1/billing/invoices' });
      expect(invoices.json().items).toMatchObject([{ status: 'paid', failedAttempts: 0 }]);
    });

    it('any shuffled order ends in the state of the in-order delivery', async () => {
      for (const seed of [1, 7, 42]) {
        const d = await t.createTenant('free', `D${seed}`);
        const customer = `cus_d${seed}`;
        const base = Date.now() - 900_000;
        const issued = new Date(base).toISOString();
        const events = [
          subscriptionEvent('subscription.created', d, customer, { plan: 'team' }, new Date(base)),
          {
            ...invoiceEvent(
              'invoice.finalized',
              customer,
              `in_${seed}`,
              issued,
              new Date(base + 1000),
            ),
            data: {
              customerId: customer,
              tenantId: d.tenantId,
              invoice: { id: `in_${seed}`, currency: 'eur', amountDue: 100, issuedAt: issued },
            },
          },
          invoiceEvent(
            'invoice.payment_failed',
            customer,
            `in_${seed}`,
            issued,
            new Date(base + 2000),
          ),
          subscriptionEvent(
            'subscription.updated',
            d,
            customer,
            { plan: 'business' },
            new Date(base + 3000),
          ),
          invoiceEvent('invoice.paid', customer, `in_${seed}`, issued, new Date(base + 4000)),
        ];
        const answers = await sim.deliverShuffled(events, seed);
        expect(answers.map((r) => r.statusCode)).toEqual([202, 202, 202, 202, 202]);
        expect(await subscription(d)).toMatchObject({
          plan: 'business',
          status: 'active',
          unpaidInvoices: 0,
          graceEndsAtUtc: null,
        });
      }
    });

    it('an event for no known tenant is kept for the operator, once', async () => {
      const orphan = sim.event('invoice.paid', {
        customerId: 'cus_nobody',
        invoice: { id: 'in_x', currency: 'usd', amountDue: 1, issuedAt: new Date().toISOString() },
      });
      expect((await accepted(orphan)).outcome).toBe('unmatched');
      expect((await accepted(orphan)).outcome).toBe('duplicate');
    });
  });

  describe('the store failing', () => {
    it('answers 500, keeps nothing, and the provider retry applies the event once', async () => {
      const e = await t.createTenant('free', 'E');
      await accepted(subscriptionEvent('subscription.created', e, 'cus_e', { plan: 'team' }));
      await sql`CREATE SEQUENCE billing_fail_once`.execute(t.database.system);
      await sql`CREATE FUNCTION billing_fail_once() RETURNS trigger LANGUAGE plpgsql
        SECURITY DEFINER AS $$ BEGIN
          IF nextval('billing_fail_once') = 1 THEN RAISE EXCEPTION 'simulated store failure'; END IF;
          RETURN NEW;
        END $$`.execute(t.database.system);
      await sql`CREATE TRIGGER billing_fail_once BEFORE INSERT ON billing_invoices
        FOR EACH ROW EXECUTE FUNCTION billing_fail_once()`.execute(t.database.system);
      try {
        const events = await count('billing_events');
        const failed = invoiceEvent(
          'invoice.payment_failed',
          'cus_e',
          'in_e1',
          new Date().toISOString(),
        );
        const answers = await sim.deliverWithRetry(failed);
        expect(answers.map((r) => r.statusCode)).toEqual([500, 202]);
        expect(JSON.parse(answers[0]?.body ?? '{}').correlationId).toBeTruthy();
        expect(JSON.parse(answers[1]?.body ?? '{}').outcome).toBe('applied');
        expect(await count('billing_events')).toBe(events + 1);
        expect(await subscription(e)).toMatchObject({ unpaidInvoices: 1 });
      } finally {
        await sql`DROP TRIGGER billing_fail_once ON billing_invoices`.execute(t.database.system);
      }
    });
  });

  describe('plan-change requests', () => {
    it('only owners may request; forbidden changes are 409s that say why', async () => {
      await accepted(subscriptionEvent('subscription.created', a, 'cus_a', { plan: 'team' }));
      for (const role of ['viewer', 'member', 'admin']) {
        const res = await t.as(roleTokens[role] ?? '', {
          method: 'POST',
          url: '/api/v1/billing/plan-change-requests',
          payload: { plan: 'business' },
        });
        expect(res.statusCode, role).toBe(403);
      }
      const request = (plan: string) =>
        t.as(a.token, {
          method: 'POST',
          url: '/api/v1/billing/plan-change-requests',
          payload: { plan },
        });
      expect((await request('trial')).statusCode).toBe(400);
      const same = await request('team');
      expect(same.statusCode).toBe(409);
      expect(same.json().detail).toMatch(/already on the team plan/);
      for (let i = 0; i < 6; i++) await insertRepository(t, a.tenantId, `a${i}`);
      const down = await request('free');
      expect(down.statusCode).toBe(409);
      expect(down.json().detail).toMatch(/6 repositories; the free plan allows 5\. Remove 1/);
      const issued = new Date().toISOString();
      await accepted(invoiceEvent('invoice.finalized', 'cus_a', 'in_a1', issued));
      const unpaid = await request('business');
      expect(unpaid.statusCode).toBe(409);
      expect(unpaid.json().detail).toMatch(/1 unpaid invoice/);
      await accepted(invoiceEvent('invoice.paid', 'cus_a', 'in_a1', issued));
      const ok = await request('business');
      expect(ok.statusCode, ok.body).toBe(202);
      expect(ok.json()).toMatchObject({
        fromPlan: 'team',
        requestedPlan: 'business',
        state: 'pending',
      });
      expect(await planOf(a.tenantId)).toBe('team');
      expect((await subscription(a)).pendingPlanChange).toMatchObject({
        requestedPlan: 'business',
      });
      // The provider confirms: the plan changes and the request is fulfilled.
      await accepted(subscriptionEvent('subscription.updated', a, 'cus_a', { plan: 'business' }));
      expect(await subscription(a)).toMatchObject({ plan: 'business', pendingPlanChange: null });
      const audit = await withTenant(t.database, a.tenantId, (db) =>
        db
          .selectFrom('audit_log')
          .select(['action', 'outcome'])
          .where('action', '=', 'billing.plan_change_request')
          .execute(),
      );
      expect(audit.map((row) => row.outcome).sort()).toEqual(
        [
          'conflict',
          'conflict',
          'conflict',
          'denied',
          'denied',
          'denied',
          'invalid',
          'success',
        ].sort(),
      );
    });
  });

  describe('invoices', () => {
    it('are for admins and owners; another tenant gets 404', async () => {
      const list = await t.as(a.token, { method: 'GET', url: '/api/v1/billing/invoices' });
      const invoiceId = list.json().items[0]?.invoiceId as string;
      expect(invoiceId).toBeTruthy();
      for (const role of ['viewer', 'member']) {
        for (const url of [
          '/api/v1/billing/invoices',
          `/api/v1/billing/invoices/${invoiceId}`,
          '/api/v1/billing/subscription',
        ]) {
          expect(
            (await t.as(roleTokens[role] ?? '', { method: 'GET', url })).statusCode,
            `${role} ${url}`,
          ).toBe(403);
        }
      }
      for (const role of ['admin', 'owner']) {
        const view = await t.as(roleTokens[role] ?? '', {
          method: 'GET',
          url: '/api/v1/billing/subscription',
        });
        expect(view.statusCode, role).toBe(200);
        expect(view.json()).toMatchObject({ plan: 'business', customerId: 'cus_a' });
        const one = await t.as(roleTokens[role] ?? '', {
          method: 'GET',
          url: `/api/v1/billing/invoices/${invoiceId}`,
        });
        expect(one.statusCode, role).toBe(200);
        expect(one.json()).toMatchObject({
          invoiceId,
          providerInvoiceId: 'in_a1',
          number: 'INV-in_a1',
          status: 'paid',
          currency: 'EUR',
          amountDue: 4900,
          amountPaid: 4900,
        });
      }
      const other = await t.as(b.token, {
        method: 'GET',
        url: `/api/v1/billing/invoices/${invoiceId}`,
      });
      expect(other.statusCode).toBe(404);
      const otherList = await t.as(b.token, { method: 'GET', url: '/api/v1/billing/invoices' });
      expect(otherList.json().items.map((i: { invoiceId: string }) => i.invoiceId)).not.toContain(
        invoiceId,
      );
      expect(
        (await t.as(a.token, { method: 'GET', url: '/api/v1/billing/invoices/not-a-uuid' }))
          .statusCode,
      ).toBe(400);
      expect(
        (
          await t.as(a.token, {
            method: 'GET',
            url: '/api/v1/billing/invoices/0190d6f8-0000-7000-8000-000000000000',
          })
        ).statusCode,
      ).toBe(404);
      expect(
        (await t.app.inject({ method: 'GET', url: '/api/v1/billing/invoices' })).statusCode,
      ).toBe(401);
    });

    it('page by cursor, stable under concurrent inserts; skip is ignored', async () => {
      const f = await t.createTenant('free', 'F');
      await accepted(subscriptionEvent('subscription.created', f, 'cus_f', { plan: 'team' }));
      const base = Date.now() - 10 * 86_400_000;
      const issue = async (n: number, offsetDays: number) =>
        accepted(
          invoiceEvent(
            'invoice.finalized',
            'cus_f',
            `in_f${n}`,
            new Date(base + offsetDays * 86_400_000).toISOString(),
          ),
        );
      for (let n = 0; n < 7; n++) await issue(n, n);
      const page = async (query: string) => {
        const res = await t.as(f.token, { method: 'GET', url: `/api/v1/billing/invoices${query}` });
        expect(res.statusCode, res.body).toBe(200);
        return res.json() as {
          items: { providerInvoiceId: string }[];
          hasMore: boolean;
          nextCursor: string | null;
          take: number;
        };
      };
      const first = await page('?take=3');
      expect(first).toMatchObject({ take: 3, hasMore: true });
      expect(first.items.map((i) => i.providerInvoiceId)).toEqual(['in_f6', 'in_f5', 'in_f4']);
      expect(await page('?take=3&skip=2')).toEqual(first);
      // Newer invoices arrive while the client pages, one at the same time as its request.
      await issue(7, 8);
      const [second] = await Promise.all([page(`?take=3&cursor=${first.nextCursor}`), issue(8, 9)]);
      expect(second.items.map((i) => i.providerInvoiceId)).toEqual(['in_f3', 'in_f2', 'in_f1']);
      const third = await page(`?take=3&cursor=${second.nextCursor}`);
      expect(third).toMatchObject({ hasMore: false, nextCursor: null });
      expect(third.items.map((i) => i.providerInvoiceId)).toEqual(['in_f0']);
      expect((await page('')).items.map((i) => i.providerInvoiceId).slice(0, 2)).toEqual([
        'in_f8',
        'in_f7',
      ]);
      for (const bad of ['nope', Buffer.from('["x","y"]').toString('base64url')]) {
        const res = await t.as(f.token, {
          method: 'GET',
          url: `/api/v1/billing/invoices?cursor=${bad}`,
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().errors).toHaveProperty('cursor');
      }
      expect(
        (await t.as(f.token, { method: 'GET', url: '/api/v1/billing/invoices?take=0' })).statusCode,
      ).toBe(400);
      expect((await page('?take=1000')).take).toBe(200);
    });
  });
});
