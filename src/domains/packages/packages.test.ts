import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FakeRegistries,
  startFakeRegistries,
} from '../../../test/support/fake-registries/index';
import {
  createTestApp,
  type ScannedDependency,
  type StoreScanArgs,
  storeScan,
  type TestApp,
  type TestTenant,
  tokenWithRole,
  twoTenants,
} from '../../../test/support/scenarios';
import { jobDefinitions } from '../../background-jobs';
import { loadConfig } from '../../config';
import { newId } from '../../db/ids';
import { getEcosystem } from '../../ecosystems/ecosystem-list';
import type { Ecosystem } from '../../ecosystems/types';
import { DRIFT_SNAPSHOT, REFRESH } from './jobs';

type Dep = ScannedDependency;

let t: TestApp;
let fake: FakeRegistries;
let a: TestTenant;
let b: TestTenant;

const scan = (...args: StoreScanArgs) => storeScan(t, ...args);

async function packageId(ecosystem: Ecosystem, name: string): Promise<string> {
  const row = await t.database.system
    .selectFrom('packages')
    .select('id')
    .where('ecosystem', '=', ecosystem)
    .where('name', '=', getEcosystem(ecosystem).normaliseName(name))
    .executeTakeFirstOrThrow();
  return row.id;
}

const get = (tenant: TestTenant, url: string) => t.as(tenant.token, { method: 'GET', url });

async function refresh(): Promise<void> {
  const definition = jobDefinitions(t.jobDeps).find((d) => d.name === REFRESH.name);
  await definition?.handle({ version: 1, tenantId: null, correlationId: null, data: {} });
  // The snapshots waiting for what it fetched are recomputed by the jobs it queued.
  await t.runJobs({ only: [DRIFT_SNAPSHOT.name] });
}

beforeAll(async () => {
  fake = await startFakeRegistries();
  const defaults = loadConfig({}).packageIntel;
  t = await createTestApp({
    registries: fake.settings(),
    packageIntel: { ...defaults, benchmarkMinimumTenants: 2 },
  });
  ({ a, b } = await twoTenants(t));
});

afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe('enrichment through the fake registries', () => {
  it('fetches one package of every ecosystem into the shared catalogue', async () => {
    const deps: Dep[] = [
      { ecosystem: 'npm', name: 'left-pad', version: '1.1.0' },
      { ecosystem: 'PyPI', name: 'requests', version: '2.32.0' },
      { ecosystem: 'Maven', name: 'org.example:core-lib', version: '1.0.0' },
      { ecosystem: 'Go', name: 'example.org/Acme/Widget', version: 'v1.0.0' },
      { ecosystem: 'Cargo', name: 'fastrand-x', version: '1.0.0' },
      { ecosystem: 'RubyGems', name: 'rack-x', version: '1.0.0' },
      { ecosystem: 'Composer', name: 'acme/http-client', version: '1.0.0' },
      { ecosystem: 'NuGet', name: 'Acme.Json', version: '1.0.0' },
      { ecosystem: 'Docker', name: 'library/node', version: '18' },
    ];
    await scan(a, 'polyglot', deps);
    for (const dep of deps) {
      const id = await packageId(dep.ecosystem, dep.name);
      const meta = await t.database.system
        .selectFrom('package_metadata')
        .select(['status', 'latest_stable', 'version_count', 'fetched_at'])
        .where('package_id', '=', id)
        .executeTakeFirst();
      expect(meta?.status, dep.ecosystem).toBe('found');
      expect(meta?.version_count, dep.ecosystem).toBeGreaterThan(0);
      const versions = await t.database.system
        .selectFrom('package_versions')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('package_id', '=', id)
        .executeTakeFirstOrThrow();
      expect(versions.n, dep.ecosystem).toBe(meta?.version_count);
      const snapshot = await t.database.system
        .selectFrom('package_health_snapshots')
        .select('default_score')
        .where('package_id', '=', id)
        .executeTakeFirst();
      expect(snapshot?.default_score, dep.ecosystem).toBeTypeOf('number');
    }
    const widget = await t.database.system
      .selectFrom('package_metadata')
      .selectAll()
      .where('package_id', '=', await packageId('npm', 'left-pad'))
      .executeTakeFirstOrThrow();
    expect(widget.deprecated).toContain('padStart');
    expect(widget.etag).toBeTruthy();
  });

  it('never asks a registry about git, path or unknown private packages twice', async () => {
    const before = fake.requests.length;
    await scan(a, 'private', [
      { ecosystem: 'npm', name: 'acme-internal-billing', version: '1.0.0' },
      {
        ecosystem: 'npm',
        name: 'acme-git-only',
        version: '1.0.0',
        source: { kind: 'git', url: 'https://git.example.test/acme/only.git', ref: 'main' },
      },
    ]);
    const asked = fake.requests.slice(before).map((r) => r.path);
    expect(asked.some((p) => p.includes('acme-git-only'))).toBe(false);
    expect(asked.some((p) => p.includes('acme-internal-billing'))).toBe(true);
    const meta = await t.database.system
      .selectFrom('package_metadata')
      .select('status')
      .where('package_id', '=', await packageId('npm', 'acme-internal-billing'))
      .executeTakeFirstOrThrow();
    expect(meta.status).toBe('not_found');
    // A second scan within the staleness period asks nothing.
    const again = fake.requests.length;
    await scan(a, 'private', [
      { ecosystem: 'npm', name: 'acme-internal-billing', version: '1.0.0' },
    ]);
    expect(fake.requests.length).toBe(again);
  });

  it('re-fetches stale metadata with a conditional request (304 keeps the content)', async () => {
    const id = await packageId('npm', 'left-pad');
    await t.database.system
      .updateTable('package_metadata')
      .set({ fetched_at: new Date(Date.now() - 48 * 3600 * 1000) })
      .where('package_id', '=', id)
      .execute();
    await t.database.system
      .updateTable('package_enrichment')
      .set({ due_at: new Date(Date.now() - 1000) })
      .where('package_id', '=', id)
      .execute();
    const before = fake.requests.length;
    await refresh();
    const leftPad = fake.requests.slice(before).filter((r) => r.path === '/npm/left-pad');
    expect(leftPad.length).toBeGreaterThan(0);
    expect(leftPad[0]?.headers['if-none-match']).toBeTruthy();
    const state = await t.database.system
      .selectFrom('package_enrichment')
      .select(['last_outcome', 'due_at'])
      .where('package_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(state.last_outcome).toBe('not_modified');
    expect(state.due_at.getTime()).toBeGreaterThan(Date.now() + 23 * 3600 * 1000);
  });

  it('honours 429 Retry-After: defers the package and the registry, completes drift later', async () => {
    fake.inject({ path: '/npm/@acme*', status: 429, headers: { 'retry-after': '120' }, times: 5 });
    const { repositoryId } = await scan(a, 'web', [
      { ecosystem: 'npm', name: '@acme/widget', version: '1.0.1' },
      { ecosystem: 'npm', name: 'left-pad', version: '1.1.0' },
    ]);
    const id = await packageId('npm', '@acme/widget');
    const state = await t.database.system
      .selectFrom('package_enrichment')
      .select(['last_outcome', 'due_at'])
      .where('package_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(state.last_outcome).toBe('deferred');
    expect(state.due_at.getTime()).toBeGreaterThan(Date.now() + 100_000);
    const backoff = await t.database.system
      .selectFrom('registry_backoff')
      .select('until')
      .where('ecosystem', '=', 'npm')
      .executeTakeFirstOrThrow();
    expect(backoff.until.getTime()).toBeGreaterThan(Date.now() + 100_000);
    let history = await (await get(a, `/api/v1/repositories/${repositoryId}/drift-history`)).json();
    expect(history.items[0].pendingCount).toBe(1);

    // The refresh does not ask npm while the back-off lasts.
    const before = fake.requests.length;
    await refresh();
    expect(fake.requests.slice(before).filter((r) => r.path.startsWith('/npm/'))).toEqual([]);

    // Time passes (the fake's fault is spent): the refresh fetches it and completes the snapshot.
    fake.clearFaults();
    await t.database.system
      .updateTable('registry_backoff')
      .set({ until: new Date(Date.now() - 1000) })
      .execute();
    await t.database.system
      .updateTable('package_enrichment')
      .set({ due_at: new Date(Date.now() - 1000) })
      .where('package_id', '=', id)
      .execute();
    await refresh();
    history = await (await get(a, `/api/v1/repositories/${repositoryId}/drift-history`)).json();
    expect(history.items[0]).toMatchObject({ pendingCount: 0, measuredCount: 2 });
  });
});

describe('package endpoints', () => {
  it('lists with ecosystem and search filters, totalReturned, stable order; 400 on bad input', async () => {
    const all = (await get(a, '/api/v1/packages?take=200')).json();
    const keys = all.items.map(
      (i: { ecosystem: string; name: string }) => `${i.ecosystem}\u0000${i.name}`,
    );
    expect(keys).toEqual([...keys].sort());
    expect(all.totalReturned).toBe(all.items.length);
    const npm = (await get(a, '/api/v1/packages?ecosystem=Npm&search=PAD')).json();
    expect(npm.items.map((i: { name: string }) => i.name)).toEqual(['left-pad']);
    expect(npm.items[0]).toMatchObject({
      metadataStatus: 'found',
      deprecated: true,
      latestStableVersion: '1.3.0',
    });
    const page = (await get(a, '/api/v1/packages?take=2&skip=1')).json();
    expect(page).toMatchObject({ take: 2, skip: 1, totalReturned: 2 });
    expect(page.items.map((i: { packageId: string }) => i.packageId)).toEqual(
      all.items.slice(1, 3).map((i: { packageId: string }) => i.packageId),
    );
    expect((await get(a, '/api/v1/packages?search=100%25_')).json().items).toEqual([]);
    expect((await get(a, '/api/v1/packages?ecosystem=cobol')).statusCode).toBe(400);
    expect((await get(a, '/api/v1/packages?take=0')).statusCode).toBe(400);
    expect((await get(a, '/api/v1/packages?skip=-1')).statusCode).toBe(400);
  });

  it('shows private names only to the tenants that use them', async () => {
    const privateId = await packageId('npm', 'acme-internal-billing');
    expect((await get(a, `/api/v1/packages/${privateId}`)).statusCode).toBe(200);
    expect((await get(b, `/api/v1/packages/${privateId}`)).statusCode).toBe(404);
    const listed = (await get(b, '/api/v1/packages?search=internal')).json();
    expect(listed.items).toEqual([]);
    // Registry-known packages are shared: B sees left-pad without using it.
    const leftPad = await packageId('npm', 'left-pad');
    expect((await get(b, `/api/v1/packages/${leftPad}`)).statusCode).toBe(200);
  });

  it('404 for an unknown package, 400 for a malformed id, on every sub-resource', async () => {
    for (const suffix of [
      '',
      '/health',
      '/health/history',
      '/evidence',
      '/summary',
      '/risk-indicators',
      '/usage',
      '/replacement-candidates',
    ]) {
      expect((await get(a, `/api/v1/packages/${newId()}${suffix}`)).statusCode, suffix).toBe(404);
      const bad = await get(a, `/api/v1/packages/nope${suffix}`);
      expect(bad.statusCode, suffix).toBe(400);
      expect(bad.headers['content-type']).toContain('application/problem+json');
    }
  });

  it('detail, health with evidence per signal, history, summary and risk indicators', async () => {
    const id = await packageId('npm', '@acme/widget');
    const detail = (await get(a, `/api/v1/packages/${id}`)).json();
    expect(detail).toMatchObject({
      name: '@acme/widget',
      latestStableVersion: '2.0.0',
      installScripts: ['postinstall'],
      maintainers: ['alice', 'mallory'],
    });
    const health = (await get(a, `/api/v1/packages/${id}/health`)).json();
    expect(health.score).toBeGreaterThan(0);
    expect(health.score).toBeLessThan(100);
    expect(health.signals.map((s: { signal: string }) => s.signal)).toContain('installScripts');
    for (const signal of health.signals) {
      expect(signal.source).toBeTruthy();
      expect(Date.parse(signal.observedAtUtc)).not.toBeNaN();
      expect(signal).toHaveProperty('value');
    }
    const scripts = health.signals.find((s: { signal: string }) => s.signal === 'installScripts');
    expect(scripts).toMatchObject({ score: 0, value: { installScripts: ['postinstall'] } });

    const history = (await get(a, `/api/v1/packages/${id}/health/history?take=5`)).json();
    expect(history).toMatchObject({ totalReturned: 1, take: 5 });
    expect(history.items[0].date).toBe(new Date().toISOString().slice(0, 10));

    const risks = (await get(a, `/api/v1/packages/${id}/risk-indicators`)).json();
    const kinds = risks.items.map((r: { kind: string }) => r.kind);
    expect(kinds).toEqual(expect.arrayContaining(['install-scripts', 'new-maintainer']));
    const newMaintainer = risks.items.find((r: { kind: string }) => r.kind === 'new-maintainer');
    expect(newMaintainer.evidence).toMatchObject({ version: '2.0.0', added: ['mallory'] });

    const summary = await get(a, `/api/v1/packages/${id}/summary`);
    expect(summary.statusCode).toBe(200);
    expect(summary.json()).toMatchObject({
      packageId: id,
      healthScore: health.score,
      riskIndicatorCount: risks.items.length,
      highestRiskSeverity: 'high',
      repositoriesUsing: 1,
      versionsInUse: ['1.0.1'],
      drift: { deprecatedUses: 1, outdatedUses: 1 },
    });

    const evidence = (await get(a, `/api/v1/packages/${id}/evidence`)).json();
    const evidenceKinds = new Set(evidence.items.map((e: { kind: string }) => e.kind));
    expect([...evidenceKinds].sort()).toEqual(['health-signal', 'registry-fact', 'risk-indicator']);
  });

  it('usage: each tenant sees only its own repositories, with drift', async () => {
    await scan(b, 'b-app', [{ ecosystem: 'npm', name: 'left-pad', version: '1.0.0' }]);
    const id = await packageId('npm', 'left-pad');
    const ofA = (await get(a, `/api/v1/packages/${id}/usage`)).json();
    const ofB = (await get(b, `/api/v1/packages/${id}/usage`)).json();
    expect(ofB.repositoryCount).toBe(1);
    expect(ofB.items.map((i: { repositoryName: string }) => i.repositoryName)).toEqual([
      'acme/b-app',
    ]);
    expect(ofB.items[0].drift).toMatchObject({
      state: 'measured',
      minorBehind: 3,
      latestStableVersion: '1.3.0',
    });
    expect(
      ofA.items.some((i: { repositoryName: string }) => i.repositoryName === 'acme/b-app'),
    ).toBe(false);
    expect(ofA.repositoryCount).toBeGreaterThanOrEqual(2);
    const summaryB = (await get(b, `/api/v1/packages/${id}/summary`)).json();
    expect(summaryB).toMatchObject({ repositoriesUsing: 1, versionsInUse: ['1.0.0'] });
  });

  it('replacement candidates from the deprecation message and the curated mapping', async () => {
    fake.addPackage('npm', {
      name: 'request',
      description: 'Simplified HTTP request client.',
      licence: 'Apache-2.0',
      repositoryUrl: 'git+https://git.example.org/request/request.git',
      homepage: '',
      maintainers: ['mikeal'],
      downloads: 0,
      versions: [
        {
          version: '2.88.2',
          publishedAt: '2020-02-11T16:00:00.000Z',
          deprecated: 'request has been deprecated, please use undici instead',
        },
      ],
    });
    await scan(a, 'legacy', [{ ecosystem: 'npm', name: 'request', version: '2.88.2' }]);
    const id = await packageId('npm', 'request');
    const body = (await get(a, `/api/v1/packages/${id}/replacement-candidates`)).json();
    const undici = body.items.find((c: { name: string }) => c.name === 'undici');
    expect(undici).toMatchObject({
      confidence: 'high',
      sources: ['registry-successor', 'deprecation-message', 'curated'],
    });
    expect(body.items.map((c: { name: string }) => c.name)).toEqual(
      expect.arrayContaining(['got', 'axios']),
    );
    expect(body.curatedMappingVersion).toMatch(/^\d{4}-/);
  });
});

describe('watches', () => {
  it('POST 201 then 200, list with totalReturned, DELETE 204 idempotent, isolated per tenant', async () => {
    const id = await packageId('npm', 'left-pad');
    const post = (tenant: TestTenant) =>
      t.as(tenant.token, {
        method: 'POST',
        url: `/api/v1/packages/${id}/watch`,
        payload: { note: 'keep an eye' },
      });
    const created = await post(a);
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ packageId: id, created: true, note: 'keep an eye' });
    const again = await post(a);
    expect(again.statusCode).toBe(200);
    expect(again.json().watchId).toBe(created.json().watchId);
    const listA = (await get(a, '/api/v1/packages/watched')).json();
    expect(listA).toMatchObject({ totalReturned: 1, items: [{ packageId: id, name: 'left-pad' }] });
    expect((await get(b, '/api/v1/packages/watched')).json()).toMatchObject({
      totalReturned: 0,
      items: [],
    });
    expect((await get(b, `/api/v1/packages/${id}`)).json().watched).toBe(false);
    expect((await get(a, `/api/v1/packages/${id}`)).json().watched).toBe(true);
    // B's delete leaves A's watch alone.
    expect(
      (await t.as(b.token, { method: 'DELETE', url: `/api/v1/packages/${id}/watch` })).statusCode,
    ).toBe(204);
    expect((await get(a, '/api/v1/packages/watched')).json().totalReturned).toBe(1);
    for (let i = 0; i < 2; i++) {
      expect(
        (await t.as(a.token, { method: 'DELETE', url: `/api/v1/packages/${id}/watch` })).statusCode,
      ).toBe(204);
    }
    expect((await get(a, '/api/v1/packages/watched')).json().totalReturned).toBe(0);
    expect(
      (await t.as(a.token, { method: 'POST', url: `/api/v1/packages/${newId()}/watch` }))
        .statusCode,
    ).toBe(404);
    const privateId = await packageId('npm', 'acme-internal-billing');
    expect(
      (await t.as(b.token, { method: 'POST', url: `/api/v1/packages/${privateId}/watch` }))
        .statusCode,
    ).toBe(404);
    const tooLong = await t.as(a.token, {
      method: 'POST',
      url: `/api/v1/packages/${id}/watch`,
      payload: { note: 'x'.repeat(501) },
    });
    expect(tooLong.statusCode).toBe(400);
  });
});

