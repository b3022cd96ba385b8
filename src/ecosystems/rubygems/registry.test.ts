import { describe, expect, it } from 'vitest';
import {
  fakeClient,
  requestedPaths,
  useFakeRegistries,
} from '../../../test/support/fake-registries/vitest';

const ctx = useFakeRegistries();

describe('RubyGems client', () => {
  it('reads versions, gem facts and owners; platform builds count once', async () => {
    const m = (await fakeClient(ctx.fake, 'RubyGems').fetchPackage('rack-x'))!;
    expect(requestedPaths(ctx.fake)).toEqual([
      '/rubygems/api/v1/versions/rack-x.json',
      '/rubygems/api/v1/gems/rack-x.json',
      '/rubygems/api/v1/gems/rack-x/owners.json',
    ]);
    // 3.0.1 was yanked: RubyGems no longer lists it. 2.2.9 has a java build too.
    expect(m.versions.map((v) => v.version)).toEqual([
      '2.2.8',
      '2.2.9',
      '3.0.0.beta1',
      '3.0.0',
      '3.1.0',
    ]);
    expect(m.versions.every((v) => !v.yanked)).toBe(true);
    expect(m.versions[2]!.prerelease).toBe(true);
    expect(m.versions[1]).toMatchObject({
      downloads: 90,
      licence: 'MIT',
      publishedAtUtc: '2024-03-20T00:00:00.000Z',
    });
    expect(m.latest).toBe('3.1.0');
    expect(m.latestStable).toBe('3.1.0');
    expect(m.maintainers).toEqual(['tenderlove', 'ioquatix']);
    expect(m.downloads).toEqual({ count: 1_000_000, period: 'total' });
    expect(m.repositoryUrl).toBe('https://git.example.org/rack/rack-x');
    expect(m.notes).toContain('yanked versions are not listed by RubyGems');
  });

  it('still answers when the gem and owners documents are missing', async () => {
    ctx.fake.inject({ path: '/rubygems/api/v1/gems/rack-x.json', status: 404, body: 'not found' });
    ctx.fake.inject({
      path: '/rubygems/api/v1/gems/rack-x/owners.json',
      status: 404,
      body: 'not found',
    });
    const m = (await fakeClient(ctx.fake, 'RubyGems').fetchPackage('rack-x'))!;
    expect(m.versions).toHaveLength(5);
    expect(m.maintainers).toEqual([]);
    expect(m.licence).toBe('MIT');
  });
});
