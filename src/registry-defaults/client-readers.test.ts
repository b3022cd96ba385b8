import { afterAll, describe, expect, it } from 'vitest';
import { type Machine, machine, R, removeMachines } from '../../test/support/client-config-machine';
import type { Ecosystem } from '../ecosystems/names';
import { discoverClientRegistries } from './index';
import { MAX_CLIENT_CONFIG_BYTES } from './inputs';

/**
 * One table per ecosystem client: every machine is a temporary directory (`~` is <root>/home,
 * the working directory <root>/srv/app, /etc/... is <root>/etc/...). No address is contacted.
 */
afterAll(removeMachines);

async function discover(ecosystem: Ecosystem, m: Machine) {
  const found = await discoverClientRegistries(machine(m));
  return {
    url: found.registries[ecosystem]?.url ?? null,
    source: found.registries[ecosystem]?.source ?? null,
    note: found.notes[ecosystem] ?? null,
    warnings: found.warnings,
  };
}

interface Case {
  name: string;
  ecosystem: Ecosystem;
  machine: Machine;
  url: string | null;
  source?: string;
  warning?: RegExp;
  note?: RegExp;
}

const cases: Case[] = [
  // npm: environment, project .npmrc, user .npmrc, global npmrc, then npm itself.
  {
    name: 'npm: npm_config_registry wins over every file',
    ecosystem: 'npm',
    machine: {
      env: { npm_config_registry: `${R}/env/` },
      files: { '~/.npmrc': `registry=${R}/user/` },
    },
    url: `${R}/env/`,
    source: 'npm_config_registry',
  },
  {
    name: 'npm: the project .npmrc (nearest package.json) wins over the user one',
    ecosystem: 'npm',
    machine: {
      files: {
        'srv/package.json': '{}',
        'srv/.npmrc': `; project\nregistry = "${R}/project/"\n@scope:registry=${R}/scoped/`,
        '~/.npmrc': `registry=${R}/user/`,
      },
    },
    url: `${R}/project/`,
    source: expect.stringMatching(/\/srv\/\.npmrc \(registry\)$/) as unknown as string,
  },
  {
    name: "npm: the user ~/.npmrc, with npm's environment substitution",
    ecosystem: 'npm',
    machine: {
      env: { NPM_MIRROR: R },
      // biome-ignore lint/suspicious/noTemplateCurlyInString: npm's own substitution syntax
      files: { '~/.npmrc': 'registry=${NPM_MIRROR}/user/\n' },
    },
    url: `${R}/user/`,
    source: '~/.npmrc (registry)',
  },
  {
    name: 'npm: npm_config_userconfig moves the user file',
    ecosystem: 'npm',
    machine: {
      env: { npm_config_userconfig: '/cfg/other.npmrc' },
      files: { 'cfg/other.npmrc': `registry=${R}/moved/`, '~/.npmrc': `registry=${R}/user/` },
    },
    url: `${R}/moved/`,
    source: '/cfg/other.npmrc (registry)',
  },
  {
    name: 'npm: the global npmrc under the prefix of the running node',
    ecosystem: 'npm',
    machine: { files: { 'usr/etc/npmrc': `registry=${R}/global/` } },
    url: `${R}/global/`,
  },
  {
    name: 'npm: a registry that is not http(s) is ignored with a warning',
    ecosystem: 'npm',
    machine: { files: { '~/.npmrc': 'registry=file:///tmp/x' } },
    url: null,
    warning: /~\/\.npmrc: registry is not an http\(s\) URL/,
  },
  {
    name: 'npm: nothing configured, npm itself answers once',
    ecosystem: 'npm',
    machine: {
      run: async (command, args) =>
        command === 'npm' && args.join(' ') === 'config get registry' ? `${R}/builtin/\n` : null,
    },
    url: `${R}/builtin/`,
    source: 'npm config get registry',
  },
  {
    name: 'npm: nothing configured and npm absent: off with a note',
    ecosystem: 'npm',
    machine: { run: async () => null },
    url: null,
    note: /npm is not installed/,
  },
  // pip
  {
    name: 'pip: PIP_INDEX_URL, the /simple index mapped to its JSON API base',
    ecosystem: 'PyPI',
    machine: { env: { PIP_INDEX_URL: `${R}/pypi/simple/` } },
    url: `${R}/pypi`,
    source: 'PIP_INDEX_URL',
  },
  {
    name: 'pip: ~/.config/pip/pip.conf [global] index-url',
    ecosystem: 'PyPI',
    machine: {
      files: {
        '~/.config/pip/pip.conf': `[global]\ntimeout = 60\nindex-url = ${R}/repository/pypi-all/simple\n`,
        '~/.pip/pip.conf': `[global]\nindex-url = ${R}/legacy/simple\n`,
      },
    },
    url: `${R}/repository/pypi-all`,
    source: '~/.config/pip/pip.conf ([global] index-url)',
  },
  {
    name: 'pip: the legacy ~/.pip/pip.conf, [install] section',
    ecosystem: 'PyPI',
    machine: { files: { '~/.pip/pip.conf': `[install]\nindex-url: ${R}/legacy/simple\n` } },
    url: `${R}/legacy`,
  },
  {
    name: 'pip: /etc/pip.conf',
    ecosystem: 'PyPI',
    machine: { files: { 'etc/pip.conf': `[global]\nindex_url=${R}/system/simple/` } },
    url: `${R}/system`,
    source: expect.stringContaining('/etc/pip.conf') as unknown as string,
  },
  {
    name: 'pip: nothing configured, the installed pip default',
    ecosystem: 'PyPI',
    machine: { run: async (command) => (command === 'python3' ? `${R}/simple\n` : null) },
    url: R,
  },
  // Go
  {
    name: 'Go: GOPROXY, first entry of the list',
    ecosystem: 'Go',
    machine: { env: { GOPROXY: `${R}/goproxy,direct` } },
    url: `${R}/goproxy`,
    source: 'GOPROXY',
  },
  {
    name: 'Go: GOPROXY=direct is off, with the reason',
    ecosystem: 'Go',
    machine: { env: { GOPROXY: 'direct' } },
    url: null,
    note: /direct/,
  },
  {
    name: 'Go: GOPROXY=off',
    ecosystem: 'Go',
    machine: { env: { GOPROXY: 'off' }, run: async () => `${R}/never` },
    url: null,
    note: /off/,
  },
  {
    name: 'Go: the go env -w file',
    ecosystem: 'Go',
    machine: { files: { '~/.config/go/env': `GOPRIVATE=x\nGOPROXY=${R}/fromfile|direct\n` } },
    url: `${R}/fromfile`,
    source: '~/.config/go/env (GOPROXY)',
  },
  {
    name: 'Go: nothing set, go env GOPROXY answers',
    ecosystem: 'Go',
    machine: { run: async (command) => (command === 'go' ? `${R}/default,direct\n` : null) },
    url: `${R}/default`,
    source: 'go env GOPROXY',
  },
  // Cargo
  {
    name: 'Cargo: replace-with → source registry → cached index config.json api',
    ecosystem: 'Cargo',
    machine: {
      files: {
        '~/.cargo/config.toml': `[source.crates-io]\nreplace-with = "mirror"\n\n[source.mirror]\nregistry = "sparse+http://127.0.0.1:4873/index/"\n`,
        '~/.cargo/registry/index/127.0.0.1-0123456789abcdef/config.json': `{"dl":"${R}/dl","api":"${R}/crates"}`,
      },
    },
    url: `${R}/crates`,
    source: 'Cargo: ~/.cargo/config.toml (source mirror), its cached index config.json',
  },
  {
    name: 'Cargo: the default registry from the single cached index',
    ecosystem: 'Cargo',
    machine: {
      files: {
        '~/.cargo/registry/index/somehost-0123456789abcdef/.cache/config.json': `{"api":"${R}/api"}`,
      },
    },
    url: `${R}/api`,
  },
  {
    name: 'Cargo: a local-registry replacement has no web API',
    ecosystem: 'Cargo',
    machine: {
      files: {
        '~/.cargo/config.toml':
          '[source.crates-io]\nreplace-with = "vendored"\n[source.vendored]\ndirectory = "vendor"\n',
      },
    },
    url: null,
    note: /local source "vendored"/,
  },
  {
    name: 'Cargo: malformed config.toml → off with a warning',
    ecosystem: 'Cargo',
    machine: { files: { '~/.cargo/config.toml': '[source.crates-io\nreplace-with = ' } },
    url: null,
    warning: /~\/\.cargo\/config\.toml is not valid TOML/,
  },
  // RubyGems
  {
    name: 'RubyGems: ~/.gemrc :sources:',
    ecosystem: 'RubyGems',
    machine: { files: { '~/.gemrc': `---\n:backtrace: false\n:sources:\n- ${R}/gems/\n` } },
    url: `${R}/gems`,
    source: '~/.gemrc (:sources:)',
  },
  {
    name: 'RubyGems: malformed gemrc → warning, then gem itself',
    ecosystem: 'RubyGems',
    machine: {
      files: { '~/.gemrc': ':sources: [unclosed\n' },
      run: async (command) =>
        command === 'gem' ? `*** CURRENT SOURCES ***\n\n${R}/fromgem/\n` : null,
    },
    url: `${R}/fromgem`,
    warning: /~\/\.gemrc is not valid YAML/,
  },
  // Composer
  {
    name: 'Composer: COMPOSER_HOME config.json repositories (object form)',
    ecosystem: 'Composer',
    machine: {
      env: { COMPOSER_HOME: '/opt/composer' },
      files: {
        'opt/composer/config.json': JSON.stringify({
          repositories: { 'packagist.org': { type: 'composer', url: `${R}/packagist/` } },
        }),
      },
    },
    url: `${R}/packagist`,
  },
  {
    name: 'Composer: ~/.config/composer/config.json (list form), vcs entries skipped',
    ecosystem: 'Composer',
    machine: {
      files: {
        '~/.config/composer/config.json': JSON.stringify({
          repositories: [
            { type: 'vcs', url: `${R}/git` },
            { 'packagist.org': false },
            { type: 'composer', url: `${R}/mirror` },
          ],
        }),
      },
    },
    url: `${R}/mirror`,
    source: '~/.config/composer/config.json (repositories)',
  },
  {
    name: 'Composer: malformed config.json → off with a warning',
    ecosystem: 'Composer',
    machine: { files: { '~/.composer/config.json': '{"repositories": [' } },
    url: null,
    warning: /~\/\.composer\/config\.json is not valid JSON/,
  },
  // NuGet
  {
    name: 'NuGet: the first enabled v3 source after <clear/>',
    ecosystem: 'NuGet',
    machine: {
      files: {
        '~/.nuget/NuGet/NuGet.Config': `<?xml version="1.0" encoding="utf-8"?>
<configuration>
  <packageSources>
    <add key="old" value="${R}/before-clear/v3/index.json" />
    <clear />
    <add key="v2" value="${R}/api/v2" />
    <add key="off" value="${R}/disabled/v3/index.json" protocolVersion="3" />
    <add key="mirror" value="${R}/nuget/v3/index.json" protocolVersion="3" />
  </packageSources>
  <disabledPackageSources>
    <add key="off" value="true" />
  </disabledPackageSources>
</configuration>`,
      },
    },
    url: `${R}/nuget/v3/index.json`,
    source: '~/.nuget/NuGet/NuGet.Config (packageSources)',
  },
  {
    name: 'NuGet: a DOCTYPE (entity tricks) is refused → off with a warning',
    ecosystem: 'NuGet',
    machine: {
      files: {
        '~/.nuget/NuGet/NuGet.Config': `<!DOCTYPE x [<!ENTITY e "${R}/v3/index.json">]><configuration><packageSources><add key="a" value="&e;"/></packageSources></configuration>`,
      },
    },
    url: null,
    warning: /NuGet\.Config is not valid XML/,
  },
  // Docker
  {
    name: 'Docker: /etc/docker/daemon.json registry-mirrors',
    ecosystem: 'Docker',
    machine: {
      files: { 'etc/docker/daemon.json': `{"registry-mirrors": ["not a url", "${R}/oci/"]}` },
    },
    url: `${R}/oci`,
  },
  {
    name: 'Docker: the rootless daemon config wins',
    ecosystem: 'Docker',
    machine: {
      files: {
        '~/.config/docker/daemon.json': `{"registry-mirrors": ["${R}/rootless"]}`,
        'etc/docker/daemon.json': `{"registry-mirrors": ["${R}/system"]}`,
      },
    },
    url: `${R}/rootless`,
    source: '~/.config/docker/daemon.json (registry-mirrors)',
  },
  {
    name: 'Docker: a daemon.json that is JSON but not an object',
    ecosystem: 'Docker',
    machine: { files: { 'etc/docker/daemon.json': '[1,2,3]' } },
    url: null,
  },
  // Maven
  {
    name: 'Maven: the central mirror of ~/.m2/settings.xml',
    ecosystem: 'Maven',
    machine: {
      files: {
        '~/.m2/settings.xml': `<settings><mirrors>
  <mirror><id>other</id><mirrorOf>snapshots</mirrorOf><url>${R}/other</url></mirror>
  <mirror><id>all</id><mirrorOf>*,!snapshots</mirrorOf><url>${R}/maven2/</url></mirror>
</mirrors></settings>`,
      },
    },
    url: `${R}/maven2`,
    source: '~/.m2/settings.xml (mirror)',
  },
  {
    name: 'Maven: a mirror that excludes central is not used',
    ecosystem: 'Maven',
    machine: {
      files: {
        '~/.m2/settings.xml': `<settings><mirrors><mirror><mirrorOf>*,!central</mirrorOf><url>${R}/m</url></mirror></mirrors></settings>`,
      },
    },
    url: null,
  },
  {
    name: 'Maven: truncated settings.xml → off with a warning',
    ecosystem: 'Maven',
    machine: { files: { '~/.m2/settings.xml': '<settings><mirrors><mirror>' } },
    url: null,
    warning: /settings\.xml is not valid XML/,
  },
];

