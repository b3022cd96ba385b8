import { describe, expect, it } from 'vitest';
import { extractorFixtures, nu } from '../../../test/support/extractor-fixtures';
import { extractPackagesConfig, packagesConfigExtractor } from './extract-packages-config';

const { fixtureInput } = extractorFixtures('nuget');

describe('nuget/packages-config', () => {
  it('claims packages.config', () => {
    expect(packagesConfigExtractor.matches('packages.config')).toBe(true);
    expect(packagesConfigExtractor.matches('Web/packages.config')).toBe(true);
    expect(packagesConfigExtractor.matches('web.config')).toBe(false);
  });

  it('exact versions, developmentDependency, case-insensitive duplicates, bad entry skipped', () => {
    expect(
      extractPackagesConfig(fixtureInput('legacy.packages.config', 'packages.config')),
    ).toEqual({
      dependencies: [
        nu('entityframework', '6.4.4', 'runtime', 'resolved', 3),
        nu('newtonsoft.json', '12.0.3', 'runtime', 'resolved', 4),
        nu(
          'microsoft.codedom.providers.dotnetcompilerplatform',
          '2.0.1',
          'development',
          'resolved',
          5,
        ),
      ],
      errors: [{ line: 6, message: 'package without id or version skipped' }],
    });
  });

  it('another root element is one whole-file error', () => {
    expect(
      extractPackagesConfig({
        path: 'packages.config',
        text: '<configuration/>',
        readFile: () => null,
      }),
    ).toEqual({
      dependencies: [],
      errors: [{ line: null, message: 'not a packages.config: root element is <configuration>' }],
    });
  });
});
