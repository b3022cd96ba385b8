import { baseOf } from '../shared/tree-paths';
import type { ExtractInput, ExtractionResult, Extractor } from '../types';
import { extractMsBuildReferences } from './extract-msbuild-project';

/**
 * Directory.Packages.props: its PackageVersion items are central *versions*, constraints that
 * apply only when a project references the package, so they are not reported as dependencies
 * (projects report them, with the central version applied). GlobalPackageReference items are
 * added to every project below the file: they are reported here, once, scope development.
 */
export function extractDirectoryPackagesProps(input: ExtractInput): ExtractionResult {
  return extractMsBuildReferences(input, { globalOnly: true });
}

export const directoryPackagesPropsExtractor: Extractor = {
  name: 'nuget/directory-packages-props',
  version: 1,
  kind: 'manifest',
  matches: (path) => baseOf(path).toLowerCase() === 'directory.packages.props',
  extract: extractDirectoryPackagesProps,
  describe: () => 'Directory.Packages.props (central package management)',
};
