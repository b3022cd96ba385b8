import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeScm, startFakeScm } from '../../../../test/support/fake-scm';
import {
  createGitRepository,
  type GitFixture,
  POLYGLOT_FILES,
} from '../../../../test/support/git-fixtures';
import {
  type GitHttpsServer,
  startGitHttpsServer,
} from '../../../../test/support/git-https-server';
import { createTestApp, type TestApp, type TestTenant } from '../../../../test/support/test-app';

/**
 * A scan of a provider repository over https: the worker asks the provider for clone
 * credentials (an scm-a installation token, issued by the fake provider) and git presents them
 * to a real TLS git server as Basic authentication. The token never reaches logs or responses.
 */
describe('scanning a provider repository over https', () => {
  let t: TestApp;
  let fake: FakeScm;
  let repo: GitFixture;
  let git: GitHttpsServer;
  let tenant: TestTenant;

  beforeAll(async () => {
    fake = await startFakeScm();
    repo = createGitRepository(POLYGLOT_FILES);
    git = await startGitHttpsServer({
      repository: repo.directory,
      authorize: (user, password) => user === 'x-access-token' && fake.a.tokens.has(password),
    });
    fake.a.addInstallation({
      id: 6600,
      account: 'acme-corp',
      repositories: [{ id: 5100, owner: 'acme-corp', name: 'private-api', cloneUrl: git.url }],
    });
    fake.a.addInstallation({
      id: 6601,
      account: 'other-corp',
      repositories: [{ id: 5200, owner: 'other-corp', name: 'api', cloneUrl: git.url }],
    });
    t = await createTestApp({ sources: fake.sourcesConfig() });
    t.config.scans.gitCaFile = git.caFile;
    tenant = await t.createTenant();
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
    await git?.close();
    repo?.remove();
  });

  it('clones with the installation token and keeps it out of everything it writes', async () => {
    const installed = await t.as(tenant.token, {
      method: 'POST',
      url: '/api/v1/source-control/connections/github/install',
      payload: { installationId: 6600 },
    });
    const connectionId = installed.json().connectionId;
    const imported = await t.as(tenant.token, {
      method: 'POST',
      url: '/api/v1/repositories/import',
      payload: { connectionId, repositories: [{ externalId: '5100' }] },
    });
    expect(imported.json().items[0].status).toBe('imported');
    const repositoryId = imported.json().items[0].repositoryId;
    const queued = await t.as(tenant.token, {
      method: 'POST',
      url: `/api/v1/repositories/${repositoryId}/scan`,
    });
    await t.runJobs();
    const scan = await t.as(tenant.token, {
      method: 'GET',
      url: `/api/v1/scans/${queued.json().scanId}`,
    });
    expect(scan.json()).toMatchObject({ state: 'completed', dependencyCount: 7 });

    const tokens = [...fake.a.tokens.keys()];
    expect(tokens.length).toBeGreaterThan(0);
    const presented = git.authorizations
      .filter((h) => h.startsWith('Basic '))
      .map((h) => Buffer.from(h.slice(6), 'base64').toString());
    expect(presented.some((p) => tokens.some((token) => p === `x-access-token:${token}`))).toBe(
      true,
    );
    const logs = await t.as(tenant.token, {
      method: 'GET',
      url: `/api/v1/scans/${queued.json().scanId}/logs`,
    });
    for (const token of tokens) {
      expect(logs.body).not.toContain(token);
      expect(scan.body).not.toContain(token);
    }
  });

  it('fails the scan with a clear reason when the provider refuses, without leaking anything', async () => {
    const other = await t.createTenant();
    const installed = await t.as(other.token, {
      method: 'POST',
      url: '/api/v1/source-control/connections/github/install',
      payload: { installationId: 6601 },
    });
    const connectionId = installed.json().connectionId;
    const imported = await t.as(other.token, {
      method: 'POST',
      url: '/api/v1/repositories/import',
      payload: { connectionId, repositories: [{ externalId: '5200' }] },
    });
    const repositoryId = imported.json().items[0].repositoryId;
    const queued = await t.as(other.token, {
      method: 'POST',
      url: `/api/v1/repositories/${repositoryId}/scan`,
    });
    fake.reset(); // forget cached installation tokens
    fake.a.mode = 'unauthorized';
    try {
      await t.runJobs();
    } finally {
      fake.reset();
    }
    const scan = (
      await t.as(other.token, { method: 'GET', url: `/api/v1/scans/${queued.json().scanId}` })
    ).json();
    expect(scan.state).toBe('failed');
    expect(scan.error).toMatch(/^checkout failed: /);
  });
});
