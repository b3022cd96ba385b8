import { describe, expect, it } from 'vitest';
import { extractorFixtures, nu } from '../../../test/support/extractor-fixtures';
import {
  directoryPackagesPropsExtractor,
  extractDirectoryPackagesProps,
} from './extract-directory-packages-props';

const { fixtureInput } = extractorFixtures('nuget');

describe('nuget/directory-packages-props', () => {
  it('claims Directory.Packages.props in any casing', () => {
    expect(directoryPackagesPropsExtractor.matches('Directory.Packages.props')).toBe(true);
    expect(directoryPackagesPropsExtractor.matches('src/directory.packages.props')).toBe(true);
    expect(directoryPackagesPropsExtractor.matches('Directory.Build.props')).toBe(false);
  });

  it('reports GlobalPackageReference only: PackageVersion items are versions, not dependencies', () => {
    const input = fixtureInput('cpm-root.Directory.Packages.props', 'Directory.Packages.props', {
      'Directory.Build.props': 'shared-properties.Directory.Build.props',
    });
    expect(extractDirectoryPackagesProps(input)).toEqual({
      dependencies: [
        nu('nerdbank.gitversioning', '3.6.133', 'development', 'resolved', 12),
        nu('microsoft.sourcelink.github', '$(SourceLinkVersion)', 'development', 'declared', 13),
      ],
      errors: [],
    });
  });

  it('a props file with only PackageVersion items yields nothing', () => {
    expect(
      extractDirectoryPackagesProps(
        fixtureInput('nested-imports-above.props', 'src/Directory.Packages.props'),
      ),
    ).toEqual({
      dependencies: [],
      errors: [],
    });
  });
});
