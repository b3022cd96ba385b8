import { compositeKey } from '../../core/composite-key';
import { ownPackage, ownPackageFields } from '../dependency-list';
import { isObject, parseJson } from '../shared/json';
import { jsonValueLines, pathKey } from '../shared/json-lines';
import type {
  DependencyScope,
  ExtractedDependency,
  ExtractInput,
  ExtractionError,
  ExtractionResult,
  Extractor,
  Resolution,
} from '../types';
import {
  composerPurl,
  isPlatformPackage,
  isValidPackageName,
  normaliseComposerName,
} from './names';
import { isBranch, normaliseVersion, parseConstraints } from './versioning';

const SECTIONS: ReadonlyArray<readonly ['require' | 'require-dev', DependencyScope]> = [
  ['require', 'runtime'],
  ['require-dev', 'development'],
];

/**
 * How sure a composer.json constraint is. `*` (and `@dev`-only flags) pin nothing. One exact
 * numbered version (`1.2.3`, `==v1.2.3`) is a pin. Branches (`dev-main`, `6.4.x-dev`) move, so
 * they stay declared even though Composer parses them as `==`.
 */
export function classifyConstraint(text: string): {
  version: string | null;
  resolution: Resolution;
} {
  const set = parseConstraints(text);
  if (text === '' || set?.some((group) => group.length === 0)) {
    return { version: null, resolution: 'unpinned' };
  }
  if (set !== null && set.length === 1 && set[0]!.length === 1) {
    const only = set[0]![0]!;
    if (only.op === '==' && !isBranch(only.version) && !only.version.endsWith('-dev')) {
      const pinned = text.replace(/^==?\s*/, '').replace(/@[a-zA-Z]+$/, '');
      if (normaliseVersion(pinned) !== null) return { version: pinned, resolution: 'resolved' };
    }
  }
  return { version: text, resolution: 'declared' };
}

/**
 * The project's own package (scope `self`): composer.json's `name`, at its `version` when one is
 * written and valid (rare: Composer takes it from the VCS tag), else unpinned. An invalid name is
 * no package of the project's (a root with no name, or a placeholder) and is skipped silently.
 */
function projectPackage(
  root: Record<string, unknown>,
  line: number | null,
): ExtractedDependency | null {
  if (typeof root.name !== 'string') return null;
  const name = normaliseComposerName(root.name);
  if (!isValidPackageName(name) || isPlatformPackage(name)) return null;
  const written = typeof root.version === 'string' ? root.version.trim() : '';
  // A branch (`dev-main`, `2.x-dev`) names no release: unpinned, like no version at all.
  const version =
    written !== '' &&
    !isBranch(written) &&
    !written.endsWith('-dev') &&
    normaliseVersion(written) !== null
      ? written
      : null;
  return ownPackage(ownPackageFields(name, version, line), composerPurl(name, version));
}

export function extractComposerJson(input: ExtractInput): ExtractionResult {
  const parsed = parseJson(input.text, 'composer.json');
  if (!parsed.ok) return { dependencies: [], errors: [parsed.error] };
  const root = parsed.value;
  if (!isObject(root)) {
    return {
      dependencies: [],
      errors: [{ line: null, message: 'composer.json is not an object' }],
    };
  }
  const lines = jsonValueLines(input.text, 2);
  const errors: ExtractionError[] = [];
  const dependencies: ExtractedDependency[] = [];
  const seen = new Set<string>();
  const own = projectPackage(root, lines.get(pathKey('name')) ?? null);
  if (own) dependencies.push(own);

  for (const [section, scope] of SECTIONS) {
    const requires = root[section];
    if (requires === undefined) continue;
    if (!isObject(requires)) {
      const line = lines.get(pathKey(section)) ?? null;
      errors.push({ line, message: `"${section}" is not an object` });
      continue;
    }
    for (const [rawName, rawConstraint] of Object.entries(requires)) {
      const line = lines.get(pathKey(section, rawName)) ?? null;
      if (isPlatformPackage(rawName)) continue;
      const name = normaliseComposerName(rawName);
      if (!isValidPackageName(name)) {
        errors.push({
          line,
          message: `${section}: "${rawName}" is not a vendor/package name: skipped`,
        });
        continue;
      }
      if (typeof rawConstraint !== 'string') {
        errors.push({
          line,
          message: `${section}: "${rawName}" has no constraint string: skipped`,
        });
        continue;
      }
      const { version, resolution } = classifyConstraint(rawConstraint.trim());
      const key = compositeKey(name, version, scope);
      if (seen.has(key)) continue;
      seen.add(key);
      dependencies.push({
        name,
        version,
        purl: composerPurl(name, resolution === 'resolved' ? version : null),
        scope,
        direct: true,
        resolution,
        line,
        parents: [],
        source: { kind: 'registry' },
      });
    }
  }
  return { dependencies, errors };
}

export const composerJsonExtractor: Extractor = {
  name: 'composer/composer-json',
  version: 2,
  kind: 'manifest',
  matches: (path) => /(?:^|\/)composer\.json$/.test(path),
  extract: extractComposerJson,
  describe: () => 'composer.json',
};
