import { describe, expect, it } from 'vitest';
import {
  fakeClient,
  requestedPaths,
  useFakeRegistries,
} from '../../../test/support/fake-registries/vitest';
import { createRegistryClients } from '../registry-clients';

const ctx = useFakeRegistries();

describe('npm registry client', () => {
  it('reads the full packument: times, per-version maintainers, publisher, install scripts', async () => {
    const m = (await fakeClient(ctx.fake, 'npm').fetchPackage('@acme/widget'))!;
    expect(requestedPaths(ctx.fake)).toEqual([
      '/npm/@acme%2Fwidget',
      '/npm-downloads/downloads/point/last-week/%40acme/widget',
    ]);
    expect(ctx.fake.requests[0]!.headers.accept).toBe('application/json');
    expect(m.purl).toBe('pkg:npm/%40acme/widget');
    expect(m.versions.map((v) => v.version)).toEqual([
      '1.0.0',
      '1.0.1',
      '1.0.2',
      '2.0.0-rc.1',
      '2.0.0',
      '2.1.0-beta.1',
    ]);
    expect(m.latest).toBe('2.0.0');
    expect(m.latestStable).toBe('2.0.0');
    const byVersion = new Map(m.versions.map((v) => [v.version, v]));
    expect(byVersion.get('1.0.1')!.deprecated).toBe('contains a data-loss bug, upgrade to 1.0.2');
    expect(byVersion.get('1.0.2')!.deprecated).toBeNull();
    expect(m.deprecated).toBeNull();
    expect(byVersion.get('2.0.0')).toMatchObject({
      publishedAtUtc: '2024-06-01T09:00:00.000Z',
      publishedBy: 'mallory',
      maintainers: ['alice', 'mallory'],
      hasInstallScripts: true,
      installScripts: ['postinstall'],
      prerelease: false,
      licence: 'MIT',
    });
    expect(byVersion.get('1.0.0')!.hasInstallScripts).toBe(false);
    expect(byVersion.get('2.1.0-beta.1')!.prerelease).toBe(true);
    expect(m.maintainerChanges).toEqual([
      { version: '2.0.0', previousVersion: '2.0.0-rc.1', added: ['mallory'], removed: ['bob'] },
    ]);
    expect(m.maintainers).toEqual(['alice', 'mallory']);
    expect(m.repositoryUrl).toBe('https://git.example.org/acme/widget');
    expect(m.downloads).toEqual({ count: 12_345, period: 'last-week' });
  });

  it('has no popularity without the download-counts API, and survives its failures', async () => {
    const settings = ctx.fake.settings();
    const without = createRegistryClients({ ...settings, npmDownloadsUrl: null }).npm;
    expect((await without.fetchPackage('left-pad'))!.downloads).toBeNull();
    ctx.fake.inject({ path: '/npm-downloads/downloads/point/last-week/left-pad', body: 'oops' });
    const m = (await fakeClient(ctx.fake, 'npm').fetchPackage('left-pad'))!;
    expect(m.downloads).toBeNull();
    expect(m.versions).toHaveLength(5);
  });

  it('reports a package whose every version is deprecated as deprecated, without inventing a successor', async () => {
    const m = (await fakeClient(ctx.fake, 'npm').fetchPackage('left-pad'))!;
    expect(m.deprecated).toBe('use String.prototype.padStart()');
    expect(m.successor).toBeNull();
    expect(m.latestStable).toBe('1.3.0');
  });

  it('names the successor a deprecation message points to', async () => {
    const pkg = ctx.fake.getPackage('npm', 'left-pad')!;
    ctx.fake.addPackage('npm', {
      ...pkg,
      name: 'old-request',
      versions: pkg.versions.map((v) => ({
        ...v,
        deprecated: 'old-request is retired; use got instead',
      })),
    });
    const m = (await fakeClient(ctx.fake, 'npm').fetchPackage('old-request'))!;
    expect(m.successor).toBe('got');
  });

  it('treats an empty deprecation message as not deprecated (npm deprecate pkg "")', async () => {
    const pkg = ctx.fake.getPackage('npm', 'left-pad')!;
    ctx.fake.inject({
      path: '/npm/undeprecated',
      status: 200,
      body: JSON.stringify({
        name: 'undeprecated',
        'dist-tags': { latest: '1.0.0' },
        versions: { '1.0.0': { name: 'undeprecated', version: '1.0.0', deprecated: '' } },
        time: { '1.0.0': pkg.versions[0]!.publishedAt },
      }),
    });
    const m = (await fakeClient(ctx.fake, 'npm').fetchPackage('undeprecated'))!;
    expect(m.versions[0]!.deprecated).toBeNull();
    expect(m.deprecated).toBeNull();
  });

  it('keeps the newest 10,000 versions of an absurdly long packument', async () => {
    const versions: Record<string, unknown> = {};
    const time: Record<string, string> = {};
    for (let i = 0; i < 12_000; i++) {
      const version = `1.0.${i}`;
      versions[version] = { name: 'huge', version, license: 'MIT' };
      time[version] = new Date(Date.UTC(2020, 0, 1) + i * 60_000).toISOString();
    }
    ctx.fake.inject({
      path: '/npm/huge',
      body: JSON.stringify({ name: 'huge', 'dist-tags': { latest: '1.0.11999' }, versions, time }),
    });
    const m = (await fakeClient(ctx.fake, 'npm').fetchPackage('huge'))!;
    expect(m.versions).toHaveLength(10_000);
    expect(m.versions[0]!.version).toBe('1.0.2000');
    expect(m.latest).toBe('1.0.11999');
    expect(m.latestStable).toBe('1.0.11999');
  });
});
