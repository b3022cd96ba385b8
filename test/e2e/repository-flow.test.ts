import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeScm, scmADelivery, scmAPushPayload, startFakeScm } from '../support/fake-scm';
import { createGitRepository, type GitFixture, git, POLYGLOT_FILES } from '../support/git-fixtures';
import { createTestApp, type TestApp, type TestTenant } from '../support/test-app';

/**
 * The repository flow as a new user would do it, over real HTTP (the app listening on
 * 127.0.0.1, requests with fetch): a real git repository with lockfiles of several ecosystems,
 * an scm-a installation that knows it, import, scan, dependencies, graph, risk summary, then a
 * signed push delivery that queues a second scan, which sees the pushed change. Scan jobs run
 * through the worker's own handlers (`runJobs`), exactly as the worker would run them.
 */
const INSTALLATION = 7700;
const REPOSITORY = 4100;
const WEBHOOK_SECRET = 'e2e-webhook-secret-0123456789abcdef';

let t: TestApp;
let fake: FakeScm;
let repo: GitFixture;
let local: GitFixture;
let tenant: TestTenant;
let base: string;

async function call(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${tenant.token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text ? JSON.parse(text) : null,
    headers: response.headers,
  };
}

beforeAll(async () => {
  fake = await startFakeScm();
  repo = createGitRepository(POLYGLOT_FILES);
  local = createGitRepository({ 'Gemfile.lock': GEMFILE_LOCK }, { branch: 'trunk' });
  fake.a.addInstallation({
    id: INSTALLATION,
    account: 'acme-corp',
    repositories: [{ id: REPOSITORY, owner: 'acme-corp', name: 'polyglot', cloneUrl: repo.url }],
  });
  t = await createTestApp({ sources: fake.sourcesConfig() });
  tenant = await t.createTenant();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
  repo?.remove();
  local?.remove();
});

