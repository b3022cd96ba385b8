import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestTenant } from '../../../../test/support/test-app';
import { allowLoopbackProbes, watchEndpoint } from '../../../../test/support/tls-endpoints';
import { tokenWithRole } from '../../../../test/support/workspace';
import { newId } from '../../../db/ids';
import { withTenant } from '../../../db/tenant-scope';
import { MAX_ENDPOINTS_PER_TENANT } from './endpoints';
import { PROBE_ENDPOINT } from './jobs';

/**
 * The endpoint routes of docs/quantum.md#tls-observations: defaults, changes, validation,
 * duplicates and the limit, roles, the plan's feature, and another tenant's ids.
 */

const BASE = '/api/v1/quantum/tls-endpoints';

let t: TestApp;
let a: TestTenant;
let b: TestTenant;
let team: TestTenant;

beforeAll(async () => {
  t = await createTestApp();
  a = await t.createTenant('enterprise', 'A');
  b = await t.createTenant('enterprise', 'B');
  team = await t.createTenant('team', 'Team');
  for (const tenant of [a, b, team]) allowLoopbackProbes(t, tenant.tenantId);
});
afterAll(async () => t?.close());

const call = (
  token: string,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
) => t.as(token, { method, url, ...(payload ? { payload } : {}) });

describe('watching endpoints', () => {
  it('creates with defaults, reads, changes and deletes', async () => {
    const created = await call(a.token, 'POST', BASE, { host: 'WWW.Example.COM.' });
    expect(created.statusCode, created.body).toBe(201);
    const body = created.json();
    expect(body).toMatchObject({
      host: 'www.example.com',
      port: 443,
      serverName: 'www.example.com',
      intervalHours: 24,
      lastProbedAtUtc: null,
      latestObservation: null,
    });
    // Due at once: the schedule probes a new endpoint within a minute.
    expect(Date.parse(body.nextProbeAtUtc)).toBeLessThanOrEqual(Date.now());

    const ip = await call(a.token, 'POST', BASE, { host: '[::FFFF:7F00:1]', port: 8443 });
    expect(ip.statusCode, ip.body).toBe(201);
    expect(ip.json()).toMatchObject({ host: '::ffff:7f00:1', port: 8443, serverName: null });

    const list = await call(a.token, 'GET', BASE);
    expect(list.json().items.map((e: { endpointId: string }) => e.endpointId)).toEqual([
      ip.json().endpointId,
      body.endpointId,
    ]);
    expect((await call(a.token, 'GET', `${BASE}/${body.endpointId}`)).json()).toEqual(body);

    const changed = await call(a.token, 'PATCH', `${BASE}/${body.endpointId}`, {
      intervalHours: 1,
      serverName: 'api.example.com',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ intervalHours: 1, serverName: 'api.example.com' });
    // Null gives a name host its own name back.
    const reset = await call(a.token, 'PATCH', `${BASE}/${body.endpointId}`, { serverName: null });
    expect(reset.json().serverName).toBe('www.example.com');
    expect((await call(a.token, 'PATCH', `${BASE}/${body.endpointId}`, {})).json()).toEqual(
      reset.json(),
    );

    expect((await call(a.token, 'DELETE', `${BASE}/${body.endpointId}`)).statusCode).toBe(204);
    expect((await call(a.token, 'GET', `${BASE}/${body.endpointId}`)).statusCode).toBe(404);
    expect((await call(a.token, 'DELETE', `${BASE}/${body.endpointId}`)).statusCode).toBe(404);

    const audit = await call(a.token, 'GET', '/api/v1/audit-log');
    const actions = audit.json().items.map((entry: { action: string }) => entry.action);
    for (const action of ['create', 'update', 'delete']) {
      expect(actions).toContain(`quantum_tls_endpoint.${action}`);
    }
  });

  it('queues a probe now, coalesced with one already waiting', async () => {
    const endpointId = await watchEndpoint(t, a.token, { host: '127.0.0.1', port: 9 });
    for (let i = 0; i < 2; i++) {
      const res = await call(a.token, 'POST', `${BASE}/${endpointId}/probe`);
      expect(res.statusCode, res.body).toBe(202);
      expect(res.json().endpointId).toBe(endpointId);
    }
    const queued = await t.database.system
      .selectFrom('job_outbox')
      .select('data')
      .where('job_name', '=', PROBE_ENDPOINT.name)
      .execute();
    expect(queued).toEqual([{ data: { endpointId } }, { data: { endpointId } }]);
    // One waiting job per endpoint (pg-boss drops the second send while the first waits).
    expect(PROBE_ENDPOINT.policy).toBe('short');
    expect(
      PROBE_ENDPOINT.sendOptions?.({
        tenantId: a.tenantId,
        correlationId: null,
        data: { endpointId },
      }),
    ).toEqual({ singletonKey: `${a.tenantId}:${endpointId}` });
    await t.database.system.deleteFrom('job_outbox').execute();
  });
});

