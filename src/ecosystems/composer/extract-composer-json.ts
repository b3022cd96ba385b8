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
      const key = `${name}\u0000${version}\u0000${scope}`;
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
  version: 1,
  kind: 'manifest',
  matches: (path) => /(?:^|\/)composer\.json$/.test(path),
  extract: extractComposerJson,
  describe: () => 'composer.json',
};
