import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitRepository, type GitFixture, git } from '../../test/support/git-fixtures';
import { type GitHttpsServer, startGitHttpsServer } from '../../test/support/git-https-server';
import { type Cidr, parseCidr } from '../security/outbound-guard-ranges';
import {
  directorySize,
  GitCheckoutError,
  gitEnvironment,
  isValidBranchName,
  parseCloneUrl,
  remoteDefaultBranch,
  shallowCheckout,
} from './git';

describe('parseCloneUrl', () => {
  it.each([
    ['https://git.example.test/acme/api.git', 'https', 'acme/api'],
    ['https://git.example.test:8443/group/sub/api', 'https', 'group/sub/api'],
    ['ssh://git@git.example.test:2222/acme/api.git', 'ssh', 'acme/api'],
    ['git@git.example.test:acme/api.git', 'ssh', 'acme/api'],
    ['file:///srv/git/api.git', 'file', 'srv/git/api'],
  ])('%s is %s', (url, kind, path) => {
    expect(parseCloneUrl(url)).toMatchObject({ kind, path });
  });

  it.each([
    '',
    'http://git.example.test/a.git',
    'ftp://git.example.test/a.git',
    'https://user:secret@git.example.test/a.git',
    'https://token@git.example.test/a.git',
    'https://git.example.test/a.git?x=1',
    'ext::sh -c touch% /tmp/pwned',
    'ext::ssh',
    'fd::17',
    '-uhelp',
    '--upload-pack=touch /tmp/x',
    'ssh://-oProxyCommand=touch%20x/a',
    'file://remote-host/a',
    'https://git.example.test/a b.git',
    'https://git.example.test/a\u0000.git',
    'not a url',
    'x'.repeat(3000),
  ])('refuses %j', (url) => {
    expect(parseCloneUrl(url)).toHaveProperty('error');
  });
});

describe('isValidBranchName', () => {
  it.each(['main', 'release/2.x', 'feature/JIRA-12_fix', 'v1.2.3'])('accepts %s', (name) => {
    expect(isValidBranchName(name)).toBe(true);
  });
  it.each([
    '',
    '-x',
    '--upload-pack=x',
    'a..b',
    'a b',
    'a~1',
    'a^',
    'a:b',
    'x.lock',
    '/a',
    'a/',
    '.hidden',
    'a//b',
    'a@{1}',
    '@',
    'a\\b',
    'a\u0001',
  ])('refuses %j', (name) => {
    expect(isValidBranchName(name)).toBe(false);
  });
});

