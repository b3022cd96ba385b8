import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestTenant } from '../../../test/support/test-app';
import {
  receiverConfig,
  startWebhookReceiver,
  verifyDelivery,
  type WebhookReceiver,
} from '../../../test/support/webhook-receiver';

let t: TestApp;
let receiver: WebhookReceiver;
let admin: TestTenant;
let other: TestTenant;
let member: string;
let viewer: string;

const MISSING = '01890000-0000-7000-8000-000000000000';

async function issueToken(role: string): Promise<string> {
  const issued = await t.as(admin.token, {
    method: 'POST',
    url: '/api/v1/api-tokens',
    payload: { name: role, roleScopeJson: JSON.stringify({ roles: [role] }), expiresAtUtc: null },
  });
  expect(issued.statusCode).toBe(201);
  return issued.json().rawSecret as string;
}

const create = (token: string, payload: object) =>
  t.as(token, { method: 'POST', url: '/api/v1/integrations/webhooks', payload });

async function createHook(name = 'hook', as: TestTenant = admin) {
  const response = await create(as.token, { name, url: receiver.url });
  expect(response.statusCode).toBe(201);
  return response.json() as { integrationId: string; secret: string; url: string };
}

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  t = await createTestApp(receiverConfig(receiver));
  admin = await t.createTenant('team');
  other = await t.createTenant('enterprise', 'Other');
  member = await issueToken('member');
  viewer = await issueToken('viewer');
});

afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

