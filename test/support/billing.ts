import { expect } from 'vitest';
import { BillingProviderSimulator, type SimulatedEvent } from './billing-provider-simulator';
import { createTestApp, openTestDatabase, type TestApp, type TestTenant } from './test-app';

/**
 * The setup and helpers the billing tests share (src/domains/billing/*.test.ts): a test app with
 * an operator token, the provider simulator posting to the webhook, and event builders.
 */
export const OPERATOR_TOKEN = 'operator-token-for-billing-tests';
export const SECRET = 'whsec_billing_secret_one_0001';
export const NEXT_SECRET = 'whsec_billing_secret_two_0002';
export const WEBHOOK = '/api/v1/webhooks/billing-provider';

export interface BillingContext {
  t: TestApp;
  sim: BillingProviderSimulator;
}

/** Fills `context` (the helpers read it lazily); `secret`: the operator sets SECRET first. */
export async function startBilling(
  context: Partial<BillingContext>,
  options: { secret: boolean },
): Promise<BillingContext> {
  // The embedded database gets one connection, as the service opens it (src/service.ts):
  // PGlite is one session, and concurrent transactions on several connections would interleave.
  const database = await openTestDatabase(process.env.TEST_DATABASE_URL ? 10 : 1);
  const t = await createTestApp({ operatorToken: OPERATOR_TOKEN }, { database });
  const sim = new BillingProviderSimulator(
    async ({ headers, payload }) => {
      const res = await t.app.inject({ method: 'POST', url: WEBHOOK, headers, payload });
      return { statusCode: res.statusCode, body: res.body };
    },
    [SECRET],
  );
  if (options.secret) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/billing/provider-secrets',
      payload: { secret: SECRET },
      headers: { authorization: `Bearer ${OPERATOR_TOKEN}` },
    });
    expect(res.statusCode, res.body).toBe(201);
  }
  Object.assign(context, { t, sim });
  return { t, sim };
}

export function billingHelpers(context: Partial<BillingContext>) {
  const app = () => {
    if (!context.t) throw new Error('startBilling first');
    return context.t;
  };
  const simulator = () => {
    if (!context.sim) throw new Error('startBilling first');
    return context.sim;
  };
  const operator = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    app().app.inject({
      method,
      url,
      payload,
      headers: { authorization: `Bearer ${OPERATOR_TOKEN}` },
    });
  const count = async (table: 'billing_events' | 'billing_invoices' | 'audit_log') => {
    const row = await app()
      .database.system.selectFrom(table)
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
  const planOf = async (tenantId: string) =>
    (
      await app()
        .database.system.selectFrom('tenants')
        .select('plan')
        .where('id', '=', tenantId)
        .executeTakeFirstOrThrow()
    ).plan;
  const flags = async (tenant: TestTenant) => {
    const res = await app().as(tenant.token, { method: 'GET', url: '/api/v1/feature-flags' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { plan: string; items: { key: string; enabled: boolean }[] };
    return { plan: body.plan, enabled: body.items.filter((i) => i.enabled).map((i) => i.key) };
  };
  const subscription = async (tenant: TestTenant) => {
    const res = await app().as(tenant.token, {
      method: 'GET',
      url: '/api/v1/billing/subscription',
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const tokenWith = async (tenant: TestTenant, role: string) => {
    const res = await app().as(tenant.token, {
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
    simulator().event(
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
    simulator().event(
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
    const res = await simulator().deliver(event);
    expect(res.statusCode, res.body).toBe(202);
    return JSON.parse(res.body) as { outcome: string; eventId: string };
  };
  return {
    operator,
    count,
    planOf,
    flags,
    subscription,
    tokenWith,
    subscriptionEvent,
    invoiceEvent,
    accepted,
  };
}
