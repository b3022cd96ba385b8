import type { TomlTable } from '../shared/toml';
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
  siblingPath,
  stringOf,
  widestScope,
} from './common';
import { pyprojectDirectNames } from './extract-pyproject';
import { readLockPackages } from './lock-toml';

/**
 * poetry.lock (lock-version 1.x with `category`, 2.x with `groups`). Every entry is resolved.
 * `[package.dependencies]` gives the parent edges. `direct` comes from the sibling
 * pyproject.toml (any dependency section); when it cannot be read, an entry is direct exactly
 * when nothing in the lock depends on it (the roots of the graph), which is what was asked for.
 */

/** `main` is runtime (optional when only an extra pulls it in); other groups by their names. */
function scopeOf(table: TomlTable): DependencyScope {
  const optional = table.optional === true;
  const groups = Array.isArray(table.groups)
    ? table.groups.filter((g): g is string => typeof g === 'string')
    : [];
  const category = stringOf(table.category);
  if (groups.length === 0 && category) groups.push(category);
  if (groups.length === 0 || groups.includes('main')) return optional ? 'optional' : 'runtime';
  return widestScope(groups.map((g) => groupScope(g, 'development'))) ?? 'development';
}

function sourceOf(table: TomlTable): DependencySource | undefined {
  const source = table.source;
  if (!isTable(source)) return undefined;
  const type = stringOf(source.type);
  const url = stringOf(source.url) ?? '';
  if (type === 'git') {
    return {
      kind: 'git',
      url,
      ref: stringOf(source.resolved_reference) ?? stringOf(source.reference),
    };
  }
  if (type === 'directory' || type === 'file') return { kind: 'path', path: url };
  if (type === 'url') return { kind: 'url', url };
  return undefined; // legacy / explicit / supplemental: a package index, i.e. a registry
}

export function extractPoetryLock(input: ExtractInput): ExtractionResult {
  const lock = readLockPackages(input.text, 'poetry.lock');
  const errors: ExtractionError[] = lock.error ? [lock.error] : [];
  if (!lock.error && !Array.isArray(lock.doc.package) && !isTable(lock.doc.metadata)) {
    errors.push({
      line: null,
      message: 'poetry.lock has neither [[package]] entries nor [metadata]',
    });
  }

  const entries: Array<{ table: TomlTable; line: number | null; name: string; version: string }> =
    [];
  const parents = new Map<string, string[]>();
  for (const { table, line } of lock.packages) {
    const name = stringOf(table.name);
    const version = stringOf(table.version);
    if (!name || !isValidName(name) || !version) {
      errors.push({ line, message: `package entry without a valid name and version` });
      continue;
    }
    const parent = normaliseName(name);
    entries.push({ table, line, name, version });
    if (isTable(table.dependencies)) {
      for (const child of Object.keys(table.dependencies)) {
        const key = normaliseName(child);
        const list = parents.get(key) ?? [];
        if (!list.includes(parent)) list.push(parent);
        parents.set(key, list);
      }
    }
  }

  const pyproject = input.readFile(siblingPath(input.path, 'pyproject.toml'));
  const requested = pyproject === null ? null : pyprojectDirectNames(pyproject);
  const deps: ExtractedDependency[] = entries.map(({ table, line, name, version }) => {
    const key = normaliseName(name);
    const dependents = parents.get(key) ?? [];
    return makeDependency({
      name,
      version,
      resolution: 'resolved',
      scope: scopeOf(table),
      direct: requested ? requested.has(key) : dependents.length === 0,
      line,
      parents: [...dependents],
      source: sourceOf(table),
    });
  });
  return { dependencies: dedupe(deps), errors };
}

export const poetryLockExtractor: Extractor = {
  name: 'pypi/poetry-lock',
  version: 1,
  kind: 'lockfile',
  matches: (path) => baseOf(path) === 'poetry.lock',
  extract: extractPoetryLock,
  describe: (input) => {
    const version = /^lock-version\s*=\s*"([^"]+)"/m.exec(input.text);
    return version ? `poetry.lock (lock-version ${version[1]})` : 'poetry.lock';
  },
};
