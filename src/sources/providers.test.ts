import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { type FakeScm, startFakeScm } from '../../test/support/fake-scm';
import { providerFor } from './providers';
import { clearScmATokenCache } from './scm-a';
import { type ProviderConnection, ProviderError } from './types';

let fake: FakeScm;

beforeAll(async () => {
  fake = await startFakeScm();
  fake.a.addInstallation({
    id: 4242,
    account: 'acme-corp',
    repositories: Array.from({ length: 5 }, (_, i) => ({
      id: 700 + i,
      owner: 'acme-corp',
      name: `service-${i}`,
      defaultBranch: i === 2 ? 'develop' : 'main',
      private: i !== 4,
    })),
  });
  fake.a.addInstallation({ id: 5151, account: 'frozen-inc', suspended: true, repositories: [] });
  for (let i = 0; i < 5; i++) {
    fake.b.addProject({
      id: 3100 + i,
      namespace: i < 3 ? 'platform/backend' : 'web',
      path: `project-${i}`,
      visibility: i === 0 ? 'public' : 'private',
      defaultBranch: i === 4 ? null : 'main',
    });
  }
  fake.b.addProject({ id: 3999, namespace: 'secret', path: 'not-mine' });
  fake.b.addUser('glpat-reader', {
    id: 1_100_222,
    username: 'jdoe',
    name: 'Jane Doe',
    projects: [3100, 3101, 3102, 3103, 3104],
  });
  fake.c.addOrganization({
    name: 'contoso',
    tokens: ['ado-pat-1'],
    projects: [
      { id: 'aa3d9f6a-4f43-4c3a-9d4e-6f1c3b2a1d00', name: 'Fabrikam', visibility: 'private' },
      { id: 'bb3d9f6a-4f43-4c3a-9d4e-6f1c3b2a1d00', name: 'Open', visibility: 'public' },
    ],
    repositories: [
      { id: '5febef5a-833d-4e14-b9c0-14cb638f91e6', name: 'Fabrikam-Fiber', project: 'Fabrikam' },
      {
        id: '6febef5a-833d-4e14-b9c0-14cb638f91e6',
        name: 'docs',
        project: 'Open',
        defaultBranch: 'trunk',
      },
      {
        id: '7febef5a-833d-4e14-b9c0-14cb638f91e6',
        name: 'old',
        project: 'Fabrikam',
        disabled: true,
      },
    ],
  });
  fake.d.addWorkspace({
    slug: 'teamsinspace',
    uuid: '{a8f1c2d3-0000-4b5c-8d9e-0f1a2b3c4d5e}',
    appPasswords: ['jdoe:app-pass-1'],
    tokens: ['ws-token-1'],
    repositories: Array.from({ length: 5 }, (_, i) => ({
      uuid: `{0000000${i}-1111-4222-8333-444455556666}`,
      slug: `repo-${i}`,
      workspace: 'teamsinspace',
      mainBranch: i === 1 ? 'master' : 'main',
    })),
  });
  fake.d.dcTokens.add('dc-token-1');
  fake.d.dcProjects.push(
    { key: 'PRJ', id: 1, name: 'Project' },
    { key: 'OPS', id: 2, name: 'Operations' },
    { key: 'EMPTY', id: 3, name: 'Empty' },
  );
  fake.d.dcRepositories.push(
    { id: 11, slug: 'api', project: 'PRJ', defaultBranch: 'master' },
    { id: 12, slug: 'web', project: 'PRJ', defaultBranch: 'main', public: true },
    { id: 13, slug: 'fresh', project: 'PRJ', defaultBranch: null },
    { id: 21, slug: 'infra', project: 'OPS', defaultBranch: 'main' },
  );
});
afterAll(async () => fake?.close());
beforeEach(() => fake.reset());