describe('POST /api/v1/integrations/webhooks', () => {
  it('answers 201 with the record and a secret shown once, sealed at rest', async () => {
    const response = await create(admin.token, { name: '  Alerts  ', url: receiver.url });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toEqual({
      integrationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      kind: 'webhook',
      name: 'Alerts',
      url: receiver.url,
      status: 'active',
      disabledReason: null,
      disabledAtUtc: null,
      lastSuccessAtUtc: null,
      lastFailureAtUtc: null,
      createdAtUtc: expect.any(String),
      updatedAtUtc: expect.any(String),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    const stored = await t.database.system
      .selectFrom('integrations')
      .selectAll()
      .where('id', '=', body.integrationId)
      .executeTakeFirstOrThrow();
    expect(stored.tenant_id).toBe(admin.tenantId);
    expect(JSON.stringify(stored)).not.toContain(body.secret.slice(6));
    expect(t.secretBox.open(stored.secret_sealed)).toBe(body.secret);
    for (const url of ['/api/v1/integrations', `/api/v1/integrations/${body.integrationId}`]) {
      const read = await t.as(admin.token, { url });
      expect(read.statusCode).toBe(200);
      expect(read.body).not.toContain(body.secret.slice(6));
      expect(read.body).not.toContain('secret');
    }
  });

  it.each([
    ['no name', { url: 'https://example.com/' }, 400, 'name'],
    ['an extra field', { name: 'x', url: 'https://example.com/', secret: 'mine' }, 400, null],
    ['an empty name', { name: '   ', url: 'https://example.com/' }, 422, 'name'],
    ['http', { name: 'x', url: 'http://example.com/hook' }, 422, 'url'],
    ['not a URL', { name: 'x', url: 'example.com/hook' }, 422, 'url'],
    ['credentials', { name: 'x', url: 'https://user:pw@example.com/' }, 422, 'url'],
    ['a fragment', { name: 'x', url: 'https://example.com/#frag' }, 422, 'url'],
    ['a private address', { name: 'x', url: 'https://10.0.0.1/hook' }, 422, 'url'],
    ['cloud metadata', { name: 'x', url: 'https://169.254.169.254/latest' }, 422, 'url'],
    ['ftp', { name: 'x', url: 'ftp://example.com/' }, 422, 'url'],
  ])('refuses %s, storing nothing', async (_what, payload, status, field) => {
    const before = (await t.as(admin.token, { url: '/api/v1/integrations' })).json().total;
    const response = await create(admin.token, payload);
    expect(response.statusCode).toBe(status);
    expect(response.headers['content-type']).toContain('application/problem+json');
    if (field) expect(response.json().errors[field]).toBeDefined();
    const after = (await t.as(admin.token, { url: '/api/v1/integrations' })).json().total;
    expect(after).toBe(before);
  });

  it('needs the admin role and the plan feature', async () => {
    expect((await create(member, { name: 'x', url: receiver.url })).statusCode).toBe(403);
    expect((await create(viewer, { name: 'x', url: receiver.url })).statusCode).toBe(403);
    for (const plan of ['free', 'trial'] as const) {
      const tenant = await t.createTenant(plan, `On ${plan}`);
      const refused = await create(tenant.token, { name: 'x', url: receiver.url });
      expect(refused.statusCode).toBe(403);
      expect((await t.as(tenant.token, { url: '/api/v1/integrations' })).json().total).toBe(0);
    }
    expect((await create(other.token, { name: 'x', url: receiver.url })).statusCode).toBe(201);
  });
});

describe('reading integrations', () => {
  it('lists the tenant’s own integrations, unpaged; members read, viewers do not', async () => {
    const mine = await createHook('listed');
    const theirs = await createHook('theirs', other);
    const list = await t.as(member, { url: '/api/v1/integrations' });
    expect(list.statusCode).toBe(200);
    const ids = list.json().items.map((item: { integrationId: string }) => item.integrationId);
    expect(ids).toContain(mine.integrationId);
    expect(ids).not.toContain(theirs.integrationId);
    expect(list.json().total).toBe(ids.length);
    const one = await t.as(member, { url: `/api/v1/integrations/${mine.integrationId}` });
    expect(one.json().name).toBe('listed');
    expect((await t.as(viewer, { url: '/api/v1/integrations' })).statusCode).toBe(403);
    const log = await t.as(member, {
      url: `/api/v1/integrations/${mine.integrationId}/deliveries`,
    });
    expect(log.json()).toEqual({ items: [], totalEstimate: 0, take: 50, skip: 0 });
  });

  it('answers 404 for another tenant’s or an unknown id, 400 for a malformed one', async () => {
    const theirs = await createHook('private', other);
    const base = `/api/v1/integrations/${theirs.integrationId}`;
    const attempts = [
      { method: 'GET' as const, url: base },
      { method: 'PATCH' as const, url: base, payload: { name: 'mine now' } },
      { method: 'DELETE' as const, url: base },
      { method: 'POST' as const, url: `${base}/rotate-secret` },
      { method: 'POST' as const, url: `${base}/test` },
      { method: 'GET' as const, url: `${base}/deliveries` },
    ];
    for (const request of attempts) {
      expect((await t.as(admin.token, request)).statusCode, request.url).toBe(404);
      const unknown = { ...request, url: request.url.replace(theirs.integrationId, MISSING) };
      expect((await t.as(admin.token, unknown)).statusCode, unknown.url).toBe(404);
    }
    expect((await t.as(admin.token, { url: '/api/v1/integrations/nope' })).statusCode).toBe(400);
    const still = await t.as(other.token, { url: base });
    expect(still.json()).toMatchObject({ name: 'private', status: 'active' });
  });
});

describe('changing integrations', () => {
  it('renames, refuses an internal url (unchanged), disables and re-enables', async () => {
    const hook = await createHook('before');
    const url = `/api/v1/integrations/${hook.integrationId}`;
    const renamed = await t.as(admin.token, { method: 'PATCH', url, payload: { name: 'after' } });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().name).toBe('after');
    const internal = await t.as(admin.token, {
      method: 'PATCH',
      url,
      payload: { url: 'https://[::ffff:10.0.0.1]/hook' },
    });
    expect(internal.statusCode).toBe(422);
    expect(internal.json().errors.url).toEqual(['the address is not allowed']);
    expect((await t.as(admin.token, { url })).json().url).toBe(hook.url);
    const empty = await t.as(admin.token, { method: 'PATCH', url, payload: {} });
    expect(empty.statusCode).toBe(400);
    expect((await t.as(member, { method: 'PATCH', url, payload: { name: 'x' } })).statusCode).toBe(
      403,
    );

    const disabled = await t.as(admin.token, { method: 'PATCH', url, payload: { enabled: false } });
    expect(disabled.json()).toMatchObject({ status: 'disabled', disabledReason: 'manual' });
    expect(disabled.json().disabledAtUtc).not.toBeNull();
    const refused = await t.as(admin.token, { method: 'POST', url: `${url}/test` });
    expect(refused.statusCode).toBe(409);
    const enabled = await t.as(admin.token, { method: 'PATCH', url, payload: { enabled: true } });
    expect(enabled.json()).toMatchObject({
      status: 'active',
      disabledReason: null,
      disabledAtUtc: null,
    });
  });

  it('sends a signed test event and logs the attempt', async () => {
    const hook = await createHook('tested');
    receiver.received.length = 0;
    const url = `/api/v1/integrations/${hook.integrationId}`;
    expect((await t.as(member, { method: 'POST', url: `${url}/test` })).statusCode).toBe(403);
    const queued = await t.as(admin.token, { method: 'POST', url: `${url}/test` });
    expect(queued.statusCode).toBe(202);
    expect(queued.json()).toMatchObject({
      eventType: 'integration.test',
      status: 'pending',
      attemptCount: 0,
      attempts: [],
    });
    await t.runJobs();
    expect(receiver.received).toHaveLength(1);
    const request = receiver.received[0];
    if (!request) throw new Error('no request');
    expect(request.headers['webhook-id']).toBe(queued.json().deliveryId);
    const envelope = verifyDelivery(hook.secret, request);
    expect(envelope).toMatchObject({
      type: 'integration.test',
      data: { integrationId: hook.integrationId },
    });
    const log = await t.as(member, { url: `${url}/deliveries` });
    const [delivery] = log.json().items;
    expect(delivery).toMatchObject({
      deliveryId: queued.json().deliveryId,
      status: 'succeeded',
      attemptCount: 1,
      nextAttemptAtUtc: null,
      lastStatusCode: 200,
      lastError: null,
    });
    expect(delivery.finishedAtUtc).not.toBeNull();
    expect(delivery.attempts).toEqual([
      {
        attempt: 1,
        startedAtUtc: expect.any(String),
        durationMs: expect.any(Number),
        statusCode: 200,
        outcome: 'succeeded',
        error: null,
      },
    ]);
    expect((await t.as(admin.token, { url })).json().lastSuccessAtUtc).not.toBeNull();
  });

  it('rotates the secret: the new one signs, the old one no longer verifies', async () => {
    const hook = await createHook('rotated');
    const url = `/api/v1/integrations/${hook.integrationId}`;
    expect((await t.as(member, { method: 'POST', url: `${url}/rotate-secret` })).statusCode).toBe(
      403,
    );
    const rotated = await t.as(admin.token, { method: 'POST', url: `${url}/rotate-secret` });
    expect(rotated.statusCode).toBe(200);
    const secret = rotated.json().secret as string;
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(hook.secret);
    receiver.received.length = 0;
    await t.as(admin.token, { method: 'POST', url: `${url}/test` });
    await t.runJobs();
    const request = receiver.received[0];
    if (!request) throw new Error('no request');
    expect(verifyDelivery(secret, request).type).toBe('integration.test');
    expect(() => verifyDelivery(hook.secret, request)).toThrow();
  });

  it('deletes an integration with its delivery log', async () => {
    const hook = await createHook('deleted');
    const url = `/api/v1/integrations/${hook.integrationId}`;
    await t.as(admin.token, { method: 'POST', url: `${url}/test` });
    expect((await t.as(member, { method: 'DELETE', url })).statusCode).toBe(403);
    const deleted = await t.as(admin.token, { method: 'DELETE', url });
    expect(deleted.statusCode).toBe(204);
    expect((await t.as(admin.token, { url })).statusCode).toBe(404);
    expect((await t.as(admin.token, { method: 'DELETE', url })).statusCode).toBe(404);
    const left = await t.database.system
      .selectFrom('outbound_deliveries')
      .select('id')
      .where('target_id', '=', hook.integrationId)
      .execute();
    expect(left).toEqual([]);
    // The queued first attempt finds nothing to do.
    receiver.received.length = 0;
    await t.runJobs();
    expect(receiver.received).toHaveLength(0);
  });
});
