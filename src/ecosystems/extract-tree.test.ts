// biome-ignore-all lint/suspicious/noTemplateCurlyInString: Dockerfile text uses ${VAR}
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { composer } from './composer/index';
import { docker } from './docker/index';
import { dockerVersioning } from './docker/versioning';
import { extractFiles, extractPath, normaliseTreePath, openTree } from './extract-tree';
import { goRegistry } from './go/registry';
import type { EcosystemModule, ExtractInput } from './types';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** Writes a temp tree; returns its root. */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'driftwatch-tree-'));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const COMPOSER_JSON = JSON.stringify({
  require: {
    php: '^8.1',
    'monolog/monolog': '^3.0',
    'psr/log': '^3.0',
    'acme/only-in-manifest': '^1.0',
  },
});
const COMPOSER_LOCK = JSON.stringify(
  {
    packages: [
      {
        name: 'monolog/monolog',
        version: '3.7.0',
        require: { 'psr/log': '^3' },
        'notification-url': 'x',
      },
      { name: 'psr/log', version: '3.0.1', 'notification-url': 'x' },
    ],
    'packages-dev': [],
  },
  null,
  4,
);

/**
 * A made-up ecosystem whose extractors record what they were given, to test the engine alone:
 * `probe.lock` reads the path named in its text through readFile, `boom.txt` throws.
 */
const seen: Array<string | null> = [];
const probe: EcosystemModule = {
  id: 'Go',
  purlType: 'golang',
  osvEcosystem: 'Go',
  normaliseName: (n) => n,
  versioning: dockerVersioning,
  registry: (settings) => goRegistry(probe, settings),
  extractors: [
    {
      name: 'probe/lock',
      version: 1,
      kind: 'lockfile',
      matches: (p) => p.endsWith('probe.lock'),
      extract: (input: ExtractInput) => {
        for (const line of input.text.split('\n').filter(Boolean)) seen.push(input.readFile(line));
        return { dependencies: [], errors: [] };
      },
    },
    {
      name: 'probe/boom',
      version: 1,
      kind: 'manifest',
      matches: (p) => p.endsWith('boom.txt'),
      extract: () => {
        throw new Error('kaput');
      },
    },
  ],
};

