import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BillingContext, billingHelpers, startBilling } from '../../../test/support/billing';
import type { BillingProviderSimulator } from '../../../test/support/billing-provider-simulator';
import { insertRepository } from '../../../test/support/exposures';
import type { TestApp, TestTenant } from '../../../test/support/test-app';
import { jobDefinitions } from '../../background-jobs';
import { withTenant } from '../../db/tenant-scope';
import { GRACE_EXPIRED } from './jobs';

/**
 * Plans follow the provider's events (docs/billing.md#state): features and limits at once,
 * replays and simultaneous duplicates, the grace period and its job, cancellation keeping data;
 * owners' plan-change requests and their 409s; invoices for admins and owners, another tenant's
 * 404, cursor paging under concurrent inserts. The signature cases: billing-webhook.test.ts.
 */
describe('billing plans and invoices', () => {
  let t: TestApp;
  let a: TestTenant;
  let b: TestTenant;
  let sim: BillingProviderSimulator;
  const roleTokens: Record<string, string> = {};
  const context: Partial<BillingContext> = {};
  const {
    count,
    planOf,
    flags,
    subscription,
    tokenWith,
    subscriptionEvent,
    invoiceEvent,
    accepted,
  } = billingHelpers(context);

  beforeAll(async () => {
    ({ t, sim } = await startBilling(context, { secret: true }));
    a = await t.createTenant('free', 'A');
    b = await t.createTenant('free', 'B');
    for (const role of ['viewer', 'member', 'admin']) roleTokens[role] = await tokenWith(a, role);
    roleTokens.owner = a.token;
  });
  afterAll(async () => {
    await t?.close();
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