describe('validation', () => {
  const cases: [string, object, number, string][] = [
    ['an empty host', { host: '' }, 400, 'host'],
    ['a host with a space', { host: 'bad host.test' }, 422, 'host'],
    ['an empty label', { host: 'a..b.test' }, 422, 'host'],
    ['a label starting with a hyphen', { host: '-x.test' }, 422, 'host'],
    ['a numeric IPv4 spelling', { host: '127.1' }, 422, 'host'],
    ['a URL instead of a host', { host: 'https://example.com' }, 422, 'host'],
    ['localhost', { host: 'localhost' }, 422, 'host'],
    [
      'a cloud metadata address, even with loopback allowed',
      { host: '169.254.169.254' },
      422,
      'host',
    ],
    ['a private address not allowed for the tenant', { host: '10.1.2.3' }, 422, 'host'],
    ['port 0', { host: 'example.com', port: 0 }, 400, 'port'],
    ['port 65536', { host: 'example.com', port: 65536 }, 400, 'port'],
    ['interval 0', { host: 'example.com', intervalHours: 0 }, 400, 'intervalHours'],
    ['interval 721', { host: 'example.com', intervalHours: 721 }, 400, 'intervalHours'],
    ['an IP server name', { host: 'example.com', serverName: '10.0.0.1' }, 422, 'serverName'],
    ['an unknown field', { host: 'example.com', path: '/' }, 400, 'body'],
  ];

  it.each(cases)('%s: a problem naming the field', async (_name, payload, status, field) => {
    const res = await call(a.token, 'POST', BASE, payload);
    expect(res.statusCode, res.body).toBe(status);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(Object.keys(res.json().errors ?? {}).join(' ')).toContain(field);
  });

  it('refuses a change to an interval of 0 or an IP server name', async () => {
    const endpointId = await watchEndpoint(t, a.token, { host: 'change.example.com' });
    const zero = await call(a.token, 'PATCH', `${BASE}/${endpointId}`, { intervalHours: 0 });
    expect(zero.statusCode).toBe(400);
    const ip = await call(a.token, 'PATCH', `${BASE}/${endpointId}`, { serverName: '::1' });
    expect(ip.statusCode).toBe(422);
    expect(ip.json().errors).toHaveProperty('serverName');
  });

  it('refuses a second endpoint of the same host, port and server name, and past the limit', async () => {
    const first = await watchEndpoint(t, b.token, { host: '127.0.0.1', port: 8443 });
    expect((await call(b.token, 'POST', BASE, { host: '127.0.0.1', port: 8443 })).statusCode).toBe(
      409,
    );
    const named = await watchEndpoint(t, b.token, {
      host: '127.0.0.1',
      port: 8443,
      serverName: 'one.test',
    });
    expect(named).not.toBe(first);
    const clash = await call(b.token, 'PATCH', `${BASE}/${first}`, { serverName: 'one.test' });
    expect(clash.statusCode, clash.body).toBe(409);

    await withTenant(t.database, b.tenantId, (db) =>
      db
        .insertInto('quantum_tls_endpoints')
        .values(
          Array.from({ length: MAX_ENDPOINTS_PER_TENANT - 2 }, (_, i) => ({
            id: newId(),
            host: `h${i}.example.com`,
            port: 443,
            server_name: `h${i}.example.com`,
            interval_hours: 24,
          })),
        )
        .execute(),
    );
    const over = await call(b.token, 'POST', BASE, { host: 'one-more.example.com' });
    expect(over.statusCode).toBe(409);
    expect(over.json().detail).toContain(String(MAX_ENDPOINTS_PER_TENANT));
    expect((await call(b.token, 'GET', BASE)).json().items).toHaveLength(MAX_ENDPOINTS_PER_TENANT);
  });
});