describe('extractPath', () => {
  it('walks a tree, skipping installed folders, with sorted forward-slash relative paths', async () => {
    const root = tree({
      Dockerfile: 'FROM node:20\n',
      'services/api/Dockerfile': 'FROM python:3.12-slim\n',
      'node_modules/x/Dockerfile': 'FROM evil:1\n',
      'vendor/acme/lib/composer.json': COMPOSER_JSON,
      '.git/Dockerfile': 'FROM evil:2\n',
      'target/Dockerfile': 'FROM evil:3\n',
      'services/__fixtures__/Dockerfile': 'FROM evil:4\n',
      'README.md': '# not claimed',
    });
    const result = await extractPath(root, { ecosystems: [composer, docker] });
    expect(result.files.map((f) => [f.path, f.ecosystem, f.extractor, f.format])).toEqual([
      ['Dockerfile', 'Docker', 'docker/dockerfile', 'Dockerfile'],
      ['services/api/Dockerfile', 'Docker', 'docker/dockerfile', 'Dockerfile'],
    ]);
    expect(result.files[1]!.dependencies.map((d) => d.purl)).toEqual([
      'pkg:docker/python@3.12-slim',
    ]);
    // A skipped folder named as the target itself is read.
    const fixtures = await extractPath(join(root, 'services', '__fixtures__'), {
      ecosystems: [docker],
    });
    expect(fixtures.files.map((f) => f.dependencies[0]?.name)).toEqual(['evil']);
  });

  it('keeps the dependencies a manifest has beyond its lockfile, only in the same directory', async () => {
    const root = tree({
      'composer.json': COMPOSER_JSON,
      'composer.lock': COMPOSER_LOCK,
      'tools/composer.json': COMPOSER_JSON,
    });
    const result = await extractPath(root, { ecosystems: [composer, docker] });
    const byPath = Object.fromEntries(
      result.files.map((f) => [f.path, f.dependencies.map((d) => d.name)]),
    );
    expect(byPath).toEqual({
      'composer.json': ['acme/only-in-manifest'],
      'composer.lock': ['monolog/monolog', 'psr/log'],
      'tools/composer.json': ['monolog/monolog', 'psr/log', 'acme/only-in-manifest'],
    });
    // The lock read its sibling composer.json through the engine's readFile.
    const lock = result.files.find((f) => f.path === 'composer.lock')!;
    expect(lock.dependencies.map((d) => d.direct)).toEqual([true, true]);
  });

  it('takes a single file, with its directory as the root for readFile', async () => {
    const root = tree({ 'app/composer.lock': COMPOSER_LOCK, 'app/composer.json': COMPOSER_JSON });
    const result = await extractPath(join(root, 'app', 'composer.lock'), {
      ecosystems: [composer],
    });
    expect(result.files.map((f) => [f.path, f.format, f.dependencies.length])).toEqual([
      ['composer.lock', 'composer.lock', 2],
    ]);
    expect(result.files[0]!.dependencies.every((d) => d.direct)).toBe(true);
    expect(await extractPath(join(root, 'app', 'nothing.txt')).catch((e) => e.code)).toBe('ENOENT');
  });

  it('reports oversized, malformed and crashing files per file while the others parse', async () => {
    const root = tree({
      'a/composer.lock': '{"packages": [',
      'b/Dockerfile': `FROM alpine:3.20\n# ${'x'.repeat(2000)}\n`,
      'c/boom.txt': 'anything',
      'd/Dockerfile': 'FROM node:20\n',
    });
    const result = await extractPath(root, {
      ecosystems: [composer, docker, probe],
      maxFileBytes: 1000,
    });
    expect(result.files.map((f) => [f.path, f.dependencies.length, f.errors])).toEqual([
      [
        'a/composer.lock',
        0,
        [{ line: 1, message: 'composer.lock is not valid JSON: Unexpected end of JSON input' }],
      ],
      [
        'b/Dockerfile',
        0,
        [{ line: null, message: 'file is 2020 bytes, above the 1000-byte limit: not parsed' }],
      ],
      ['c/boom.txt', 0, [{ line: null, message: 'probe/boom failed: kaput' }]],
      ['d/Dockerfile', 1, []],
    ]);
  });

  it('lets extractors read only inside the tree, never through symlinks out of it', async () => {
    const outside = tree({ 'secret.txt': 'secret' });
    const root = tree({
      'probe.lock': [
        'inside.txt',
        'sub/../inside.txt',
        '../secret.txt',
        join(outside, 'secret.txt'),
        'link.txt',
        'nope.txt',
      ].join('\n'),
      'inside.txt': 'ok',
    });
    symlinkSync(join(outside, 'secret.txt'), join(root, 'link.txt'));
    seen.length = 0;
    await extractPath(root, { ecosystems: [probe] });
    expect(seen).toEqual(['ok', 'ok', null, null, null, null]);
  });

  it('does not read symlinked claimed files that leave the tree, nor enter symlinked folders', async () => {
    const outside = tree({ Dockerfile: 'FROM outside:1\n', 'deep/Dockerfile': 'FROM outside:2\n' });
    const root = tree({ 'real/Dockerfile': 'FROM inside:1\n' });
    symlinkSync(join(outside, 'Dockerfile'), join(root, 'Dockerfile'));
    symlinkSync(join(outside, 'deep'), join(root, 'linked-dir'));
    symlinkSync(join(root, 'real', 'Dockerfile'), join(root, 'alias.Dockerfile'));
    const result = await extractPath(root, { ecosystems: [docker] });
    expect(
      result.files.map((f) => [
        f.path,
        f.dependencies.map((d) => d.name),
        f.errors.map((e) => e.message),
      ]),
    ).toEqual([
      ['Dockerfile', [], ['symlink to a file outside the scanned tree: not read']],
      ['alias.Dockerfile', ['inside'], []],
      ['real/Dockerfile', ['inside'], []],
    ]);
  });

  it('strips a byte-order mark before parsing', async () => {
    const root = tree({ 'composer.json': `\ufeff${COMPOSER_JSON}` });
    const result = await extractPath(root, { ecosystems: [composer] });
    expect(result.files[0]!.errors).toEqual([]);
    expect(result.files[0]!.dependencies).toHaveLength(3);
  });
});

