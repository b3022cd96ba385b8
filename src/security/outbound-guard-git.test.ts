import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitRepository, type GitFixture, git } from '../../test/support/git-fixtures';
import { type GitHttpsServer, startGitHttpsServer } from '../../test/support/git-https-server';
import {
  type CountingListener,
  INTERNAL_HOSTS,
  startCountingListener,
} from '../../test/support/internal-addresses';
import { selfSignedCertificate } from '../../test/support/tls-certificate';
import {
  type GitAccess,
  GitCheckoutError,
  remoteDefaultBranch,
  shallowCheckout,
} from '../sources/git';
import { REFUSED_MESSAGE, type Resolver } from './outbound-guard';
import {
  checkFileRepository,
  createFileRoots,
  FileRepositoryGoneError,
} from './outbound-guard-files';
import { type Cidr, parseCidr } from './outbound-guard-ranges';
import { tenantRoots } from './tenant-roots';

const cidrs = (...list: string[]) => list.map((c) => parseCidr(c) as Cidr);
const NOTHING: GitAccess = { policy: { allow: [] }, fileRoots: null, tenantId: null };

function flipping(name: string, first: string, then: string): Resolver & { calls: () => number } {
  let calls = 0;
  const resolver: Resolver = async (asked) => {
    if (asked !== name) throw new Error(`ENOTFOUND ${asked}`);
    calls++;
    const address = calls === 1 ? first : then;
    return [{ address, family: 4 }];
  };
  return Object.assign(resolver, { calls: () => calls });
}

async function gitFailure(work: Promise<unknown>): Promise<GitCheckoutError> {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GitCheckoutError);
  return error as GitCheckoutError;
}

describe('git through the guard: every internal form refused before git runs', () => {
  let counter: CountingListener;
  let work: string;
  beforeAll(async () => {
    counter = await startCountingListener();
    work = mkdtempSync(join(tmpdir(), 'driftwatch-guard-git-'));
  });
  afterAll(async () => {
    await counter.close();
    rmSync(work, { recursive: true, force: true });
  });

  it.each(INTERNAL_HOSTS)('$host ($what): clone and ls-remote, https and ssh', async ({ host }) => {
    const port = counter.port;
    const urls = [`https://${host}:${port}/acme/api.git`, `ssh://git@${host}:${port}/acme/api.git`];
    if (/^[a-z0-9.]+$/i.test(host)) urls.push(`git@${host}:acme/api.git`);
    for (const url of urls) {
      const options = { url, workDirectory: work, access: NOTHING, timeoutMs: 5000 };
      const listed = await gitFailure(remoteDefaultBranch(options));
      const cloned = await gitFailure(
        shallowCheckout({
          ...options,
          branch: 'main',
          directory: join(work, 'c'),
          maxBytes: 1024,
        }),
      );
      for (const error of [listed, cloned]) {
        // Either the URL is unreadable (refused by the parser) or the guard refused it.
        expect(error.failure).toBe('refused');
        expect(error.message).not.toContain(String(port));
      }
      expect(cloned.message === REFUSED_MESSAGE || /^clone URL /.test(cloned.message)).toBe(true);
    }
    expect(counter.connections()).toBe(0);
  });
});

