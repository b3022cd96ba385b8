import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { newId } from '../../src/db/ids';
import { withTenant } from '../../src/db/tenant-scope';
import { queueScan } from '../../src/domains/scans/service';
import { REFUSED_MESSAGE } from '../../src/security/outbound-guard';
import { type FakeScm, startFakeScm } from '../support/fake-scm';
import { createGitRepository, type GitFixture, git } from '../support/git-fixtures';
import {
  type CountingListener,
  INTERNAL_HOSTS,
  loopbackNames,
  startCountingListener,
} from '../support/internal-addresses';
import { insertRepository } from '../support/scenarios';
import {
  createTestApp,
  openTestDatabase,
  type TestApp,
  type TestTenant,
} from '../support/test-app';

/**
 * The outbound guard through the API (docs/outbound-guard.md), WITHOUT the test switch that
 * allows loopback: every internal form is refused by the import (https and ssh, defaultBranch
 * given or not), by connections with a user-given base URL and by the scan job's clone of a
 * stored URL; a listener on 127.0.0.1 (and ::1) counts connections and must stay at 0.
 */

const FORMS = [...INTERNAL_HOSTS, ...loopbackNames()];
const OPENSSH_KEY =
  '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\n';

let t: TestApp;
let tenant: TestTenant;
let counter: CountingListener;

beforeAll(async () => {
  counter = await startCountingListener();
  t = await createTestApp({
    // No loopback switch here: production rules.
    outbound: { allow: { git: [], webhooks: [] }, tenantAllow: {} },
    sources: { ...loadConfig({}).sources, allowCustomBaseUrls: true, requestTimeoutMs: 3000 },
  });
  tenant = await t.createTenant('enterprise');
});
afterAll(async () => {
  await t?.close();
  await counter?.close();
});

const importRepos = (payload: object) =>
  t.as(tenant.token, { method: 'POST', url: '/api/v1/repositories/import', payload });