describe('scoring weights', () => {
  it('GET defaults; PATCH validates (400 with errors) and replaces; health uses them', async () => {
    const defaults = (await get(a, '/api/v1/tenants/current/scoring-weights')).json();
    expect(Object.values(defaults).reduce((s: number, v) => s + (v as number), 0)).toBe(100);
    const patch = (payload: unknown) =>
      t.as(a.token, {
        method: 'PATCH',
        url: '/api/v1/tenants/current/scoring-weights',
        payload: payload as object,
      });
    const bad = [
      [{ ...defaults, popularity: defaults.popularity + 1 }, 'weights'],
      [{ ...defaults, popularity: -10, deprecation: defaults.deprecation + 20 }, 'popularity'],
      [{ ...defaults, stars: 0 }, 'stars'],
      [{ ...defaults, licence: 'ten' }, 'licence'],
    ] as const;
    for (const [payload, field] of bad) {
      const response = await patch(payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(
        Object.keys(response.json().errors ?? {}).some((k) => k.includes(field)),
        field,
      ).toBe(true);
    }
    expect((await get(a, '/api/v1/tenants/current/scoring-weights')).json()).toEqual(defaults);

    const id = await packageId('npm', '@acme/widget');
    const ok = await patch({ installScripts: 100 });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ installScripts: 100, popularity: 0 });
    expect((await get(a, `/api/v1/packages/${id}/health`)).json().score).toBe(0);
    expect((await get(b, `/api/v1/packages/${id}/health`)).json().score).toBeGreaterThan(0);
    await patch({ deprecation: 50, repository: 50 });
    expect((await get(a, `/api/v1/packages/${id}/health`)).json().score).toBe(100);
    expect((await get(a, `/api/v1/packages/${id}/health/history`)).json().items[0].score).toBe(100);
    expect((await patch(defaults)).statusCode).toBe(200);
  });
});

