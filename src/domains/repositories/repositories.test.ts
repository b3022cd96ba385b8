import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeScm, startFakeScm } from '../../../test/support/fake-scm';
import {
  createGitRepository,
  type GitFixture,
  POLYGLOT_FILES,
} from '../../../test/support/git-fixtures';
import { insertRepository, tokenWithRole } from '../../../test/support/scenarios';
import { createTestApp, type TestApp, type TestTenant } from '../../../test/support/test-app';
import { newId } from '../../db/ids';
import { withTenant } from '../../db/tenant-scope';

const OPENSSH_KEY = `-----BEGIN OPENSSH PRIVATE KEY-----
b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW
QyNTUxOQAAACDRtest0nlyNotARealKeyButShapedLikeOne0000000000000000000000
-----END OPENSSH PRIVATE KEY-----
`;

let t: TestApp;
let fake: FakeScm;
let polyglot: GitFixture;
let trunk: GitFixture;

beforeAll(async () => {
  fake = await startFakeScm();
  polyglot = createGitRepository(POLYGLOT_FILES);
  trunk = createGitRepository({ 'requirements.txt': 'flask==3.0.0\n' }, { branch: 'trunk' });
  fake.a.addInstallation({
    id: 9100,
    account: 'acme-corp',
    repositories: [
      { id: 800, owner: 'acme-corp', name: 'api', defaultBranch: 'main', cloneUrl: polyglot.url },
      { id: 801, owner: 'acme-corp', name: 'web', defaultBranch: 'develop' },
    ],
  });
  t = await createTestApp({ sources: fake.sourcesConfig() });
});
afterAll(async () => {
  polyglot.remove();
  trunk.remove();
  await t?.close();
  await fake?.close();
});

const importRepos = (token: string, payload: unknown) =>
  t.as(token, { method: 'POST', url: '/api/v1/repositories/import', payload: payload as object });
const get = (token: string, url: string) => t.as(token, { method: 'GET', url });

async function importOne(tenant: TestTenant, url: string): Promise<string> {
  const res = await importRepos(tenant.token, { repositories: [{ url }] });
  expect(res.statusCode).toBe(200);
  return res.json().items[0].repositoryId;
}

