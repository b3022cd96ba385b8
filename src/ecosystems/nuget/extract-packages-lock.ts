import { isObject } from '../../core/json-values';
import { dedupe as dedupeDependencies } from '../dependency-list';
import { parseJson } from '../shared/json';
import { jsonValueLines, pathKey } from '../shared/json-lines';
import { baseOf } from '../shared/tree-paths';
import type {
  ExtractedDependency,
  ExtractInput,
  ExtractionError,
  ExtractionResult,
  Extractor,
} from '../types';
import { normaliseNuGetName, nugetDependency } from './common';

/**
 * packages.lock.json (lock format 1 and 2): per target framework (and runtime identifier)
 * sections of `Direct`, `Transitive`, `CentralTransitive` and `Project` entries.
 * - Direct → direct; Transitive and CentralTransitive (pinned centrally) → transitive.
 * - Project entries are other projects of the solution: reported with a `path` source (the
 *   lockfile records only the project name), no version (`unpinned`), and direct when no other
 *   entry depends on them (the lockfile does not say which project references are direct).
 * - `parents` come from the `dependencies` edges of the same framework section.
 * - The same package in several frameworks is one entry (parents and directness merged).
 * The lockfile records no asset flags, so every entry is scope runtime.
 */
export function extractPackagesLock(input: ExtractInput): ExtractionResult {
  const parsed = parseJson(input.text, 'packages.lock.json');
  if (!parsed.ok) return { dependencies: [], errors: [parsed.error] };
  const document = parsed.value;
  if (!isObject(document) || !isObject(document.dependencies)) {
    return {
      dependencies: [],
      errors: [{ line: null, message: 'not a packages.lock.json: no "dependencies" object' }],
    };
  }
  const errors: ExtractionError[] = [];
  const lines = jsonValueLines(input.text, 3);
  const dependencies: ExtractedDependency[] = [];
  for (const [framework, section] of Object.entries(document.dependencies)) {
    if (!isObject(section)) {
      errors.push({ line: null, message: `framework ${framework}: not an object, skipped` });
      continue;
    }
    const parentsOf = new Map<string, string[]>();
    for (const [name, entry] of Object.entries(section)) {
      if (!isObject(entry) || !isObject(entry.dependencies)) continue;
      for (const child of Object.keys(entry.dependencies)) {
        const key = normaliseNuGetName(child);
        const parents = parentsOf.get(key) ?? [];
        parents.push(normaliseNuGetName(name));
        parentsOf.set(key, parents);
      }
    }
    for (const [name, entry] of Object.entries(section)) {
      const line = lines.get(pathKey('dependencies', framework, name)) ?? null;
      if (!isObject(entry) || typeof entry.type !== 'string') {
        errors.push({ line, message: `${name}: entry without a type, skipped` });
        continue;
      }
      const parents = parentsOf.get(normaliseNuGetName(name)) ?? [];
      if (entry.type === 'Project') {
        dependencies.push(
          nugetDependency({
            name,
            version: null,
            resolution: 'unpinned',
            scope: 'runtime',
            direct: parents.length === 0,
            line,
            parents: [...parents],
            source: { kind: 'path', path: name },
          }),
        );
        continue;
      }
      if (typeof entry.resolved !== 'string' || entry.resolved.trim().length === 0) {
        errors.push({ line, message: `${name}: no resolved version, skipped` });
        continue;
      }
      dependencies.push(
        nugetDependency({
          name,
          version: entry.resolved.trim(),
          resolution: 'resolved',
          scope: 'runtime',
          direct: entry.type === 'Direct',
          line,
          parents: [...parents],
        }),
      );
    }
  }
  return { dependencies: dedupeDependencies(dependencies), errors };
}

export const packagesLockExtractor: Extractor = {
  name: 'nuget/packages-lock',
  version: 1,
  kind: 'lockfile',
  matches: (path) => baseOf(path) === 'packages.lock.json',
  extract: extractPackagesLock,
  describe: (input) => {
    const version = /"version"\s*:\s*(\d+)/.exec(input.text.slice(0, 200))?.[1];
    return version ? `packages.lock.json v${version}` : 'packages.lock.json';
  },
};