const sources = () => fake.sourcesConfig();
const connA = (installation = '4242'): ProviderConnection => ({
  provider: 'scm-a',
  baseUrl: sources().scmAApiUrl,
  externalId: installation,
  credentials: { appId: fake.a.appId, privateKey: fake.a.privateKeyPem },
});
const connB = (token = 'glpat-reader'): ProviderConnection => ({
  provider: 'scm-b',
  baseUrl: sources().scmBApiUrl,
  externalId: null,
  credentials: { token },
});
const connC = (token = 'ado-pat-1', org = 'contoso'): ProviderConnection => ({
  provider: 'scm-c',
  baseUrl: sources().scmCApiUrl,
  externalId: org,
  credentials: { token },
});
const connDCloud = (credentials: Record<string, string>): ProviderConnection => ({
  provider: 'scm-d',
  baseUrl: sources().scmDApiUrl,
  externalId: 'teamsinspace',
  credentials: { flavor: 'cloud', ...credentials },
});
const connDDc = (token = 'dc-token-1'): ProviderConnection => ({
  provider: 'scm-d',
  baseUrl: sources().scmDDataCenterUrl ?? '',
  externalId: null,
  credentials: { flavor: 'datacenter', token },
});

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

describe('scm-a', () => {
  const a = providerFor('scm-a', { timeoutMs: 5000 });

  test('verifies with an RS256 app JWT and names the account', async () => {
    const verified = await a.verify(connA());
    expect(verified).toEqual({ accountName: 'acme-corp', suspended: false });
    const appCall = fake.a.requests.find((r) => r.path === '/app/installations/4242');
    expect(appCall?.headers.authorization).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
  });

  test('lists every repository across Link-header pages with one installation token', async () => {
    fake.a.maxPageSize = 2;
    const repos = await a.listRepositories(connA());
    expect(repos.map((r) => r.externalId)).toEqual(['700', '701', '702', '703', '704']);
    expect(repos[2]).toEqual({
      externalId: '702',
      name: 'service-2',
      fullName: 'acme-corp/service-2',
      cloneUrl: 'https://scm-a.example.test/acme-corp/service-2.git',
      webUrl: 'https://scm-a.example.test/acme-corp/service-2',
      defaultBranch: 'develop',
      private: true,
    });
    expect(repos[4]?.private).toBe(false);
    const pages = fake.a.requests.filter((r) => r.path === '/installation/repositories');
    expect(pages).toHaveLength(3);
    expect(pages.every((p) => /^token ghs_/.test(String(p.headers.authorization)))).toBe(true);
    const tokenCalls = fake.a.requests.filter((r) => r.path.endsWith('/access_tokens'));
    expect(tokenCalls).toHaveLength(1);
  });

  test('gets one repository; unknown or malformed ids are null', async () => {
    expect((await a.getRepository(connA(), '703'))?.fullName).toBe('acme-corp/service-3');
    expect(await a.getRepository(connA(), '999999')).toBeNull();
    expect(await a.getRepository(connA(), '../etc')).toBeNull();
  });

  test('clone credentials are the installation token', async () => {
    const credentials = await a.cloneCredentials(connA());
    expect(credentials?.username).toBe('x-access-token');
    expect(fake.a.tokens.has(credentials?.password ?? '')).toBe(true);
  });

  test('an unknown installation is not_found, a suspended one unauthorized', async () => {
    expect((await failure(a.verify(connA('9999')))).failure).toBe('not_found');
    const suspended = await failure(a.verify(connA('5151')));
    expect(suspended.failure).toBe('unauthorized');
    expect(suspended.upstreamStatus).toBe(403);
  });

  test('a JWT signed with another key is refused', async () => {
    const other = providerFor('scm-a', { timeoutMs: 5000 });
    const { generateKeyPairSync } = await import('node:crypto');
    const key = generateKeyPairSync('rsa', { modulusLength: 2048 })
      .privateKey.export({ type: 'pkcs1', format: 'pem' })
      .toString();
    const error = await failure(
      other.verify({ ...connA(), credentials: { appId: fake.a.appId, privateKey: key } }),
    );
    expect(error.failure).toBe('unauthorized');
    expect(error.upstreamStatus).toBe(401);
  });

  test('500 is upstream with its status, a dropped connection unreachable', async () => {
    clearScmATokenCache();
    fake.a.mode = 'error';
    const upstream = await failure(a.listRepositories(connA()));
    expect(upstream.failure).toBe('upstream');
    expect(upstream.upstreamStatus).toBe(500);
    fake.a.mode = 'down';
    expect((await failure(a.listRepositories(connA()))).failure).toBe('unreachable');
  });
});