describe('access', () => {
  it('viewers read, members probe, admins change; a plan without quantum gets the feature 403', async () => {
    const endpointId = await watchEndpoint(t, a.token, { host: 'roles.example.com' });
    const viewer = await tokenWithRole(t, a, 'viewer');
    const member = await tokenWithRole(t, a, 'member');
    const admin = await tokenWithRole(t, a, 'admin');
    const item = `${BASE}/${endpointId}`;
    for (const token of [viewer, member]) {
      expect((await call(token, 'GET', BASE)).statusCode).toBe(200);
      expect((await call(token, 'GET', item)).statusCode).toBe(200);
      expect((await call(token, 'GET', '/api/v1/quantum/tls-observations')).statusCode).toBe(200);
      expect((await call(token, 'POST', BASE, { host: 'x.example.com' })).statusCode).toBe(403);
      expect((await call(token, 'PATCH', item, { intervalHours: 2 })).statusCode).toBe(403);
      expect((await call(token, 'DELETE', item)).statusCode).toBe(403);
    }
    expect((await call(viewer, 'POST', `${item}/probe`)).statusCode).toBe(403);
    expect((await call(member, 'POST', `${item}/probe`)).statusCode).toBe(202);
    expect((await call(admin, 'PATCH', item, { intervalHours: 2 })).statusCode).toBe(200);
    expect((await call(admin, 'POST', BASE, { host: 'admin.example.com' })).statusCode).toBe(201);

    // The team plan lacks quantum: the same problem as the other gated areas (CRA here).
    const cra = await call(team.token, 'GET', '/api/v1/cra/products');
    expect(cra.statusCode).toBe(403);
    for (const [method, url, payload] of [
      ['GET', BASE],
      ['POST', BASE, { host: 'team.example.com' }],
      ['GET', item],
      ['PATCH', item, { intervalHours: 2 }],
      ['DELETE', item],
      ['POST', `${item}/probe`],
      ['GET', '/api/v1/quantum/tls-observations'],
    ] as const) {
      const res = await call(team.token, method, url, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json()).toMatchObject({
        title: cra.json().title,
        type: cra.json().type,
        detail: 'The team plan does not include: Post-quantum readiness findings.',
      });
    }
  });

  it("another tenant's endpoint is a 404 on every route and absent from its lists", async () => {
    const endpointId = await watchEndpoint(t, a.token, { host: 'private.example.com' });
    const item = `${BASE}/${endpointId}`;
    expect((await call(b.token, 'GET', item)).statusCode).toBe(404);
    expect((await call(b.token, 'PATCH', item, { intervalHours: 3 })).statusCode).toBe(404);
    expect((await call(b.token, 'PATCH', item, {})).statusCode).toBe(404);
    expect((await call(b.token, 'POST', `${item}/probe`)).statusCode).toBe(404);
    expect((await call(b.token, 'DELETE', item)).statusCode).toBe(404);
    expect((await call(b.token, 'GET', `${BASE}/${newId()}`)).statusCode).toBe(404);
    expect((await call(b.token, 'GET', `${BASE}/not-a-uuid`)).statusCode).toBe(400);
    const listed = (await call(b.token, 'GET', BASE)).json().items;
    expect(listed.map((e: { endpointId: string }) => e.endpointId)).not.toContain(endpointId);
    const observations = await call(
      b.token,
      'GET',
      `/api/v1/quantum/tls-observations?endpointId=${endpointId}`,
    );
    expect(observations.json()).toMatchObject({ items: [], totalEstimate: 0 });
    // Still there for its own tenant, unchanged.
    expect((await call(a.token, 'GET', item)).json().intervalHours).toBe(24);
  });
});
