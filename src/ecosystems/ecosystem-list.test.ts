import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ecosystems, findEcosystem, getEcosystem } from './ecosystem-list';
import { ECOSYSTEMS, type Ecosystem } from './types';

/**
 * The contract every ecosystem folder fulfils (docs/design.md#ecosystems, types.ts). Loops over the ecosystem list,
 * so a new ecosystem is checked as soon as it is registered, and a folder that is not registered
 * (or lacks a part) fails here.
 */

const here = dirname(fileURLToPath(import.meta.url));
// Every folder is an ecosystem except shared/, the format helpers all of them use.
const folders = readdirSync(here).filter(
  (name) => name !== 'shared' && statSync(join(here, name)).isDirectory(),
);

const PURL_TYPES: Record<Ecosystem, string> = {
  npm: 'npm',
  PyPI: 'pypi',
  Maven: 'maven',
  Go: 'golang',
  Cargo: 'cargo',
  RubyGems: 'gem',
  Composer: 'composer',
  NuGet: 'nuget',
  Docker: 'docker',
};

/** Versions each scheme must order exactly like this (ascending, all distinct). */
const ORDERED: Record<Ecosystem, string[]> = {
  npm: ['0.0.1', '1.0.0-alpha.1', '1.0.0-beta', '1.0.0', '1.2.3', '1.10.0', '2.0.0'],
  PyPI: ['0.9', '1.0a1', '1.0rc1', '1.0', '1.0.post1', '1.1.dev0', '1.1', '2.0'],
  Maven: ['1.0-alpha-1', '1.0-beta-1', '1.0-rc-1', '1.0-SNAPSHOT', '1.0', '1.0-sp1', '1.1', '1.10'],
  Go: [
    'v0.0.0-20200101000000-abcdefabcdef',
    'v0.1.0',
    'v1.0.0-rc.1',
    'v1.0.0',
    'v1.2.0',
    'v2.0.0+incompatible',
  ],
  Cargo: ['0.1.0', '1.0.0-alpha', '1.0.0', '1.2.3', '2.0.0'],
  RubyGems: ['0.9', '1.0.0.pre', '1.0.0', '1.0.1', '1.10'],
  Composer: ['1.0.0-alpha1', '1.0.0-beta1', '1.0.0-RC1', '1.0.0', '1.0.0-patch1', '1.1'],
  NuGet: ['1.0.0-alpha', '1.0.0', '1.0.0.1', '1.2.0', '2.0.0'],
  Docker: ['1.0', '1.2', '1.10', '2'],
};

/** One range each scheme must accept in its native syntax (none for Go and Docker). */
const SATISFIED: Partial<Record<Ecosystem, [string, string, string]>> = {
  npm: ['1.2.3', '^1.0.0', '2.0.0'],
  PyPI: ['1.5', '>=1.0,<2', '2.0'],
  Maven: ['1.5', '[1.0,2.0)', '2.0'],
  Cargo: ['1.2.3', '^1.0', '2.0.0'],
  RubyGems: ['1.0.5', '~> 1.0.0', '1.1.0'],
  Composer: ['1.2.3', '^1.2', '2.0.0'],
  NuGet: ['1.5.0', '[1.0,2.0)', '2.0.0'],
};

/** Not a version in any scheme. */
const INVALID = ['', ' ', 'not a version', '\u0000', '^^^', '>=', '['];
/** No function may throw on these (some schemes accept the last two as versions). */
const JUNK = [...INVALID, '999999999999999999999999.1', 'x'.repeat(10_000)];

describe('ecosystem list', () => {
  it('lists the nine specification ecosystems exactly once, in its order', () => {
    expect(ecosystems.map((e) => e.id)).toHaveLength(ECOSYSTEMS.length);
    expect([...ecosystems.map((e) => e.id)].sort()).toEqual([...ECOSYSTEMS].sort());
  });

  it('looks ecosystems up by id and OSV name', () => {
    for (const e of ecosystems) {
      expect(getEcosystem(e.id)).toBe(e);
      expect(findEcosystem(e.osvEcosystem)).toBe(e);
      expect(findEcosystem(e.id.toUpperCase())).toBe(e);
    }
  });

  it('uses globally unique extractor names', () => {
    const names = ecosystems.flatMap((e) => e.extractors.map((x) => x.name));
    expect(new Set(names).size).toBe(names.length);
  });

  it.each(folders)('folder %s is complete and registered', (folder) => {
    for (const part of ['index.ts', 'versioning.ts', 'registry.ts', 'README.md']) {
      expect(existsSync(join(here, folder, part)), `${folder}/${part}`).toBe(true);
    }
    const fixtures = join(here, folder, '__fixtures__');
    expect(existsSync(fixtures) && readdirSync(fixtures).length > 0, `${folder}/__fixtures__`).toBe(
      true,
    );
    const owner = ecosystems.filter((e) =>
      e.extractors.some((x) => x.name.startsWith(`${folder}/`)),
    );
    expect(owner, `no registered ecosystem owns the extractors of ${folder}/`).toHaveLength(1);
  });
});

