import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import {
  type Delivery,
  type FakeScm,
  scmADelivery,
  scmAPingPayload,
  scmAPushPayload,
  scmBDelivery,
  scmBPush,
  scmBPushPayload,
  scmCDelivery,
  scmCPushPayload,
  scmDCloudDelivery,
  scmDCloudPushPayload,
  scmDDataCenterDelivery,
  scmDDataCenterPushPayload,
  signScmAPush,
  startFakeScm,
} from '../../../test/support/fake-scm';
import { insertRepository, twoTenants } from '../../../test/support/scenarios';
import { createTestApp, type TestApp, type TestTenant } from '../../../test/support/test-app';
import { newId } from '../../db/ids';

const APP_SECRET = 'app-webhook-secret-0123456789';
const OWN_SECRET = 'installation-own-secret-42';
const WORKSPACE = { slug: 'teamsinspace', uuid: '{a8f1c2d3-0000-4b5c-8d9e-0f1a2b3c4d5e}' };
const ADO_REPO = { id: '5febef5a-833d-4e14-b9c0-14cb638f91e6', name: 'Fiber' };
const ADO_PROJECT = { id: 'aa3d9f6a-4f43-4c3a-9d4e-6f1c3b2a1d00', name: 'Fabrikam' };

let fake: FakeScm;
let t: TestApp;
let a: TestTenant;
let b: TestTenant;
type Key = 'a' | 'aOwn' | 'aDevelop' | 'b' | 'c' | 'dCloud' | 'dDc';
const conn = {} as Record<Key, string>;
const secret = {} as Record<Key, string>;
const repo = {} as Record<Key, string>;

async function addRepository(
  tenant: TestTenant,
  connectionId: string,
  provider: string,
  externalId: string,
  defaultBranch = 'main',
): Promise<string> {
  return insertRepository(t, tenant.tenantId, externalId, {
    connection_id: connectionId,
    provider,
    external_id: externalId,
    full_name: `${provider}/${externalId}`,
    clone_url: `https://${provider}.example.test/${newId()}.git`,
    default_branch: defaultBranch,
  });
}

beforeAll(async () => {
  fake = await startFakeScm();
  fake.a.addInstallation({ id: 4242, account: 'acme-corp', repositories: [] });
  fake.a.addInstallation({ id: 4343, account: 'beta-org', repositories: [] });
  fake.b.addUser('glpat-good', { id: 1, username: 'jdoe', name: 'Jane Doe', projects: [] });
  fake.c.addOrganization({ name: 'contoso', tokens: ['ado-pat'], projects: [], repositories: [] });
  fake.d.addWorkspace({
    ...WORKSPACE,
    appPasswords: ['jdoe:app-pass'],
    tokens: [],
    repositories: [],
  });
  fake.d.dcTokens.add('dc-token');
  t = await createTestApp({ sources: fake.sourcesConfig({ scmAWebhookSecret: APP_SECRET }) });
  ({ a, b } = await twoTenants(t, 'enterprise', ['Tenant A', 'Tenant B']));

  const post = async (token: string, url: string, payload: object) => {
    const res = await t.as(token, { method: 'POST', url, payload });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };
  const install = '/api/v1/source-control/connections/github/install';
  const create = '/api/v1/source-control/connections';
  conn.a = (await post(a.token, install, { installationId: 4242 })).connectionId;
  conn.aOwn = (
    await post(b.token, install, { installationId: 4343, webhookSecret: OWN_SECRET })
  ).connectionId;
  const scmB = await post(a.token, create, {
    provider: 'scm-b',
    name: 'gl',
    credentials: { token: 'glpat-good' },
  });
  conn.b = scmB.connectionId;
  secret.b = scmB.webhookSecret;
  const scmC = await post(a.token, create, {
    provider: 'scm-c',
    name: 'ado',
    organization: 'contoso',
    credentials: { token: 'ado-pat' },
  });
  conn.c = scmC.connectionId;
  secret.c = scmC.webhookSecret;
  const cloud = await post(a.token, create, {
    provider: 'scm-d',
    name: 'bb',
    workspace: WORKSPACE.slug,
    credentials: { username: 'jdoe', appPassword: 'app-pass' },
  });
  conn.dCloud = cloud.connectionId;
  secret.dCloud = cloud.webhookSecret;
  const dc = await post(a.token, create, {
    provider: 'scm-d',
    flavor: 'datacenter',
    name: 'bbdc',
    credentials: { token: 'dc-token' },
  });
  conn.dDc = dc.connectionId;
  secret.dDc = dc.webhookSecret;

  repo.a = await addRepository(a, conn.a, 'scm-a', '700');
  repo.aDevelop = await addRepository(a, conn.a, 'scm-a', '701', 'develop');
  repo.aOwn = await addRepository(b, conn.aOwn, 'scm-a', '800');
  repo.b = await addRepository(a, conn.b, 'scm-b', '3100');
  repo.c = await addRepository(a, conn.c, 'scm-c', ADO_REPO.id);
  repo.dCloud = await addRepository(
    a,
    conn.dCloud,
    'scm-d',
    '{00000001-1111-4222-8333-444455556666}',
  );
  repo.dDc = await addRepository(a, conn.dDc, 'scm-d', 'PRJ/api', 'master');
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});
// Each test starts with no active scans, so "queued" and "already queued" are its own doing.
beforeEach(async () => {
  await t.database.system
    .updateTable('scans')
    .set({ state: 'completed' })
    .where('state', 'in', ['queued', 'running'])
    .execute();
});