describe('scm-b', () => {
  const b = providerFor('scm-b', { timeoutMs: 5000 });

  test('verifies with PRIVATE-TOKEN and names the user', async () => {
    expect(await b.verify(connB())).toEqual({ accountName: 'jdoe', suspended: false });
    expect(fake.b.requests[0]?.headers['private-token']).toBe('glpat-reader');
  });

  test('follows X-Next-Page across pages and maps every project', async () => {
    fake.b.maxPageSize = 2;
    const repos = await b.listRepositories(connB());
    expect(repos.map((r) => r.externalId)).toEqual(['3100', '3101', '3102', '3103', '3104']);
    expect(repos[0]).toEqual({
      externalId: '3100',
      name: 'project-0',
      fullName: 'platform/backend/project-0',
      cloneUrl: 'https://scm-b.example.test/platform/backend/project-0.git',
      webUrl: 'https://scm-b.example.test/platform/backend/project-0',
      defaultBranch: 'main',
      private: false,
    });
    expect(repos[4]?.defaultBranch).toBe('main');
    expect(fake.b.requests.filter((r) => r.path === '/api/v4/projects')).toHaveLength(3);
    expect(fake.b.requests[0]?.query.get('membership')).toBe('true');
  });

  test("gets a member project; another's project is null", async () => {
    expect((await b.getRepository(connB(), '3101'))?.fullName).toBe('platform/backend/project-1');
    expect(await b.getRepository(connB(), '3999')).toBeNull();
    expect(await b.getRepository(connB(), 'abc')).toBeNull();
  });

  test('a wrong token is unauthorized; 500 upstream; down unreachable', async () => {
    const refused = await failure(b.listRepositories(connB('wrong')));
    expect([refused.failure, refused.upstreamStatus]).toEqual(['unauthorized', 401]);
    fake.b.mode = 'error';
    expect((await failure(b.listRepositories(connB()))).upstreamStatus).toBe(500);
    fake.b.mode = 'down';
    expect((await failure(b.verify(connB()))).failure).toBe('unreachable');
  });

  test('a 429 with a short Retry-After is waited out once', async () => {
    fake.b.mode = 'rate-limited-once';
    expect((await b.verify(connB())).accountName).toBe('jdoe');
    expect(fake.b.requests).toHaveLength(2);
  });

  test('clone credentials use the token as oauth2 password', async () => {
    expect(await b.cloneCredentials(connB())).toEqual({
      username: 'oauth2',
      password: 'glpat-reader',
    });
  });
});

describe('scm-c', () => {
  const c = providerFor('scm-c', { timeoutMs: 5000 });

  test('lists repositories with api-version 7.1 and a basic PAT, skipping disabled ones', async () => {
    const repos = await c.listRepositories(connC());
    expect(repos).toEqual([
      {
        externalId: '5febef5a-833d-4e14-b9c0-14cb638f91e6',
        name: 'Fabrikam-Fiber',
        fullName: 'Fabrikam/Fabrikam-Fiber',
        cloneUrl: 'https://scm-c.example.test/contoso/Fabrikam/_git/Fabrikam-Fiber',
        webUrl: 'https://scm-c.example.test/contoso/Fabrikam/_git/Fabrikam-Fiber',
        defaultBranch: 'main',
        private: true,
      },
      expect.objectContaining({ name: 'docs', defaultBranch: 'trunk', private: false }),
    ]);
    const call = fake.c.requests[0];
    expect(call?.query.get('api-version')).toBe('7.1');
    expect(call?.headers.authorization).toBe(
      `Basic ${Buffer.from(':ado-pat-1').toString('base64')}`,
    );
  });

  test('verifies, gets by id, and maps failures', async () => {
    expect(await c.verify(connC())).toEqual({ accountName: 'contoso', suspended: false });
    expect((await c.getRepository(connC(), '6FEBEF5A-833D-4E14-B9C0-14CB638F91E6'))?.name).toBe(
      'docs',
    );
    expect(await c.getRepository(connC(), '9febef5a-833d-4e14-b9c0-14cb638f91e6')).toBeNull();
    expect(await c.getRepository(connC(), 'not-a-guid')).toBeNull();
    expect((await failure(c.verify(connC('bad')))).failure).toBe('unauthorized');
    expect((await failure(c.verify(connC('ado-pat-1', 'nobody')))).failure).toBe('not_found');
    fake.c.mode = 'error';
    expect((await failure(c.listRepositories(connC()))).upstreamStatus).toBe(500);
    fake.c.mode = 'down';
    expect((await failure(c.listRepositories(connC()))).failure).toBe('unreachable');
  });
});