describe.each(ecosystems.map((e) => [e.id, e] as const))('%s', (id, e) => {
  it('has its purl type and an OSV ecosystem name', () => {
    expect(ECOSYSTEMS).toContain(id);
    expect(e.purlType).toBe(PURL_TYPES[id]);
    expect(e.osvEcosystem.length).toBeGreaterThan(0);
  });

  it('has extractors named <folder>/<format>, all from one folder', () => {
    expect(e.extractors.length).toBeGreaterThan(0);
    const names = e.extractors.map((x) => x.name);
    for (const name of names) expect(name).toMatch(/^[a-z]+\/[a-z-]+$/);
    expect(new Set(names).size).toBe(names.length);
    const folder = names[0]!.split('/')[0]!;
    expect(folders).toContain(folder);
    expect(names.every((n) => n.startsWith(`${folder}/`))).toBe(true);
    for (const x of e.extractors) {
      expect(['lockfile', 'manifest']).toContain(x.kind);
      expect(Number.isInteger(x.version) && x.version > 0).toBe(true);
      expect(typeof x.matches).toBe('function');
      expect(typeof x.extract).toBe('function');
    }
  });

  it('never throws from an extractor, whatever the input', () => {
    const garbage = [
      '',
      '\u0000\u0001\u0002',
      '{',
      '[[[[',
      '<?xml',
      'a = [',
      `${'{'.repeat(5000)}`,
      '\ufffd'.repeat(100),
    ];
    for (const x of e.extractors) {
      for (const text of garbage) {
        const started = performance.now();
        const result = x.extract({ path: 'some/file', text, readFile: () => null });
        const elapsed = performance.now() - started;
        expect(
          elapsed,
          `${x.name} took ${Math.round(elapsed)} ms on ${JSON.stringify(text.slice(0, 10))}`,
        ).toBeLessThan(1000);
        expect(
          Array.isArray(result.dependencies),
          `${x.name} on ${JSON.stringify(text.slice(0, 10))}`,
        ).toBe(true);
        expect(Array.isArray(result.errors)).toBe(true);
      }
    }
  });

  it('normalises names idempotently', () => {
    for (const name of ['Example', 'some/Thing', 'a.b-c_d', 'org.x:Artifact']) {
      const once = e.normaliseName(name);
      expect(e.normaliseName(once)).toBe(once);
    }
  });

  it('orders versions the way the scheme documents', () => {
    const versions = ORDERED[id];
    const v = e.versioning;
    for (const version of versions) expect(v.isValid(version), version).toBe(true);
    for (let i = 0; i < versions.length; i++) {
      for (let j = 0; j < versions.length; j++) {
        const a = versions[i]!;
        const b = versions[j]!;
        expect(Math.sign(v.compare(a, b)), `${a} vs ${b}`).toBe(Math.sign(i - j));
      }
    }
    expect([...versions].reverse().sort(v.compare)).toEqual(versions);
  });

  it('checks ranges in its native syntax', () => {
    const sample = SATISFIED[id];
    if (!sample) {
      // No ranges in this scheme: a version satisfies only itself.
      const version = ORDERED[id][1]!;
      expect(e.versioning.satisfies(version, version)).toBe(true);
      return;
    }
    const [inside, range, outside] = sample;
    expect(e.versioning.satisfies(inside, range)).toBe(true);
    expect(e.versioning.satisfies(outside, range)).toBe(false);
    // (Whether a bare version is a range differs: exact in npm, `^1.2.3` in Cargo, `>=` in NuGet.)
    expect(e.versioning.isRange(range)).toBe(true);
  });

  it('never throws on invalid versions or ranges, and compare stays reflexive', () => {
    const v = e.versioning;
    const samples = [...JUNK, ...ORDERED[id]];
    for (const a of INVALID) expect(v.isValid(a), JSON.stringify(a)).toBe(false);
    for (const a of JUNK) {
      expect(typeof v.isValid(a)).toBe('boolean');
      expect(typeof v.isPrerelease(a)).toBe('boolean');
      expect(typeof v.isRange(a)).toBe('boolean');
      expect(v.compare(a, a)).toBe(0);
      for (const b of samples) {
        expect(typeof v.satisfies(a, b)).toBe('boolean');
        expect(typeof v.satisfies(b, a)).toBe('boolean');
        expect(Math.sign(v.compare(a, b)) + Math.sign(v.compare(b, a)), `${a} vs ${b}`).toBe(0);
      }
    }
  });
});