describe('POST /api/v1/repositories/import (clone URLs)', () => {
  let tenant: TestTenant;
  beforeEach(async () => {
    tenant = await t.createTenant();
  });

  it('imports a file:// repository, taking its default branch from the remote', async () => {
    const res = await importRepos(tenant.token, { repositories: [{ url: trunk.url }] });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ imported: 1, alreadyImported: 0, failed: 0 });
    expect(body.items[0]).toMatchObject({ index: 0, status: 'imported', url: trunk.url });
    const detail = await get(tenant.token, `/api/v1/repositories/${body.items[0].repositoryId}`);
    expect(detail.statusCode).toBe(200);
    expect(detail.json()).toMatchObject({
      provider: 'git',
      connectionId: null,
      defaultBranch: 'trunk',
      cloneUrl: trunk.url,
      lifecycleStatus: 'active',
      businessCriticality: null,
      hasDeployKey: false,
      dependencyCount: 0,
      activeScan: null,
      lastScanId: null,
    });
  });

  it('is a 409 when every item is already imported, per-item statuses otherwise', async () => {
    const first = await importOne(tenant, polyglot.url);
    const again = await importRepos(tenant.token, { repositories: [{ url: polyglot.url }] });
    expect(again.statusCode).toBe(409);
    expect(again.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(again.json().errors).toEqual({
      'repositories[0]': [`already imported as repository ${first}`],
    });
    const mixed = await importRepos(tenant.token, {
      repositories: [{ url: polyglot.url }, { url: trunk.url }, { url: trunk.url }],
    });
    expect(mixed.statusCode).toBe(200);
    expect(mixed.json().items.map((i: { status: string }) => i.status)).toEqual([
      'alreadyImported',
      'imported',
      'alreadyImported',
    ]);
    expect(mixed.json().items[0].repositoryId).toBe(first);
    expect(mixed.json().items[2].repositoryId).toBe(mixed.json().items[1].repositoryId);
  });

  it('reports an unreachable URL per item as notFound and stores nothing for it', async () => {
    // Loopback is allowed by the test app's switch; nothing listens on port 1.
    const res = await importRepos(tenant.token, {
      repositories: [{ url: `https://127.0.0.1:1/${newId()}.git` }, { url: trunk.url }],
    });
    expect(res.statusCode).toBe(200);
    const [missing, ok] = res.json().items;
    expect(missing).toMatchObject({ status: 'notFound', repositoryId: null });
    expect(missing.message).toBe(
      'the repository could not be read (the repository could not be reached); check the URL, or name defaultBranch',
    );
    expect(ok.status).toBe('imported');
    const list = await get(tenant.token, '/api/v1/repositories');
    expect(list.json().totalEstimate).toBe(1);
  });

  it('seals an ssh deploy key and never returns it', async () => {
    const res = await importRepos(tenant.token, {
      repositories: [
        {
          // An address the guard admits (the test switch allows loopback); never connected to.
          url: 'git@127.0.0.1:acme/private-api.git',
          deployKey: OPENSSH_KEY,
          defaultBranch: 'main',
          name: 'Private API',
        },
      ],
    });
    expect(res.statusCode).toBe(200);
    const item = res.json().items[0];
    expect(item).toMatchObject({ status: 'imported', name: 'Private API' });
    const detail = await get(tenant.token, `/api/v1/repositories/${item.repositoryId}`);
    expect(detail.json()).toMatchObject({ hasDeployKey: true, fullName: 'acme/private-api' });
    expect(detail.body).not.toContain('OPENSSH');
    const row = await t.database.system
      .selectFrom('repositories')
      .select('deploy_key_sealed')
      .where('id', '=', item.repositoryId)
      .executeTakeFirstOrThrow();
    expect(row.deploy_key_sealed).not.toContain('OPENSSH');
    expect(t.secretBox.open(row.deploy_key_sealed as string)).toBe(OPENSSH_KEY);
  });

  it('400 for malformed input, with errors keyed by item and field, storing nothing', async () => {
    const cases: Array<[unknown, string]> = [
      [{ repositories: [] }, 'repositories'],
      [{}, 'repositories'],
      [{ repositories: [{}] }, 'repositories[0].url'],
      [{ repositories: [{ url: 'ftp://example.test/x.git' }] }, 'repositories[0].url'],
      [
        { repositories: [{ url: 'https://user:pw@git.example.test/a.git' }] },
        'repositories[0].url',
      ],
      [{ repositories: [{ url: 'ext::sh -c touch% /tmp/pwned' }] }, 'repositories[0].url'],
      [{ repositories: [{ url: '--upload-pack=touch /tmp/x' }] }, 'repositories[0].url'],
      [
        { repositories: [{ url: 'https://git.example.test/a.git', deployKey: OPENSSH_KEY }] },
        'repositories[0].deployKey',
      ],
      [
        { repositories: [{ url: 'git@git.example.test:a/b.git', deployKey: 'not a key' }] },
        'repositories[0].deployKey',
      ],
      [
        { repositories: [{ url: trunk.url, defaultBranch: '--orphan' }] },
        'repositories[0].defaultBranch',
      ],
      [
        { repositories: [{ url: trunk.url, defaultBranch: 'a..b' }] },
        'repositories[0].defaultBranch',
      ],
      [{ repositories: [{ url: trunk.url }, { externalId: '12' }] }, 'repositories[1].externalId'],
      [{ repositories: [{ url: 42 }] }, 'repositories[0].url'],
      [{ repositories: [{ url: trunk.url, cloneUrl: 'x' }] }, 'repositories[0].cloneUrl'],
      [{ connectionId: 'not-a-uuid', repositories: [{ externalId: '1' }] }, 'connectionId'],
    ];
    for (const [payload, key] of cases) {
      const res = await importRepos(tenant.token, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(Object.keys(res.json().errors ?? {}), JSON.stringify(payload)).toContain(key);
    }
    const list = await get(tenant.token, '/api/v1/repositories');
    expect(list.json().totalEstimate).toBe(0);
  });

  it('refuses file:// URLs when configuration does not allow them', async () => {
    t.config.scans.allowFileUrls = false;
    try {
      const res = await importRepos(tenant.token, { repositories: [{ url: trunk.url }] });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors['repositories[0].url'][0]).toMatch(/disabled/);
    } finally {
      t.config.scans.allowFileUrls = true;
    }
  });

  it('stops at the plan limit with limitReached items', async () => {
    const free = await t.createTenant('free');
    const fixtures = Array.from({ length: 6 }, () =>
      createGitRepository({ 'go.mod': 'module x\n' }),
    );
    try {
      const res = await importRepos(free.token, {
        repositories: fixtures.map((f) => ({ url: f.url })),
      });
      expect(res.statusCode).toBe(200);
      const statuses = res.json().items.map((i: { status: string }) => i.status);
      expect(statuses).toEqual([
        'imported',
        'imported',
        'imported',
        'imported',
        'imported',
        'limitReached',
      ]);
    } finally {
      for (const f of fixtures) f.remove();
    }
  });
});

