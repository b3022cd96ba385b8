import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CountingListener,
  startCountingListener,
} from '../../../../test/support/internal-addresses';
import { createTestApp, type TestApp, type TestTenant } from '../../../../test/support/test-app';
import {
  type SelfSignedCertificate,
  selfSignedCertificate,
} from '../../../../test/support/tls-certificate';
import {
  allowLoopbackProbes,
  type LocalServer,
  probeNow,
  type Switchboard,
  startHybridServer,
  startSwitchboard,
  startTlsServer,
  watchEndpoint,
} from '../../../../test/support/tls-endpoints';
import { newId } from '../../../db/ids';
import { withTenant } from '../../../db/tenant-scope';
import type { Resolver } from '../../../security/outbound-guard';
import { PROBE_ENDPOINT, queueDueProbes } from './jobs';
import { probeEndpoint } from './probe';

/**
 * TLS observations of real servers on 127.0.0.1 (docs/quantum.md#tls-observations): the
 * observation's fields, the inventory's certificates, the alerts, the guard and the schedule.
 */

interface ObservationBody {
  observationId: string;
  endpointId: string;
  endpoint: { host: string; port: number; serverName: string | null };
  address: string | null;
  observedAtUtc: string;
  state: string;
  protocol: string | null;
  cipherSuite: string | null;
  keyExchangeGroup: { name: string; codepoint: number } | null;
  supportedGroup: { name: string; codepoint: number } | null;
  hybridKexClassicalAuth: boolean;
  verdictReason: string | null;
  certificates: Record<string, unknown>[];
  problem: string | null;
}

let t: TestApp;
let a: TestTenant;
let far: SelfSignedCertificate;
let near: SelfSignedCertificate;
const servers: LocalServer[] = [];

beforeAll(async () => {
  t = await createTestApp({ tlsProbes: { timeoutMs: 3000 } });
  a = await t.createTenant('enterprise', 'Watcher');
  allowLoopbackProbes(t, a.tenantId);
  far = selfSignedCertificate('far.tls.test', ['DNS:far.tls.test'], undefined, {
    keyType: 'ec',
    days: 365,
  });
  near = selfSignedCertificate('near.tls.test', ['DNS:near.tls.test'], undefined, { days: 10 });
});
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  await t?.close();
  far?.remove();
  near?.remove();
});

async function started(server: Promise<LocalServer>): Promise<LocalServer> {
  const local = await server;
  servers.push(local);
  return local;
}

