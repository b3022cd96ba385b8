import { describe, expect, it } from 'vitest';
import { REFUSED_MESSAGE } from '../security/outbound-guard';
import {
  GitCheckoutError,
  HTTPS_UNAVAILABLE,
  type PinnedRemote,
  parseCloneUrl,
  pinRemote,
} from './git';
import {
  createHttpsPinningCheck,
  type GitVersionSource,
  httpsPinningVerdict,
  parseGitVersion,
} from './git-version';

describe('parseGitVersion', () => {
  it.each([
    ['git version 2.39.5\n', [2, 39, 5]],
    ['git version 2.37.0', [2, 37, 0]],
    ['git version 2.37.1.windows.1', [2, 37, 1]],
    ['git version 2.30.1 (Apple Git-130)', [2, 30, 1]],
    ['git version 3.0', [3, 0, 0]],
  ])('reads %j', (text, version) => {
    expect(parseGitVersion(text)).toEqual(version);
  });
  it.each(['', 'hub version 2.14.2', 'git version', 'version 2.40.0'])('refuses %j', (text) => {
    expect(parseGitVersion(text)).toBeNull();
  });
});

describe('httpsPinningVerdict', () => {
  it.each(['git version 2.37.0', 'git version 2.37.1', 'git version 2.40.0', 'git version 3.1.0'])(
    'lets %s pin https clones',
    (text) => {
      expect(httpsPinningVerdict(text)).toEqual({ ok: true });
    },
  );
  it.each([
    ['git version 2.36.9', 'git 2.36.9 is older than 2.37.0'],
    ['git version 2.30.1 (Apple Git-130)', 'git 2.30.1 is older than 2.37.0'],
    ['git version 1.99.0', 'git 1.99.0 is older than 2.37.0'],
    ['something else', 'not a version'],
  ])('refuses https clones with %s and says why', (text, why) => {
    const verdict = httpsPinningVerdict(text);
    expect(verdict.ok).toBe(false);
    expect(verdict.ok === false && verdict.reason).toContain(why);
  });
});

describe('createHttpsPinningCheck', () => {
  it('asks the source once, lazily, and remembers the verdict', async () => {
    let asked = 0;
    const source: GitVersionSource = async () => {
      asked++;
      return 'git version 2.34.1';
    };
    const check = createHttpsPinningCheck(source);
    expect(asked).toBe(0);
    const [a, b] = await Promise.all([check(), check()]);
    await check();
    expect(asked).toBe(1);
    expect(a).toEqual(b);
    expect(a.ok).toBe(false);
  });

  it('refuses while the source fails and asks again next time', async () => {
    let fail = true;
    const check = createHttpsPinningCheck(async () => {
      if (fail) throw new Error('spawn git ENOENT');
      return 'git version 2.39.5';
    });
    const first = await check();
    expect(first.ok === false && first.reason).toContain('spawn git ENOENT');
    fail = false;
    expect(await check()).toEqual({ ok: true });
  });
});

describe('pinRemote with the git version', () => {
  const access = { policy: { allow: [] }, fileRoots: null, tenantId: null };
  const https = parseCloneUrl('https://8.8.8.8/acme/api.git');
  if ('error' in https) throw new Error('test URL');

  it('refuses https clones with a generic message when git is too old', async () => {
    const old = createHttpsPinningCheck(async () => 'git version 2.36.0');
    const refused = await pinRemote(https, access, old).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(GitCheckoutError);
    const error = refused as GitCheckoutError;
    expect(error.failure).toBe('refused');
    expect(error.message).toBe(HTTPS_UNAVAILABLE);
    expect(error.message).not.toContain('8.8.8.8');
    expect(error.detail).toContain('git 2.36.0 is older than 2.37.0');
  });

  it('pins https clones when git is new enough, and never asks git for other transports', async () => {
    const recent = createHttpsPinningCheck(async () => 'git version 2.37.0');
    const pinned = (await pinRemote(https, access, recent)) as PinnedRemote;
    expect(pinned.kind).toBe('https');
    let asked = 0;
    const counting = createHttpsPinningCheck(async () => {
      asked++;
      return 'git version 2.0.0';
    });
    const ssh = parseCloneUrl('ssh://git@8.8.8.8/acme/api.git');
    if ('error' in ssh) throw new Error('test URL');
    expect((await pinRemote(ssh, access, counting)).kind).toBe('ssh');
    expect(asked).toBe(0);
    // The guard still comes first: an internal address is refused as before.
    const internal = parseCloneUrl('https://127.0.0.1/acme/api.git');
    if ('error' in internal) throw new Error('test URL');
    await expect(pinRemote(internal, access, recent)).rejects.toThrow(REFUSED_MESSAGE);
  });
});
