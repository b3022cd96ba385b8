import { describe, expect, it } from 'vitest';
import {
  fakeClient,
  requestedPaths,
  useFakeRegistries,
} from '../../../test/support/fake-registries/vitest';
import { expandMinified } from './registry';

const ctx = useFakeRegistries();

describe('Packagist client', () => {
  it('expands minified p2 metadata and adds maintainers and downloads from the package API', async () => {
    const m = (await fakeClient(ctx.fake, 'Composer').fetchPackage('Acme/HTTP-Client'))!;
    expect(requestedPaths(ctx.fake)).toEqual([
      '/packagist/p2/acme/http-client.json',
      '/packagist/packages/acme/http-client.json',
    ]);
    expect(m.name).toBe('acme/http-client');
    expect(m.versions.map((v) => v.version)).toEqual([
      'v6.4.0',
      'v7.0.0-BETA1',
      'v7.0.0',
      'v7.1.2',
    ]);
    // Only the newest entry is complete in the minified form; every version still has its facts.
    for (const v of m.versions) {
      expect(v.licence).toBe('MIT');
      expect(v.publishedAtUtc).not.toBeNull();
    }
    expect(m.versions[0]!.publishedAtUtc).toBe('2023-11-28T15:00:00.000Z');
    expect(m.versions[1]!.prerelease).toBe(true);
    expect(m.latestStable).toBe('v7.1.2');
    expect(m.maintainers).toEqual(['fabpot', 'nicolas-grekas']);
    expect(m.downloads).toEqual({ count: 300_000_000, period: 'total' });
    expect(m.repositoryUrl).toBe('https://git.example.org/acme/http-client');
    expect(m.deprecated).toBeNull();
  });

  it('reports abandoned packages with their replacement', async () => {
    const m = (await fakeClient(ctx.fake, 'Composer').fetchPackage('legacy/mailer'))!;
    expect(m.deprecated).toBe('abandoned; use acme/mailer instead');
    expect(m.successor).toBe('acme/mailer');
  });

  it('works on plain Composer repositories without the package API', async () => {
    ctx.fake.inject({ path: '/packagist/packages/acme/http-client.json', status: 404, body: '{}' });
    const m = (await fakeClient(ctx.fake, 'Composer').fetchPackage('acme/http-client'))!;
    expect(m.maintainers).toEqual([]);
    expect(m.downloads).toBeNull();
    expect(m.versions).toHaveLength(4);
  });

  it('expands the minified form like Composer does, including __unset', () => {
    expect(
      expandMinified([
        { name: 'a/b', version: '2.0.0', license: ['MIT'], extra: { x: 1 } },
        { version: '1.0.0', extra: '__unset' },
        'junk',
        { version: '0.9.0', license: ['GPL-2.0-only'] },
      ]),
    ).toEqual([
      { name: 'a/b', version: '2.0.0', license: ['MIT'], extra: { x: 1 } },
      { name: 'a/b', version: '1.0.0', license: ['MIT'] },
      { name: 'a/b', version: '0.9.0', license: ['GPL-2.0-only'] },
    ]);
  });
});