describe('POST /api/v1/repositories/import (connection)', () => {
  let tenant: TestTenant;
  let connectionId: string;
  beforeAll(async () => {
    tenant = await t.createTenant();
    const installed = await t.as(tenant.token, {
      method: 'POST',
      url: '/api/v1/source-control/connections/github/install',
      payload: { installationId: 9100 },
    });
    expect([200, 201]).toContain(installed.statusCode);
    connectionId = installed.json().connectionId;
  });

  it("imports the provider's repository ids, resolving metadata through the provider", async () => {
    const res = await importRepos(tenant.token, {
      connectionId,
      repositories: [
        { externalId: '800' },
        { externalId: '801', defaultBranch: 'release' },
        { externalId: '999' },
      ],
    });
    expect(res.statusCode).toBe(200);
    const [api, web, missing] = res.json().items;
    expect(api).toMatchObject({
      status: 'imported',
      externalId: '800',
      name: 'api',
      url: polyglot.url,
    });
    expect(web).toMatchObject({ status: 'imported', externalId: '801', name: 'web' });
    expect(missing).toMatchObject({ status: 'notFound', externalId: '999', repositoryId: null });
    const detail = await get(tenant.token, `/api/v1/repositories/${web.repositoryId}`);
    expect(detail.json()).toMatchObject({
      provider: 'scm-a',
      connectionId,
      externalId: '801',
      fullName: 'acme-corp/web',
      defaultBranch: 'release',
    });
    const again = await importRepos(tenant.token, {
      connectionId,
      repositories: [{ externalId: '800' }],
    });
    expect(again.statusCode).toBe(409);
  });

  it('404 for an unknown connection, 409 for one that is not active, 503 when the provider is down', async () => {
    const unknown = await importRepos(tenant.token, {
      connectionId: newId(),
      repositories: [{ externalId: '800' }],
    });
    expect(unknown.statusCode).toBe(404);
    const other = await t.createTenant();
    const foreign = await importRepos(other.token, {
      connectionId,
      repositories: [{ externalId: '800' }],
    });
    expect(foreign.statusCode).toBe(404);

    fake.a.mode = 'down';
    try {
      const down = await importRepos(tenant.token, {
        connectionId,
        repositories: [{ externalId: '801' }, { externalId: '802' }],
      });
      expect(down.statusCode).toBe(503);
    } finally {
      fake.reset();
    }

    await withTenant(t.database, tenant.tenantId, (db) =>
      db
        .updateTable('source_control_connections')
        .set({ status: 'revoked' })
        .where('id', '=', connectionId)
        .execute(),
    );
    try {
      const revoked = await importRepos(tenant.token, {
        connectionId,
        repositories: [{ externalId: '800' }],
      });
      expect(revoked.statusCode).toBe(409);
    } finally {
      await withTenant(t.database, tenant.tenantId, (db) =>
        db
          .updateTable('source_control_connections')
          .set({ status: 'active' })
          .where('id', '=', connectionId)
          .execute(),
      );
    }
  });

  it('400 when items name URLs with a connection', async () => {
    const res = await importRepos(tenant.token, {
      connectionId,
      repositories: [{ url: trunk.url }],
    });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().errors)).toEqual([
      'repositories[0].externalId',
      'repositories[0].url',
    ]);
  });
});

