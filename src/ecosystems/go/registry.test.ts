import { describe, expect, it } from 'vitest';
import {
  fakeClient,
  requestedPaths,
  useFakeRegistries,
} from '../../../test/support/fake-registries/vitest';
import { escapeModulePath, readGoMod } from './registry';

const ctx = useFakeRegistries();

describe('Go module proxy client', () => {
  it('case-encodes the module path and reads list, .info times, retractions', async () => {
    const m = (await fakeClient(ctx.fake, 'Go').fetchPackage('example.org/Acme/Widget'))!;
    const paths = requestedPaths(ctx.fake);
    expect(paths[0]).toBe('/goproxy/example.org/!acme/!widget/@v/list');
    expect(paths).toContain('/goproxy/example.org/!acme/!widget/@v/v1.2.0.info');
    expect(paths).toContain('/goproxy/example.org/!acme/!widget/@v/v1.2.0.mod');
    expect(m.purl).toBe('pkg:golang/example.org/Acme/Widget');
    expect(m.versions.map((v) => [v.version, v.yanked])).toEqual([
      ['v1.0.0', false],
      ['v1.1.0', true],
      ['v1.1.1', true],
      ['v1.2.0', false],
      ['v1.3.0-rc.1', false],
    ]);
    expect(m.versions[1]!.yankedReason).toBe('broken build on windows');
    expect(m.versions[0]!.publishedAtUtc).toBe('2022-01-05T10:00:00.000Z');
    expect(m.latest).toBe('v1.2.0');
    expect(m.latestStable).toBe('v1.2.0');
    expect(m.repositoryUrl).toBe('https://git.example.org/Acme/Widget');
    expect(m.deprecated).toBeNull();
  });

  it('reads the Deprecated comment of the module line and its successor', async () => {
    const m = (await fakeClient(ctx.fake, 'Go').fetchPackage('example.org/legacy/tool'))!;
    expect(m.deprecated).toBe('use example.org/modern/tool instead.');
    expect(m.successor).toBe('example.org/modern/tool');
  });

  it('falls back to @latest when only pseudo-versions exist', async () => {
    ctx.fake.addPackage('Go', {
      name: 'example.org/untagged/lib',
      description: '',
      licence: '',
      repositoryUrl: 'https://git.example.org/untagged/lib',
      homepage: '',
      maintainers: [],
      downloads: 0,
      versions: [
        { version: 'v0.0.0-20240101000000-abcdefabcdef', publishedAt: '2024-01-01T00:00:00Z' },
      ],
    });
    const m = (await fakeClient(ctx.fake, 'Go').fetchPackage('example.org/untagged/lib'))!;
    expect(requestedPaths(ctx.fake)).toContain('/goproxy/example.org/untagged/lib/@latest');
    expect(m.versions).toHaveLength(1);
    expect(m.versions[0]).toMatchObject({
      prerelease: true,
      publishedAtUtc: '2024-01-01T00:00:00.000Z',
    });
    expect(m.latestStable).toBeNull();
  });

  it('escapes paths and parses go.mod deprecation and retraction forms', () => {
    expect(escapeModulePath('example.org/BurntSushi/TOML')).toBe(
      'example.org/!burnt!sushi/!t!o!m!l',
    );
    const mod = readGoMod(
      '// Package x does things.\n//\n// Deprecated: use example.org/y instead.\nmodule example.org/x\n\nretract [v1.0.0, v1.0.5] // bad range\nretract v2.0.0+incompatible\n',
    );
    expect(mod.deprecated).toBe('use example.org/y instead.');
    expect(mod.retractions).toEqual([
      { low: 'v1.0.0', high: 'v1.0.5', rationale: 'bad range' },
      { low: 'v2.0.0+incompatible', high: 'v2.0.0+incompatible', rationale: null },
    ]);
    expect(readGoMod('module example.org/x // Deprecated: gone\n').deprecated).toBe('gone');
    expect(
      readGoMod('// Deprecated in 2020, still fine\nmodule example.org/x\n').deprecated,
    ).toBeNull();
  });
});
