import { compositeKey } from '../../core/composite-key';
import { isObject, type JsonObject, parseJson } from '../shared/json';
import { jsonValueLines, pathKey } from '../shared/json-lines';
import { siblingOf } from '../shared/tree-paths';
import type {
  DependencyScope,
  DependencySource,
  ExtractedDependency,
  ExtractInput,
  ExtractionError,
  ExtractionResult,
  Extractor,
} from '../types';
import { composerPurl, isPlatformPackage, normaliseComposerName } from './names';

const SECTIONS: ReadonlyArray<readonly ['packages' | 'packages-dev', DependencyScope]> = [
  ['packages', 'runtime'],
  ['packages-dev', 'development'],
];

function stringField(entry: JsonObject, key: string): string | null {
  const value = entry[key];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/**
 * Where a locked package comes from. Every Packagist package records both a git `source` and a
 * zip `dist`, so the git source alone does not make it a git dependency: a `notification-url`
 * marks a Composer repository (Packagist or a private one); a `path` dist is a local package;
 * a git/hg source without one is a VCS repository.
 */
function sourceOf(entry: JsonObject): DependencySource {
  const dist = isObject(entry.dist) ? entry.dist : null;
  const source = isObject(entry.source) ? entry.source : null;
  if (dist && dist.type === 'path' && typeof dist.url === 'string') {
    return { kind: 'path', path: dist.url };
  }
  if (typeof entry['notification-url'] === 'string') return { kind: 'registry' };
  if (source && typeof source.url === 'string' && (source.type === 'git' || source.type === 'hg')) {
    const ref = typeof source.reference === 'string' ? source.reference : null;
    return { kind: 'git', url: source.url, ref };
  }
  if (dist && typeof dist.url === 'string') return { kind: 'url', url: dist.url };
  return { kind: 'registry' };
}

/** Direct dependency names from the composer.json beside the lock, or null when absent. */
function directNames(input: ExtractInput): Set<string> | null {
  const manifestPath = siblingOf(input.path, 'composer.json');
  const text = input.readFile(manifestPath);
  if (text === null) return null;
  const parsed = parseJson(text, manifestPath);
  if (!parsed.ok || !isObject(parsed.value)) return null;
  const names = new Set<string>();
  for (const key of ['require', 'require-dev']) {
    const section = parsed.value[key];
    if (isObject(section))
      for (const name of Object.keys(section)) names.add(normaliseComposerName(name));
  }
  return names;
}

export function extractComposerLock(input: ExtractInput): ExtractionResult {
  const errors: ExtractionError[] = [];
  const parsed = parseJson(input.text, 'composer.lock');
  if (!parsed.ok) return { dependencies: [], errors: [parsed.error] };
  const root = parsed.value;
  if (!isObject(root) || (!Array.isArray(root.packages) && !Array.isArray(root['packages-dev']))) {
    return {
      dependencies: [],
      errors: [{ line: null, message: 'composer.lock has no "packages" array' }],
    };
  }
  const lines = jsonValueLines(input.text, 2);

  interface Locked {
    entry: JsonObject;
    name: string;
    version: string;
    scope: DependencyScope;
    line: number | null;
  }
  const locked: Locked[] = [];
  for (const [section, scope] of SECTIONS) {
    const list = root[section];
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      errors.push({
        line: lines.get(pathKey(section)) ?? null,
        message: `"${section}" is not an array`,
      });
      continue;
    }
    list.forEach((entry: unknown, index) => {
      const line = lines.get(pathKey(section, index)) ?? null;
      if (!isObject(entry)) {
        errors.push({ line, message: `${section}[${index}] is not an object: skipped` });
        return;
      }
      const name = stringField(entry, 'name');
      const version = stringField(entry, 'version');
      if (name === null || version === null) {
        errors.push({ line, message: `${section}[${index}] has no name or version: skipped` });
        return;
      }
      locked.push({ entry, name: normaliseComposerName(name), version, scope, line });
    });
  }

  // Edges: a locked package's `require` names its children. `require-dev` of a dependency is
  // never installed, so it records no edge.
  const parents = new Map<string, string[]>();
  for (const { entry, name } of locked) {
    if (!isObject(entry.require)) continue;
    for (const child of Object.keys(entry.require)) {
      if (isPlatformPackage(child)) continue;
      const key = normaliseComposerName(child);
      const list = parents.get(key) ?? [];
      if (!list.includes(name)) list.push(name);
      parents.set(key, list);
    }
  }

  // Without the manifest, the roots of the graph stand in for the direct dependencies.
  const direct = directNames(input);
  const seen = new Set<string>();
  const dependencies: ExtractedDependency[] = [];
  for (const { entry, name, version, scope, line } of locked) {
    const key = compositeKey(name, version, scope);
    if (seen.has(key)) continue;
    seen.add(key);
    const parentList = parents.get(name) ?? [];
    dependencies.push({
      name,
      version,
      purl: composerPurl(name, version),
      scope,
      direct: direct ? direct.has(name) : parentList.length === 0,
      resolution: 'resolved',
      line,
      parents: parentList,
      source: sourceOf(entry),
    });
  }
  return { dependencies, errors };
}

export const composerLockExtractor: Extractor = {
  name: 'composer/composer-lock',
  version: 1,
  kind: 'lockfile',
  matches: (path) => /(?:^|\/)composer\.lock$/.test(path),
  extract: extractComposerLock,
  describe: (input) => {
    const api = /"plugin-api-version"\s*:\s*"([^"]{1,40})"/.exec(input.text);
    return api ? `composer.lock (plugin-api ${api[1]})` : 'composer.lock';
  },
};