describe('git pinned to the checked address', () => {
  let fixture: GitFixture;
  let server: GitHttpsServer;
  let counter: CountingListener;
  let port: number;
  let work: string;

  beforeAll(async () => {
    fixture = createGitRepository({ 'go.mod': 'module example.com/pinned\n' });
    // The allowed server is on 127.0.0.2 under a name only the test resolver knows; the same
    // port on 127.0.0.1 counts what a rebinding would reach.
    server = await startGitHttpsServer({
      repository: fixture.directory,
      authorize: () => true,
      host: '127.0.0.2',
      names: ['git.pinned.test'],
    });
    port = Number(new URL(server.url).port);
    counter = await startCountingListener(['127.0.0.1'], port);
    work = mkdtempSync(join(tmpdir(), 'driftwatch-guard-pin-'));
  });
  afterAll(async () => {
    await counter.close();
    await server.close();
    fixture.remove();
    rmSync(work, { recursive: true, force: true });
  });

  const access = (resolve: Resolver): GitAccess => ({
    policy: { allow: cidrs('127.0.0.2/32'), resolve },
    fileRoots: null,
    tenantId: null,
  });

  it('https: curl connects to the checked address (TLS for the name); no second lookup rebinds', async () => {
    const resolve = flipping('git.pinned.test', '127.0.0.2', '127.0.0.1');
    const dir = mkdtempSync(join(work, 'co-'));
    const checkout = await shallowCheckout({
      url: `https://git.pinned.test:${port}/repo`,
      branch: 'main',
      directory: join(dir, 'checkout'),
      workDirectory: dir,
      caFile: server.caFile,
      credentials: { username: 'x-access-token', password: 'token' },
      access: access(resolve),
      maxBytes: 10 * 1024 * 1024,
      timeoutMs: 30_000,
    });
    // The machine's resolver does not know git.pinned.test: only the pin can have connected.
    expect(checkout.commitSha).toBe(git(fixture.directory, 'rev-parse', 'HEAD'));
    expect(resolve.calls()).toBe(1);
    expect(counter.connections()).toBe(0);
    // Spelt with a trailing dot and in capitals: still the pinned address.
    const dotted = mkdtempSync(join(work, 'co-'));
    await shallowCheckout({
      url: `https://GIT.pinned.test.:${port}/repo`,
      branch: 'main',
      directory: join(dotted, 'checkout'),
      workDirectory: dotted,
      caFile: server.caFile,
      credentials: { username: 'x-access-token', password: 'token' },
      access: access(flipping('git.pinned.test', '127.0.0.2', '127.0.0.1')),
      maxBytes: 10 * 1024 * 1024,
      timeoutMs: 30_000,
    });
    expect(counter.connections()).toBe(0);
    // The next clone resolves again, gets loopback, and is refused before git runs.
    const again = await gitFailure(
      remoteDefaultBranch({
        url: `https://git.pinned.test:${port}/repo`,
        workDirectory: dir,
        caFile: server.caFile,
        access: access(resolve),
        timeoutMs: 30_000,
      }),
    );
    expect(again.message).toBe(REFUSED_MESSAGE);
    expect(counter.connections()).toBe(0);
  });

  it('ssh: connects to the checked address, never to what the name resolves to later', async () => {
    const target = await startCountingListener(['127.0.0.2']);
    const other = await startCountingListener(['127.0.0.1'], target.port);
    try {
      const resolve = flipping('ssh.pinned.test', '127.0.0.2', '127.0.0.1');
      const failed = await gitFailure(
        remoteDefaultBranch({
          url: `ssh://git@ssh.pinned.test:${target.port}/acme/api.git`,
          workDirectory: work,
          access: access(resolve),
          timeoutMs: 20_000,
        }),
      );
      expect(target.connections()).toBeGreaterThan(0);
      expect(other.connections()).toBe(0);
      // ssh's own words stay in the detail (server logs), the caller gets a plain sentence.
      expect(failed.message).toBe('the repository could not be reached');
      expect(failed.message).not.toContain(String(target.port));
    } finally {
      await target.close();
      await other.close();
    }
  });

  it('does not follow an https redirect to an internal address', async () => {
    const { createServer } = await import('node:https');
    const tls = selfSignedCertificate('127.0.0.2', ['IP:127.0.0.2'], work);
    let redirected = 0;
    const redirector = createServer({ key: tls.key, cert: tls.cert }, (request, response) => {
      redirected++;
      response.writeHead(301, { location: `https://127.0.0.1:${port}${request.url}` });
      response.end();
    });
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.2', resolve));
    const redirectPort = (redirector.address() as { port: number }).port;
    try {
      const failed = await gitFailure(
        remoteDefaultBranch({
          url: `https://127.0.0.2:${redirectPort}/acme/api.git`,
          workDirectory: tls.dir,
          caFile: tls.certFile,
          access: access(flipping('unused.test', '127.0.0.2', '127.0.0.2')),
          timeoutMs: 20_000,
        }),
      );
      expect(redirected).toBeGreaterThan(0);
      expect(failed.message).not.toContain('127.0.0.1');
      expect(counter.connections()).toBe(0);
    } finally {
      await new Promise((resolve) => redirector.close(resolve));
    }
  });
});