describe('benchmark profile', () => {
  it('validates, requires opt-in and enough peers, and shows only aggregates', async () => {
    const patch = (tenant: TestTenant, payload: unknown) =>
      t.as(tenant.token, {
        method: 'PATCH',
        url: '/api/v1/tenants/current/benchmark-profile',
        payload: payload as object,
      });
    const initial = (await get(a, '/api/v1/tenants/current/benchmark-profile')).json();
    expect(initial).toMatchObject({
      optIn: false,
      industry: null,
      benchmark: { available: false },
    });
    expect((await patch(a, { industry: 'farming' })).statusCode).toBe(400);
    expect((await patch(a, { optIn: true })).statusCode).toBe(400);
    expect((await patch(a, { unknown: 1 })).statusCode).toBe(400);

    const group = { industry: 'software', sizeBand: '50-249', optIn: true };
    const joined = await patch(a, group);
    expect(joined.statusCode).toBe(200);
    expect(joined.json()).toMatchObject({
      ...group,
      benchmark: { available: false, peerTenants: 0, minimumPeerTenants: 2 },
    });
    await patch(b, group);
    const c = await t.createTenant('enterprise', 'C');
    await scan(c, 'c-app', [{ ecosystem: 'npm', name: 'left-pad', version: '1.3.0' }]);
    await patch(c, { ...group, optIn: false });
    expect(
      (await get(a, '/api/v1/tenants/current/benchmark-profile')).json().benchmark,
    ).toMatchObject({ available: false, peerTenants: 1 });
    await patch(c, group);
    const shown = (await get(a, '/api/v1/tenants/current/benchmark-profile')).json();
    expect(shown.benchmark).toMatchObject({ available: true, peerTenants: 2 });
    expect(shown.benchmark.peers.libyearPerDependency.mean).toBeTypeOf('number');
    expect(shown.benchmark.self.libyearPerDependency).toBeTypeOf('number');
    expect(JSON.stringify(shown)).not.toContain(b.tenantId);
    expect(JSON.stringify(shown)).not.toContain(c.tenantId);
    // A free plan has no benchmarks; its profile still answers.
    const free = await t.createTenant('free', 'Free');
    expect(
      (await get(free, '/api/v1/tenants/current/benchmark-profile')).json().benchmark.available,
    ).toBe(false);
  });
});