/** One lockfile + manifest pair per ecosystem format; each manifest declares one package its lockfile lacks. */
const PAIRS: Record<string, Record<string, string>> = {
  npm: {
    'package.json': JSON.stringify({
      name: 'app',
      dependencies: { a: '^1.0.0', b: '^2.0.0' },
      devDependencies: { c: '^3.0.0' },
    }),
    'package-lock.json': JSON.stringify(
      {
        name: 'app',
        lockfileVersion: 3,
        requires: true,
        packages: {
          '': { name: 'app', dependencies: { a: '^1.0.0', b: '^2.0.0' } },
          'node_modules/a': { version: '1.0.1' },
          'node_modules/c': { version: '3.1.0', dev: true },
        },
      },
      null,
      2,
    ),
  },
  yarn: {
    'package.json': JSON.stringify({ name: 'app', dependencies: { a: '^1.0.0', b: '^2.0.0' } }),
    'yarn.lock':
      '# yarn lockfile v1\n\n\na@^1.0.0:\n  version "1.0.1"\n  resolved "https://registry.yarnpkg.com/a/-/a-1.0.1.tgz"\n',
  },
  pnpm: {
    'package.json': JSON.stringify({ name: 'app', dependencies: { a: '^1.0.0', b: '^2.0.0' } }),
    'pnpm-lock.yaml':
      "lockfileVersion: '9.0'\n\nimporters:\n\n  .:\n    dependencies:\n      a:\n        specifier: ^1.0.0\n        version: 1.0.1\n\npackages:\n\n  a@1.0.1:\n    resolution: {integrity: sha512-abc}\n\nsnapshots:\n\n  a@1.0.1: {}\n",
  },
  poetry: {
    'pyproject.toml':
      '[tool.poetry]\nname = "app"\nversion = "0.1.0"\n\n[tool.poetry.dependencies]\npython = "^3.10"\nrequests = "^2.31"\nFlask = "^3.0"\n',
    'poetry.lock':
      '[[package]]\nname = "requests"\nversion = "2.31.0"\ndescription = ""\noptional = false\npython-versions = ">=3.7"\nfiles = []\n\n[metadata]\nlock-version = "2.0"\npython-versions = "^3.10"\ncontent-hash = "x"\n',
  },
  uv: {
    'pyproject.toml':
      '[project]\nname = "app"\nversion = "0.1.0"\ndependencies = ["requests>=2.31", "flask>=3"]\n',
    'uv.lock':
      'version = 1\nrequires-python = ">=3.10"\n\n[[package]]\nname = "app"\nversion = "0.1.0"\nsource = { editable = "." }\ndependencies = [{ name = "requests" }]\n\n[[package]]\nname = "requests"\nversion = "2.31.0"\nsource = { registry = "https://pypi.org/simple" }\n',
  },
  pipenv: {
    Pipfile:
      '[[source]]\nurl = "https://pypi.org/simple"\nverify_ssl = true\nname = "pypi"\n\n[packages]\nrequests = "*"\nflask = ">=3"\n',
    'Pipfile.lock': JSON.stringify(
      {
        _meta: { hash: { sha256: 'x' }, 'pipfile-spec': 6, requires: {}, sources: [] },
        default: { requests: { hashes: [], version: '==2.31.0' } },
        develop: {},
      },
      null,
      4,
    ),
  },
  cargo: {
    'Cargo.toml':
      '[package]\nname = "app"\nversion = "0.1.0"\n\n[dependencies]\nserde = "1"\nanyhow = "1"\n',
    'Cargo.lock':
      'version = 3\n\n[[package]]\nname = "app"\nversion = "0.1.0"\ndependencies = ["serde"]\n\n[[package]]\nname = "serde"\nversion = "1.0.200"\nsource = "registry+https://github.com/rust-lang/crates.io-index"\nchecksum = "abc"\n',
  },
  gem: {
    Gemfile: "source 'https://rubygems.org'\ngem 'rack'\ngem 'puma', '~> 6.0'\n",
    'Gemfile.lock':
      'GEM\n  remote: https://rubygems.org/\n  specs:\n    rack (3.0.8)\n\nPLATFORMS\n  ruby\n\nDEPENDENCIES\n  rack\n\nBUNDLED WITH\n   2.5.0\n',
  },
  nuget: {
    'App.csproj':
      '<Project Sdk="Microsoft.NET.Sdk">\n  <ItemGroup>\n    <PackageReference Include="Newtonsoft.Json" Version="13.0.3" />\n    <PackageReference Include="Serilog" Version="3.1.1" />\n  </ItemGroup>\n</Project>\n',
    'packages.lock.json': JSON.stringify(
      {
        version: 1,
        dependencies: {
          'net8.0': {
            'Newtonsoft.Json': {
              type: 'Direct',
              requested: '[13.0.3, )',
              resolved: '13.0.3',
              contentHash: 'x',
            },
          },
        },
      },
      null,
      2,
    ),
  },
  gradle: {
    'build.gradle':
      "plugins { id 'java' }\ndependencies {\n  implementation 'com.google.guava:guava:33.0.0-jre'\n  implementation 'org.slf4j:slf4j-api:2.0.9'\n}\n",
    'gradle.lockfile':
      '# comment\ncom.google.guava:guava:33.0.0-jre=compileClasspath,runtimeClasspath\nempty=annotationProcessor\n',
  },
};