async function storedRepositories(): Promise<number> {
  const row = await t.database.system
    .selectFrom('repositories')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('tenant_id', '=', tenant.tenantId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

function expectRefused(res: { statusCode: number; body: string }, field: string): void {
  expect(res.statusCode).toBe(400);
  const body = JSON.parse(res.body) as { errors?: Record<string, string[]> };
  expect(body.errors?.[field]).toBeDefined();
  // Nothing about the target: no port, no connection error, no git output.
  expect(res.body).not.toContain(String(counter.port));
  expect(res.body).not.toMatch(/refused|ECONN|fatal|unable to access|Could not resolve/i);
}

describe('POST /api/v1/repositories/import refuses internal addresses', () => {
  it(`refuses ${FORMS.length} internal forms over https, with and without defaultBranch`, async () => {
    expect(FORMS.length).toBeGreaterThanOrEqual(50);
    for (const [i, { host }] of FORMS.entries()) {
      const url = `https://${host}:${counter.port}/acme/api.git`;
      const item = i % 2 === 0 ? { url } : { url, defaultBranch: 'main' };
      const res = await importRepos({ repositories: [item] });
      expectRefused(res, 'repositories[0].url');
    }
    expect(await storedRepositories()).toBe(0);
    expect(counter.connections()).toBe(0);
  });

  it('refuses them over ssh too (ssh:// and scp-like, deploy key or not)', async () => {
    for (const [i, { host }] of FORMS.entries()) {
      const urls = [`ssh://git@${host}:${counter.port}/acme/api.git`];
      if (/^[a-z0-9.-]+$/i.test(host)) urls.push(`git@${host}:acme/api.git`);
      for (const url of urls) {
        const item = i % 2 === 0 ? { url, deployKey: OPENSSH_KEY } : { url, defaultBranch: 'main' };
        expectRefused(await importRepos({ repositories: [item] }), 'repositories[0].url');
      }
    }
    expect(await storedRepositories()).toBe(0);
    expect(counter.connections()).toBe(0);
  });

  it('refuses the whole request when one item is internal: nothing stored, nothing contacted', async () => {
    const res = await importRepos({
      repositories: [
        { url: 'https://93.184.216.34/acme/public.git', defaultBranch: 'main' },
        { url: `https://2130706433:${counter.port}/acme/api.git`, defaultBranch: 'main' },
      ],
    });
    expectRefused(res, 'repositories[1].url');
    expect(res.json().errors['repositories[1].url']).toEqual([REFUSED_MESSAGE]);
    expect(await storedRepositories()).toBe(0);
    expect(counter.connections()).toBe(0);
  });
});

describe('connections with a user-given base URL', () => {
  it('422 on baseUrl for every internal form, before any connection', async () => {
    for (const { host } of FORMS) {
      const res = await t.as(tenant.token, {
        method: 'POST',
        url: '/api/v1/source-control/connections',
        payload: {
          provider: 'scm-b',
          name: 'Self-hosted',
          baseUrl: `http://${host}:${counter.port}/api/v4`,
          credentials: { token: 'glpat-x' },
        },
      });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.baseUrl).toEqual([REFUSED_MESSAGE]);
      expect(res.body).not.toContain(String(counter.port));
    }
    expect(counter.connections()).toBe(0);
  });
});

describe("a provider's clone URLs", () => {
  let fake: FakeScm;
  let app: TestApp;
  let owner: TestTenant;
  beforeAll(async () => {
    fake = await startFakeScm();
    // The providers are the operator's (trusted bases); their answers are not.
    fake.b.addProject({
      id: 4100,
      namespace: 'acme',
      path: 'a',
      cloneUrl: 'https://2130706433/a.git',
    });
    fake.b.addProject({
      id: 4101,
      namespace: 'acme',
      path: 'b',
      cloneUrl: 'https://[::ffff:10.0.0.1]/b.git',
    });
    fake.b.addProject({
      id: 4102,
      namespace: 'acme',
      path: 'c',
      cloneUrl: 'https://localhost/c.git',
    });
    fake.b.addUser('glpat-good', {
      id: 1,
      username: 'jdoe',
      name: 'J',
      projects: [4100, 4101, 4102],
    });
    app = await createTestApp({
      sources: fake.sourcesConfig(),
      outbound: { allow: { git: [], webhooks: [] }, tenantAllow: {} },
    });
    owner = await app.createTenant('enterprise');
  });
  afterAll(async () => {
    await app?.close();
    await fake?.close();
  });

  it('are checked at import: internal literals and local names are not stored', async () => {
    const created = await app.as(owner.token, {
      method: 'POST',
      url: '/api/v1/source-control/connections',
      payload: { provider: 'scm-b', name: 'B', credentials: { token: 'glpat-good' } },
    });
    expect(created.statusCode).toBe(201);
    const res = await app.as(owner.token, {
      method: 'POST',
      url: '/api/v1/repositories/import',
      payload: {
        connectionId: created.json().connectionId,
        repositories: [{ externalId: '4100' }, { externalId: '4101' }, { externalId: '4102' }],
      },
    });
    expect(res.statusCode).toBe(200);
    for (const item of res.json().items) {
      expect(item).toMatchObject({
        status: 'invalid',
        repositoryId: null,
        message: 'the provider returned a clone URL or default branch that cannot be used',
      });
    }
  });
});

describe('the scan job checks a stored URL again before cloning', () => {
  it('fails the scan with a generic reason for URLs stored before the guard existed', async () => {
    const port = counter.port;
    const stored = [
      `https://127.0.0.1:${port}/acme/api.git`,
      `https://2130706433:${port}/acme/api.git`,
      `https://[::ffff:127.0.0.1]:${port}/acme/api.git`,
      `https://localhost:${port}/acme/api.git`,
      `ssh://git@0x7f.1:${port}/acme/api.git`,
      `ssh://git@[::1]:${port}/acme/api.git`,
      'git@0177.0.0.1:acme/api.git',
      'https://169.254.169.254/latest/meta-data.git',
    ];
    for (const cloneUrl of stored) {
      const suffix = newId().slice(-6);
      const id = await insertRepository(t, tenant.tenantId, `legacy-${suffix}`, {
        full_name: `legacy/${suffix}`,
        clone_url: cloneUrl,
        default_branch: 'main',
      });
      const { scan } = await withTenant(t.database, tenant.tenantId, (db) =>
        queueScan(db, {
          tenantId: tenant.tenantId,
          repositoryId: id,
          trigger: 'manual',
          correlationId: 'guard',
        }),
      );
      await t.runJobs();
      const done = await t.database.system
        .selectFrom('scans')
        .select(['state', 'error'])
        .where('id', '=', scan.id)
        .executeTakeFirstOrThrow();
      expect(done).toEqual({ state: 'failed', error: REFUSED_MESSAGE });
    }
    expect(counter.connections()).toBe(0);
  });
});

describe('file:// imports only below the configured roots', () => {
  let root: string;
  let elsewhere: GitFixture;
  let inside: string;

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'driftwatch-api-roots-'));
    elsewhere = createGitRepository({ 'go.mod': 'module elsewhere\n' });
    git(root, 'clone', '--quiet', '--bare', elsewhere.directory, 'kept.git');
    inside = join(root, 'kept.git');
    symlinkSync(elsewhere.directory, join(root, 'escape'));
    t.config.scans.fileUrlRoots = [root];
  });
  afterAll(() => {
    elsewhere.remove();
    rmSync(root, { recursive: true, force: true });
  });

  it('imports a repository below the root and refuses everything else with the same words', async () => {
    const before = await storedRepositories();
    const refused = [
      pathToFileURL(elsewhere.directory).href,
      pathToFileURL(join(root, 'escape')).href,
      `file://${root}/../${elsewhere.directory}`,
      `file://${root}/kept.git/../../${elsewhere.directory.split('/').pop()}`,
      pathToFileURL(process.cwd()).href,
      pathToFileURL(join(elsewhere.directory, 'missing.git')).href,
      pathToFileURL(join(root, 'escape', 'missing.git')).href,
      'file:///etc',
    ];
    for (const url of refused) {
      const res = await importRepos({ repositories: [{ url, defaultBranch: 'main' }] });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors['repositories[0].url']).toEqual([
        'must name a git repository below a configured root (SCAN_FILE_URL_ROOTS)',
      ]);
    }
    // A folder missing below the root is said to be missing: the root is the tenant's own.
    const missing = await importRepos({
      repositories: [{ url: pathToFileURL(join(root, 'missing.git')).href }],
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors['repositories[0].url']).toEqual([
      'no repository exists at this path',
    ]);
    expect(await storedRepositories()).toBe(before);
    const ok = await importRepos({ repositories: [{ url: pathToFileURL(inside).href }] });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().items[0]).toMatchObject({ status: 'imported' });
  });
});