describe('gitEnvironment', () => {
  it('carries https credentials as an extra header in the environment, never in argv or URL', async () => {
    const work = mkdtempSync(join(tmpdir(), 'driftwatch-git-env-'));
    try {
      const env = await gitEnvironment(
        {
          workDirectory: work,
          credentials: { username: 'x-access-token', password: 's3cr3t' },
        },
        { kind: 'https', url: 'https://git.example.test/a.git', config: [], ssh: [] },
      );
      const values = Object.entries(env).filter(([k]) => k.startsWith('GIT_CONFIG_VALUE_'));
      const header = values.find(([, v]) => v.startsWith('Authorization: Basic '));
      expect(
        Buffer.from((header?.[1] ?? '').slice('Authorization: Basic '.length), 'base64').toString(),
      ).toBe('x-access-token:s3cr3t');
      expect(env.GIT_ALLOW_PROTOCOL).toBe('https');
      expect(env.GIT_TERMINAL_PROMPT).toBe('0');
      expect(env.GIT_SSH_COMMAND).toBeUndefined();
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  it('writes an ssh deploy key 0600 into the work directory and points GIT_SSH_COMMAND at it', async () => {
    const work = mkdtempSync(join(tmpdir(), 'driftwatch-git-env-'));
    try {
      const env = await gitEnvironment(
        {
          workDirectory: work,
          deployKey: '-----BEGIN OPENSSH PRIVATE KEY-----\nabc\n-----END OPENSSH PRIVATE KEY-----',
        },
        {
          kind: 'ssh',
          url: 'git@git.example.test:a/b.git',
          config: [],
          ssh: ['-o', 'HostName=203.0.113.9', '-o', 'HostKeyAlias=git.example.test'],
        },
      );
      const keyFile = join(work, 'deploy_key');
      expect(statSync(keyFile).mode & 0o777).toBe(0o600);
      expect(readFileSync(keyFile, 'utf8')).toContain('abc\n');
      expect(env.GIT_SSH_COMMAND).toContain(`-i '${keyFile}'`);
      expect(env.GIT_SSH_COMMAND).toContain('IdentitiesOnly=yes');
      expect(env.GIT_SSH_COMMAND).not.toContain('abc');
      expect(env.GIT_ALLOW_PROTOCOL).toBe('ssh');
      // Pinned to the checked address, the host key checked under the name, no config files.
      expect(env.GIT_SSH_COMMAND).toContain(`-F /dev/null '-o' 'HostName=203.0.113.9'`);
      expect(env.GIT_SSH_COMMAND).toContain(`'HostKeyAlias=git.example.test'`);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});

/**
 * A real smart-HTTP git server over TLS on 127.0.0.1: `git http-backend` as CGI behind a Node
 * https server that demands Basic credentials, like a hosted provider does.
 */
describe('https checkout with credentials', () => {
  let server: GitHttpsServer;
  let fixture: GitFixture;
  let url: string;
  let caFile: string;
  let seen: string[];
  const USER = 'x-access-token';
  const PASSWORD = 'ghs_fakeInstallationToken123';

  beforeAll(async () => {
    fixture = createGitRepository({
      'go.mod': 'module example.com/x\n\nrequire golang.org/x/text v0.14.0\n',
    });
    server = await startGitHttpsServer({
      repository: fixture.directory,
      authorize: (user, password) => user === USER && password === PASSWORD,
    });
    ({ url, caFile } = server);
    seen = server.authorizations;
  });
  afterAll(async () => {
    await server.close();
    fixture.remove();
  });

  const options = (dir: string, credentials: { username: string; password: string } | null) => ({
    url,
    branch: 'main',
    directory: join(dir, 'checkout'),
    workDirectory: dir,
    credentials,
    caFile,
    // The explicit test switch: the local server is on loopback.
    access: {
      policy: { allow: [parseCidr('127.0.0.0/8') as Cidr] },
      fileRoots: null,
      tenantId: null,
    },
    maxBytes: 10 * 1024 * 1024,
    timeoutMs: 30_000,
  });

  it('clones shallowly with the credentials sent as a header', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'driftwatch-git-co-'));
    try {
      const checkout = await shallowCheckout(options(dir, { username: USER, password: PASSWORD }));
      expect(checkout.commitSha).toBe(git(fixture.directory, 'rev-parse', 'HEAD'));
      expect(readFileSync(join(dir, 'checkout', 'go.mod'), 'utf8')).toContain('golang.org/x/text');
      expect(git(join(dir, 'checkout'), 'rev-parse', '--is-shallow-repository')).toBe('true');
      // Nothing of the credential is left in the checkout's configuration.
      expect(readFileSync(join(dir, 'checkout', '.git', 'config'), 'utf8')).not.toContain(PASSWORD);
      expect(seen.some((h) => h.startsWith('Basic '))).toBe(true);
      expect(
        await remoteDefaultBranch({
          ...options(dir, { username: USER, password: PASSWORD }),
          timeoutMs: 30_000,
        }),
      ).toBe('main');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('fails without leaking the credential when the server refuses it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'driftwatch-git-co-'));
    try {
      const error = await shallowCheckout(
        options(dir, { username: USER, password: 'wrong-password' }),
      ).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(GitCheckoutError);
      expect((error as GitCheckoutError).failure).toBe('git');
      expect((error as GitCheckoutError).message).not.toContain('wrong-password');
      // What the caller sees names no host, port or git output; the detail is for logs.
      expect((error as GitCheckoutError).message).toBe(
        'the repository refused access; check the credentials or deploy key',
      );
      expect((error as GitCheckoutError).detail).not.toContain('wrong-password');
      const noCa = await shallowCheckout({
        ...options(dir, { username: USER, password: PASSWORD }),
        caFile: null,
      }).catch((e: unknown) => e);
      expect((noCa as GitCheckoutError).message).toMatch(/certificate|SSL/i);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('directorySize', () => {
  it('sums file sizes and stops early past a limit', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'driftwatch-size-'));
    try {
      writeFileSync(join(dir, 'a'), 'x'.repeat(1000));
      writeFileSync(join(dir, 'b'), 'x'.repeat(500));
      expect(await directorySize(dir)).toBe(1500);
      expect(await directorySize(dir, 100)).toBeGreaterThan(100);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