/** [pair, manifest path, what it keeps beside the lockfile, what it yields alone]. */
const KEPT: Array<[string, string, string[], string[]]> = [
  ['npm', 'package.json', ['b'], ['a', 'b', 'c']],
  ['yarn', 'package.json', ['b'], ['a', 'b']],
  ['pnpm', 'package.json', ['b'], ['a', 'b']],
  ['poetry', 'pyproject.toml', ['flask'], ['requests', 'flask']],
  ['uv', 'pyproject.toml', ['flask'], ['requests', 'flask']],
  ['pipenv', 'Pipfile', ['flask'], ['requests', 'flask']],
  ['cargo', 'Cargo.toml', ['anyhow'], ['serde', 'anyhow']],
  ['gem', 'Gemfile', ['puma'], ['rack', 'puma']],
  ['nuget', 'App.csproj', ['serilog'], ['newtonsoft.json', 'serilog']],
  [
    'gradle',
    'build.gradle',
    ['org.slf4j:slf4j-api'],
    ['com.google.guava:guava', 'org.slf4j:slf4j-api'],
  ],
];

describe('lockfile wins over its manifest (registered ecosystems)', () => {
  it.each(KEPT)(
    '%s: %s keeps only what the lockfile lacks',
    async (pair, manifest, kept, alone) => {
      const files = PAIRS[pair]!;
      const both = await extractPath(tree(files));
      expect(both.files.every((f) => f.errors.length === 0)).toBe(true);
      expect(both.files.find((f) => f.path === manifest)!.dependencies.map((d) => d.name)).toEqual(
        kept,
      );
      // The lockfile itself is untouched and in a subfolder the manifest is on its own.
      const lockPath = Object.keys(files).find((p) => p !== manifest)!;
      expect(both.files.find((f) => f.path === lockPath)!.dependencies.length).toBeGreaterThan(0);
      const apart = await extractPath(
        tree({ [manifest]: files[manifest]!, [`sub/${lockPath}`]: files[lockPath]! }),
      );
      expect(apart.files.find((f) => f.path === manifest)!.dependencies.map((d) => d.name)).toEqual(
        alone,
      );
    },
  );
});