describe('file:// repositories only below the roots', () => {
  let root: string;
  let outside: string;
  let inner: GitFixture;
  let outer: string;

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'driftwatch-roots-'));
    outside = mkdtempSync(join(tmpdir(), 'driftwatch-outside-'));
    inner = createGitRepository({ 'go.mod': 'module x\n' });
    git(outside, 'init', '--quiet', '--bare', 'other.git');
    outer = join(outside, 'other.git');
    git(root, 'clone', '--quiet', '--bare', inner.directory, 'kept.git');
    symlinkSync(outer, join(root, 'escape.git'));
    symlinkSync(join(root, 'kept.git'), join(root, 'alias.git'));
    // A checkout whose .git is a file naming a git directory elsewhere.
    mkdirSync(join(root, 'gitfile'));
    writeFileSync(join(root, 'gitfile', '.git'), `gitdir: ${outer}\n`);
    // A repository that borrows objects from outside the roots.
    git(root, 'init', '--quiet', '--bare', 'borrower.git');
    writeFileSync(
      join(root, 'borrower.git', 'objects', 'info', 'alternates'),
      `${outer}/objects\n`,
    );
  });
  afterAll(() => {
    inner.remove();
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  const url = (path: string) => pathToFileURL(path).href;

  it('admits a repository below a root, resolved through links inside the root', async () => {
    expect(await checkFileRepository(url(join(root, 'kept.git')), [root], null)).toBe(
      url(join(root, 'kept.git')),
    );
    // A link inside the root to a repository inside the root: git gets the resolved path.
    expect(await checkFileRepository(url(join(root, 'alias.git')), [root], null)).toBe(
      url(join(root, 'kept.git')),
    );
  });

  it.each([
    ['a repository outside every root', () => url(outer)],
    ['a link inside the root leading outside', () => url(join(root, 'escape.git'))],
    [
      'a `..` path out of the root',
      () => `file://${root}/../${outside.split('/').pop()}/other.git`,
    ],
    ['an encoded `..` path', () => `file://${root}/%2e%2e/${outside.split('/').pop()}/other.git`],
    ['the root itself', () => url(root)],
    ['the service checkout', () => url(process.cwd())],
    ['a .git file naming another git directory', () => url(join(root, 'gitfile'))],
    ['alternates outside the roots', () => url(join(root, 'borrower.git'))],
    ['a missing path behind a link out of the root', () => url(join(root, 'escape.git', 'x'))],
    ['a missing path outside every root', () => url(join(outside, 'missing.git'))],
    ['system files', () => 'file:///etc'],
  ])('refuses %s', async (_what, target) => {
    await expect(checkFileRepository(target(), [root], null)).rejects.toThrow(REFUSED_MESSAGE);
  });

  it('says a missing folder below the root is gone, not that its address is not allowed', async () => {
    for (const gone of [join(root, 'missing.git'), join(root, 'deleted', 'repo')]) {
      await expect(checkFileRepository(url(gone), [root], null)).rejects.toThrow(
        new FileRepositoryGoneError(gone),
      );
    }
    // Through the git layer a scan uses: its own failure kind and words.
    const work = mkdtempSync(join(tmpdir(), 'driftwatch-gone-'));
    try {
      const failed = await gitFailure(
        shallowCheckout({
          url: url(join(root, 'missing.git')),
          branch: 'main',
          directory: join(work, 'checkout'),
          workDirectory: work,
          access: { policy: { allow: [] }, fileRoots: [root], tenantId: null },
          maxBytes: 1024 * 1024,
          timeoutMs: 20_000,
        }),
      );
      expect(failed.failure).toBe('missing');
      expect(failed.message).toBe(
        'the repository no longer exists: its folder was moved or deleted',
      );
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  it('names the tenant in a root with {tenantId}', async () => {
    const tenant = '0193f0b4-0000-7000-8000-00000000000a';
    mkdirSync(join(root, tenant));
    git(join(root, tenant), 'init', '--quiet', '--bare', 'own.git');
    const roots = [join(root, '{tenantId}')];
    const own = url(join(root, tenant, 'own.git'));
    expect(await checkFileRepository(own, roots, tenant)).toBe(own);
    await expect(
      checkFileRepository(own, roots, '0193f0b4-0000-7000-8000-00000000000b'),
    ).rejects.toThrow(REFUSED_MESSAGE);
  });

  it('gives a tenant only its own folder of a {tenantId} root, never one named by a path', () => {
    const roots = [join(root, '{tenantId}'), '/srv/shared'];
    const tenant = '0193f0b4-0000-7000-8000-00000000000a';
    expect(tenantRoots(roots, tenant)).toEqual([join(root, tenant), '/srv/shared']);
    expect(tenantRoots(roots, null)).toEqual(['/srv/shared']);
    expect(tenantRoots(roots, '../x')).toEqual(['/srv/shared']);
  });

  it('creates the folder holding the tenant folders, not a tenant folder', async () => {
    const data = mkdtempSync(join(tmpdir(), 'driftwatch-data-'));
    try {
      const fileUrlRoots = [join(data, 'repositories', '{tenantId}')];
      await createFileRoots({ allowFileUrls: true, fileUrlRoots });
      expect(statSync(join(data, 'repositories')).isDirectory()).toBe(true);
      expect(existsSync(join(data, 'repositories', '{tenantId}'))).toBe(false);
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  });

  it('checks again at clone time: a link swapped after the check cannot escape', async () => {
    const link = join(root, 'swapped.git');
    symlinkSync(join(root, 'kept.git'), link);
    const access: GitAccess = { policy: { allow: [] }, fileRoots: [root], tenantId: null };
    const work = mkdtempSync(join(tmpdir(), 'driftwatch-swap-'));
    try {
      expect(
        await remoteDefaultBranch({
          url: url(link),
          workDirectory: work,
          access,
          timeoutMs: 20_000,
        }),
      ).toBe('main');
      rmSync(link);
      symlinkSync(outer, link);
      const failed = await gitFailure(
        shallowCheckout({
          url: url(link),
          branch: 'main',
          directory: join(work, 'checkout'),
          workDirectory: work,
          access,
          maxBytes: 1024 * 1024,
          timeoutMs: 20_000,
        }),
      );
      expect(failed.message).toBe(REFUSED_MESSAGE);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
