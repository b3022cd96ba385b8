import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { type FakeScm, startFakeScm } from '../../../test/support/fake-scm';
import { insertRepository, twoTenants } from '../../../test/support/scenarios';
import { createTestApp, type TestApp, type TestTenant } from '../../../test/support/test-app';
import { newId } from '../../db/ids';
import { withTenant } from '../../db/tenant-scope';
import { cloneCredentialsFor, loadProviderConnection } from './service';

let fake: FakeScm;
let t: TestApp;
let a: TestTenant;
let b: TestTenant;

beforeAll(async () => {
  fake = await startFakeScm();
  fake.a.addInstallation({
    id: 4242,
    account: 'acme-corp',
    repositories: [
      { id: 700, owner: 'acme-corp', name: 'api' },
      { id: 701, owner: 'acme-corp', name: 'web', defaultBranch: 'develop' },
      { id: 702, owner: 'acme-corp', name: 'docs', private: false },
    ],
  });
  fake.a.addInstallation({ id: 4343, account: 'other-org', repositories: [] });
  fake.a.addInstallation({ id: 5151, account: 'frozen-inc', suspended: true, repositories: [] });
  fake.b.addProject({ id: 3100, namespace: 'platform', path: 'billing' });
  fake.b.addUser('glpat-good', { id: 1, username: 'jdoe', name: 'Jane Doe', projects: [3100] });
  fake.c.addOrganization({
    name: 'contoso',
    tokens: ['ado-pat'],
    projects: [{ id: 'aa3d9f6a-4f43-4c3a-9d4e-6f1c3b2a1d00', name: 'Fabrikam' }],
    repositories: [
      { id: '5febef5a-833d-4e14-b9c0-14cb638f91e6', name: 'Fiber', project: 'Fabrikam' },
    ],
  });
  fake.d.addWorkspace({
    slug: 'teamsinspace',
    uuid: '{a8f1c2d3-0000-4b5c-8d9e-0f1a2b3c4d5e}',
    appPasswords: ['jdoe:app-pass'],
    tokens: [],
    repositories: [
      { uuid: '{00000001-1111-4222-8333-444455556666}', slug: 'repo-1', workspace: 'teamsinspace' },
    ],
  });
  fake.d.dcTokens.add('dc-token');
  fake.d.dcProjects.push({ key: 'PRJ', id: 1, name: 'Project' });
  fake.d.dcRepositories.push({ id: 11, slug: 'api', project: 'PRJ', defaultBranch: 'master' });
  t = await createTestApp({ sources: fake.sourcesConfig() });
  ({ a, b } = await twoTenants(t, 'enterprise', ['Tenant A', 'Tenant B']));
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});
beforeEach(() => fake.reset());

const install = (token: string, payload: unknown) =>
  t.as(token, {
    method: 'POST',
    url: '/api/v1/source-control/connections/github/install',
    payload: payload as object,
  });
const create = (token: string, payload: unknown) =>
  t.as(token, {
    method: 'POST',
    url: '/api/v1/source-control/connections',
    payload: payload as object,
  });
const list = (token: string) =>
  t.as(token, { method: 'GET', url: '/api/v1/source-control/connections' });
const available = (token: string, id: string) =>
  t.as(token, {
    method: 'GET',
    url: `/api/v1/source-control/connections/${id}/available-repositories`,
  });