describe('client configuration readers', () => {
  it.each(cases)('$name', async (c) => {
    const got = await discover(c.ecosystem, c.machine);
    expect(got.url).toBe(c.url);
    if (c.source !== undefined) expect(got.source).toEqual(c.source);
    if (c.warning) expect(got.warnings.join('\n')).toMatch(c.warning);
    else expect(got.warnings).toEqual([]);
    if (c.note) expect(got.note).toMatch(c.note);
  });

  it('an empty machine with no clients: every registry off, no warnings, no crash', async () => {
    const found = await discoverClientRegistries(machine({ run: async () => null }));
    expect(found.registries).toEqual({});
    expect(found.warnings).toEqual([]);
  });

  it('hostile files: oversized, binary, deeply nested, alias bombs — off, never a throw', async () => {
    const bomb = [
      'a: &a [x, x]',
      ...Array.from(
        { length: 12 },
        (_, i) => `b${i}: &b${i} [*${i ? `b${i - 1}` : 'a'}, *${i ? `b${i - 1}` : 'a'}]`,
      ),
      ':sources: [*b11]',
    ].join('\n');
    const found = await discoverClientRegistries(
      machine({
        files: {
          '~/.npmrc': `registry=${R}/${'x'.repeat(MAX_CLIENT_CONFIG_BYTES)}`,
          '~/.cargo/config.toml': `a = ${'['.repeat(5000)}`,
          '~/.gemrc': bomb,
          '~/.config/composer/config.json': '\u0000\u0001\u0002',
          '~/.nuget/NuGet/NuGet.Config': `${'<a>'.repeat(500)}`,
          'etc/docker/daemon.json': '{"registry-mirrors": {"__proto__": "x"}}',
          '~/.config/pip/pip.conf': '[global\nindex-url',
        },
      }),
    );
    expect(found.registries).toEqual({});
    expect(found.warnings.length).toBeGreaterThanOrEqual(4);
  });

  it('a reader that throws unexpectedly is reported, the others still answer', async () => {
    const inputs = machine({ files: { '~/.gemrc': `:sources:\n- ${R}/gems\n` } });
    const found = await discoverClientRegistries({
      ...inputs,
      run: async (command) => {
        if (command === 'npm') throw new Error('boom');
        return null;
      },
    });
    expect(found.registries.RubyGems?.url).toBe(`${R}/gems`);
    expect(found.warnings).toContain('npm: boom');
  });
});