describe('repository reads and changes', () => {
  let tenant: TestTenant;
  let other: TestTenant;
  let repositoryId: string;
  beforeAll(async () => {
    tenant = await t.createTenant();
    other = await t.createTenant();
    repositoryId = await importOne(tenant, polyglot.url);
    const scan = await t.as(tenant.token, {
      method: 'POST',
      url: `/api/v1/repositories/${repositoryId}/scan`,
    });
    expect(scan.statusCode).toBe(202);
    await t.runJobs();
  });

  it('lists with filters (case-insensitive enums) and take/skip', async () => {
    const second = await importOne(tenant, trunk.url);
    const workspaceId = newId();
    const patched = await t.as(tenant.token, {
      method: 'PATCH',
      url: `/api/v1/repositories/${second}`,
      payload: { businessCriticality: 'High', lifecycleStatus: 'MAINTENANCE', workspaceId },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({
      businessCriticality: 'high',
      lifecycleStatus: 'maintenance',
      workspaceId,
    });

    const all = await get(tenant.token, '/api/v1/repositories');
    expect(all.json()).toMatchObject({ totalEstimate: 2, take: 50, skip: 0 });
    const high = await get(tenant.token, '/api/v1/repositories?businessCriticality=High');
    expect(high.json().items.map((r: { repositoryId: string }) => r.repositoryId)).toEqual([
      second,
    ]);
    const maint = await get(
      tenant.token,
      `/api/v1/repositories?lifecycleStatus=maintenance&workspaceId=${workspaceId}`,
    );
    expect(maint.json().totalEstimate).toBe(1);
    const active = await get(tenant.token, '/api/v1/repositories?lifecycleStatus=Active');
    expect(active.json().items.map((r: { repositoryId: string }) => r.repositoryId)).toEqual([
      repositoryId,
    ]);
    const none = await get(tenant.token, `/api/v1/repositories?teamId=${newId()}`);
    expect(none.json()).toMatchObject({ items: [], totalEstimate: 0 });
    const paged = await get(tenant.token, '/api/v1/repositories?take=1&skip=1');
    expect(paged.json()).toMatchObject({ take: 1, skip: 1, totalEstimate: 2 });
    expect(paged.json().items).toHaveLength(1);
    expect((await get(tenant.token, '/api/v1/repositories?take=5000')).json().take).toBe(200);
    for (const bad of [
      'businessCriticality=extreme',
      'lifecycleStatus=gone',
      'workspaceId=nope',
      'take=0',
      'skip=-1',
    ]) {
      const res = await get(tenant.token, `/api/v1/repositories?${bad}`);
      expect(res.statusCode, bad).toBe(400);
    }
    expect((await get(other.token, '/api/v1/repositories')).json().totalEstimate).toBe(0);
    await t.as(tenant.token, { method: 'DELETE', url: `/api/v1/repositories/${second}` });
  });

  it('PATCH: 422 for bad values (nothing changes), 404 for unknown ids', async () => {
    const url = `/api/v1/repositories/${repositoryId}`;
    const cases: Array<[unknown, string]> = [
      [{ lifecycleStatus: 'retired' }, 'lifecycleStatus'],
      [{ businessCriticality: 'urgent' }, 'businessCriticality'],
      [{ defaultBranch: 'bad..branch' }, 'defaultBranch'],
      [{ name: '   ' }, 'name'],
      [{ name: '' }, 'name'],
      [{ workspaceId: 'x' }, 'workspaceId'],
      [{ teamId: 12 }, 'teamId'],
      [{ cloneUrl: 'https://elsewhere.test/x.git' }, 'cloneUrl'],
    ];
    for (const [payload, key] of cases) {
      const res = await t.as(tenant.token, { method: 'PATCH', url, payload: payload as object });
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(Object.keys(res.json().errors ?? {}).join(), JSON.stringify(payload)).toContain(key);
    }
    const unchanged = await get(tenant.token, url);
    expect(unchanged.json()).toMatchObject({
      lifecycleStatus: 'active',
      businessCriticality: null,
      defaultBranch: 'main',
    });
    const ok = await t.as(tenant.token, {
      method: 'PATCH',
      url,
      payload: { name: 'Polyglot', defaultBranch: 'main', teamId: null, businessCriticality: null },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().name).toBe('Polyglot');
    const missing = await t.as(tenant.token, {
      method: 'PATCH',
      url: `/api/v1/repositories/${newId()}`,
      payload: { name: 'x' },
    });
    expect(missing.statusCode).toBe(404);
  });

  it('lists dependencies with filters and paging', async () => {
    const base = `/api/v1/repositories/${repositoryId}/dependencies`;
    const all = await get(tenant.token, base);
    expect(all.statusCode).toBe(200);
    // 7 dependencies and the 3 projects' own packages (scope self).
    expect(all.json().totalEstimate).toBe(10);
    const own = all
      .json()
      .items.filter((d: { scope: string }) => d.scope === 'self')
      .map((d: { name: string; version: string | null }) => `${d.name}@${d.version}`);
    expect(own.sort()).toEqual(['engine@0.1.0', 'example.com/svc@null', 'web@1.0.0']);
    const express = all.json().items.find((d: { name: string }) => d.name === 'express');
    expect(express).toMatchObject({
      ecosystem: 'npm',
      version: '4.18.2',
      resolution: 'resolved',
      direct: true,
      file: 'web/package-lock.json',
      purl: 'pkg:npm/express@4.18.2',
      source: { kind: 'registry' },
    });
    const debug = all.json().items.find((d: { name: string }) => d.name === 'debug');
    expect(debug.parents.sort()).toEqual(['body-parser', 'express']);
    const pypi = await get(tenant.token, `${base}?ecosystem=PyPi`);
    expect(pypi.json().items.map((d: { name: string }) => d.name)).toEqual(['requests', 'urllib3']);
    const transitive = await get(tenant.token, `${base}?direct=false`);
    expect(
      transitive
        .json()
        .items.map((d: { name: string }) => d.name)
        .sort(),
    ).toEqual(['body-parser', 'debug']);
    const search = await get(tenant.token, `${base}?search=UUID`);
    expect(search.json().items.map((d: { name: string }) => d.name)).toEqual([
      'github.com/google/uuid',
    ]);
    expect((await get(tenant.token, `${base}?search=%25`)).json().totalEstimate).toBe(0);
    const page = await get(tenant.token, `${base}?take=3&skip=3`);
    expect(page.json()).toMatchObject({ take: 3, skip: 3, totalEstimate: 10 });
    expect(page.json().items).toHaveLength(3);
    expect((await get(tenant.token, `${base}?ecosystem=cobol`)).statusCode).toBe(400);
  });

  it('builds the graph from recorded parents and truncates at maxEdges', async () => {
    const base = `/api/v1/repositories/${repositoryId}/dependency-graph`;
    const full = await get(tenant.token, base);
    expect(full.statusCode).toBe(200);
    const graph = full.json();
    expect(graph).toMatchObject({ truncated: false, maxEdges: 5000 });
    const label = (id: string) => {
      const node = graph.nodes.find((n: { nodeId: string }) => n.nodeId === id);
      return node.kind === 'file' ? node.name : `${node.name}@${node.version}`;
    };
    const edges = graph.edges
      .map((e: { from: string; to: string }) => `${label(e.from)} -> ${label(e.to)}`)
      .sort();
    expect(edges).toEqual(
      [
        // The projects' own packages hang off their files; the crate's dependency off the crate.
        'engine/Cargo.lock -> engine@0.1.0',
        'engine@0.1.0 -> serde@1.0.193',
        'svc/go.mod -> example.com/svc@null',
        'web/package-lock.json -> web@1.0.0',
        'engine/Cargo.lock -> serde@1.0.193',
        'ml/requirements.txt -> requests@2.31.0',
        'ml/requirements.txt -> urllib3@2.1.0',
        'svc/go.mod -> github.com/google/uuid@v1.4.0',
        'web/package-lock.json -> express@4.18.2',
        'express@4.18.2 -> body-parser@1.20.1',
        'express@4.18.2 -> debug@2.6.9',
        'body-parser@1.20.1 -> debug@2.6.9',
      ].sort(),
    );
    expect(graph.totalEdges).toBe(12);
    expect(graph.nodes).toHaveLength(14);

    const capped = (await get(tenant.token, `${base}?maxEdges=6`)).json();
    expect(capped).toMatchObject({ truncated: true, totalEdges: 12, maxEdges: 6 });
    expect(capped.edges).toHaveLength(6);
    const ids = new Set(capped.nodes.map((n: { nodeId: string }) => n.nodeId));
    for (const e of capped.edges) expect(ids.has(e.from) && ids.has(e.to)).toBe(true);
    const zero = (await get(tenant.token, `${base}?maxEdges=0`)).json();
    expect(zero).toMatchObject({ truncated: true, edges: [] });
    expect((await get(tenant.token, `${base}?maxEdges=999999999`)).json().maxEdges).toBe(100000);
    for (const bad of ['-1', '1.5', 'abc', '99999999999']) {
      expect((await get(tenant.token, `${base}?maxEdges=${bad}`)).statusCode, bad).toBe(400);
    }
  });

  it('summarises risk from what is stored', async () => {
    const res = await get(tenant.token, `/api/v1/repositories/${repositoryId}/risk-summary`);
    expect(res.statusCode).toBe(200);
    const summary = res.json();
    // The projects' own packages (scope self) are stored but are not dependencies.
    const repository = await get(tenant.token, `/api/v1/repositories/${repositoryId}`);
    expect(repository.json().dependencyCount).toBe(7);
    expect(summary.dependencies).toEqual({
      total: 7,
      direct: 5,
      transitive: 2,
      packages: 7,
      byResolution: { resolved: 7, declared: 0, unpinned: 0 },
      byEcosystem: { Cargo: 1, Go: 1, PyPI: 2, npm: 3 },
    });
    expect(summary.vulnerabilities).toMatchObject({
      open: 0,
      bySeverity: { critical: 0, high: 0, medium: 0, low: 0, unknown: 0 },
    });
    expect(summary.lastScanId).not.toBeNull();
    expect(summary.policy.openViolations).toBe(0);
    expect(summary.health).toMatchObject({ scored: 0, averageScore: null });

    // What later work stores is read as stored: exposures (distinct open vulnerabilities by
    // severity; closed ones do not count), the latest drift row, the packages' health.
    const deps = await withTenant(t.database, tenant.tenantId, (db) =>
      db
        .selectFrom('repository_dependencies')
        .selectAll()
        .where('repository_id', '=', repositoryId)
        .execute(),
    );
    const byName = (name: string) => deps.find((d) => d.name === name) as (typeof deps)[number];
    const vulns = (['critical', 'high', null] as const).map((severity) => ({
      id: newId(),
      canonical_id: `GHSA-test-${newId().slice(-8)}`,
      severity_rating: severity,
      modified_at: new Date(),
    }));
    await t.database.system.insertInto('vulnerabilities').values(vulns).execute();
    const exposure = (name: string, vulnerabilityId: string, status: string) => {
      const dep = byName(name);
      return {
        tenant_id: tenant.tenantId,
        id: newId(),
        repository_id: repositoryId,
        package_id: dep.package_id,
        ecosystem: dep.ecosystem,
        package_name: dep.name,
        version: dep.version ?? '',
        resolution: dep.resolution,
        vulnerability_id: vulnerabilityId,
        status,
      };
    };
    const [critical, high, unrated] = vulns.map((v) => v.id) as [string, string, string];
    await t.database.system
      .insertInto('vulnerability_exposures')
      .values([
        exposure('express', critical, 'open'),
        exposure('body-parser', critical, 'affected'),
        exposure('debug', high, 'fixed'),
        exposure('requests', unrated, 'investigating'),
      ] as never)
      .execute();
    await t.database.system
      .insertInto('package_health_snapshots' as never)
      .values([
        {
          package_id: byName('express').package_id,
          snapshot_date: '2026-11-20',
          computed_at: new Date(),
          signals: '{}',
          default_score: 40,
        },
        {
          package_id: byName('express').package_id,
          snapshot_date: '2026-11-21',
          computed_at: new Date(),
          signals: '{}',
          default_score: 90,
        },
        {
          package_id: byName('serde').package_id,
          snapshot_date: '2026-11-21',
          computed_at: new Date(),
          signals: '{}',
          default_score: 30,
        },
      ] as never)
      .execute();
    const after = (
      await get(tenant.token, `/api/v1/repositories/${repositoryId}/risk-summary`)
    ).json();
    expect(after.vulnerabilities).toEqual({
      available: true,
      open: 2,
      bySeverity: { critical: 1, high: 0, medium: 0, low: 0, unknown: 1 },
    });
    expect(after.health).toEqual({ available: true, scored: 2, averageScore: 60, below50: 1 });
    // Another tenant sees none of it (and the repository is not theirs anyway).
    expect(
      (await get(other.token, `/api/v1/repositories/${repositoryId}/risk-summary`)).statusCode,
    ).toBe(404);
  });

  it("is 404 on every route for another tenant's token", async () => {
    const routes: Array<[string, string, object?]> = [
      ['GET', `/api/v1/repositories/${repositoryId}`],
      ['PATCH', `/api/v1/repositories/${repositoryId}`, { name: 'stolen' }],
      ['GET', `/api/v1/repositories/${repositoryId}/dependencies`],
      ['GET', `/api/v1/repositories/${repositoryId}/dependency-graph`],
      ['GET', `/api/v1/repositories/${repositoryId}/risk-summary`],
      ['POST', `/api/v1/repositories/${repositoryId}/scan`],
      ['DELETE', `/api/v1/repositories/${repositoryId}`],
    ];
    for (const [method, url, payload] of routes) {
      const res = await t.as(other.token, { method: method as 'GET', url, payload });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await get(tenant.token, `/api/v1/repositories/${repositoryId}`)).json().name).not.toBe(
      'stolen',
    );
    expect((await get(tenant.token, '/api/v1/repositories/not-a-uuid')).statusCode).toBe(400);
  });

  it('DELETE removes the repository with its scans and dependencies (204, then 404)', async () => {
    const id = await importOne(tenant, trunk.url);
    await t.as(tenant.token, { method: 'POST', url: `/api/v1/repositories/${id}/scan` });
    await t.runJobs();
    const del = await t.as(tenant.token, { method: 'DELETE', url: `/api/v1/repositories/${id}` });
    expect(del.statusCode).toBe(204);
    expect(del.body).toBe('');
    expect((await get(tenant.token, `/api/v1/repositories/${id}`)).statusCode).toBe(404);
    expect(
      (await t.as(tenant.token, { method: 'DELETE', url: `/api/v1/repositories/${id}` }))
        .statusCode,
    ).toBe(404);
    for (const table of ['scans', 'repository_dependencies'] as const) {
      const left = await t.database.system
        .selectFrom(table)
        .select('id')
        .where('repository_id', '=', id)
        .execute();
      expect(left, table).toEqual([]);
    }
    const logs = await t.database.system
      .selectFrom('scan_logs')
      .innerJoin('scans', 'scans.id', 'scan_logs.scan_id')
      .select('scan_logs.id')
      .where('scans.repository_id', '=', id)
      .execute();
    expect(logs).toEqual([]);
  });
});

describe('GET /api/v1/repositories?search=', () => {
  let tenant: TestTenant;
  let other: TestTenant;
  beforeAll(async () => {
    tenant = await t.createTenant();
    other = await t.createTenant();
    for (const name of ['Payments-API', 'payments_web', 'billing', 'pay%ments']) {
      await insertRepository(t, tenant.tenantId, name);
    }
    await insertRepository(t, other.tenantId, 'payments-other');
  });
  const names = async (query: string, token = tenant.token) => {
    const res = await get(token, `/api/v1/repositories?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().items.map((r: { fullName: string }) => r.fullName);
  };

  it('matches a case-insensitive substring of the full name, in this tenant only', async () => {
    expect(await names('search=PAYMENTS')).toEqual(['acme/Payments-API', 'acme/payments_web']);
    expect(await names('search=acme%2Fbill')).toEqual(['acme/billing']);
    expect(await names('search=payments', other.token)).toEqual(['acme/payments-other']);
    const counted = await get(tenant.token, '/api/v1/repositories?search=pay&take=1');
    expect(counted.json()).toMatchObject({ totalEstimate: 3, take: 1 });
  });

  it('takes LIKE wildcards literally; blank means no filter', async () => {
    expect(await names('search=pay%25')).toEqual(['acme/pay%ments']);
    expect(await names('search=s_w')).toEqual(['acme/payments_web']);
    expect(await names('search=%20%20')).toHaveLength(4);
    expect(await names('search=nothing-like-it')).toEqual([]);
  });

  it('answers 400 problems for bad input', async () => {
    for (const query of [`search=${'a'.repeat(201)}`, 'search=pay%00', 'search=a%0Ab']) {
      const res = await get(tenant.token, `/api/v1/repositories?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.json().title).toEqual(expect.any(String));
    }
  });
});

