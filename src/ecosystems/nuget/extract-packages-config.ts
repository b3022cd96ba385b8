import { dedupe as dedupeDependencies } from '../dependency-list';
import { baseOf } from '../shared/tree-paths';
import { parseXml } from '../shared/xml';
import type {
  ExtractedDependency,
  ExtractInput,
  ExtractionError,
  ExtractionResult,
  Extractor,
} from '../types';
import { classifyNuGetVersion, nugetDependency } from './common';
import { metadata } from './msbuild';

/**
 * packages.config (the pre-PackageReference format): a flat list of every installed package,
 * transitive ones included, with exact versions → all `resolved` and `direct` (the file does
 * not distinguish); developmentDependency="true" → development.
 */
export function extractPackagesConfig(input: ExtractInput): ExtractionResult {
  const { root, errors: parseErrors } = parseXml(input.text);
  const errors: ExtractionError[] = [...parseErrors];
  if (!root) return { dependencies: [], errors };
  if (root.name !== 'packages') {
    errors.push({ line: null, message: `not a packages.config: root element is <${root.name}>` });
    return { dependencies: [], errors };
  }
  const dependencies: ExtractedDependency[] = [];
  for (const element of root.children) {
    if (element.name !== 'package') continue;
    const id = metadata(element, 'id')?.trim();
    const declared = metadata(element, 'version');
    if (!id || !declared?.trim()) {
      errors.push({ line: element.line, message: 'package without id or version skipped' });
      continue;
    }
    const { version, resolution } = classifyNuGetVersion(declared);
    const development = metadata(element, 'developmentDependency')?.trim().toLowerCase() === 'true';
    dependencies.push(
      nugetDependency({
        name: id,
        version,
        resolution,
        scope: development ? 'development' : 'runtime',
        direct: true,
        line: element.line,
      }),
    );
  }
  return { dependencies: dedupeDependencies(dependencies), errors };
}

export const packagesConfigExtractor: Extractor = {
  name: 'nuget/packages-config',
  version: 1,
  kind: 'lockfile',
  matches: (path) => baseOf(path).toLowerCase() === 'packages.config',
  extract: extractPackagesConfig,
  describe: () => 'packages.config',
};
