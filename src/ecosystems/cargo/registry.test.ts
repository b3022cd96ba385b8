import { describe, expect, it } from 'vitest';
import {
  fakeClient,
  requestedPaths,
  useFakeRegistries,
} from '../../../test/support/fake-registries/vitest';

const ctx = useFakeRegistries();

describe('Cargo registry (crates API) client', () => {
  it('reads versions with yanks, publishers and downloads, and the current owners', async () => {
    const m = (await fakeClient(ctx.fake, 'Cargo').fetchPackage('fastrand-x'))!;
    expect(requestedPaths(ctx.fake)).toEqual([
      '/crates/api/v1/crates/fastrand-x',
      '/crates/api/v1/crates/fastrand-x/owners',
    ]);
    expect(ctx.fake.requests[0]!.headers['user-agent']).toMatch(/driftwatch/);
    expect(m.versions.map((v) => v.version)).toEqual([
      '1.9.0',
      '2.0.0',
      '2.0.1',
      '2.1.0',
      '2.2.0-alpha.1',
    ]);
    expect(m.versions[1]).toMatchObject({
      yanked: true,
      yankedReason: 'accidentally breaking',
      publishedBy: 'notgull',
      downloads: 1200,
      licence: 'Apache-2.0 OR MIT',
    });
    expect(m.versions[0]!.publishedBy).toBe('taiki-e');
    expect(m.versions[0]!.publishedAtUtc).toBe('2023-01-10T00:00:00.000Z');
    expect(m.latest).toBe('2.1.0');
    expect(m.latestStable).toBe('2.1.0');
    expect(m.maintainers).toEqual(['taiki-e', 'notgull']);
    expect(m.downloads).toEqual({ count: 251_234_567, period: 'total' });
    expect(m.repositoryUrl).toBe('https://git.example.org/smol-rs/fastrand-x');
  });

  it('pages through the versions endpoint when the crate document lists no versions', async () => {
    const big = { ...ctx.fake.getPackage('Cargo', 'fastrand-x')!, name: 'big-crate' };
    big.versions = Array.from({ length: 230 }, (_, i) => ({
      version: `0.${i}.0`,
      publishedAt: new Date(Date.UTC(2020, 0, 1) + i * 86_400_000).toISOString(),
    }));
    ctx.fake.addPackage('Cargo', big);
    const response = await fetch(`${ctx.fake.baseUrls.Cargo}/api/v1/crates/big-crate`);
    const full = (await response.json()) as { crate: Record<string, unknown> };
    ctx.fake.inject({
      path: '/crates/api/v1/crates/big-crate',
      body: JSON.stringify({ ...full, versions: null, crate: { ...full.crate, versions: null } }),
    });
    ctx.fake.requests.length = 0;
    const m = (await fakeClient(ctx.fake, 'Cargo').fetchPackage('big-crate'))!;
    expect(requestedPaths(ctx.fake).filter((p) => p.includes('/versions?'))).toEqual([
      '/crates/api/v1/crates/big-crate/versions?per_page=100',
      '/crates/api/v1/crates/big-crate/versions?per_page=100&seek=100',
      '/crates/api/v1/crates/big-crate/versions?per_page=100&seek=200',
    ]);
    expect(m.versions).toHaveLength(230);
    expect(m.latestStable).toBe('0.229.0');
  });

  it('keeps the crate when the owners endpoint answers nonsense', async () => {
    ctx.fake.inject({ path: '/crates/api/v1/crates/fastrand-x/owners', body: '<html>' });
    const m = (await fakeClient(ctx.fake, 'Cargo').fetchPackage('fastrand-x'))!;
    expect(m.maintainers).toEqual([]);
    expect(m.versions).toHaveLength(5);
  });

  it('refuses names the crates registry cannot have, without a request', async () => {
    expect(await fakeClient(ctx.fake, 'Cargo').fetchPackage('../etc/passwd')).toBeNull();
    expect(ctx.fake.requests).toHaveLength(0);
  });
});
