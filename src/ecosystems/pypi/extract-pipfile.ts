import { parseToml, type TomlTable } from '../shared/toml';
import { baseOf } from '../shared/tree-paths';
import type {
  DependencyScope,
  DependencySource,
  ExtractedDependency,
  ExtractInput,
  ExtractionError,
  ExtractionResult,
  Extractor,
} from '../types';
import {
  dedupe,
  groupScope,
  isTable,
  isValidName,
  makeDependency,
  normaliseName,
  stringOf,
} from './common';
import {
  archiveVersionFor,
  classifySpecifier,
  referenceInfo,
  specifierProblem,
  type VersionInfo,
} from './pep508';
import { indexTomlLines } from './toml-lines';

/**
 * Pipfile (TOML): `[packages]` is runtime, `[dev-packages]` development, and any other table
 * that is not one of Pipfile's own settings is a pipenv package category (`pipenv install
 * --categories docs`), scoped by its name and `optional` otherwise.
 */

const NOT_CATEGORIES = new Set(['source', 'requires', 'scripts', 'pipenv']);

export function categoryScope(category: string): DependencyScope {
  if (category === 'packages' || category === 'default') return 'runtime';
  if (category === 'dev-packages' || category === 'develop') return 'development';
  return groupScope(category, 'optional');
}

/** The package tables of a parsed Pipfile, keyed by category. */
export function pipfileCategories(doc: TomlTable): Array<[string, TomlTable]> {
  return Object.entries(doc).filter(
    (entry): entry is [string, TomlTable] => !NOT_CATEGORIES.has(entry[0]) && isTable(entry[1]),
  );
}

/** Pipenv accepts a bare version (`"3.*"`, `"1.2"`) and means `==`. */
export function pipenvSpecifier(spec: string): string {
  const trimmed = spec.replace(/\s+/g, '');
  return /^[0-9]/.test(trimmed) ? `==${trimmed}` : trimmed;
}

type EntryResult =
  | { ok: true; info: VersionInfo; source: DependencySource }
  | { ok: false; message: string };

function parseValue(name: string, value: unknown): EntryResult {
  if (typeof value === 'string') return versionEntry(name, value);
  if (!isTable(value))
    return { ok: false, message: `'${name}': expected a version string or a table` };
  const git = stringOf(value.git);
  if (git) {
    const ref = stringOf(value.ref) ?? stringOf(value.tag) ?? stringOf(value.branch);
    const url = git.replace(/^git\+/, '');
    return {
      ok: true,
      info: { version: null, resolution: 'unpinned' },
      source: { kind: 'git', url, ref },
    };
  }
  const path = stringOf(value.path);
  if (path !== null) {
    return {
      ok: true,
      info: { version: null, resolution: 'unpinned' },
      source: { kind: 'path', path },
    };
  }
  const file = stringOf(value.file);
  if (file !== null) {
    const info = referenceInfo(file);
    const version = archiveVersionFor(name, info);
    const exact: VersionInfo | null = version ? { version, resolution: 'resolved' } : null;
    return {
      ok: true,
      info: exact ?? { version: null, resolution: 'unpinned' },
      source: info.source,
    };
  }
  const version = value.version === undefined ? '*' : stringOf(value.version);
  if (version === null) return { ok: false, message: `'${name}': version must be a string` };
  return versionEntry(name, version);
}

function versionEntry(name: string, spec: string): EntryResult {
  const specifier = pipenvSpecifier(spec);
  if (specifier !== '' && specifier !== '*') {
    const problem = specifierProblem(specifier);
    if (problem) return { ok: false, message: `'${name}': ${problem}` };
  }
  return { ok: true, info: classifySpecifier(specifier), source: { kind: 'registry' } };
}

export function extractPipfile(input: ExtractInput): ExtractionResult {
  const parsed = parseToml(input.text, 'Pipfile');
  if (!parsed.ok) return { dependencies: [], errors: [parsed.error] };
  const lines = indexTomlLines(input.text, { strings: false });
  const deps: ExtractedDependency[] = [];
  const errors: ExtractionError[] = [];
  for (const [category, table] of pipfileCategories(parsed.value)) {
    const scope = categoryScope(category);
    for (const [name, value] of Object.entries(table)) {
      const line = lines.keyLine(category, name);
      if (!isValidName(name)) {
        errors.push({ line, message: `'${name}' is not a valid package name` });
        continue;
      }
      const entry = parseValue(name, value);
      if (!entry.ok) {
        errors.push({ line, message: entry.message });
        continue;
      }
      deps.push(
        makeDependency({
          name,
          version: entry.info.version,
          resolution: entry.info.resolution,
          scope,
          direct: true,
          line,
          source: entry.source,
        }),
      );
    }
  }
  return { dependencies: dedupe(deps), errors };
}

/** Normalised names per category of a Pipfile's text, or null when it cannot be read. */
export function pipfileDirectNames(text: string): Map<string, Set<string>> | null {
  const parsed = parseToml(text, 'Pipfile');
  if (!parsed.ok) return null;
  const out = new Map<string, Set<string>>();
  for (const [category, table] of pipfileCategories(parsed.value)) {
    out.set(category, new Set(Object.keys(table).map(normaliseName)));
  }
  return out;
}

export const pipfileExtractor: Extractor = {
  name: 'pypi/pipfile',
  version: 1,
  kind: 'manifest',
  matches: (path) => baseOf(path) === 'Pipfile',
  extract: extractPipfile,
  describe: () => 'Pipfile',
};