const deliver = (provider: string, delivery: Delivery) =>
  t.app.inject({
    method: 'POST',
    url: `/api/v1/webhooks/${provider}`,
    headers: delivery.headers,
    payload: delivery.payload,
  });

function without(delivery: Delivery, name: string): Delivery {
  const headers = { ...delivery.headers };
  delete headers[name];
  return { ...delivery, headers };
}

async function activeScans(repositoryId: string) {
  return t.database.system
    .selectFrom('scans')
    .select(['id', 'trigger', 'branch', 'tenant_id'])
    .where('repository_id', '=', repositoryId)
    .where('state', '=', 'queued')
    .execute();
}

async function counts() {
  const [audit, scans] = await Promise.all([
    t.database.system
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
    t.database.system
      .selectFrom('scans')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { audit: Number(audit.n), scans: Number(scans.n) };
}

/** A refused delivery stores nothing: no audit entry, no scan. */
async function expectRefused(provider: string, delivery: Delivery, status: 400 | 401) {
  const before = await counts();
  const res = await deliver(provider, delivery);
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toContain('application/problem+json');
  expect(await counts()).toEqual(before);
}

const pushA = (branch = 'main', id = 700, installationId: number | null = 4242) =>
  scmAPushPayload({
    installationId,
    repository: { id, owner: 'acme-corp', name: `r${id}` },
    branch,
  });

describe('scm-a (X-Hub-Signature-256)', () => {
  test('a signed push to the default branch queues one scan; a duplicate does not queue another', async () => {
    const first = await deliver('scm-a', signScmAPush(APP_SECRET, pushA()));
    expect(first.statusCode).toBe(202);
    expect(first.json()).toEqual({ accepted: true, event: 'push', scansQueued: 1 });
    const scans = await activeScans(repo.a as string);
    expect(scans).toMatchObject([{ trigger: 'push', branch: 'main', tenant_id: a.tenantId }]);

    const again = await deliver('scm-a', signScmAPush(APP_SECRET, pushA()));
    expect(again.statusCode).toBe(202);
    expect(again.json().scansQueued).toBe(0);
    expect(await activeScans(repo.a as string)).toHaveLength(1);

    const audit = await t.as(a.token, {
      method: 'GET',
      url: '/api/v1/audit-log?action=webhook.delivery',
    });
    const entries = audit.json().items;
    expect(entries.length).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(entries)).toContain('scan_already_queued');
    const other = await t.as(b.token, {
      method: 'GET',
      url: '/api/v1/audit-log?action=webhook.delivery',
    });
    expect(JSON.stringify(other.json().items)).not.toContain(repo.a as string);
  });

  test('wrong signature, tampered body or missing header: 401 and nothing stored', async () => {
    await expectRefused('scm-a', signScmAPush('not-the-secret-at-all', pushA()), 401);
    const signed = signScmAPush(APP_SECRET, pushA());
    await expectRefused(
      'scm-a',
      { ...signed, payload: signed.payload.replace('"main"', '"mainx"') },
      401,
    );
    await expectRefused('scm-a', without(signed, 'x-hub-signature-256'), 401);
    await expectRefused(
      'scm-a',
      { ...signed, headers: { ...signed.headers, 'x-hub-signature-256': 'sha1=abc' } },
      401,
    );
    expect(await activeScans(repo.a as string)).toHaveLength(0);
  });

  test('an authenticated delivery without X-Scm-A-Event is 400', async () => {
    await expectRefused('scm-a', without(signScmAPush(APP_SECRET, pushA()), 'x-scm-a-event'), 400);
  });

  test('other branches, unknown repositories, pings and unknown installations are accepted and ignored', async () => {
    const develop = await deliver('scm-a', signScmAPush(APP_SECRET, pushA('feature/x', 700)));
    expect(develop.json()).toEqual({ accepted: true, event: 'push', scansQueued: 0 });
    // 701's default branch is develop: a push to main is another branch there.
    expect(
      (await deliver('scm-a', signScmAPush(APP_SECRET, pushA('main', 701)))).json().scansQueued,
    ).toBe(0);
    expect((await deliver('scm-a', signScmAPush(APP_SECRET, pushA('main', 999)))).statusCode).toBe(
      202,
    );
    const ping = await deliver('scm-a', scmADelivery(APP_SECRET, 'ping', scmAPingPayload(4242)));
    expect(ping.json()).toEqual({ accepted: true, event: 'ping', scansQueued: 0 });
    const stranger = await deliver('scm-a', signScmAPush(APP_SECRET, pushA('main', 700, 1)));
    expect(stranger.statusCode).toBe(202);
    expect(await activeScans(repo.a as string)).toHaveLength(0);
    expect(await activeScans(repo.aDevelop as string)).toHaveLength(0);
    // The default branch of 701 does queue.
    expect(
      (await deliver('scm-a', signScmAPush(APP_SECRET, pushA('develop', 701)))).json().scansQueued,
    ).toBe(1);
  });

  test("a connection's own secret replaces the app's for its deliveries", async () => {
    const body = pushA('main', 800, 4343);
    await expectRefused('scm-a', signScmAPush('some-other-secret-999', body), 401);
    // Signed by the app: authentic, but not this connection's secret, so it changes nothing.
    const appSigned = await deliver('scm-a', signScmAPush(APP_SECRET, body));
    expect(appSigned.json()).toEqual({ accepted: true, event: 'push', scansQueued: 0 });
    expect(await activeScans(repo.aOwn as string)).toHaveLength(0);
    const own = await deliver('scm-a', signScmAPush(OWN_SECRET, body));
    expect(own.json().scansQueued).toBe(1);
    expect(await activeScans(repo.aOwn as string)).toMatchObject([{ tenant_id: b.tenantId }]);
  });

  test('installation events update the connection status', async () => {
    const event = (action: string) =>
      scmADelivery(OWN_SECRET, 'installation', {
        action,
        installation: { id: 4343, account: { login: 'beta-org' } },
        sender: { login: 'jdoe' },
      });
    expect((await deliver('scm-a', event('suspend'))).statusCode).toBe(202);
    const status = async () =>
      (
        await t.database.system
          .selectFrom('source_control_connections')
          .select('status')
          .where('id', '=', conn.aOwn as string)
          .executeTakeFirstOrThrow()
      ).status;
    expect(await status()).toBe('suspended');
    // Pushes to a suspended connection are accepted and ignored.
    expect(
      (await deliver('scm-a', signScmAPush(OWN_SECRET, pushA('main', 800, 4343)))).json()
        .scansQueued,
    ).toBe(0);
    await deliver('scm-a', event('unsuspend'));
    expect(await status()).toBe('active');
  });
});

describe('scm-b (X-Scm-B-Token)', () => {
  const push = (branch = 'main', projectId = 3100) =>
    scmBPushPayload({ projectId, pathWithNamespace: 'platform/billing', branch });

  test('the stored token queues a scan; duplicates, other branches and unknown projects do not', async () => {
    const res = await deliver('scm-b', scmBPush(secret.b as string, push()));
    expect(res.json()).toEqual({ accepted: true, event: 'Push Hook', scansQueued: 1 });
    expect((await deliver('scm-b', scmBPush(secret.b as string, push()))).json().scansQueued).toBe(
      0,
    );
    expect(await activeScans(repo.b as string)).toHaveLength(1);
    expect(
      (await deliver('scm-b', scmBPush(secret.b as string, push('dev')))).json().scansQueued,
    ).toBe(0);
    const unknown = await deliver('scm-b', scmBPush(secret.b as string, push('main', 9999)));
    expect(unknown.statusCode).toBe(202);
  });

  test('wrong or missing token: 401; missing event header: 400; unparseable body: 400', async () => {
    await expectRefused('scm-b', scmBPush(`${secret.b}x`, push()), 401);
    await expectRefused(
      'scm-b',
      without(scmBPush(secret.b as string, push()), 'x-scm-b-token'),
      401,
    );
    await expectRefused(
      'scm-b',
      without(scmBPush(secret.b as string, push()), 'x-scm-b-event'),
      400,
    );
    await expectRefused(
      'scm-b',
      { ...scmBDelivery(secret.b as string, 'Push Hook', {}), payload: '{not json' },
      400,
    );
    // Text PostgreSQL cannot store, in what reaches a query: 400, not a database error.
    await expectRefused(
      'scm-b',
      scmBPush(secret.b as string, { ...push(), ref: 'refs/heads/ma\u0000in' }),
      400,
    );
    expect(await activeScans(repo.b as string)).toHaveLength(0);
  });
});

describe('scm-c (Authorization: Basic)', () => {
  const push = (branch = 'main') =>
    scmCPushPayload({
      organization: 'contoso',
      project: ADO_PROJECT,
      repository: ADO_REPO,
      branch,
    });

  test('the subscription credential queues a scan once', async () => {
    const res = await deliver('scm-c', scmCDelivery(secret.c as string, push()));
    expect(res.json()).toEqual({ accepted: true, event: 'git.push', scansQueued: 1 });
    expect(
      (await deliver('scm-c', scmCDelivery(secret.c as string, push()))).json().scansQueued,
    ).toBe(0);
    expect(
      (await deliver('scm-c', scmCDelivery(secret.c as string, push('topic')))).json().scansQueued,
    ).toBe(0);
    expect(await activeScans(repo.c as string)).toHaveLength(1);
  });

  test('wrong or missing credential: 401; a payload without eventType: 400', async () => {
    await expectRefused('scm-c', scmCDelivery('wrong-password-123', push()), 401);
    await expectRefused(
      'scm-c',
      without(scmCDelivery(secret.c as string, push()), 'authorization'),
      401,
    );
    const { eventType: _ignored, ...noType } = push();
    await expectRefused('scm-c', scmCDelivery(secret.c as string, noType), 400);
  });
});

describe('scm-d (X-Hub-Signature cloud, Bearer data center)', () => {
  const cloudPush = (branch = 'main') =>
    scmDCloudPushPayload({
      workspace: WORKSPACE,
      repository: { uuid: '{00000001-1111-4222-8333-444455556666}', slug: 'repo-1' },
      branch,
    });
  const dcPush = (branch = 'master', slug = 'api') =>
    scmDDataCenterPushPayload({ project: { key: 'PRJ' }, repository: { id: 11, slug }, branch });

  test('cloud: a signed repo:push queues once; other branches are ignored', async () => {
    const res = await deliver(
      'scm-d',
      scmDCloudDelivery(secret.dCloud as string, 'repo:push', cloudPush()),
    );
    expect(res.json()).toEqual({ accepted: true, event: 'repo:push', scansQueued: 1 });
    const again = await deliver(
      'scm-d',
      scmDCloudDelivery(secret.dCloud as string, 'repo:push', cloudPush()),
    );
    expect(again.json().scansQueued).toBe(0);
    const other = await deliver(
      'scm-d',
      scmDCloudDelivery(secret.dCloud as string, 'repo:push', cloudPush('x')),
    );
    expect(other.json().scansQueued).toBe(0);
    expect(await activeScans(repo.dCloud as string)).toHaveLength(1);
  });

  test('cloud: bad signature 401; missing X-Event-Key 400', async () => {
    await expectRefused(
      'scm-d',
      scmDCloudDelivery('wrong-secret-0000000', 'repo:push', cloudPush()),
      401,
    );
    await expectRefused(
      'scm-d',
      without(scmDCloudDelivery(secret.dCloud as string, 'repo:push', cloudPush()), 'x-event-key'),
      400,
    );
  });

  test('data center: the bearer secret queues once; unknown repositories are ignored', async () => {
    const res = await deliver(
      'scm-d',
      scmDDataCenterDelivery(secret.dDc as string, 'repo:refs_changed', dcPush()),
    );
    expect(res.json()).toEqual({ accepted: true, event: 'repo:refs_changed', scansQueued: 1 });
    const again = await deliver(
      'scm-d',
      scmDDataCenterDelivery(secret.dDc as string, 'repo:refs_changed', dcPush()),
    );
    expect(again.json().scansQueued).toBe(0);
    const unknown = await deliver(
      'scm-d',
      scmDDataCenterDelivery(secret.dDc as string, 'repo:refs_changed', dcPush('master', 'nope')),
    );
    expect(unknown.json().scansQueued).toBe(0);
    expect(await activeScans(repo.dDc as string)).toHaveLength(1);
  });

  test('data center: wrong bearer 401; no identity at all 401; missing X-Event-Key 400', async () => {
    await expectRefused(
      'scm-d',
      scmDDataCenterDelivery('wrong-token', 'repo:refs_changed', dcPush()),
      401,
    );
    await expectRefused(
      'scm-d',
      without(
        scmDDataCenterDelivery(secret.dDc as string, 'repo:refs_changed', dcPush()),
        'authorization',
      ),
      401,
    );
    await expectRefused(
      'scm-d',
      without(
        scmDDataCenterDelivery(secret.dDc as string, 'repo:refs_changed', dcPush()),
        'x-event-key',
      ),
      400,
    );
  });
});

describe('ingest endpoints', () => {
  test('read the raw body whatever the content type; oversized bodies are 413', async () => {
    const signed = signScmAPush(APP_SECRET, pushA());
    const plain = await deliver('scm-a', {
      ...signed,
      headers: { ...signed.headers, 'content-type': 'text/plain' },
    });
    expect(plain.json().scansQueued).toBe(1);
    const huge = await deliver('scm-b', {
      ...scmBPush(secret.b, {}),
      payload: JSON.stringify({ pad: 'x'.repeat(t.config.sources.webhookBodyLimitBytes) }),
    });
    expect(huge.statusCode).toBe(413);
  });

  test('are public and not rate limited', async () => {
    const statuses = new Set<number>();
    for (let i = 0; i < 70; i++) {
      const res = await deliver('scm-b', scmBPush('unknown-token', {}));
      statuses.add(res.statusCode);
    }
    expect([...statuses]).toEqual([401]);
  });
});