async function storedRow(id: string) {
  return t.database.system
    .selectFrom('source_control_connections')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

describe('POST /api/v1/source-control/connections/github/install', () => {
  test('201 creates the connection after the provider confirms it; 200 when repeated', async () => {
    const first = await install(a.token, { installationId: 4242 });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toEqual({
      connectionId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      provider: 'scm-a',
      name: 'acme-corp',
      baseUrl: null,
      externalId: '4242',
      accountName: 'acme-corp',
      status: 'active',
      statusReason: null,
      webhookUrl: '/api/v1/webhooks/scm-a',
      hasWebhookSecret: false,
      createdAtUtc: expect.any(String),
      updatedAtUtc: expect.any(String),
    });
    expect(fake.a.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /app/installations/4242',
      'POST /app/installations/4242/access_tokens',
    ]);
    const again = await install(a.token, { installationId: '4242', name: 'ignored' });
    expect(again.statusCode).toBe(200);
    expect(again.json().connectionId).toBe(first.json().connectionId);
    expect((await list(a.token)).json().total).toBe(1);
  });

  test('400 for malformed input, with errors by field', async () => {
    for (const payload of [
      {},
      { installationId: 'abc' },
      { installationId: 0 },
      { installationId: -3 },
    ]) {
      const res = await install(a.token, payload);
      expect(res.statusCode).toBe(400);
      expect(res.headers['content-type']).toContain('application/problem+json');
    }
    const bad = await install(a.token, { installationId: 'abc' });
    expect(Object.keys(bad.json().errors)).toEqual(['installationId']);
    const shortSecret = await install(a.token, { installationId: 4343, webhookSecret: 'short' });
    expect(shortSecret.json().errors.webhookSecret).toBeDefined();
  });

  test('400 for an installation the app does not have', async () => {
    const res = await install(b.token, { installationId: 987654 });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.installationId).toBeDefined();
  });

  test('401 when the provider refuses the app credential; 503 when unreachable; nothing stored', async () => {
    fake.a.mode = 'unauthorized';
    const refused = await install(b.token, { installationId: 4343 });
    expect(refused.statusCode).toBe(401);
    fake.a.mode = 'down';
    const down = await install(b.token, { installationId: 4343 });
    expect(down.statusCode).toBe(503);
    fake.a.mode = 'ok';
    const suspended = await install(b.token, { installationId: 5151 });
    expect(suspended.statusCode).toBe(401);
    expect((await list(b.token)).json().total).toBe(0);
  });

  test('409 when another tenant already connected the installation', async () => {
    const res = await install(b.token, { installationId: 4242 });
    expect(res.statusCode).toBe(409);
    expect((await list(b.token)).json().items).toEqual([]);
  });

  test('503 when the server has no scm-a app configured', async () => {
    const bare = await createTestApp(
      { sources: fake.sourcesConfig({ scmAAppId: null, scmAAppPrivateKey: null }) },
      { database: t.database },
    );
    const res = await bare.as(b.token, {
      method: 'POST',
      url: '/api/v1/source-control/connections/github/install',
      payload: { installationId: 4343 },
    });
    expect(res.statusCode).toBe(503);
    await bare.app.close();
    await bare.tokenUsage.stop();
  });
});