describe('roles, hostile registries and the OpenAPI document', () => {
  it('viewers read but cannot watch or change settings', async () => {
    const viewer = { ...a, token: await tokenWithRole(t, a, 'viewer', null) };
    const id = await packageId('npm', 'left-pad');
    expect((await get(viewer, `/api/v1/packages/${id}/summary`)).statusCode).toBe(200);
    expect(
      (await t.as(viewer.token, { method: 'POST', url: `/api/v1/packages/${id}/watch` }))
        .statusCode,
    ).toBe(403);
    const patch = await t.as(viewer.token, {
      method: 'PATCH',
      url: '/api/v1/tenants/current/scoring-weights',
      payload: { deprecation: 100 },
    });
    expect(patch.statusCode).toBe(403);
  });

  it('an unusable registry answer fails the package, not the job or the API', async () => {
    fake.addPackage('npm', {
      name: 'broken-answer',
      description: '',
      licence: 'MIT',
      repositoryUrl: '',
      homepage: '',
      maintainers: ['x'],
      downloads: 0,
      versions: [{ version: '1.0.0', publishedAt: '2024-01-01T00:00:00.000Z' }],
    });
    fake.inject({
      path: '/npm/broken-answer',
      status: 200,
      body: '{"versions": [not json',
      times: 3,
    });
    await scan(a, 'hostile', [{ ecosystem: 'npm', name: 'broken-answer', version: '1.0.0' }]);
    const id = await packageId('npm', 'broken-answer');
    const state = await t.database.system
      .selectFrom('package_enrichment')
      .select(['last_outcome', 'last_error', 'due_at'])
      .where('package_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(state.last_outcome).toBe('failed');
    expect(state.last_error).toBeTruthy();
    expect(state.due_at.getTime()).toBeGreaterThan(Date.now() + 30 * 60 * 1000);
    for (const suffix of ['', '/health', '/summary', '/risk-indicators', '/evidence', '/usage']) {
      const response = await get(a, `/api/v1/packages/${id}${suffix}`);
      expect(response.statusCode, suffix).toBe(200);
    }
    expect((await get(a, `/api/v1/packages/${id}/health`)).json()).toMatchObject({
      status: 'pending',
      score: null,
    });
    fake.clearFaults();
  });

  it('documents every package route in /api/v1/openapi.json', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    for (const path of [
      '/api/v1/packages',
      '/api/v1/packages/watched',
      '/api/v1/packages/{packageId}',
      '/api/v1/packages/{packageId}/health',
      '/api/v1/packages/{packageId}/health/history',
      '/api/v1/packages/{packageId}/evidence',
      '/api/v1/packages/{packageId}/summary',
      '/api/v1/packages/{packageId}/risk-indicators',
      '/api/v1/packages/{packageId}/usage',
      '/api/v1/packages/{packageId}/replacement-candidates',
      '/api/v1/packages/{packageId}/watch',
      '/api/v1/repositories/{repositoryId}/drift-history',
      '/api/v1/tenants/current/scoring-weights',
      '/api/v1/tenants/current/benchmark-profile',
    ]) {
      expect(doc.paths[path], path).toBeDefined();
    }
  });
});

