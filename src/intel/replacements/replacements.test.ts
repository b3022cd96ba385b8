import { describe, expect, test } from 'vitest';
import { getEcosystem } from '../../ecosystems/ecosystem-list';
import { ECOSYSTEMS, type Ecosystem } from '../../ecosystems/types';
import { curatedMapping, parseDeprecationMessage, replacementCandidates } from './replacements';

describe('parseDeprecationMessage', () => {
  test.each([
    // Real deprecation messages of npm packages.
    ['request has been deprecated, see https://github.com/request/request/issues/3142', []],
    ['Please use @babel/eslint-parser instead.', [['@babel/eslint-parser', 'high']]],
    ['babel-eslint is now @babel/eslint-parser. This package will no longer receive updates.', []],
    ['This package has been renamed to @popperjs/core', [['@popperjs/core', 'high']]],
    [
      'Package no longer supported. Contact Support at https://www.npmjs.com/support for more info.',
      [],
    ],
    ['node-sass is no longer supported. Please use `sass` instead.', [['sass', 'high']]],
    ['TSLint has been deprecated in favor of ESLint.', [['ESLint', 'medium']]],
    [
      'gulp-util is deprecated - replace it, following the guidelines at https://medium.com/gulp',
      [],
    ],
    ['this package has moved to "@scope/thing"', [['@scope/thing', 'high']]],
    ['superseded by left-pad-next@^2.0.0.', [['left-pad-next', 'high']]],
    ['Use uuid@9 instead; this package is unmaintained', [['uuid', 'high']]],
    ['Deprecated. Use the native fetch instead', []],
    [
      'Switch to undici, or use got',
      [
        ['undici', 'medium'],
        ['got', 'medium'],
      ],
    ],
    ['moved to https://www.npmjs.com/package/@acme/new-name', [['@acme/new-name', 'medium']]],
    ['', []],
    ['use', []],
    ['use 2.0.0 instead', []],
  ] as const)('%j', (message, expected) => {
    expect(
      parseDeprecationMessage(message, 'npm').map((found) => [found.name, found.confidence]),
    ).toEqual(expected);
  });

  test('other ecosystems keep their separators', () => {
    expect(
      parseDeprecationMessage('Abandoned: use symfony/mailer instead', 'Composer')[0]?.name,
    ).toBe('symfony/mailer');
    expect(
      parseDeprecationMessage('replaced by org.apache.commons:commons-lang3', 'Maven')[0]?.name,
    ).toBe('org.apache.commons:commons-lang3');
  });

  test('hostile input stays bounded', () => {
    const long = `use ${'a'.repeat(100_000)} instead `.repeat(3);
    expect(parseDeprecationMessage(long, 'npm')).toEqual([]);
  });
});

const normalise = (ecosystem: Ecosystem) => getEcosystem(ecosystem).normaliseName;

describe('replacementCandidates', () => {
  test('curated entries: request → undici, got, axios', () => {
    const found = replacementCandidates({
      ecosystem: 'npm',
      name: 'request',
      deprecated: 'request has been deprecated, see https://github.com/request/request/issues/3142',
      successor: null,
      normaliseName: normalise('npm'),
    });
    expect(found.map((c) => c.name)).toEqual(['undici', 'got', 'axios', 'node-fetch']);
    expect(found[0]).toMatchObject({ sources: ['curated'], confidence: 'medium' });
    expect(found[0]?.evidence).toContain(curatedMapping().version);
  });

  test('the registry successor, the message and the curated list merge by name', () => {
    const found = replacementCandidates({
      ecosystem: 'Composer',
      name: 'swiftmailer/swiftmailer',
      deprecated: 'Abandoned: use symfony/mailer instead',
      successor: 'symfony/mailer',
      normaliseName: normalise('Composer'),
    });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      name: 'symfony/mailer',
      confidence: 'high',
      sources: ['registry-successor', 'deprecation-message', 'curated'],
    });
  });

  test('never proposes the package itself', () => {
    expect(
      replacementCandidates({
        ecosystem: 'npm',
        name: 'thing',
        deprecated: 'use thing@2 instead',
        successor: 'thing',
        normaliseName: normalise('npm'),
      }),
    ).toEqual([]);
  });

  test('PyPI names are normalised before matching the curated list', () => {
    const found = replacementCandidates({
      ecosystem: 'PyPI',
      name: 'PyCrypto',
      deprecated: null,
      successor: null,
      normaliseName: normalise('PyPI'),
    });
    expect(found[0]?.name).toBe('pycryptodome');
  });

  test('the curated mapping is versioned and well-formed', () => {
    const curated = curatedMapping();
    expect(curated.version).toMatch(/^\d{4}-\d{2}-\d{2}\.\d+$/);
    expect(curated.entries.length).toBeGreaterThanOrEqual(50);
    const seen = new Set<string>();
    for (const entry of curated.entries) {
      expect(ECOSYSTEMS).toContain(entry.ecosystem);
      expect(entry.reason.length).toBeGreaterThan(5);
      expect(entry.successors.length).toBeGreaterThan(0);
      for (const s of entry.successors) expect(['high', 'medium', 'low']).toContain(s.confidence);
      const key = `${entry.ecosystem}:${entry.name}`;
      expect(seen.has(key), key).toBe(false);
      seen.add(key);
    }
    for (const [ecosystem, name, successor] of [
      ['npm', 'moment', 'date-fns'],
      ['npm', 'node-sass', 'sass'],
      ['npm', 'tslint', 'eslint'],
      ['npm', 'request', 'axios'],
    ] as const) {
      const entry = curated.entries.find((e) => e.ecosystem === ecosystem && e.name === name);
      expect(entry?.successors.map((s) => s.name)).toContain(successor);
    }
  });
});