describe('openTree: one file at a time', () => {
  it('hands out each file before reading the next', async () => {
    const root = tree({
      'a/Dockerfile': 'FROM alpine:3.20\n',
      'b/Dockerfile': 'FROM node:20\n',
      'c/Dockerfile': 'FROM python:3.12\n',
    });
    const started: string[] = [];
    const opened = await openTree(root, {
      ecosystems: [docker],
      onFileStart: (file) => started.push(file.path),
    });
    const files = opened.files();
    expect((await files.next()).value?.path).toBe('a/Dockerfile');
    expect(started).toEqual(['a/Dockerfile']);
    expect((await files.next()).value?.path).toBe('b/Dockerfile');
    expect(started).toEqual(['a/Dockerfile', 'b/Dockerfile']);
  });

  it.each(Object.keys(PAIRS))(
    '%s: lockfile wins with a folder sorted between the manifest and the lockfile, as in memory',
    async (pair) => {
      const files = PAIRS[pair]!;
      const [first, second] = Object.keys(files).sort();
      const manifest = KEPT.find(([name]) => name === pair)![1];
      // `${first}-` sorts after `first` and before `second` (composer.json-/ before composer.lock).
      const between = { ...files, [`${first}-/${manifest}`]: files[manifest]! };
      expect([first, `${first}-/${manifest}`, second]).toEqual(
        [first, `${first}-/${manifest}`, second].sort(),
      );
      const fromDisk = await extractPath(tree(between));
      expect(fromDisk).toEqual(extractFiles(new Map(Object.entries(between))));
      const kept = KEPT.find(([name]) => name === pair)![2];
      expect(
        fromDisk.files.find((f) => f.path === manifest)!.dependencies.map((d) => d.name),
      ).toEqual(kept);
    },
  );
});

describe('extractFiles', () => {
  it('gives the same result as extractPath for the same files', async () => {
    const files = {
      'composer.json': COMPOSER_JSON,
      'composer.lock': COMPOSER_LOCK,
      'docker/Dockerfile': 'ARG V=3.20\nFROM alpine:${V}\n',
      'docker/compose.yaml': 'services:\n  db:\n    image: postgres:16\n',
    };
    const fromDisk = await extractPath(tree(files), { ecosystems: [composer, docker] });
    const fromMemory = extractFiles(new Map(Object.entries(files)), {
      ecosystems: [composer, docker],
    });
    expect(fromMemory).toEqual(fromDisk);
    expect(fromMemory.files.map((f) => f.path)).toEqual([
      'composer.json',
      'composer.lock',
      'docker/Dockerfile',
      'docker/compose.yaml',
    ]);
  });

  it('normalises the paths it is given and keeps readFile inside them', () => {
    seen.length = 0;
    const result = extractFiles(
      new Map([
        ['./x/probe.lock', 'x/data.txt\n../etc/passwd\n/etc/passwd\nx\\data.txt'],
        ['x/data.txt', 'data'],
        ['../escape/Dockerfile', 'FROM evil:1\n'],
      ]),
      { ecosystems: [probe, docker] },
    );
    expect(result.files.map((f) => f.path)).toEqual(['x/probe.lock']);
    expect(seen).toEqual(['data', null, null, 'data']);
  });
});

describe('normaliseTreePath', () => {
  it.each([
    ['a/b.txt', 'a/b.txt'],
    ['./a//b.txt', 'a/b.txt'],
    ['a/../b.txt', 'b.txt'],
    ['a\\b.txt', 'a/b.txt'],
    ['../b.txt', null],
    ['a/../../b.txt', null],
    ['/etc/passwd', null],
    ['C:/Windows/win.ini', null],
    ['c:\\x', null],
    ['.', null],
    ['', null],
    ['a\u0000b', null],
  ])('%j → %j', (path, expected) => {
    expect(normaliseTreePath(path)).toBe(expected);
  });
});