describe('OpenAPI', () => {
  it('documents every repository and scan route', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    const paths = Object.keys(res.json().paths);
    for (const path of [
      '/api/v1/repositories/import',
      '/api/v1/repositories',
      '/api/v1/repositories/{repositoryId}',
      '/api/v1/repositories/{repositoryId}/dependencies',
      '/api/v1/repositories/{repositoryId}/dependency-graph',
      '/api/v1/repositories/{repositoryId}/risk-summary',
      '/api/v1/repositories/{repositoryId}/scan',
      '/api/v1/scans',
      '/api/v1/scans/{scanId}',
      '/api/v1/scans/{scanId}/cancel',
      '/api/v1/scans/{scanId}/logs',
    ]) {
      expect(paths, path).toContain(path);
    }
    const scan = res.json().paths['/api/v1/repositories/{repositoryId}/scan'].post;
    expect(Object.keys(scan.responses)).toEqual(expect.arrayContaining(['202', '404', '409']));
  });
});

describe('roles', () => {
  it('viewers read, members trigger and cancel scans, admins import, change and delete', async () => {
    const tenant = await t.createTenant();
    const id = await importOne(tenant, trunk.url);
    const tokenWith = (role: string) => tokenWithRole(t, tenant, role, null);
    const viewer = await tokenWith('viewer');
    const member = await tokenWith('member');
    expect((await get(viewer, `/api/v1/repositories/${id}`)).statusCode).toBe(200);
    expect((await get(viewer, '/api/v1/scans')).statusCode).toBe(200);
    expect(
      (await t.as(viewer, { method: 'POST', url: `/api/v1/repositories/${id}/scan` })).statusCode,
    ).toBe(403);
    expect((await importRepos(member, { repositories: [{ url: polyglot.url }] })).statusCode).toBe(
      403,
    );
    expect(
      (
        await t.as(member, {
          method: 'PATCH',
          url: `/api/v1/repositories/${id}`,
          payload: { name: 'x' },
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (await t.as(member, { method: 'DELETE', url: `/api/v1/repositories/${id}` })).statusCode,
    ).toBe(403);
    const queued = await t.as(member, { method: 'POST', url: `/api/v1/repositories/${id}/scan` });
    expect(queued.statusCode).toBe(202);
    expect(
      (await t.as(viewer, { method: 'POST', url: `/api/v1/scans/${queued.json().scanId}/cancel` }))
        .statusCode,
    ).toBe(403);
    expect(
      (await t.as(member, { method: 'POST', url: `/api/v1/scans/${queued.json().scanId}/cancel` }))
        .statusCode,
    ).toBe(200);
  });
});