describe('deep pages', () => {
  it('give the same order and visibility as shallow pages (two query shapes)', async () => {
    await t.database.pool.query(
      `INSERT INTO packages (id, ecosystem, name, purl)
       SELECT gen_random_uuid(), 'Cargo', 'deep-' || lpad(i::text, 5, '0'), 'pkg:cargo/deep-' || lpad(i::text, 5, '0')
         FROM generate_series(1, 2300) AS i`,
    );
    // Every tenth is private (unknown to the registry): invisible to everyone.
    await t.database.pool.query(
      `INSERT INTO package_metadata (package_id, status, fetched_at, changed_at)
       SELECT id, CASE WHEN right(name, 1) = '0' THEN 'not_found' ELSE 'found' END, now(), now()
         FROM packages WHERE name LIKE 'deep-%'`,
    );
    const names = async (skip: number, take: number) =>
      (await get(b, `/api/v1/packages?ecosystem=Cargo&search=deep-&skip=${skip}&take=${take}`))
        .json()
        .items.map((i: { name: string }) => i.name);
    const shallow = await names(1990, 20);
    const deep = await names(2000, 10);
    expect(shallow).toHaveLength(20);
    expect(deep).toEqual(shallow.slice(10));
    expect(deep.some((n: string) => n.endsWith('0'))).toBe(false);
    // 2,300 rows, 230 private: the last page holds the rest.
    expect(await names(2060, 50)).toHaveLength(10);
  });
});
