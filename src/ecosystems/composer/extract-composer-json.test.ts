import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ExtractedDependency, Resolution } from '../types';
import {
  classifyConstraint,
  composerJsonExtractor,
  extractComposerJson,
} from './extract-composer-json';

const fixture = (name: string) =>
  readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');
const run = (name: string) =>
  extractComposerJson({ path: 'composer.json', text: fixture(name), readFile: () => null });

function declared(
  name: string,
  version: string | null,
  line: number,
  resolution: Resolution,
  scope: 'runtime' | 'development' = 'runtime',
): ExtractedDependency {
  return {
    name,
    version,
    purl: `pkg:composer/${name}${resolution === 'resolved' ? `@${version}` : ''}`,
    scope,
    direct: true,
    resolution,
    line,
    parents: [],
    source: { kind: 'registry' },
  };
}

/** The project's own package (composer.json `name`): scope self, never direct. */
function own(name: string, version: string | null, line: number): ExtractedDependency {
  return {
    name,
    version,
    purl: `pkg:composer/${name}${version === null ? '' : `@${version}`}`,
    scope: 'self',
    direct: false,
    resolution: version === null ? 'unpinned' : 'resolved',
    line,
    parents: [],
    source: { kind: 'path', path: '.' },
  };
}

describe('composer/composer-json', () => {
  it('claims composer.json only', () => {
    expect(composerJsonExtractor.matches('x/composer.json')).toBe(true);
    expect(composerJsonExtractor.matches('composer.lock')).toBe(false);
    expect(composerJsonExtractor.matches('package.json')).toBe(false);
  });

  it('reads require and require-dev, without platform packages', () => {
    expect(run('platform-and-dev.json')).toEqual({
      dependencies: [
        own('example/platform-and-dev', null, 2),
        declared('monolog/monolog', '3.7.0', 10, 'resolved'),
        declared('symfony/console', 'v6.4.11', 11, 'resolved'),
        declared('symfony/yaml', '6.4.8', 12, 'resolved'),
        declared('psr/log', null, 13, 'unpinned'),
        declared('acme/fork', 'dev-main#1f2e3d4', 14, 'declared'),
        declared('ssddanbrown/symfony-mailer', '6.4.x-dev', 15, 'declared'),
        declared('doctrine/dbal', '^3.5 || ^4.0', 16, 'declared'),
        declared('laminas/laminas-code', '>=4.5 <5.0', 17, 'declared'),
        declared('vlucas/phpdotenv', '5.6.*@dev', 18, 'declared'),
        declared('phpunit/phpunit', '^10.5', 23, 'declared', 'development'),
        declared('mockery/mockery', '^1.6', 24, 'declared', 'development'),
      ],
      errors: [
        { line: 19, message: 'require: "notavendor" is not a vendor/package name: skipped' },
        { line: 20, message: 'require: "acme/weird" has no constraint string: skipped' },
      ],
    });
  });

  it('lowercases names', () => {
    expect(run('small-app.json').dependencies.map((d) => d.name)).toEqual([
      'example/small-app',
      'guzzlehttp/guzzle',
      'phpunit/phpunit',
    ]);
  });

  it.each([
    // A written release version makes it matchable; the name is lower-cased like any other.
    ['own-package-versioned.json', [own('acme/http-client', '2.3.0', 2)]],
    // A branch names no release: unpinned, as when no version is written at all.
    ['own-package-branch-version.json', [own('acme/tooling', null, 2)]],
    // Not vendor/package (or not a string): nothing to report, and no error (a root may be unnamed).
    ['own-package-invalid-name.json', []],
    ['own-package-unnamed.json', []],
  ])('own package: %s', (file, expected) => {
    const result = run(file);
    expect(result.dependencies.filter((d) => d.scope === 'self')).toEqual(expected);
    expect(result.errors).toEqual([]);
  });

  it('fails a file that is not JSON', () => {
    expect(run('not-json.json')).toEqual({
      dependencies: [],
      errors: [
        {
          line: null,
          message: `composer.json is not valid JSON: Unexpected token 'r', "require: { not json " is not valid JSON`,
        },
      ],
    });
  });

  it.each([
    ['1.2.3', '1.2.3', 'resolved'],
    ['=1.2', '1.2', 'resolved'],
    ['1.2.3@beta', '1.2.3', 'resolved'],
    ['*', null, 'unpinned'],
    ['', null, 'unpinned'],
    ['@dev', null, 'unpinned'],
    ['^1.2', '^1.2', 'declared'],
    ['dev-master', 'dev-master', 'declared'],
    ['1.0.x-dev', '1.0.x-dev', 'declared'],
    ['total nonsense', 'total nonsense', 'declared'],
  ])('classifies %j', (text, version, resolution) => {
    expect(classifyConstraint(text)).toEqual({ version, resolution });
  });
});
