import { readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { machine, R, removeMachines } from '../../test/support/client-config-machine';
import { loadConfig } from '../config';
import {
  describeRegistries,
  NO_MACHINE_DEFAULTS,
  OSV_PUBLIC_FEED_URL,
  readMachineDefaults,
} from './index';

/** Precedence in loadConfig and the banner, with temporary homes (test/support). */
afterAll(removeMachines);

describe('precedence: Driftwatch setting > client configuration > off', () => {
  const files = {
    '~/.npmrc': `registry=${R}/npm-client/`,
    '~/.config/pip/pip.conf': `[global]\nindex-url=${R}/pip-client/simple`,
  };

  it('loadConfig with a temp home picks the clients up, and the settings win', async () => {
    const defaults = await readMachineDefaults(machine({ files }));
    const config = loadConfig({ NPM_REGISTRY_URL: `${R}/setting/` }, {}, defaults);
    expect(config.registries.baseUrls.npm).toBe(`${R}/setting/`);
    expect(config.origins.registries.npm).toEqual({ kind: 'setting', setting: 'NPM_REGISTRY_URL' });
    expect(config.registries.baseUrls.PyPI).toBe(`${R}/pip-client`);
    expect(config.origins.registries.PyPI).toEqual({
      kind: 'client',
      source: '~/.config/pip/pip.conf ([global] index-url)',
    });
    expect(config.registries.baseUrls.Maven).toBeNull();
    expect(config.origins.registries.Maven).toEqual({
      kind: 'off',
      setting: 'MAVEN_REPOSITORY_URL',
      note: null,
    });
  });

  it('loadConfig alone reads no client configuration and no feed default', () => {
    const config = loadConfig({ npm_config_registry: `${R}/ignored/` });
    expect(Object.values(config.registries.baseUrls).every((url) => url === null)).toBe(true);
    expect(config.osv.feedUrl).toBeNull();
    expect(config.origins.osvFeed).toEqual({ kind: 'off', setting: 'OSV_FEED_URL', note: null });
  });

  it('a bad Driftwatch setting is still a configuration error, not silently the client value', async () => {
    const defaults = await readMachineDefaults(machine({ files }));
    expect(() => loadConfig({ NPM_REGISTRY_URL: 'ftp://x' }, {}, defaults)).toThrow(
      /NPM_REGISTRY_URL/,
    );
  });

  it('a setting of off turns one registry off; REGISTRY_CLIENT_DEFAULTS=false all client ones', async () => {
    const defaults = await readMachineDefaults(machine({ files }));
    const oneOff = loadConfig({ NPM_REGISTRY_URL: 'off' }, {}, defaults);
    expect(oneOff.registries.baseUrls.npm).toBeNull();
    expect(oneOff.origins.registries.npm).toEqual({
      kind: 'off',
      setting: 'NPM_REGISTRY_URL',
      note: 'NPM_REGISTRY_URL=off',
    });
    expect(oneOff.registries.baseUrls.PyPI).toBe(`${R}/pip-client`);
    expect(describeRegistries(oneOff)).toContain('  npm       off  (NPM_REGISTRY_URL=off)');
    const noClients = loadConfig({ REGISTRY_CLIENT_DEFAULTS: 'false' }, {}, defaults);
    expect(noClients.registries.baseUrls.PyPI).toBeNull();
    expect(noClients.origins.registries.PyPI).toMatchObject({
      note: 'REGISTRY_CLIENT_DEFAULTS=false',
    });
    expect(() => loadConfig({ REGISTRY_CLIENT_DEFAULTS: 'maybe' }, {}, defaults)).toThrow(
      /REGISTRY_CLIENT_DEFAULTS must be true or false/,
    );
  });

  it('REGISTRY_CLIENT_DEFAULTS=false reads no file and runs no client command', async () => {
    const asked: string[] = [];
    const defaults = await readMachineDefaults(
      machine({
        files,
        env: { REGISTRY_CLIENT_DEFAULTS: 'false' },
        run: async (command) => {
          asked.push(command);
          return `${R}/x`;
        },
      }),
    );
    expect(defaults.registries).toEqual({});
    expect(asked).toEqual([]);
    expect(defaults.osvFeedUrl).toBe(OSV_PUBLIC_FEED_URL);
  });

  it('the OSV feed: the public export by default, OSV_FEED_URL to move it, off to stop it', () => {
    const defaults = { ...NO_MACHINE_DEFAULTS, osvFeedUrl: OSV_PUBLIC_FEED_URL };
    const byDefault = loadConfig({}, {}, defaults);
    expect(byDefault.osv.feedUrl).toBe(OSV_PUBLIC_FEED_URL);
    expect(byDefault.origins.osvFeed.kind).toBe('default');
    const moved = loadConfig({ OSV_FEED_URL: `${R}/osv` }, {}, defaults);
    expect(moved.osv.feedUrl).toBe(`${R}/osv`);
    expect(moved.origins.osvFeed).toEqual({ kind: 'setting', setting: 'OSV_FEED_URL' });
    const off = loadConfig({ OSV_FEED_URL: 'off' }, {}, defaults);
    expect(off.osv.feedUrl).toBeNull();
    expect(off.origins.osvFeed.kind).toBe('off');
    expect(describeRegistries(off)).toContain('  OSV       off  (OSV_FEED_URL=off)');
    expect(describeRegistries(loadConfig({}))).toContain('  OSV       off  set OSV_FEED_URL');
  });
});

describe('the start banner lines', () => {
  it('lists every registry and the feed, on with their origin, off with the setting', async () => {
    const inputs = machine({
      files: { '~/.npmrc': `registry=${R}/npm/`, '~/.gemrc': 'not: [valid' },
      env: { GOPROXY: 'direct' },
    });
    const defaults = await readMachineDefaults(inputs);
    const config = loadConfig({ PYPI_URL: `${R}/pypi` }, {}, defaults);
    const lines = describeRegistries(config);
    expect(lines).toEqual([
      'Registries:',
      `  npm       on   ${R}/npm/  (~/.npmrc (registry))`,
      `  PyPI      on   ${R}/pypi  (PYPI_URL)`,
      '  Maven     off  set MAVEN_REPOSITORY_URL or configure Maven: a central mirror in ~/.m2/settings.xml',
      '  Go        off  GOPROXY starts with direct (no proxy); set GOPROXY_URL or configure Go: GOPROXY',
      '  Cargo     off  set CRATES_API_URL or configure Cargo: a cached crates index',
      '  RubyGems  off  set RUBYGEMS_URL or configure gem: :sources: in ~/.gemrc',
      '  Composer  off  set PACKAGIST_URL or configure Composer: repositories in config.json',
      '  NuGet     off  set NUGET_SERVICE_INDEX_URL or configure NuGet: packageSources in NuGet.Config',
      '  Docker    off  set OCI_REGISTRY_URL or configure Docker: registry-mirrors in daemon.json',
      'Advisory feed:',
      `  OSV       on   ${OSV_PUBLIC_FEED_URL}  (default; OSV_FEED_URL=off turns it off)`,
      '  warning: ~/.gemrc is not valid YAML: ignored',
    ]);
  });
});

it('the test machines never read outside their root', () => {
  const inputs = machine({});
  expect(inputs.readText('/etc/hostname')).toBeNull();
  expect(readdirSync(dirname(inputs.home))).toContain('home');
});