async function observations(
  query = '',
): Promise<{ items: ObservationBody[]; totalEstimate: number }> {
  const res = await t.as(a.token, {
    method: 'GET',
    url: `/api/v1/quantum/tls-observations${query}`,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function latestOf(endpointId: string): Promise<ObservationBody> {
  const page = await observations(`?endpointId=${endpointId}&take=1`);
  expect(page.items).toHaveLength(1);
  return page.items[0] as ObservationBody;
}

async function alertsOf(kind: string) {
  const res = await t.as(a.token, { method: 'GET', url: `/api/v1/alerts?kind=${kind}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().items as {
    severity: string;
    title: string;
    payload: Record<string, unknown>;
  }[];
}

const x25519 = { name: 'x25519', codepoint: 0x001d };

describe('observations of local servers', () => {
  const scenarios: [string, () => Promise<LocalServer>, Partial<ObservationBody>][] = [
    [
      'a TLS 1.2 server is vulnerable',
      () => startTlsServer(far, { maxVersion: 'TLSv1.2' }),
      {
        state: 'vulnerable',
        protocol: 'TLSv1.2',
        cipherSuite: 'TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256',
        keyExchangeGroup: x25519,
        hybridKexClassicalAuth: false,
        verdictReason: 'TLSv1.2 has only classical key exchange',
      },
    ],
    [
      'a TLS 1.3 server on X25519 is vulnerable',
      () => startTlsServer(far, { minVersion: 'TLSv1.3' }),
      {
        state: 'vulnerable',
        protocol: 'TLSv1.3',
        cipherSuite: 'TLS_AES_256_GCM_SHA384',
        keyExchangeGroup: x25519,
        supportedGroup: x25519,
        hybridKexClassicalAuth: false,
      },
    ],
    [
      'a server choosing X25519MLKEM768 when offered is hybrid, with classical authentication',
      () => startHybridServer(far),
      {
        state: 'hybrid',
        protocol: 'TLSv1.3',
        keyExchangeGroup: x25519,
        supportedGroup: { name: 'X25519MLKEM768', codepoint: 0x11ec },
        hybridKexClassicalAuth: true,
        verdictReason: 'hybrid key exchange, classical authentication',
      },
    ],
  ];

  it.each(scenarios)('%s', async (_name, start, expected) => {
    const server = await started(start());
    const endpointId = await watchEndpoint(t, a.token, {
      host: '127.0.0.1',
      port: server.port,
      serverName: 'far.tls.test',
    });
    await probeNow(t, a.token, endpointId);
    const observation = await latestOf(endpointId);
    expect(observation).toMatchObject({
      ...expected,
      endpointId,
      endpoint: { host: '127.0.0.1', port: server.port, serverName: 'far.tls.test' },
      address: '127.0.0.1',
    });
    const fingerprint = new X509Certificate(far.cert).fingerprint256
      .replaceAll(':', '')
      .toLowerCase();
    expect(observation.certificates).toEqual([
      expect.objectContaining({
        subject: 'CN=far.tls.test',
        keyAlgorithm: 'ECDSA',
        curve: 'P-256',
        keySize: 256,
        signatureAlgorithm: 'ecdsa-with-SHA256',
        fingerprintSha256: fingerprint,
        classification: 'disallowed-2035',
        expired: false,
        selfSigned: true,
      }),
    ]);
    // The inventory lists the chain with its provenance, and the endpoint says when it is next due.
    const inventory = await withTenant(t.database, a.tenantId, (db) =>
      db
        .selectFrom('quantum_certificates')
        .select(['provenance', 'fingerprint_sha256', 'repository_id'])
        .where('endpoint_id', '=', endpointId)
        .execute(),
    );
    expect(inventory).toEqual([
      { provenance: 'tls-observation', fingerprint_sha256: fingerprint, repository_id: null },
    ]);
    const endpoint = await t.as(a.token, {
      method: 'GET',
      url: `/api/v1/quantum/tls-endpoints/${endpointId}`,
    });
    const body = endpoint.json();
    expect(body.latestObservation).toMatchObject({
      observationId: observation.observationId,
      state: expected.state,
    });
    const interval = Date.parse(body.nextProbeAtUtc) - Date.parse(body.lastProbedAtUtc);
    expect(interval).toBe(24 * 3_600_000);
  });

  it('lists observations newest first, filtered by state, paged by take and skip', async () => {
    const all = await observations();
    expect(all.totalEstimate).toBe(all.items.length);
    const times = all.items.map((item) => item.observedAtUtc);
    expect([...times].sort().reverse()).toEqual(times);
    const hybrid = await observations('?state=Hybrid');
    expect(hybrid.items.length).toBeGreaterThan(0);
    expect(hybrid.items.every((item) => item.state === 'hybrid')).toBe(true);
    expect((await observations('?state=quantum-safe')).items).toEqual([]);
    const second = await observations('?take=1&skip=1');
    expect(second).toMatchObject({ take: 1, skip: 1, totalEstimate: all.totalEstimate });
    expect(second.items.map((item) => item.observationId)).toEqual([all.items[1]?.observationId]);
    const bad = await t.as(a.token, {
      method: 'GET',
      url: '/api/v1/quantum/tls-observations?state=broken',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toHaveProperty('state');
  });

  it('records an endpoint that does not answer TLS as unreachable, saying why', async () => {
    const listener = await startCountingListener(['127.0.0.1']);
    try {
      const endpointId = await watchEndpoint(t, a.token, {
        host: '127.0.0.1',
        port: listener.port,
      });
      await probeNow(t, a.token, endpointId);
      const observation = await latestOf(endpointId);
      expect(observation).toMatchObject({
        state: 'unreachable',
        protocol: null,
        certificates: [],
        verdictReason: 'no TLS handshake reached the key exchange',
      });
      expect(observation.problem).toBeTruthy();
      expect(listener.connections()).toBeGreaterThan(0);
    } finally {
      await listener.close();
    }
  });
});

describe('alerts', () => {
  let board: Switchboard;
  let hybrid: LocalServer;
  let classical: LocalServer;

  beforeAll(async () => {
    for (const kind of ['tls_verdict_changed', 'tls_certificate_expiring']) {
      const rule = await t.as(a.token, {
        method: 'POST',
        url: '/api/v1/alert-rules',
        payload: { name: kind, kind, dedupeWindowMinutes: 0 },
      });
      expect(rule.statusCode, rule.body).toBe(201);
    }
    board = await startSwitchboard();
    servers.push(board);
    hybrid = await started(startHybridServer(near));
    classical = await started(startTlsServer(near, { minVersion: 'TLSv1.3' }));
  });

  it('raises a certificate entering its last 30 days once per certificate and endpoint', async () => {
    board.route(classical.port);
    const endpointId = await watchEndpoint(t, a.token, { host: '127.0.0.1', port: board.port });
    await probeNow(t, a.token, endpointId);
    await probeNow(t, a.token, endpointId);
    const alerts = (await alertsOf('tls_certificate_expiring')).filter(
      (alert) => alert.payload.endpointId === endpointId,
    );
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({
      severity: 'medium',
      payload: { subject: 'CN=near.tls.test', daysLeft: 9, expired: false, port: board.port },
    });
    expect(alerts[0]?.title).toContain('CN=near.tls.test');
    // The same certificate on a second endpoint is noticed for that one too.
    const other = await watchEndpoint(t, a.token, {
      host: '127.0.0.1',
      port: board.port,
      serverName: 'near.tls.test',
    });
    await probeNow(t, a.token, other);
    expect(await alertsOf('tls_certificate_expiring')).toHaveLength(2);
    // A certificate with a year left raises nothing.
    const farServer = await started(startTlsServer(far, {}));
    const quiet = await watchEndpoint(t, a.token, { host: '127.0.0.1', port: farServer.port });
    await probeNow(t, a.token, quiet);
    expect(await alertsOf('tls_certificate_expiring')).toHaveLength(2);
  });

  it('raises a changed verdict, passing over probes that learnt nothing', async () => {
    board.route(hybrid.port);
    const endpointId = await watchEndpoint(t, a.token, {
      host: '127.0.0.1',
      port: board.port,
      serverName: 'verdict.tls.test',
    });
    const changes = async () =>
      (await alertsOf('tls_verdict_changed')).filter(
        (alert) => alert.payload.endpointId === endpointId,
      );
    await probeNow(t, a.token, endpointId);
    expect((await latestOf(endpointId)).state).toBe('hybrid');
    expect(await changes()).toEqual([]); // the first verdict is no change

    board.route(classical.port);
    await probeNow(t, a.token, endpointId);
    expect(await changes()).toEqual([
      expect.objectContaining({
        severity: 'high',
        payload: expect.objectContaining({ previousState: 'hybrid', state: 'vulnerable' }),
      }),
    ]);

    // Down for a probe, then back as it was: no change to report.
    const gone = await startCountingListener(['127.0.0.1']);
    board.route(gone.port);
    await gone.close();
    await probeNow(t, a.token, endpointId);
    expect((await latestOf(endpointId)).state).toBe('unreachable');
    board.route(classical.port);
    await probeNow(t, a.token, endpointId);
    expect(await changes()).toHaveLength(1);

    board.route(hybrid.port);
    await probeNow(t, a.token, endpointId);
    const [upgrade] = await changes();
    expect(upgrade).toMatchObject({
      severity: 'low',
      payload: { previousState: 'vulnerable', state: 'hybrid', hybridKexClassicalAuth: true },
    });
  });
});

describe('the outbound guard', () => {
  let b: TestTenant;
  let counter: CountingListener;

  beforeAll(async () => {
    b = await t.createTenant('enterprise', 'Guarded');
    counter = await startCountingListener(['127.0.0.1']);
  });
  afterAll(async () => counter?.close());

  const resolveTo =
    (address: string | null): Resolver =>
    async () =>
      address ? [{ address, family: 4 }] : [];

  it('refuses an internal address unless the operator allowed its network for the tenant', async () => {
    const refused = await t.as(b.token, {
      method: 'POST',
      url: '/api/v1/quantum/tls-endpoints',
      payload: { host: '127.0.0.1', port: counter.port },
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toEqual({ host: ['the address is not allowed'] });

    allowLoopbackProbes(t, b.tenantId);
    const endpointId = await watchEndpoint(t, b.token, { host: '127.0.0.1', port: counter.port });
    // The operator closes the network again: the next probe is refused before it connects.
    t.config.outbound.tenantAllow[b.tenantId] = {};
    await probeNow(t, b.token, endpointId);
    const res = await t.as(b.token, {
      method: 'GET',
      url: `/api/v1/quantum/tls-observations?endpointId=${endpointId}`,
    });
    expect(res.json().items).toEqual([
      expect.objectContaining({
        state: 'refused',
        address: null,
        problem: 'the address is not allowed',
        certificates: [],
      }),
    ]);
    expect(counter.connections()).toBe(0);
  });

  it('resolves a name at each probe: internal answers are refused, no answer is unreachable', async () => {
    allowLoopbackProbes(t, b.tenantId);
    const server = await started(startTlsServer(far, { minVersion: 'TLSv1.3' }));
    const endpointId = await watchEndpoint(t, b.token, {
      host: 'far.tls.test',
      port: server.port,
    });
    const probe = (resolve: Resolver) =>
      probeEndpoint({ ...t.jobDeps, resolve }, b.tenantId, endpointId);
    // Allowed: the connection goes to the checked address, with the name as SNI.
    expect(await probe(resolveTo('127.0.0.1'))).toMatchObject({ state: 'vulnerable' });
    t.config.outbound.tenantAllow[b.tenantId] = {};
    expect(await probe(resolveTo('127.0.0.1'))).toMatchObject({ state: 'refused' });
    expect(await probe(resolveTo(null))).toMatchObject({ state: 'unreachable' });
    expect(
      await probe(async () => {
        throw new Error('ENOTFOUND');
      }),
    ).toMatchObject({ state: 'unreachable' });
    const states = await t.as(b.token, {
      method: 'GET',
      url: `/api/v1/quantum/tls-observations?endpointId=${endpointId}`,
    });
    expect(states.json().items.map((item: ObservationBody) => [item.state, item.problem])).toEqual([
      ['unreachable', 'the name did not resolve'],
      ['unreachable', 'the name did not resolve'],
      ['refused', 'the address is not allowed'],
      ['vulnerable', null],
    ]);
    expect(counter.connections()).toBe(0);
  });
});

describe('the schedule', () => {
  it('queues only due endpoints of tenants whose plan has quantum, once', async () => {
    const c = await t.createTenant('enterprise', 'Scheduled');
    const team = await t.createTenant('team', 'No quantum');
    allowLoopbackProbes(t, c.tenantId);
    const server = await started(startTlsServer(far, {}));
    const due = await watchEndpoint(t, c.token, { host: '127.0.0.1', port: server.port });
    const later = await watchEndpoint(t, c.token, {
      host: '127.0.0.1',
      port: server.port,
      serverName: 'later.tls.test',
    });
    const hour = 3_600_000;
    await withTenant(t.database, c.tenantId, (db) =>
      db
        .updateTable('quantum_tls_endpoints')
        .set({ next_probe_at: new Date(Date.now() + hour) })
        .where('id', '=', later)
        .execute(),
    );
    // A tenant that lost the plan keeps its endpoints, unprobed.
    await withTenant(t.database, team.tenantId, (db) =>
      db
        .insertInto('quantum_tls_endpoints')
        .values({ id: newId(), host: '127.0.0.1', port: server.port, interval_hours: 1 })
        .execute(),
    );
    await t.runJobs(); // what earlier tests left
    await t.database.system
      .updateTable('quantum_tls_endpoints')
      .set({ next_probe_at: new Date(Date.now() + hour) })
      .where('tenant_id', 'not in', [c.tenantId, team.tenantId])
      .execute();

    // Two runs at once (two workers): each due endpoint is queued by exactly one.
    const queued = await Promise.all([
      queueDueProbes(t.database.system),
      queueDueProbes(t.database.system),
    ]);
    expect(queued[0] + queued[1]).toBe(1);
    const outbox = await t.database.system
      .selectFrom('job_outbox')
      .select(['tenant_id', 'data'])
      .where('job_name', '=', PROBE_ENDPOINT.name)
      .execute();
    expect(outbox).toEqual([{ tenant_id: c.tenantId, data: { endpointId: due } }]);
    expect(await queueDueProbes(t.database.system)).toBe(0);
    expect(await t.runJobs()).toContain(PROBE_ENDPOINT.name);
    const endpoint = await t.as(c.token, {
      method: 'GET',
      url: `/api/v1/quantum/tls-endpoints/${due}`,
    });
    expect(endpoint.json().latestObservation).toMatchObject({ state: 'vulnerable' });
    expect(Date.parse(endpoint.json().nextProbeAtUtc)).toBeGreaterThan(Date.now() + 23 * hour);
    // A shorter interval counts from the last probe.
    const changed = await t.as(c.token, {
      method: 'PATCH',
      url: `/api/v1/quantum/tls-endpoints/${due}`,
      payload: { intervalHours: 2 },
    });
    const { lastProbedAtUtc, nextProbeAtUtc } = changed.json();
    expect(Date.parse(nextProbeAtUtc) - Date.parse(lastProbedAtUtc)).toBe(2 * hour);
  });
});
