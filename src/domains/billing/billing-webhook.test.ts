import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BillingContext,
  billingHelpers,
  NEXT_SECRET,
  SECRET,
  startBilling,
} from '../../../test/support/billing';
import type { BillingProviderSimulator } from '../../../test/support/billing-provider-simulator';
import type { TestApp, TestTenant } from '../../../test/support/test-app';

/**
 * The billing provider's webhook end to end (docs/billing.md#the-webhook): the provider
 * simulator signs deliveries as the provider does; the operator's secrets, every signature case,
 * malformed bodies, rate-limit exemption, reordered and shuffled deliveries, unmatched events and
 * the store failing once. Plans, plan changes and invoices: billing.test.ts.
 */
describe('billing provider webhook', () => {
  let t: TestApp;
  let a: TestTenant;
  let sim: BillingProviderSimulator;
  const context: Partial<BillingContext> = {};
  const { operator, count, planOf, subscription, subscriptionEvent, invoiceEvent, accepted } =
    billingHelpers(context);

  beforeAll(async () => {
    ({ t, sim } = await startBilling(context, { secret: false }));
    a = await t.createTenant('free', 'A');
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
      // Delayed in transit but signed within five minutes, either way: accepted.
      expect((await sim.deliver(event(), { skewSeconds: -290 })).statusCode).toBe(202);
      expect((await sim.deliver(event(), { skewSeconds: 290 })).statusCode).toBe(202);
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
});