describe('the default file:// root is one folder per tenant', () => {
  let data: string;
  let wrapper: string;
  let calls: string;
  let owner: TestTenant;
  let other: TestTenant;
  let ownRepository: string;
  const saved = { roots: [] as string[], path: process.env.PATH };

  const storedFor = async (tenantId: string) =>
    Number(
      (
        await t.database.system
          .selectFrom('repositories')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('tenant_id', '=', tenantId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  /** What git was asked to do since the last call (`--version` is no connection). */
  const gitRuns = () => {
    const lines = readFileSync(calls, 'utf8').split('\n').filter(Boolean);
    writeFileSync(calls, '');
    return lines.filter((line) => line !== '--version');
  };

  beforeAll(async () => {
    data = mkdtempSync(join(tmpdir(), 'driftwatch-api-tenant-roots-'));
    saved.roots = t.config.scans.fileUrlRoots;
    // The production default for this data directory: DATA_DIR/repositories/{tenantId}.
    t.config.scans.fileUrlRoots = loadConfig({ DATA_DIR: data }).scans.fileUrlRoots;
    owner = tenant;
    other = await t.createTenant('enterprise');
    const fixture = createGitRepository({ 'go.mod': 'module owned\n' });
    mkdirSync(join(data, 'repositories', owner.tenantId), { recursive: true });
    mkdirSync(join(data, 'repositories', other.tenantId), { recursive: true });
    git(
      join(data, 'repositories', owner.tenantId),
      'clone',
      '-q',
      '--bare',
      fixture.directory,
      'app.git',
    );
    fixture.remove();
    ownRepository = join(data, 'repositories', owner.tenantId, 'app.git');
    // git, as the service finds it on PATH, records every run: a refusal must run none.
    const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    wrapper = join(data, 'bin');
    calls = join(data, 'git-calls');
    mkdirSync(wrapper);
    writeFileSync(calls, '');
    writeFileSync(
      join(wrapper, 'git'),
      `#!/bin/sh\necho "$*" >> '${calls}'\nexec '${realGit}' "$@"\n`,
    );
    chmodSync(join(wrapper, 'git'), 0o755);
    process.env.PATH = `${wrapper}:${saved.path}`;
  });
  afterAll(() => {
    process.env.PATH = saved.path;
    t.config.scans.fileUrlRoots = saved.roots;
    rmSync(data, { recursive: true, force: true });
  });

  it("refuses another tenant's repository with the generic words: nothing stored, git never run", async () => {
    const urls = [
      pathToFileURL(ownRepository).href,
      `file://${join(data, 'repositories', other.tenantId)}/../${owner.tenantId}/app.git`,
      pathToFileURL(join(data, 'repositories')).href,
    ];
    for (const url of urls) {
      for (const item of [{ url }, { url, defaultBranch: 'main' }]) {
        const res = await t.as(other.token, {
          method: 'POST',
          url: '/api/v1/repositories/import',
          payload: { repositories: [item] },
        });
        expect(res.statusCode).toBe(400);
        expect(res.headers['content-type']).toContain('application/problem+json');
        expect(res.json().errors['repositories[0].url']).toEqual([
          'must name a git repository below a configured root (SCAN_FILE_URL_ROOTS)',
        ]);
        expect(res.body).not.toContain(owner.tenantId);
      }
    }
    expect(await storedFor(other.tenantId)).toBe(0);
    expect(gitRuns()).toEqual([]);

    // The owner imports it from its own folder; the recording git saw that (it can fail).
    const own = await t.as(owner.token, {
      method: 'POST',
      url: '/api/v1/repositories/import',
      payload: { repositories: [{ url: pathToFileURL(ownRepository).href }] },
    });
    expect(own.statusCode).toBe(200);
    expect(own.json().items[0]).toMatchObject({ status: 'imported' });
    expect(gitRuns().some((line) => line.startsWith('ls-remote'))).toBe(true);
  });
});

describe('provider calls hold no database connection (pool of one)', () => {
  let small: TestApp;
  let stall: Server;
  let stallPort: number;
  let owner: TestTenant;
  let release: () => void = () => {};
  const held: Socket[] = [];

  beforeAll(async () => {
    const database = await openTestDatabase(1);
    small = await createTestApp(
      {
        sources: { ...loadConfig({}).sources, allowCustomBaseUrls: true, requestTimeoutMs: 10_000 },
      },
      { database },
    );
    owner = await small.createTenant('enterprise');
    // A provider (or git server) that accepts and says nothing until told to hang up.
    stall = createServer((socket) => {
      held.push(socket);
    });
    release = () => {
      for (const socket of held.splice(0)) socket.destroy();
    };
    await new Promise<void>((resolve) => stall.listen(0, '127.0.0.1', resolve));
    stallPort = (stall.address() as { port: number }).port;
  });
  afterAll(async () => {
    await small?.close();
    await new Promise((resolve) => stall?.close(resolve));
  });

  async function whileStalled(slow: () => Promise<{ statusCode: number }>) {
    const order: string[] = [];
    const pending = slow().then((res) => {
      order.push('slow');
      return res;
    });
    // Wait until the slow request is at the stalled server.
    for (let i = 0; i < 250 && held.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(held.length).toBeGreaterThan(0);
    // A write request needs the pool's only connection: it must not wait for the provider.
    const quick = await small.as(owner.token, {
      method: 'POST',
      url: '/api/v1/api-tokens',
      payload: { name: `t-${newId().slice(-6)}`, roleScopeJson: null, expiresAtUtc: null },
    });
    order.push('quick');
    release();
    await pending;
    return { order, quick };
  }

  it('creating a connection: the provider verification runs outside the transaction', async () => {
    const { order, quick } = await whileStalled(() =>
      small.as(owner.token, {
        method: 'POST',
        url: '/api/v1/source-control/connections',
        payload: {
          provider: 'scm-b',
          name: 'Stalled',
          baseUrl: `http://127.0.0.1:${stallPort}/api/v4`,
          credentials: { token: 'glpat-x' },
        },
      }),
    );
    expect(quick.statusCode).toBeLessThan(300);
    expect(order).toEqual(['quick', 'slow']);
  });

  it('listing available repositories: the provider call runs outside the transaction', async () => {
    const id = newId();
    await small.database.system
      .insertInto('source_control_connections')
      .values({
        tenant_id: owner.tenantId,
        id,
        provider: 'scm-b',
        name: 'Self-hosted, stalled',
        base_url: `http://127.0.0.1:${stallPort}/api/v4`,
        external_id: null,
        account_name: null,
        status: 'active',
        status_reason: null,
        credentials_sealed: small.secretBox.seal(JSON.stringify({ token: 'glpat-x' })),
        webhook_secret_sealed: null,
        webhook_token_hash: null,
      })
      .execute();
    const { order, quick } = await whileStalled(() =>
      small.as(owner.token, {
        method: 'GET',
        url: `/api/v1/source-control/connections/${id}/available-repositories`,
      }),
    );
    expect(quick.statusCode).toBeLessThan(300);
    expect(order).toEqual(['quick', 'slow']);
  });

  it('importing by URL: git ls-remote runs outside the transaction', async () => {
    const { order, quick } = await whileStalled(() =>
      small.as(owner.token, {
        method: 'POST',
        url: '/api/v1/repositories/import',
        payload: { repositories: [{ url: `https://127.0.0.1:${stallPort}/acme/api.git` }] },
      }),
    );
    expect(quick.statusCode).toBeLessThan(300);
    expect(order).toEqual(['quick', 'slow']);
  });
});