describe('scm-d cloud', () => {
  const d = providerFor('scm-d', { timeoutMs: 5000 });

  test('follows `next` links with an app password', async () => {
    fake.d.maxPageSize = 2;
    const repos = await d.listRepositories(
      connDCloud({ username: 'jdoe', appPassword: 'app-pass-1' }),
    );
    expect(repos.map((r) => r.name)).toEqual(['repo-0', 'repo-1', 'repo-2', 'repo-3', 'repo-4']);
    expect(repos[1]).toEqual({
      externalId: '{00000001-1111-4222-8333-444455556666}',
      name: 'repo-1',
      fullName: 'teamsinspace/repo-1',
      cloneUrl: 'https://scm-d.example.test/teamsinspace/repo-1.git',
      webUrl: 'https://scm-d.example.test/teamsinspace/repo-1',
      defaultBranch: 'master',
      private: true,
    });
    expect(fake.d.requests).toHaveLength(3);
  });

  test('bearer tokens work; gets by uuid; wrong credential unauthorized', async () => {
    const conn = connDCloud({ token: 'ws-token-1' });
    expect(await d.verify(conn)).toEqual({ accountName: 'teamsinspace', suspended: false });
    expect(fake.d.requests[0]?.headers.authorization).toBe('Bearer ws-token-1');
    expect((await d.getRepository(conn, '{00000003-1111-4222-8333-444455556666}'))?.name).toBe(
      'repo-3',
    );
    expect(await d.getRepository(conn, '{99999999-1111-4222-8333-444455556666}')).toBeNull();
    expect(await d.cloneCredentials(conn)).toEqual({
      username: 'x-token-auth',
      password: 'ws-token-1',
    });
    const refused = await failure(d.verify(connDCloud({ username: 'jdoe', appPassword: 'nope' })));
    expect(refused.failure).toBe('unauthorized');
  });
});

describe('scm-d data center', () => {
  const d = providerFor('scm-d', { timeoutMs: 5000 });

  test('pages projects and repositories with isLastPage/nextPageStart, default branches', async () => {
    fake.d.maxPageSize = 2;
    const repos = await d.listRepositories(connDDc());
    expect(repos.map((r) => `${r.externalId}@${r.defaultBranch}`)).toEqual([
      'PRJ/api@master',
      'PRJ/web@main',
      'PRJ/fresh@main',
      'OPS/infra@main',
    ]);
    expect(repos[0]).toEqual({
      externalId: 'PRJ/api',
      name: 'api',
      fullName: 'PRJ/api',
      cloneUrl: `${fake.d.url}/scm/prj/api.git`,
      webUrl: `${fake.d.url}/projects/PRJ/repos/api/browse`,
      defaultBranch: 'master',
      private: true,
    });
    expect(repos[1]?.private).toBe(false);
    const projectPages = fake.d.requests.filter((r) => r.path === '/rest/api/1.0/projects');
    expect(projectPages.map((r) => r.query.get('start'))).toEqual(['0', '2']);
    expect(fake.d.requests.every((r) => r.headers.authorization === 'Bearer dc-token-1')).toBe(
      true,
    );
  });

  test('gets PROJECT/slug; refuses wrong tokens; maps 500 and down', async () => {
    expect((await d.getRepository(connDDc(), 'OPS/infra'))?.cloneUrl).toBe(
      `${fake.d.url}/scm/ops/infra.git`,
    );
    expect(await d.getRepository(connDDc(), 'OPS/missing')).toBeNull();
    expect(await d.getRepository(connDDc(), 'no-slash')).toBeNull();
    expect((await failure(d.verify(connDDc('bad')))).failure).toBe('unauthorized');
    fake.d.mode = 'error';
    expect((await failure(d.listRepositories(connDDc()))).upstreamStatus).toBe(500);
    fake.d.mode = 'down';
    expect((await failure(d.listRepositories(connDDc()))).failure).toBe('unreachable');
  });
});
