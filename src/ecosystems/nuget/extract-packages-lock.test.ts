import { describe, expect, it } from 'vitest';
import { extractorFixtures, nu } from '../../../test/support/extractor-fixtures';
import { extractPackagesLock, packagesLockExtractor } from './extract-packages-lock';

const { fixture, fixtureInput } = extractorFixtures('nuget');

/** The line holding offset 900 of the truncated fixture, where JSON.parse stopped. */
const LINE_OF_900 = fixture('truncated.lock.json').slice(0, 900).split('\n').length;

describe('nuget/packages-lock', () => {
  it('claims packages.lock.json only', () => {
    expect(packagesLockExtractor.matches('packages.lock.json')).toBe(true);
    expect(packagesLockExtractor.matches('src/Api/packages.lock.json')).toBe(true);
    expect(packagesLockExtractor.matches('package-lock.json')).toBe(false);
    expect(packagesLockExtractor.matches('packages.config')).toBe(false);
  });

  it('describes the lock format version', () => {
    expect(
      packagesLockExtractor.describe?.(
        fixtureInput('multi-framework.lock.json', 'packages.lock.json'),
      ),
    ).toBe('packages.lock.json v2');
  });

  it('frameworks merged, entry types, edges as parents, projects as path sources', () => {
    expect(
      extractPackagesLock(fixtureInput('multi-framework.lock.json', 'src/App/packages.lock.json')),
    ).toEqual({
      dependencies: [
        nu('newtonsoft.json', '13.0.3', 'runtime', 'resolved', 5, true, ['shared.core']),
        nu('serilog.sinks.file', '5.0.0', 'runtime', 'resolved', 11),
        // CentralTransitive: pinned by Directory.Packages.props, still transitive
        nu('serilog', '3.1.1', 'runtime', 'resolved', 20, false, ['serilog.sinks.file']),
        // also listed under net8.0/linux-x64: one entry
        nu('system.text.json', '8.0.0', 'runtime', 'resolved', 26, false, ['shared.core']),
        nu('shared.core', null, 'runtime', 'unpinned', 33, true, [], {
          kind: 'path',
          path: 'shared.core',
        }),
        nu('system.text.json', '6.0.9', 'runtime', 'resolved', 53, false, ['shared.core']),
        nu('system.text.encodings.web', '6.0.0', 'runtime', 'resolved', 60, false, [
          'system.text.json',
        ]),
      ],
      errors: [{ line: 30, message: 'Broken.Entry: no resolved version, skipped' }],
    });
  });

  it.each([
    [
      'truncated file',
      fixture('truncated.lock.json'),
      'packages.lock.json is not valid JSON: Unterminated string in JSON at position 900',
      LINE_OF_900,
    ],
    [
      'another JSON document',
      '{"name": "app"}',
      'not a packages.lock.json: no "dependencies" object',
      null,
    ],
    [
      'deep nesting',
      `${'['.repeat(200000)}${']'.repeat(200000)}`,
      'not a packages.lock.json: no "dependencies" object',
      null,
    ],
  ])('%s → one whole-file error', (_label, text, message, line) => {
    expect(extractPackagesLock({ path: 'packages.lock.json', text, readFile: () => null })).toEqual(
      {
        dependencies: [],
        errors: [{ line, message }],
      },
    );
  });
});
