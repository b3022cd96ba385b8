import { describe, expect, it } from 'vitest';
import {
  fakeClient,
  requestedPaths,
  useFakeRegistries,
} from '../../../test/support/fake-registries/vitest';

const ctx = useFakeRegistries();

describe('NuGet v3 client', () => {
  it('finds the registration base in the service index and reads listed state, deprecations, owners', async () => {
    const m = (await fakeClient(ctx.fake, 'NuGet').fetchPackage('Acme.Json'))!;
    const paths = requestedPaths(ctx.fake);
    expect(paths[0]).toBe('/nuget/v3/index.json');
    // The SemVer 2.0 registration flavour is preferred over the plain one.
    expect(paths[1]).toBe('/nuget/v3/registration5-gz-semver2/acme.json/index.json');
    expect(paths[2]).toMatch(/^\/nuget\/v3\/query\?q=packageid%3Aacme\.json/);
    expect(m.name).toBe('acme.json');
    expect(m.purl).toBe('pkg:nuget/acme.json');
    expect(m.versions.map((v) => v.version)).toEqual([
      '12.0.1',
      '12.0.3',
      '13.0.1',
      '13.0.2',
      '13.0.3',
      '14.0.0-beta1',
    ]);
    const unlisted = m.versions.find((v) => v.version === '13.0.2')!;
    // Unlisted = yanked; its 1900-01-01 publish marker is no release time.
    expect(unlisted).toMatchObject({ yanked: true, publishedAtUtc: null });
    expect(m.versions[0]!.deprecated).toBe('Has a critical bug');
    expect(m.latestStable).toBe('13.0.3');
    expect(m.deprecated).toBeNull();
    expect(m.licence).toBe('MIT');
    expect(m.maintainers).toEqual(['acme', 'jamesnk']);
    expect(m.downloads).toEqual({ count: 5_000_000_000, period: 'total' });
    expect(m.homepage).toBe('https://json.example.org');
    expect(m.repositoryUrl).toBe('https://git.example.org/acme/json');
  });

  it('reports the deprecation of the newest release with its alternate package', async () => {
    const m = (await fakeClient(ctx.fake, 'NuGet').fetchPackage('legacy.http'))!;
    expect(m.deprecated).toBe('Use Acme.Http instead.');
    expect(m.successor).toBe('Acme.Http');
  });

  it('fetches registration pages that the index only links', async () => {
    const m = (await fakeClient(ctx.fake, 'NuGet').fetchPackage('Big.Package'))!;
    const pages = requestedPaths(ctx.fake).filter((p) => p.includes('/big.package/page/'));
    expect(pages).toHaveLength(3);
    expect(m.versions).toHaveLength(150);
    expect(m.versions.every((v) => v.publishedAtUtc !== null)).toBe(true);
  });

  it('reads the service index once per client, not once per package', async () => {
    const client = fakeClient(ctx.fake, 'NuGet');
    await client.fetchPackage('Acme.Json');
    await client.fetchPackage('Legacy.Http');
    expect(requestedPaths(ctx.fake).filter((p) => p === '/nuget/v3/index.json')).toHaveLength(1);
  });

  it('does not follow page links to another origin', async () => {
    ctx.fake.inject({
      path: '/nuget/v3/registration5-gz-semver2/big.package/index.json',
      body: JSON.stringify({
        count: 1,
        items: [
          {
            '@id': 'http://127.0.0.2:9/elsewhere/page.json',
            lower: '1.0.0',
            upper: '2.0.0',
            count: 5,
          },
        ],
      }),
    });
    const m = await fakeClient(ctx.fake, 'NuGet').fetchPackage('Big.Package');
    expect(m?.versions).toEqual([]);
    expect(requestedPaths(ctx.fake).some((p) => p.includes('elsewhere'))).toBe(false);
  });
});