describe('POST /api/v1/source-control/connections', () => {
  test('scm-b: 201, credential verified, secret generated once, everything sealed', async () => {
    const res = await create(a.token, {
      provider: 'scm-b',
      name: 'Platform group',
      credentials: { token: 'glpat-good' },
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      provider: 'scm-b',
      name: 'Platform group',
      accountName: 'jdoe',
      status: 'active',
      hasWebhookSecret: true,
      webhookUrl: '/api/v1/webhooks/scm-b',
      webhookSecret: expect.stringMatching(/^whsec_[\w-]{32}$/),
    });
    const row = await storedRow(body.connectionId);
    expect(row.credentials_sealed).not.toContain('glpat-good');
    expect(row.webhook_secret_sealed).not.toContain(body.webhookSecret);
    expect(t.secretBox.open(row.webhook_secret_sealed ?? '')).toBe(body.webhookSecret);
    const listed = await list(a.token);
    expect(listed.body).not.toContain('glpat-good');
    expect(listed.body).not.toContain(body.webhookSecret);
    expect(listed.json().items[0]).not.toHaveProperty('webhookSecret');
    expect(listed.json().items[0]).not.toHaveProperty('credentials');
  });

  test('scm-b: 401 when the provider refuses the token; 503 unreachable; 502 on its errors', async () => {
    const payload = { provider: 'scm-b', name: 'x', credentials: { token: 'glpat-wrong' } };
    expect((await create(b.token, payload)).statusCode).toBe(401);
    fake.b.mode = 'down';
    expect(
      (await create(b.token, { ...payload, credentials: { token: 'glpat-good' } })).statusCode,
    ).toBe(503);
    fake.b.mode = 'error';
    expect(
      (await create(b.token, { ...payload, credentials: { token: 'glpat-good' } })).statusCode,
    ).toBe(502);
    expect((await list(b.token)).json().total).toBe(0);
  });

  test('scm-c, scm-d cloud, scm-d data center and git connections', async () => {
    const c = await create(b.token, {
      provider: 'scm-c',
      name: 'Contoso',
      organization: 'contoso',
      credentials: { token: 'ado-pat' },
      webhookSecret: 'my-own-secret-0123456789',
    });
    expect(c.statusCode).toBe(201);
    expect(c.json()).toMatchObject({
      externalId: 'contoso',
      webhookSecret: null,
      hasWebhookSecret: true,
    });
    const dup = await create(b.token, {
      provider: 'scm-c',
      name: 'Again',
      organization: 'contoso',
      credentials: { token: 'ado-pat' },
    });
    expect(dup.statusCode).toBe(409);

    const cloud = await create(b.token, {
      provider: 'scm-d',
      name: 'Bitbucket',
      workspace: 'teamsinspace',
      credentials: { username: 'jdoe', appPassword: 'app-pass' },
    });
    expect(cloud.statusCode).toBe(201);
    const dc = await create(b.token, {
      provider: 'scm-d',
      flavor: 'datacenter',
      name: 'On-prem',
      credentials: { token: 'dc-token' },
    });
    expect(dc.statusCode).toBe(201);
    const git = await create(b.token, {
      provider: 'git',
      name: 'Plain git',
      credentials: { username: 'bot', password: 'pw' },
    });
    expect(git.statusCode).toBe(201);
    expect(git.json()).toMatchObject({
      webhookUrl: null,
      webhookSecret: null,
      hasWebhookSecret: false,
    });

    const loaded = await withTenant(t.database, b.tenantId, (db) =>
      loadProviderConnection(db, t.secretBox, t.config, dc.json().connectionId),
    );
    expect(loaded).toMatchObject({
      provider: 'scm-d',
      baseUrl: fake.d.url,
      credentials: { flavor: 'datacenter', token: 'dc-token' },
    });
    const gitLoaded = await withTenant(t.database, b.tenantId, (db) =>
      loadProviderConnection(db, t.secretBox, t.config, git.json().connectionId),
    );
    expect(gitLoaded && (await cloneCredentialsFor(t.config, gitLoaded))).toEqual({
      username: 'bot',
      password: 'pw',
    });
    expect(loaded && (await cloneCredentialsFor(t.config, loaded))).toEqual({
      username: 'x-token-auth',
      password: 'dc-token',
    });
    const otherTenant = await withTenant(t.database, a.tenantId, (db) =>
      loadProviderConnection(db, t.secretBox, t.config, dc.json().connectionId),
    );
    expect(otherTenant).toBeNull();
  });

  test('422 when a rule is broken, keyed by field; nothing stored', async () => {
    const before = (await list(b.token)).json().total;
    const cases: [unknown, string[]][] = [
      [{ provider: 'scm-a', name: 'x' }, ['provider']],
      [{ provider: 'svn', name: 'x' }, ['provider']],
      [{ provider: 'scm-b', name: ' ' }, ['name', 'credentials.token']],
      [{ provider: 'scm-c', name: 'x', credentials: { token: 't' } }, ['organization']],
      [
        { provider: 'scm-d', name: 'x', workspace: 'ws', credentials: { username: 'u' } },
        ['credentials.appPassword'],
      ],
      [
        {
          provider: 'scm-b',
          name: 'x',
          baseUrl: 'https://scm-b.internal/api/v4',
          credentials: { token: 't' },
        },
        ['baseUrl'],
      ],
      [
        { provider: 'scm-b', name: 'x', credentials: { token: 't', appPassword: 'p' } },
        ['credentials.appPassword'],
      ],
      [{ provider: 'git', name: 'x', credentials: { username: 'u' } }, ['credentials.password']],
    ];
    for (const [payload, fields] of cases) {
      const res = await create(b.token, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(Object.keys(res.json().errors).sort()).toEqual([...fields].sort());
    }
    const unknownOrg = await create(b.token, {
      provider: 'scm-c',
      name: 'x',
      organization: 'nobody-here',
      credentials: { token: 'ado-pat' },
    });
    expect(unknownOrg.statusCode).toBe(422);
    expect(Object.keys(unknownOrg.json().errors)).toEqual(['organization']);
    const unparseable = await create(b.token, { provider: 'scm-b', credentials: { token: 1 } });
    expect(unparseable.statusCode).toBe(400);
    expect((await list(b.token)).json().total).toBe(before);
  });

  test('a viewer cannot create connections', async () => {
    const viewer = await t.as(a.token, {
      method: 'POST',
      url: '/api/v1/api-tokens',
      payload: { name: 'viewer', roleScopeJson: '{"roles":["viewer"]}', expiresAtUtc: null },
    });
    const token = viewer.json().rawSecret;
    const res = await create(token, { provider: 'git', name: 'x' });
    expect(res.statusCode).toBe(403);
    expect((await list(token)).statusCode).toBe(200);
  });
});

describe('GET /api/v1/source-control/connections/{id}/available-repositories', () => {
  let connectionId: string;
  beforeAll(async () => {
    const listed = (await list(a.token)).json();
    connectionId =
      listed.items.find((c: { provider: string }) => c.provider === 'scm-a')?.connectionId ??
      (await install(a.token, { installationId: 4242 })).json().connectionId;
  });

  test('lists what the installation sees, marking imported repositories', async () => {
    const repositoryId = await insertRepository(t, a.tenantId, 'web', {
      connection_id: connectionId,
      provider: 'scm-a',
      external_id: '701',
      full_name: 'acme-corp/web',
      clone_url: 'https://scm-a.example.test/acme-corp/web.git',
    });
    const res = await available(a.token, connectionId);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.total).toBe(3);
    expect(body.items.map((i: { fullName: string }) => i.fullName)).toEqual([
      'acme-corp/api',
      'acme-corp/web',
      'acme-corp/docs',
    ]);
    expect(body.items[1]).toEqual({
      externalId: '701',
      name: 'web',
      fullName: 'acme-corp/web',
      cloneUrl: 'https://scm-a.example.test/acme-corp/web.git',
      webUrl: 'https://scm-a.example.test/acme-corp/web',
      defaultBranch: 'develop',
      private: true,
      imported: true,
      repositoryId,
    });
    expect(body.items[0]).toMatchObject({ imported: false, repositoryId: null });
    expect(body.items[2].private).toBe(false);
  });

  test('502 when the provider errors, 503 when it is down', async () => {
    fake.a.mode = 'error';
    const upstream = await available(a.token, connectionId);
    expect(upstream.statusCode).toBe(502);
    expect(upstream.headers['content-type']).toContain('application/problem+json');
    fake.a.mode = 'down';
    expect((await available(a.token, connectionId)).statusCode).toBe(503);
  });

  test('404 for unknown ids and for another tenant; 400 for a malformed id', async () => {
    expect((await available(a.token, newId())).statusCode).toBe(404);
    const other = await available(b.token, connectionId);
    expect(other.statusCode).toBe(404);
    expect(other.body).not.toContain('acme-corp');
    expect((await available(a.token, 'not-a-uuid')).statusCode).toBe(400);
    expect(fake.a.requests).toEqual([]);
  });

  test('409 when the connection is not active, and for generic git connections', async () => {
    await t.database.system
      .updateTable('source_control_connections')
      .set({ status: 'suspended' })
      .where('id', '=', connectionId)
      .execute();
    const res = await available(a.token, connectionId);
    expect(res.statusCode).toBe(409);
    await t.database.system
      .updateTable('source_control_connections')
      .set({ status: 'active' })
      .where('id', '=', connectionId)
      .execute();
    const git = await create(a.token, { provider: 'git', name: 'plain' });
    expect((await available(a.token, git.json().connectionId)).statusCode).toBe(409);
  });

  test("tenant B's list never shows tenant A's connections", async () => {
    const idsA = (await list(a.token))
      .json()
      .items.map((c: { connectionId: string }) => c.connectionId);
    const idsB = (await list(b.token))
      .json()
      .items.map((c: { connectionId: string }) => c.connectionId);
    expect(idsA).toContain(connectionId);
    expect(idsB).not.toContain(connectionId);
    expect(idsA.filter((id: string) => idsB.includes(id))).toEqual([]);
  });
});

describe('OpenAPI', () => {
  test('documents the connection and ingest operations with their statuses', async () => {
    const spec = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const available =
      spec.paths['/api/v1/source-control/connections/{connectionId}/available-repositories'].get;
    expect(Object.keys(available.responses)).toEqual(
      expect.arrayContaining(['200', '404', '409', '502', '503']),
    );
    const installOp = spec.paths['/api/v1/source-control/connections/github/install'].post;
    expect(Object.keys(installOp.responses)).toEqual(
      expect.arrayContaining(['200', '201', '400', '401', '503']),
    );
    for (const provider of ['scm-a', 'scm-b', 'scm-c', 'scm-d']) {
      const ingest = spec.paths[`/api/v1/webhooks/${provider}`].post;
      expect(Object.keys(ingest.responses)).toEqual(expect.arrayContaining(['202', '400', '401']));
    }
  });
});