describe('repository flow over HTTP', () => {
  let connectionId: string;
  let repositoryId: string;
  let firstScanId: string;

  it('connects scm-a and imports the repository by its provider id', async () => {
    const installed = await call('POST', '/api/v1/source-control/connections/github/install', {
      installationId: INSTALLATION,
      webhookSecret: WEBHOOK_SECRET,
    });
    expect([200, 201]).toContain(installed.status);
    connectionId = installed.body.connectionId;

    const available = await call(
      'GET',
      `/api/v1/source-control/connections/${connectionId}/available-repositories`,
    );
    expect(available.status).toBe(200);
    expect(JSON.stringify(available.body)).toContain(String(REPOSITORY));

    const imported = await call('POST', '/api/v1/repositories/import', {
      connectionId,
      repositories: [{ externalId: String(REPOSITORY) }],
    });
    expect(imported.status).toBe(200);
    expect(imported.body.items[0]).toMatchObject({
      status: 'imported',
      externalId: String(REPOSITORY),
    });
    repositoryId = imported.body.items[0].repositoryId;

    // And a second repository by its clone URL, default branch read from the repository.
    const byUrl = await call('POST', '/api/v1/repositories/import', {
      repositories: [{ url: local.url }],
    });
    expect(byUrl.status).toBe(200);
    expect(byUrl.body.items[0].status).toBe('imported');
    const listed = await call('GET', '/api/v1/repositories');
    expect(listed.body.totalEstimate).toBe(2);
    const fetched = await call('GET', `/api/v1/repositories/${byUrl.body.items[0].repositoryId}`);
    expect(fetched.body.defaultBranch).toBe('trunk');
  });

  it('scans it: 202, the worker runs the scan, the scan completes with counts per ecosystem', async () => {
    const queued = await call('POST', `/api/v1/repositories/${repositoryId}/scan`);
    expect(queued.status).toBe(202);
    expect(queued.headers.get('x-correlation-id')).toBeTruthy();
    expect(queued.body.state).toBe('queued');
    firstScanId = queued.body.scanId;
    expect((await call('POST', `/api/v1/repositories/${repositoryId}/scan`)).status).toBe(409);

    await t.runJobs();
    const scan = await call('GET', `/api/v1/scans/${firstScanId}`);
    expect(scan.body).toMatchObject({
      state: 'completed',
      commitSha: git(repo.directory, 'rev-parse', 'HEAD'),
      countsByEcosystem: { npm: 3, Cargo: 1, Go: 1, PyPI: 2 },
      dependencyCount: 7,
    });
    const logs = await call('GET', `/api/v1/scans/${firstScanId}/logs`);
    expect(logs.body.items.map((l: { step: string }) => l.step)).toEqual([
      'policies',
      'cleanup',
      'store',
      'quantum',
      'reachability',
      'extract',
      'checkout',
      'checkout',
      'start',
    ]);
  });

  it('reads the dependencies, the graph and the risk summary', async () => {
    const deps = await call('GET', `/api/v1/repositories/${repositoryId}/dependencies?take=200`);
    expect(deps.status).toBe(200);
    // The projects themselves are listed too (scope self), apart from their dependencies.
    const items: { ecosystem: string; name: string; scope: string }[] = deps.body.items;
    const names = (self: boolean) =>
      items
        .filter((d) => (d.scope === 'self') === self)
        .map((d) => `${d.ecosystem}:${d.name}`)
        .sort();
    expect(names(true).length).toBeGreaterThan(0);
    expect(names(false)).toEqual([
      'Cargo:serde',
      'Go:github.com/google/uuid',
      'PyPI:requests',
      'PyPI:urllib3',
      'npm:body-parser',
      'npm:debug',
      'npm:express',
    ]);
    const graph = await call('GET', `/api/v1/repositories/${repositoryId}/dependency-graph`);
    // The projects themselves (scope self) are nodes too; the dependencies' own edges are 8.
    const selfIds = new Set(
      graph.body.nodes
        .filter((n: { scope: string | null }) => n.scope === 'self')
        .map((n: { nodeId: string }) => n.nodeId),
    );
    expect(selfIds.size).toBe(names(true).length);
    expect(graph.body).toMatchObject({ truncated: false });
    const edges: { from: string; to: string }[] = graph.body.edges;
    expect(edges).toHaveLength(graph.body.totalEdges);
    expect(edges.filter((e) => !selfIds.has(e.from) && !selfIds.has(e.to))).toHaveLength(8);
    const express = graph.body.nodes.find((n: { name: string }) => n.name === 'express');
    const fromExpress = graph.body.edges.filter((e: { from: string }) => e.from === express.nodeId);
    expect(fromExpress).toHaveLength(2);
    const capped = await call(
      'GET',
      `/api/v1/repositories/${repositoryId}/dependency-graph?maxEdges=3`,
    );
    expect(capped.body).toMatchObject({ truncated: true, maxEdges: 3 });
    expect(capped.body.edges).toHaveLength(3);
    const risk = await call('GET', `/api/v1/repositories/${repositoryId}/risk-summary`);
    expect(risk.status).toBe(200);
    expect(risk.body.dependencies).toMatchObject({ total: 7, direct: 5, transitive: 2 });
    expect(risk.body.lastScanId).toBe(firstScanId);
  });

  it('a signed push to the default branch queues a second scan (once), which sees the change', async () => {
    const after = repo.commit(
      {
        'web/package-lock.json':
          POLYGLOT_FILES['web/package-lock.json']?.replaceAll('4.18.2', '4.19.2') ?? '',
        'ruby/Gemfile.lock': GEMFILE_LOCK,
      },
      'bump express, add a Ruby service',
    );
    const payload = scmAPushPayload({
      installationId: INSTALLATION,
      repository: { id: REPOSITORY, owner: 'acme-corp', name: 'polyglot', defaultBranch: 'main' },
      branch: 'main',
      after,
    });
    const delivery = scmADelivery(WEBHOOK_SECRET, 'push', payload);
    const unsigned = await fetch(`${base}/api/v1/webhooks/scm-a`, {
      method: 'POST',
      headers: { ...delivery.headers, 'x-hub-signature-256': `sha256=${'0'.repeat(64)}` },
      body: delivery.payload,
    });
    expect(unsigned.status).toBe(401);

    const pushed = await fetch(`${base}/api/v1/webhooks/scm-a`, {
      method: 'POST',
      headers: delivery.headers,
      body: delivery.payload,
    });
    expect(pushed.status).toBe(202);
    const again = await fetch(`${base}/api/v1/webhooks/scm-a`, {
      method: 'POST',
      headers: scmADelivery(WEBHOOK_SECRET, 'push', payload).headers,
      body: delivery.payload,
    });
    expect(again.status).toBe(202);

    const scans = await call('GET', `/api/v1/scans?repositoryId=${repositoryId}`);
    expect(
      scans.body.items.map((s: { state: string; trigger: string }) => `${s.trigger}:${s.state}`),
    ).toEqual(['push:queued', 'manual:completed']);
    const secondId = scans.body.items[0].scanId;

    await t.runJobs();
    const second = await call('GET', `/api/v1/scans/${secondId}`);
    expect(second.body).toMatchObject({ state: 'completed', trigger: 'push', commitSha: after });
    expect(second.body.countsByEcosystem).toMatchObject({ npm: 3, RubyGems: 2 });
    const deps = await call(
      'GET',
      `/api/v1/repositories/${repositoryId}/dependencies?search=express`,
    );
    expect(
      deps.body.items.map((d: { version: string; scanId: string }) => [d.version, d.scanId]),
    ).toEqual([['4.19.2', secondId]]);
    const detail = await call('GET', `/api/v1/repositories/${repositoryId}`);
    expect(detail.body).toMatchObject({ lastScanId: secondId, activeScan: null });
  });
});

const GEMFILE_LOCK = `GEM
  remote: https://gems.example.invalid/
  specs:
    rack (3.0.8)
    sinatra (4.0.0)
      rack (>= 3.0.0)

PLATFORMS
  ruby

DEPENDENCIES
  sinatra (~> 4.0)

BUNDLED WITH
   2.5.3
`;
